// The viewer, as the package ships it: `mountViewer(element, options)` builds the capture viewer (or just
// a chart) inside any element and returns a handle to drive it. The counterlens page uses the same
// function for its Chart tab, so there is one implementation.
//
// This file wires the pieces together; each concern lives in one module of js/viewer/, listed with what
// it holds in docs/architecture.md ("The viewer"; crate/tests/docs.rs fails when one is missing there).
// Handlers change the state and say what changed; the one scheduler (redraw.js) repaints what depends on
// it, once per animation frame, with the painters of view.js.
// The wasm functions come from the package's core (../core.js), never from an entry.
// Everything from the file is written with textContent.
import { el } from './dom.js';
import { buildLayout } from './layout.js';
import { createState, selectSeries, clearSelection, clampRange } from './state.js';
import { decodeView } from './url-state.js';
import { createPaneStack } from './panes.js';
import { mountAnalysisPanel } from './analysis-panel.js';
import { createExplainer } from './explain.js';
import { createRedraw } from './redraw.js';
import { createPainters } from './view.js';
import { mountOpener } from './open.js';
import { createCaptureView } from './capture-view.js';
import { mountSelection } from './selection.js';
import { mountCompare } from './compare-view.js';
import { mountDrawer } from './drawer.js';
import { mountToolbar } from './toolbar.js';
import { mountFleet } from './fleet.js';

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
  const cleanups = [];
  const dark = matchMedia('(prefers-color-scheme: dark)'); // the system's theme, followed while the choice is 'auto'
  // The viewer as its modules see it: its parts, state and options, and what they share.
  const v = {
    element,
    options,
    $: buildLayout(element, options),
    state: createState(),
    cleanups,
    on: (target, type, fn, opts) => { target.addEventListener(type, fn, opts); cleanups.push(() => target.removeEventListener(type, fn, opts)); },
    // A shared view (the URL hash) waits for the first capture opened, and applies to it by counter path.
    shared: options.hash ? decodeView(location.hash) : null,
    countNote: null, // a handler's sentence for the tree's count line, shown once by the tree's painter
    dark,
    isDark: () => v.state.theme === 'dark' || (v.state.theme === 'auto' && dark.matches),
    changed: (...what) => redraw.changed(...what),
    setRange(r) {
      v.state.range = clampRange(v.state, r);
      v.changed('range');
      v.analysis?.rangeChanged();
    },
  };
  const { $, state } = v;
  const painters = createPainters(v);
  const redraw = createRedraw(painters);
  // After an API call, the view is drawn when the call returns.
  const now = (f) => (...args) => { const r = f(...args); redraw.flush(); return r; };

  const toolbar = mountToolbar(v);
  v.setTheme = toolbar.setTheme;
  v.compare = mountCompare(v);
  const capturing = createCaptureView(v);
  // Several logs chosen or dropped at once (or a folder) go to the fleet view (fleet.js), which opens one
  // through this viewer's opener when its row is clicked (with its machine's other logs as its normal,
  // when asked: the Analysis panel learns it and tells the fleet's bar what came of it).
  let fleet = null;
  const opener = mountOpener(v, {
    onCaptureRead: capturing.onCaptureRead,
    takeMany: (files) => fleet?.take(files) ?? false,
    takeDrop: (transfer) => fleet?.drop(transfer) ?? false,
  });
  fleet = options.chartOnly ? null : mountFleet(element, $, {
    open(file, name, normal) {
      v.analysis?.normalFromLogs(name, normal ?? []);
      return opener.open(file, name);
    },
  });
  cleanups.push(() => fleet?.destroy());
  v.explainer = createExplainer($['chart-explain'], state, { readRaw: opener.readRaw });
  v.pane = createPaneStack(
    { canvas: $.chart, selection: $['chart-selection'], cursor: $['chart-cursor'], readout: $['chart-readout'], range: $['chart-range'], legend: $['chart-legend'], stack: $['chart-panes'], live: $['chart-live'] },
    state,
    { setRange: v.setRange, options: () => ({ dark: v.isDark(), references: $['pdh-overlay'].checked }), overlays: v.compare.overlays, legendOthers: v.compare.legend, explain: v.explainer.show });
  const selection = mountSelection(v);
  mountDrawer(v, { saveUrl: painters.url });

  // ---- analysis: run on open, the verdict at the top; a card's Show charts its series around its range
  // (the panel keeps the user's view for Back) ----
  v.analysis = $.analysis ? mountAnalysisPanel($.analysis, {
    state, verdict: $.verdict ?? null, canvas: $.chart, dark: () => v.isDark(), changed: v.changed,
    show(indices, range) {
      clearSelection(state);
      for (const i of indices) selectSeries(state, i);
      v.changed('selection');
      v.setRange(range);
    },
    restore(saved) {
      clearSelection(state);
      for (const i of saved.selected) state.selected.add(i);
      for (const [i, slot] of saved.slots) state.slots.set(i, slot);
      for (const i of saved.hidden) state.hidden.add(i);
      for (const [i, p] of saved.paneOf) state.paneOf.set(i, p);
      v.changed('selection');
      v.setRange(saved.range);
    },
    redraw: () => v.changed('marks'),
    normalTold: (info) => fleet?.normalTold(info),
  }) : null;

  if (options.theme) toolbar.setTheme(options.theme);
  if (v.shared?.file) {
    $['chart-status'].textContent = `This link shows a view of ${v.shared.file.name} (${v.shared.file.size.toLocaleString('en-US')} bytes): open that file, or another log with the same counters.`;
  }
  const ready = options.capture ? opener.open(options.capture, options.name) : options.url ? opener.openUrl(options.url, options.name) : Promise.resolve();

  return {
    ready,
    open: opener.open,
    openUrl: opener.openUrl,
    capture: () => state.capture,
    /** The file a shared link (the URL hash) names and waits for, or null. */
    sharedFile: () => v.shared?.file ?? null,
    setRange: now(v.setRange),
    redraw: now(() => v.changed('size')),
    /** Selects exactly the series `filter` matches. */
    selectSeries: now(selection.selectMatching),
    /** 'auto' (the system's), 'light' or 'dark'. */
    setTheme: now((theme) => toolbar.setTheme(['light', 'dark'].includes(theme) ? theme : 'auto')),
    destroy() {
      redraw.stop();
      opener.stop();
      v.explainer.reset();
      v.compare.stop();
      v.analysis?.destroy();
      v.pane.stop();
      cleanups.forEach((f) => f());
      state.capture?.free();
      state.capture = null;
      element.replaceChildren();
      element.classList.remove('counterlens-viewer');
    },
  };
}
