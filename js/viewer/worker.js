// Reads a capture off the page's thread: slices of the Blob go through CaptureReader, progress is
// reported as they go, and the finished capture goes back as parts whose Float64Arrays are transferred,
// not copied. The page cancels by terminating this worker. With `keepRaw` (counter paths), the series
// named keep their raw samples and only those are sent (the page explains their points, explain.js). It
// imports the package's core (core.js): none of the viewer, no DOM.
import init, { CaptureReader, Capture, analyze, analysisReport } from '../core.js';
import { errorToData } from '../errors.js';

const ready = init(); // counterlens_bg.wasm next to the glue
const SLICE = 4 << 20;

onmessage = async ({ data: { blob, keepRaw, analyze: job } }) => {
  await ready;
  if (job) return postMessage(analyzeParts(job));
  let reader = null;
  try {
    reader = new CaptureReader(keepRaw ? { size: blob.size, keepRaw } : { size: blob.size });
    for (let at = 0; at < blob.size; at += SLICE) {
      reader.push(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
      postMessage({ progress: Math.min(at + SLICE, blob.size) / blob.size });
    }
    const capture = reader.finish();
    const parts = capture.toParts();
    capture.free();
    if (keepRaw) parts.series = parts.series.filter((s) => s.raw);
    const transfer = [parts.timestamps.buffer, ...parts.series.flatMap((s) => [s.values, s.reference, ...(s.raw ? [s.raw.value, s.raw.second, s.raw.frequency, s.raw.multi, s.raw.present] : [])]
      .filter(Boolean).map((a) => a.buffer))];
    postMessage({ parts }, transfer);
  } catch (e) {
    // Errors do not cross to the page with their class and fields: sent as plain data (errors.js).
    postMessage({ error: errorToData(e) });
  } finally {
    reader?.free();
  }
};

// ---- Analysis (analysis-panel.js): the capture's parts come in transferred with the first run and the
// capture is kept here, so the next runs on it (other packs, other answers) send only their options; the
// findings and the report's HTML go back. Errors go back as plain data, with where the pack or variable
// was wrong. The page ends this worker when it cancels a run or another capture opens.
let held = null;
function analyzeParts({ parts, options, title }) {
  try {
    if (parts) {
      held?.free();
      held = null;
      held = Capture.fromParts(parts);
    }
    if (!held) throw new Error('no capture to analyse: the page sends its parts with the first run');
    const analysis = analyze(held, options);
    return { analysis, report: analysisReport(held, analysis, { title }) };
  } catch (e) {
    return { error: errorToData(e) };
  }
}
