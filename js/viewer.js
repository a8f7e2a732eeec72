// The viewer, the package's `counterlens/viewer` subpath (and part of the browser entry, api.js):
// mountViewer builds the capture viewer in an element, defineViewerElement defines <counterlens-viewer>.
// Browsers only, after `await init()`. The types are in viewer.d.ts.
export { mountViewer } from './viewer/index.js';
export { defineViewerElement } from './viewer/element.js';
