// The series browser: filters (words or a perfmon wildcard path), the machine > object > counter >
// instance tree with counts, the default selection of a newly opened capture.
import { el } from './dom.js';

const MAX_LISTED = 2000; // series rows shown at once; the filter narrows the rest

/** A filter: a perfmon path pattern when it starts with a backslash (`\\*\Processor(*)\% Processor Time`,
 *  `\Memory\*`; `*` matches anything, a path without a machine matches every machine), else words that
 *  must all appear in the path. Case-insensitive, as PDH's paths are. */
export function seriesFilter(text) {
  const t = text.trim();
  if (t.startsWith('\\')) {
    const esc = (p) => p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    const re = new RegExp('^' + (t.startsWith('\\\\') ? esc(t) : '(\\\\\\\\[^\\\\]*)?' + esc(t)) + '$', 'i');
    return (path) => re.test(path);
  }
  const words = t.toLowerCase().split(/\s+/).filter(Boolean);
  return (path) => words.every((w) => path.toLowerCase().includes(w));
}

/** `seriesFilter` over SeriesInfo, its pattern compiled once for the whole list. */
export function pathFilter(text) {
  const matches = seriesFilter(text);
  return (s) => matches(s.path) || (s.englishPath !== undefined && matches(s.englishPath)); // localized paths match in English too
}

/** At most this many series are selected when a capture opens: a chart of hundreds of lines says
 *  nothing, and drawing them (rasterised at paint time) can take seconds. */
const DEFAULT_MAX = 8;

/** Series shown at first: % Processor Time of the Processor instances (_Total first, at most
 *  DEFAULT_MAX), or the first few series. */
export function defaultSelection(series) {
  const cpu = series.filter((s) => /^processor$/i.test(s.object) && /% processor time/i.test(s.counter));
  const total = cpu.filter((s) => s.instance === '_Total');
  const list = cpu.length ? [...total, ...cpu.filter((s) => s.instance !== '_Total')] : series;
  // In file order, so colours follow the order of the counters.
  return list.slice(0, cpu.length ? DEFAULT_MAX : 4).map((s) => s.index).sort((a, b) => a - b);
}

/** Renders the tree of the series `filterText` matches into `list`, and the count into `countLine`. */
export function renderSeriesTree({ list, countLine }, info, filterText, selected) {
  const filtering = filterText.trim() !== '';
  const shown = info.filter(pathFilter(filterText));
  const tree = new Map(); // machine -> object -> counter -> [series]
  const english = new Map(); // a localized object, or object\counter -> its English name, shown beside it
  const beside = (written, key = written) => (english.has(key) && english.get(key) !== written ? `${written} — ${english.get(key)}` : written);
  for (const s of shown.slice(0, MAX_LISTED)) {
    if (s.englishObject) english.set(s.object, s.englishObject).set(`${s.object}\\${s.counter}`, s.englishCounter);
    const m = tree.get(s.machine) ?? tree.set(s.machine, new Map()).get(s.machine);
    const o = m.get(s.object) ?? m.set(s.object, new Map()).get(s.object);
    (o.get(s.counter) ?? o.set(s.counter, []).get(s.counter)).push(s);
  }
  const count = (node) => (Array.isArray(node) ? node.length : [...node.values()].reduce((n, c) => n + count(c), 0));
  const anySelected = (node) => (Array.isArray(node) ? node.some((s) => selected.has(s.index)) : [...node.values()].some(anySelected));
  const branch = (label, node, level, children) => {
    const details = el('details', null, { class: `level-${level}` });
    details.open = filtering || anySelected(node) || (level === 'machine' && tree.size === 1);
    details.append(el('summary', `${label} (${count(node)})`));
    details.append(...children);
    return details;
  };
  const leaf = (s, text) => {
    const label = el('label', null, { 'data-index': String(s.index) });
    const box = el('input', null, { type: 'checkbox', 'data-index': String(s.index) });
    box.checked = selected.has(s.index);
    label.append(box, el('span', text));
    return label;
  };
  const machines = [...tree].map(([machine, objects]) => branch(machine ? `\\\\${machine}` : '(this machine)', objects, 'machine',
    [...objects].map(([object, counters]) => branch(beside(object), counters, 'object',
      [...counters].map(([counter, list]) => (list.length === 1 && list[0].instance === undefined
        ? leaf(list[0], beside(counter, `${object}\\${counter}`))
        : branch(beside(counter, `${object}\\${counter}`), list, 'counter', list.map((s) => leaf(s, s.instance === undefined ? '(no instance)' : `${s.parent ? s.parent + '/' : ''}${s.instance}`)))))))));
  list.replaceChildren(...machines);
  countLine.textContent = shown.length > MAX_LISTED
    ? `${shown.length} of ${info.length} series match; the first ${MAX_LISTED} are listed`
    : `${shown.length} of ${info.length} series`;
  return shown;
}

/** Matches to select at most at once: more lines than this say nothing and draw slowly. */
export const MAX_SELECT = 200;

/** The top `n` of `matches` (SeriesInfo) by statistic `by` (`max`, `mean` or `p95`) of
 *  `statsOf(index)`, biggest first; the `_Total` instance is left out (it is the sum, not one of them). */
export function topSeries(matches, n, by, statsOf) {
  return matches
    .filter((s) => s.instance !== '_Total')
    .map((s) => ({ s, v: statsOf(s.index)[by] }))
    .filter((x) => Number.isFinite(x.v))
    .sort((a, b) => b.v - a.v)
    .slice(0, n)
    .map((x) => x.s.index);
}
