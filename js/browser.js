// counterlens for browsers and bundlers. Call `await init()` once before any other function: it
// fetches and compiles counterlens_bg.wasm next to the module (bundlers resolve it through import.meta.url).
export { default, initSync } from '../pkg/counterlens.js';
export * from './api.js';
