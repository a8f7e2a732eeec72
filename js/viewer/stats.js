// Statistics of the visible range in a sortable table, and (Get-Counter captures) where counterlens'
// values and PDH's own differ.
import { el } from './dom.js';
import { selection, formatSeriesValue, formatTime } from './state.js';

export const STATS = [['path', 'Series'], ['min', 'min'], ['mean', 'mean'], ['max', 'max'], ['last', 'last'], ['p95', '95th pct'],
  ['p99', '99th pct'], ['stddev', 'std dev'], ['count', 'count'], ['trendPerHour', 'trend per hour']];

/** The table's header: one sort button per column. */
export function statsHeader(table) {
  const head = el('tr');
  for (const [key, label] of STATS) {
    const th = el('th', null, { 'data-key': key, 'aria-sort': 'none' });
    th.append(el('button', label, { type: 'button' }));
    head.append(th);
  }
  table.append(el('thead'), el('tbody'));
  table.tHead.append(head);
}

/** The next sort order after a click on column `key`: the same column flips, a new one starts
 *  descending (numbers) or ascending (names). */
export const nextSort = (sort, key) => ({ key, dir: sort.key === key ? -sort.dir : key === 'path' ? 1 : -1 });

export function renderStats(table, state) {
  const { capture, info, range, sort } = state;
  if (!capture) return;
  const [from, to] = range ?? [undefined, undefined];
  const rows = [...state.selected].map((i) => ({ i, s: info[i], st: capture.rangeStats(i, from, to) }));
  if (sort.key) {
    const key = (r) => (sort.key === 'path' ? r.s.path : r.st[sort.key]);
    rows.sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (typeof x === 'string') return sort.dir * x.localeCompare(y);
      if (Number.isNaN(x)) return 1; // no value sorts last either way
      if (Number.isNaN(y)) return -1;
      return sort.dir * (x - y);
    });
  } else {
    rows.sort((a, b) => a.i - b.i);
  }
  const trs = rows.map(({ i, s, st }) => {
    const tr = el('tr', null, { 'data-index': String(i) });
    const value = (v) => el('td', Number.isNaN(v) ? '' : formatSeriesValue(s, v), { class: 'num' });
    // The standard deviation is a difference of values: in the unit, but never negative.
    // The path as written (it names the machine), and a localized one's English path beside it.
    const name = el('td', s.path);
    if (s.englishPath && s.englishPath !== s.path) name.append(el('span', ` — ${s.englishPath}`, { class: 'muted', lang: 'en' }));
    tr.append(name, ...[st.min, st.mean, st.max, st.last, st.p95, st.p99, st.stddev].map(value),
      el('td', String(st.count), { class: 'num' }),
      el('td', Number.isNaN(st.trendPerHour) ? '' : `${st.trendPerHour > 0 ? '+' : ''}${formatSeriesValue(s, st.trendPerHour)}/h`, { class: 'num' }));
    return tr;
  });
  table.tBodies[0].replaceChildren(...trs);
  for (const th of table.tHead.rows[0].cells) {
    th.setAttribute('aria-sort', th.dataset.key === sort.key ? (sort.dir > 0 ? 'ascending' : 'descending') : 'none');
  }
}

/** Where counterlens' values and PDH's own (Get-Counter's CookedValue) differ, for the selected series
 *  in the visible range: both have a value and they differ by more than 1e-9 relative. */
export function renderDifferences({ details, summary, table }, state, on) {
  const { capture, timestamps, info } = state;
  on = on && !!capture;
  details.hidden = !on;
  if (!on) return;
  const rows = [];
  let count = 0;
  const [from, to] = state.range ?? [-Infinity, Infinity];
  for (const i of selection(state)) {
    const ours = capture.values(i), pdh = capture.reference(i);
    if (!pdh) continue;
    for (let k = 0; k < ours.length; k++) {
      const [a, b] = [ours[k], pdh[k]];
      if (timestamps[k] < from || timestamps[k] > to || !Number.isFinite(a) || !Number.isFinite(b)) continue;
      if (Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b), 1e-300)) continue;
      count++;
      if (rows.length < 200) {
        const tr = el('tr', null, { 'data-index': String(i) });
        tr.append(el('td', formatTime(state, timestamps[k])), el('td', info[i].path), el('td', String(a), { class: 'num' }), el('td', String(b), { class: 'num' }), el('td', String(a - b), { class: 'num' }));
        rows.push(tr);
      }
    }
  }
  summary.textContent = count
    ? `Where counterlens and PDH differ: ${count} points${count > rows.length ? ` (the first ${rows.length} listed)` : ''}`
    : 'counterlens and PDH agree at every point of the selected series in this range';
  const head = el('tr');
  head.append(...['time', 'series', 'counterlens', 'PDH', 'difference'].map((h) => el('th', h)));
  const thead = el('thead');
  thead.append(head);
  const tbody = el('tbody');
  tbody.append(...rows);
  table.replaceChildren(thead, tbody);
  details.open = count > 0;
}
