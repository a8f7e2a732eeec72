// What the viewer shows of the open log, one painter per part of js/viewer/redraw.js' DEPENDS: the
// status line and the log's facts, the series tree, one chart or a chart per machine, the chart panes,
// the legend, the statistics and PDH differences, the comparison (compare-view.js), the URL hash, the
// embedder's callbacks, and the analysis' derived chart and results (analysis-panel.js). Each paints from the state alone; none decides
// what else to paint (the scheduler does).
import { el } from './dom.js';
import { formatDuration, pathWithoutMachine } from '../core.js';
import { formatTime } from './state.js';
import { renderSeriesTree, machinesOf } from './series-tree.js';
import { renderStats, renderDifferences } from './stats.js';
import { encodeView, writeHash } from './url-state.js';
import { renderMultiples } from './multiples.js';

/** One counter on several machines: it can be drawn as a chart per machine. */
function oneCounterAcrossMachines(state) {
  const chosen = [...state.selected];
  if (!state.multiMachine || chosen.length < 2) return false;
  const key = (i) => pathWithoutMachine(state.info[i].path).toLowerCase();
  return chosen.every((i) => key(i) === key(chosen[0])) && new Set(chosen.map((i) => state.info[i].machine)).size === chosen.length;
}

/** The status sentence (for screen readers and tools) and the same facts, short, under the log's name. */
function paintFacts({ $, state, element }) {
  const { capture } = state;
  const tz = capture.timeZone;
  delete $['chart-status'].dataset.failed;
  $['chart-hint'].hidden = true;
  element.classList.add('has-capture');
  if ($['capture-name']) $['capture-name'].textContent = state.sourceName;
  const machines = machinesOf(state.info).length;
  $['chart-status'].textContent =
    `${state.sourceName}: ${capture.format}, ${capture.encoding}, ${capture.sampleCount} samples, ${capture.seriesCount} series` +
    (machines > 1 ? `, ${machines} machines` : '') +
    (tz ? `, time zone ${tz.name || 'unnamed'} (bias ${tz.biasMinutes} min)` : ', no time zone (times are UTC)');
  $['chart-status'].dataset.state = 'open';
  const ts = state.timestamps;
  const span = ts.length > 1 ? ts[ts.length - 1] - ts[0] : 0;
  const facts = [capture.format, `${capture.sampleCount.toLocaleString('en-US')} samples`, `${capture.seriesCount.toLocaleString('en-US')} series`,
    ...(machines > 1 ? [`${machines} machines`] : []), ...(span ? [`${formatDuration(span)} from ${formatTime(state, ts[0]).slice(0, 16)}`] : []),
    tz ? tz.name || `UTC${tz.biasMinutes > 0 ? '-' : '+'}${Math.abs(tz.biasMinutes / 60)}` : 'UTC'];
  $['capture-facts'].replaceChildren(...facts.map((f) => el('li', f)));
  $['chart-notes'].replaceChildren(...state.notes.map((n) => el('li', n.line ? `line ${n.line}: ${n.message}` : n.message)));
  const hasReference = capture.seriesCount > 0 && capture.reference(0) !== undefined;
  $['pdh-overlay-label'].hidden = !hasReference;
  if (!hasReference) $['pdh-overlay'].checked = false;
}

/**
 * The painters of the viewer `v` (index.js: its parts `$`, state, options, panes, comparison, analysis).
 * @returns {Record<string, () => void>} by part of DEPENDS
 */
export function createPainters(v) {
  const { $, state, options } = v;
  // The embedder's callbacks (the <counterlens-viewer> element turns them into events): told when the
  // selection or the time range changed, not on every redraw.
  let told = { selection: '', range: '' };
  const open = (f) => () => { if (state.capture) f(); };
  return {
    facts: open(() => paintFacts(v)),
    tree: open(() => {
      renderSeriesTree({ list: $['series-list'], countLine: $['series-count'] }, state.info, $['series-filter'].value, state.selected);
      // A handler's sentence about what it selected replaces the count once (selection.js).
      if (v.countNote) $['series-count'].textContent = v.countNote;
      v.countNote = null;
    }),
    layout: () => {
      const across = oneCounterAcrossMachines(state);
      $['chart-view-label'].hidden = !across;
      $['chart-panes'].hidden = across && $['chart-view'].value === 'machines';
      $['chart-empty'].hidden = state.selected.size > 0;
    },
    chart: () => v.pane.draw(),
    multiples: () => renderMultiples($.multiples, state, oneCounterAcrossMachines(state) && $['chart-view'].value === 'machines', { dark: v.isDark() }),
    legend: () => v.pane.legend(),
    stats: () => {
      renderStats($['chart-stats'], state);
      renderDifferences({ details: $['pdh-diffs'], summary: $['pdh-diffs-summary'], table: $['pdh-diffs-table'] }, state, $['pdh-overlay'].checked);
    },
    comparison: () => v.compare.show(),
    url: () => { if (options.hash && state.capture && !v.shared) writeHash(encodeView(state)); },
    listeners: () => {
      const paths = [...state.selected].sort((a, b) => a - b).map((i) => state.info[i].path);
      const now = { selection: JSON.stringify(paths), range: JSON.stringify(state.range) };
      if (now.selection !== told.selection) options.onSelection?.({ series: paths });
      if (now.range !== told.range) options.onZoom?.({ range: state.range ? [...state.range] : null });
      told = now;
    },
    derived: () => v.analysis?.redraw(),
    results: () => v.analysis?.paint(),
  };
}
