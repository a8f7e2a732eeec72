// Export: the chart as PNG, the selected series as CSV.
import { el } from './dom.js';
import { selection } from './state.js';

export function download(blob, name) {
  const a = el('a', null, { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A file name from the capture's: its stem, with anything unusual replaced. */
export const baseName = (state) => (state.sourceName || 'capture').replace(/\.[^.]*$/, '').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'capture';

export function exportPng(canvas, state) {
  canvas.toBlob((b) => b && download(b, `${baseName(state)}.png`), 'image/png');
}

export function exportCsv(state) {
  if (!state.capture) return;
  download(new Blob([state.capture.toCsv(selection(state))], { type: 'text/csv' }), `${baseName(state)}-selected.csv`);
}
