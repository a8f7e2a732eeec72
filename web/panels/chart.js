// The chart panel: open a capture (file picker, drop anywhere, ?url= of a same-origin file, the sample on
// first visit), pick series (words or a perfmon wildcard path), see them charted by plotters over a time
// range you zoom and pan (chart-interact.js), with a crosshair reading values from the data, statistics
// of the visible range, PNG and CSV export, and the view kept in the URL hash. Files are read in a Web
// Worker (web/capture-worker.js) through CaptureReader in slices, with progress and a cancel button, so a
// large file never blocks the page nor needs a second copy of itself in memory.
import { Capture, renderChart, formatValue, seriesColor } from '../js/browser.js';
import { $, el } from '../dom.js';
import { mountInteractions } from './chart-interact.js';

const MAX_LISTED = 2000; // series rows shown at once; the filter narrows the rest

let capture = null;
let notes = [];
let sourceName = '';
let reading = null; // { worker, reject } while a file is being read
let selected = new Set();
let zone = 'log';
let range = null; // [fromMs, toMs] shown, or null for the whole capture
let layout = null; // what the last renderChart returned
let timestamps = new Float64Array(); // the capture's, copied once per capture for the crosshair
let sort = { key: null, dir: 1 }; // the stats table's order
let hashApplies = true;
// Palette slot of each selected series: given when it is selected (the lowest free one), kept while it
// stays selected, as Perfmon keeps a counter's colour.
const slots = new Map();

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

/** Reads a Blob (a File, or a fetched body) in the worker; resolves to { capture, notes }, rejects with
 *  the reader's error (as data) or a cancellation. */
function readBlob(blob, name) {
  reading?.worker.terminate();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../capture-worker.js', import.meta.url), { type: 'module' });
    const done = () => {
      worker.terminate();
      reading = null;
      $('chart-progress').hidden = true;
      $('chart-cancel').hidden = true;
    };
    reading = { worker, reject: (e) => { done(); reject(e); } };
    $('chart-progress').value = 0;
    $('chart-progress').hidden = false;
    $('chart-cancel').hidden = false;
    $('chart-status').textContent = `Reading ${name}`;
    worker.onmessage = ({ data }) => {
      if (data.progress !== undefined) {
        $('chart-progress').value = data.progress;
        $('chart-status').textContent = `Reading ${name}: ${Math.round(100 * data.progress)} %`;
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

function cancel() {
  reading?.reject(new Error('Reading cancelled; the capture that was open stays open.'));
}

function describeError(err) {
  if (err?.name !== 'CaptureError') return err instanceof Error ? err.message : String(err);
  const where = err.line ? ` (line ${err.line}, column ${err.column})` : err.offset !== undefined ? ` (byte ${err.offset})` : '';
  return `Cannot read this capture${where}: ${err.message}`;
}

/** Series shown at first: % Processor Time of every Processor instance, or the first few series. */
function defaultSelection(series) {
  const cpu = series.filter((s) => /^processor$/i.test(s.object) && /% processor time/i.test(s.counter));
  return new Set((cpu.length ? cpu : series.slice(0, 4)).map((s) => s.index));
}

export async function open(blob, name) {
  try {
    const next = await readBlob(blob, name);
    capture?.free();
    capture = next.capture;
    notes = next.notes;
    sourceName = name;
    selected = new Set();
    slots.clear();
    timestamps = capture.timestamps();
    range = null;
    // The hash's view applies to the capture the page opens with (a shared link), not to later files.
    const fromHash = hashApplies ? viewFromHash(capture.seriesCount) : null;
    hashApplies = false;
    for (const i of fromHash?.series ?? defaultSelection(capture.series())) select(i);
    if (fromHash?.range) range = clampRange(fromHash.range);
    $('series-filter').value = '';
    showCapture();
  } catch (err) {
    $('chart-status').textContent = describeError(err);
  }
}

function offsetMinutes() {
  const tz = capture?.timeZone;
  return zone === 'log' && tz ? -tz.biasMinutes : 0;
}

function showCapture() {
  const tz = capture.timeZone;
  $('chart-status').textContent =
    `${sourceName}: ${capture.format}, ${capture.encoding}, ${capture.sampleCount} samples, ${capture.seriesCount} series` +
    (tz ? `, time zone ${tz.name || 'unnamed'} (bias ${tz.biasMinutes} min)` : ', no time zone (times are UTC)');
  $('chart-notes').replaceChildren(...notes.map((n) => el('li', n.line ? `line ${n.line}: ${n.message}` : n.message)));
  listSeries();
  draw();
  showStats();
}

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

function listSeries() {
  const text = $('series-filter').value;
  const words = text.trim() ? [text] : [];
  const matches = seriesFilter(text);
  const all = capture.series();
  const shown = all.filter((s) => matches(s.path));
  const groups = new Map();
  for (const s of shown.slice(0, MAX_LISTED)) {
    if (!groups.has(s.object)) groups.set(s.object, []);
    groups.get(s.object).push(s);
  }
  const boxes = [...groups].map(([object, list]) => {
    const details = el('details');
    details.open = list.some((s) => selected.has(s.index)) || words.length > 0;
    details.append(el('summary', `${object} (${list.length})`));
    const ul = el('ul');
    for (const s of list) {
      const li = el('li');
      const label = el('label');
      const box = el('input', null, { type: 'checkbox', 'data-index': String(s.index) });
      box.checked = selected.has(s.index);
      label.append(box, el('span', (s.instance !== undefined ? `${s.parent ? s.parent + '/' : ''}${s.instance} \u2014 ` : '') + s.counter));
      li.append(label);
      ul.append(li);
    }
    details.append(ul);
    return details;
  });
  $('series-list').replaceChildren(...boxes);
  $('series-count').textContent = shown.length > MAX_LISTED
    ? `${shown.length} of ${all.length} series match; the first ${MAX_LISTED} are listed`
    : `${shown.length} of ${all.length} series`;
}

const dark = matchMedia('(prefers-color-scheme: dark)');

export function draw() {
  if (!capture || $('panel-chart').hidden) return;
  const indices = [...selected].sort((a, b) => a - b);
  const view = { dark: dark.matches, offsetMinutes: offsetMinutes(), colors: indices.map((i) => slots.get(i)) };
  if (range) view.xRange = range;
  layout = renderChart($('chart'), capture, indices, view);
  $('chart').dataset.pointsDrawn = String(layout.pointsDrawn);
  // The layout, for tests and tools that drive the chart: plot rectangle (CSS px) and time range.
  for (const k of ['x0', 'x1', 'plotLeft', 'plotTop', 'plotWidth', 'plotHeight']) $('chart').dataset[k] = String(layout[k]);
  $('chart-range').textContent = timestamps.length
    ? `${formatTime(layout.x0)} to ${formatTime(layout.x1)}${range ? '' : ' (all)'}` : '';
}

/** `yyyy-mm-dd hh:mm:ss.fff` of ms since the epoch in the chosen zone. */
function formatTime(ms) {
  const d = new Date(ms + offsetMinutes() * 60_000);
  return d.toISOString().replace('T', ' ').replace('Z', '');
}

/** The whole capture's time span. */
const fullRange = () => [timestamps[0], timestamps[timestamps.length - 1]];

/** A range kept within the capture and at least a millisecond wide; null when it covers everything. */
function clampRange(r) {
  if (!r || !timestamps.length || !(r[1] > r[0])) return null;
  const [lo, hi] = fullRange();
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

/** The crosshair: the sample nearest `t`, its time, and each selected series' value there. */
function readout(t) {
  if (!capture || !layout || !timestamps.length) return null;
  const k = capture.sampleAt(t);
  if (k < 0) return null;
  const ts = timestamps[k];
  const info = capture.series();
  const lines = [el('div', formatTime(ts), { class: 'readout-time' })];
  for (const i of [...selected].sort((a, b) => a - b)) {
    const s = info[i];
    const v = capture.valueAt(i, k);
    const swatch = el('span', null, { class: 'swatch' });
    swatch.style.background = seriesColor(slots.get(i));
    const line = el('div');
    line.append(swatch, el('span', `${s.instance !== undefined ? `${s.object}(${s.instance})` : s.object}\\${s.counter}: `), el('b', Number.isNaN(v) ? 'no value' : format(s, v)));
    line.dataset.index = String(i);
    line.dataset.value = String(v);
    lines.push(line);
  }
  return { x: ((ts - layout.x0) / (layout.x1 - layout.x0)) * layout.plotWidth, lines, sample: k };
}

function format(s, v) {
  return s.counterType === undefined ? (Number.isNaN(v) ? '' : String(+v.toPrecision(6))) : formatValue(v, s.counterType);
}

/** The view in the URL hash (`#series=0,5,9&from=...&to=...`), so a link reopens it. */
function saveView() {
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

function baseName() {
  return (sourceName || 'capture').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'capture';
}

function showStats() {
  const info = capture.series();
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
  const trs = rows.map(({ s, st }) => {
    const tr = el('tr');
    const f = (v) => format(s, v);
    tr.append(el('td', s.path), ...[st.min, st.mean, st.max, st.last, st.p95].map((v) => el('td', Number.isNaN(v) ? '' : f(v), { class: 'num' })));
    return tr;
  });
  $('chart-stats').tBodies[0].replaceChildren(...trs);
  for (const th of $('chart-stats').tHead.rows[0].cells) {
    th.setAttribute('aria-sort', th.dataset.key === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none');
  }
}

export function mountChart() {
  $('series-list').addEventListener('change', (e) => {
    const i = Number(e.target.dataset.index);
    if (e.target.checked) select(i);
    else deselect(i);
    draw();
    showStats();
    saveView();
  });
  $('series-filter').addEventListener('input', () => capture && listSeries());
  $('capture-file').addEventListener('change', (e) => e.target.files[0] && open(e.target.files[0], e.target.files[0].name));
  document.addEventListener('dragover', (e) => e.preventDefault());
  document.addEventListener('drop', (e) => {
    if (e.target.closest?.('#panel-reg')) return; // the registration panel takes its own drops
    e.preventDefault();
    const file = e.dataTransfer.files[0];
    if (file) open(file, file.name);
  });
  $('zone').addEventListener('change', (e) => { zone = e.target.value; draw(); });
  const view = mountInteractions({ layout: () => layout, range: () => range, setRange, readout });
  $('zoom-in').addEventListener('click', () => view.zoom(0.5));
  $('zoom-out').addEventListener('click', () => view.zoom(2));
  $('pan-left').addEventListener('click', () => view.pan(-0.25));
  $('pan-right').addEventListener('click', () => view.pan(0.25));
  $('zoom-reset').addEventListener('click', () => setRange(null));
  $('export-png').addEventListener('click', () => $('chart').toBlob((b) => b && download(b, `${baseName()}.png`), 'image/png'));
  $('export-csv').addEventListener('click', () => {
    if (!capture) return;
    const csv = capture.toCsv([...selected].sort((a, b) => a - b));
    download(new Blob([csv], { type: 'text/csv' }), `${baseName()}-selected.csv`);
  });
  $('chart-stats').tHead.addEventListener('click', (e) => {
    const th = e.target.closest('th');
    if (!th || !capture) return;
    sort = { key: th.dataset.key, dir: sort.key === th.dataset.key ? -sort.dir : th.dataset.key === 'path' ? 1 : -1 };
    showStats();
  });
  $('chart-cancel').addEventListener('click', cancel);
  new ResizeObserver(() => draw()).observe($('chart'));
  dark.addEventListener('change', draw);
}

/** Opens ?url= (same origin only: the page's CSP allows nothing else) or the sample capture. */
export async function openInitial() {
  const requested = new URLSearchParams(location.search).get('url');
  const url = requested ?? 'sample-capture.json';
  try {
    const resolved = new URL(url, location.href);
    if (resolved.origin !== location.origin) throw new Error(`${url} is not on this site; captures are only read from the page's own origin`);
    const response = await fetch(resolved);
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    await open(await response.blob(), requested ? resolved.pathname.split('/').pop() : 'sample capture (DEMO-SQL01)');
  } catch (err) {
    $('chart-status').textContent = describeError(err);
  }
}
