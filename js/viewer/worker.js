// Reads a capture off the page's thread: slices of the Blob go through CaptureReader, progress is
// reported as they go, and the finished capture goes back as parts whose Float64Arrays are transferred,
// not copied. The page cancels by terminating this worker. With `keepRaw` (counter paths), the series
// named keep their raw samples and only those are sent (the page explains their points, explain.js).
// A `catalogue` message reads the log's catalogue instead (CatalogueReader: its series and time range, no
// values) for a log too large to read whole (catalogue.js); a `read` with `series` and `every` then reads a
// part of it. Made at page load (reading.js), it is told `warm` first and warms its readers while the user picks a
// file (js/warm-up.js); a file that comes meanwhile stops the warm-up after its current small read.
// It imports the package's core (core.js): none of the viewer, no DOM.
import init, { CaptureReader, CatalogueReader, Capture, analyze, analysisReport, BaselineBuilder } from '../core.js';
import { errorToData } from '../errors.js';
import { warmUp } from '../warm-up.js';

const ready = init(); // counterlens_bg.wasm next to the glue
const SLICE = 4 << 20;
let warming = null;
let stopWarming = false;

// Every message carries a `type`, both ways. In: `warm`, `read` (blob, keepRaw, series, every),
// `catalogue` (blob), `analyze` (job), `report` (title). Out: `warmed`, `progress` (fraction), `parts`,
// `catalogue`, `error` (a read's, as plain data), `analysis` (analysis, builtin, and normal or
// normalError; or error), `report` (report, or null and error).
onmessage = async ({ data }) => {
  if (data.type === 'warm') {
    warming = ready.then(() => warmUp({ stop: () => stopWarming })).then((w) => postMessage({ type: 'warmed', warmed: w }), () => null);
    return;
  }
  stopWarming = true;
  await ready;
  await warming;
  switch (data.type) {
    case 'analyze': return postMessage({ type: 'analysis', ...(await analyzeParts(data.job)) });
    case 'report': return postMessage({ type: 'report', ...writeReport(data) });
    case 'catalogue': return postMessage(await readCatalogue(data.blob));
    case 'read': return readCapture(data);
    default: return postMessage({ type: 'error', error: errorToData(new TypeError(`the reading worker got a message of unknown type ${data.type}`)) });
  }
};

/** Reads a Blob in slices with progress; posts its parts (the columns transferred) or the error. */
async function readCapture({ blob, keepRaw, series, every }) {
  let reader = null;
  try {
    reader = new CaptureReader({ size: blob.size, ...(keepRaw ? { keepRaw } : {}), ...(series ? { series } : {}), ...(every > 1 ? { every } : {}) });
    for (let at = 0; at < blob.size; at += SLICE) {
      reader.push(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
      postMessage({ type: 'progress', fraction: Math.min(at + SLICE, blob.size) / blob.size });
    }
    const capture = reader.finish();
    const parts = capture.toParts();
    capture.free();
    if (keepRaw) parts.series = parts.series.filter((s) => s.raw);
    const transfer = [parts.timestamps.buffer, ...parts.series.flatMap((s) => [s.values, s.reference, ...(s.raw ? [s.raw.value, s.raw.second, s.raw.frequency, s.raw.multi, s.raw.present] : [])]
      .filter(Boolean).map((a) => a.buffer))];
    postMessage({ type: 'parts', parts }, transfer);
  } catch (e) {
    // Errors do not cross to the page with their class and fields: sent as plain data (errors.js).
    postMessage({ type: 'error', error: errorToData(e) });
  } finally {
    reader?.free();
  }
}

/** The catalogue of a Blob, read in slices with progress: a `catalogue` message or an `error`. */
async function readCatalogue(blob) {
  let reader = null;
  try {
    reader = new CatalogueReader();
    for (let at = 0; at < blob.size; at += SLICE) {
      reader.push(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
      postMessage({ type: 'progress', fraction: Math.min(at + SLICE, blob.size) / blob.size });
    }
    return { type: 'catalogue', catalogue: reader.finish() };
  } catch (e) {
    return { type: 'error', error: errorToData(e) };
  } finally {
    reader?.free();
  }
}

// ---- Analysis (analysis-panel.js): the capture's parts come in transferred with the first run and the
// capture is kept here, so the next runs on it (other packs, other answers) send only their options; the
// findings go back, and the report's HTML when asked for (of the last analysis). With `builtin` (options
// of the built-in packs' run, asked for beside a PAL import), that run too, its findings and rules
// only, for the page to compare. Errors go back as plain data, with where the pack or variable was
// wrong. The page ends this worker when it cancels a run or another capture opens.
let held = null;
let analysed = null;
async function analyzeParts({ parts, options, builtin, normal }) {
  try {
    if (parts) {
      held?.free();
      held = null;
      held = Capture.fromParts(parts);
    }
    if (!held) throw new Error('no capture to analyse: the page sends its parts with the first run');
    const judged = await withNormal(options, normal);
    analysed = judged.analysis;
    return { analysis: analysed, ...judged.said, ...(builtin ? { builtin: builtinRun(builtin) } : {}) };
  } catch (e) {
    return { error: errorToData(e) };
  }
}

// ---- Its normal (analysis-normal.js): a baseline file's text comes in the options (`baseline`); a fleet's
// other logs of the machine come as Blobs (`normal: { key, logs }`), read here one at a time into a BaselineBuilder
// (once: kept for the next runs on this capture). A normal the core refuses for this log (another
// machine's: an AnalysisError with code "baseline"), or logs it cannot learn from, are said back
// (`normalError`) and the log is analysed without it; `normal` says what was learnt.
let learnt = null; // { key, baseline, summary }
async function withNormal(options, normal) {
  let baseline = options.baseline;
  let said = {};
  if (normal) {
    try {
      learnt = learnt?.key === normal.key ? learnt : await learn(normal);
      baseline = learnt.baseline;
      said = { normal: learnt.summary };
    } catch (e) {
      return { analysis: analyze(held, options), said: { normalError: errorToData(e) } };
    }
  }
  if (baseline === undefined) return { analysis: analyze(held, options), said };
  try {
    return { analysis: analyze(held, { ...options, baseline }), said };
  } catch (e) {
    if (e?.code !== 'baseline') throw e;
    const { baseline: _, ...without } = options;
    return { analysis: analyze(held, without), said: { normalError: errorToData(e) } };
  }
}
/** The normal of `logs` (`[{ name, blob }]`): each read whole and added to a BaselineBuilder, then freed
 *  before the next is read, so the Worker holds one of them at a time. */
async function learn({ key, logs }) {
  const builder = new BaselineBuilder();
  try {
    for (const { name, blob } of logs) {
      let capture;
      try {
        capture = await readWhole(blob);
      } catch (e) {
        e.message = `${name} could not be read: ${e.message}`;
        throw e;
      }
      try {
        builder.add(name, capture);
      } finally {
        capture.free();
      }
    }
    const baseline = builder.finish();
    return { key, baseline, summary: { machine: baseline.machine, logs: logs.length, first: baseline.first, last: baseline.last, samples: baseline.samples } };
  } finally {
    builder.free();
  }
}
/** A Blob read whole into a Capture (no progress: a normal's logs are read while the analysis says so). */
async function readWhole(blob) {
  const reader = new CaptureReader({ size: blob.size });
  try {
    for (let at = 0; at < blob.size; at += SLICE) reader.push(new Uint8Array(await blob.slice(at, at + SLICE).arrayBuffer()));
    return reader.finish();
  } finally {
    reader.free();
  }
}

/** The built-in packs' findings and rules (what ran on how many series) on the capture held, or null
 *  when that run fails (the comparison is left out, not the analysis). */
function builtinRun(options) {
  try {
    const a = analyze(held, options);
    return {
      findings: a.findings.map(({ pack, rule, severity, seriesIndex, path }) => ({ pack, rule, severity, seriesIndex, path })),
      rules: a.rules.map(({ pack, rule, series, skipped }) => ({ pack, rule, series, ...(skipped ? { skipped } : {}) })),
    };
  } catch {
    return null;
  }
}
function writeReport({ title }) {
  try {
    if (!held || !analysed) throw new Error('nothing analysed yet');
    return { report: analysisReport(held, analysed, { title }) };
  } catch (e) {
    return { report: null, error: errorToData(e) };
  }
}
