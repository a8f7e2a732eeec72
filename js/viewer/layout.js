// The viewer's DOM: file controls, status line, series browser (aside), chart toolbar, chart box,
// statistics. Built once per mount; `ids` gives the parts document ids (`#chart`, `#series-list`, ...)
// for one viewer per page. Every part also carries `data-part` with the same name.
import { el } from './dom.js';
import { statsHeader } from './stats.js';

export function buildLayout(root, { chartOnly, ids }) {
  const parts = {};
  const part = (name, tag, text, attrs = {}) => {
    const e = el(tag, text, { ...attrs, 'data-part': name });
    if (ids) e.id = name;
    parts[name] = e;
    return e;
  };
  const button = (name, text, title) => part(name, 'button', text, { type: 'button', ...(title ? { title } : {}) });
  const controls = el('div', null, { class: 'capture-controls' });
  const fileLabel = el('label', 'Open a capture ');
  fileLabel.append(part('capture-file', 'input', null, { type: 'file', accept: '.blg,.csv,.tsv,.json,text/csv,text/tab-separated-values,application/json' }));
  const zoneLabel = el('label', 'Times in ');
  const zone = part('zone', 'select');
  zone.append(el('option', "the log's zone", { value: 'log' }), el('option', 'UTC', { value: 'utc' }));
  zoneLabel.append(zone);
  const themeLabel = el('label', 'Theme ');
  const theme = part('theme', 'select');
  theme.append(el('option', 'system', { value: 'auto' }), el('option', 'light', { value: 'light' }), el('option', 'dark', { value: 'dark' }));
  themeLabel.append(theme);
  controls.append(fileLabel, el('span', 'or drop a perfmon log (.blg), relog CSV/TSV, Get-Counter JSON or counterlens raw capture anywhere on the page', { class: 'muted' }), zoneLabel, themeLabel);
  const statusLine = el('p');
  const progress = part('chart-progress', 'progress', null, { max: '1', value: '0' });
  progress.hidden = true;
  const cancel = button('chart-cancel', 'Cancel');
  cancel.hidden = true;
  statusLine.append(part('chart-status', 'span', null, { role: 'status' }), ' ', progress, ' ', cancel);
  const notes = part('chart-notes', 'ul', null, { class: 'muted' });
  // What a shared link restored, and what it named that this file does not have.
  const shareNote = part('share-note', 'p', null, { role: 'status' });

  const aside = el('aside');
  aside.append(
    part('series-filter', 'input', null, { type: 'search', placeholder: 'Filter: words, or a path such as \\\\*\\Processor(*)\\% Processor Time', 'aria-label': 'Filter series' }),
    part('series-count', 'p', null, { class: 'muted' }),
  );
  // Acting on the matches: select them all (or Enter in the filter), clear the selection, or keep the N
  // busiest instances by a statistic over the visible range ("the 5 busiest processes").
  const act = el('div', null, { class: 'series-actions', role: 'group', 'aria-label': 'Select series' });
  const topN = part('series-top-n', 'select', null, { 'aria-label': 'How many' });
  for (const n of [3, 5, 10, 20]) topN.append(el('option', String(n), { value: String(n) }));
  topN.value = '5';
  const topBy = part('series-top-by', 'select', null, { 'aria-label': 'By' });
  for (const k of ['max', 'mean', 'p95']) topBy.append(el('option', k, { value: k }));
  act.append(button('series-select-all', 'Select all matches', 'Select every series the filter matches (Enter in the filter)'),
    button('series-clear', 'Clear', 'Deselect every series'),
    button('series-top', 'Top', 'Select only the top N matches by the statistic, over the visible range'), topN, el('span', ' by ', { class: 'muted' }), topBy);
  aside.append(act, part('series-list', 'div'));
  const tools = el('div', null, { class: 'chart-tools', role: 'toolbar', 'aria-label': 'Chart range and export' });
  // On a narrow screen the series list is a drawer: this button opens and closes it.
  if (!chartOnly) tools.append(part('series-drawer', 'button', 'Series', { type: 'button', 'aria-expanded': 'false', title: 'Show the series list' }));
  tools.append(button('zoom-in', 'Zoom in', 'Zoom in (+)'), button('zoom-out', 'Zoom out', 'Zoom out (-)'),
    button('pan-left', '\u2190', 'Pan left (Left arrow)'), button('pan-right', '\u2192', 'Pan right (Right arrow)'),
    button('zoom-reset', 'Reset', 'Whole capture (0, or double-click the chart)'), part('chart-range', 'span', null, { class: 'muted' }),
    button('export-png', 'Export PNG'), button('export-csv', 'Export CSV'));
  // Mixed units: an axis per unit (left and right), Perfmon's scale per counter, or log axes.
  const scaleLabel = el('label', 'Scale ');
  const scale = part('chart-scale', 'select');
  scale.append(el('option', 'an axis per unit', { value: 'units' }), el('option', 'per counter (Perfmon)', { value: 'perfmon' }), el('option', 'log', { value: 'log' }));
  scaleLabel.append(scale);
  tools.append(scaleLabel);
  // Get-Counter captures carry PDH's own values: drawn dashed beside ours, and where they differ listed.
  const overlay = part('pdh-overlay-label', 'label');
  overlay.append(part('pdh-overlay', 'input', null, { type: 'checkbox' }), ' PDH values');
  overlay.hidden = true;
  tools.append(overlay);
  const box = el('div', null, { class: 'chart-box' });
  box.append(
    part('chart', 'canvas', null, { tabindex: '0', 'aria-label': 'Time-series chart of the selected series: drag to zoom, shift-drag to pan, wheel to zoom, double-click to reset; arrow keys and + - 0 when focused' }),
    part('chart-selection', 'div'), part('chart-cursor', 'div'), part('chart-readout', 'div', null, { role: 'status' }));
  for (const n of ['chart-selection', 'chart-cursor', 'chart-readout']) parts[n].hidden = true;
  // The legend, outside the plot: click a name to hide or show its line, hover to highlight it.
  const legend = part('chart-legend', 'table', null, { class: 'grid chart-legend', 'aria-label': 'Legend: click a series to hide or show it' });
  const table = part('chart-stats', 'table', null, { class: 'grid' });
  statsHeader(table);
  const main = el('div', null, { class: 'chart-main' });
  // Clicking a point explains each selected series' value there, where the capture has the raw numbers.
  const explain = part('chart-explain', 'section', null, { 'aria-live': 'polite' });
  explain.hidden = true;
  const diffs = part('pdh-diffs', 'details');
  diffs.append(part('pdh-diffs-summary', 'summary'), part('pdh-diffs-table', 'table', null, { class: 'grid' }));
  diffs.hidden = true;
  const scroll = (t) => { const d = el('div', null, { class: 'table-scroll' }); d.append(t); return d; };
  // Further panes (series moved to them in the legend) stack under the first, sharing its time axis.
  const stack = part('chart-panes', 'div', null, { class: 'chart-panes' });
  stack.append(box);
  // Compare with another capture: a change table of the selected counters.
  const compare = part('compare', 'details');
  const compareControls = el('div', null, { class: 'capture-controls' });
  const compareLabel = el('label', 'Compare with ');
  compareLabel.append(part('compare-file', 'input', null, { type: 'file', accept: '.blg,.csv,.tsv,.json' }));
  const alignLabel = el('label', 'aligned by ');
  const align = part('compare-align', 'select');
  align.append(el('option', 'clock time', { value: 'clock' }), el('option', 'offset from each start', { value: 'offset' }));
  alignLabel.append(align);
  const overlayLabel = el('label');
  overlayLabel.append(part('compare-overlay', 'input', null, { type: 'checkbox' }), ' draw B over A (dashed)');
  compareControls.append(compareLabel, alignLabel, overlayLabel, button('compare-csv', 'Export the changes as CSV'));
  compare.append(el('summary', 'Compare with another capture'), compareControls, part('compare-status', 'p', null, { role: 'status' }),
    scroll(part('compare-table', 'table', null, { class: 'grid' })));
  main.append(tools, stack, scroll(legend), explain, el('p', 'Statistics of the visible range:', { class: 'muted' }), scroll(table), diffs, compare);
  // The Analysis panel (analysis-panel.js builds its inside): rule packs, findings, report.
  if (!chartOnly) main.append(part('analysis', 'section', null, { class: 'analysis-panel', 'aria-label': 'Analysis' }));
  const layout = part('chart-layout', 'div', null, { class: chartOnly ? 'chart-layout chart-only' : 'chart-layout' });
  if (!chartOnly) layout.append(aside);
  layout.append(main);
  root.classList.add('counterlens-viewer');
  // The verdict of the analysis run on open (verdict.js), at the top where it is seen without a scroll.
  const verdict = chartOnly ? null : part('verdict', 'section', null, { class: 'verdict', 'aria-label': 'Verdict of the analysis' });
  root.replaceChildren(...(chartOnly ? [statusLine, shareNote, layout] : [controls, statusLine, verdict, shareNote, notes, layout]));
  return parts;
}
