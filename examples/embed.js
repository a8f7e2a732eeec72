// Embedding counterlens in a page of your own. In an application this would be
// `import init, { mountViewer } from 'counterlens';` (a bundler resolves the wasm next to the module);
// served from this repository (npm run serve), the package's files are at /js/.
import init, { mountViewer } from '../js/browser.js';

await init();

// The whole viewer, opening a capture from the same origin.
mountViewer(document.getElementById('full'), { url: '/sample-capture.json', name: 'DEMO-SQL01 sample' });

// Just a chart, from bytes the page already has, showing the series a perfmon wildcard path selects.
const bytes = new Uint8Array(await (await fetch('/sample-capture.json')).arrayBuffer());
const chart = mountViewer(document.getElementById('cpu'), {
  capture: bytes,
  name: 'DEMO-SQL01',
  chartOnly: true,
  series: '\\\\*\\Processor(*)\\% Processor Time',
});
// The handle drives it: here, show the last five minutes once it is open.
await chart.ready;
const t = chart.capture().timestamps();
chart.setRange([t[t.length - 1] - 5 * 60_000, t[t.length - 1]]);
document.body.dataset.ready = 'true';
