// The view in the URL hash, so a link reopens it exactly: the series by counter path (never by position:
// the same counters sit in other columns of another log), the file's identity (name, size, a hash of its
// first and last bytes) so the viewer can say when the link was made on another file, the time range,
// the scale and the theme:
//   #file=<name>~<size>~<hash>&s=<path>&s=<path>&from=<ms>&to=<ms>&scale=perfmon&theme=dark
// Links of the first format (`#series=0,5,9`, positions) still open, by position.

const EDGE = 64 * 1024; // bytes hashed at each end of the file

/** FNV-1a (32 bits) over bytes, continuing from `h`. */
function fnv1a(bytes, h = 0x811c9dc5) {
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193) >>> 0;
  return h;
}

/** A file's identity: its name, size, and FNV-1a of its first and last 64 KiB (8 hex digits). Reads
 *  at most 128 KiB of the Blob. */
export async function fileIdentity(blob, name) {
  const head = new Uint8Array(await blob.slice(0, EDGE).arrayBuffer());
  const tail = blob.size > EDGE ? new Uint8Array(await blob.slice(Math.max(EDGE, blob.size - EDGE)).arrayBuffer()) : new Uint8Array();
  return { name, size: blob.size, hash: fnv1a(tail, fnv1a(head)).toString(16).padStart(8, '0') };
}

export const sameFile = (a, b) => !!a && !!b && a.size === b.size && a.hash === b.hash;

/** A value for the hash, escaped only where the hash's syntax needs it (so a counter path stays
 *  readable: `s=\\H\Processor(_Total)\%25%20Processor%20Time`). URLSearchParams reads it back. */
const escape = (v) => String(v).replace(/[%&=+#"<>`\s]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));

/** The hash of the current view. */
export function encodeView(state, extra = {}) {
  const p = [];
  const add = (k, v) => p.push(`${k}=${escape(v)}`);
  if (state.source) add('file', `${state.source.name}~${state.source.size}~${state.source.hash}`);
  for (const i of [...state.selected].sort((a, b) => a - b)) add('s', state.info[i].path);
  if (state.range) {
    add('from', Math.round(state.range[0]));
    add('to', Math.round(state.range[1]));
  }
  if (state.yScale && state.yScale !== 'units') add('scale', state.yScale);
  if (state.theme && state.theme !== 'auto') add('theme', state.theme);
  for (const [k, v] of Object.entries(extra)) if (v !== undefined && v !== null && v !== '') add(k, v);
  return p.join('&');
}

/** What a hash asks for: `{ file, paths, positions, range, scale, theme, params }`; null when it names no
 *  series (an ordinary link). `file` is `{ name, size, hash }` or null. */
export function decodeView(hash) {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const paths = p.getAll('s');
  const positions = p.has('series') ? p.get('series').split(',').filter(Boolean).map(Number).filter((i) => Number.isInteger(i) && i >= 0) : null;
  if (!paths.length && !positions) return null;
  let file = null;
  const m = /^(.*)~(\d+)~([0-9a-f]{8})$/.exec(p.get('file') ?? '');
  if (m) file = { name: m[1], size: Number(m[2]), hash: m[3] };
  const from = Number(p.get('from')), to = Number(p.get('to'));
  const range = p.has('from') && p.has('to') && Number.isFinite(from) && Number.isFinite(to) && to > from ? [from, to] : null;
  const scale = ['units', 'perfmon', 'log'].includes(p.get('scale')) ? p.get('scale') : 'units';
  const theme = ['auto', 'light', 'dark'].includes(p.get('theme')) ? p.get('theme') : 'auto';
  return { file, paths, positions, range, scale, theme, params: p };
}

/** The series of `info` a decoded view names: by path (case-insensitive, as PDH's paths are; a localized
 *  path also matches its English form), or by position in an old link. `missing`: the paths not found. */
export function matchSeries(view, info) {
  if (!view.paths.length) return { indices: view.positions.filter((i) => i < info.length), missing: [] };
  const byPath = new Map();
  for (const s of info) {
    for (const key of [s.path, s.englishPath]) if (key !== undefined && !byPath.has(key.toLowerCase())) byPath.set(key.toLowerCase(), s.index);
  }
  const indices = [], missing = [];
  for (const path of view.paths) {
    const i = byPath.get(path.toLowerCase());
    if (i === undefined) missing.push(path);
    else if (!indices.includes(i)) indices.push(i);
  }
  return { indices, missing };
}

export function writeHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}#${hash}`);
}
