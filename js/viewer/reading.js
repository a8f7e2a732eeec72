// Reading captures: a Blob is read in a Web Worker (worker.js) through CaptureReader in slices, with
// progress and cancel, so a large file never blocks the page nor needs a second copy of itself in
// memory; a big CSV/TSV (8 MiB and more, on a machine with more than one core) is read in pieces by
// openCaptureParallel's workers, each reading its own slice of the File. A log too large to read whole is
// listed first in the worker (`catalogue`: CatalogueReader) and then read in part (`series`, `every`;
// catalogue.js plans the part). A URL is fetched from the page's own origin only. Errors become sentences
// (describeError).
import { Capture } from '../core.js';
import { errorFromData } from '../errors.js';
import { openCaptureInPieces, PARALLEL_MIN_BYTES } from '../parallel.js';

/** Cores from which the viewer reads a big text capture in parallel pieces. */
export const PARALLEL_MIN_CORES = 4;

/** The rejection of a read that a newer one replaced. */
export const SUPERSEDED = Symbol('superseded');

/** Text safe to show of a message that may quote a file: control characters and undecodable bytes
 *  become a middle dot, so no raw byte reaches the page. */
const printable = (t) => String(t).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/g, '·');

/** What a file claims to be, from its name. */
function kindOf(name) {
  const ext = /\.([^.]+)$/.exec(name ?? '')?.[1]?.toLowerCase();
  return { blg: 'a binary perfmon log (.blg)', csv: 'a CSV file', tsv: 'a TSV file', json: 'a JSON file', txt: 'a text file' }[ext] ?? 'a file';
}

/** What went wrong, in words: what the file is, what was expected and where (line and column, or byte),
 *  never the file's raw bytes. `file`: `{ name, size }` of what was being opened, when known. */
export function describeError(err, file) {
  const message = printable(err?.message ?? err);
  if (err?.name !== 'CaptureError') return message;
  // The reader's message starts with where; say it once, in words.
  const text = message.replace(/^(line \d+, column \d+|byte \d+): /, '');
  const where = err.line ? `at line ${err.line}, column ${err.column}` : err.offset !== undefined ? `at byte ${err.offset}` : '';
  const what = file ? `${file.name} (${kindOf(file.name)}, ${file.size.toLocaleString('en-US')} bytes)` : 'this capture';
  if (err.code === 'empty' || file?.size === 0) return `Cannot read ${what}: the file is empty; a perfmon log (.blg, relog CSV or TSV, Get-Counter JSON) starts with a header.`;
  return `Cannot read ${what}${where ? ' ' + where : ''}: ${text}`;
}

/** A reading Worker made and warmed (`warmReader`) before a file is chosen, taken by the next read. */
let warmed = null;
function takeWorker() {
  const w = warmed;
  warmed = null;
  return w ?? new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

/** Makes the reading Worker of the next file now and has it warm its readers (js/warm-up.js: V8 compiles
 *  their hot functions with its optimizing tier), so the first file opens as fast as the fifth. Call it
 *  once the page is idle: the Worker compiles the module and reads a few small logs (on this machine
 *  about a second of one core, in the Worker, never the page's thread). Resolves with `{ ms, reads }`
 *  when the warm-up is done (or when it was taken by a read before). */
export function warmReader() {
  if (warmed) return warmed.done;
  const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
  worker.done = new Promise((resolve) => {
    worker.onmessage = ({ data }) => { if (data.type === 'warmed') resolve(data.warmed); };
  });
  worker.postMessage({ type: 'warm' });
  warmed = worker;
  return worker.done;
}

/**
 * A reader of one capture at a time: a new read supersedes the one still going.
 * @param {{ onProgress(fraction: number|null, name: string): void }} hooks  null when a read ends
 */
export function createReader({ onProgress }) {
  let current = null; // { worker, reject } while a file is being read

  /** Reads a Blob: a big CSV/TSV in pieces by parallel workers where the machine has the cores for it,
   *  anything else in one worker; resolves to { capture, notes }, rejects with the reader's error (a
   *  CaptureError, as thrown), a cancellation, or SUPERSEDED. With `keepRaw` (paths), always one worker,
   *  and the capture holds only the series that kept their raw samples (explain.js). */
  function read(blob, name, { keepRaw, series, every } = {}) {
    current?.reject(SUPERSEDED);
    const cores = globalThis.navigator?.hardwareConcurrency ?? 1;
    // On 2 cores the pieces cost more than they save (docs/performance.md: 0.56-0.87x openCapture's
    // wall time, measured on a busy 2-core machine): from 4 cores on, where the work can spread.
    if (keepRaw || series || blob.size < PARALLEL_MIN_BYTES || cores < PARALLEL_MIN_CORES) return readInWorker(blob, name, { keepRaw, series, every });
    return new Promise((resolve, reject) => {
      let open = true;
      const done = () => {
        open = false;
        current = null;
        onProgress(null, name);
      };
      current = { worker: null, reject: (e) => { if (open) { done(); reject(e); } } };
      onProgress(0, name);
      const progress = (f) => { if (open) onProgress(f, name); };
      openCaptureInPieces(blob, { workers: Math.min(cores, 8), onProgress: progress }).then((capture) => {
        if (!open) return capture?.free(); // cancelled or superseded meanwhile
        if (capture) {
          done();
          return resolve({ capture, notes: capture.notes() });
        }
        // Not a text capture cut at line ends (a .blg, JSON, UTF-16): the one-worker reader.
        open = false;
        current = null;
        readInWorker(blob, name).then(resolve, reject);
      }, (e) => { if (open) { done(); reject(e); } });
    });
  }

  /** The catalogue of a Blob (its series and time range, no values: catalogue.js), read in the worker
   *  with progress and cancel as `read`; rejects as `read` does. */
  function catalogue(blob, name) {
    current?.reject(SUPERSEDED);
    return readInWorker(blob, name, { catalogue: true });
  }

  /** Reads a Blob in the worker; resolves to { capture, notes } (or { catalogue }), rejects with the
   *  reader's error (a CaptureError, as thrown), a cancellation, or SUPERSEDED. */
  function readInWorker(blob, name, { keepRaw, series, every, catalogue: listing } = {}) {
    return new Promise((resolve, reject) => {
      const worker = takeWorker();
      const done = () => {
        worker.terminate();
        current = null;
        onProgress(null, name);
      };
      current = { worker, reject: (e) => { done(); reject(e); } };
      onProgress(0, name);
      worker.onmessage = ({ data }) => {
        switch (data.type) {
          case 'warmed': return; // the warm-up this worker was made with, stopped by this read
          case 'progress': return onProgress(data.fraction, name);
          case 'error': done(); return reject(errorFromData(data.error));
          case 'catalogue': done(); return resolve({ catalogue: data.catalogue });
          case 'parts': done(); return resolve({ capture: Capture.fromParts(data.parts), notes: data.parts.notes });
          default: done(); return reject(new Error(`the capture reader sent a message of unknown type ${data.type}`));
        }
      };
      worker.onerror = (e) => { done(); reject(new Error(e.message || 'the capture reader stopped')); };
      worker.postMessage(listing ? { type: 'catalogue', blob } : { type: 'read', blob, keepRaw, series, every });
    });
  }

  return {
    read,
    catalogue,
    cancel: (reason) => current?.reject(reason),
    reading: () => current !== null,
    stop: () => current?.worker?.terminate(),
  };
}

/** Fetches a capture from the page's own origin (the viewer sends data nowhere else). */
export async function fetchSameOrigin(url) {
  const resolved = new URL(url, location.href);
  if (resolved.origin !== location.origin) throw new Error(`${url} is not on this site; captures are only read from the page's own origin`);
  const response = await fetch(resolved);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return { blob: await response.blob(), name: resolved.pathname.split('/').pop() };
}
