// The fleet view: many logs at once (several files chosen or dropped, or a folder). Each log is read and
// analysed in a pool of Workers (fleet-pool.js) and comes back as its machines' runs (fleetRuns: small
// whatever the log); the page keeps the runs and the File handles, never a capture, so memory does not
// grow with the number of logs. The machines are ranked by the core (rankFleet: severity, then time in
// trouble) into a table (rank, machine, worst, time in trouble, a CPU sparkline, key figures, top card;
// on a narrow viewer each row a block of three lines, fleet.css) under a heatmap of machines by time
// (fleetHeatmapSvg, the core's chart; the ranking and drawing are fleet-ranking.js'). Progress and Cancel while
// the pool runs; a log that cannot be read is listed and the rest go on. A click on a machine's row
// (or Enter on it) opens one of its logs in the single-log view, with its verdict; a bar above it leads
// back. With "Use each machine's other logs as its normal" on, the opened log is judged against the
// normal learnt from its machine's other logs here too (fleet-normal.js), and the bar says so. Every name from a log is written as text; the core's SVG is parsed (DOMParser), never set as HTML.
import { el } from './dom.js';
import { runPool } from './fleet-pool.js';
import { logsOfFiles, logsOfDrop } from './fleet-files.js';
import { describeError } from './reading.js';
import { buildFleetLayout, showStatus, onRows } from './fleet-layout.js';
import { createRanking, LIVE_ROWS } from './fleet-ranking.js';
import { svgNodes } from './fleet-svg.js';
import { otherLogs, learningText, judgedText } from './fleet-normal.js';

export { svgNodes, LIVE_ROWS };

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

/**
 * Builds the fleet view in the viewer's `element` (after its bar, `$['viewer-bar']`).
 * @param {{ open(file: File, name: string, normal: {name: string, file: File}[]|null): Promise<void> }} hooks
 *   the single-log view's open, given the logs to learn the opened log's normal from (null: not asked)
 * @returns {{ take(files: FileList|File[]): boolean, drop(dataTransfer: DataTransfer): boolean,
 *   normalTold(info: object|null): void, destroy(): void }} take and drop return true when they took the
 *   files (more than one, or a folder); normalTold: what the analysis made of the normal (judgedText's)
 */
export function mountFleet(element, $, { open }) {
  if (!document.querySelector('link[data-counterlens-fleet]')) {
    document.head.append(el('link', null, { rel: 'stylesheet', href: new URL('./fleet.css', import.meta.url).href, 'data-counterlens-fleet': '' }));
  }
  $['capture-file'].multiple = true;
  const { box, backText, errors, heat, table } = buildFleetLayout($);

  let pool = null;
  let logs = [];
  let files = new Map();
  let runs = [];
  let failed = [];
  let read = 0;
  let started = 0;
  let opened = -1;

  const mode = (m) => {
    box.hidden = !m;
    if (m) element.dataset.fleet = m;
    else delete element.dataset.fleet;
  };

  function status(done, cancelled) {
    const ms = performance.now() - started;
    showStatus($, { logs: logs.length, read, machines: ranking.fleet().machines, failed: failed.length, done, cancelled, ms, liveRows: LIVE_ROWS });
  }

  function showErrors() {
    errors.hidden = !failed.length;
    $['fleet-errors-summary'].textContent = `${failed.length} log${failed.length === 1 ? '' : 's'} could not be read (the others are in the fleet)`;
    $['fleet-errors-list'].replaceChildren(...failed.map(({ name, why }) => el('li', `${name}: ${why}`)));
  }

  const ranking = createRanking({ box, heat, table, runs: () => runs, reading: () => !!pool, ranked: () => status(false) });

  async function start(list) {
    pool?.cancel();
    logs = list;
    files = new Map(list.map((l) => [l.name, l.file]));
    runs = [];
    failed = [];
    read = 0;
    opened = -1;
    started = performance.now();
    mode('shown');
    showErrors();
    ranking.clear();
    status(false);
    const run = runPool(list, {
      onDone(log, result, n) {
        read = n;
        // The largest wasm memory of a Worker of the pool (data-worker-wasm-peak: for tools, the bench).
        if (result.wasmBytes > Number(box.dataset.workerWasmPeak ?? 0)) box.dataset.workerWasmPeak = String(result.wasmBytes);
        if (result.runs) runs.push(...result.runs);
        else { failed.push({ name: log.name, why: describeError(result.error, log.file) }); showErrors(); }
        status(false);
        ranking.soon(false);
      },
    });
    pool = run;
    const { cancelled } = await run.done;
    if (pool !== run) return;
    pool = null;
    ranking.soon(true);
    status(true, cancelled);
  }

  function openMachine(i) {
    const m = ranking.fleet().machines[i];
    if (!m) return;
    const { name, why } = logToOpen(m);
    const file = files.get(name);
    if (!file) return;
    opened = i;
    backText.textContent = `${m.machine}: ${name}${why ? ` (${why})` : ''}`;
    const others = $['fleet-use-normal'].checked ? otherLogs(m, name, files) : null;
    $['fleet-normal'].textContent = others ? learningText(m.machine, others) : '';
    mode('log');
    open(file, name, others?.length ? others : null);
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
      $['fleet-normal'].textContent = '';
      mode('log');
    }
    return false;
  }
  const onCancel = () => pool?.cancel();
  onRows(table, openMachine);
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
    normalTold(info) {
      if (opened >= 0 && $['fleet-normal'].textContent) $['fleet-normal'].textContent = judgedText(info);
    },
    /** The fleet as ranked (rankFleet's), and the logs that could not be read: for tools and tests. */
    fleet: () => ({ ...ranking.fleet(), failed: failed.map((f) => ({ ...f })) }),
    destroy() {
      pool?.cancel();
      ranking.stop();
      box.remove();
      delete element.dataset.fleet;
    },
  };
}
