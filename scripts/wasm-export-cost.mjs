// What exports cost: pkg/counterlens_bg.wasm with the named exports removed (or, with --only, with every
// export removed but those and wasm-bindgen's own), re-optimised by wasm-opt -O3, which drops the code no
// remaining export reaches. The data section stays whole (wasm-opt cannot tell which data is unused), so
// a module built without the code comes out some KB smaller still. docs/performance.md ("A second module
// on demand") gives the figures. Usage (after scripts/build.sh):
//   node scripts/wasm-export-cost.mjs importPalThresholds analysisReport   # each one on its own
//   node scripts/wasm-export-cost.mjs --all analyze,analysisReport         # a set, removed together
//   node scripts/wasm-export-cost.mjs --only importPalThresholds           # a module of just that
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repo = new URL('..', import.meta.url).pathname;
const source = readFileSync(join(repo, 'pkg/counterlens_bg.wasm'));
const args = process.argv.slice(2);

function leb(n) {
  const out = [];
  do {
    let b = n & 0x7f;
    n >>>= 7;
    if (n) b |= 0x80;
    out.push(b);
  } while (n);
  return Buffer.from(out);
}

/** The module with the export section rewritten to the exports `keep(name)` accepts. */
function withExports(keep) {
  let pos = 8;
  const u32 = () => {
    let r = 0, shift = 0, b;
    do {
      b = source[pos++];
      r += (b & 0x7f) * 2 ** shift;
      shift += 7;
    } while (b & 0x80);
    return r;
  };
  const parts = [source.subarray(0, 8)];
  while (pos < source.length) {
    const start = pos;
    const id = source[pos++];
    const size = u32();
    const end = pos + size;
    if (id === 7) {
      const count = u32();
      const kept = [];
      for (let i = 0; i < count; i++) {
        const entry = pos;
        const n = u32();
        const name = source.toString('utf8', pos, pos + n);
        pos += n + 1; // the name, then the export kind
        u32(); // the index
        if (keep(name)) kept.push(source.subarray(entry, pos));
      }
      const body = Buffer.concat([leb(kept.length), ...kept]);
      parts.push(Buffer.from([7]), leb(body.length), body);
    } else {
      parts.push(source.subarray(start, end));
    }
    pos = end;
  }
  return Buffer.concat(parts);
}

const dir = mkdtempSync(join(tmpdir(), 'wasm-export-cost-'));
function optimisedSize(wasm) {
  const input = join(dir, 'in.wasm'), output = join(dir, 'out.wasm');
  writeFileSync(input, wasm);
  execFileSync(join(repo, 'node_modules/.bin/wasm-opt'), ['-O3', '--enable-bulk-memory', '--enable-mutable-globals',
    '--enable-sign-ext', '--enable-nontrapping-float-to-int', '--enable-reference-types', '--enable-multivalue',
    '--enable-simd', input, '-o', output]);
  const out = readFileSync(output);
  return { bytes: out.length, gzip: gzipSync(out, { level: 9 }).length };
}
const show = (label, r) => console.log(`${label.padEnd(60)} ${String(r.bytes).padStart(9)} bytes ${String(r.gzip).padStart(8)} gzipped`);

try {
  const whole = optimisedSize(source);
  show('whole module, re-optimised', whole);
  // wasm-bindgen's own exports (allocation, the externref table, the start function, class destructors).
  const internal = (name) => name === 'memory' || /^__wbindgen_|^__externref|^__wbg_.*_free$/.test(name);
  if (args[0] === '--only') {
    const names = new Set(args[1].split(','));
    show(`only ${[...names].join(', ')}`, optimisedSize(withExports((n) => names.has(n) || internal(n))));
  } else if (args[0] === '--all') {
    const names = new Set(args[1].split(','));
    const r = optimisedSize(withExports((n) => !names.has(n)));
    show(`without ${[...names].join(', ')}`, r);
    console.log(`  they cost ${whole.bytes - r.bytes} bytes (${whole.gzip - r.gzip} gzipped)`);
  } else {
    for (const name of args) {
      const r = optimisedSize(withExports((n) => n !== name));
      show(`without ${name}: costs ${whole.bytes - r.bytes} bytes (${whole.gzip - r.gzip} gzipped)`, r);
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
