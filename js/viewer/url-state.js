// The view in the URL hash, so a link reopens it exactly: the series by counter path (never by position:
// the same counters sit in other columns of another log), the file's identity (name, size, a hash of its
// first and last bytes) so the viewer can say when the link was made on another file, the time range,
// the panes, the scale and the theme:
//   #file=<name>~<size>~<hash>&s=<path>&s=<path>&pane=0,1&from=<ms>&to=<ms>&scale=perfmon&theme=dark
// Links of the first format (`#series=0,5,9`, positions) still open, by position.

import { pathMachine, pathWithoutMachine } from '../core.js';

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
  const chosen = [...state.selected].sort((a, b) => a - b);
  for (const i of chosen) add('s', state.info[i].path);
  // Panes, aligned with the series, when any series is not in the first.
  if (chosen.some((i) => (state.paneOf?.get(i) ?? 0) > 0)) add('pane', chosen.map((i) => state.paneOf.get(i) ?? 0).join(','));
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
  const panes = (p.get('pane') ?? '').split(',').map(Number).map((n) => (Number.isInteger(n) && n >= 0 && n < 64 ? n : 0));
  return { file, paths, positions, range, scale, theme, panes, params: p };
}

/** A path without its machine, lower-cased (as compare.js matches two captures' counters). */
const withoutMachine = (path) => pathWithoutMachine(path).toLowerCase();
const machineOf = pathMachine;

/** The series of `info` a decoded view names (and the pane of each, `paneOf`): by path (case-insensitive,
 *  as PDH's paths are; a localized path also matches its English form), or by position in an old link.
 *  A path not found as written is looked for without its machine (a link made on WEB01's log opened on
 *  WEB02's): `elsewhere` lists those, `{ path, found }` (the first series of that counter path on any
 *  machine not already matched). `missing`: the paths not found either way. */
export function matchSeries(view, info) {
  if (!view.paths.length) return { indices: view.positions.filter((i) => i < info.length), missing: [], elsewhere: [], paneOf: new Map() };
  const byPath = new Map(), byCounter = new Map();
  for (const s of info) {
    for (const key of [s.path, s.englishPath]) {
      if (key === undefined) continue;
      if (!byPath.has(key.toLowerCase())) byPath.set(key.toLowerCase(), s.index);
      const k = withoutMachine(key);
      (byCounter.get(k) ?? byCounter.set(k, []).get(k)).push(s.index);
    }
  }
  const indices = [], missing = [], elsewhere = [], paneOf = new Map();
  const take = (i, k) => {
    indices.push(i);
    if (view.panes?.[k]) paneOf.set(i, view.panes[k]);
  };
  const unmatched = [];
  view.paths.forEach((path, k) => {
    const i = byPath.get(path.toLowerCase());
    if (i === undefined) unmatched.push([path, k]);
    else if (!indices.includes(i)) take(i, k);
  });
  for (const [path, k] of unmatched) {
    const i = (byCounter.get(withoutMachine(path)) ?? []).find((j) => !indices.includes(j));
    if (i === undefined) missing.push(path);
    else {
      take(i, k);
      elsewhere.push({ path, found: info[i].path });
    }
  }
  return { indices, missing, elsewhere, paneOf };
}

/** A sentence for the series a link found on another machine: "2 series were matched on \\WEB02 (the
 *  link names \\WEB01)". */
export function describeElsewhere(elsewhere) {
  if (!elsewhere.length) return '';
  const from = [...new Set(elsewhere.map((e) => machineOf(e.path)))];
  const to = [...new Set(elsewhere.map((e) => machineOf(e.found)))];
  const list = (ms) => ms.map((m) => `\\\\${m}`).join(', ');
  return `${elsewhere.length} series ${elsewhere.length === 1 ? 'was' : 'were'} matched on ${list(to)}: the link names ${list(from)}, which this log does not have.`;
}

/** Whether a link's range falls inside a log's times (a range elsewhere would show an empty chart). */
export const rangeInside = (range, timestamps) => !!range && timestamps.length > 0 && range[0] >= timestamps[0] && range[1] <= timestamps[timestamps.length - 1];

/** The URL of a view: this page's address with the view's hash. */
export const viewUrl = (hash) => `${location.origin}${location.pathname}${location.search}#${hash}`;

export function writeHash(hash) {
  history.replaceState(null, '', `${location.pathname}${location.search}#${hash}`);
}
