// What a newly read capture changes in the viewer: the state (the old capture freed), the controls that
// belonged to the last log, and the first selection: a shared link's series (url-state.js, matched by
// counter path, with its panes, range, scale and theme, and a note of what did not match), the embedder's
// `series` filter, or the default (the busiest machines first, with a way to show them all). It says
// `changed('capture')`; the painters (view.js) show the rest.
import { el } from './dom.js';
import { selectSeries, clearSelection, clampRange, seriesWithUnits, hasSeveralMachines } from './state.js';
import { forgetExpanded, pathFilter, defaultSelection, describeDefault } from './series-tree.js';
import { matchSeries, sameFile, describeElsewhere, rangeInside } from './url-state.js';

/** @param {object} v  the viewer (index.js): `$`, state, options, shared, explainer, compare, analysis,
 *  setTheme, changed */
export function createCaptureView(v) {
  const { $, state, options } = v;

  /** The note above the chart when the default selection left machines out, with a way to show them all
   *  and (for one counter) a chart per machine. */
  function noteDefault(d) {
    if (!d) return;
    const all = el('button', `Show all ${d.machines}`, { type: 'button', 'data-part': 'show-all-machines' });
    all.addEventListener('click', () => {
      clearSelection(state);
      for (const i of d.all) selectSeries(state, i);
      $['selection-note'].replaceChildren(`Showing all ${d.machines} machines.`);
      v.changed('selection');
    });
    $['selection-note'].replaceChildren(d.text, all);
  }

  /** Selects what a shared link names, by counter path (on another machine when this log lacks the link's),
   *  restores its panes, range (when it falls inside this log), scale and theme, and says what did not
   *  match (and when the link was made on another file). */
  function applySharedView(view) {
    const { indices, missing, elsewhere, paneOf } = matchSeries(view, state.info);
    for (const i of indices) selectSeries(state, i);
    for (const [i, p] of paneOf) state.paneOf.set(i, p);
    const keepRange = view.range && rangeInside(view.range, state.timestamps);
    if (keepRange) state.range = clampRange(state, view.range);
    state.yScale = view.scale;
    $['chart-scale'].value = view.scale;
    v.setTheme(view.theme);
    const notes = [];
    if (view.file && !sameFile(view.file, state.source)) {
      notes.push(`The link was made on ${view.file.name} (${view.file.size.toLocaleString('en-US')} bytes); this is ${state.source.name} (${state.source.size.toLocaleString('en-US')} bytes), so its series were matched by counter path.`);
    }
    if (view.paths.length) notes.push(`Shared view: ${indices.length} of ${view.paths.length} series found${missing.length ? `; not in this file: ${missing.join(', ')}` : ''}.`);
    else if (view.positions) notes.push('An old link that names series by position: they may not be the same counters in this file.');
    if (elsewhere.length) notes.push(describeElsewhere(elsewhere));
    if (view.range && !keepRange) notes.push("The link's time range is not inside this log, so the whole log is shown.");
    $['share-note'].textContent = notes.join(' ');
  }

  /** A capture was read: it replaces the open one. */
  function onCaptureRead(capture, notes, name) {
    state.capture?.free();
    Object.assign(state, { capture, notes, sourceName: name, range: null, timestamps: capture.timestamps(), info: seriesWithUnits(capture) });
    state.multiMachine = hasSeveralMachines(state.info);
    clearSelection(state);
    forgetExpanded($['series-list']);
    delete $['series-list'].dataset.focusKey;
    $['selection-note'].replaceChildren();
    $['chart-view'].value = 'one';
    $['chart-explain'].hidden = true;
    v.explainer.reset();
    $['share-note'].textContent = '';
    v.compare.reset();
    if (v.shared) applySharedView(v.shared);
    else if (options.series) for (const s of state.info.filter(pathFilter(options.series))) selectSeries(state, s.index);
    else {
      // The busiest machines first: each _Total's mean over the whole log.
      const chosen = defaultSelection(state.info, (i) => state.capture.stats(i).mean);
      for (const i of chosen) selectSeries(state, i);
      noteDefault(describeDefault(state.info, chosen, state.multiMachine));
    }
    v.shared = null;
    $['series-filter'].value = '';
    v.changed('capture');
    v.analysis?.captureChanged();
  }

  return { onCaptureRead };
}
