// Where a wasm module's bytes go: code per function (from the name section, so run it on the release
// module before wasm-bindgen and wasm-opt strip names), grouped by crate and by crate::module, and the
// data segments. Usage: node scripts/wasm-size.mjs [module.wasm] [--top N] [--filter text]
// The module format is the WebAssembly Core Specification's "Binary Format" (sections, LEB128 sizes)
// and its "Name Section" appendix (subsection 1: function names).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i < 0 ? dflt : args.splice(i, 2)[1];
};
const top = Number(opt('--top', 40));
const filter = opt('--filter', '');
const file = args[0] ?? 'target/wasm32-unknown-unknown/release/counterlens.wasm';
const bytes = readFileSync(file);

let pos = 8;
const u32 = () => {
  let result = 0, shift = 0, b;
  do {
    b = bytes[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return result;
};
const name = () => {
  const n = u32();
  const s = bytes.toString('utf8', pos, pos + n);
  pos += n;
  return s;
};

let importedFunctions = 0;
const bodySizes = [];
const names = new Map();
const sections = [];
let dataBytes = 0;
while (pos < bytes.length) {
  const id = bytes[pos++];
  const size = u32();
  const end = pos + size;
  const start = pos;
  if (id === 0) {
    const secName = name();
    sections.push([`custom ${secName}`, size]);
    if (secName === 'name') {
      while (pos < end) {
        const sub = bytes[pos++];
        const subSize = u32();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = u32();
          for (let i = 0; i < count; i++) {
            const idx = u32();
            names.set(idx, name());
          }
        }
        pos = subEnd;
      }
    }
  } else {
    sections.push([['custom', 'type', 'import', 'function', 'table', 'memory', 'global', 'export', 'start',
      'element', 'code', 'data', 'datacount'][id] ?? `id ${id}`, size]);
    if (id === 2) {
      const count = u32();
      for (let i = 0; i < count; i++) {
        name();
        name();
        const kind = bytes[pos++];
        if (kind === 0) { u32(); importedFunctions++; }
        else if (kind === 1) { pos++; const f = bytes[pos++]; u32(); if (f & 1) u32(); }
        else if (kind === 2) { const f = bytes[pos++]; u32(); if (f & 1) u32(); }
        else if (kind === 3) { pos += 2; }
      }
    } else if (id === 10) {
      const count = u32();
      for (let i = 0; i < count; i++) {
        const s = u32();
        bodySizes.push(s);
        pos += s;
      }
    } else if (id === 11) {
      dataBytes = size;
    }
  }
  pos = end;
  void start;
}

// Rust's legacy mangling (_ZN 3foo 3bar 17h<hash> E) with its $..$ escapes. Of a v0 name (_R..., the
// precompiled std's) only the crate is read, for the grouping: `core::.. (_RNv...)`.
function demangle(sym) {
  if (sym.startsWith('_R')) {
    const crate = /C[s0-9A-Za-z]*?_(\d+)([A-Za-z_][A-Za-z0-9_]*)/.exec(sym);
    return crate ? `${crate[2].slice(0, Number(crate[1]))}::.. (${sym})` : sym;
  }
  if (!sym.startsWith('_ZN')) return sym;
  let i = 3;
  const parts = [];
  while (i < sym.length && sym[i] !== 'E') {
    let j = i;
    while (/[0-9]/.test(sym[j])) j++;
    const n = Number(sym.slice(i, j));
    if (!n) break;
    parts.push(sym.slice(j, j + n));
    i = j + n;
  }
  if (parts.length && /^h[0-9a-f]{16}$/.test(parts.at(-1))) parts.pop();
  const esc = { SP: '@', BP: '*', RF: '&', LT: '<', GT: '>', LP: '(', RP: ')', C: ',' };
  return parts
    .map((p) => p.replace(/\$([A-Z]+|u[0-9a-f]+)\$/g, (m, e) =>
      esc[e] ?? (e[0] === 'u' ? String.fromCodePoint(parseInt(e.slice(1), 16)) : m)).replace(/\.\./g, '::'))
    .join('::')
    .replace(/^_/, '');
}

// The crate a function belongs to: for `<T as Trait>::f`, the implementing type's crate (the code
// exists because of it); otherwise the first path segment.
function owner(d) {
  let s = d.replace(/^<+/, '').replace(/^&(mut )?/, '').replace(/^\[/, '').replace(/^dyn /, '');
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(::([A-Za-z_][A-Za-z0-9_]*))?/.exec(s);
  if (!m) return ['?', '?'];
  return [m[1], m[3] && m[1] === 'counterlens' ? `${m[1]}::${m[3]}` : m[1]];
}

const fns = bodySizes.map((size, i) => {
  const raw = names.get(i + importedFunctions) ?? `func${i + importedFunctions}`;
  return { size, name: demangle(raw) };
});
const total = fns.reduce((a, f) => a + f.size, 0);
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

console.log(`${file}: ${bytes.length} bytes; code ${kb(total)} in ${fns.length} functions; data section ${kb(dataBytes)}`);
console.log('sections:', sections.filter(([, s]) => s > 1024).map(([n, s]) => `${n} ${kb(s)}`).join(', '));
const group = (key) => {
  const m = new Map();
  for (const f of fns) {
    const k = key(f);
    const g = m.get(k) ?? { size: 0, n: 0 };
    g.size += f.size;
    g.n++;
    m.set(k, g);
  }
  return [...m].sort((a, b) => b[1].size - a[1].size);
};
console.log('\nby crate:');
for (const [k, g] of group((f) => owner(f.name)[0]).slice(0, top)) console.log(`  ${kb(g.size).padStart(9)} ${String(g.n).padStart(5)}  ${k}`);
console.log('\nby counterlens module:');
for (const [k, g] of group((f) => owner(f.name)[1]).filter(([k]) => k.startsWith('counterlens')).slice(0, top))
  console.log(`  ${kb(g.size).padStart(9)} ${String(g.n).padStart(5)}  ${k}`);
console.log('\nlargest functions' + (filter ? ` matching ${filter}` : '') + ':');
for (const f of fns.filter((f) => f.name.includes(filter)).sort((a, b) => b.size - a.size).slice(0, top))
  console.log(`  ${kb(f.size).padStart(9)}  ${f.name.slice(0, 160)}`);
