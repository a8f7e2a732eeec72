// The questions of the Analysis panel's packs (analysis-setup.js): one input per variable the packs in
// play ask, each saying where its value comes from (the log, a bound from the log, the pack's default, or
// the user's answer, which is kept across a run), and the answers the user changed.
import { el } from './dom.js';

/** The questions of `packs` into `questions` (a fieldset), one input each, with the values and their
 *  origins from `analysis` (the last run, or none yet) and the open `capture` (its logical processors,
 *  as the core counts them). */
export function renderQuestions(questions, packs, analysis, capture) {
  const asked = new Map();
  for (const p of packs) for (const v of p.variables ?? []) if (!asked.has(v.name)) asked.set(v.name, v);
  const previous = new Map([...questions.querySelectorAll('input[data-variable]')].map((i) => [i.dataset.variable, i]));
  questions.replaceChildren(el('legend', asked.size ? 'Questions (an answer given here wins; emptied, the log or the default applies)' : 'No questions'));
  const a = analysis;
  for (const v of asked.values()) {
    const used = a?.variables?.[v.name];
    const origin = a?.variableSources?.[v.name];
    const derived = v.derive === 'logicalProcessors' ? capture?.logicalProcessors() ?? null : null;
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
export function readAnswers(questions) {
  const out = {};
  for (const i of questions.querySelectorAll('input[data-variable]')) {
    if (i.value === '' || i.value === i.dataset.initial) continue;
    out[i.dataset.variable] = i.type === 'number' && Number.isFinite(Number(i.value)) ? Number(i.value) : i.value;
  }
  return out;
}
