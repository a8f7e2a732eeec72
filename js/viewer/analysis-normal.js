// The Analysis panel's "Its normal" (analysis-panel.js): the machine's normal the analysis judges the log
// against (the core's `analyze(capture, { baseline })`, which adds the cards "worse than its normal",
// pack "baseline"). Either a baseline file (`counterlens baseline LOGS -o NAME.baseline.json`) opened here,
// kept for the next logs, or the other logs of the machine a fleet opened (fleet.js), for that log only,
// which the analysis Worker reads and learns the normal from (a `BaselineBuilder`, one log at a time). The
// line says which normal is in use (machine, period, samples, logs) with a way to remove it; a file that
// is no baseline, or a normal the core refuses for this log (another machine's), is said as text and the
// log is analysed without it. Everything from a file is written with textContent.
import { el } from './dom.js';
import { dateTime } from './verdict.js';
import { describeAnalysisError } from './analysis-error.js';

/** A baseline's period in UTC ("2026-07-06 00:00 – 2026-07-09 01:59 UTC"), or '' without one. */
export function period(b) {
  if (!Number.isFinite(b?.first) || !Number.isFinite(b?.last)) return '';
  return `${dateTime(b.first, 0)} – ${dateTime(b.last, 0)} UTC`;
}

/** A normal in one line: "WEB05, 4 logs, 2026-07-06 00:00 – 2026-07-09 01:59 UTC, 1920 samples". */
export function normalLine(b, logs = b?.logs?.length ?? 0) {
  const when = period(b);
  return [b?.machine || 'a machine not named in its logs', `${logs} log${logs === 1 ? '' : 's'}`, ...(when ? [when] : []),
    `${Number(b?.samples ?? 0)} samples`].join(', ');
}

/** Why a normal was refused, in words: the core's message (an AnalysisError "baseline" starts with
 *  "baseline: "), any other error as the panel says errors. */
const why = (e) => (e?.code === 'baseline' ? String(e.message ?? '').replace(/^baseline: /, '') : describeAnalysisError(e));

/** A baseline file's text as the summary the panel shows, or an Error saying why it is none. The core
 *  reads it again in full (every member) when it analyses: this is only what the panel says. */
export function readBaseline(text, name) {
  let b;
  try {
    b = JSON.parse(text);
  } catch (e) {
    return new Error(`${name} is not a baseline: not JSON (${e.message})`);
  }
  if (!b || typeof b !== 'object' || b.format !== 'counterlens-baseline') {
    return new Error(`${name} is not a baseline: a baseline is the JSON \`counterlens baseline\` writes, whose "format" is "counterlens-baseline"`);
  }
  if (typeof b.machine !== 'string' || !Array.isArray(b.logs)) return new Error(`${name} is not a baseline: it has no machine or logs`);
  return { machine: b.machine, logs: b.logs.length, first: b.first, last: b.last, samples: b.samples };
}

/**
 * @param {{ on: Function, scheduleRun(): void, told?(info: object|null): void }} hooks  the panel's
 *   listener helper; a run a moment later; told what the fleet's normal came to after a run (`{ logs,
 *   machine, first, last, samples }`, `{ error }`, `{ replaced }` when a baseline file took its place, or
 *   null when removed)
 */
export function createNormal(hooks) {
  const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });
  const line = part('analysis-normal', 'div', null, { class: 'analysis-normal' });
  const input = part('analysis-normal-file', 'input', null, { type: 'file', accept: '.json,application/json' });
  const pick = el('label', 'Open a baseline file…', { class: 'cl-button cl-file', title: 'A machine\'s normal: the JSON `counterlens baseline LOGS -o NAME.baseline.json` writes' });
  pick.append(input);
  const said = part('analysis-normal-text', 'span');
  const remove = part('analysis-normal-remove', 'button', 'Remove', { type: 'button' });
  const error = part('analysis-normal-error', 'p', null, { class: 'analysis-normal-error', role: 'alert' });
  const noted = part('analysis-normal-note', 'p', null, { class: 'analysis-normal-error', role: 'alert' });
  const head = el('span', 'Its normal:', { class: 'analysis-normal-head' });
  line.append(head, ' ', said, ' ', remove, ' ', pick, error, noted);

  // { kind: 'file', name, text, summary } | { kind: 'fleet', name (the log), logs: [{ name, file }], summary? }
  let normal = null;
  let pending = null; // the fleet's normal for the log it is opening (its name), until that log is read
  let refused = null; // why the core did not use the normal on this log (an error), or null
  let note = ''; // why the file last opened is no baseline (the normal in use, if any, stays)

  function show() {
    remove.hidden = !normal;
    error.textContent = refused ? `Not used on this log: ${why(refused)}` : '';
    error.hidden = !refused;
    noted.textContent = note;
    noted.hidden = !note;
    line.dataset.state = !normal ? 'none' : refused ? 'refused' : 'used';
    if (!normal) { said.textContent = 'none (open a baseline file to judge this log against its machine\'s normal too).'; return; }
    if (normal.kind === 'file') { said.textContent = `${normal.name}: ${normalLine(normal.summary, normal.summary.logs)}.`; return; }
    const n = normal.logs.length;
    said.textContent = normal.summary
      ? `its ${n} other log${n === 1 ? '' : 's'} in the fleet: ${normalLine(normal.summary, n)}.`
      : `its ${n} other log${n === 1 ? '' : 's'} in the fleet (read when the analysis runs).`;
  }

  async function onFile() {
    const f = input.files[0];
    input.value = '';
    if (!f) return;
    const text = await f.text();
    const summary = readBaseline(text, f.name);
    note = summary instanceof Error ? summary.message : '';
    if (note) { show(); return; }
    if (normal?.kind === 'fleet') hooks.told?.({ replaced: f.name });
    normal = { kind: 'file', name: f.name, text, summary };
    refused = null;
    show();
    hooks.scheduleRun();
  }
  function onRemove() {
    if (normal?.kind === 'fleet') hooks.told?.(null);
    normal = null;
    refused = null;
    note = '';
    show();
    hooks.scheduleRun();
  }
  hooks.on(input, 'change', onFile);
  hooks.on(remove, 'click', onRemove);
  show();

  return {
    element: line,
    /** What a run sends: `{ baseline: text }` (a file), `{ normal: { key, logs } }` (the fleet's), or {}. */
    job() {
      if (!normal || refused) return {};
      if (normal.kind === 'file') return { baseline: normal.text };
      return { normal: { key: normal.logs.map((l) => l.name).join('\u0000'), logs: normal.logs.map((l) => ({ name: l.name, blob: l.file })) } };
    },
    /** The fleet opens log `name` with its machine's other logs as its normal (`logs`: [{ name, file }];
     *  empty: none, and the normal of a file stays). */
    fromFleet(name, logs) { pending = logs?.length ? { kind: 'fleet', name, logs } : { kind: 'none', name }; },
    /** Another log is open: the fleet's normal is for the log it opened, a file's for every log. */
    captureChanged(name) {
      const next = pending?.name === name ? pending : null;
      pending = null;
      if (next?.kind === 'fleet') normal = next;
      else if (normal?.kind === 'fleet') normal = null;
      refused = null;
      note = '';
      show();
    },
    /** After a run: the normal the Worker learnt (`summary`), or the error it was refused with. */
    ran({ normal: summary, normalError }) {
      if (normalError) refused = normalError;
      else if (summary && normal?.kind === 'fleet') normal.summary = summary;
      if (normal?.kind === 'fleet') hooks.told?.(refused ? { error: why(refused) } : normal.summary ? { ...normal.summary, logs: normal.logs.length } : null);
      show();
    },
    /** What the cards say of the normal in use ("WEB05, 4 logs, …"), or null. */
    inUse() {
      if (!normal || refused) return null;
      return normal.kind === 'file' ? normalLine(normal.summary, normal.summary.logs) : normal.summary ? normalLine(normal.summary, normal.logs.length) : null;
    },
  };
}
