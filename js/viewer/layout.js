// The viewer's DOM: a bar with the open log (its name and facts) and the actions, the status and notes,
// a drop zone while nothing is open, the series browser as a sidebar (a drawer on narrow screens), and
// the main column: the verdict's slot first, then the chart toolbar, the chart panes, the legend, the
// statistics, compare and the Analysis panel. Built once per mount; `ids` gives the parts document ids
// (`#chart`, `#series-list`, ...) for one viewer per page. Every part also carries `data-part` with the
// same name. The styles (and the design tokens) are in viewer.css.
import { el } from './dom.js';
import { statsHeader } from './stats.js';

const ACCEPT = '.blg,.csv,.tsv,.json,text/csv,text/tab-separated-values,application/json';

/** The sidebar: the series browser (its filter, count, actions on the matches, and the tree). */
function buildSidebar(part, button) {
  const aside = part('series-sidebar', 'aside', null, { 'aria-label': 'Series' });
  const head = el('div', null, { class: 'cl-aside-head' });
  head.append(part('series-heading', 'h2', 'Series'), button('series-drawer-close', 'Close', 'Close the series list (Escape)'));
  aside.append(head,
    part('series-filter', 'input', null, { type: 'search', placeholder: 'Filter: words, or \\\\*\\Processor(*)\\% Processor Time', 'aria-label': 'Filter series' }),
    part('series-count', 'p', null, { class: 'muted', 'aria-live': 'polite' }),
  );
  // Acting on the matches: select them all (or Enter in the filter), clear the selection, or keep the N
  // busiest instances by a statistic over the visible range ("the 5 busiest processes").
  const act = el('div', null, { class: 'series-actions', role: 'group', 'aria-label': 'Select series' });
  const topN = part('series-top-n', 'select', null, { 'aria-label': 'How many' });
  for (const n of [3, 5, 10, 20]) topN.append(el('option', String(n), { value: String(n) }));
  topN.value = '5';
  const topBy = part('series-top-by', 'select', null, { 'aria-label': 'By' });
  for (const k of ['max', 'mean', 'p95']) topBy.append(el('option', k, { value: k }));
  const totals = el('label', null, { class: 'cl-check', title: 'Count _Total, Idle and other aggregates among the top N' });
  totals.append(part('series-top-totals', 'input', null, { type: 'checkbox' }), 'include _Total and Idle');
  act.append(button('series-select-all', 'Select all matches', 'Select every series the filter matches (Enter in the filter)'),
    button('series-clear', 'Clear', 'Deselect every series'),
    button('series-top', 'Top', 'Select only the top N matches by the statistic, over the visible range'), topN, el('span', 'by', { class: 'muted' }), topBy, totals);
  aside.append(act, part('series-list', 'div', null, { role: 'tree', 'aria-label': 'Series by machine, object, counter and instance', 'aria-multiselectable': 'true' }));
  return aside;
}

export function buildLayout(root, { chartOnly, ids }) {
  const parts = {};
  const part = (name, tag, text, attrs = {}) => {
    const e = el(tag, text, { ...attrs, 'data-part': name });
    if (ids) e.id = name;
    parts[name] = e;
    return e;
  };
  const button = (name, text, title, cls) => part(name, 'button', text, { type: 'button', ...(title ? { title } : {}), ...(cls ? { class: cls } : {}) });
  const field = (text, control) => {
    const label = el('label', text, { class: 'cl-field' });
    label.append(control);
    return label;
  };

  // ---- the bar: Open (a button over the file input), the log's name and facts, the actions ----
  const bar = part('viewer-bar', 'div', null, { class: 'cl-bar', role: 'region', 'aria-label': 'Open log' });
  const open = el('label', 'Open a log', { class: 'cl-button cl-primary cl-file', title: 'Open a perfmon log (.blg), relog CSV/TSV, Get-Counter JSON or counterlens raw capture; or drop it on the page' });
  open.append(part('capture-file', 'input', null, { type: 'file', accept: ACCEPT }));
  const facts = el('div', null, { class: 'cl-bar-facts' });
  const progress = part('chart-progress', 'progress', null, { max: '1', value: '0', 'aria-label': 'Reading' });
  progress.hidden = true;
  const cancel = button('chart-cancel', 'Cancel');
  cancel.hidden = true;
  const statusLine = el('div', null, { class: 'cl-status-line' });
  // After a failed open, what to do about it (the status says what went wrong).
  const hint = part('chart-hint', 'span', 'What to do: open the log as Perfmon or logman saved it (.blg), or as relog wrote it (relog log.blg -f csv -o log.csv); a log still being written can be cut short, so copy it once the collector has stopped.', { class: 'cl-hint' });
  hint.hidden = true;
  statusLine.append(part('chart-status', 'span', null, { role: 'status' }), hint, progress, cancel);
  facts.append(part('capture-name', 'div'), part('capture-facts', 'ul', null, { class: 'cl-facts', 'aria-label': 'About this log' }), statusLine);
  const file = el('div', null, { class: 'cl-bar-file' });
  file.append(open, facts);
  const zone = part('zone', 'select');
  zone.append(el('option', "the log's zone", { value: 'log' }), el('option', 'UTC', { value: 'utc' }));
  const theme = part('theme', 'select');
  theme.append(el('option', 'system', { value: 'auto' }), el('option', 'light', { value: 'light' }), el('option', 'dark', { value: 'dark' }));
  const actions = el('div', null, { class: 'cl-bar-actions' });
  actions.append(button('copy-link', 'Copy link', 'Copy a link to this view (series, range, scale, theme) to the clipboard'), field('Times in', zone), field('Theme', theme));
  bar.append(file, actions);
  // Chart-only viewers keep the status and progress, without the file and actions.
  const chartOnlyStatus = el('div', null, { class: 'cl-status-line' });
  if (chartOnly) chartOnlyStatus.append(parts['chart-status'], hint, progress, cancel);

  const notes = part('chart-notes', 'ul', null, { class: 'muted' });
  // What a shared link restored, and what it named that this file does not have.
  const shareNote = part('share-note', 'p', null, { role: 'status', class: 'cl-note' });
  // While nothing is open: where to drop a log, and the same Open as the bar's.
  const dropzone = part('dropzone', 'div');
  dropzone.append(el('strong', 'Drop a performance log here'),
    el('span', 'A perfmon log (.blg), a relog CSV or TSV, Get-Counter JSON or a counterlens raw capture. It is read here, in this page: nothing is uploaded.'),
    button('dropzone-open', 'Choose a file', null, 'cl-primary'));

  const aside = buildSidebar(part, button);

  // ---- the chart toolbar ----
  const tools = el('div', null, { class: 'chart-tools', role: 'toolbar', 'aria-label': 'Chart range and export' });
  // On a narrow screen the series list is a drawer: this button opens it.
  if (!chartOnly) tools.append(part('series-drawer', 'button', 'Series', { type: 'button', 'aria-expanded': 'false', ...(ids ? { 'aria-controls': 'series-sidebar' } : {}), title: 'Show the series list' }));
  const zoomGroup = el('span', null, { class: 'cl-group', role: 'group', 'aria-label': 'Zoom and pan' });
  zoomGroup.append(button('zoom-in', 'Zoom in', 'Zoom in (+)'), button('zoom-out', 'Zoom out', 'Zoom out (-)'),
    button('pan-left', '\u2190', 'Pan left (Shift+Left arrow)'), button('pan-right', '\u2192', 'Pan right (Shift+Right arrow)'),
    button('zoom-reset', 'Reset', 'Whole capture (0, or double-click the chart)'));
  parts['pan-left'].setAttribute('aria-label', 'Pan left');
  parts['pan-right'].setAttribute('aria-label', 'Pan right');
  // Mixed units: an axis per unit (left and right), Perfmon's scale per counter, or log axes.
  const scale = part('chart-scale', 'select');
  scale.append(el('option', 'an axis per unit', { value: 'units' }), el('option', 'per counter (Perfmon)', { value: 'perfmon' }), el('option', 'log', { value: 'log' }));
  // One counter across several machines: one chart, or one small chart per machine.
  const view = part('chart-view', 'select');
  view.append(el('option', 'one chart', { value: 'one' }), el('option', 'a chart per machine', { value: 'machines' }));
  const viewLabel = field('View', view);
  viewLabel.hidden = true;
  parts['chart-view-label'] = viewLabel;
  // Get-Counter captures carry PDH's own values: drawn dashed beside ours, and where they differ listed.
  const overlay = part('pdh-overlay-label', 'label', null, { class: 'cl-check' });
  overlay.append(part('pdh-overlay', 'input', null, { type: 'checkbox' }), 'PDH values');
  overlay.hidden = true;
  const exportGroup = el('span', null, { class: 'cl-group', role: 'group', 'aria-label': 'Export' });
  exportGroup.append(button('export-png', 'Export PNG'), button('export-csv', 'Export CSV'));
  tools.append(zoomGroup, field('Scale', scale), viewLabel, overlay, el('span', null, { class: 'cl-spacer' }), exportGroup);
  const range = part('chart-range', 'p', null, { class: 'muted' });

  const box = el('div', null, { class: 'chart-box' });
  box.append(
    part('chart', 'canvas', null, { tabindex: '0', role: 'img', 'aria-label': 'Time-series chart of the selected series. Left and right arrows move the crosshair (its values are read out), Shift+arrows pan, + and - zoom, 0 resets; drag to zoom, shift-drag to pan, double-click to reset' }),
    part('chart-selection', 'div'), part('chart-cursor', 'div'), part('chart-readout', 'div'));
  for (const n of ['chart-selection', 'chart-cursor', 'chart-readout']) parts[n].hidden = true;
  // The keyboard crosshair's values, said by screen readers (the readout box over the chart is visual).
  const live = part('chart-live', 'div', null, { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'true' });
  // The legend, outside the plot: click a name to hide or show its line, hover to highlight it.
  const legend = part('chart-legend', 'table', null, { class: 'grid chart-legend', 'aria-label': 'Legend: click a series to hide or show it' });
  const table = part('chart-stats', 'table', null, { class: 'grid', 'aria-label': 'Statistics of the visible range' });
  statsHeader(table);
  // Nothing selected: say what to do instead of an empty chart and empty tables.
  const empty = part('chart-empty', 'p', 'No series selected. Pick some in the series list, type a filter and press Enter, or use Top.', { class: 'cl-empty' });
  empty.hidden = true;
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
  // What the viewer chose on its own (the default selection of a log of several machines), with a way out.
  const selectionNote = part('selection-note', 'p', null, { class: 'cl-note', role: 'status' });
  // Compare with another capture: a change table of the selected counters.
  const compare = part('compare', 'details');
  const compareControls = el('div', null, { class: 'capture-controls' });
  const compareLabel = el('label', 'Compare with ', { class: 'cl-field' });
  compareLabel.append(part('compare-file', 'input', null, { type: 'file', accept: '.blg,.csv,.tsv,.json' }));
  const align = part('compare-align', 'select');
  align.append(el('option', 'clock time', { value: 'clock' }), el('option', 'offset from each start', { value: 'offset' }));
  const overlayLabel = el('label', null, { class: 'cl-check' });
  overlayLabel.append(part('compare-overlay', 'input', null, { type: 'checkbox' }), 'draw B over A (dashed)');
  compareControls.append(compareLabel, field('aligned by', align), overlayLabel, button('compare-csv', 'Export the changes as CSV'));
  compare.append(el('summary', 'Compare with another capture'), compareControls, part('compare-status', 'p', null, { role: 'status' }),
    scroll(part('compare-table', 'table', null, { class: 'grid' })));
  // The verdict's slot (the verdict summary and finding cards): the first thing in the main column.
  if (!chartOnly) main.append(part('verdict', 'section', null, { 'aria-label': 'Verdict' }));
  main.append(selectionNote, tools, range, stack, part('multiples', 'div'), live, empty, scroll(legend), explain,
    el('h2', 'Statistics of the visible range', { class: 'cl-section-title' }), scroll(table), diffs, compare);
  // The Analysis panel (analysis-panel.js builds its inside): rule packs, findings, report.
  if (!chartOnly) main.append(part('analysis', 'section', null, { class: 'analysis-panel', 'aria-label': 'Analysis' }));
  const layout = part('chart-layout', 'div', null, { class: chartOnly ? 'chart-layout chart-only' : 'chart-layout' });
  // Behind the open drawer: a tap on it closes the drawer.
  const scrim = part('drawer-scrim', 'div');
  if (!chartOnly) layout.append(scrim, aside);
  layout.append(main);
  root.classList.add('counterlens-viewer');
  // The verdict of the analysis run on open (verdict.js), at the top where it is seen without a scroll.
  const verdict = chartOnly ? null : part('verdict', 'section', null, { class: 'verdict', 'aria-label': 'Verdict of the analysis' });
  root.replaceChildren(...(chartOnly ? [chartOnlyStatus, shareNote, layout] : [bar, verdict, notes, shareNote, dropzone, layout]));
  return parts;
}
