// A dashboard of <counterlens-viewer> elements. In an application: `import init, { defineViewerElement }
// from 'counterlens';` (a bundler resolves the wasm next to the module); served from this repository
// (npm run serve), the package's files are at /js/.
import init, { defineViewerElement } from '../js/browser.js';

await init();
defineViewerElement();

// The elements tell what the user did: which series are selected, which range is shown.
const last = document.getElementById('last-event');
for (const id of ['cpu', 'memory']) {
  const element = document.getElementById(id);
  element.addEventListener('selection', (e) => { last.textContent = `${id}: ${e.detail.series.length} series selected`; });
  element.addEventListener('zoom', (e) => { last.textContent = `${id}: ${e.detail.range ? e.detail.range.map((t) => new Date(t).toISOString()).join(' to ') : 'whole capture'}`; });
}
await Promise.all(['cpu', 'memory'].map((id) => document.getElementById(id).ready));
document.body.dataset.ready = 'true';
