// The viewer's state, shared by its modules: the open capture, what is selected (with each series'
// palette slot), the visible range, the time zone of the labels. Plain data and small helpers; each
// module reads it and the viewer (index.js) changes it through these functions.
import { formatInUnit, counterUnit } from '../core.js';

export function createState() {
  return {
    capture: null,
    info: [], // capture.series(), converted once per capture (not on every mouse move)
    timestamps: new Float64Array(), // the capture's, copied once per capture for the crosshair
    notes: [],
    sourceName: '',
    source: null, // the file's identity (url-state.js fileIdentity) for share links
    rawSource: null, // where a .blg can be read again for raw samples (explain.js): { blob } or { url }
    selected: new Set(),
    // Palette slot of each selected series: given when it is selected (the lowest free one), kept while it
    // stays selected, as Perfmon keeps a counter's colour.
    slots: new Map(),
    range: null, // [fromMs, toMs] shown, or null for the whole capture
    zone: 'log',
    theme: 'auto', // 'auto' (the system's), 'light' or 'dark'
    yScale: 'units', // 'units' (an axis per unit), 'perfmon' (power-of-ten per counter) or 'log'
    sort: { key: null, dir: 1 }, // the stats table's order
    highlight: null, // the series hovered in the tree, the legend or the table
    paneOf: new Map(), // series index -> the pane it is drawn in (0, the first, when absent)
    hidden: new Set(), // selected series hidden from the chart (clicked in the legend); they keep their colour
    marks: null, // an analysis finding shown in context: { thresholds: [{ index, value, severity, operator }], ranges: [[from, to]] }
    rank: null, // the series of the last Top N, biggest first: the legend's order (legend.js legendOrder)
    multiMachine: false, // the capture has series of more than one machine: names say which
  };
}

export function selectSeries(state, i) {
  state.selected.add(i);
  if (state.slots.has(i)) return;
  const used = new Set(state.slots.values());
  let slot = 0;
  while (used.has(slot)) slot++;
  state.slots.set(i, slot);
}

export function deselectSeries(state, i) {
  state.selected.delete(i);
  state.hidden.delete(i);
  state.paneOf.delete(i);
  state.slots.delete(i);
}

export function clearSelection(state) {
  state.rank = null;
  state.selected.clear();
  state.hidden.clear();
  state.paneOf.clear();
  state.slots.clear();
}

/** The selected series in file order. */
export const selection = (state) => [...state.selected].sort((a, b) => a - b);

/** Minutes east of UTC of the labels: the log's zone, or UTC. */
export const offsetMinutes = (state) => (state.zone === 'log' && state.capture?.timeZone ? -state.capture.timeZone.biasMinutes : 0);

/** `yyyy-mm-dd hh:mm:ss.fff` of ms since the epoch in the chosen zone. */
export const formatTime = (state, ms) => new Date(ms + offsetMinutes(state) * 60_000).toISOString().replace('T', ' ').replace('Z', '');

/** A range kept within the capture and at least a millisecond wide; null when it covers everything. */
export function clampRange(state, r) {
  const ts = state.timestamps;
  if (!r || !ts.length || !(r[1] > r[0])) return null;
  const [lo, hi] = [ts[0], ts[ts.length - 1]];
  let [a, b] = r;
  const w = Math.max(b - a, 1);
  if (w >= hi - lo) return null;
  if (a < lo) [a, b] = [lo, lo + w];
  if (b > hi) [a, b] = [hi - w, hi];
  return [a, b];
}

/** capture.series() with each series' unit (`unit`, `multiplier` to the unit's base) added: from the
 *  English counter name of a localized series (the unit rules read English names: "Avg. Disk sec/Transfer"
 *  is in seconds, whatever language the log was written in). */
export function seriesWithUnits(capture) {
  return capture.series().map((s) => Object.assign(s, counterUnit(s.counterType ?? null, s.englishCounter ?? s.counter)));
}

/** Whether series name more than one machine (then every name shown says which). */
export const hasSeveralMachines = (info) => info.length > 1 && info.some((s) => s.machine !== info[0].machine);

/** A value of series `s` as users read it, the core's one rule (`formatInUnit`, crate/src/words.rs) in
 *  its unit: 12.5%, 1638, 250/s, 7.81 GB, 12.3 ms; as the cards, messages and the report write it. */
export function formatSeriesValue(s, v) {
  if (Number.isNaN(v)) return '';
  return formatInUnit(v * (s.multiplier ?? 1), s.unit ?? 'count');
}
