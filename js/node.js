// counterlens for Node (ESM, no flags). The wasm module is compiled synchronously on import, so every
// function is ready at once; `init()` exists for code shared with browsers and does nothing here.
import { readFileSync } from 'node:fs';
import { initSync as wasmInitSync, registerErrorClasses } from '../pkg/counterlens.js';
import { errorClasses } from './errors.js';

wasmInitSync({ module: readFileSync(new URL('../pkg/counterlens_bg.wasm', import.meta.url)) });
registerErrorClasses(errorClasses);

export default async function init() {}
/** Already initialised on import; returns the wasm exports as wasm-bindgen's initSync does. */
export function initSync(options) {
  return wasmInitSync(options);
}
export * from './api.js';
