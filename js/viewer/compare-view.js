// The viewer's comparison with a second capture (B): its file read in a Worker of its own, aligned by
// clock or by offset (by offset on its own when the two runs do not overlap), B's lines overlaid on the
// chart with their legend rows, and the change table (compare.js) with its order and CSV. Handlers say
// `changed('compare')`; `show` is the comparison's painter (view.js).
import { seriesWithUnits } from './state.js';
import { createReader, describeError, SUPERSEDED } from './reading.js';
import { nextSort } from './stats.js';
import { download, baseName } from './export.js';
import { changeRows, renderChangeTable, changeCsv, overlaysFor, overlayLegend, runsOverlap } from './compare.js';

/** @param {object} v  the viewer (index.js): `$`, state, on, changed */
export function mountCompare(v) {
  const { $, state, on } = v;
  const compareReader = createReader({ onProgress: (f, name) => { if (f !== null) $['compare-status'].textContent = `Reading ${name}…`; } });
  let other = null; // { capture, info, timestamps, name }
  let compareSort = { key: null, dir: 1 };
  let compared = [];
  let resampledCache = new Map(); // B's columns on A's times, per series and shift
  let autoOffset = false; // B was aligned by offset because the runs do not overlap

  /** B's lines over the chart, for the series `indices` of a pane. */
  function overlays(indices) {
    if (!other || !$['compare-overlay'].checked) return [];
    return overlaysFor(indices, state, other, $['compare-align'].value, resampledCache);
  }
  /** B's rows in the legend. */
  function legend() {
    if (!other || !state.capture || !$['compare-overlay'].checked) return [];
    const shown = [...state.selected].sort((a, b) => a - b).filter((i) => !state.hidden.has(i));
    return overlayLegend(shown, state, other, $['compare-align'].value);
  }
  async function onCompareFileChosen(e) {
    const f = e.target.files[0];
    if (!f) return;
    try {
      const read = await compareReader.read(f, f.name);
      other?.capture.free();
      other = { capture: read.capture, info: seriesWithUnits(read.capture), timestamps: read.capture.timestamps(), name: f.name };
      resampledCache = new Map();
      // Two runs at different times share no clock time: compare them from each one's start.
      autoOffset = !runsOverlap(state.timestamps, other.timestamps) && $['compare-align'].value === 'clock';
      if (autoOffset) $['compare-align'].value = 'offset';
      v.changed('compare');
    } catch (err) {
      if (err !== SUPERSEDED) $['compare-status'].textContent = `The comparison file could not be read. ${describeError(err, { name: f.name, size: f.size })}`;
    }
  }
  /** The change table and the sentence above it. */
  function show() {
    if (!other || !state.capture) return;
    const { rows, unmatched } = changeRows(state, other, $['compare-align'].value);
    compared = rows;
    renderChangeTable($['compare-table'], state, rows, compareSort);
    const offset = $['compare-align'].value === 'offset';
    $['compare-status'].textContent = `A: ${state.sourceName}; B: ${other.name}, aligned by ${offset ? 'offset from each start' : 'clock time'}` +
      (offset && autoOffset ? ' (the two runs do not overlap in time)' : '') + `; ${rows.length} counters compared` +
      (unmatched.length ? `; not in B: ${unmatched.join(', ')}` : '') + '.' +
      (!offset && !runsOverlap(state.timestamps, other.timestamps) ? ' The two runs do not overlap in time: align them by offset to compare them.' : '');
  }
  function onCompareSortClicked(e) {
    const th = e.target.closest('th');
    if (!th) return;
    compareSort = nextSort(compareSort, th.dataset.key);
    v.changed('compareSort');
  }

  on($['compare-file'], 'change', onCompareFileChosen);
  on($['compare-align'], 'change', () => { autoOffset = false; v.changed('compare'); });
  on($['compare-overlay'], 'change', () => v.changed('compare'));
  on($['compare-table'], 'click', onCompareSortClicked);
  on($['compare-csv'], 'click', () => compared.length && download(new Blob([changeCsv(compared, compareSort)], { type: 'text/csv' }), `${baseName(state)}-compared.csv`));

  return {
    overlays,
    legend,
    show,
    /** Another capture A was opened: B's columns resampled on A's times are dropped. */
    reset: () => { resampledCache = new Map(); },
    stop() {
      compareReader.stop();
      other?.capture.free();
    },
  };
}
