// The viewer's toolbar and bar: the time zone of the labels, the value scale, the theme (and the
// system's, followed while it is 'auto'), one chart or a chart per machine, PDH's own values overlaid,
// zoom and pan buttons, the statistics' order, Copy link, and the PNG and CSV exports. Each handler
// changes the state and says what changed (redraw.js).
import { el } from './dom.js';
import { encodeView, viewUrl } from './url-state.js';
import { nextSort } from './stats.js';
import { exportPng, exportCsv } from './export.js';
import { seriesColor } from '../core.js';

/** @param {object} v  the viewer (index.js): `$`, state, options, element, on, dark, pane, setRange, changed
 *  @returns {{ setTheme(theme: 'auto'|'light'|'dark'): void }} */
export function mountToolbar(v) {
  const { $, state, options, element, on } = v;

  function setTheme(theme) {
    state.theme = theme;
    $.theme.value = theme;
    for (const e of [element, options.themeRoot].filter(Boolean)) {
      e.classList.toggle('theme-dark', theme === 'dark');
      e.classList.toggle('theme-light', theme === 'light');
    }
    v.changed('theme');
  }

  function onStatsSortClicked(e) {
    const th = e.target.closest('th');
    if (!th || !state.capture) return;
    state.sort = nextSort(state.sort, th.dataset.key);
    v.changed('sort');
  }
  /** Copies a link to this view (the page's address with the view in its hash) to the clipboard; where
   *  the clipboard is refused, shows the link to copy by hand. */
  async function onCopyLink() {
    if (!state.capture) return;
    const url = viewUrl(encodeView(state));
    const button = $['copy-link'];
    try {
      await navigator.clipboard.writeText(url);
      button.textContent = 'Link copied';
      setTimeout(() => { button.textContent = 'Copy link'; }, 2000);
    } catch {
      const field = el('input', null, { type: 'text', readonly: '', value: url, 'aria-label': 'Link to this view', size: '60' });
      $['share-note'].replaceChildren('The clipboard was not available: copy this link. ', field);
      field.select();
    }
  }
  function onExportPng() {
    if (!state.capture) return;
    // The legend's entries as shown (with Perfmon's factor where scaled), the full path and the unit.
    const factor = (i) => /\(x[^)]*\)$/.exec($['chart-legend'].querySelector(`button[data-index="${i}"]`)?.textContent ?? '')?.[0];
    const rows = [...state.selected].sort((a, b) => a - b).filter((i) => !state.hidden.has(i))
      .map((i) => ({ color: seriesColor(state.slots.get(i)), name: `${state.info[i].path}${state.info[i].englishPath ? ` (${state.info[i].englishPath})` : ''}${factor(i) ? ' ' + factor(i) : ''} — ${state.info[i].unit}` }));
    exportPng($.chart, state, rows, $['chart-range'].textContent);
  }

  on($.zone, 'change', (e) => { state.zone = e.target.value; v.changed('zone'); });
  on($['chart-scale'], 'change', (e) => { state.yScale = e.target.value; v.changed('scale'); });
  on($.theme, 'change', (e) => setTheme(e.target.value));
  on($['chart-view'], 'change', () => v.changed('view'));
  on($['pdh-overlay'], 'change', () => v.changed('references'));
  on($['zoom-in'], 'click', () => v.pane.zoom(0.5));
  on($['zoom-out'], 'click', () => v.pane.zoom(2));
  on($['pan-left'], 'click', () => v.pane.pan(-0.25));
  on($['pan-right'], 'click', () => v.pane.pan(0.25));
  on($['zoom-reset'], 'click', () => v.setRange(null));
  on($['copy-link'], 'click', onCopyLink);
  on($['export-png'], 'click', onExportPng);
  on($['export-csv'], 'click', () => exportCsv(state));
  on($['chart-stats'].tHead, 'click', onStatsSortClicked);
  // The system's theme, followed while the choice is 'auto'.
  on(v.dark, 'change', () => v.changed('theme'));

  return { setTheme };
}
