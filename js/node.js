// counterlens for Node (ESM, no flags). The wasm module is compiled synchronously on import, so every
// function is ready at once; `init()` exists for code shared with browsers and does nothing here.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { initSync as wasmInitSync, registerErrorClasses } from '../pkg/counterlens.js';
import { errorClasses } from './errors.js';
import { registerParallelHost } from './parallel.js';

const module = new WebAssembly.Module(readFileSync(new URL('../pkg/counterlens_bg.wasm', import.meta.url)));
wasmInitSync({ module });
registerErrorClasses(errorClasses);
// openCaptureParallel's workers: worker_threads given the module compiled here; an idle one does not
// keep the process alive.
registerParallelHost({
  module,
  cores: availableParallelism(),
  readBlobsHere: true, // a worker reading a file-backed Blob aborts Node 20
  spawn(url) {
    const w = new Worker(url);
    return {
      post: (m, transfer) => w.postMessage(m, transfer),
      listen: (f) => w.on('message', f),
      failed: (f) => {
        w.on('error', f);
        w.on('exit', (code) => f(new Error(`it exited (code ${code})`))); // e.g. out of memory
      },
      hold: (busy) => (busy ? w.ref() : w.unref()),
      terminate: () => w.terminate(),
    };
  },
});

export default async function init() {}
/** Already initialised on import; returns the wasm exports as wasm-bindgen's initSync does. */
export function initSync(options) {
  return wasmInitSync(options);
}
export * from './api.js';
