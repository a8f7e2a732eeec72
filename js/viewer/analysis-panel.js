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
// Worker so the verdict can say where the two judge a counter differently. Everything from a file
// (counter paths, pack and PAL text) is written with textContent.
import { rulePacks, importPalThresholds } from '../core.js';
import { el } from './dom.js';
import { offsetMinutes } from './state.js';
import { createVerdict } from './verdict.js';
import { renderCards, sentence, headline, cardThresholds } from './cards.js';
import { createPackScope, rulesLine, disagreeLine, ruleCounter } from './pack-scope.js';
import { sameFile } from './url-state.js';
import { createDerivedChart } from './derived.js';

/** How an analysis error reads, with where it was (a pack's JSON pointer or line, a variable, a file). */
export function describeAnalysisError(e) {
  const where = [e?.file, e?.pointer && `at ${e.pointer}`, e?.line && `line ${e.line}${e.column ? `, column ${e.column}` : ''}`, e?.variable && `variable ${e.variable}`]
    .filter(Boolean).join(', ');
  return `${e?.name ?? 'Error'}${e?.code ? ` (${e.code})` : ''}: ${e?.message ?? String(e)}${where && !String(e?.message).includes(where) ? ` [${where}]` : ''}`;
}

/** The view around a finding: at least as long again on each side, and at least 20 samples wide. */
export function contextRange([start, end], interval) {
  const width = Math.max(end - start, 1);
  const pad = Math.max(width, ((20 * (interval || 1000)) - width) / 2, interval || 1000);
  return [start - pad, end + pad];
}

/** What a PAL import translated (of how many, the inherited files not given), what it left out and why,
 *  and its notes: the panel's elements. */
function palImportReport(names, result) {
  const head = el('p', `PAL import of ${names.join(', ')}: ${result.translated} of ${result.total} thresholds translated` +
    (result.missingFiles.length ? `; inherited files not given: ${result.missingFiles.join(', ')}` : '') + '.', { 'data-part': 'analysis-pal-summary' });
  const why = el('details');
  why.append(el('summary', `${result.untranslated.length} thresholds left out, and why`));
  const list = el('ul', null, { 'data-part': 'analysis-pal-untranslated' });
  list.append(...result.untranslated.map((u) => el('li', `${u.analysis} / ${u.threshold}: ${u.reason}`)));
  why.append(list);
  return [head, why, ...result.notes.map((n) => el('p', n, { class: 'muted' }))];
}

/** Series shown at most by Show (the worst first). */
const SHOW_MAX = 8;

/**
 * @param {HTMLElement} root  the panel's section (layout.js part "analysis")
 * @param {{ state: object, verdict: HTMLElement|null, canvas: HTMLCanvasElement, show(indices: number[], range: [number, number]): void,
 *           restore(saved: object): void, redraw(): void }} hooks
 *        the viewer's state (the panel sets state.marks), the verdict region, the chart canvas, how to chart
 *        series over a range, restore a saved view, and redraw
 */
export function mountAnalysisPanel(root, hooks) {
  const { state } = hooks;
  const builtins = rulePacks();
  const scope = createPackScope(); // the pack files and PAL imports, and which of them this log uses
  let source; // the file identity (state.source) of the log the scope is for; undefined before the first
  let running = null; // the Worker while an analysis runs
  let analyst = null; // { worker, capture }: the Worker holding the capture analysed, kept between runs
  let last = null; // { analysis, packs, builtin } of the last run (builtin: the built-in packs' run beside a PAL import)
  let saved = null; // the user's view before Show: { selected, slots, hidden, paneOf, range }
  let rerun = 0; // the timer of a re-run after a change
  const cleanups = [];
  const on = (t, type, fn) => { t.addEventListener(type, fn); cleanups.push(() => t.removeEventListener(type, fn)); };
  const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });
  const endAnalyst = () => {
    analyst?.worker.terminate();
    analyst = null;
  };

  // ---- the DOM ----
  const cards = part('analysis-cards', 'div', null, { class: 'analysis-cards' });
  const summary = part('analysis-summary', 'p', null, { class: 'muted' });
  const setup = part('analysis-setup', 'details');
  setup.append(el('summary', 'Rule packs, questions and files'));
  const packList = part('analysis-packs', 'fieldset');
  packList.append(el('legend', 'Built-in rule packs'));
  const autoNote = part('analysis-auto', 'p', 'None ticked: every built-in pack whose counters this log has (the default; the packs that ran are ticked after the first run).', { class: 'muted' });
  for (const p of builtins) {
    const label = el('label', null, { title: p.description });
    label.append(el('input', null, { type: 'checkbox', value: p.id, 'data-pack': p.id }), ` ${p.title} (${p.rules} rules)`);
    packList.append(label);
  }
  packList.append(autoNote);
  const packFile = part('analysis-pack-file', 'input', null, { type: 'file', accept: '.json,application/json' });
  const palFiles = part('analysis-pal-files', 'input', null, { type: 'file', accept: '.xml,text/xml', multiple: '' });
  const fileLine = el('p');
  const l1 = el('label', 'A pack file (JSON) ');
  l1.append(packFile);
  const l2 = el('label', ' or PAL threshold files (XML, several at once so inheritance resolves; or drop them on this panel) ');
  l2.append(palFiles);
  fileLine.append(l1, l2);
  const customList = part('analysis-custom', 'ul');
  const palReport = part('analysis-pal', 'div');
  const questions = part('analysis-questions', 'fieldset');
  const rangeOnly = part('analysis-range-only', 'input', null, { type: 'checkbox' });
  const rangeLabel = el('label', null, { class: 'analysis-range' });
  rangeLabel.append(rangeOnly, ' Analyse only the visible time range (again as it changes)');
  setup.append(packList, fileLine, customList, palReport, questions, rangeLabel);
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
  root.setAttribute('data-own-drop', '');
  root.replaceChildren(el('h2', 'Analysis', { tabindex: '-1' }), summary, runLine, cards, setup, skipped, variables);

  // The bar over the chart while a card is shown: what it shows, and Back to the user's own view.
  const focusBar = part('analysis-focus', 'div', null, { class: 'analysis-focus', role: 'status' });
  focusBar.hidden = true;
  const focusText = el('span', null, { 'data-part': 'analysis-focus-text' });
  const back = part('analysis-back', 'button', 'Back to your view', { type: 'button' });
  focusBar.append(focusText, ' ', back);
  hooks.canvas.closest('.chart-panes')?.before(focusBar);
  // A derived series' own chart (derived.js), between the bar and the main chart (which shows its inputs):
  // made the first time a derived card is shown, so a page without one has no second canvas.
  let derivedBox = null;
  let derivedChart = null;
  const derivedChartNow = () => {
    if (!derivedChart) {
      derivedBox = part('analysis-derived', 'section', null, { class: 'analysis-derived', 'aria-label': 'Derived series' });
      focusBar.after(derivedBox);
      derivedChart = createDerivedChart(derivedBox, state, { dark: () => hooks.dark?.() ?? false, describe: describeAnalysisError });
    }
    return derivedChart;
  };

  const verdict = hooks.verdict ? createVerdict(hooks.verdict, {
    show: (k) => showGroup(k),
    cards: () => { root.scrollIntoView({ block: 'start' }); root.querySelector('h2')?.focus({ preventScroll: true }); },
    useBuiltin: () => { scope.useBuiltin(); showCustom(); onRun(); },
    reapply: () => usePal(),
    keep: (on) => { scope.keep(on); showCustom(); },
  }) : null;

  // ---- packs and questions ----
  const ticked = () => [...packList.querySelectorAll('input[data-pack]:checked')].map((i) => i.value);
  /** What analyze gets as `packs`: undefined for its default (nothing ticked, no file). */
  function chosenPacks() {
    const ids = ticked();
    const active = scope.active();
    if (!ids.length && !active.length) return undefined;
    return [...ids, ...active.map((c) => c.pack)];
  }

  /** The questions of the packs in play, one input each; each says where its value comes from. */
  function showQuestions() {
    const asked = new Map();
    const ids = ticked();
    const active = scope.active();
    const from = [...(ids.length || active.length ? builtins.filter((p) => ids.includes(p.id)) : builtins), ...active.map((c) => c.pack)];
    for (const p of from) for (const v of p.variables ?? []) if (!asked.has(v.name)) asked.set(v.name, v);
    const previous = new Map([...questions.querySelectorAll('input[data-variable]')].map((i) => [i.dataset.variable, i]));
    questions.replaceChildren(el('legend', asked.size ? 'Questions (an answer given here wins; emptied, the log or the default applies)' : 'No questions'));
    const a = last?.analysis;
    for (const v of asked.values()) {
      const used = a?.variables?.[v.name];
      const origin = a?.variableSources?.[v.name];
      const derived = v.derive === 'logicalProcessors' ? state.capture?.logicalProcessors() ?? null : null;
      const shown = origin === 'capture' || origin === 'bound' ? used : derived ?? v.default;
      const input = el('input', null, { type: v.type === 'string' ? 'text' : 'number', step: 'any', 'data-variable': v.name });
      const old = previous.get(v.name);
      input.value = old && old.value !== old.dataset.initial ? old.value : String(shown);
      input.dataset.initial = String(shown);
      const label = el('label', `${v.question || v.name} `);
      const where = origin === 'user' ? 'answered' : origin === 'bound' ? `at least ${shown}, from the log: the most it shows free; give the real figure if you know it` : origin === 'capture' || derived !== null ? `from the log: ${shown}` : `default ${v.default}: an answer to confirm`;
      label.append(input, el('span', ` (${where})`, { class: origin === 'pack' || (origin === undefined && derived === null) ? 'muted default' : 'muted', 'data-origin': origin ?? (derived !== null ? 'capture' : 'pack') }));
      questions.append(label);
    }
  }

  /** The answers the user changed (the others are left to the core: the log, then the pack's default). */
  function answers() {
    const out = {};
    for (const i of questions.querySelectorAll('input[data-variable]')) {
      if (i.value === '' || i.value === i.dataset.initial) continue;
      out[i.dataset.variable] = i.type === 'number' && Number.isFinite(Number(i.value)) ? Number(i.value) : i.value;
    }
    return out;
  }

  /** The pack files and PAL imports: in use on this log (and whether kept for the next), or set aside
   *  with a way to use them here. */
  function showCustom() {
    customList.replaceChildren(...scope.entries.map((c, k) => {
      const now = c.off ? 'set aside: not used on this log' : c.kind !== 'pal' ? 'used on every log' : c.keep ? 'used on this log, kept for the next logs' : 'used on this log only';
      const li = el('li', `${c.kind === 'pal' ? 'PAL import' : 'Pack file'}: ${c.label} (${c.pack.rules?.length ?? 0} rules): ${now} `);
      if (c.off) li.append(el('button', 'Use for this log', { type: 'button', 'data-reapply': String(k) }), ' ');
      li.append(el('button', 'Remove', { type: 'button', 'data-remove': String(k) }));
      return li;
    }));
    autoNote.hidden = scope.active().length > 0 || ticked().length > 0;
    showQuestions();
  }

  /** A PAL import set aside (the latest, or entry `k`) analyses this log again, alone as when imported. */
  function usePal(k) {
    if (!scope.reapply(k)) return;
    for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = false;
    showCustom();
    scheduleRun();
  }

  async function onPackFile() {
    const f = packFile.files[0];
    if (!f) return;
    const text = await f.text();
    try {
      const pack = JSON.parse(text);
      if (!pack || typeof pack !== 'object' || Array.isArray(pack)) throw new Error('a rule pack is a JSON object');
      scope.add({ label: f.name, pack, kind: 'json' });
      status.textContent = '';
      showCustom();
      scheduleRun();
    } catch (e) {
      status.textContent = `${f.name} is not a rule pack: ${e.message}`;
      showCustom();
    }
    packFile.value = '';
  }

  async function importPal(fileList) {
    const files = [...fileList].filter((f) => f.name.toLowerCase().endsWith('.xml') || f.type.includes('xml'));
    if (!files.length) return;
    const texts = {};
    for (const f of files) texts[f.name] = await f.text();
    try {
      const result = importPalThresholds(texts);
      // For this log, alone (the built-in packs set aside: the verdict offers them back and compares).
      scope.add({ label: files.map((f) => f.name).join(', '), pack: result.pack, kind: 'pal' });
      for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = false;
      palReport.replaceChildren(...palImportReport(files.map((f) => f.name), result));
      status.textContent = '';
      setup.open = true;
      showCustom();
      scheduleRun();
    } catch (e) {
      palReport.replaceChildren(el('p', describeAnalysisError(e), { 'data-part': 'analysis-pal-summary' }));
      setup.open = true;
      showCustom();
    }
    palFiles.value = '';
  }

  // ---- running, in a Worker ----
  /** A run a moment after the last change (typing an answer, ticking packs), not on every keystroke. */
  function scheduleRun() {
    clearTimeout(rerun);
    if (state.capture) rerun = setTimeout(onRun, 350);
  }

  function onRun() {
    clearTimeout(rerun);
    const capture = state.capture;
    if (!capture) { status.textContent = 'Open a capture first.'; return; }
    if (running) stopRun();
    const options = { variables: answers() };
    const packs = chosenPacks();
    if (packs) options.packs = packs;
    if (rangeOnly.checked && state.range) [options.from, options.to] = state.range;
    // With a PAL import in play, the built-in packs' analysis too (about 20 ms), for the verdict to say
    // where the two disagree.
    const builtinJob = scope.pal().length ? { variables: options.variables, ...(options.from !== undefined ? { from: options.from, to: options.to } : {}) } : null;
    // The worker keeps the capture between runs: its columns are copied over once per capture, and a
    // run on the same capture (other packs, other answers) sends its options alone.
    if (analyst?.capture !== capture) endAnalyst();
    const job = { options, ...(builtinJob ? { builtin: builtinJob } : {}) };
    let transfer = [];
    if (!analyst) {
      analyst = { worker: new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }), capture };
      job.parts = capture.toParts();
      transfer = [job.parts.timestamps.buffer, ...job.parts.series.flatMap((s) => [s.values, s.reference, ...(s.raw ? [s.raw.value, s.raw.second, s.raw.frequency, s.raw.multi, s.raw.present] : [])]
        .filter(Boolean).map((a) => a.buffer))];
    }
    const worker = analyst.worker;
    running = worker;
    root.dataset.transfers = String(Number(root.dataset.transfers ?? 0) + (job.parts ? 1 : 0));
    const text = `Analysing ${capture.seriesCount.toLocaleString('en-US')} series with ${packs ? `${packs.length} pack${packs.length === 1 ? '' : 's'}` : 'every built-in pack that applies'}…`;
    setRunning(true, text);
    verdict?.running(text, rulesLine(scope, null, builtins));
    const started = performance.now();
    worker.onmessage = ({ data }) => {
      if (running !== worker || data.report !== undefined) return;
      running = null;
      setRunning(false);
      if (data.error) {
        status.textContent = describeAnalysisError(data.error);
        verdict?.error(status.textContent, rulesLine(scope, null, builtins));
        return;
      }
      last = { analysis: data.analysis, packs, builtin: data.builtin ?? null, took: Math.round(performance.now() - started) };
      status.textContent = `Done in ${last.took} ms.`;
      root.dataset.took = String(last.took);
      showResults();
    };
    worker.onerror = (e) => { stopRun(); status.textContent = `The analysis stopped: ${e.message || 'worker error'}`; verdict?.error(status.textContent); };
    worker.postMessage({ analyze: job }, transfer);
  }
  function setRunning(busy, text) {
    progress.hidden = !busy;
    cancel.hidden = !busy;
    run.disabled = busy;
    root.dataset.running = String(busy);
    if (text !== undefined) status.textContent = text;
  }
  /** Ends a run: the worker is ended with it (a run cannot be interrupted otherwise), and the capture it
   *  held goes with it. */
  function stopRun() {
    if (running) endAnalyst();
    running = null;
    setRunning(false);
  }

  // ---- results ----
  const context = () => {
    const offset = offsetMinutes(state);
    const tz = state.capture?.timeZone;
    return { info: state.info, offset, zoneName: state.zone === 'log' && tz ? (tz.name || 'log time') : 'UTC' };
  };

  function showResults() {
    const { analysis } = last;
    const ctx = context();
    const ran = new Set(analysis.rules.filter((r) => !r.skipped).map((r) => r.pack));
    const fs = analysis.findings;
    const crit = fs.filter((f) => f.severity === 'critical').length;
    summary.textContent = ran.size
      ? `${fs.length} finding${fs.length === 1 ? '' : 's'} (${crit} critical, ${fs.length - crit} warning) in ${analysis.groups.length} card${analysis.groups.length === 1 ? '' : 's'}, from ${analysis.rules.filter((r) => !r.skipped).length} rules of ${[...ran].join(', ')} over ${analysis.slices.length} slices.`
      : 'No rule ran: no built-in pack knows these counters.';
    // The default ran: tick the packs it chose, so the next run (and its questions) are the same.
    if (!last.packs) for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = ran.has(i.value);
    autoNote.hidden = ticked().length > 0 || scope.active().length > 0;
    renderCards(cards, analysis, ctx);
    verdict?.show(analysis, { ...ctx, sentence: (g) => headline(analysis, g, ctx), rules: rulesLine(scope, analysis, builtins), disagree: disagreeLine(scope, analysis, last.builtin, state.info) });
    const skip = analysis.rules.filter((r) => r.skipped);
    skipped.replaceChildren(el('summary', `Rules that did not run: ${skip.length} of ${analysis.rules.length}`), el('ul'));
    skipped.lastChild.append(...skip.map((r) => el('li', `${r.pack} / ${r.title || r.rule}: ${r.skipped}`)));
    variables.replaceChildren(el('summary', `Variables used: ${Object.keys(analysis.variables).length}`), el('ul'));
    variables.lastChild.append(...Object.entries(analysis.variables).map(([n, v]) => el('li', `${n} = ${v} (${{ user: 'your answer', capture: 'from the log', bound: 'at least this, from the log', pack: "the pack's default" }[analysis.variableSources[n]] ?? analysis.variableSources[n]})`)));
    download.hidden = false;
    showQuestions();
  }

  /** Show in context: card `k`'s series (the worst first), around its range, with its thresholds. */
  function showGroup(k) {
    const analysis = last?.analysis;
    const g = analysis?.groups[k];
    if (!g) return;
    if (!saved) {
      saved = { selected: [...state.selected], slots: new Map(state.slots), hidden: new Set(state.hidden), paneOf: new Map(state.paneOf), range: state.range };
    }
    // A derived series (a PAL Generated source: a ratio of two counters, ...) is not in the capture: it is
    // charted above the main chart with the thresholds (derived.js), and the main chart shows its inputs
    // as context, without the thresholds, which apply to the derived value, not to them.
    const shown = (f) => (f.derived ? f.derived.inputs.map((i) => i.seriesIndex) : [f.seriesIndex]);
    const worstFinding = analysis.findings[g.worst];
    const worst = shown(worstFinding);
    const indices = [...new Set([...worst, ...g.findings.flatMap((i) => shown(analysis.findings[i]))])].slice(0, SHOW_MAX);
    const thresholds = cardThresholds(analysis, g, state.info, (p, r) => ruleCounter(scope, p, r));
    const range = contextRange([g.start, g.end], analysis.log.intervalMs);
    let derivedError = null;
    if (worstFinding.derived) {
      const derived = [...new Set([g.worst, ...g.findings])].map((i) => analysis.findings[i]).filter((f) => f.derived)
        .filter((f, j, all) => all.findIndex((x) => x.seriesIndex === f.seriesIndex) === j);
      derivedError = derivedChartNow().show(derived, { thresholds, range, ranges: [[g.start, g.end]] });
    } else derivedChart?.clear();
    state.marks = { thresholds: worstFinding.derived ? [] : indices.slice(0, 1).flatMap((index) => thresholds.map((t) => ({ ...t, index }))), ranges: [[g.start, g.end]] };
    hooks.show(indices, range);
    for (const c of root.querySelectorAll('[data-part="card"]')) c.classList.toggle('current', c.dataset.group === String(k));
    const more = worstFinding.derived
      ? derivedError ? ` (a derived series that could not be computed again: ${derivedError}; its inputs are shown)` : ' (a derived series: charted below with its thresholds; the chart under it shows its inputs)'
      : g.series > indices.length ? ` (${indices.length} of its ${g.series} series)` : '';
    focusText.textContent = `Showing: ${sentence(analysis, g, context())}${more}. `;
    focusBar.hidden = false;
    focusBar.dataset.group = String(k);
    focusBar.scrollIntoView({ block: 'start' });
    back.focus({ preventScroll: true });
  }

  function onBack() {
    state.marks = null;
    derivedChart?.clear();
    focusBar.hidden = true;
    delete focusBar.dataset.group;
    for (const c of root.querySelectorAll('[data-part="card"].current')) c.classList.remove('current');
    const s = saved;
    saved = null;
    if (s) hooks.restore(s);
    else hooks.redraw();
  }

  function onCardsClicked(e) {
    const b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.show !== undefined) showGroup(Number(b.dataset.show));
    else if (b.dataset.answer) {
      setup.open = true;
      const input = questions.querySelector(`input[data-variable="${CSS.escape(b.dataset.answer)}"]`);
      input?.scrollIntoView({ block: 'center' });
      input?.focus();
    }
  }

  async function onDownload() {
    if (!last || !analyst) return;
    const worker = analyst.worker;
    download.disabled = true;
    status.textContent = 'Writing the report…';
    const html = await new Promise((resolve) => {
      const prev = worker.onmessage;
      worker.onmessage = (m) => {
        if (m.data.report === undefined) return prev?.(m);
        worker.onmessage = prev;
        resolve(m.data);
      };
      worker.postMessage({ report: { title: `Analysis of ${state.sourceName || 'a capture'}` } });
    });
    download.disabled = false;
    if (html.error) { status.textContent = describeAnalysisError(html.error); return; }
    status.textContent = '';
    const url = URL.createObjectURL(new Blob([html.report], { type: 'text/html' }));
    const a = el('a', null, { href: url, download: `${(state.sourceName || 'capture').replace(/\.[^.]*$/, '')}-analysis.html` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  // ---- events ----
  on(packList, 'change', () => { showCustom(); scheduleRun(); });
  on(questions, 'change', scheduleRun);
  on(rangeOnly, 'change', scheduleRun);
  on(packFile, 'change', onPackFile);
  on(palFiles, 'change', () => importPal(palFiles.files));
  on(customList, 'click', (e) => {
    const { remove, reapply } = e.target.dataset ?? {};
    if (reapply !== undefined) usePal(Number(reapply));
    else if (remove !== undefined) { scope.remove(Number(remove)); showCustom(); scheduleRun(); }
  });
  on(root, 'dragover', (e) => e.preventDefault());
  on(root, 'drop', (e) => { if (e.dataTransfer?.files.length) { e.preventDefault(); importPal(e.dataTransfer.files); } });
  on(run, 'click', onRun);
  on(cancel, 'click', () => { stopRun(); status.textContent = 'Analysis cancelled.'; verdict?.error('cancelled'); });
  on(cards, 'click', onCardsClicked);
  on(back, 'click', onBack);
  on(download, 'click', onDownload);
  showCustom();

  return {
    /** A new capture is open: old results cleared, the analysis run at once. */
    captureChanged() {
      stopRun();
      endAnalyst();
      last = null;
      saved = null;
      state.marks = null;
      derivedChart?.clear();
      focusBar.hidden = true;
      for (const n of [cards, skipped, variables]) n.replaceChildren();
      summary.textContent = '';
      status.textContent = '';
      download.hidden = true;
      for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = false;
      // Another log (not the same file read again for other series): a PAL import stays with the log it
      // was imported on unless the user chose to keep it.
      if (source !== undefined && !sameFile(source, state.source)) scope.nextLog();
      source = state.source ?? null;
      showCustom();
      onRun();
    },
    /** The theme changed: the derived chart is drawn again in it. */
    redraw() {
      derivedChart?.draw();
    },
    /** The visible range changed: a run again when the analysis follows it. */
    rangeChanged() {
      if (rangeOnly.checked && !saved) scheduleRun();
    },
    destroy() {
      clearTimeout(rerun);
      stopRun();
      endAnalyst();
      cleanups.forEach((f) => f());
      focusBar.remove();
      derivedChart?.destroy();
      derivedBox?.remove();
      verdict?.clear();
    },
  };
}
