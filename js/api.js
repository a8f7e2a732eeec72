// The public functions, re-exported from the wasm-bindgen glue: one list, shared by both entries, so
// the browser and Node packages cannot drift apart. The types are in index.d.ts.
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
  renderChart,
  seriesColor,
  rulePacks,
  rulePack,
  analyze,
  analysisReport,
  importPalThresholds,
} from '../pkg/counterlens.js';
// Chart units (the viewer's axes and value text).
export { formatInUnit, counterUnit } from '../pkg/counterlens.js';
// A big CSV/TSV read by workers side by side, with openCapture's result.
export { openCaptureParallel } from './parallel.js';
export { CounterTypeError, RegistrationError, CaptureError, AnalysisError } from './errors.js';
// The viewer (browsers; in Node it throws, having no DOM to build in).
export { mountViewer } from './viewer/index.js';
// <counterlens-viewer>, the viewer as a custom element (browsers).
export { defineViewerElement } from './viewer/element.js';
