// The viewer's analysis: run as soon as a capture is read (in a Worker, worker.js, that keeps the capture
// between runs), shown as a verdict at the top of the page (verdict.js) and as finding cards in the
// Analysis panel (cards.js); run again when the packs, the answers or (when asked) the visible range
// change. "Show in context" charts a card's series around its range (padded with context) with its
// warning and critical thresholds and the range shaded, drawn by the core's chart (chart::draw, through
// the viewer's state.marks); Back restores the user's own selection and range. The panel also picks
// packs (built-in, a pack JSON file, PAL threshold XML picked or dropped), asks their questions (each
// saying where its value came from: the log, a default, an answer) and downloads analysisReport's
// self-contained HTML. A PAL import applies to the log it was imported on (pack-scope.js): the verdict
// says which rules produced it, with the way back to the built-in rules and the choice to keep the file
// for the next logs, and, while a PAL file is in play, the built-in analysis is run beside it in the
// Worker so the verdict can say where the two judge a counter differently. "Its normal" (analysis-normal.js):
// a baseline file, or a fleet's other logs of the machine, the log is judged against too (the cards
// "worse than its normal", pack "baseline", marked as such). Everything from a file
// (counter paths, pack and PAL text) is written with textContent. This module builds the panel and holds
// its results; the set-up is analysis-setup.js, the runs analysis-run.js, Show and Back analysis-focus.js.
import { el } from './dom.js';
import { offsetMinutes } from './state.js';
import { createVerdict } from './verdict.js';
import { renderCards, headline } from './cards.js';
import { createPackScope, rulesLine, disagreeLine } from './pack-scope.js';
import { sameFile } from './url-state.js';
import { describeAnalysisError } from './analysis-error.js';
import { createSetup } from './analysis-setup.js';
import { createRunner } from './analysis-run.js';
import { createFocus, contextRange } from './analysis-focus.js';
import { createNormal } from './analysis-normal.js';

export { describeAnalysisError, contextRange };

/**
 * @param {HTMLElement} root  the panel's section (layout.js part "analysis")
 * @param {{ state: object, verdict: HTMLElement|null, canvas: HTMLCanvasElement, show(indices: number[], range: [number, number]): void,
 *           restore(saved: object): void, redraw(): void, changed?(what: string): void, normalTold?(info: object|null): void }} hooks
 *        the viewer's state (the panel sets state.marks), the verdict region, the chart canvas, how to chart
 *        series over a range, restore a saved view, redraw, the viewer's scheduler (redraw.js), told
 *        `analysis` when a run's results come (without it, they are painted at once), and told what a
 *        fleet's normal came to (analysis-normal.js)
 */
export function mountAnalysisPanel(root, hooks) {
  const { state } = hooks;
  const scope = createPackScope(); // the pack files and PAL imports, and which of them this log uses
  let source; // the file identity (state.source) of the log the scope is for; undefined before the first
  let last = null; // { analysis, packs, builtin, took } of the last run (builtin: the built-in packs' run beside a PAL import)
  const cleanups = [];
  const on = (t, type, fn) => { t.addEventListener(type, fn); cleanups.push(() => t.removeEventListener(type, fn)); };
  const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });

  // ---- the DOM ----
  const cards = part('analysis-cards', 'div', null, { class: 'analysis-cards' });
  const summary = part('analysis-summary', 'p', null, { class: 'muted' });
  const run = part('analysis-run', 'button', 'Analyse again', { type: 'button' });
  const cancel = part('analysis-cancel', 'button', 'Cancel', { type: 'button' });
  cancel.hidden = true;
  const progress = part('analysis-progress', 'progress');
  progress.hidden = true;
  const status = part('analysis-status', 'span', null, { role: 'status' });
  const download = part('analysis-download', 'button', 'Download the report', { type: 'button' });
  download.hidden = true;
  const runLine = el('p', null, { class: 'analysis-run-line' });
  runLine.append(run, ' ', download, ' ', progress, ' ', cancel, ' ', status);
  const skipped = part('analysis-skipped', 'details');
  const variables = part('analysis-variables', 'details');

  const setup = createSetup({ state, scope, root, status, on, last: () => last, scheduleRun: () => runner.scheduleRun() });
  const normal = createNormal({ on, scheduleRun: () => runner.scheduleRun(), told: (info) => hooks.normalTold?.(info) });
  const runner = createRunner({ state, scope, setup, normal, root, verdict: () => verdict, parts: { run, cancel, progress, status, download }, onResults });
  root.setAttribute('data-own-drop', '');
  root.replaceChildren(el('h2', 'Analysis', { tabindex: '-1' }), summary, runLine, normal.element, cards, setup.element, skipped, variables);

  const context = () => {
    const offset = offsetMinutes(state);
    const tz = state.capture?.timeZone;
    // The core's sentences (the story, a card's summary) give times in the log's own clock: named when
    // the viewer shows another (UTC over a log whose zone is not).
    const storyZone = state.zone !== 'log' && tz && tz.biasMinutes !== 0 ? (tz.name || 'the log\'s zone') : null;
    return { info: state.info, offset, zoneName: state.zone === 'log' && tz ? (tz.name || 'log time') : 'UTC', storyZone, logOffset: tz ? -tz.biasMinutes : 0, normal: normal.inUse() };
  };
  const focus = createFocus({ state, scope, root, canvas: hooks.canvas, dark: hooks.dark, context, show: hooks.show, restore: hooks.restore, redraw: hooks.redraw });
  const showGroup = (k) => focus.showGroup(last?.analysis, k);

  const verdict = hooks.verdict ? createVerdict(hooks.verdict, {
    show: (k) => showGroup(k),
    cards: () => { root.scrollIntoView({ block: 'start' }); root.querySelector('h2')?.focus({ preventScroll: true }); },
    useBuiltin: () => { scope.useBuiltin(); setup.showCustom(); runner.onRun(); },
    reapply: () => setup.usePal(),
    keep: (keep) => { scope.keep(keep); setup.showCustom(); },
  }) : null;

  // ---- results: a run's, painted by the viewer's scheduler (`changed('analysis')`, then `paint`) ----
  function onResults(result) {
    last = result;
    if (hooks.changed) hooks.changed('analysis');
    else paint();
  }
  function paint() {
    if (!last) return;
    const { analysis } = last;
    const ctx = context();
    const ran = new Set(analysis.rules.filter((r) => !r.skipped).map((r) => r.pack));
    const fs = analysis.findings;
    const crit = fs.filter((f) => f.severity === 'critical').length;
    summary.textContent = ran.size
      ? `${fs.length} finding${fs.length === 1 ? '' : 's'} (${crit} critical, ${fs.length - crit} warning) in ${analysis.groups.length} card${analysis.groups.length === 1 ? '' : 's'}, from ${analysis.rules.filter((r) => !r.skipped).length} rules of ${[...ran].join(', ')} over ${analysis.slices.length} slices.`
      : 'No rule ran: no built-in pack knows these counters.';
    // The default ran: tick the packs it chose, so the next run (and its questions) are the same.
    setup.afterRun(last.packs ? null : ran);
    renderCards(cards, analysis, ctx);
    verdict?.show(analysis, { ...ctx, sentence: (g) => headline(analysis, g, ctx), rules: rulesLine(scope, analysis, setup.builtins), disagree: disagreeLine(scope, analysis, last.builtin, state.info) });
    const skip = analysis.rules.filter((r) => r.skipped);
    skipped.replaceChildren(el('summary', `Rules that did not run: ${skip.length} of ${analysis.rules.length}`), el('ul'));
    skipped.lastChild.append(...skip.map((r) => el('li', `${r.pack} / ${r.title || r.rule}: ${r.skipped}`)));
    variables.replaceChildren(el('summary', `Variables used: ${Object.keys(analysis.variables).length}`), el('ul'));
    variables.lastChild.append(...Object.entries(analysis.variables).map(([n, v]) => el('li', `${n} = ${v} (${{ user: 'your answer', capture: 'from the log', bound: 'at least this, from the log', pack: "the pack's default" }[analysis.variableSources[n]] ?? analysis.variableSources[n]})`)));
    download.hidden = false;
    setup.showQuestions();
  }

  function onCardsClicked(e) {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.show !== undefined) showGroup(Number(b.dataset.show));
    else if (b.dataset.answer) setup.ask(b.dataset.answer);
  }

  // ---- events ----
  on(run, 'click', runner.onRun);
  on(cancel, 'click', () => { runner.stopRun(); status.textContent = 'Analysis cancelled.'; verdict?.error('cancelled'); });
  on(cards, 'click', onCardsClicked);
  on(download, 'click', () => runner.onDownload(last));
  setup.showCustom();

  return {
    /** A new capture is open: old results cleared, the analysis run at once. */
    captureChanged() {
      runner.reset();
      last = null;
      focus.reset();
      for (const n of [cards, skipped, variables]) n.replaceChildren();
      summary.textContent = '';
      status.textContent = '';
      download.hidden = true;
      setup.untick();
      // Another log (not the same file read again for other series): a PAL import stays with the log it
      // was imported on unless the user chose to keep it.
      if (source !== undefined && !sameFile(source, state.source)) scope.nextLog();
      source = state.source ?? null;
      setup.showCustom();
      normal.captureChanged(state.sourceName);
      runner.onRun();
    },
    /** The fleet opens log `name`: its machine's other logs (`[{ name, file }]`) are its normal (none: empty). */
    normalFromLogs: (name, logs) => normal.fromFleet(name, logs),
    /** The theme changed: the derived chart is drawn again in it. */
    redraw: () => focus.redraw(),
    /** The last run's results (the summary, cards, verdict, rules left out, variables, questions). */
    paint,
    /** The visible range changed: a run again when the analysis follows it. */
    rangeChanged() {
      if (setup.rangeOnly() && !focus.showing()) runner.scheduleRun();
    },
    destroy() {
      runner.stop();
      cleanups.forEach((f) => f());
      focus.destroy();
      verdict?.clear();
    },
  };
}
