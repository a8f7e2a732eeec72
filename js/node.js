// counterlens for Node (ESM, no flags). The wasm module is compiled synchronously on import, so every
// function is ready at once; `init()` exists for code shared with browsers and does nothing here.
import { readFileSync } from 'node:fs';
import { initSync } from '../pkg/counterlens.js';

initSync({ module: readFileSync(new URL('../pkg/counterlens_bg.wasm', import.meta.url)) });

export default async function init() {}
export { initSync };
export * from './api.js';
