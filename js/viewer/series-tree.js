// The series browser: filters (words or a perfmon wildcard path), the machine > object > counter >
// instance tree with counts, the default selection of a newly opened capture.
import { el } from './dom.js';
import { PathMatcher, pathWithoutMachine } from '../core.js';

const MAX_LISTED = 2000; // series rows shown at once; the filter narrows the rest

/** A compiled pattern is freed once the filter that holds it is collected. */
const freeing = new FinalizationRegistry((matcher) => matcher.free());

/** A filter: a perfmon path pattern when it starts with a backslash (`\\*\Processor(*)\% Processor Time`,
 *  `\Memory\*`, `\Processor(?)\*`), matched by the core as the CLI's `-c` matches (`PathMatcher`: `*` any
 *  run, `?` one character, a path without a machine matches every machine, a localized path by its English
 *  names too; text that is no pattern yet matches nothing), else words that must all appear in the path.
 *  Case-insensitive, as PDH's paths are. */
export function seriesFilter(text) {
  const t = text.trim();
  if (t.startsWith('\\')) {
    let matcher;
    try {
      matcher = new PathMatcher(t);
    } catch {
      return () => false;
    }
    const matches = (path) => matcher.matches(path);
    freeing.register(matches, matcher);
    return matches;
  }
  const words = t.toLowerCase().split(/\s+/).filter(Boolean);
  return (path) => words.every((w) => path.toLowerCase().includes(w));
}

/** `seriesFilter` over SeriesInfo, its pattern compiled once for the whole list; words match a localized
 *  path's English path too (a pattern does in the core). */
export function pathFilter(text) {
  const matches = seriesFilter(text);
  if (text.trim().startsWith('\\')) return (s) => matches(s.path);
  return (s) => matches(s.path) || (s.englishPath !== undefined && matches(s.englishPath));
}

/** At most this many series are selected when a capture opens: a chart of hundreds of lines says
 *  nothing, and drawing them (rasterised at paint time) can take seconds. */
const DEFAULT_MAX = 8;

/** The English object or counter of a series (a localized log's names are matched in English). */
const englishOf = (s) => ({ object: s.englishObject ?? s.object, counter: s.englishCounter ?? s.counter });

/** Series shown at first: % Processor Time of the Processor instances (_Total first, at most
 *  DEFAULT_MAX; a localized log's too, by its English names), or the first few series. On a log of several
 *  machines the machines' _Totals go busiest first (by `meanOf(index)`, their mean over the log, as the
 *  verdict judges a machine), so the chart shows the busiest machines, not the first in file order. */
export function defaultSelection(series, meanOf) {
  const cpu = series.filter((s) => /^processor$/i.test(englishOf(s).object) && /^% processor time$/i.test(englishOf(s).counter));
  const total = cpu.filter((s) => s.instance?.toLowerCase() === '_total');
  if (meanOf && total.length > 1) {
    const mean = new Map(total.map((s) => { const m = meanOf(s.index); return [s.index, Number.isFinite(m) ? m : -Infinity]; }));
    total.sort((a, b) => mean.get(b.index) - mean.get(a.index) || a.index - b.index);
  }
  const list = cpu.length ? [...total, ...cpu.filter((s) => s.instance?.toLowerCase() !== '_total')] : series;
  // In file order, so colours follow the order of the counters.
  return list.slice(0, cpu.length ? DEFAULT_MAX : 4).map((s) => s.index).sort((a, b) => a - b);
}

/** The machines of a capture's series, in file order. */
export const machinesOf = (series) => [...new Set(series.map((s) => s.machine))];

/** What a default selection left out on a log of several machines, for the note above the chart:
 *  `{ text, all }` (all: the indices of the same counters on every machine), or null when it shows
 *  every machine that has them. "Processor(_Total)\% Processor Time of 8 of 26 machines"; "of the 8
 *  busiest of 26 machines" when `busiest` (defaultSelection ranked the _Totals by mean). */
export function describeDefault(series, chosen, busiest = false) {
  const machines = machinesOf(series);
  if (machines.length < 2 || !chosen.length) return null;
  const key = (s) => pathWithoutMachine(s.path).toLowerCase();
  const keys = new Set(chosen.map((i) => key(series[i])));
  const all = series.filter((s) => keys.has(key(s))).map((s) => s.index);
  const shownMachines = new Set(chosen.map((i) => series[i].machine));
  const having = new Set(all.map((i) => series[i].machine));
  if (shownMachines.size >= having.size) return null;
  const first = series[chosen[0]];
  const name = `${first.instance !== undefined ? `${first.object}(${first.instance})` : first.object}\\${first.counter}`;
  const what = keys.size === 1 ? name : `${keys.size} counters`;
  const ranked = busiest && chosen.every((i) => series[i].instance?.toLowerCase() === '_total');
  const which = ranked ? `the ${shownMachines.size} busiest (by mean)` : `${shownMachines.size}`;
  return { text: `Showing ${what} of ${which} of ${having.size} machines (at most ${DEFAULT_MAX} lines at first).`, all: all.slice(0, MAX_SELECT), machines: having.size };
}

/** Renders the tree of the series `filterText` matches into `list` (an ARIA tree: machine > object >
 *  counter > instance, each branch a treeitem with its count, each series a treeitem whose checkbox
 *  selects it), and the count into `countLine`. Keys: mountTreeKeys. Branches open while filtering,
 *  where something is selected, or when the log has one machine; one the user opened or closed keeps that
 *  (`list`'s remembered state) until the next capture. */
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
  const remembered = expandedState(list);
  const count = (node) => (Array.isArray(node) ? node.length : [...node.values()].reduce((n, c) => n + count(c), 0));
  const anySelected = (node) => (Array.isArray(node) ? node.some((s) => selected.has(s.index)) : [...node.values()].some(anySelected));
  const branch = (label, node, level, depth, key, children) => {
    const item = el('div', null, { role: 'treeitem', class: `level-${level}`, 'aria-level': String(depth), 'data-key': key, tabindex: '-1' });
    const open = remembered.get(key) ?? (filtering || anySelected(node) || (level === 'machine' && tree.size === 1));
    item.setAttribute('aria-expanded', String(open));
    const row = el('div', null, { class: 'tree-row' });
    row.append(el('span', label, { class: 'tree-label' }), el('span', String(count(node)), { class: 'tree-count', 'aria-hidden': 'true' }));
    const group = el('div', null, { role: 'group' });
    group.hidden = !open;
    group.append(...children);
    item.append(row, group);
    return item;
  };
  const leaf = (s, text, depth) => {
    const item = el('div', null, { role: 'treeitem', class: 'tree-leaf', 'aria-level': String(depth), 'aria-selected': String(selected.has(s.index)), 'data-index': String(s.index), tabindex: '-1' });
    const label = el('label', null, { class: 'tree-row', 'data-index': String(s.index) });
    // The checkbox is for the pointer; the treeitem (aria-selected, Space) is the keyboard's and AT's.
    const box = el('input', null, { type: 'checkbox', 'data-index': String(s.index), tabindex: '-1', 'aria-hidden': 'true' });
    box.checked = selected.has(s.index);
    label.append(box, el('span', text));
    item.append(label);
    return item;
  };
  const machines = [...tree].map(([machine, objects]) => branch(machine ? `\\\\${machine}` : '(this machine)', objects, 'machine', 1, machine,
    [...objects].map(([object, counters]) => branch(beside(object), counters, 'object', 2, `${machine}\\${object}`,
      [...counters].map(([counter, list]) => (list.length === 1 && list[0].instance === undefined
        ? leaf(list[0], beside(counter, `${object}\\${counter}`), 3)
        : branch(beside(counter, `${object}\\${counter}`), list, 'counter', 3, `${machine}\\${object}\\${counter}`,
          list.map((s) => leaf(s, s.instance === undefined ? '(no instance)' : `${s.parent ? s.parent + '/' : ''}${s.instance}`, 4)))))))));
  list.replaceChildren(...machines);
  // Roving tabindex: the tree is one tab stop, at the item last focused (or the first).
  const keep = list.dataset.focusKey && [...list.querySelectorAll('[role="treeitem"]')].find((t) => itemKey(t) === list.dataset.focusKey && visible(t));
  (keep ?? list.querySelector('[role="treeitem"]'))?.setAttribute('tabindex', '0');
  countLine.textContent = shown.length > MAX_LISTED
    ? `${shown.length} of ${info.length} series match; the first ${MAX_LISTED} are listed`
    : `${shown.length} of ${info.length} series`;
  return shown;
}

/** The branches the user opened or closed, per tree element (forgotten with forgetExpanded). */
const expandedStates = new WeakMap();
const expandedState = (list) => expandedStates.get(list) ?? expandedStates.set(list, new Map()).get(list);
export const forgetExpanded = (list) => expandedStates.delete(list);

const itemKey = (t) => t.dataset.index !== undefined ? `#${t.dataset.index}` : t.dataset.key;
/** Shown: no collapsed branch above it. */
const visible = (t) => !t.parentElement.closest('[role="group"][hidden]');

function setExpanded(list, item, open) {
  item.setAttribute('aria-expanded', String(open));
  item.querySelector(':scope > [role="group"]').hidden = !open;
  expandedState(list).set(item.dataset.key, open);
}

/**
 * The tree's keys (WAI-ARIA tree pattern) and clicks on branches: Up and Down move between the items shown,
 * Right opens a branch or enters it, Left closes it or goes to its parent, Home and End, typing a name's
 * first letters moves to it, Space or Enter on a series selects or deselects it (its checkbox's change
 * event, as a click), Enter or a click on a branch opens or closes it. Returns a function that removes
 * the listeners.
 */
export function mountTreeKeys(list) {
  let typed = '', typedAt = 0;
  const items = () => [...list.querySelectorAll('[role="treeitem"]')].filter(visible);
  function focusItem(t) {
    if (!t) return;
    for (const x of list.querySelectorAll('[role="treeitem"][tabindex="0"]')) x.tabIndex = -1;
    t.tabIndex = 0;
    list.dataset.focusKey = itemKey(t);
    t.focus();
  }
  function onKey(e) {
    const t = e.target.closest('[role="treeitem"]');
    if (!t || !list.contains(t) || e.altKey || e.ctrlKey || e.metaKey) return;
    const all = items();
    const k = all.indexOf(t);
    const branchItem = t.hasAttribute('aria-expanded');
    const open = t.getAttribute('aria-expanded') === 'true';
    let handled = true;
    switch (e.key) {
      case 'ArrowDown': focusItem(all[k + 1]); break;
      case 'ArrowUp': focusItem(all[k - 1]); break;
      case 'Home': focusItem(all[0]); break;
      case 'End': focusItem(all[all.length - 1]); break;
      case 'ArrowRight':
        if (branchItem && !open) setExpanded(list, t, true);
        else if (branchItem) focusItem(t.querySelector(':scope > [role="group"] > [role="treeitem"]'));
        break;
      case 'ArrowLeft':
        if (branchItem && open) setExpanded(list, t, false);
        else focusItem(t.parentElement.closest('[role="treeitem"]'));
        break;
      case ' ': case 'Enter':
        if (branchItem) setExpanded(list, t, !open);
        else t.querySelector('input[type="checkbox"]')?.click();
        break;
      default:
        if (e.key.length === 1 && e.key !== ' ') {
          // Type-ahead: the next item shown whose name starts with what was typed in the last half second.
          const now = Date.now();
          typed = now - typedAt < 500 ? typed + e.key.toLowerCase() : e.key.toLowerCase();
          typedAt = now;
          const name = (x) => x.querySelector('.tree-label, label span')?.textContent.replace(/^\\\\/, '').toLowerCase() ?? '';
          const order = [...all.slice(k + (typed.length === 1 ? 1 : 0)), ...all.slice(0, k + (typed.length === 1 ? 1 : 0))];
          focusItem(order.find((x) => name(x).startsWith(typed)));
        } else handled = false;
    }
    if (handled) e.preventDefault();
  }
  function onClick(e) {
    const row = e.target.closest('.tree-row');
    const t = row?.parentElement;
    if (!t || !list.contains(t)) return;
    if (t.hasAttribute('aria-expanded')) setExpanded(list, t, t.getAttribute('aria-expanded') !== 'true');
    focusItem(t);
  }
  // A series' checkbox changed (click, Space): its treeitem says so.
  function onChange(e) {
    const t = e.target.closest('[role="treeitem"]');
    if (t && e.target.type === 'checkbox') t.setAttribute('aria-selected', String(e.target.checked));
  }
  list.addEventListener('keydown', onKey);
  list.addEventListener('click', onClick);
  list.addEventListener('change', onChange);
  return () => {
    list.removeEventListener('keydown', onKey);
    list.removeEventListener('click', onClick);
    list.removeEventListener('change', onChange);
  };
}

/** Matches to select at most at once: more lines than this say nothing and draw slowly. */
export const MAX_SELECT = 200;

/** Instances that sum or idle others (`_Total`, `Idle`, `Total`, `_Global_`, `<All instances>`): left out
 *  of a top N unless asked for (they are not one of the busiest, they are all of them or none). */
export const isAggregate = (s) => /^(_?total|idle|_global_|<all instances>)$/i.test(s.instance ?? '');

/** The top `n` of `matches` (SeriesInfo) by statistic `by` (`max`, `mean` or `p95`) of
 *  `statsOf(index)`, biggest first; aggregates (isAggregate) are left out unless `includeTotals`. */
export function topSeries(matches, n, by, statsOf, includeTotals = false) {
  return matches
    .filter((s) => includeTotals || !isAggregate(s))
    .map((s) => ({ s, v: statsOf(s.index)[by] }))
    .filter((x) => Number.isFinite(x.v))
    .sort((a, b) => b.v - a.v)
    .slice(0, n)
    .map((x) => x.s.index);
}
