// counterlens for Node (ESM, no flags). The wasm module is compiled synchronously on import, so every
// function is ready at once; `init()` exists for code shared with browsers and does nothing here. The
// core only (core.js): the viewer's modules are never loaded; mountViewer and defineViewerElement are
// exported (one list of names everywhere) and say plainly that they need a browser.
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { initSync as coreInitSync } from './core.js';
import { registerParallelHost } from './parallel.js';

const module = new WebAssembly.Module(readFileSync(new URL('../pkg/counterlens_bg.wasm', import.meta.url)));
coreInitSync({ module });
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
  return coreInitSync(options);
}

// The viewer's own checks, word for word (viewer/index.js, viewer/element.js), without loading it.
export function mountViewer() {
  throw new TypeError('mountViewer needs a browser page and an HTMLElement to build the viewer in');
}
export function defineViewerElement() {
  throw new TypeError('defineViewerElement needs a browser page');
}
export * from './core.js';
