// Export: the chart as PNG, the selected series as CSV.
import { Capture } from '../core.js';
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

/** The chart as a PNG with a title (the file), the time range, the legend (colours, names, factors) and
 *  the units (the axes' titles are in the chart). Drawn on a canvas of its own; returns it. */
export function composePng(chart, state, legendRows, range) {
  const ratio = chart.width / Math.max(1, chart.clientWidth);
  const line = Math.round(18 * ratio), pad = Math.round(10 * ratio);
  const out = document.createElement('canvas');
  out.width = chart.width;
  out.height = chart.height + pad * 3 + line * (2 + legendRows.length);
  const g = out.getContext('2d');
  const dark = state.theme === 'dark';
  g.fillStyle = dark ? '#18181b' : '#ffffff';
  g.fillRect(0, 0, out.width, out.height);
  g.fillStyle = dark ? '#dcdce1' : '#28282d';
  g.textBaseline = 'middle';
  g.font = `600 ${Math.round(15 * ratio)}px sans-serif`;
  g.fillText(state.sourceName || 'capture', pad, pad + line / 2);
  g.font = `${Math.round(12 * ratio)}px sans-serif`;
  g.fillText(range, pad, pad + line * 1.5);
  const top = pad * 2 + line * 2;
  g.drawImage(chart, 0, top);
  let y = top + chart.height + pad + line / 2;
  for (const { color, name } of legendRows) {
    g.fillStyle = color;
    g.fillRect(pad, y - ratio * 2, 16 * ratio, 4 * ratio);
    g.fillStyle = dark ? '#dcdce1' : '#28282d';
    g.fillText(name, pad + 24 * ratio, y);
    y += line;
  }
  return out;
}

export function exportPng(chart, state, legendRows, range) {
  composePng(chart, state, legendRows, range).toBlob((b) => b && download(b, `${baseName(state)}.png`), 'image/png');
}

/** The selected series over the visible range, as PDH-CSV (relog's dialect): a capture of just those
 *  rows and columns, written by the package's CSV writer. */
export function visibleCsv(state) {
  const { capture, timestamps } = state;
  const [from, to] = state.range ?? [-Infinity, Infinity];
  let lo = 0;
  while (lo < timestamps.length && timestamps[lo] < from) lo++;
  let hi = lo;
  while (hi < timestamps.length && timestamps[hi] <= to) hi++;
  const indices = selection(state);
  const part = Capture.fromParts({
    format: capture.format, encoding: capture.encoding, timeZone: capture.timeZone, notes: [],
    timestamps: timestamps.slice(lo, hi),
    series: indices.map((i) => ({ path: state.info[i].path, counterType: state.info[i].counterType ?? null, values: capture.values(i).slice(lo, hi), reference: null })),
  });
  try {
    return part.toCsv();
  } finally {
    part.free();
  }
}

export function exportCsv(state) {
  if (!state.capture) return;
  download(new Blob([visibleCsv(state)], { type: 'text/csv' }), `${baseName(state)}-selected${state.range ? '-range' : ''}.csv`);
}
