// The legend, outside the plot: one row per selected series with its colour, its name (the factor of
// Perfmon's scale beside it), its value at the crosshair (or its last value in the range) and the range's
// min, max and mean. Clicking a row's name hides or shows the series; hovering highlights it.
import { seriesColor } from '../core.js';
import { el } from './dom.js';
import { selection, formatSeriesValue, formatTime } from './state.js';

/** A series' short name: object(instance)\counter (the machine is the same for most captures). */
export const shortName = (s) => `${s.instance !== undefined ? `${s.object}(${s.parent ? s.parent + '/' : ''}${s.instance})` : s.object}\\${s.counter}`;

/** At most this many characters of a name in the legend (the end, which tells series apart; the whole
 *  path is in the entry's title): a 100 KB instance name would otherwise cost seconds of table layout. */
const NAME_MAX = 160;
const fit = (t) => (t.length > NAME_MAX ? '…' + t.slice(-(NAME_MAX - 1)) : t);

/** Perfmon's factor as text: 0.01, 1000, 1e-7. */
function factorText(f) {
  const k = Math.round(Math.log10(f));
  return k >= -4 && k <= 6 ? String(+f.toFixed(Math.max(0, -k))) : `1e${k}`;
}

/** Builds the legend's rows for the selected series. `factors` maps a series index to the factor it was
 *  drawn with (Perfmon's scale), when not 1. */
export function renderLegend(table, state, factors, paneCount = 1) {
  const { capture, info } = state;
  if (!capture) return;
  const [from, to] = state.range ?? [undefined, undefined];
  const head = el('tr');
  head.append(el('th', 'Series'), el('th', 'last', { 'data-col': 'value' }), el('th', 'min'), el('th', 'max'), el('th', 'mean'), el('th', 'pane'));
  const rows = selection(state).map((i) => {
    const s = info[i];
    const st = capture.stats(i, from, to);
    const shown = !state.hidden.has(i);
    const tr = el('tr', null, { 'data-index': String(i), class: shown ? '' : 'legend-hidden' });
    const toggle = el('button', null, { type: 'button', 'data-index': String(i), 'aria-pressed': String(shown), title: `${s.path} (click to ${shown ? 'hide' : 'show'})` });
    const swatch = el('span', null, { class: 'swatch' });
    swatch.style.background = seriesColor(state.slots.get(i));
    const f = factors.get(i);
    toggle.append(swatch, el('span', fit(shortName(s)) + (f !== undefined && f !== 1 ? ` (x${factorText(f)})` : '')));
    const name = el('td');
    name.append(toggle);
    const cell = (v, col) => el('td', formatSeriesValue(s, v), { class: 'num', ...(col ? { 'data-col': col } : {}) });
    // Which pane the series is drawn in; "new pane" stacks another chart under the others.
    const pane = el('select', null, { 'data-index': String(i), 'data-role': 'pane', 'aria-label': `Pane of ${fit(shortName(s))}` });
    for (let p = 0; p < paneCount; p++) pane.append(el('option', String(p + 1), { value: String(p) }));
    pane.append(el('option', 'new pane', { value: 'new' }));
    pane.value = String(state.paneOf.get(i) ?? 0);
    const paneCell = el('td');
    paneCell.append(pane);
    tr.append(name, cell(st.last, 'value'), cell(st.min), cell(st.max), cell(st.mean), paneCell);
    tr.dataset.last = String(st.last);
    return tr;
  });
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  tbody.append(...rows);
  table.replaceChildren(thead, tbody);
}

/** The value column at sample `k` (the crosshair), or back to each series' last value for null. */
export function showLegendAt(table, state, k) {
  if (!state.capture || !table.tHead) return;
  const th = table.tHead.querySelector('[data-col="value"]');
  th.textContent = k === null ? 'last' : `at ${formatTime(state, state.timestamps[k]).slice(11)}`;
  for (const tr of table.tBodies[0].rows) {
    const i = Number(tr.dataset.index);
    const v = k === null ? Number(tr.dataset.last) : state.capture.valueAt(i, k);
    tr.querySelector('[data-col="value"]').textContent = formatSeriesValue(state.info[i], v);
  }
}
