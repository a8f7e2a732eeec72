// The viewer, as the package ships it: `mountViewer(element, options)` builds the capture viewer (or just
// a chart) inside any element and returns a handle to drive it. The counterlens page uses the same
// function for its Chart tab, so there is one implementation.
//
// This file wires the pieces together; each concern lives in one module:
//   layout.js       the DOM of the viewer            state.js      what is open, selected, shown
//   reading.js      files and URLs, in a Worker      worker.js     the Worker (the package's core only)
//   series-tree.js  filter, tree, default selection  panes.js      the chart, crosshair
//   explain.js      a click's formulas with raw numbers (a .blg read again for them)
//   chart-interact.js  pointer, wheel, keys          stats.js      statistics, PDH differences
//   legend.js       the legend outside the plot
//   url-state.js    the view in the URL hash         export.js     PNG and CSV
//   analysis-panel.js  the analysis run on open (in worker.js), packs, questions, Show/Back, report
//   verdict.js      the verdict at the top         cards.js      the finding cards
// Everything from the file is written with textContent.
import { el } from './dom.js';
import { buildLayout } from './layout.js';
import { createState, selectSeries, deselectSeries, clearSelection, clampRange, seriesWithUnits } from './state.js';
import { createReader, fetchSameOrigin, describeError, SUPERSEDED } from './reading.js';
import { renderSeriesTree, pathFilter, defaultSelection, topSeries, MAX_SELECT } from './series-tree.js';
import { createPaneStack } from './panes.js';
import { renderStats, renderDifferences, nextSort } from './stats.js';
import { encodeView, decodeView, writeHash, fileIdentity, matchSeries, sameFile } from './url-state.js';
import { exportPng, exportCsv, download, baseName } from './export.js';
import { mountAnalysisPanel } from './analysis-panel.js';
import { createExplainer } from './explain.js';
import { Capture, seriesColor } from '../api.js';
import { changeRows, renderChangeTable, changeCsv, overlaysFor } from './compare.js';

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
 * @param {(e: {series: string[]}) => void} [options.onSelection] told when the selected series change
 * @param {(e: {range: [number, number]|null}) => void} [options.onZoom] told when the time range changes
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
    { canvas: $.chart, selection: $['chart-selection'], cursor: $['chart-cursor'], readout: $['chart-readout'], range: $['chart-range'], legend: $['chart-legend'], stack: $['chart-panes'] },
    state,
    { setRange, options: () => ({ dark: isDark(), references: $['pdh-overlay'].checked }), overlays: compareOverlays, explain: explainer.show });

  // ---- analysis: run on open, the verdict at the top; a card's Show charts its series around its range
  // (the panel keeps the user's view for Back) ----
  const analysis = $.analysis ? mountAnalysisPanel($.analysis, {
    state, verdict: $.verdict ?? null, canvas: $.chart,
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
  function showReadProgress(fraction, name) {
    const reading = fraction !== null;
    if (reading) delete $['chart-status'].dataset.failed;
    $['chart-progress'].hidden = !reading;
    $['chart-cancel'].hidden = !reading;
    if (!reading) return;
    $['chart-progress'].value = fraction;
    $['chart-status'].textContent = fraction ? `Reading ${name}: ${Math.round(100 * fraction)} %` : `Reading ${name}`;
  }

  /** Opens a capture; `from` is where it can be read again (`{ url }`; the Blob itself otherwise). */
  async function open(input, name = 'capture', from = null) {
    const blob = input instanceof Blob ? input : new Blob([input]);
    try {
      const [next, identity] = await Promise.all([reader.read(blob, name), fileIdentity(blob, name)]);
      state.source = identity;
      // Only a .blg is read again (for its raw samples); a URL is fetched again rather than held.
      state.rawSource = next.capture.format === 'blg' ? (from ?? { blob }) : null;
      onCaptureRead(next.capture, next.notes, name);
    } catch (err) {
      if (err === SUPERSEDED) return;
      if (err?.cancelled) $['chart-status'].textContent = `Reading ${name} cancelled.${state.capture ? ` Still showing ${state.sourceName}.` : ''}`;
      else showOpenFailure(describeError(err, { name, size: blob.size }));
    }
  }

  /** The status after a failed open: why, and which capture is still on screen. */
  function showOpenFailure(why) {
    const still = state.capture ? ` Still showing ${state.sourceName}.` : ' No capture is open.';
    $['chart-status'].textContent = `The last open failed. ${why}${/[.!?]$/.test(why) ? '' : '.'}${still}`;
    $['chart-status'].dataset.failed = 'true';
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
    state.selected.clear();
    state.slots.clear();
    state.hidden.clear();
    state.paneOf.clear();
    $['chart-explain'].hidden = true;
    explainer.reset();
    $['share-note'].textContent = '';
    resampledCache = new Map();
    if (shared) applySharedView(shared);
    else for (const i of (options.series ? state.info.filter(pathFilter(options.series)).map((s) => s.index) : null) ?? defaultSelection(state.info)) selectSeries(state, i);
    shared = null;
    $['series-filter'].value = '';
    showCapture();
    analysis?.captureChanged();
  }

  /** Selects what a shared link names, by counter path, restores its panes, range, scale and theme, and says
   *  what did not match (and when the link was made on another file). */
  function applySharedView(view) {
    const { indices, missing, paneOf } = matchSeries(view, state.info);
    for (const i of indices) selectSeries(state, i);
    for (const [i, p] of paneOf) state.paneOf.set(i, p);
    if (view.range) state.range = clampRange(state, view.range);
    state.yScale = view.scale;
    $['chart-scale'].value = view.scale;
    setTheme(view.theme);
    const notes = [];
    if (view.file && !sameFile(view.file, state.source)) {
      notes.push(`The link was made on ${view.file.name} (${view.file.size.toLocaleString('en-US')} bytes); this is ${state.source.name} (${state.source.size.toLocaleString('en-US')} bytes), so its series were matched by counter path.`);
    }
    if (view.paths.length) notes.push(`Shared view: ${indices.length} of ${view.paths.length} series found${missing.length ? `; not in this file: ${missing.join(', ')}` : ''}.`);
    else if (view.positions) notes.push('An old link that names series by position: they may not be the same counters in this file.');
    $['share-note'].textContent = notes.join(' ');
  }

  function setTheme(theme) {
    state.theme = theme;
    $.theme.value = theme;
    element.classList.toggle('theme-dark', theme === 'dark');
    element.classList.toggle('theme-light', theme === 'light');
  }

  function showCapture() {
    const { capture } = state;
    const tz = capture.timeZone;
    delete $['chart-status'].dataset.failed;
    $['chart-status'].textContent =
      `${state.sourceName}: ${capture.format}, ${capture.encoding}, ${capture.sampleCount} samples, ${capture.seriesCount} series` +
      (tz ? `, time zone ${tz.name || 'unnamed'} (bias ${tz.biasMinutes} min)` : ', no time zone (times are UTC)');
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
  /** Everything that follows the selection and range. */
  function showView() {
    pane.draw();
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
  async function onCompareFileChosen(e) {
    const f = e.target.files[0];
    if (!f) return;
    try {
      const read = await compareReader.read(f, f.name);
      other?.capture.free();
      other = { capture: read.capture, info: seriesWithUnits(read.capture), timestamps: read.capture.timestamps(), name: f.name };
      resampledCache = new Map();
      showComparison();
      pane.draw();
    } catch (err) {
      if (err !== SUPERSEDED) $['compare-status'].textContent = `The comparison file could not be read. ${describeError(err, { name: f.name, size: f.size })}`;
    }
  }
  function showComparison() {
    if (!other || !state.capture) return;
    const { rows, unmatched } = changeRows(state, other, $['compare-align'].value);
    compared = rows;
    renderChangeTable($['compare-table'], state, rows, compareSort);
    $['compare-status'].textContent = `A: ${state.sourceName}; B: ${other.name}, aligned by ${$['compare-align'].value === 'offset' ? 'offset from each start' : 'clock time'}; ${rows.length} counters compared` +
      (unmatched.length ? `; not in B: ${unmatched.join(', ')}` : '') + '.';
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
    const top = topSeries(matches(), Number($['series-top-n'].value), $['series-top-by'].value, (i) => state.capture.stats(i, from, to));
    clearSelection(state);
    for (const i of top) selectSeries(state, i);
    state.sort = { key: $['series-top-by'].value, dir: -1 };
    showSeriesTree();
    showView();
  }
  function onFilterKey(e) {
    if (e.key === 'Enter') { e.preventDefault(); onSelectAllMatches(); }
    else if (e.key === 'Escape' && e.target.value) { e.stopPropagation(); e.target.value = ''; showSeriesTree(); }
  }
  function onDrawerToggled() {
    const open = $['chart-layout'].classList.toggle('drawer-open');
    $['series-drawer'].setAttribute('aria-expanded', String(open));
    if (open) $['series-filter'].focus();
  }
  function onDrawerKey(e) {
    if (e.key === 'Escape' && $['chart-layout'].classList.contains('drawer-open')) { onDrawerToggled(); $['series-drawer'].focus(); }
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
  function onFileChosen(e) { const f = e.target.files[0]; if (f) open(f, f.name); }
  function onDragOver(e) { e.preventDefault(); }
  function onFileDropped(e) {
    if (!e.dataTransfer?.files[0] || e.target.closest?.('[data-own-drop]')) return; // panels with drops of their own
    e.preventDefault();
    open(e.dataTransfer.files[0], e.dataTransfer.files[0].name);
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
  function onCancelClicked() { reader.cancel(Object.assign(new Error('Reading cancelled'), { cancelled: true })); }

  on($['chart-legend'], 'click', onLegendClicked);
  on($['chart-legend'], 'change', onLegendPaneChanged);
  for (const target of [$['series-list'], $['chart-stats'], $['chart-legend']]) {
    on(target, 'pointerover', onSeriesHovered);
    on(target, 'pointerleave', onSeriesUnhovered);
    on(target, 'focusin', onSeriesHovered);
  }
  on($['series-list'], 'change', onSeriesToggled);
  on($['series-filter'], 'input', onFilterInput);
  on($['series-filter'], 'keydown', onFilterKey);
  on($['compare-file'], 'change', onCompareFileChosen);
  on($['compare-align'], 'change', () => { showComparison(); pane.draw(); });
  on($['compare-overlay'], 'change', () => pane.draw());
  on($['compare-table'], 'click', onCompareSortClicked);
  on($['compare-csv'], 'click', () => compared.length && download(new Blob([changeCsv(compared, compareSort)], { type: 'text/csv' }), `${baseName(state)}-compared.csv`));
  on($['series-select-all'], 'click', onSelectAllMatches);
  on($['series-clear'], 'click', onClearSelection);
  on($['series-top'], 'click', onTopSeries);
  if ($['series-drawer']) on($['series-drawer'], 'click', onDrawerToggled);
  on(element, 'keydown', onDrawerKey);
  on($['capture-file'], 'change', onFileChosen);
  const dropTarget = options.dropAnywhere ? document : element;
  on(dropTarget, 'dragover', onDragOver);
  on(dropTarget, 'drop', onFileDropped);
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
      .map((i) => ({ color: seriesColor(state.slots.get(i)), name: `${state.info[i].path}${factor(i) ? ' ' + factor(i) : ''} — ${state.info[i].unit}` }));
    exportPng($.chart, state, rows, $['chart-range'].textContent);
  }
  on($['export-png'], 'click', onExportPng);
  on($['export-csv'], 'click', () => exportCsv(state, Capture));
  on($['chart-stats'].tHead, 'click', onStatsSortClicked);
  on($['chart-cancel'], 'click', onCancelClicked);
  on(dark, 'change', () => pane.draw());

  if (options.theme) setTheme(options.theme);
  if (shared?.file) {
    $['chart-status'].textContent = `This link shows a view of ${shared.file.name} (${shared.file.size.toLocaleString('en-US')} bytes): open that file, or another log with the same counters.`;
  }
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
