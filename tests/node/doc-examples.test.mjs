// Every JavaScript example of README.md and docs/*.md, run as written against the built package (as
// cli/tests/fleet_doc.rs runs docs/fleet.md's shell commands): each ```js block is written to a module in a
// scratch folder, with `from 'counterlens'` pointing at this checkout's js/node.js, and run by Node there.
// The folder holds the files the examples open (log.blg, srv01.blg, week.csv), and the few values an example
// leaves to its reader (`bytes`, `manifestXml`, `sqlXml`, `quickXml`) are defined before it when it uses
// them without declaring them. A result written as a comment on the line after a statement
// (`cook(...);` then `// { value: 9.378262382554226, status: 'ok' }`) is checked too.
// A block for a page (it touches `document`) cannot run in Node: its syntax is checked, its imports must be
// names the package exports (js/index.d.ts), and every counter path in it must read, as JavaScript reads
// the string, as a path with its backslashes (the README once wrote '\\*\Processor(_Total)\*', which
// JavaScript reads as `\*Processor(_Total)*`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, writeFileSync, mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const vectors = join(root, 'tests/vectors');
const entry = pathToFileURL(join(root, 'js/node.js')).href;

/** The ```js blocks of a Markdown text, with the line each starts on. */
function jsBlocks(md) {
  const out = [];
  let open = null;
  md.split('\n').forEach((line, i) => {
    const fence = line.match(/^```(\S*)/);
    if (fence && !open) open = { info: fence[1], line: i + 1, body: [] };
    else if (fence && open) {
      if (['js', 'javascript', 'mjs'].includes(open.info)) out.push({ line: open.line, code: open.body.join('\n') });
      open = null;
    } else if (open) open.body.push(line);
  });
  return out;
}

const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const examples = docs.flatMap((doc) => jsBlocks(readFileSync(join(root, doc), 'utf8')).map((b) => ({ doc, ...b })));

/** What the reader supplies: name -> the expression that defines it in the scratch folder. */
const given = {
  bytes: `new Uint8Array(__read(${JSON.stringify(join(vectors, 'captures/BasicPerfCounters.blg'))}))`,
  manifestXml: `__read(${JSON.stringify(join(vectors, 'registration/rich.man'))}, 'utf8')`,
  sqlXml: `__read(${JSON.stringify(join(vectors, 'pal/SQLServer.xml'))}, 'utf8')`,
  quickXml: `__read(${JSON.stringify(join(vectors, 'pal/QuickSystemOverview.xml'))}, 'utf8')`,
};

/** A relog CSV of one machine, hourly from 2026-11-22 00:00 to 2026-11-24 23:00 UTC (72 rows): CPU at
 *  10 + hour % 7 percent, Available MBytes at 4000 - hour. */
function weekCsv() {
  const rows = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\WEB01\\Processor(_Total)\\% Processor Time","\\\\WEB01\\Memory\\Available MBytes","\\\\WEB01\\System\\Processor Queue Length"'];
  for (let h = 0; h < 72; h++) {
    const t = new Date(Date.UTC(2026, 10, 22, h));
    const p = (n) => String(n).padStart(2, '0');
    rows.push(`"${p(t.getUTCMonth() + 1)}/${p(t.getUTCDate())}/${t.getUTCFullYear()} ${p(t.getUTCHours())}:00:00.000","${10 + (h % 7)}","${4000 - h}","1"`);
  }
  return rows.join('\r\n') + '\r\n';
}

/** `statement;` followed by a line `// <literal>`: the statement's value is checked against the literal
 *  (objects: the keys the literal lists). */
function withExpectations(code) {
  const out = [];
  let start = 0; // where the statement being read began, in `out`
  const codeOf = (line) => (line ?? '').replace(/\s*\/\/.*$/, '').trimEnd();
  for (const line of code.split('\n')) {
    const prev = codeOf(out.at(-1));
    const result = line.match(/^\/\/ (\{.*\}|'.*')\s*$/);
    if (result && prev.endsWith(';')) {
      const text = out.slice(start).map(codeOf).join('\n').replace(/;$/, '');
      out.splice(start, out.length - start, `__expect((${text}), (${result[1]}));`);
      continue;
    }
    if (prev === '' || prev.endsWith(';')) start = out.length;
    out.push(line);
  }
  return out.join('\n');
}

const prelude = `import { readFileSync as __read } from 'node:fs';
import { deepStrictEqual as __deep, strictEqual as __eq } from 'node:assert/strict';
const __expect = (got, want) => typeof want === 'object'
  ? __deep(Object.fromEntries(Object.keys(want).map((k) => [k, got[k]])), want)
  : __eq(got, want);
`;

function declares(code, name) {
  return new RegExp(`\\b(const|let|var|function)\\s+${name}\\b|import\\s*\\{[^}]*\\b${name}\\b`).test(code);
}

/** The counter paths a block writes as string literals, as JavaScript reads them. */
function pathLiterals(code) {
  const out = [];
  for (const m of code.matchAll(/'((?:[^'\\\n]|\\.)*)'/g)) {
    if (!m[1].includes('\\')) continue;
    // The literal as JavaScript reads it (the docs' own text, evaluated as a string expression).
    out.push({ written: m[0], value: Function(`return ${m[0]}`)() });
  }
  return out;
}

const browserOnly = (code) => /\bdocument\./.test(code);

test('the docs have JavaScript examples to run', () => {
  // README.md's blocks: cook/explain, openCapture, parallel and parts, registration, analysis, the viewer.
  assert.ok(examples.filter((e) => e.doc === 'README.md').length >= 6, `${examples.length} examples`);
});

test('every counter path an example writes reads as a path, as JavaScript reads the string', () => {
  for (const e of examples) {
    for (const p of pathLiterals(e.code)) {
      if (!/\(|\\%|\\Memory|\\Processor/.test(p.value)) continue;
      // \\MACHINE\Object(instance)\Counter or \Object\Counter: a backslash before the object and the counter.
      assert.match(p.value, /^(\\\\[^\\]+)?\\[^\\]+\\[^\\]+$/, `${e.doc}:${e.line}: ${p.written} reads as ${p.value}`);
    }
  }
});

test('the examples for a page import what the package exports and parse', () => {
  const contract = readFileSync(join(root, 'js/index.d.ts'), 'utf8') + readFileSync(join(root, 'js/viewer.d.ts'), 'utf8');
  const dir = mkdtempSync(join(tmpdir(), 'cl-doc-'));
  try {
    for (const e of examples.filter((x) => browserOnly(x.code))) {
      for (const m of e.code.matchAll(/import\s+(?:\w+\s*,\s*)?\{([^}]*)\}\s*from\s*'counterlens'/g)) {
        for (const name of m[1].split(',').map((s) => s.trim()).filter(Boolean)) {
          assert.match(contract, new RegExp(`\\b(function|const|class)\\s+${name}\\b`), `${e.doc}:${e.line}: ${name}`);
        }
      }
      const file = join(dir, `page-${e.line}.mjs`);
      writeFileSync(file, e.code.replace(/from 'counterlens'/g, `from '${entry}'`));
      const r = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      assert.equal(r.status, 0, `${e.doc}:${e.line}: ${r.stderr}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('every example for Node runs as written against the built package', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-doc-'));
  try {
    copyFileSync(join(vectors, 'captures/BasicPerfCounters.blg'), join(dir, 'log.blg'));
    copyFileSync(join(vectors, 'captures/PAL_SampleLog.blg'), join(dir, 'srv01.blg'));
    writeFileSync(join(dir, 'week.csv'), weekCsv());
    let ran = 0;
    for (const e of examples.filter((x) => !browserOnly(x.code))) {
      const defs = Object.entries(given).filter(([name]) => new RegExp(`\\b${name}\\b`).test(e.code) && !declares(e.code, name))
        .map(([name, expr]) => `const ${name} = ${expr};`);
      const body = withExpectations(e.code).replace(/from 'counterlens'/g, `from '${entry}'`);
      // Static imports first (a module's imports are hoisted anyway), then the reader's values, then the code.
      const imports = body.split('\n').filter((l) => /^import\b/.test(l));
      const rest = body.split('\n').filter((l) => !/^import\b/.test(l));
      const file = join(dir, `example-${e.doc.replace(/\W/g, '_')}-${e.line}.mjs`);
      writeFileSync(file, [prelude, ...imports, ...defs, ...rest].join('\n'));
      const r = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, `${e.doc}:${e.line} failed:\n${r.stderr}\n--- as run:\n${readFileSync(file, 'utf8')}`);
      ran++;
    }
    assert.ok(ran >= 5, `${ran} examples ran`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
