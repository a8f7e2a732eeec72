// counterlens for browsers and bundlers. Call `await init()` once before any other function: it
// fetches and compiles counterlens_bg.wasm next to the module (bundlers resolve it through import.meta.url).
import wasmInit, { initSync as wasmInitSync, registerErrorClasses } from '../pkg/counterlens.js';
import { errorClasses } from './errors.js';
import { registerParallelHost } from './parallel.js';

// openCaptureParallel's workers: module Web Workers, each fetching the wasm next to the glue (cached).
registerParallelHost({
  cores: globalThis.navigator?.hardwareConcurrency ?? 1,
  spawn(url) {
    const w = new Worker(url, { type: 'module' });
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      listen: (f) => { w.onmessage = (e) => f(e.data); },
      failed: (f) => { w.onerror = (e) => f(new Error(e.message || 'the worker failed to start')); },
      hold: () => {},
      terminate: () => w.terminate(),
    };
  },
});

/** Loads the wasm module (once); thrown errors are then instances of the package's Error classes. */
export default async function init(options) {
  const exports = await wasmInit(options);
  registerErrorClasses(errorClasses);
  return exports;
}

export function initSync(options) {
  const exports = wasmInitSync(options);
  registerErrorClasses(errorClasses);
  return exports;
}
export * from './api.js';
