// The fleet view's parts (fleet.js): its section after the viewer's bar, with the way back from a
// machine's log (and what it was judged against), the progress and Cancel, the option to judge a machine's
// log against its other logs, the logs that could not be read, the heatmap's legend and box,
// and the machines' table; and one row of that table. Every name from a log is written as text.
import { el } from './dom.js';
import { sparklineSvg, fleetHeatmapSvg, formatDuration, formatInUnit } from '../core.js';
import { svgNodes } from './fleet-svg.js';

/** A key figure as the core writes values (`crate::words`: 10%, 1000 MB, 12.3 ms); a dash where the log has none. */
const figure = (v, unit, scale = 1) => (Number.isFinite(v) ? formatInUnit(v * scale, unit) : '–');

/** The table's columns: heading, and whether it holds a number. */
const COLUMNS = [['#', 1], ['Machine'], ['Worst'], ['In trouble', 1], ['CPU'], ['CPU mean', 1], ['CPU p95', 1],
  ['Least available memory', 1], ['Disk latency p95', 1], ['Logs', 1], ['Top card']];

/** The fleet view's section, hidden, after `$['viewer-bar']`; its parts go into `$` by name. */
export function buildFleetLayout($) {
  const part = (name, tag, text, attrs = {}) => ($[name] = el(tag, text, { ...attrs, 'data-part': name }));
  const box = part('fleet', 'section', null, { class: 'cl-fleet', 'aria-label': 'Fleet' });
  // Over a machine's log opened from the table: which, and the way back.
  const back = part('fleet-back', 'div', null, { class: 'cl-fleet-back', role: 'navigation', 'aria-label': 'Fleet' });
  const backText = part('fleet-back-text', 'span');
  back.append(part('fleet-back-button', 'button', 'Back to the fleet', { type: 'button', class: 'cl-button' }), backText,
    part('fleet-normal', 'span', null, { class: 'cl-fleet-normal', role: 'status' }));
  const main = el('div', null, { class: 'cl-fleet-main' });
  const head = el('div', null, { class: 'cl-fleet-head' });
  const progress = part('fleet-progress', 'progress', null, { max: '1', value: '0', 'aria-label': 'Logs read' });
  head.append(part('fleet-title', 'h2', 'Fleet'), part('fleet-status', 'p', null, { role: 'status' }), progress,
    part('fleet-cancel', 'button', 'Cancel', { type: 'button', class: 'cl-button' }));
  const options = el('p', null, { class: 'cl-fleet-options' });
  const useNormal = el('label', null, { class: 'cl-check', title: 'A log opened from the table is judged against the normal of its machine learnt from its other logs here (cards "worse than its normal")' });
  useNormal.append(part('fleet-use-normal', 'input', null, { type: 'checkbox' }), "Use each machine's other logs as its normal");
  options.append(useNormal);
  const errors = part('fleet-errors', 'details');
  errors.append(part('fleet-errors-summary', 'summary'), part('fleet-errors-list', 'ul'));
  const legend = el('p', null, { class: 'cl-fleet-legend muted' });
  for (const [level, text] of [[0, 'no log'], [1, 'calm'], [2, 'warning'], [3, 'critical']]) {
    legend.append(el('span', null, { class: `cl-swatch level-${level}`, 'aria-hidden': 'true' }), text);
  }
  const heat = part('fleet-heatmap', 'figure', null, { class: 'cl-fleet-heatmap' });
  const table = part('fleet-table', 'table', null, { class: 'grid cl-fleet-table', role: 'table', 'aria-label': 'Machines, worst first: Enter or a click opens its log' });
  const hr = el('tr', null, { role: 'row' });
  for (const [t, num] of COLUMNS) hr.append(el('th', t, { scope: 'col', role: 'columnheader', ...(num ? { class: 'num' } : {}) }));
  table.createTHead().append(hr);
  table.createTBody();
  for (const g of [table.tHead, table.tBodies[0]]) g.setAttribute('role', 'rowgroup');
  const scroll = el('div', null, { class: 'table-scroll' });
  scroll.append(table);
  main.append(head, options, errors, el('h3', 'When each machine was in trouble (UTC)', { class: 'cl-section-title' }), legend, heat,
    el('h3', 'Machines, worst first', { class: 'cl-section-title' }), scroll);
  box.append(back, main);
  $['viewer-bar'].after(box);
  box.hidden = true;
  return { box, backText, errors, heat, table };
}

/** Machine `m` (rankFleet's) as row `i` of the table: Enter or a click on it opens its log. The table's
 *  roles are set on every part, so it stays a table to a screen reader when a narrow viewer shows each row
 *  as a block (fleet.css); a figure's `data-label` names it in that block, where the head is not seen. */
export function fleetRow(m, i) {
  const tr = el('tr', null, { tabindex: '0', role: 'row', 'data-machine': String(i), class: m.worst ?? 'calm' });
  const cell = (text, cls, attrs = {}) => el('td', text, { role: 'cell', class: cls, ...attrs });
  const top = m.cards[0];
  const spark = cell(null, 'spark');
  const line = svgNodes(sparklineSvg(m.cpu, 120, 24, [0, 100]));
  if (line) { line.setAttribute('role', 'img'); line.setAttribute('aria-label', 'CPU over time'); spark.append(line); }
  const num = (text, label) => cell(text, 'num figure', { 'data-label': label });
  const topCell = cell(null, 'top-card');
  if (top) {
    // The text is clamped to two lines in a narrow viewer (its whole text stays in the page, for screen
    // readers); focus on the row, or the More button (for a pointer; fleet.js shows it when the text is
    // cut), shows all of it.
    topCell.append(el('span', `${top.category}: ${top.summary}`, { class: 'top-card-text' }),
      el('button', null, { type: 'button', class: 'cl-fleet-more', tabindex: '-1', 'aria-hidden': 'true', 'aria-expanded': 'false' }));
  }
  tr.append(cell(String(i + 1), 'num rank'), cell(m.machine, 'machine'), cell(m.worst ?? 'calm', `sev ${m.worst ?? 'calm'}`),
    cell(m.troubleMs > 0 ? formatDuration(m.troubleMs) : '–', `num trouble${m.troubleMs > 0 ? '' : ' none'}`), spark,
    num(figure(m.figures.cpuMean, 'percent'), 'CPU mean'), num(figure(m.figures.cpuP95, 'percent'), 'CPU p95'),
    num(figure(m.figures.availableMbMin, 'bytes', 1_048_576), 'Least memory'), num(figure(m.figures.diskLatencyP95Ms, 'seconds', 1e-3), 'Disk p95'),
    num(String(m.logs.length), 'Logs'), topCell);
  return tr;
}

/** The status line, title, progress and Cancel for `read` of `logs` logs read (`ms` so far), their
 *  ranked `machines`, `failed` unreadable; while reading, the worst `liveRows` machines are shown. */
export function showStatus($, { logs: n, read, machines: ranked, failed, done, cancelled, ms, liveRows }) {
  const machines = ranked.length;
  const trouble = ranked.filter((m) => m.worst).length;
  const head = cancelled ? `Cancelled: ${read} of ${n} logs read` : done ? `${read} of ${n} logs read in ${formatDuration(ms)}` : `${read} of ${n} logs read`;
  const tail = machines ? `: ${machines} machine${machines === 1 ? '' : 's'}, ${trouble} in trouble` : '';
  const live = !done && machines > liveRows ? ` The worst ${liveRows} are shown while reading.` : '';
  $['fleet-status'].textContent = `${head}${tail}${failed ? `; ${failed} could not be read` : ''}.${live}`;
  $['fleet-progress'].value = n ? read / n : 0;
  $['fleet-progress'].hidden = done;
  $['fleet-cancel'].hidden = done;
  $['fleet-title'].textContent = machines ? `Fleet: ${machines} machine${machines === 1 ? '' : 's'} from ${n} log${n === 1 ? '' : 's'}` : 'Fleet';
}

/** The core's heatmap of `machines` (rankFleet's) drawn `width` pixels wide, as nodes (none without a
 *  machine). */
export function heatmapNodes(machines, width) {
  const svg = svgNodes(machines.length ? fleetHeatmapSvg({ machines }, { width, columns: Math.max(24, Math.min(120, Math.floor(width / 8))) }) : '');
  if (!svg) return [];
  svg.setAttribute('viewBox', `0 0 ${svg.getAttribute('width')} ${svg.getAttribute('height')}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', `Heatmap: ${machines.length} machines by time, coloured by how bad each was`);
  return [svg];
}

/** Calls `f(width)` (whole pixels, not 0) a moment after `box`'s width changes; returns the way to stop. */
export function watchWidth(box, f) {
  let timer = null;
  const observer = new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(() => { const w = Math.round(box.clientWidth); if (w) f(w); }, 150);
  });
  observer.observe(box);
  return () => { clearTimeout(timer); observer.disconnect(); };
}

/** A click on a machine's row of `table`, or Enter on it, calls `open(its index)`; a click on a row's
 *  More button shows or hides the whole of its top card instead. */
export function onRows(table, open) {
  const onRow = (e) => {
    if (e.type === 'keydown' && e.key !== 'Enter') return;
    const more = e.target.closest('.cl-fleet-more');
    if (more) {
      e.preventDefault();
      if (e.type === 'click') more.setAttribute('aria-expanded', String(more.getAttribute('aria-expanded') !== 'true'));
      return;
    }
    const tr = e.target.closest('tr[data-machine]');
    if (tr) { e.preventDefault(); open(Number(tr.dataset.machine)); }
  };
  table.tBodies[0].addEventListener('click', onRow);
  table.tBodies[0].addEventListener('keydown', onRow);
}

/** Marks each row of `table` whose top card is cut to two lines (data-clamped), so its More button shows. */
export function markClamped(table) {
  const body = table.tBodies[0];
  for (const t of body.querySelectorAll('.top-card-text')) {
    const more = t.nextElementSibling;
    const cut = t.scrollHeight > t.clientHeight + 1 || more?.getAttribute('aria-expanded') === 'true';
    t.parentElement.toggleAttribute('data-clamped', cut);
  }
}
