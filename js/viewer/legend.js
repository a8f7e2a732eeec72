// The legend, outside the plot: one row per selected series with its colour, its name (the machine first
// when the log has several; a localized name with its English one beside it; the factor of Perfmon's scale),
// its value at the crosshair (or its last value in the range) and the range's min, max and mean, in rank
// order after a Top N (file order otherwise). Compared with a second capture, B's lines drawn over the chart
// have rows of their own (dashed swatch). Clicking a row's name hides or shows the series; hovering
// highlights it.
import { seriesColor } from '../core.js';
import { el } from './dom.js';
import { selection, formatSeriesValue, formatTime } from './state.js';

/** A series' short name: object(instance)\counter (the machine is the same for most captures). */
export const shortName = (s) => `${s.instance !== undefined ? `${s.object}(${s.parent ? s.parent + '/' : ''}${s.instance})` : s.object}\\${s.counter}`;

/** The same in English, for a series written in another language (undefined otherwise, or when the same). */
export function englishName(s) {
  if (!s.englishObject || !s.englishCounter) return undefined;
  const name = shortName({ ...s, object: s.englishObject, counter: s.englishCounter });
  return name === shortName(s) ? undefined : name;
}

/** How a series is named wherever the viewer shows it (legend, crosshair, notes): its short name, after
 *  its machine (`\\WEB01 `) when the log has several, and its English name beside a localized one
 *  (`Procesador(_Total)\% de tiempo de procesador — Processor(_Total)\% Processor Time`). */
export function displayName(s, multiMachine) {
  const english = englishName(s);
  return `${multiMachine && s.machine ? `\\\\${s.machine} ` : ''}${shortName(s)}${english ? ` — ${english}` : ''}`;
}

/** At most this many characters of a name in the legend (the end, which tells series apart; the whole
 *  path is in the entry's title): a 100 KB instance name would otherwise cost seconds of table layout. */
const NAME_MAX = 160;
const fit = (t) => (t.length > NAME_MAX ? '…' + t.slice(-(NAME_MAX - 1)) : t);

/** Perfmon's factor as text: 0.01, 1000, 1e-7. */
function factorText(f) {
  const k = Math.round(Math.log10(f));
  return k >= -4 && k <= 6 ? String(+f.toFixed(Math.max(0, -k))) : `1e${k}`;
}

/** The selected series in the legend's order: those ranked by the last Top N first, in rank order, then
 *  the others in file order. */
export function legendOrder(state) {
  const chosen = selection(state);
  const rank = (state.rank ?? []).filter((i) => state.selected.has(i));
  const ranked = new Set(rank);
  return [...rank, ...chosen.filter((i) => !ranked.has(i))];
}

/** Builds the legend's rows for the selected series. `factors` maps a series index to the factor it was
 *  drawn with (Perfmon's scale), when not 1. `others`: rows of B's lines drawn over the chart
 *  (`{ i, name, stats }`, stats over the same stretch of B). */
export function renderLegend(table, state, factors, paneCount = 1, others = []) {
  const { capture, info } = state;
  if (!capture) return;
  const [from, to] = state.range ?? [undefined, undefined];
  const head = el('tr');
  head.append(el('th', 'Series'), el('th', 'last', { 'data-col': 'value' }), el('th', 'min'), el('th', 'max'), el('th', 'mean'), el('th', 'pane'));
  const multi = state.multiMachine;
  const rows = legendOrder(state).map((i) => {
    const s = info[i];
    const st = capture.stats(i, from, to);
    const shown = !state.hidden.has(i);
    const tr = el('tr', null, { 'data-index': String(i), class: shown ? '' : 'legend-hidden' });
    const toggle = el('button', null, { type: 'button', 'data-index': String(i), 'aria-pressed': String(shown), title: `${s.path} (click to ${shown ? 'hide' : 'show'})` });
    const swatch = el('span', null, { class: 'swatch' });
    swatch.style.background = seriesColor(state.slots.get(i));
    const f = factors.get(i);
    const label = el('span', null, { class: 'legend-name' });
    if (multi && s.machine) label.append(el('span', `\\\\${s.machine} `, { class: 'legend-machine' }));
    label.append(fit(shortName(s)) + (f !== undefined && f !== 1 ? ` (x${factorText(f)})` : ''));
    const english = englishName(s);
    if (english) label.append(' ', el('span', `— ${fit(english)}`, { class: 'legend-english', lang: 'en' }));
    toggle.append(swatch, label);
    const name = el('td');
    name.append(toggle);
    const cell = (v, col) => el('td', formatSeriesValue(s, v), { class: 'num', ...(col ? { 'data-col': col } : {}) });
    // Which pane the series is drawn in; "new pane" stacks another chart under the others.
    const pane = el('select', null, { 'data-index': String(i), 'data-role': 'pane', 'aria-label': `Pane of ${fit(displayName(s, multi))}` });
    for (let p = 0; p < paneCount; p++) pane.append(el('option', String(p + 1), { value: String(p) }));
    pane.append(el('option', 'new pane', { value: 'new' }));
    pane.value = String(state.paneOf.get(i) ?? 0);
    const paneCell = el('td');
    paneCell.append(pane);
    tr.append(name, cell(st.last, 'value'), cell(st.min), cell(st.max), cell(st.mean), paneCell);
    tr.dataset.last = String(st.last);
    return tr;
  });
  // B's lines (compare.js), each under its own name, dashed as drawn.
  for (const o of others) {
    const s = info[o.i];
    const tr = el('tr', null, { 'data-b-index': String(o.i), class: 'legend-b' });
    const name = el('td');
    const label = el('span', null, { class: 'legend-name' });
    const swatch = el('span', null, { class: 'swatch dashed' });
    swatch.style.color = seriesColor(state.slots.get(o.i));
    label.append(swatch, `B: ${fit(o.name)}`);
    name.append(label);
    const cell = (v) => el('td', formatSeriesValue(s, v), { class: 'num' });
    tr.append(name, el('td', '', { class: 'num' }), cell(o.stats.min), cell(o.stats.max), cell(o.stats.mean), el('td'));
    rows.push(tr);
  }
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
    if (tr.dataset.index === undefined) continue;
    const i = Number(tr.dataset.index);
    const v = k === null ? Number(tr.dataset.last) : state.capture.valueAt(i, k);
    tr.querySelector('[data-col="value"]').textContent = formatSeriesValue(state.info[i], v);
  }
}
