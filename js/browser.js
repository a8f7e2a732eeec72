// counterlens for browsers and bundlers. Call `await init()` once before any other function: it
// fetches and compiles counterlens_bg.wasm next to the module (bundlers resolve it through import.meta.url).
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

export { default, initSync } from './core.js';
export * from './api.js';
