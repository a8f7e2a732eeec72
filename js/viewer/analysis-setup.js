// The Analysis panel's set-up (analysis-panel.js): the built-in packs to tick, a pack file (JSON) or PAL
// threshold files (XML, picked or dropped on the panel) with the import's report, the pack files and
// PAL imports in play (pack-scope.js: in use on this log, kept for the next, or set aside), the packs'
// questions (each saying where its value comes from: the log, a default, an answer) and "only the
// visible range". Changes ask the panel for a run (`hooks.scheduleRun`). Everything from a file is
// written with textContent.
import { rulePacks, importPalThresholds } from '../core.js';
import { el } from './dom.js';
import { describeAnalysisError } from './analysis-error.js';
import { renderQuestions, readAnswers } from './analysis-questions.js';

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

const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });

/** The set-up's elements: a <details> with the built-in packs, the file inputs, the files in play, the
 *  PAL report, the questions and "only the visible range". */
function buildSetup(builtins) {
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
  return { setup, packList, autoNote, packFile, palFiles, customList, palReport, questions, rangeOnly };
}

/**
 * @param {{ state: object, scope: object, root: HTMLElement, status: HTMLElement, on: Function,
 *           last(): object|null, scheduleRun(): void }} hooks
 *        the viewer's state, the panel's pack scope, its section (drops), status line, listener helper,
 *        the last run, and a run a moment later
 */
export function createSetup(hooks) {
  const { state, scope, status, on } = hooks;
  const builtins = rulePacks();
  const { setup, packList, autoNote, packFile, palFiles, customList, palReport, questions, rangeOnly } = buildSetup(builtins);

  const packBoxes = () => packList.querySelectorAll('input[data-pack]');
  const ticked = () => [...packList.querySelectorAll('input[data-pack]:checked')].map((i) => i.value);
  /** What analyze gets as `packs`: undefined for its default (nothing ticked, no file). */
  function chosenPacks() {
    const ids = ticked();
    const active = scope.active();
    if (!ids.length && !active.length) return undefined;
    return [...ids, ...active.map((c) => c.pack)];
  }

  /** The questions of the packs in play (analysis-questions.js). */
  function showQuestions() {
    const ids = ticked();
    const active = scope.active();
    const from = [...(ids.length || active.length ? builtins.filter((p) => ids.includes(p.id)) : builtins), ...active.map((c) => c.pack)];
    renderQuestions(questions, from, hooks.last()?.analysis, state.capture);
  }
  const answers = () => readAnswers(questions);

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
    for (const i of packBoxes()) i.checked = false;
    showCustom();
    hooks.scheduleRun();
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
      hooks.scheduleRun();
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
      for (const i of packBoxes()) i.checked = false;
      palReport.replaceChildren(...palImportReport(files.map((f) => f.name), result));
      status.textContent = '';
      setup.open = true;
      showCustom();
      hooks.scheduleRun();
    } catch (e) {
      palReport.replaceChildren(el('p', describeAnalysisError(e), { 'data-part': 'analysis-pal-summary' }));
      setup.open = true;
      showCustom();
    }
    palFiles.value = '';
  }

  /** Opens the set-up at the question of variable `name`. */
  function ask(name) {
    setup.open = true;
    const input = questions.querySelector(`input[data-variable="${CSS.escape(name)}"]`);
    input?.scrollIntoView({ block: 'center' });
    input?.focus();
  }

  on(packList, 'change', () => { showCustom(); hooks.scheduleRun(); });
  on(questions, 'change', hooks.scheduleRun);
  on(rangeOnly, 'change', hooks.scheduleRun);
  on(packFile, 'change', onPackFile);
  on(palFiles, 'change', () => importPal(palFiles.files));
  on(customList, 'click', (e) => {
    const { remove, reapply } = e.target.dataset ?? {};
    if (reapply !== undefined) usePal(Number(reapply));
    else if (remove !== undefined) { scope.remove(Number(remove)); showCustom(); hooks.scheduleRun(); }
  });
  on(hooks.root, 'dragover', (e) => e.preventDefault());
  on(hooks.root, 'drop', (e) => { if (e.dataTransfer?.files.length) { e.preventDefault(); importPal(e.dataTransfer.files); } });

  return {
    element: setup,
    builtins,
    chosenPacks,
    answers,
    showCustom,
    showQuestions,
    usePal,
    ask,
    rangeOnly: () => rangeOnly.checked,
    /** After a run: when the default ran (`ran`, the packs that did), those packs ticked, so the next run
     *  (and its questions) are the same. */
    afterRun(ran) {
      if (ran) for (const i of packBoxes()) i.checked = ran.has(i.value);
      autoNote.hidden = ticked().length > 0 || scope.active().length > 0;
    },
    untick: () => { for (const i of packBoxes()) i.checked = false; },
  };
}
