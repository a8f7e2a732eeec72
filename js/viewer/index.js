// The viewer, as the package ships it: `mountViewer(element, options)` builds the capture viewer (or just
// a chart) inside any element and returns a handle to drive it. The counterlens page uses the same
// function for its Chart tab, so there is one implementation.
//
// This file wires the pieces together; each concern lives in one module of js/viewer/, listed with what
// it holds in docs/architecture.md ("The viewer"; crate/tests/docs.rs fails when one is missing there).
// The wasm functions come from the package's core (../core.js), never from an entry.
// Everything from the file is written with textContent.
import { el } from './dom.js';
import { buildLayout } from './layout.js';
import { createState, selectSeries, deselectSeries, clearSelection, clampRange, seriesWithUnits, hasSeveralMachines, formatTime } from './state.js';
import { createReader, fetchSameOrigin, describeError, warmReader, SUPERSEDED } from './reading.js';
import { renderSeriesTree, mountTreeKeys, forgetExpanded, pathFilter, defaultSelection, describeDefault, machinesOf, topSeries, MAX_SELECT } from './series-tree.js';
import { createPaneStack } from './panes.js';
import { renderStats, renderDifferences, nextSort } from './stats.js';
import { encodeView, decodeView, writeHash, fileIdentity, matchSeries, sameFile, describeElsewhere, rangeInside, viewUrl } from './url-state.js';
import { exportPng, exportCsv, download, baseName } from './export.js';
import { mountAnalysisPanel } from './analysis-panel.js';
import { createExplainer } from './explain.js';
import { seriesColor } from '../core.js';
import { changeRows, renderChangeTable, changeCsv, overlaysFor, overlayLegend, runsOverlap } from './compare.js';
import { renderMultiples } from './multiples.js';
import { columnBudget, estimateColumnBytes, planPart, renderPart } from './catalogue.js';
import { mountFleet } from './fleet.js';

/** A duration in words: 45 s, 10 min, 3.5 h, 2 days. */
function formatDuration(ms) {
  const s = ms / 1000;
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172800) return `${+(s / 3600).toFixed(1)} h`;
  return `${+(s / 86400).toFixed(1)} days`;
}

/**
 * Mounts the viewer in `element`.
 * @param {HTMLElement} element
 * @param {object} [options]
 * @param {Uint8Array|ArrayBuffer|Blob} [options.capture] a capture to open at once (bytes or a Blob; for a
 *        .blg, kept as a Blob to read again for the raw samples of a clicked point)
 * @param {string} [options.url] or a same-origin URL to fetch and open (a .blg's is fetched again for them)
 * @param {string} [options.name] its display name
 * @param {boolean} [options.chartOnly] only the chart, its toolbar and statistics (no picker, no tree)
 * @param {string} [options.series] the series to show: a filter (words or a perfmon wildcard path)
 * @param {boolean} [options.hash] keep the selection and range in the URL hash (one viewer per page)
 * @param {boolean} [options.ids] give the parts document ids (one viewer per page)
 * @param {boolean} [options.dropAnywhere] take files dropped anywhere on the page, not only on `element`
 * @param {boolean} [options.stylesheet=true] link the viewer's stylesheet (js/viewer/viewer.css)
 * @param {'auto'|'light'|'dark'} [options.theme] the theme (default: the system's)
 * @param {HTMLElement} [options.themeRoot] an element that takes the viewer's theme too (its `theme-light`
 *        / `theme-dark` class: the counterlens page passes <html>, so the whole page follows the choice)
 * @param {(e: {series: string[]}) => void} [options.onSelection] told when the selected series change
 * @param {(e: {range: [number, number]|null}) => void} [options.onZoom] told when the time range changes
 * @param {number} [options.columnBudget] bytes of columns read whole (default: from the device's memory,
 *        catalogue.js `columnBudget`); a log whose columns would take more is listed first and read in part
 * @returns {{ ready: Promise<void>, open(input: Uint8Array|ArrayBuffer|Blob, name?: string): Promise<void>, openUrl(url: string, name?: string): Promise<void>,
 *             capture(): Capture|null, setRange(r: [number, number]|null): void, redraw(): void, destroy(): void }}
 */
export function mountViewer(element, options = {}) {
  if (typeof document === 'undefined' || !(element instanceof HTMLElement)) {
    throw new TypeError('mountViewer needs a browser page and an HTMLElement to build the viewer in');
  }
  if (options.stylesheet !== false && !document.querySelector('link[data-counterlens-viewer]')) {
    const link = el('link', null, { rel: 'stylesheet', href: new URL('./viewer.css', import.meta.url).href, 'data-counterlens-viewer': '' });
    document.head.append(link);
  }
  const $ = buildLayout(element, options);
  const state = createState();
  // A shared view (the URL hash) waits for the first capture opened, and applies to it by counter path.
  let shared = options.hash ? decodeView(location.hash) : null;
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const isDark = () => state.theme === 'dark' || (state.theme === 'auto' && dark.matches);
  const cleanups = [];
  const on = (target, type, fn, opts) => { target.addEventListener(type, fn, opts); cleanups.push(() => target.removeEventListener(type, fn, opts)); };

  // Several logs chosen or dropped at once (or a folder): the fleet view (fleet.js), over this viewer's open.
  const fleet = options.chartOnly ? null : mountFleet(element, $, { open: (file, name) => open(file, name) });
  cleanups.push(() => fleet?.destroy());
  const reader = createReader({ onProgress: showReadProgress });
  // A .blg's raw samples, read again for the series whose point is clicked (explain.js).
  let rawProgress = null;
  const rawReader = createReader({ onProgress: (f) => { if (f !== null) rawProgress?.(f); } });
  async function readRaw(paths, onProgress) {
    const from = state.rawSource;
    if (!from) throw new Error('the viewer was not given a file it can read again');
    rawProgress = onProgress;
    const blob = from.url ? (await fetchSameOrigin(from.url)).blob : from.blob;
    return (await rawReader.read(blob, state.sourceName, { keepRaw: paths })).capture;
  }
  const explainer = createExplainer($['chart-explain'], state, { readRaw });
  const pane = createPaneStack(
    { canvas: $.chart, selection: $['chart-selection'], cursor: $['chart-cursor'], readout: $['chart-readout'], range: $['chart-range'], legend: $['chart-legend'], stack: $['chart-panes'], live: $['chart-live'] },
    state,
    { setRange, options: () => ({ dark: isDark(), references: $['pdh-overlay'].checked }), overlays: compareOverlays, legendOthers: compareLegend, explain: explainer.show });

  // ---- analysis: run on open, the verdict at the top; a card's Show charts its series around its range
  // (the panel keeps the user's view for Back) ----
  const analysis = $.analysis ? mountAnalysisPanel($.analysis, {
    state, verdict: $.verdict ?? null, canvas: $.chart, dark: () => isDark(),
    show(indices, range) {
      clearSelection(state);
      for (const i of indices) selectSeries(state, i);
      setRange(range);
      showSeriesTree();
    },
    restore(v) {
      clearSelection(state);
      for (const i of v.selected) state.selected.add(i);
      for (const [i, slot] of v.slots) state.slots.set(i, slot);
      for (const i of v.hidden) state.hidden.add(i);
      for (const [i, p] of v.paneOf) state.paneOf.set(i, p);
      setRange(v.range);
      showSeriesTree();
    },
    redraw: () => pane.draw(),
  }) : null;

  // ---- reading ----
  let listing = false; // the catalogue pass of a log too large to read whole is running
  function showReadProgress(fraction, name) {
    const reading = fraction !== null;
    if (reading) { delete $['chart-status'].dataset.failed; delete $['chart-status'].dataset.state; $['chart-hint'].hidden = true; }
    $['chart-progress'].hidden = !reading;
    $['chart-cancel'].hidden = !reading;
    if (!reading) return;
    $['chart-progress'].value = fraction;
    const doing = listing ? `Listing the counters of ${name} (too large to read whole)` : `Reading ${name}`;
    $['chart-status'].textContent = fraction ? `${doing}: ${Math.round(100 * fraction)} %` : doing;
  }

  // What was read of a log too large to read whole, with a picker to load other series (catalogue.js).
  const partBox = el('div', null, { 'data-part': 'part', class: 'cl-note cl-part', hidden: '' });
  $['chart-notes'].before(partBox);

  /** Opens a capture; `from` is where it can be read again (`{ url }`; the Blob itself otherwise). A log
   *  whose columns would outgrow the budget is listed first (its catalogue) and read in part: the series
   *  the analysis packs look at, or exactly `picked` (catalogue indices, from the picker) when given. */
  async function open(input, name = 'capture', from = null, { catalogue = null, picked = null } = {}) {
    const blob = input instanceof Blob ? input : new Blob([input]);
    try {
      const identity = fileIdentity(blob, name);
      const budget = options.columnBudget ?? columnBudget();
      let part = null;
      let next = null;
      if (catalogue || estimateColumnBytes(blob.size, name) > budget) {
        listing = true;
        try {
          catalogue ??= (await reader.catalogue(blob, name)).catalogue;
        } finally {
          listing = false;
        }
        if (catalogue.columnBytes > budget) {
          const plan = planPart(catalogue, budget, picked ? { patterns: [], picked } : {});
          part = { name, catalogue, budget, plan };
          next = await reader.read(blob, name, { series: plan.paths, every: plan.every });
        }
      }
      next ??= await reader.read(blob, name);
      state.source = await identity;
      // Only a .blg is read again (for its raw samples); a URL is fetched again rather than held.
      state.rawSource = next.capture.format === 'blg' ? (from ?? { blob }) : null;
      onCaptureRead(next.capture, next.notes, name);
      warmSoon();
      if (part) renderPart(partBox, part, { onLoad: (indices) => open(blob, name, from, { catalogue: part.catalogue, picked: indices }) });
      else { partBox.hidden = true; partBox.replaceChildren(); }
    } catch (err) {
      if (err === SUPERSEDED) return;
      if (err?.cancelled) delete $['chart-status'].dataset.state;
      if (err?.cancelled) $['chart-status'].textContent = `Reading ${name} cancelled.${state.capture ? ` Still showing ${state.sourceName}.` : ''}`;
      else showOpenFailure(describeError(err, { name, size: blob.size }));
    }
  }

  /** The status after a failed open: why, and which capture is still on screen. */
  function showOpenFailure(why) {
    const still = state.capture ? ` Still showing ${state.sourceName}.` : ' No capture is open.';
    $['chart-status'].textContent = `The last open failed. ${why}${/[.!?]$/.test(why) ? '' : '.'}${still}`;
    $['chart-status'].dataset.failed = 'true';
    delete $['chart-status'].dataset.state;
    $['chart-hint'].hidden = false;
  }

  async function openUrl(url, name) {
    try {
      const fetched = await fetchSameOrigin(url);
      await open(fetched.blob, name ?? fetched.name, { url });
    } catch (err) {
      showOpenFailure(describeError(err));
    }
  }

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
    explainer.reset();
    $['share-note'].textContent = '';
    resampledCache = new Map();
    if (shared) applySharedView(shared);
    else if (options.series) for (const s of state.info.filter(pathFilter(options.series))) selectSeries(state, s.index);
    else {
      // The busiest machines first: each _Total's mean over the whole log.
      const chosen = defaultSelection(state.info, (i) => state.capture.stats(i).mean);
      for (const i of chosen) selectSeries(state, i);
      noteDefault(describeDefault(state.info, chosen, state.multiMachine));
    }
    shared = null;
    $['series-filter'].value = '';
    showCapture();
    analysis?.captureChanged();
  }

  /** The note above the chart when the default selection left machines out, with a way to show them all
   *  and (for one counter) a chart per machine. */
  function noteDefault(d) {
    if (!d) return;
    const all = el('button', `Show all ${d.machines}`, { type: 'button', 'data-part': 'show-all-machines' });
    all.addEventListener('click', () => {
      clearSelection(state);
      for (const i of d.all) selectSeries(state, i);
      $['selection-note'].replaceChildren(`Showing all ${d.machines} machines.`);
      showSeriesTree();
      showView();
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
    setTheme(view.theme);
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

  function setTheme(theme) {
    state.theme = theme;
    $.theme.value = theme;
    for (const e of [element, options.themeRoot].filter(Boolean)) {
      e.classList.toggle('theme-dark', theme === 'dark');
      e.classList.toggle('theme-light', theme === 'light');
    }
    analysis?.redraw();
  }

  function showCapture() {
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
    // The same facts, short, under the log's name (the status sentence is for screen readers and tools).
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
    showSeriesTree();
    showView();
  }

  // ---- what is shown: chart, stats, URL ----
  function showSeriesTree() {
    if (state.capture) renderSeriesTree({ list: $['series-list'], countLine: $['series-count'] }, state.info, $['series-filter'].value, state.selected);
  }
  function showStats() {
    renderStats($['chart-stats'], state);
    renderDifferences({ details: $['pdh-diffs'], summary: $['pdh-diffs-summary'], table: $['pdh-diffs-table'] }, state, $['pdh-overlay'].checked);
  }
  function saveUrlState() {
    if (options.hash && state.capture && !shared) writeHash(encodeView(state));
  }
  /** One counter on several machines: it can be drawn as a chart per machine. */
  function oneCounterAcrossMachines() {
    const chosen = [...state.selected];
    if (!state.multiMachine || chosen.length < 2) return false;
    const key = (i) => state.info[i].path.replace(/^\\\\[^\\]*/, '').toLowerCase();
    return chosen.every((i) => key(i) === key(chosen[0])) && new Set(chosen.map((i) => state.info[i].machine)).size === chosen.length;
  }
  /** Everything that follows the selection and range. */
  function showView() {
    const across = oneCounterAcrossMachines();
    $['chart-view-label'].hidden = !across;
    const multiples = across && $['chart-view'].value === 'machines';
    $['chart-panes'].hidden = multiples;
    $['chart-empty'].hidden = state.selected.size > 0;
    pane.draw();
    renderMultiples($.multiples, state, multiples, { dark: isDark() });
    pane.legend();
    showStats();
    saveUrlState();
    tellListeners();
    showComparison();
  }

  // The embedder's callbacks (the <counterlens-viewer> element turns them into events): told when the
  // selection or the time range changed, not on every redraw.
  let told = { selection: '', range: '' };
  function tellListeners() {
    const paths = [...state.selected].sort((a, b) => a - b).map((i) => state.info[i].path);
    const now = { selection: JSON.stringify(paths), range: JSON.stringify(state.range) };
    if (now.selection !== told.selection) options.onSelection?.({ series: paths });
    if (now.range !== told.range) options.onZoom?.({ range: state.range ? [...state.range] : null });
    told = now;
  }

  /** Selects exactly the series a filter matches (words or a perfmon wildcard path). */
  function selectMatching(filter) {
    if (!state.capture) return;
    clearSelection(state);
    for (const s of state.info.filter(pathFilter(filter)).slice(0, MAX_SELECT)) selectSeries(state, s.index);
    showSeriesTree();
    showView();
  }

  function setRange(r) {
    state.range = clampRange(state, r);
    showView();
    analysis?.rangeChanged();
  }

  // ---- handlers ----
  function onSeriesToggled(e) {
    const i = Number(e.target.dataset.index);
    if (!Number.isInteger(i)) return;
    if (e.target.checked) selectSeries(state, i);
    else deselectSeries(state, i);
    showView();
  }
  // Hovering a series in the tree or the table draws it thicker, the others fainter.
  function onSeriesHovered(e) {
    const i = e.target.closest?.('[data-index]')?.dataset.index;
    const next = i === undefined ? null : Number(i);
    if (next !== state.highlight) { state.highlight = next; pane.draw(); }
  }
  function onSeriesUnhovered() {
    if (state.highlight !== null) { state.highlight = null; pane.draw(); }
  }
  // Focus leaving a series (to anything that is not one) ends its highlight.
  function onSeriesBlurred(e) {
    if (!e.relatedTarget?.closest?.('[data-index]')) onSeriesUnhovered();
  }
  function onFilterInput() { showSeriesTree(); }

  // ---- compare with another capture ----
  const compareReader = createReader({ onProgress: (f, name) => { if (f !== null) $['compare-status'].textContent = `Reading ${name}…`; } });
  let other = null; // { capture, info, timestamps, name }
  let compareSort = { key: null, dir: 1 };
  let compared = [];
  let resampledCache = new Map(); // B's columns on A's times, per series and shift
  function compareOverlays(indices) {
    if (!other || !$['compare-overlay'].checked) return [];
    return overlaysFor(indices, state, other, $['compare-align'].value, resampledCache);
  }
  function compareLegend() {
    if (!other || !state.capture || !$['compare-overlay'].checked) return [];
    const shown = [...state.selected].sort((a, b) => a - b).filter((i) => !state.hidden.has(i));
    return overlayLegend(shown, state, other, $['compare-align'].value);
  }
  let autoOffset = false; // B was aligned by offset because the runs do not overlap
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
      showComparison();
      pane.draw();
      pane.legend();
    } catch (err) {
      if (err !== SUPERSEDED) $['compare-status'].textContent = `The comparison file could not be read. ${describeError(err, { name: f.name, size: f.size })}`;
    }
  }
  function showComparison() {
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
    showComparison();
  }
  const matches = () => state.info.filter(pathFilter($['series-filter'].value));
  function onSelectAllMatches() {
    if (!state.capture) return;
    const all = matches();
    for (const s of all.slice(0, MAX_SELECT)) selectSeries(state, s.index);
    showSeriesTree();
    showView();
    $['series-count'].textContent = all.length > MAX_SELECT
      ? `${all.length} series match; the first ${MAX_SELECT} were selected` : `${all.length} series selected`;
  }
  function onClearSelection() {
    clearSelection(state);
    showSeriesTree();
    showView();
  }
  function onTopSeries() {
    if (!state.capture) return;
    const [from, to] = state.range ?? [undefined, undefined];
    const top = topSeries(matches(), Number($['series-top-n'].value), $['series-top-by'].value, (i) => state.capture.stats(i, from, to), $['series-top-totals'].checked);
    clearSelection(state);
    for (const i of top) selectSeries(state, i);
    state.rank = top;
    state.sort = { key: $['series-top-by'].value, dir: -1 };
    showSeriesTree();
    showView();
  }
  function onFilterKey(e) {
    if (e.key === 'Enter') { e.preventDefault(); onSelectAllMatches(); }
    else if (e.key === 'Escape' && e.target.value) { e.stopPropagation(); e.target.value = ''; showSeriesTree(); }
  }
  // The drawer (narrow screens): opened by the Series button; closed by its Close button, a tap outside it
  // (the scrim), Escape, or Back (opening it adds a history entry, as a phone's dialogs do).
  let drawerEntry = false; // a history entry was pushed for the open drawer
  let drawerBack = false; // the drawer was closed by the page, which went back over its entry
  const drawerOpen = () => $['chart-layout'].classList.contains('drawer-open');
  function setDrawer(open) {
    $['chart-layout'].classList.toggle('drawer-open', open);
    $['series-drawer']?.setAttribute('aria-expanded', String(open));
    if (open) {
      $['series-filter'].focus();
      if (!drawerEntry) { history.pushState({ counterlensDrawer: true }, ''); drawerEntry = true; }
    } else {
      $['series-drawer']?.focus();
      if (drawerEntry) { drawerEntry = false; drawerBack = true; history.back(); }
    }
  }
  function onDrawerToggled() { setDrawer(!drawerOpen()); }
  function onDrawerKey(e) {
    if (e.key === 'Escape' && drawerOpen()) setDrawer(false);
  }
  function onHistoryBack() {
    if (!drawerEntry && !drawerBack) return;
    drawerBack = false;
    if (drawerEntry) {
      drawerEntry = false;
      if (drawerOpen()) setDrawer(false);
    }
    saveUrlState(); // the entry gone back to holds the view from before the drawer opened
  }
  function onLegendPaneChanged(e) {
    if (e.target.dataset.role !== 'pane') return;
    const i = Number(e.target.dataset.index);
    state.paneOf.set(i, e.target.value === 'new' ? pane.count() : Number(e.target.value));
    showView();
  }
  function onLegendClicked(e) {
    const i = Number(e.target.closest('button[data-index]')?.dataset.index);
    if (!Number.isInteger(i)) return;
    if (state.hidden.has(i)) state.hidden.delete(i);
    else state.hidden.add(i);
    pane.draw();
    pane.legend();
  }
  function onFileChosen(e) { const f = e.target.files[0]; if (f && !fleet?.take(e.target.files)) open(f, f.name); }
  function onDragOver(e) {
    e.preventDefault();
    element.classList.toggle('dragging', !e.target.closest?.('[data-own-drop]'));
  }
  function onDragLeave(e) { if (!e.relatedTarget || !element.contains(e.relatedTarget)) element.classList.remove('dragging'); }
  function onFileDropped(e) {
    element.classList.remove('dragging');
    if (!e.dataTransfer?.files[0] || e.target.closest?.('[data-own-drop]')) return; // panels with drops of their own
    e.preventDefault();
    if (!fleet?.drop(e.dataTransfer)) open(e.dataTransfer.files[0], e.dataTransfer.files[0].name);
  }
  function onZoneChanged(e) { state.zone = e.target.value; pane.draw(); }
  function onScaleChanged(e) { state.yScale = e.target.value; showView(); }
  function onThemeChanged(e) { setTheme(e.target.value); pane.draw(); saveUrlState(); }
  function onReferenceToggled() { pane.draw(); showStats(); }
  function onStatsSortClicked(e) {
    const th = e.target.closest('th');
    if (!th || !state.capture) return;
    state.sort = nextSort(state.sort, th.dataset.key);
    showStats();
  }
  /** Copies a link to this view (the page's address with the view in its hash) to the clipboard; where
   *  the clipboard is refused, shows the link to copy by hand. */
  async function onCopyLink() {
    if (!state.capture) return;
    const url = viewUrl(encodeView(state));
    const button = $['copy-link'];
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = 'Link copied';
      setTimeout(() => { button.textContent = 'Copy link'; }, 2000);
    } catch {
      const field = el('input', null, { type: 'text', readonly: '', value: url, 'aria-label': 'Link to this view', size: '60' });
      $['share-note'].replaceChildren('The clipboard was not available: copy this link. ', field);
      field.select();
    }
  }
  function onCancelClicked() { reader.cancel(Object.assign(new Error('Reading cancelled'), { cancelled: true })); }

  on($['chart-legend'], 'click', onLegendClicked);
  on($['chart-legend'], 'change', onLegendPaneChanged);
  for (const target of [$['series-list'], $['chart-stats'], $['chart-legend']]) {
    on(target, 'pointerover', onSeriesHovered);
    on(target, 'pointerleave', onSeriesUnhovered);
    on(target, 'focusin', onSeriesHovered);
    on(target, 'focusout', onSeriesBlurred);
  }
  cleanups.push(mountTreeKeys($['series-list']));
  on($['series-list'], 'change', onSeriesToggled);
  on($['series-filter'], 'input', onFilterInput);
  on($['series-filter'], 'keydown', onFilterKey);
  on($['compare-file'], 'change', onCompareFileChosen);
  on($['compare-align'], 'change', () => { autoOffset = false; showComparison(); pane.draw(); pane.legend(); });
  on($['compare-overlay'], 'change', () => { pane.draw(); pane.legend(); });
  on($['compare-table'], 'click', onCompareSortClicked);
  on($['compare-csv'], 'click', () => compared.length && download(new Blob([changeCsv(compared, compareSort)], { type: 'text/csv' }), `${baseName(state)}-compared.csv`));
  on($['series-select-all'], 'click', onSelectAllMatches);
  on($['series-clear'], 'click', onClearSelection);
  on($['series-top'], 'click', onTopSeries);
  if ($['series-drawer']) on($['series-drawer'], 'click', onDrawerToggled);
  on($['series-drawer-close'], 'click', () => setDrawer(false));
  on($['drawer-scrim'], 'click', () => setDrawer(false));
  on(window, 'popstate', onHistoryBack);
  on(element, 'keydown', onDrawerKey);
  on($['dropzone-open'], 'click', () => $['capture-file'].click());
  on($['copy-link'], 'click', onCopyLink);
  on($['chart-view'], 'change', showView);
  on($['capture-file'], 'change', onFileChosen);
  const dropTarget = options.dropAnywhere ? document : element;
  on(dropTarget, 'dragover', onDragOver);
  on(dropTarget, 'drop', onFileDropped);
  on(dropTarget, 'dragleave', onDragLeave);
  on($.zone, 'change', onZoneChanged);
  on($['chart-scale'], 'change', onScaleChanged);
  on($.theme, 'change', onThemeChanged);
  on($['pdh-overlay'], 'change', onReferenceToggled);
  on($['zoom-in'], 'click', () => pane.zoom(0.5));
  on($['zoom-out'], 'click', () => pane.zoom(2));
  on($['pan-left'], 'click', () => pane.pan(-0.25));
  on($['pan-right'], 'click', () => pane.pan(0.25));
  on($['zoom-reset'], 'click', () => setRange(null));
  function onExportPng() {
    if (!state.capture) return;
    // The legend's entries as shown (with Perfmon's factor where scaled), the full path and the unit.
    const factor = (i) => /\(x[^)]*\)$/.exec($['chart-legend'].querySelector(`button[data-index="${i}"]`)?.textContent ?? '')?.[0];
    const rows = [...state.selected].sort((a, b) => a - b).filter((i) => !state.hidden.has(i))
      .map((i) => ({ color: seriesColor(state.slots.get(i)), name: `${state.info[i].path}${state.info[i].englishPath ? ` (${state.info[i].englishPath})` : ''}${factor(i) ? ' ' + factor(i) : ''} — ${state.info[i].unit}` }));
    exportPng($.chart, state, rows, $['chart-range'].textContent);
  }
  on($['export-png'], 'click', onExportPng);
  on($['export-csv'], 'click', () => exportCsv(state));
  on($['chart-stats'].tHead, 'click', onStatsSortClicked);
  on($['chart-cancel'], 'click', onCancelClicked);
  on(dark, 'change', () => { pane.draw(); analysis?.redraw(); });

  if (options.theme) setTheme(options.theme);
  if (shared?.file) {
    $['chart-status'].textContent = `This link shows a view of ${shared.file.name} (${shared.file.size.toLocaleString('en-US')} bytes): open that file, or another log with the same counters.`;
  }
  // The reading Worker of the next file is made and warmed once the page has painted and is idle, so the
  // first file a user opens reads at full speed (reading.js warmReader); again after each read takes it.
  let alive = true;
  const whenIdle = (f) => (globalThis.requestIdleCallback ?? ((g) => setTimeout(g, 200)))(f, { timeout: 3000 });
  // The element's data-reader-warmed says how many warm-up reads the Worker made (tests, tools).
  const warmSoon = () => requestAnimationFrame(() => whenIdle(() => {
    if (alive) warmReader().then((w) => { if (alive && w) element.dataset.readerWarmed = String(w.reads); });
  }));
  warmSoon();
  cleanups.push(() => { alive = false; });
  const ready = options.capture ? open(options.capture, options.name) : options.url ? openUrl(options.url, options.name) : Promise.resolve();

  return {
    ready,
    open,
    openUrl,
    capture: () => state.capture,
    /** The file a shared link (the URL hash) names and waits for, or null. */
    sharedFile: () => shared?.file ?? null,
    setRange,
    redraw: () => pane.draw(),
    /** Selects exactly the series `filter` matches. */
    selectSeries: selectMatching,
    /** 'auto' (the system's), 'light' or 'dark'. */
    setTheme: (theme) => { setTheme(['light', 'dark'].includes(theme) ? theme : 'auto'); pane.draw(); },
    destroy() {
      reader.stop();
      rawReader.stop();
      explainer.reset();
      compareReader.stop();
      other?.capture.free();
      analysis?.destroy();
      pane.stop();
      cleanups.forEach((f) => f());
      state.capture?.free();
      state.capture = null;
      element.replaceChildren();
      element.classList.remove('counterlens-viewer');
    },
  };
}
