// Comparing two captures (two runs, two servers): counters matched by path without the machine (so
// \\WEB01\Processor(_Total)\% Processor Time meets \\WEB02\Processor(_Total)\% Processor Time), the
// statistics of A's visible range beside those of the same stretch of B, aligned by clock time or by
// offset from each capture's start (chosen when the two runs do not overlap in time: by clock they would
// share nothing); a change table (mean, p95, max: A, B, difference, % change), sortable, exportable as CSV;
// B's lines drawn over A's, each with a legend row of its own.
import { el } from './dom.js';
import { selection, formatSeriesValue } from './state.js';
import { formatInUnit, pathWithoutMachine } from '../core.js';

/** A path without its machine, lower-cased: how counters of two captures are matched. */
export const counterKey = (path) => pathWithoutMachine(path).toLowerCase();

const FIGURES = ['mean', 'p95', 'max'];

/** Whether two captures' times overlap (by clock). Two runs that do not are compared by offset. */
export function runsOverlap(ta, tb) {
  if (!ta.length || !tb.length) return false;
  return ta[0] <= tb[tb.length - 1] && tb[0] <= ta[ta.length - 1];
}

/** B's legend rows for the overlays of A's selected series `indices`: B's path, and B's statistics over
 *  the stretch of B aligned with A's visible range. */
export function overlayLegend(indices, state, other, align) {
  const byKey = new Map(other.info.map((s) => [counterKey(s.path), s.index]));
  const shift = align === 'offset' ? other.timestamps[0] - state.timestamps[0] : 0;
  const [from, to] = state.range ?? [state.timestamps[0], state.timestamps[state.timestamps.length - 1]];
  return indices.flatMap((i) => {
    const j = byKey.get(counterKey(state.info[i].path));
    return j === undefined ? [] : [{ i, name: other.info[j].path, stats: other.capture.stats(j, from + shift, to + shift) }];
  });
}

/** The rows of the change table: for each selected series of A with a match in B, per figure A, B, the
 *  difference B - A and the change in % of A (NaN where A is 0). `align`: 'clock' or 'offset'. */
export function changeRows(state, other, align) {
  const a = state.capture, b = other.capture;
  const byKey = new Map(other.info.map((s) => [counterKey(s.path), s.index]));
  const [aStart, bStart] = [state.timestamps[0], other.timestamps[0]];
  const shift = align === 'offset' ? bStart - aStart : 0;
  const [from, to] = state.range ?? [state.timestamps[0], state.timestamps[state.timestamps.length - 1]];
  const rows = [], unmatched = [];
  for (const i of selection(state)) {
    const s = state.info[i];
    const j = byKey.get(counterKey(s.path));
    if (j === undefined) { unmatched.push(s.path); continue; }
    const sa = a.stats(i, from, to), sb = b.stats(j, from + shift, to + shift);
    const row = { i, path: s.path, key: counterKey(s.path) };
    for (const f of FIGURES) {
      row[`${f}A`] = sa[f];
      row[`${f}B`] = sb[f];
      row[`${f}Diff`] = sb[f] - sa[f];
      row[`${f}Pct`] = sa[f] === 0 ? NaN : (100 * (sb[f] - sa[f])) / Math.abs(sa[f]);
    }
    rows.push(row);
  }
  return { rows, unmatched };
}

export const COLUMNS = [['path', 'Counter'], ...FIGURES.flatMap((f) => [[`${f}A`, `${f} A`], [`${f}B`, `${f} B`], [`${f}Diff`, `${f} B−A`], [`${f}Pct`, `${f} %`]])];

export function sortRows(rows, sort) {
  if (!sort.key) return rows;
  return [...rows].sort((x, y) => {
    const [p, q] = [x[sort.key], y[sort.key]];
    if (typeof p === 'string') return sort.dir * p.localeCompare(q);
    if (Number.isNaN(p)) return 1;
    if (Number.isNaN(q)) return -1;
    return sort.dir * (p - q);
  });
}

export function renderChangeTable(table, state, rows, sort) {
  const head = el('tr');
  for (const [key, label] of COLUMNS) {
    const th = el('th', null, { 'data-key': key, 'aria-sort': sort.key === key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none' });
    th.append(el('button', label, { type: 'button' }));
    head.append(th);
  }
  const body = sortRows(rows, sort).map((r) => {
    const s = state.info[r.i];
    const tr = el('tr', null, { 'data-index': String(r.i) });
    tr.append(el('td', r.path));
    for (const [key] of COLUMNS.slice(1)) {
      const v = r[key];
      const text = Number.isNaN(v) ? '' : key.endsWith('Pct') ? `${v > 0 ? '+' : ''}${formatInUnit(v, 'percent')}` : formatSeriesValue(s, v);
      tr.append(el('td', text, { class: 'num', 'data-key': key }));
    }
    return tr;
  });
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  tbody.append(...body);
  table.replaceChildren(thead, tbody);
}

/** The change table as CSV: the numbers unformatted (a spreadsheet formats them). */
export function changeCsv(rows, sort) {
  const q = (t) => `"${String(t).replace(/"/g, '""')}"`;
  const lines = [COLUMNS.map(([, label]) => q(label)).join(',')];
  for (const r of sortRows(rows, sort)) lines.push([q(r.path), ...COLUMNS.slice(1).map(([k]) => (Number.isNaN(r[k]) ? '' : String(r[k])))].join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Series `j` of B on A's sample times: at each A time t, B's sample nearest t + shift (shift: B's start
 *  minus A's when aligned by offset, 0 by clock time) if one lies within half B's mean interval, else
 *  NaN. For drawing B over A (dashed, in the colour of A's series). */
export function resampled(other, j, timestamps, shift) {
  const tb = other.timestamps, vb = other.capture.values(j);
  const n = tb.length;
  const out = new Float64Array(timestamps.length).fill(NaN);
  if (n === 0) return out;
  const tolerance = n > 1 ? (tb[n - 1] - tb[0]) / (n - 1) / 2 : 500;
  let k = 0;
  for (let m = 0; m < timestamps.length; m++) {
    const t = timestamps[m] + shift;
    while (k + 1 < n && tb[k + 1] <= t) k++; // A's times rise, so one pass suffices
    const best = k + 1 < n && Math.abs(tb[k + 1] - t) < Math.abs(tb[k] - t) ? k + 1 : k;
    if (Math.abs(tb[best] - t) <= tolerance) out[m] = vb[best];
  }
  return out;
}

/** B's lines to overlay on a chart of A's series `indices` (those with a match in B). */
export function overlaysFor(indices, state, other, align, cache) {
  const byKey = new Map(other.info.map((s) => [counterKey(s.path), s.index]));
  const shift = align === 'offset' ? other.timestamps[0] - state.timestamps[0] : 0;
  const out = [];
  indices.forEach((i, k) => {
    const j = byKey.get(counterKey(state.info[i].path));
    if (j === undefined) return;
    const key = `${i}:${shift}`;
    if (!cache.has(key)) cache.set(key, resampled(other, j, state.timestamps, shift));
    out.push({ values: cache.get(key), slot: state.slots.get(i), unitOf: k });
  });
  return out;
}
