// The viewer's Analysis panel: choose rule packs (the built-in ones, a pack JSON file, or PAL threshold
// XML files picked or dropped on the panel), answer their questions (defaults derived from the log filled
// in), run the analysis in a Worker (worker.js) that keeps the capture between runs, list the findings
// in time order and by category, chart a finding's series zoomed to its range with its warning and
// critical thresholds drawn over the chart, and download analysisReport's self-contained HTML.
// Everything from a file (counter paths, pack and PAL text) is written with textContent.
import { rulePacks, rulePack, importPalThresholds, analyze } from '../core.js';
import { el } from './dom.js';
import { formatTime } from './state.js';

/** How an analysis error reads, with where it was (a pack's JSON pointer or line, a variable, a file). */
export function describeAnalysisError(e) {
  const where = [e?.file, e?.pointer && `at ${e.pointer}`, e?.line && `line ${e.line}${e.column ? `, column ${e.column}` : ''}`, e?.variable && `variable ${e.variable}`]
    .filter(Boolean).join(', ');
  return `${e?.name ?? 'Error'}${e?.code ? ` (${e.code})` : ''}: ${e?.message ?? String(e)}${where && !String(e?.message).includes(where) ? ` [${where}]` : ''}`;
}

/** Logical processors as the core derives them: the Processor(*) instances other than _Total. */
function logicalProcessors(info) {
  const names = new Set(info.filter((s) => s.object?.toLowerCase() === 'processor' && s.instance !== undefined && s.instance.toLowerCase() !== '_total').map((s) => s.instance));
  return names.size || null;
}

const SVG = 'http://www.w3.org/2000/svg';

/** A band or line of threshold `t` from a finding or rule: severity, operator, value. */
const thresholdKey = (t) => `${t.severity}|${t.operator}|${t.threshold}`;

/**
 * @param {HTMLElement} root  the panel's section (layout.js part "analysis")
 * @param {{ state: object, canvas: HTMLCanvasElement, layout(): object|null, show(index: number, range: [number, number]): void }} hooks
 *        the viewer's state (read only), its chart canvas and last layout, and how to chart one series over a range
 */
export function mountAnalysisPanel(root, hooks) {
  const { state } = hooks;
  const builtins = rulePacks();
  let custom = []; // [{ label, pack, kind: 'json'|'pal' }]
  let running = null; // the Worker while an analysis runs
  let analyst = null; // { worker, capture }: the Worker holding the capture analysed, kept between runs
  const endAnalyst = () => {
    analyst?.worker.terminate();
    analyst = null;
  };
  let last = null; // { analysis, report, packs } of the last run
  let focus = null; // the finding charted: { finding, thresholds }
  const cleanups = [];
  const on = (t, type, fn) => { t.addEventListener(type, fn); cleanups.push(() => t.removeEventListener(type, fn)); };
  const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });

  // ---- the DOM ----
  const packList = part('analysis-packs', 'fieldset');
  packList.append(el('legend', 'Built-in rule packs'));
  const autoNote = part('analysis-auto', 'p', 'None ticked: every built-in pack whose counters this log has (the default; the packs this log has counters for are ticked when it opens).', { class: 'muted' });
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
  const run = part('analysis-run', 'button', 'Analyse', { type: 'button' });
  const cancel = part('analysis-cancel', 'button', 'Cancel', { type: 'button' });
  cancel.hidden = true;
  const progress = part('analysis-progress', 'progress');
  progress.hidden = true;
  const status = part('analysis-status', 'span', null, { role: 'status' });
  const runLine = el('p');
  runLine.append(run, ' ', progress, ' ', cancel, ' ', status);
  const download = part('analysis-download', 'button', 'Download report', { type: 'button' });
  download.hidden = true;
  const summary = part('analysis-summary', 'p');
  const byTime = part('analysis-findings', 'ol', null, { class: 'analysis-findings' });
  const byCategory = part('analysis-categories', 'div');
  const focusNote = part('analysis-focus', 'p', null, { role: 'status' });
  const skipped = part('analysis-skipped', 'details');
  const variables = part('analysis-variables', 'details');
  const overlay = document.createElementNS(SVG, 'svg');
  overlay.setAttribute('data-part', 'analysis-overlay');
  overlay.setAttribute('aria-hidden', 'true');
  overlay.style.display = 'none';
  hooks.canvas.parentElement.append(overlay);
  root.setAttribute('data-own-drop', '');
  root.replaceChildren(el('h2', 'Analysis'), packList, fileLine, customList, palReport, questions, runLine, download, summary, focusNote,
    el('h3', 'Findings in time order'), byTime, el('h3', 'By category'), byCategory, skipped, variables);

  // ---- packs and questions ----
  const ticked = () => [...packList.querySelectorAll('input[data-pack]:checked')].map((i) => i.value);
  /** What analyze gets as `packs`: undefined for its default (nothing ticked, no file). */
  function chosenPacks() {
    const ids = ticked();
    if (!ids.length && !custom.length) return undefined;
    return [...ids, ...custom.map((c) => c.pack)];
  }

  /** The questions of the packs in play, one input each, derived values filled in. */
  function showQuestions() {
    const asked = new Map();
    const ids = ticked();
    const from = [...(ids.length || custom.length ? builtins.filter((p) => ids.includes(p.id)) : builtins), ...custom.map((c) => c.pack)];
    for (const p of from) for (const v of p.variables ?? []) if (!asked.has(v.name)) asked.set(v.name, v);
    const previous = new Map([...questions.querySelectorAll('input[data-variable]')].map((i) => [i.dataset.variable, i]));
    questions.replaceChildren(el('legend', asked.size ? 'Questions (the answers given here win; emptied, the default applies)' : 'No questions'));
    for (const v of asked.values()) {
      const derived = v.derive === 'logicalProcessors' ? logicalProcessors(state.info) : null;
      const shown = derived ?? v.default;
      const input = el('input', null, { type: v.type === 'string' ? 'text' : 'number', step: 'any', 'data-variable': v.name });
      const old = previous.get(v.name);
      input.value = old && old.value !== old.dataset.initial ? old.value : String(shown);
      input.dataset.initial = String(shown);
      const label = el('label', `${v.question || v.name} `);
      label.append(input, el('span', derived !== null ? ` (from this log: ${derived})` : ` (default ${v.default})`, { class: 'muted' }));
      questions.append(label);
    }
  }

  /** The answers the user changed (the others are left to the core: derived, then the pack's default). */
  function answers() {
    const out = {};
    for (const i of questions.querySelectorAll('input[data-variable]')) {
      if (i.value === '' || i.value === i.dataset.initial) continue;
      out[i.dataset.variable] = i.type === 'number' && Number.isFinite(Number(i.value)) ? Number(i.value) : i.value;
    }
    return out;
  }

  function showCustom() {
    customList.replaceChildren(...custom.map((c, k) => {
      const li = el('li', `${c.kind === 'pal' ? 'PAL import' : 'Pack file'}: ${c.label} (${c.pack.rules?.length ?? 0} rules) `);
      li.append(el('button', 'Remove', { type: 'button', 'data-remove': String(k) }));
      return li;
    }));
    autoNote.hidden = custom.length > 0 || ticked().length > 0;
    showQuestions();
  }

  async function onPackFile() {
    const f = packFile.files[0];
    if (!f) return;
    const text = await f.text();
    try {
      const pack = JSON.parse(text);
      if (!pack || typeof pack !== 'object' || Array.isArray(pack)) throw new Error('a rule pack is a JSON object');
      custom.push({ label: f.name, pack, kind: 'json' });
      status.textContent = '';
    } catch (e) {
      status.textContent = `${f.name} is not a rule pack: ${e.message}`;
    }
    packFile.value = '';
    showCustom();
  }

  async function importPal(fileList) {
    const files = [...fileList].filter((f) => f.name.toLowerCase().endsWith('.xml') || f.type.includes('xml'));
    if (!files.length) return;
    const texts = {};
    for (const f of files) texts[f.name] = await f.text();
    try {
      const result = importPalThresholds(texts);
      custom.push({ label: files.map((f) => f.name).join(', '), pack: result.pack, kind: 'pal' });
      const head = el('p', `PAL import of ${files.map((f) => f.name).join(', ')}: ${result.translated} of ${result.total} thresholds translated` +
        (result.missingFiles.length ? `; inherited files not given: ${result.missingFiles.join(', ')}` : '') + '.', { 'data-part': 'analysis-pal-summary' });
      const why = el('details');
      why.append(el('summary', `${result.untranslated.length} thresholds left out, and why`));
      const list = el('ul', null, { 'data-part': 'analysis-pal-untranslated' });
      list.append(...result.untranslated.map((u) => el('li', `${u.analysis} / ${u.threshold}: ${u.reason}`)));
      why.append(list);
      palReport.replaceChildren(head, why, ...result.notes.map((n) => el('p', n, { class: 'muted' })));
      status.textContent = '';
    } catch (e) {
      palReport.replaceChildren(el('p', describeAnalysisError(e), { 'data-part': 'analysis-pal-summary' }));
    }
    palFiles.value = '';
    showCustom();
  }

  /** Ticks the built-in packs whose counters the log has (analyze's default), as the core decides it:
   *  its default run with one slice over the whole log, here on the page (one pass over only the series
   *  the rules select; the real run, with PAL's slices and the report, goes to the Worker). */
  function tickApplicable() {
    const ts = state.timestamps;
    let ran = new Set();
    try {
      const whole = ts.length > 1 ? Math.max(ts[ts.length - 1] - ts[0], 1) : 1000;
      ran = new Set(analyze(state.capture, { slice: whole }).rules.map((r) => r.pack));
    } catch {
      // A log too short to slice: nothing ticked, the run will use analyze's default and say why.
    }
    for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = ran.has(i.value);
    autoNote.hidden = ticked().length > 0 || custom.length > 0;
  }

  // ---- running, in a Worker ----
  function onRun() {
    const capture = state.capture;
    if (!capture) { status.textContent = 'Open a capture first.'; return; }
    if (running) stopRun();
    const options = { variables: answers() };
    const packs = chosenPacks();
    if (packs) options.packs = packs;
    // The worker keeps the capture between runs: its columns are copied over once per capture, and a
    // run on the same capture (other packs, other answers) sends its options alone.
    if (analyst?.capture !== capture) endAnalyst();
    const job = { options, title: `Analysis of ${state.sourceName || 'a capture'}` };
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
    setRunning(true, `Running ${packs ? packs.length : 'the default'} pack${packs?.length === 1 ? '' : 's'} over ${capture.seriesCount} series…`);
    const started = performance.now();
    worker.onmessage = ({ data }) => {
      if (running !== worker) return;
      running = null;
      setRunning(false);
      if (data.error) { status.textContent = describeAnalysisError(data.error); return; }
      last = { ...data, packs };
      status.textContent = `Done in ${Math.round(performance.now() - started)} ms.`;
      showResults();
    };
    worker.onerror = (e) => { stopRun(); status.textContent = `The analysis stopped: ${e.message || 'worker error'}`; };
    worker.postMessage({ analyze: job }, transfer);
  }
  function setRunning(on, text) {
    progress.hidden = !on;
    cancel.hidden = !on;
    run.disabled = on;
    root.dataset.running = String(on);
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
  const findingItem = (f, k) => {
    const li = el('li', null, { class: `finding ${f.severity}`, 'data-finding': String(k) });
    const button = el('button', null, { type: 'button', 'data-finding': String(k), title: 'Chart this series over the finding\u2019s range' });
    button.append(el('b', f.severity === 'critical' ? 'Critical' : 'Warning', { class: 'severity' }), ` ${formatTime(state, f.start)}: `, el('span', f.message));
    li.append(button);
    return li;
  };

  function showResults() {
    const { analysis } = last;
    const fs = analysis.findings;
    const ran = new Set(analysis.rules.map((r) => r.pack));
    const crit = fs.filter((f) => f.severity === 'critical').length;
    summary.textContent = `${fs.length} finding${fs.length === 1 ? '' : 's'} (${crit} critical, ${fs.length - crit} warning) from ${analysis.rules.length} rules of ${ran.size} pack${ran.size === 1 ? '' : 's'} (${[...ran].join(', ')}) over ${analysis.slices.length} slices.`;
    // The default ran: tick the packs it chose, so the next run (and its questions) are the same.
    if (!last.packs) for (const i of packList.querySelectorAll('input[data-pack]')) i.checked = ran.has(i.value);
    autoNote.hidden = ticked().length > 0 || custom.length > 0;
    byTime.replaceChildren(...fs.map(findingItem));
    const categories = new Map();
    fs.forEach((f, k) => { const c = f.category || 'Other'; if (!categories.has(c)) categories.set(c, []); categories.get(c).push(k); });
    byCategory.replaceChildren(...[...categories].sort(([a], [b]) => a.localeCompare(b)).map(([c, ks]) => {
      const section = el('section', null, { 'data-category': c });
      const n = ks.filter((k) => fs[k].severity === 'critical').length;
      const list = el('ol', null, { class: 'analysis-findings' });
      list.append(...ks.map((k) => findingItem(fs[k], k)));
      section.append(el('h4', `${c}: ${ks.length} finding${ks.length === 1 ? '' : 's'}${n ? ` (${n} critical)` : ''}`), list);
      return section;
    }));
    const skip = analysis.rules.filter((r) => r.skipped);
    skipped.replaceChildren(el('summary', `Rules that did not run: ${skip.length} of ${analysis.rules.length}`), el('ul'));
    skipped.lastChild.append(...skip.map((r) => el('li', `${r.pack} / ${r.rule}: ${r.skipped}`)));
    variables.replaceChildren(el('summary', `Variables used: ${Object.keys(analysis.variables).length}`), el('ul'));
    variables.lastChild.append(...Object.entries(analysis.variables).map(([n, v]) => el('li', `${n} = ${v} (${{ user: 'your answer', capture: 'from the log', pack: "the pack's default" }[analysis.variableSources[n]] ?? analysis.variableSources[n]})`)));
    download.hidden = false;
    focus = null;
    focusNote.textContent = '';
    drawOverlay();
  }

  /** The thresholds to draw for finding `f`: those of every static finding on its series, and those of
   *  the rules of its group (its warning and critical pair) in its pack, as the analysis evaluated them
   *  (`analysis.rules[].threshold`: a number, or an expression with the variables used). */
  function thresholdsOf(f) {
    const out = new Map();
    const add = (t) => { if (Number.isFinite(t.threshold)) out.set(thresholdKey(t), t); };
    for (const g of last.analysis.findings) if (g.seriesIndex === f.seriesIndex && !g.broke.includes('trend')) add(g);
    const pack = findPack(f.pack);
    const rule = pack?.rules?.find((r) => r.id === f.rule);
    if (rule && rule.kind !== 'trend') {
      const evaluated = new Map(last.analysis.rules.filter((run) => run.pack === f.pack).map((run) => [run.rule, run.threshold]));
      for (const r of pack.rules) {
        if (r.kind === 'trend') continue;
        const threshold = evaluated.get(r.id) ?? (typeof r.threshold === 'number' ? r.threshold : NaN);
        if (r.id === rule.id || (rule.group && r.group === rule.group)) add({ severity: r.severity, operator: r.operator, threshold });
      }
    }
    return [...out.values()];
  }
  function findPack(id) {
    const given = (last.packs ?? []).find((p) => typeof p === 'object' && p.id === id);
    return given ?? rulePack(id);
  }

  function onFindingClicked(e) {
    const k = Number(e.target.closest('button[data-finding]')?.dataset.finding);
    if (!Number.isInteger(k) || !last) return;
    const f = last.analysis.findings[k];
    focus = { finding: f, thresholds: thresholdsOf(f) };
    for (const b of root.querySelectorAll('li.finding')) b.classList.toggle('current', b.dataset.finding === String(k));
    // Zoomed to the finding's range with a quarter of its width either side, so the range shows as marked.
    const pad = Math.max((f.end - f.start) / 4, 1000);
    hooks.show(f.seriesIndex, [f.start - pad, f.end + pad]);
    focusNote.textContent = `Charted: ${f.path} from ${formatTime(state, f.start)} to ${formatTime(state, f.end)}; ` +
      (focus.thresholds.length ? `thresholds drawn: ${focus.thresholds.map((t) => `${t.severity} ${t.operator} ${t.threshold}`).join(', ')}.` : 'a trend rule (its threshold is a slope, not drawn).');
    drawOverlay();
  }

  // ---- the overlay over the chart (SVG, in the chart's CSS pixels): the finding's range shaded, its
  // thresholds as lines with the band beyond each, placed with the layout renderChart returned ----
  const svg = (tag, attrs, text) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
  };
  function drawOverlay() {
    const layout = hooks.layout();
    const i = focus?.finding.seriesIndex;
    const shown = [...state.selected].filter((j) => !state.hidden.has(j)).sort((a, b) => a - b);
    const k = focus && layout ? shown.indexOf(i) : -1;
    overlay.style.display = k < 0 ? 'none' : '';
    overlay.dataset.shown = String(k >= 0);
    if (k < 0) return;
    const c = hooks.canvas;
    const [w, h] = [c.clientWidth, c.clientHeight];
    Object.assign(overlay.style, { left: `${c.offsetLeft + c.clientLeft}px`, top: `${c.offsetTop + c.clientTop}px`, width: `${w}px`, height: `${h}px` });
    overlay.setAttribute('viewBox', `0 0 ${w} ${h}`);
    const { plotLeft: L, plotTop: T, plotWidth: W, plotHeight: H, x0, x1 } = layout;
    const f = focus.finding;
    const xOf = (t) => Math.min(Math.max(L + ((t - x0) / (x1 - x0)) * W, L), L + W);
    const items = [];
    // The range: shaded, with its edges dashed.
    const [a, b] = [xOf(f.start), xOf(f.end)];
    items.push(svg('rect', { x: a, y: T, width: Math.max(b - a, 1), height: H, class: 'finding-range' }),
      svg('line', { x1: a, y1: T, x2: a, y2: T + H, class: 'finding-edge' }), svg('line', { x1: b, y1: T, x2: b, y2: T + H, class: 'finding-edge' }));
    // The thresholds on the series' axis (its unit's base, times the Perfmon scale factor if any).
    const axis = layout.axes[layout.series[k]?.axis ?? 0];
    const factor = layout.series[k]?.factor ?? 1;
    const mult = state.info[i]?.multiplier ?? 1;
    const yOf = (v) => {
      const u = v * mult * factor;
      const p = axis.log ? (Math.log10(u) - Math.log10(axis.lo)) / (Math.log10(axis.hi) - Math.log10(axis.lo)) : (u - axis.lo) / (axis.hi - axis.lo);
      return T + (1 - p) * H;
    };
    const drawn = [];
    for (const t of focus.thresholds) {
      const y = yOf(t.threshold);
      if (!Number.isFinite(y) || y < T || y > T + H) { drawn.push(`${t.severity}:${t.operator}:${t.threshold}:off`); continue; }
      const above = t.operator === 'gt' || t.operator === 'ge';
      if (t.operator !== 'eq' && t.operator !== 'ne') items.push(svg('rect', { x: L, y: above ? T : y, width: W, height: above ? y - T : T + H - y, class: `band ${t.severity}` }));
      items.push(svg('line', { x1: L, y1: y, x2: L + W, y2: y, class: `threshold ${t.severity}` }),
        svg('text', { x: L + 4, y: Math.min(Math.max(y - 3, T + 11), T + H - 2), class: `threshold ${t.severity}` }, `${t.severity} ${t.operator} ${t.threshold}`));
      drawn.push(`${t.severity}:${t.operator}:${t.threshold}:${Math.round(y)}`);
    }
    overlay.replaceChildren(...items);
    overlay.dataset.range = `${Math.round(a)}:${Math.round(b)}`;
    overlay.dataset.thresholds = drawn.join(' ');
  }
  // The chart pane writes its layout into the canvas's data attributes on every draw: redraw after it.
  const redraw = new MutationObserver(() => drawOverlay());
  redraw.observe(hooks.canvas, { attributes: true, attributeFilter: ['data-x0', 'data-x1', 'data-plot-width', 'data-plot-height', 'data-points-drawn', 'data-axes'] });

  function onDownload() {
    if (!last) return;
    const url = URL.createObjectURL(new Blob([last.report], { type: 'text/html' }));
    const a = el('a', null, { href: url, download: `${(state.sourceName || 'capture').replace(/\.[^.]*$/, '')}-analysis.html` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  // ---- events ----
  on(packList, 'change', showCustom);
  on(packFile, 'change', onPackFile);
  on(palFiles, 'change', () => importPal(palFiles.files));
  on(customList, 'click', (e) => { const k = Number(e.target.dataset?.remove); if (Number.isInteger(k)) { custom.splice(k, 1); showCustom(); } });
  on(root, 'dragover', (e) => e.preventDefault());
  on(root, 'drop', (e) => { if (e.dataTransfer?.files.length) { e.preventDefault(); importPal(e.dataTransfer.files); } });
  on(run, 'click', onRun);
  on(cancel, 'click', () => { stopRun(); status.textContent = 'Analysis cancelled.'; });
  on(byTime, 'click', onFindingClicked);
  on(byCategory, 'click', onFindingClicked);
  on(download, 'click', onDownload);
  showCustom();

  return {
    /** A new capture is open: questions re-derived, old results cleared. */
    captureChanged() {
      stopRun();
      endAnalyst();
      tickApplicable();
      last = null;
      focus = null;
      for (const n of [byTime, byCategory, skipped, variables]) n.replaceChildren();
      summary.textContent = '';
      focusNote.textContent = '';
      status.textContent = '';
      download.hidden = true;
      overlay.style.display = 'none';
      overlay.dataset.shown = 'false';
      showQuestions();
    },
    destroy() {
      stopRun();
      endAnalyst();
      redraw.disconnect();
      cleanups.forEach((f) => f());
      overlay.remove();
    },
  };
}
