// Seeds of the analysis fuzz targets (fuzz/fuzz_targets/pal_import.rs, rule_pack.rs, expression.rs), written
// into <corpus dir>/<target>/ by scripts/fuzz.sh from the repository's own files, so nothing of PAL's is
// stored under fuzz/:
//   pal_import  tests/vectors/pal/*.xml whole, and each ANALYSIS with its file's QUESTIONs as a small
//               PAL file of its own (the fuzzer starts from every snippet form at a few KB, not 220 KB);
//   rule_pack   the built-in packs (crate/data/packs/*.json) and the pack of the SystemOverview.xml import;
//   expression  every threshold and derived-series expression of those packs, one per file, and the
//               expression syntax's own examples.
//   node scripts/fuzz-seeds.mjs <corpus dir>
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2] ?? 'fuzz/corpus';
const dir = (t) => {
  const d = join(out, t);
  mkdirSync(d, { recursive: true });
  return d;
};

// pal_import
const pal = 'tests/vectors/pal';
const palDir = dir('pal_import');
let analyses = 0;
for (const f of readdirSync(pal).filter((n) => n.endsWith('.xml'))) {
  const text = readFileSync(join(pal, f), 'utf8');
  writeFileSync(join(palDir, `seed-${f}`), text);
  const questions = (text.match(/<QUESTION\b[\s\S]*?<\/QUESTION>/g) ?? []).join('\n');
  for (const [k, a] of (text.match(/<ANALYSIS\b[\s\S]*?<\/ANALYSIS>/g) ?? []).entries()) {
    writeFileSync(join(palDir, `seed-${f}-${k}.xml`), `<PAL NAME="seed">\n${questions}\n${a}\n</PAL>\n`);
    analyses += 1;
  }
}

// rule_pack
const packs = 'crate/data/packs';
const packDir = dir('rule_pack');
const packTexts = [];
for (const f of readdirSync(packs).filter((n) => n.endsWith('.json'))) {
  const text = readFileSync(join(packs, f), 'utf8');
  writeFileSync(join(packDir, `seed-${f}`), text);
  packTexts.push(text);
}
const imported = JSON.parse(readFileSync(join(pal, 'SystemOverview.import.json'), 'utf8')).pack;
const importedText = JSON.stringify(imported, null, 2);
writeFileSync(join(packDir, 'seed-pal-systemoverview.json'), importedText);
packTexts.push(importedText);

// expression
const exprDir = dir('expression');
const expressions = new Set([
  'PhysicalMemoryGB * 1024 * 0.10',
  'max(logicalProcessors * 2, 4)',
  '100MB',
  "is(OS, 'Windows XP 32-bit') * 128MB + (1 - is(OS, 'Windows XP 32-bit')) * 2GB",
  "startsWith(OS, '32') * 1PB + at(OS, 11, '32')",
  'if(gt(a, 1) * gt(b, 1), round(a / b * 100), 0)',
  'abs(a - b) / 1024',
  '-(5) - -5 * min(1e3, .5)',
]);
const walk = (v) => {
  if (Array.isArray(v)) v.forEach(walk);
  else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string' && ['threshold', 'expression', 'min', 'max'].includes(k)) expressions.add(x);
      else walk(x);
    }
  }
};
packTexts.forEach((t) => walk(JSON.parse(t)));
walk(JSON.parse(readFileSync(join(pal, 'SystemOverview.import.json'), 'utf8')));
[...expressions].forEach((e, k) => writeFileSync(join(exprDir, `seed-${k}`), e));

console.log(
  `seeds: pal_import ${readdirSync(palDir).length} (${analyses} single analyses), rule_pack ${packTexts.length}, expression ${expressions.size}`,
);
