// openCaptureParallel: a big PDH-CSV/TSV read in pieces by workers side by side (worker_threads in Node,
// Web Workers in browsers), joined into the Capture openCapture gives for the whole file. The page cuts
// the text after the header line at line ends near equal sizes; each worker gets the header line and one
// piece (a Blob slice it reads itself, or bytes transferred), counts the piece's line ends, learns from
// those counts the line its piece starts at (so errors and notes are numbered as in the whole file),
// reads it, and sends the columns back in one transferred Float64Array; the core joins them
// (crate/src/capture/join.rs). What cannot be cut at line-end bytes (.blg, JSON, UTF-16), a small input
// or one worker: openCapture.
import { openCapture, planCapturePieces, joinCapturePieces } from '../pkg/counterlens.js';
import { CaptureError, errorFromData } from './errors.js';

/** Below this many bytes a file is read in one piece: workers cost more than they save. */
export const PARALLEL_MIN_BYTES = 8 << 20;

/** How the running platform makes workers, set by the package entry (node.js, browser.js):
 *  `{ spawn(url): port, module?: WebAssembly.Module, cores: number, readBlobsHere?: boolean }`, a port being
 *  `{ post(message, transfer), listen(fn), failed(fn), hold(busy), terminate() }`. */
let host = null;
export function registerParallelHost(h) {
  host = h;
}

/** The workers, kept for the next call (idle workers do not keep Node running); one idle for IDLE_MS
 *  is ended, as its wasm memory (which never shrinks) still holds the size of its last piece. */
const pool = [];
const IDLE_MS = 10_000;
let nextJob = 1;

function setBusy(w, busy) {
  clearTimeout(w.idle);
  w.idle = null;
  w.busy += busy ? 1 : -1;
  if (busy && w.busy === 1) w.port.hold(true);
  if (w.busy > 0) return;
  w.port.hold(false);
  w.idle = setTimeout(() => {
    const i = pool.indexOf(w);
    if (i >= 0) pool.splice(i, 1);
    w.port.terminate();
  }, IDLE_MS);
  w.idle.unref?.(); // Node: a pending end does not keep the process running
}

function startWorker() {
  const port = host.spawn(new URL('./parallel-worker.js', import.meta.url));
  const w = { port, pending: new Map(), busy: 0, idle: null };
  port.listen((m) => {
    const p = w.pending.get(m.id);
    if (!p) return;
    w.pending.delete(m.id);
    if (m.error) p.reject(errorFromData(m.error)); // sent as data (parallel-worker.js)
    else p.resolve(m);
  });
  port.failed((e) => {
    const i = pool.indexOf(w);
    if (i >= 0) pool.splice(i, 1);
    for (const p of w.pending.values()) p.reject(new Error(`a capture worker stopped: ${e?.message ?? e}`));
    w.pending.clear();
    clearTimeout(w.idle);
    port.terminate();
  });
  port.post({ op: 'init', module: host.module }, []);
  port.hold(false);
  return w;
}

function call(w, message, transfer = []) {
  return new Promise((resolve, reject) => {
    w.pending.set(message.id, { resolve, reject });
    w.port.post(message, transfer);
  });
}

function optionError(message) {
  const e = new CaptureError(message);
  e.code = 'invalid-option';
  e.field = 'workers';
  return e;
}

/** The input as ranges of bytes: a Uint8Array (each piece copied for its worker) or a Blob (a File, or
 *  Node's fs.openAsBlob: each worker reads its own slice, nothing is copied here). */
function source(input) {
  if (input instanceof Uint8Array) {
    return { size: input.length, read: async (a, b) => input.subarray(a, b), piece: (a, b) => input.slice(a, b) };
  }
  return {
    size: input.size,
    read: async (a, b) => new Uint8Array(await input.slice(a, b).arrayBuffer()),
    piece: (a, b) => input.slice(a, b),
  };
}

/** The offset of the first line end at or after `from`; -1 when there is none. */
async function lineEnd(src, from) {
  for (let span = 1 << 16; ; span *= 4) {
    const end = Math.min(src.size, from + span);
    const i = (await src.read(from, end)).indexOf(10);
    if (i >= 0) return from + i;
    if (end === src.size) return -1;
  }
}

/**
 * Cuts `input` (Uint8Array or Blob) into pieces and reads them in workers: `{ plan, results, timings }`,
 * `results` being each piece's read (for joinCapturePieces) in file order, or null when the input is read
 * whole. Timings (ms): `cut` (finding the line ends to cut at); then, from the end of the cut, `load`
 * (copying a Uint8Array's pieces, each handed over as soon as it is copied, until every worker holds its
 * piece and has counted its lines),
 * `firstPiece` and `read` (until the first and the slowest piece is read). `options.onProgress(fraction)`
 * is told as pieces are read. Used by openCaptureParallel, the viewer (reading.js) and the benchmark.
 */
export async function readPieces(input, options = {}) {
  const { workers: asked, minBytes = PARALLEL_MIN_BYTES, onProgress, ...open } = options ?? {};
  const workers = asked ?? Math.min(host?.cores ?? 1, 8);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw optionError(`options.workers must be a whole number from 1 to 64, found ${String(asked)}`);
  }
  const isBlob = typeof Blob !== 'undefined' && input instanceof Blob;
  if (!host || !(input instanceof Uint8Array || isBlob) || workers < 2) return null;
  const src = source(input);
  if (src.size < minBytes) return null;
  const t0 = performance.now();
  const headerEnd = await lineEnd(src, 0);
  if (headerEnd < 0) return null;
  const head = await src.read(0, Math.min(src.size, Math.max(headerEnd + 1, 65536)));
  const plan = planCapturePieces(head, open, src.size <= 65536);
  if (!plan) return null;
  // Cut after the header at the first line end at or after each equal share (never inside a line).
  const cuts = [headerEnd + 1];
  const body = src.size - cuts[0];
  for (let k = 1; k < workers; k++) {
    const from = Math.max(cuts[0] + Math.floor((body * k) / workers), cuts[cuts.length - 1]);
    const at = from < src.size ? await lineEnd(src, from) : -1;
    cuts.push(at < 0 ? src.size : at + 1);
  }
  cuts.push(src.size);
  const ranges = [];
  for (let k = 0; k + 1 < cuts.length; k++) if (cuts[k + 1] > cuts[k] || (ranges.length === 0 && k + 2 === cuts.length)) ranges.push([cuts[k], cuts[k + 1]]);
  const header = head.slice(0, headerEnd);
  const t1 = performance.now();
  while (pool.length < ranges.length) pool.push(startWorker());
  const ws = pool.slice(0, ranges.length);
  const id = nextJob++;
  for (const w of ws) setBusy(w, true);
  try {
    // Each piece goes to its worker as soon as it is cut (a Uint8Array's piece copied, a Blob's sliced),
    // so worker k takes its piece into wasm while the page copies piece k + 1. Node 20 aborts when a
    // worker reads a file-backed Blob (fs.openAsBlob): there the page reads each slice (file I/O off the
    // JS thread) and transfers the bytes.
    const load = (k, p) => call(ws[k], { op: 'load', id, header, body: p, plan, last: ranges[k][1] === src.size },
      p instanceof Uint8Array ? [p.buffer] : []);
    // Posted in the same turn as the copy (not after an await), or every copy would come first.
    const loads = ranges.map(([a, b], k) => (isBlob && host.readBlobsHere
      ? input.slice(a, b).arrayBuffer().then((buf) => load(k, new Uint8Array(buf)))
      : load(k, src.piece(a, b))));
    let t2 = NaN;
    Promise.all(loads).then(() => { t2 = performance.now(); }, () => {});
    // Piece k starts at line 2 (after the header) plus the line ends of the pieces before it. Each is read
    // as soon as it is loaded and those are counted (piece 0 at once), while later ones may still load.
    const pieceMs = [];
    let line = Promise.resolve(2);
    const reads = loads.map((loaded, k) => {
      const first = line;
      line = Promise.all([line, loaded]).then(([at, { lineEnds }]) => at + lineEnds);
      return Promise.all([first, loaded])
        .then(([firstLine]) => call(ws[k], { op: 'read', id, firstLine }))
        .finally(() => {
          pieceMs.push(performance.now() - t1);
          onProgress?.(pieceMs.length / ws.length);
        });
    });
    line.catch(() => {}); // a failed load is reported through the reads
    const settled = await Promise.allSettled(reads);
    const t3 = performance.now();
    // The whole-file reader stops at the first error in the file: the first failed piece's.
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    return { plan, results: settled.map((s) => s.value.piece), timings: { cut: t1 - t0, load: t2 - t1, firstPiece: pieceMs[0], read: t3 - t1 } };
  } catch (e) {
    for (const w of ws) w.port.post({ op: 'drop', id }, []);
    throw e;
  } finally {
    for (const w of ws) setBusy(w, false);
  }
}

/** The workers started so far (kept for the next call): for tests and benchmarks. */
export const poolSize = () => pool.length;

/** The capture read in pieces by workers, or null when `input` is to be read whole (a .blg, JSON, UTF-16,
 *  less than `minBytes`, one worker): the viewer then reads it as before, in one worker. */
export async function openCaptureInPieces(input, options = {}) {
  const read = await readPieces(input, options);
  return read && joinCapturePieces(read.results);
}

/** openCapture's result for a big PDH-CSV/TSV (a Uint8Array, or a Blob/File that each worker reads its
 *  own slice of), read by `workers` workers side by side (default: the machine's cores, at most 8).
 *  Smaller inputs (< 8 MiB, or `minBytes`), other formats and one worker go to openCapture. Rejects with
 *  the CaptureError openCapture would throw, at the same line. */
export async function openCaptureParallel(input, options = {}) {
  const capture = await openCaptureInPieces(input, options);
  if (capture) return capture;
  const { workers, minBytes, onProgress, ...open } = options ?? {};
  const isBlob = typeof Blob !== 'undefined' && input instanceof Blob;
  return openCapture(isBlob ? new Uint8Array(await input.arrayBuffer()) : input, open);
}
