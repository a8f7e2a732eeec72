// The package's core for JS: the wasm functions (wasm-bindgen's glue, pkg/), the error classes, and a
// big text capture opened by parallel workers. Nothing here touches the DOM: Node's entry (node.js),
// the Workers (viewer/worker.js) and the viewer (viewer/*.js) import it; api.js adds the viewer for
// browsers. The types are in index.d.ts.
import wasmInit, { initSync as wasmInitSync, registerErrorClasses } from '../pkg/counterlens.js';
import { errorClasses } from './errors.js';
import { BaselineBuilder } from '../pkg/counterlens.js';

export {
  version,
  counterTypes,
  describeCounterType,
  cook,
  explain,
  formatValue,
  cookSeries,
  seriesStats,
  statusNames,
  renderSeriesChart,
  validateRegistration,
  openCapture,
  CaptureReader,
  Capture,
  readCatalogue,
  CatalogueReader,
  renderChart,
  seriesColor,
  rulePacks,
  rulePack,
  counterTemplate,
  analyze,
  analysisReport,
  importPalThresholds,
  derivedSeries,
  explainDerived,
} from '../pkg/counterlens.js';
// The fleet: logs reduced to small runs per machine, ranked, its heatmap and sparklines; a machine's normal.
export { fleetRuns, rankFleet, fleetHeatmapSvg, sparklineSvg, BaselineBuilder } from '../pkg/counterlens.js';
// What users read (crate/src/words.rs) and chart units.
export { formatInUnit, formatDuration, formatClock, pathMachine, pathWithoutMachine, PathMatcher, counterUnit } from '../pkg/counterlens.js';
// A big CSV/TSV read by workers side by side, with openCapture's result.
export { openCaptureParallel } from './parallel.js';
export { CounterTypeError, RegistrationError, CaptureError, AnalysisError } from './errors.js';

/** A machine's normal from `captures` (`names[i]` names capture i; default "log 1", ...): the core's
 *  BaselineBuilder over the array, which wasm-bindgen cannot take whole without moving the captures. */
export function buildBaseline(captures, names = []) {
  const builder = new BaselineBuilder();
  try {
    captures.forEach((c, i) => builder.add(names[i] ?? `log ${i + 1}`, c));
    return builder.finish();
  } finally {
    builder.free();
  }
}

/** Loads the wasm module (once per page or Worker); thrown errors are then instances of the package's
 *  Error classes. */
export default async function init(options) {
  const exports = await wasmInit(options);
  registerErrorClasses(errorClasses);
  return exports;
}

/** init's synchronous form, given the module or its bytes (`{ module }`). */
export function initSync(options) {
  const exports = wasmInitSync(options);
  registerErrorClasses(errorClasses);
  return exports;
}
