// A Worker of the fleet view's pool (fleet-pool.js): told a log (its File, a Blob), it reads it in slices
// through CaptureReader, analyses it with every built-in pack that applies (what a single log's first
// run does), reduces it to its machines' runs (fleetRuns: key figures, cards in brief, a decimated CPU
// line) and posts back only those, with the log's size. The capture is freed before the next log, so a
// Worker holds one log at a time whatever the count. Errors go back as plain data (errors.js); the pool
// cancels by terminating the Worker. Each answer carries the size of this Worker's wasm memory (it grows
// to the largest log read and stays there), for the page to show what the pool holds. It imports the package's core: none of the viewer, no DOM.
import init, { CaptureReader, analyze, fleetRuns } from '../core.js';
import { errorToData } from '../errors.js';

const ready = init();
const wasmBytes = async () => (await ready).memory.buffer.byteLength;
const SLICE = 4 << 20;

onmessage = async ({ data: { id, blob, name } }) => {
  await ready;
  let reader = null;
  let capture = null;
  try {
    reader = new CaptureReader({ size: blob.size });
    for (let at = 0; at < blob.size; at += SLICE) {
      reader.push(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
    }
    capture = reader.finish();
    const analysis = analyze(capture, {});
    const runs = fleetRuns(capture, analysis, name);
    capture.free();
    capture = null;
    postMessage({ id, runs, wasmBytes: await wasmBytes() });
  } catch (e) {
    postMessage({ id, error: errorToData(e), wasmBytes: await wasmBytes() });
  } finally {
    reader?.free();
    capture?.free();
  }
};
