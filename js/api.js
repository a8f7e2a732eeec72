// The public names of the browser entry (browser.js): the core (core.js: the wasm functions, errors,
// parallel opening) and the viewer (viewer.js). Node's entry (node.js) exports the core without the
// viewer's modules. The types are in index.d.ts.
export * from './core.js';
export * from './viewer.js';
