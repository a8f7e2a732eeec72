// Click-to-explain: each selected series' value at the sample clicked, as the formula with its raw numbers
// (`Capture.explainAt`). Get-Counter captures keep their raw samples, so they explain at once. A .blg is read
// without them (they cost 33 bytes a value beside the cooked 8), so the series clicked are read again from
// the file, in the Worker, keeping only theirs (`keepRaw: [paths]`); the result is checked against what is
// on screen and cached, so the next click on those series is instant. Everything from the file is written
// with textContent.
import { el } from './dom.js';
import { formatTime, selection } from './state.js';
import { SUPERSEDED } from './reading.js';

/**
 * @param {HTMLElement} box  the explanation's box (`chart-explain`)
 * @param {object} state  the viewer's state (state.js); `state.rawSource` says where the file can be read
 *        again: `{ blob }`, `{ url }`, or null
 * @param {{ readRaw(paths: string[], onProgress: (f: number) => void): Promise<import('../core.js').Capture> }} hooks
 *        reads the file again keeping the raw samples of `paths` (and sends only those series)
 */
export function createExplainer(box, state, { readRaw }) {
  let kept = new Map(); // path -> { capture, index } from a re-read, or { error }
  let captures = []; // the re-read captures, freed with the cache
  let inflight = null; // { paths: Set<string>, promise }
  let shown = 0; // the click the box shows; an older re-read that ends does not redraw over a newer click
  let progress = null;

  /** Forgets the re-read series (a new capture was opened). */
  function reset() {
    for (const c of captures) c.free();
    captures = [];
    kept = new Map();
    inflight = null;
    shown++;
  }

  /** Whether series `i` could be explained by reading the file again. */
  const canReRead = (i) => state.capture.format === 'blg' && state.info[i].counterType !== undefined;

  /** The explanation of series `i` at sample `k`: `{ e }`, `{ pending }`, `{ error }` or null (none to give). */
  function explanationOf(i, k) {
    const { capture, info } = state;
    try {
      const e = capture.explainAt(i, k);
      if (e) return { e };
      if (!canReRead(i)) return null;
      const got = kept.get(info[i].path);
      if (!got) return { pending: true };
      if (got.error) return { error: got.error };
      return { e: got.capture.explainAt(got.index, k) };
    } catch (err) {
      return { e: { formula: '', substituted: err.message } };
    }
  }

  /** Explains every selected series at sample `k`; series of a .blg not read again yet are read, then shown. */
  function show(k) {
    const { capture, info } = state;
    if (!capture || !state.timestamps.length || k < 0) return;
    const click = ++shown;
    // Not read yet, or a read that failed (the file was unavailable or changed): a click tries again.
    const missing = selection(state).filter((i) => canReRead(i) && capture.explainAt(i, k) === null && !kept.get(info[i].path)?.capture).map((i) => info[i].path);
    for (const p of missing) kept.delete(p);
    render(k);
    if (!missing.length) return;
    const wait = inflight && missing.every((p) => inflight.paths.has(p)) ? inflight.promise : reRead(missing);
    wait.then(() => { if (click === shown) render(k); }, () => {});
  }

  /** Reads the file again for `paths` (and those a read under way was reading, which this one replaces). */
  function reRead(paths) {
    const all = new Set([...(inflight?.paths ?? []), ...paths]);
    const on = state.capture;
    progress = 0;
    const promise = readRaw([...all], (f) => {
      progress = f;
      const line = box.querySelector('[data-part="explain-progress"]');
      if (line) line.textContent = readingText();
    }).then((c) => {
      if (state.capture !== on) return c.free();
      captures.push(c);
      const mismatch = changedSince(c);
      const byPath = new Map(c.series().map((s) => [s.path, s.index]));
      for (const p of all) {
        const index = byPath.get(p);
        kept.set(p, mismatch ? { error: mismatch }
          : index === undefined ? { error: `${state.sourceName} read again has no raw samples for this series.` }
            : { capture: c, index });
      }
    }, (err) => {
      if (state.capture !== on || err === SUPERSEDED) throw err;
      const why = String(err?.message ?? err).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
      for (const p of all) kept.set(p, { error: `${state.sourceName} is no longer available to read again (${why}), and its raw samples are needed to explain this point: open the file again to explain it.` });
    }).finally(() => {
      if (inflight?.promise === promise) { inflight = null; progress = null; }
    });
    inflight = { paths: all, promise };
    return promise;
  }

  /** Why a re-read capture is not the one on screen (the file changed since it was opened), or null. */
  function changedSince(c) {
    if (c.sampleCount !== state.capture.sampleCount) return `${state.sourceName} has changed since it was opened (${c.sampleCount} samples, not ${state.capture.sampleCount}): open it again to explain its points.`;
    const index = new Map(state.info.map((s) => [s.path, s.index]));
    for (const s of c.series()) {
      const i = index.get(s.path);
      const a = i === undefined ? null : state.capture.values(i);
      const b = c.values(s.index);
      if (!a || a.length !== b.length || a.some((v, j) => !Object.is(v, b[j]))) return `${state.sourceName} has changed since it was opened (the values of this series are not those on screen): open it again to explain its points.`;
    }
    return null;
  }

  const readingText = () => `Reading the raw samples of ${state.sourceName} again, for the series clicked${progress ? `: ${Math.round(100 * progress)} %` : ''}…`;

  function render(k) {
    const { capture, info, timestamps } = state;
    const items = [];
    let waiting = false;
    for (const i of selection(state)) {
      const x = explanationOf(i, k);
      if (!x) continue;
      const item = el('div', null, { 'data-index': String(i) });
      item.append(el('h4', info[i].path));
      if (x.e) item.append(el('p', x.e.formula, { class: 'formula' }), el('p', x.e.substituted, { class: 'formula' }));
      else if (x.error) item.append(el('p', x.error, { class: 'muted', 'data-part': 'explain-error' }));
      else { waiting = true; item.dataset.pending = 'true'; }
      items.push(item);
    }
    const close = el('button', 'Close', { type: 'button' });
    close.addEventListener('click', () => { box.hidden = true; shown++; });
    const head = [el('h3', `How the values at ${formatTime(state, timestamps[k])} were computed`)];
    if (waiting) head.push(el('p', readingText(), { class: 'muted', 'data-part': 'explain-progress' }));
    const none = selection(state).length === 0 ? 'No series is selected: select one to see how its values were computed.'
      : `This capture (${capture.format}) holds the values as they were written, not the raw samples they came from: nothing to explain.`;
    box.replaceChildren(...head, ...(items.length ? items : [el('p', none, { class: 'muted' })]), close);
    box.dataset.sample = String(k);
    box.hidden = false;
  }

  return { show, reset };
}
