// The fleet view: many logs at once (several files chosen or dropped, or a folder). Each log is read and
// analysed in a pool of Workers (fleet-pool.js) and comes back as its machines' runs (fleetRuns: small
// whatever the log); the page keeps the runs and the File handles, never a capture, so memory does not
// grow with the number of logs. The machines are ranked by the core (rankFleet: severity, then time in
// trouble) into a table (rank, machine, worst, time in trouble, a CPU sparkline, key figures, top card)
// under a heatmap of machines by time (fleetHeatmapSvg, the core's chart). Progress and Cancel while
// the pool runs; a log that cannot be read is listed and the rest go on. A click on a machine's row
// (or Enter on it) opens one of its logs in the single-log view, with its verdict; a bar above it leads
// back. Every name from a log is written as text; the core's SVG is parsed (DOMParser), never set as HTML.
import { el } from './dom.js';
import { rankFleet, fleetHeatmapSvg, sparklineSvg, formatDuration } from '../core.js';
import { runPool } from './fleet-pool.js';
import { logsOfFiles, logsOfDrop } from './fleet-files.js';
import { describeError } from './reading.js';

/** Re-ranking while logs arrive: at most this often (ms), and never more than a fifth of the time (the
 *  wait is at least 4 times the last ranking's); the last log always ranks. */
const RERANK_MS = 400;
/** While logs arrive, the table and heatmap show the worst this many machines (all of them at the end):
 *  a few hundred rows drawn again every moment would cost more than the reading. */
export const LIVE_ROWS = 40;

/** The core's SVG text as nodes: parsed as XML, with anything active removed (the core escapes every
 *  label; this keeps the page safe whatever comes). */
export function svgNodes(text) {
  if (!text) return null;
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  const svg = doc.documentElement;
  if (svg?.localName !== 'svg' || doc.querySelector('parsererror')) return null;
  for (const bad of svg.querySelectorAll('script, foreignObject, iframe, a')) bad.remove();
  for (const e of [svg, ...svg.querySelectorAll('*')]) {
    for (const a of [...e.attributes]) if (/^on|href$/i.test(a.name)) e.removeAttribute(a.name);
  }
  return document.importNode(svg, true);
}

/** Which log of a machine a click opens: the first in trouble, else the latest; and why, in words. */
export function logToOpen(machine) {
  const runs = machine.runs ?? [];
  const troubled = runs.find((r) => r.worst);
  const run = troubled ?? runs.at(-1);
  const name = run?.logs?.[0] ?? machine.logs?.[0];
  const n = machine.logs?.length ?? 1;
  const why = n < 2 ? '' : troubled ? `the first of its ${n} logs in trouble` : `the latest of its ${n} logs`;
  return { name, why };
}

const figure = (v, unit, digits = 1) => (Number.isFinite(v) ? `${v.toFixed(digits)}${unit}` : '–');

/**
 * Builds the fleet view in the viewer's `element` (after its bar, `$['viewer-bar']`).
 * @param {{ open(file: File, name: string): Promise<void> }} hooks the single-log view's open
 * @returns {{ take(files: FileList|File[]): boolean, drop(dataTransfer: DataTransfer): boolean, destroy(): void }}
 *   take and drop return true when they took the files (more than one, or a folder)
 */
export function mountFleet(element, $, { open }) {
  if (!document.querySelector('link[data-counterlens-fleet]')) {
    document.head.append(el('link', null, { rel: 'stylesheet', href: new URL('./fleet.css', import.meta.url).href, 'data-counterlens-fleet': '' }));
  }
  $['capture-file'].multiple = true;
  const part = (name, tag, text, attrs = {}) => ($[name] = el(tag, text, { ...attrs, 'data-part': name }));
  const box = part('fleet', 'section', null, { class: 'cl-fleet', 'aria-label': 'Fleet' });
  // Over a machine's log opened from the table: which, and the way back.
  const back = part('fleet-back', 'div', null, { class: 'cl-fleet-back', role: 'navigation', 'aria-label': 'Fleet' });
  const backText = part('fleet-back-text', 'span');
  back.append(part('fleet-back-button', 'button', 'Back to the fleet', { type: 'button', class: 'cl-button' }), backText);
  const main = el('div', null, { class: 'cl-fleet-main' });
  const head = el('div', null, { class: 'cl-fleet-head' });
  const progress = part('fleet-progress', 'progress', null, { max: '1', value: '0', 'aria-label': 'Logs read' });
  head.append(part('fleet-title', 'h2', 'Fleet'), part('fleet-status', 'p', null, { role: 'status' }), progress,
    part('fleet-cancel', 'button', 'Cancel', { type: 'button', class: 'cl-button' }));
  const errors = part('fleet-errors', 'details');
  errors.append(part('fleet-errors-summary', 'summary'), part('fleet-errors-list', 'ul'));
  const legend = el('p', null, { class: 'cl-fleet-legend muted' });
  for (const [level, text] of [[0, 'no log'], [1, 'calm'], [2, 'warning'], [3, 'critical']]) {
    legend.append(el('span', null, { class: `cl-swatch level-${level}`, 'aria-hidden': 'true' }), text);
  }
  const heat = part('fleet-heatmap', 'figure', null, { class: 'cl-fleet-heatmap' });
  const table = part('fleet-table', 'table', null, { class: 'grid cl-fleet-table', 'aria-label': 'Machines, worst first: Enter or a click opens its log' });
  const hr = el('tr');
  for (const [t, num] of [['#', 1], ['Machine'], ['Worst'], ['In trouble', 1], ['CPU'], ['CPU mean', 1], ['CPU p95', 1], ['Least available memory', 1], ['Disk latency p95', 1], ['Logs', 1], ['Top card']]) {
    hr.append(el('th', t, { scope: 'col', ...(num ? { class: 'num' } : {}) }));
  }
  table.createTHead().append(hr);
  table.createTBody();
  const scroll = el('div', null, { class: 'table-scroll' });
  scroll.append(table);
  main.append(head, errors, el('h3', 'When each machine was in trouble (UTC)', { class: 'cl-section-title' }), legend, heat,
    el('h3', 'Machines, worst first', { class: 'cl-section-title' }), scroll);
  box.append(back, main);
  $['viewer-bar'].after(box);
  box.hidden = true;

  let pool = null;
  let logs = [];
  let files = new Map();
  let runs = [];
  let failed = [];
  let fleet = { machines: [] };
  let read = 0;
  let started = 0;
  let rankTimer = null;
  let opened = -1;

  const mode = (m) => {
    box.hidden = !m;
    if (m) element.dataset.fleet = m;
    else delete element.dataset.fleet;
  };

  function status(done, cancelled) {
    const n = logs.length;
    const machines = fleet.machines.length;
    const trouble = fleet.machines.filter((m) => m.worst).length;
    const head = cancelled ? `Cancelled: ${read} of ${n} logs read` : done ? `${read} of ${n} logs read in ${formatDuration(performance.now() - started)}` : `${read} of ${n} logs read`;
    const tail = machines ? `: ${machines} machine${machines === 1 ? '' : 's'}, ${trouble} in trouble` : '';
    const live = !done && machines > LIVE_ROWS ? ` The worst ${LIVE_ROWS} are shown while reading.` : '';
    $['fleet-status'].textContent = `${head}${tail}${failed.length ? `; ${failed.length} could not be read` : ''}.${live}`;
    progress.value = n ? read / n : 0;
    progress.hidden = done;
    $['fleet-cancel'].hidden = done;
    $['fleet-title'].textContent = machines ? `Fleet: ${machines} machine${machines === 1 ? '' : 's'} from ${n} log${n === 1 ? '' : 's'}` : 'Fleet';
  }

  function showErrors() {
    errors.hidden = !failed.length;
    $['fleet-errors-summary'].textContent = `${failed.length} log${failed.length === 1 ? '' : 's'} could not be read (the others are in the fleet)`;
    $['fleet-errors-list'].replaceChildren(...failed.map(({ name, why }) => el('li', `${name}: ${why}`)));
  }

  let renderMs = 0;
  function render() {
    const t = performance.now();
    fleet = rankFleet(runs);
    drawHeatmap();
    renderTable();
    renderMs = performance.now() - t;
  }
  /** The machines drawn: the worst LIVE_ROWS while the pool runs, all once it is done. */
  const shown = () => (pool && fleet.machines.length > LIVE_ROWS ? fleet.machines.slice(0, LIVE_ROWS) : fleet.machines);
  let drawnWidth = 0;
  function drawHeatmap() {
    const width = Math.max(320, Math.min(1400, Math.round(heat.clientWidth || box.clientWidth || 960)));
    const machines = shown();
    const svg = svgNodes(machines.length ? fleetHeatmapSvg({ machines }, { width, columns: Math.max(24, Math.min(120, Math.floor(width / 8))) }) : '');
    if (svg) {
      svg.setAttribute('viewBox', `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`);
      svg.setAttribute('role', 'img');
      svg.setAttribute('aria-label', `Heatmap: ${machines.length} machines by time, coloured by how bad each was`);
    }
    heat.replaceChildren(...(svg ? [svg] : []));
    drawnWidth = width;
  }
  function renderTable() {
    const rows = shown().map((m, i) => {
      const tr = el('tr', null, { tabindex: '0', 'data-machine': String(i), class: m.worst ?? 'calm' });
      const top = m.cards[0];
      const spark = el('td', null, { class: 'spark' });
      const line = svgNodes(sparklineSvg(m.cpu, 120, 24, [0, 100]));
      if (line) { line.setAttribute('role', 'img'); line.setAttribute('aria-label', 'CPU over time'); spark.append(line); }
      tr.append(el('td', String(i + 1), { class: 'num' }), el('td', m.machine, { class: 'machine' }),
        el('td', m.worst ?? 'calm', { class: `sev ${m.worst ?? 'calm'}` }),
        el('td', m.troubleMs > 0 ? formatDuration(m.troubleMs) : '–', { class: 'num' }), spark,
        el('td', figure(m.figures.cpuMean, ' %'), { class: 'num' }), el('td', figure(m.figures.cpuP95, ' %'), { class: 'num' }),
        el('td', figure(m.figures.availableMbMin, ' MB', 0), { class: 'num' }), el('td', figure(m.figures.diskLatencyP95Ms, ' ms'), { class: 'num' }),
        el('td', String(m.logs.length), { class: 'num' }),
        el('td', top ? `${top.category}: ${top.summary}` : '', { class: 'top-card' }));
      return tr;
    });
    table.tBodies[0].replaceChildren(...rows);
  }

  function rankSoon(last) {
    if (last) { clearTimeout(rankTimer); rankTimer = null; render(); return; }
    if (rankTimer) return;
    rankTimer = setTimeout(() => { rankTimer = null; render(); status(false); }, Math.max(RERANK_MS, 4 * renderMs));
  }

  async function start(list) {
    pool?.cancel();
    logs = list;
    files = new Map(list.map((l) => [l.name, l.file]));
    runs = [];
    failed = [];
    fleet = { machines: [] };
    read = 0;
    opened = -1;
    started = performance.now();
    mode('shown');
    showErrors();
    render();
    status(false);
    const run = runPool(list, {
      onDone(log, result, n) {
        read = n;
        // The largest wasm memory of a Worker of the pool (data-worker-wasm-peak: for tools, the bench).
        if (result.wasmBytes > Number(box.dataset.workerWasmPeak ?? 0)) box.dataset.workerWasmPeak = String(result.wasmBytes);
        if (result.runs) runs.push(...result.runs);
        else { failed.push({ name: log.name, why: describeError(result.error, log.file) }); showErrors(); }
        status(false);
        rankSoon(false);
      },
    });
    pool = run;
    const { cancelled } = await run.done;
    if (pool !== run) return;
    pool = null;
    rankSoon(true);
    status(true, cancelled);
  }

  function openMachine(i) {
    const m = fleet.machines[i];
    if (!m) return;
    const { name, why } = logToOpen(m);
    const file = files.get(name);
    if (!file) return;
    opened = i;
    backText.textContent = `${m.machine}: ${name}${why ? ` (${why})` : ''}`;
    mode('log');
    open(file, name);
  }
  function onRow(e) {
    if (e.type === 'keydown' && e.key !== 'Enter') return;
    const tr = e.target.closest('tr[data-machine]');
    if (tr) { e.preventDefault(); openMachine(Number(tr.dataset.machine)); }
  }
  function onBack() {
    mode('shown');
    (table.tBodies[0].rows[opened] ?? table.tBodies[0].rows[0])?.focus();
  }
  /** One log opened the usual way while a fleet is there: the way back stays, saying so. */
  function single(file) {
    if (file && element.dataset.fleet) {
      opened = -1;
      backText.textContent = `${file.name} (not one of the fleet's logs)`;
      mode('log');
    }
    return false;
  }
  const onCancel = () => pool?.cancel();
  // The heatmap is drawn for its box's width (labels stay readable on a phone): again when that changes.
  let resizeTimer = null;
  const resized = new ResizeObserver(() => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      const w = Math.round(heat.clientWidth);
      if (w && Math.abs(w - drawnWidth) > 16 && fleet.machines.length) drawHeatmap();
    }, 150);
  });
  resized.observe(heat);
  table.tBodies[0].addEventListener('click', onRow);
  table.tBodies[0].addEventListener('keydown', onRow);
  $['fleet-back-button'].addEventListener('click', onBack);
  $['fleet-cancel'].addEventListener('click', onCancel);

  return {
    take(chosen) {
      if (!chosen || chosen.length < 2) return single(chosen?.[0]);
      start(logsOfFiles(chosen));
      return true;
    },
    drop(dataTransfer) {
      const found = logsOfDrop(dataTransfer);
      if (!found) return single(dataTransfer?.files?.[0]);
      found.then((list) => (list.length ? start(list) : null));
      return true;
    },
    /** The fleet as ranked (rankFleet's), and the logs that could not be read: for tools and tests. */
    fleet: () => ({ ...fleet, failed: failed.map((f) => ({ ...f })) }),
    destroy() {
      pool?.cancel();
      clearTimeout(rankTimer);
      clearTimeout(resizeTimer);
      resized.disconnect();
      box.remove();
      delete element.dataset.fleet;
    },
  };
}
