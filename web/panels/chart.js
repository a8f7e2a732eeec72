// The chart panel: open a capture (file picker, drop anywhere, ?url= of a same-origin file, the sample on
// first visit), pick series, see them charted by plotters and summarised. Files are read in a Web Worker
// (web/capture-worker.js) through CaptureReader in slices, with progress and a cancel button, so a large
// file never blocks the page nor needs a second copy of itself in memory.
import { Capture, renderChart, formatValue } from '../js/browser.js';
import { $, el } from '../dom.js';

const MAX_LISTED = 2000; // series rows shown at once; the filter narrows the rest

let capture = null;
let notes = [];
let sourceName = '';
let reading = null; // { worker, reject } while a file is being read
let selected = new Set();
let zone = 'log';
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
    for (const i of defaultSelection(capture.series())) select(i);
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

function listSeries() {
  const words = $('series-filter').value.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const all = capture.series();
  const shown = all.filter((s) => words.every((w) => s.path.toLowerCase().includes(w)));
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
  const layout = renderChart($('chart'), capture, indices, { dark: dark.matches, offsetMinutes: offsetMinutes(), colors: indices.map((i) => slots.get(i)) });
  $('chart').dataset.pointsDrawn = String(layout.pointsDrawn);
}

function showStats() {
  const info = capture.series();
  const rows = [...selected].sort((a, b) => a - b).map((i) => {
    const s = info[i];
    const st = capture.stats(i);
    const f = (v) => (s.counterType === undefined ? (Number.isNaN(v) ? '' : String(+v.toPrecision(6))) : formatValue(v, s.counterType));
    const tr = el('tr');
    tr.append(el('td', s.path), ...[st.min, st.mean, st.max, st.last, st.p95].map((v) => el('td', f(v), { class: 'num' })));
    return tr;
  });
  $('chart-stats').tBodies[0].replaceChildren(...rows);
}

export function mountChart() {
  $('series-list').addEventListener('change', (e) => {
    const i = Number(e.target.dataset.index);
    if (e.target.checked) select(i);
    else deselect(i);
    draw();
    showStats();
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
