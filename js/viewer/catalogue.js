// A log larger than the viewer's memory budget (a Data Collector Set left running for days): its columns
// would not fit, so it is listed first (the catalogue pass: names, sample counts, time range, no values),
// then only a part is read: the series the built-in analysis packs look at and those the user picks, as
// many as the budget holds. This module decides the budget, plans the part, and shows what was left out
// with a picker to load more. The reading itself is reading.js's; the wiring is index.js's.
import { rulePacks, rulePack, formatInUnit } from '../core.js';
import { el } from './dom.js';
import { seriesFilter } from './series-tree.js';

const MiB = 2 ** 20;
/** The budget without navigator.deviceMemory (Firefox, Safari): 512 MiB of columns. */
export const DEFAULT_BUDGET = 512 * MiB;
/** The budget's bounds: at least 256 MiB; at most 1 GiB, well under WebAssembly's 4 GiB (the columns
 *  exist in the reading Worker's memory, cross to the page, and are held again in the page's module). */
export const MIN_BUDGET = 256 * MiB;
export const MAX_BUDGET = 1024 * MiB;

/** Bytes of columns (8 per value and timestamp) the viewer reads whole: an eighth of the device's memory
 *  as `navigator.deviceMemory` gives it (GiB, rounded, at most 8 in Chrome), within MIN_BUDGET and
 *  MAX_BUDGET; DEFAULT_BUDGET where the browser does not say. 8 GiB: 1 GiB; 4 GiB: 512 MiB; 2 GiB: 256 MiB. */
export function columnBudget(deviceMemory = globalThis.navigator?.deviceMemory) {
  if (!(deviceMemory > 0)) return DEFAULT_BUDGET;
  return Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.round(deviceMemory * 1024 * MiB / 8)));
}

/** A budget as written in the page's `?budget=` (bytes, or with k, M or G: "300M"); undefined otherwise. */
export function parseBudget(text) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)i?b?\s*$/i.exec(text ?? '');
  if (!m) return undefined;
  const bytes = Number(m[1]) * { '': 1, k: 1024, m: MiB, g: 1024 * MiB }[m[2].toLowerCase()];
  return bytes >= 1 ? Math.floor(bytes) : undefined;
}

/** The columns a file's whole read would take, guessed from its size before reading: a .blg holds at
 *  least 8 bytes per raw value (x 1); a text log at least 4 per cell (`"1",`: x 2). On the high side: the
 *  catalogue then says exactly. */
export function estimateColumnBytes(size, name) {
  return /\.blg$/i.test(name ?? '') ? size : 2 * size;
}

let patterns = null;
/** The counter paths (Perfmon wildcards) the built-in analysis packs read, from the packs themselves. */
export function packPatterns() {
  if (patterns) return patterns;
  const found = new Set();
  const walk = (o, key) => {
    if (typeof o === 'string') { if (key === 'counter' && o.startsWith('\\')) found.add(o); }
    else if (Array.isArray(o)) o.forEach((v) => walk(v, key));
    else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) walk(v, k);
  };
  for (const p of rulePacks()) walk(rulePack(p.id), '');
  patterns = [...found];
  return patterns;
}

/** Bytes of the columns of `n` series (and the timestamps) of a log of `rows` samples, every `every`th read. */
export const partBytes = (rows, n, every = 1) => Math.ceil(rows / every) * 8 * (n + 1);

/**
 * The part of a log to read within `budget`: the series the user picked (catalogue indices) first, then
 * those the packs' patterns match, in file order, as many as fit. When not even one series fits, every
 * Nth sample is read. Returns `{ paths, indices, packs, picked, every, bytes, fits }` (`packs`/`picked`:
 * how many of each were read; `fits`: how many series fit in all).
 */
export function planPart(catalogue, budget, { patterns: pats = packPatterns(), picked = [] } = {}) {
  const { rows, series } = catalogue;
  const every = partBytes(rows, 1) > budget ? Math.ceil(partBytes(rows, 1) / budget) : 1;
  const fits = Math.max(1, Math.floor(budget / (Math.ceil(rows / every) * 8)) - 1);
  const matchers = pats.map(seriesFilter);
  const byPack = series.filter((s) => matchers.some((m) => m(s.path))).map((s) => s.index);
  const chosen = new Set([...picked].filter((i) => series[i]));
  const pickedRead = [...chosen].slice(0, fits);
  const indices = new Set(pickedRead);
  let packs = 0;
  for (const i of byPack) {
    if (indices.size >= fits) break;
    if (!indices.has(i)) { indices.add(i); packs++; }
  }
  // A log the packs know nothing of: its first series, as many as fit (at most 50), to start from.
  if (!indices.size) for (const s of series.slice(0, Math.min(fits, 50))) indices.add(s.index);
  const sorted = [...indices].sort((a, b) => a - b);
  return { paths: sorted.map((i) => series[i].path), indices: sorted, packs, picked: pickedRead.length, every, bytes: partBytes(rows, sorted.length, every), fits };
}

/** Bytes in words, as the core writes sizes (`formatInUnit`: 3.6 GB, 512 MB, 20 KB; binary prefixes). */
export const formatBytes = (b) => formatInUnit(b, 'bytes');

const n = (x) => x.toLocaleString('en-US');

/** The sentence saying what was read of a log too large to read whole, and what was left out. */
export function describePart(name, catalogue, budget, plan) {
  const read = plan.indices.length;
  const why = [plan.packs ? `${n(plan.packs)} the analysis packs look at` : '', plan.picked ? `${n(plan.picked)} you picked` : '']
    .filter(Boolean).join(' and ') || 'the first ones (the analysis packs look at none of its counters)';
  return `${name} is too large to read whole: its ${n(catalogue.series.length)} series x ${n(catalogue.rows)} samples take ${formatBytes(catalogue.columnBytes)} as columns, `
    + `over this viewer's memory budget of ${formatBytes(budget)}. Read ${n(read)} of its ${n(catalogue.series.length)} series (${why})`
    + (plan.every > 1 ? `, every ${n(plan.every)}th sample` : '')
    + `; ${n(catalogue.series.length - read)} left out. Choose series to load others instead.`;
}

/** Series listed in the picker at once; a filter narrows the rest. */
const LISTED = 200;

/**
 * Shows what was read of a log too large to read whole (`describePart`) and a picker over its catalogue:
 * a filter, a checkbox per series (those read ticked), what the ticked ones take against the budget, and
 * Load, which calls `onLoad(indices)` with the ticked series. Everything from the file is textContent.
 */
export function renderPart(container, { name, catalogue, budget, plan }, { onLoad }) {
  const ticked = new Set(plan.indices);
  const perSeries = Math.ceil(catalogue.rows / plan.every) * 8;
  const room = () => Math.max(0, Math.floor(budget / perSeries) - 1);
  const message = el('p', describePart(name, catalogue, budget, plan), { 'data-part': 'part-message' });
  const details = el('details', null, { 'data-part': 'part-picker' });
  const summary = el('summary', 'Choose series to load');
  const filter = el('input', null, { type: 'search', placeholder: 'Filter: words or \\Object(*)\\Counter', 'aria-label': 'Filter the log\'s series', 'data-part': 'part-filter' });
  const use = el('p', '', { role: 'status', 'data-part': 'part-use', class: 'muted' });
  const list = el('ul', null, { 'data-part': 'part-list', class: 'cl-part-list' });
  const load = el('button', 'Load the ticked series', { type: 'button', 'data-part': 'part-load' });
  const more = el('p', '', { class: 'muted' });
  function showUse() {
    const over = ticked.size > room();
    use.textContent = `${n(ticked.size)} ticked: ${formatBytes(partBytes(catalogue.rows, ticked.size, plan.every))} of ${formatBytes(budget)}; `
      + (over ? `${n(ticked.size - room())} too many, untick some.` : `room for ${n(room() - ticked.size)} more.`);
    load.disabled = over || ticked.size === 0;
  }
  function showList() {
    const matches = seriesFilter(filter.value);
    const shown = catalogue.series.filter((s) => matches(s.path));
    list.replaceChildren(...shown.slice(0, LISTED).map((s) => {
      const box = el('input', null, { type: 'checkbox', 'data-index': String(s.index) });
      box.checked = ticked.has(s.index);
      const label = el('label');
      label.append(box, el('span', s.path), ' ', el('span', `(${n(s.samples)} samples)`, { class: 'muted' }));
      const li = el('li');
      li.append(label);
      return li;
    }));
    more.textContent = shown.length > LISTED ? `${n(shown.length - LISTED)} more match: narrow the filter.` : `${n(shown.length)} series match.`;
  }
  list.addEventListener('change', (e) => {
    const i = Number(e.target.dataset.index);
    if (!Number.isInteger(i)) return;
    if (e.target.checked) ticked.add(i);
    else ticked.delete(i);
    showUse();
  });
  filter.addEventListener('input', showList);
  load.addEventListener('click', () => onLoad([...ticked].sort((a, b) => a - b)));
  details.append(summary, filter, use, list, more, load);
  showList();
  showUse();
  container.replaceChildren(message, details);
  container.hidden = false;
}
