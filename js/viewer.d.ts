// The `counterlens/viewer` subpath: the viewer alone (js/viewer.js), the same functions and types the
// browser entry exports (declared once, in index.d.ts).
export { mountViewer, defineViewerElement } from './index.js';
export type { Viewer, ViewerOptions } from './index.js';
