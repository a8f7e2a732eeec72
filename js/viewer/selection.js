// The viewer's selection handlers: a series ticked in the tree, hovered (drawn thicker, the others
// fainter) in the tree, the table or the legend, the tree's filter (Enter selects what it matches, Escape
// empties it), Select all, Clear, Top N, and the legend's hide/show and pane choice. Each changes the
// state and says what changed (redraw.js); the API's selectSeries is `selectMatching`.
import { selectSeries, deselectSeries, clearSelection } from './state.js';
import { mountTreeKeys, pathFilter, topSeries, MAX_SELECT } from './series-tree.js';

/** @param {object} v  the viewer (index.js): `$`, state, on, cleanups, pane, changed */
export function mountSelection(v) {
  const { $, state, on } = v;
  const matches = () => state.info.filter(pathFilter($['series-filter'].value));

  /** Selects exactly the series a filter matches (words or a perfmon wildcard path). */
  function selectMatching(filter) {
    if (!state.capture) return;
    clearSelection(state);
    for (const s of state.info.filter(pathFilter(filter)).slice(0, MAX_SELECT)) selectSeries(state, s.index);
    v.changed('selection');
  }

  function onSeriesToggled(e) {
    const i = Number(e.target.dataset.index);
    if (!Number.isInteger(i)) return;
    if (e.target.checked) selectSeries(state, i);
    else deselectSeries(state, i);
    v.changed('tick');
  }
  // Hovering a series in the tree or the table draws it thicker, the others fainter.
  function onSeriesHovered(e) {
    const i = e.target.closest?.('[data-index]')?.dataset.index;
    const next = i === undefined ? null : Number(i);
    if (next !== state.highlight) { state.highlight = next; v.changed('highlight'); }
  }
  function onSeriesUnhovered() {
    if (state.highlight !== null) { state.highlight = null; v.changed('highlight'); }
  }
  // Focus leaving a series (to anything that is not one) ends its highlight.
  function onSeriesBlurred(e) {
    if (!e.relatedTarget?.closest?.('[data-index]')) onSeriesUnhovered();
  }
  function onSelectAllMatches() {
    if (!state.capture) return;
    const all = matches();
    for (const s of all.slice(0, MAX_SELECT)) selectSeries(state, s.index);
    v.countNote = all.length > MAX_SELECT ? `${all.length} series match; the first ${MAX_SELECT} were selected` : `${all.length} series selected`;
    v.changed('selection');
  }
  function onClearSelection() {
    clearSelection(state);
    v.changed('selection');
  }
  function onTopSeries() {
    if (!state.capture) return;
    const [from, to] = state.range ?? [undefined, undefined];
    const top = topSeries(matches(), Number($['series-top-n'].value), $['series-top-by'].value, (i) => state.capture.stats(i, from, to), $['series-top-totals'].checked);
    clearSelection(state);
    for (const i of top) selectSeries(state, i);
    state.rank = top;
    state.sort = { key: $['series-top-by'].value, dir: -1 };
    v.changed('selection', 'sort');
  }
  function onFilterKey(e) {
    if (e.key === 'Enter') { e.preventDefault(); onSelectAllMatches(); }
    else if (e.key === 'Escape' && e.target.value) { e.stopPropagation(); e.target.value = ''; v.changed('filter'); }
  }
  function onLegendPaneChanged(e) {
    if (e.target.dataset.role !== 'pane') return;
    const i = Number(e.target.dataset.index);
    state.paneOf.set(i, e.target.value === 'new' ? v.pane.count() : Number(e.target.value));
    v.changed('panes');
  }
  function onLegendClicked(e) {
    const i = Number(e.target.closest('button[data-index]')?.dataset.index);
    if (!Number.isInteger(i)) return;
    if (state.hidden.has(i)) state.hidden.delete(i);
    else state.hidden.add(i);
    v.changed('hidden');
  }

  on($['chart-legend'], 'click', onLegendClicked);
  on($['chart-legend'], 'change', onLegendPaneChanged);
  for (const target of [$['series-list'], $['chart-stats'], $['chart-legend']]) {
    on(target, 'pointerover', onSeriesHovered);
    on(target, 'pointerleave', onSeriesUnhovered);
    on(target, 'focusin', onSeriesHovered);
    on(target, 'focusout', onSeriesBlurred);
  }
  v.cleanups.push(mountTreeKeys($['series-list']));
  on($['series-list'], 'change', onSeriesToggled);
  on($['series-filter'], 'input', () => v.changed('filter'));
  on($['series-filter'], 'keydown', onFilterKey);
  on($['series-select-all'], 'click', onSelectAllMatches);
  on($['series-clear'], 'click', onClearSelection);
  on($['series-top'], 'click', onTopSeries);

  return { selectMatching };
}
