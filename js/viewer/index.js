// The viewer, as the package ships it: `mountViewer(element, options)` builds the capture viewer (or just
// a chart) inside any element and returns a handle to drive it. The counterlens page uses the same
// function for its Chart tab, so there is one implementation.
//
// Open a capture (file picker, drop, bytes, a same-origin URL); files are read in a Web Worker
// (worker.js) through CaptureReader in slices, with progress and a cancel button, so a large file never
// blocks the page nor needs a second copy of itself in memory. Pick series in a machine > object >
// counter > instance tree (words or a perfmon wildcard path filter it); the chart (plotters, decimated
// in Rust) zooms and pans (chart-interact.js) with a crosshair that reads values from the data; the
// statistics cover the visible range and sort; PNG and CSV export; optionally the view in the URL hash.
// Everything from the file is written with textContent.
import { Capture, renderChart, formatValue, seriesColor } from '../api.js';
import { el } from './dom.js';
import { mountInteractions } from './chart-interact.js';

const MAX_LISTED = 2000; // series rows shown at once; the filter narrows the rest

/** A filter: a perfmon path pattern when it starts with a backslash (`\\*\Processor(*)\% Processor Time`,
 *  `\Memory\*`; `*` matches anything, a path without a machine matches every machine), else words that
 *  must all appear in the path. Case-insensitive, as PDH's paths are. */
function seriesFilter(text) {
  const t = text.trim();
  if (t.startsWith('\\')) {
    const esc = (p) => p.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    const re = new RegExp('^' + (t.startsWith('\\\\') ? esc(t) : '(\\\\\\\\[^\\\\]*)?' + esc(t)) + '$', 'i');
    return (path) => re.test(path);
  }
  const words = t.toLowerCase().split(/\s+/).filter(Boolean);
  return (path) => words.every((w) => path.toLowerCase().includes(w));
}

/** At most this many series are selected when a capture opens: a chart of hundreds of lines says
 *  nothing, and drawing them (rasterised at paint time) can take seconds. */
const DEFAULT_MAX = 8;

/** `seriesFilter` over SeriesInfo, its pattern compiled once for the whole list. */
function pathFilter(text) {
  const matches = seriesFilter(text);
  return (s) => matches(s.path) || (s.englishPath !== undefined && matches(s.englishPath)); // localized paths match in English too
}

/** Series shown at first: % Processor Time of the Processor instances (_Total first, at most
 *  DEFAULT_MAX), or the first few series. */
function defaultSelection(series) {
  const cpu = series.filter((s) => /^processor$/i.test(s.object) && /% processor time/i.test(s.counter));
  const total = cpu.filter((s) => s.instance === '_Total');
  const list = cpu.length ? [...total, ...cpu.filter((s) => s.instance !== '_Total')] : series;
  // In file order, so colours follow the order of the counters.
  return list.slice(0, cpu.length ? DEFAULT_MAX : 4).map((s) => s.index).sort((a, b) => a - b);
}

function describeError(err) {
  if (err?.name !== 'CaptureError') return err instanceof Error ? err.message : String(err?.message ?? err);
  const where = err.line ? ` (line ${err.line}, column ${err.column})` : err.offset !== undefined ? ` (byte ${err.offset})` : '';
  return `Cannot read this capture${where}: ${err.message}`;
}

/** The rejection of a read that a newer one replaced. */
const SUPERSEDED = Symbol('superseded');

const STATS = [['path', 'Series'], ['min', 'min'], ['mean', 'mean'], ['max', 'max'], ['last', 'last'], ['p95', '95th pct']];

/** The viewer's parts; `ids` gives them document ids (`#chart`, `#series-list`, ...) for one viewer per page. */
function build(root, { chartOnly, ids }) {
  const parts = {};
  const part = (name, tag, text, attrs = {}) => {
    const e = el(tag, text, { ...attrs, 'data-part': name });
    if (ids) e.id = name;
    parts[name] = e;
    return e;
  };
  const button = (name, text, title) => part(name, 'button', text, { type: 'button', ...(title ? { title } : {}) });
  const controls = el('div', null, { class: 'capture-controls' });
  const fileLabel = el('label', 'Open a capture ');
  fileLabel.append(part('capture-file', 'input', null, { type: 'file', accept: '.blg,.csv,.tsv,.json,text/csv,text/tab-separated-values,application/json' }));
  const zoneLabel = el('label', 'Times in ');
  const zone = part('zone', 'select');
  zone.append(el('option', "the log's zone", { value: 'log' }), el('option', 'UTC', { value: 'utc' }));
  zoneLabel.append(zone);
  controls.append(fileLabel, el('span', 'or drop a perfmon log (.blg), relog CSV/TSV, Get-Counter JSON or counterlens raw capture anywhere on the page', { class: 'muted' }), zoneLabel);
  const statusLine = el('p');
  const progress = part('chart-progress', 'progress', null, { max: '1', value: '0' });
  progress.hidden = true;
  const cancel = button('chart-cancel', 'Cancel');
  cancel.hidden = true;
  statusLine.append(part('chart-status', 'span', null, { role: 'status' }), ' ', progress, ' ', cancel);
  const notes = part('chart-notes', 'ul', null, { class: 'muted' });

  const aside = el('aside');
  aside.append(
    part('series-filter', 'input', null, { type: 'search', placeholder: 'Filter: words, or a path such as \\\\*\\Processor(*)\\% Processor Time', 'aria-label': 'Filter series' }),
    part('series-count', 'p', null, { class: 'muted' }),
    part('series-list', 'div'),
  );
  const tools = el('div', null, { class: 'chart-tools', role: 'toolbar', 'aria-label': 'Chart range and export' });
  tools.append(button('zoom-in', 'Zoom in', 'Zoom in (+)'), button('zoom-out', 'Zoom out', 'Zoom out (-)'),
    button('pan-left', '\u2190', 'Pan left (Left arrow)'), button('pan-right', '\u2192', 'Pan right (Right arrow)'),
    button('zoom-reset', 'Reset', 'Whole capture (0, or double-click the chart)'), part('chart-range', 'span', null, { class: 'muted' }),
    button('export-png', 'Export PNG'), button('export-csv', 'Export CSV'));
  // Get-Counter captures carry PDH's own values: drawn dashed beside ours, and where they differ listed.
  const overlay = part('pdh-overlay-label', 'label');
  overlay.append(part('pdh-overlay', 'input', null, { type: 'checkbox' }), ' PDH values');
  overlay.hidden = true;
  tools.append(overlay);
  const box = el('div', null, { class: 'chart-box' });
  box.append(
    part('chart', 'canvas', null, { tabindex: '0', 'aria-label': 'Time-series chart of the selected series: drag to zoom, shift-drag to pan, wheel to zoom, double-click to reset; arrow keys and + - 0 when focused' }),
    part('chart-selection', 'div'), part('chart-cursor', 'div'), part('chart-readout', 'div', null, { role: 'status' }));
  for (const n of ['chart-selection', 'chart-cursor', 'chart-readout']) parts[n].hidden = true;
  const table = part('chart-stats', 'table', null, { class: 'grid' });
  const head = el('tr');
  for (const [key, label] of STATS) {
    const th = el('th', null, { 'data-key': key, 'aria-sort': 'none' });
    th.append(el('button', label, { type: 'button' }));
    head.append(th);
  }
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
  const main = el('div', null, { class: 'chart-main' });
  // Clicking a point explains each selected series' value there, where the capture has the raw numbers.
  const explain = part('chart-explain', 'section', null, { 'aria-live': 'polite' });
  explain.hidden = true;
  const diffs = part('pdh-diffs', 'details');
  diffs.append(part('pdh-diffs-summary', 'summary'), part('pdh-diffs-table', 'table', null, { class: 'grid' }));
  diffs.hidden = true;
  main.append(tools, box, explain, el('p', 'Statistics of the visible range:', { class: 'muted' }), table, diffs);
  const layout = el('div', null, { class: chartOnly ? 'chart-layout chart-only' : 'chart-layout' });
  if (!chartOnly) layout.append(aside);
  layout.append(main);
  root.classList.add('counterlens-viewer');
  root.replaceChildren(...(chartOnly ? [statusLine, layout] : [controls, statusLine, notes, layout]));
  return parts;
}

/**
 * Mounts the viewer in `element`.
 * @param {HTMLElement} element
 * @param {object} [options]
 * @param {Uint8Array|ArrayBuffer|Blob} [options.capture] a capture to open at once (bytes or a Blob)
 * @param {string} [options.url] or a same-origin URL to fetch and open
 * @param {string} [options.name] its display name
 * @param {boolean} [options.chartOnly] only the chart, its toolbar and statistics (no picker, no tree)
 * @param {string} [options.series] the series to show: a filter (words or a perfmon wildcard path)
 * @param {boolean} [options.hash] keep the selection and range in the URL hash (one viewer per page)
 * @param {boolean} [options.ids] give the parts document ids (one viewer per page)
 * @param {boolean} [options.dropAnywhere] take files dropped anywhere on the page, not only on `element`
 * @param {boolean} [options.stylesheet=true] link the viewer's stylesheet (js/viewer/viewer.css)
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
  const $ = build(element, options);
  let capture = null;
  let notes = [];
  let sourceName = '';
  let reading = null; // { worker, reject } while a file is being read
  let selected = new Set();
  let zone = 'log';
  let range = null; // [fromMs, toMs] shown, or null for the whole capture
  let layout = null; // what the last renderChart returned
  let timestamps = new Float64Array(); // the capture's, copied once per capture for the crosshair
  let info = []; // capture.series(), converted once per capture (not on every mouse move)
  let sort = { key: null, dir: 1 }; // the stats table's order
  let hashApplies = !!options.hash;
  let highlight = null; // the series hovered in the tree or the table
  // Palette slot of each selected series: given when it is selected (the lowest free one), kept while it
  // stays selected, as Perfmon keeps a counter's colour.
  const slots = new Map();
  const cleanups = [];
  const on = (target, type, fn, opts) => { target.addEventListener(type, fn, opts); cleanups.push(() => target.removeEventListener(type, fn, opts)); };

  function select(i) {
    selected.add(i);
    if (slots.has(i)) return;
    const used = new Set(slots.values());
    let slot = 0;
    while (used.has(slot)) slot++;
    slots.set(i, slot);
  }
  function deselect(i) {
    selected.delete(i);
    slots.delete(i);
  }

  /** Reads a Blob in the worker; resolves to { capture, notes }, rejects with the reader's error (as data)
   *  or a cancellation. */
  function readBlob(blob, name) {
    // A read still going is superseded: its worker stops and its open() ends quietly.
    reading?.reject(SUPERSEDED);
    return new Promise((resolve, reject) => {
      const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
      const done = () => {
        worker.terminate();
        reading = null;
        $['chart-progress'].hidden = true;
        $['chart-cancel'].hidden = true;
      };
      reading = { worker, reject: (e) => { done(); reject(e); } };
      $['chart-progress'].value = 0;
      $['chart-progress'].hidden = false;
      $['chart-cancel'].hidden = false;
      $['chart-status'].textContent = `Reading ${name}`;
      worker.onmessage = ({ data }) => {
        if (data.progress !== undefined) {
          $['chart-progress'].value = data.progress;
          $['chart-status'].textContent = `Reading ${name}: ${Math.round(100 * data.progress)} %`;
          return;
        }
        done();
        if (data.error) reject(data.error);
        else resolve({ capture: Capture.fromParts(data.parts), notes: data.parts.notes });
      };
      worker.onerror = (e) => { done(); reject(new Error(e.message || 'the capture reader stopped')); };
      worker.postMessage({ blob });
    });
  }

  async function open(input, name = 'capture') {
    try {
      const blob = input instanceof Blob ? input : new Blob([input]);
      const next = await readBlob(blob, name);
      capture?.free();
      capture = next.capture;
      notes = next.notes;
      $['chart-explain'].hidden = true;
      sourceName = name;
      selected = new Set();
      slots.clear();
      timestamps = capture.timestamps();
      info = capture.series();
      range = null;
      // The hash's view applies to the capture the page opens with (a shared link), not to later files.
      const fromHash = hashApplies ? viewFromHash(capture.seriesCount) : null;
      hashApplies = false;
      const wanted = options.series ? info.filter(pathFilter(options.series)).map((s) => s.index) : null;
      for (const i of fromHash?.series ?? wanted ?? defaultSelection(info)) select(i);
      if (fromHash?.range) range = clampRange(fromHash.range);
      $['series-filter'].value = '';
      showCapture();
    } catch (err) {
      if (err !== SUPERSEDED) $['chart-status'].textContent = describeError(err);
    }
  }

  /** Fetches and opens a capture; only from the page's own origin (the viewer sends data nowhere else). */
  async function openUrl(url, name) {
    try {
      const resolved = new URL(url, location.href);
      if (resolved.origin !== location.origin) throw new Error(`${url} is not on this site; captures are only read from the page's own origin`);
      const response = await fetch(resolved);
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      await open(await response.blob(), name ?? resolved.pathname.split('/').pop());
    } catch (err) {
      $['chart-status'].textContent = describeError(err);
    }
  }

  const offsetMinutes = () => (zone === 'log' && capture?.timeZone ? -capture.timeZone.biasMinutes : 0);

  function showCapture() {
    const tz = capture.timeZone;
    $['chart-status'].textContent =
      `${sourceName}: ${capture.format}, ${capture.encoding}, ${capture.sampleCount} samples, ${capture.seriesCount} series` +
      (tz ? `, time zone ${tz.name || 'unnamed'} (bias ${tz.biasMinutes} min)` : ', no time zone (times are UTC)');
    $['chart-notes'].replaceChildren(...notes.map((n) => el('li', n.line ? `line ${n.line}: ${n.message}` : n.message)));
    const hasReference = capture.seriesCount > 0 && capture.reference(0) !== undefined;
    $['pdh-overlay-label'].hidden = !hasReference;
    if (!hasReference) $['pdh-overlay'].checked = false;
    listSeries();
    draw();
    showStats();
  }

  /** Where counterlens' values and PDH's own (Get-Counter's CookedValue) differ, for the selected series
   *  in the visible range: both have a value and they differ by more than 1e-9 relative. */
  function showDifferences() {
    const on = $['pdh-overlay'].checked && capture;
    $['pdh-diffs'].hidden = !on;
    if (!on) return;
    const rows = [];
    let count = 0;
    const [from, to] = range ?? [-Infinity, Infinity];
    for (const i of [...selected].sort((a, b) => a - b)) {
      const ours = capture.values(i), pdh = capture.reference(i);
      if (!pdh) continue;
      for (let k = 0; k < ours.length; k++) {
        const [a, b] = [ours[k], pdh[k]];
        if (timestamps[k] < from || timestamps[k] > to || !Number.isFinite(a) || !Number.isFinite(b)) continue;
        if (Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300)) continue;
        count++;
        if (rows.length < 200) {
          const tr = el('tr', null, { 'data-index': String(i) });
          tr.append(el('td', formatTime(timestamps[k])), el('td', info[i].path), el('td', String(a), { class: 'num' }), el('td', String(b), { class: 'num' }), el('td', String(a - b), { class: 'num' }));
          rows.push(tr);
        }
      }
    }
    $['pdh-diffs-summary'].textContent = count
      ? `Where counterlens and PDH differ: ${count} points${count > rows.length ? ` (the first ${rows.length} listed)` : ''}`
      : 'counterlens and PDH agree at every point of the selected series in this range';
    const head = el('tr');
    head.append(...['time', 'series', 'counterlens', 'PDH', 'difference'].map((h) => el('th', h)));
    const thead = el('thead');
    thead.append(head);
    const tbody = el('tbody');
    tbody.append(...rows);
    $['pdh-diffs-table'].replaceChildren(thead, tbody);
    $['pdh-diffs'].open = count > 0;
  }

  /** The series tree: machine > object > counter > instance, each level with its count. */
  function listSeries() {
    const text = $['series-filter'].value;
    const filtering = text.trim() !== '';
    const shown = info.filter(pathFilter(text));
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
    $['series-list'].replaceChildren(...machines);
    $['series-count'].textContent = shown.length > MAX_LISTED
      ? `${shown.length} of ${info.length} series match; the first ${MAX_LISTED} are listed`
      : `${shown.length} of ${info.length} series`;
  }

  const dark = matchMedia('(prefers-color-scheme: dark)');

  function draw() {
    if (!capture || !element.isConnected || element.closest('[hidden]')) return;
    const indices = [...selected].sort((a, b) => a - b);
    const view = { dark: dark.matches, offsetMinutes: offsetMinutes(), colors: indices.map((i) => slots.get(i)) };
    if (range) view.xRange = range;
    if ($['pdh-overlay'].checked) view.references = true;
    if (highlight !== null && selected.has(highlight)) view.highlight = indices.indexOf(highlight);
    layout = renderChart($.chart, capture, indices, view);
    // The layout, for tests and tools that drive the chart: plot rectangle (CSS px) and time range.
    for (const k of ['pointsDrawn', 'x0', 'x1', 'plotLeft', 'plotTop', 'plotWidth', 'plotHeight']) $.chart.dataset[k] = String(layout[k]);
    $['chart-range'].textContent = timestamps.length ? `${formatTime(layout.x0)} to ${formatTime(layout.x1)}${range ? '' : ' (all)'}` : '';
  }

  /** `yyyy-mm-dd hh:mm:ss.fff` of ms since the epoch in the chosen zone. */
  const formatTime = (ms) => new Date(ms + offsetMinutes() * 60_000).toISOString().replace('T', ' ').replace('Z', '');

  /** A range kept within the capture and at least a millisecond wide; null when it covers everything. */
  function clampRange(r) {
    if (!r || !timestamps.length || !(r[1] > r[0])) return null;
    const [lo, hi] = [timestamps[0], timestamps[timestamps.length - 1]];
    let [a, b] = r;
    const w = Math.max(b - a, 1);
    if (w >= hi - lo) return null;
    if (a < lo) [a, b] = [lo, lo + w];
    if (b > hi) [a, b] = [hi - w, hi];
    return [a, b];
  }

  function setRange(r) {
    range = clampRange(r);
    draw();
    showStats();
    saveView();
  }

  const format = (s, v) => (s.counterType === undefined ? (Number.isNaN(v) ? '' : String(+v.toPrecision(6))) : formatValue(v, s.counterType));

  /** The crosshair: the sample nearest `t`, its time, and each selected series' value there. */
  function readout(t) {
    if (!capture || !layout || !timestamps.length) return null;
    const k = capture.sampleAt(t);
    if (k < 0) return null;
    const ts = timestamps[k];
    const lines = [el('div', formatTime(ts), { class: 'readout-time' })];
    for (const i of [...selected].sort((a, b) => a - b)) {
      const s = info[i];
      const v = capture.valueAt(i, k);
      const swatch = el('span', null, { class: 'swatch' });
      swatch.style.background = seriesColor(slots.get(i));
      const line = el('div', null, { 'data-index': String(i), 'data-value': String(v) });
      line.append(swatch, el('span', `${s.instance !== undefined ? `${s.object}(${s.instance})` : s.object}\\${s.counter}: `), el('b', Number.isNaN(v) ? 'no value' : format(s, v)));
      lines.push(line);
    }
    return { x: ((ts - layout.x0) / (layout.x1 - layout.x0)) * layout.plotWidth, lines, sample: k };
  }

  /** Explains each selected series' value at the sample nearest `t` (Get-Counter captures keep the raw
   *  numbers; other formats hold only cooked values, and the box says so). */
  function pick(t) {
    if (!capture || !timestamps.length) return;
    const k = capture.sampleAt(t);
    const items = [];
    for (const i of [...selected].sort((a, b) => a - b)) {
      let e;
      try {
        e = capture.explainAt(i, k);
      } catch (err) {
        e = { formula: '', substituted: err.message };
      }
      if (!e) continue;
      const item = el('div', null, { 'data-index': String(i) });
      item.append(el('h4', info[i].path), el('p', e.formula, { class: 'formula' }), el('p', e.substituted, { class: 'formula' }));
      items.push(item);
    }
    const box = $['chart-explain'];
    const close = el('button', 'Close', { type: 'button' });
    close.addEventListener('click', () => { box.hidden = true; });
    box.replaceChildren(el('h3', `How the values at ${formatTime(timestamps[k])} were computed`), ...(items.length ? items
      : [el('p', `This capture (${capture.format}) holds the values as they were written, not the raw samples they came from: nothing to explain.`, { class: 'muted' })]), close);
    box.hidden = false;
  }

  /** The view in the URL hash (`#series=0,5,9&from=...&to=...`), so a link reopens it. */
  function saveView() {
    if (!options.hash) return;
    // Written by hand: URLSearchParams would escape the commas, and the link should stay readable.
    let hash = `series=${[...selected].sort((a, b) => a - b).join(',')}`;
    if (range) hash += `&from=${Math.round(range[0])}&to=${Math.round(range[1])}`;
    history.replaceState(null, '', `${location.pathname}${location.search}#${hash}`);
  }

  function viewFromHash(seriesCount) {
    const p = new URLSearchParams(location.hash.slice(1));
    if (!p.has('series')) return null;
    const series = p.get('series').split(',').filter(Boolean).map(Number).filter((i) => Number.isInteger(i) && i >= 0 && i < seriesCount);
    const from = Number(p.get('from')), to = Number(p.get('to'));
    return { series, range: p.has('from') && p.has('to') && Number.isFinite(from) && Number.isFinite(to) ? [from, to] : null };
  }

  function download(blob, name) {
    const a = el('a', null, { href: URL.createObjectURL(blob), download: name });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  const baseName = () => (sourceName || 'capture').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'capture';

  function showStats() {
    if (!capture) return;
    const [from, to] = range ?? [undefined, undefined];
    const rows = [...selected].map((i) => ({ i, s: info[i], st: capture.stats(i, from, to) }));
    if (sort.key) {
      const key = (r) => (sort.key === 'path' ? r.s.path : r.st[sort.key]);
      rows.sort((a, b) => {
        const [x, y] = [key(a), key(b)];
        if (typeof x === 'string') return sort.dir * x.localeCompare(y);
        if (Number.isNaN(x)) return 1; // no value sorts last either way
        if (Number.isNaN(y)) return -1;
        return sort.dir * (x - y);
      });
    } else {
      rows.sort((a, b) => a.i - b.i);
    }
    const trs = rows.map(({ i, s, st }) => {
      const tr = el('tr', null, { 'data-index': String(i) });
      tr.append(el('td', s.path), ...[st.min, st.mean, st.max, st.last, st.p95].map((v) => el('td', Number.isNaN(v) ? '' : format(s, v), { class: 'num' })));
      return tr;
    });
    $['chart-stats'].tBodies[0].replaceChildren(...trs);
    showDifferences();
    for (const th of $['chart-stats'].tHead.rows[0].cells) {
      th.setAttribute('aria-sort', th.dataset.key === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none');
    }
  }

  // Hovering a series in the tree or the table draws it thicker, the others fainter.
  const hoverSeries = (e) => {
    const i = e.target.closest?.('[data-index]')?.dataset.index;
    const next = i === undefined ? null : Number(i);
    if (next !== highlight) { highlight = next; draw(); }
  };
  for (const target of [$['series-list'], $['chart-stats']]) {
    on(target, 'pointerover', hoverSeries);
    on(target, 'pointerleave', () => { if (highlight !== null) { highlight = null; draw(); } });
    on(target, 'focusin', hoverSeries);
  }

  on($['series-list'], 'change', (e) => {
    const i = Number(e.target.dataset.index);
    if (e.target.checked) select(i);
    else deselect(i);
    draw();
    showStats();
    saveView();
  });
  on($['series-filter'], 'input', () => capture && listSeries());
  on($['capture-file'], 'change', (e) => e.target.files[0] && open(e.target.files[0], e.target.files[0].name));
  const dropTarget = options.dropAnywhere ? document : element;
  on(dropTarget, 'dragover', (e) => e.preventDefault());
  on(dropTarget, 'drop', (e) => {
    if (!e.dataTransfer?.files[0] || e.target.closest?.('[data-own-drop]')) return; // panels with drops of their own
    e.preventDefault();
    open(e.dataTransfer.files[0], e.dataTransfer.files[0].name);
  });
  on($.zone, 'change', (e) => { zone = e.target.value; draw(); });
  on($['pdh-overlay'], 'change', () => { draw(); showDifferences(); });
  const view = mountInteractions({ canvas: $.chart, selection: $['chart-selection'], cursor: $['chart-cursor'], readout: $['chart-readout'] },
    { layout: () => layout, range: () => range, setRange, readout, pick });
  on($['zoom-in'], 'click', () => view.zoom(0.5));
  on($['zoom-out'], 'click', () => view.zoom(2));
  on($['pan-left'], 'click', () => view.pan(-0.25));
  on($['pan-right'], 'click', () => view.pan(0.25));
  on($['zoom-reset'], 'click', () => setRange(null));
  on($['export-png'], 'click', () => $.chart.toBlob((b) => b && download(b, `${baseName()}.png`), 'image/png'));
  on($['export-csv'], 'click', () => {
    if (!capture) return;
    download(new Blob([capture.toCsv([...selected].sort((a, b) => a - b))], { type: 'text/csv' }), `${baseName()}-selected.csv`);
  });
  on($['chart-stats'].tHead, 'click', (e) => {
    const th = e.target.closest('th');
    if (!th || !capture) return;
    sort = { key: th.dataset.key, dir: sort.key === th.dataset.key ? -sort.dir : th.dataset.key === 'path' ? 1 : -1 };
    showStats();
  });
  on($['chart-cancel'], 'click', () => reading?.reject(new Error('Reading cancelled; the capture that was open stays open.')));
  const resize = new ResizeObserver(() => draw());
  resize.observe($.chart);
  on(dark, 'change', draw);

  const ready = options.capture ? open(options.capture, options.name) : options.url ? openUrl(options.url, options.name) : Promise.resolve();

  return {
    ready,
    open,
    openUrl,
    capture: () => capture,
    setRange,
    redraw: draw,
    destroy() {
      reading?.worker.terminate();
      resize.disconnect();
      cleanups.forEach((f) => f());
      capture?.free();
      capture = null;
      element.replaceChildren();
      element.classList.remove('counterlens-viewer');
    },
  };
}
