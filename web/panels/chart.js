// The Chart tab: the package's viewer (js/viewer/index.js, the same one mountViewer embeds in other
// pages), with what only this page does: document ids for its parts, the view in the URL hash, files
// dropped anywhere on the page, and on first visit ?url= of a same-origin file or the sample capture.
import { mountViewer } from '../js/viewer/index.js';
import { $ } from '../dom.js';
import { parseBudget } from '../js/viewer/catalogue.js';

let viewer = null;
const SAMPLE = 'sample capture (DEMO-SQL01)';

export function mountChart() {
  // The page takes the viewer's theme (<html> gets its theme class: the page's tokens follow).
  // ?budget= (bytes, or 300M, 2G): the columns read whole before a log is listed and read in part.
  const columnBudget = parseBudget(new URLSearchParams(location.search).get('budget'));
  viewer = mountViewer($('panel-chart'), { ids: true, hash: true, dropAnywhere: true, themeRoot: document.documentElement, columnBudget });
}

export function draw() {
  viewer?.redraw();
}

/** Opens ?url= (same origin only: the page's CSP allows nothing else) or the sample capture; a shared
 *  link that names a file waits for the user to open it instead. */
export function openInitial() {
  const requested = new URLSearchParams(location.search).get('url');
  const shared = viewer.sharedFile();
  if (!requested && shared && shared.name !== SAMPLE) return Promise.resolve();
  return requested ? viewer.openUrl(requested) : viewer.openUrl('sample-capture.json', SAMPLE);
}
