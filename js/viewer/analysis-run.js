// The Analysis panel's runs (analysis-panel.js), in a Worker (worker.js) that keeps the capture between
// runs: its columns are transferred with the first run, and a run on the same capture (other packs,
// other answers) sends its options alone. A run a moment after the last change (not on every keystroke);
// a run cannot be interrupted, so Cancel ends the Worker (and the capture it held). With a PAL import in
// play, the built-in packs' run too, for the verdict to say where the two disagree. Also the report's
// download (analysisReport's HTML, written in the same Worker). The machine's normal in use
// (analysis-normal.js) goes with each run: a baseline file's text, or a fleet's other logs for the Worker
// to learn it from; what came of it goes back to the normal. Messages carry a `type` both ways.
import { el } from './dom.js';
import { describeAnalysisError } from './analysis-error.js';
import { rulesLine } from './pack-scope.js';

/**
 * @param {{ state: object, scope: object, setup: object, normal: object, verdict(): object|null, root: HTMLElement,
 *           parts: { run, cancel, progress, status, download }, onResults(last: object): void }} hooks
 */
export function createRunner(hooks) {
  const { state, scope, setup, root } = hooks;
  const { run, cancel, progress, status, download } = hooks.parts;
  let running = null; // the Worker while an analysis runs
  let analyst = null; // { worker, capture }: the Worker holding the capture analysed, kept between runs
  let rerun = 0; // the timer of a re-run after a change
  const endAnalyst = () => {
    analyst?.worker.terminate();
    analyst = null;
  };

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
    const options = { variables: setup.answers() };
    const packs = setup.chosenPacks();
    if (packs) options.packs = packs;
    if (setup.rangeOnly() && state.range) [options.from, options.to] = state.range;
    const { baseline, normal } = hooks.normal.job();
    if (baseline !== undefined) options.baseline = baseline;
    // With a PAL import in play, the built-in packs' analysis too (about 20 ms), for the verdict to say
    // where the two disagree.
    const builtinJob = scope.pal().length ? { variables: options.variables, ...(options.from !== undefined ? { from: options.from, to: options.to } : {}) } : null;
    if (analyst?.capture !== capture) endAnalyst();
    const job = { options, ...(builtinJob ? { builtin: builtinJob } : {}), ...(normal ? { normal } : {}) };
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
    const learning = normal && !hooks.normal.inUse() ? `Learning its normal from ${normal.logs.length} other log${normal.logs.length === 1 ? '' : 's'}, then a` : 'A';
    const text = `${learning}nalysing ${capture.seriesCount.toLocaleString('en-US')} series with ${packs ? `${packs.length} pack${packs.length === 1 ? '' : 's'}` : 'every built-in pack that applies'}…`;
    setRunning(true, text);
    hooks.verdict()?.running(text, rulesLine(scope, null, setup.builtins));
    const started = performance.now();
    worker.onmessage = ({ data }) => {
      if (running !== worker || data.type !== 'analysis') return;
      running = null;
      setRunning(false);
      if (data.error) {
        status.textContent = describeAnalysisError(data.error);
        hooks.verdict()?.error(status.textContent, rulesLine(scope, null, setup.builtins));
        return;
      }
      hooks.normal.ran(data);
      const took = Math.round(performance.now() - started);
      status.textContent = `Done in ${took} ms.`;
      root.dataset.took = String(took);
      hooks.onResults({ analysis: data.analysis, packs, builtin: data.builtin ?? null, took });
    };
    worker.onerror = (e) => { stopRun(); status.textContent = `The analysis stopped: ${e.message || 'worker error'}`; hooks.verdict()?.error(status.textContent); };
    worker.postMessage({ type: 'analyze', job }, transfer);
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

  /** The report of the last analysis (HTML), written in the Worker and downloaded. */
  async function onDownload(last) {
    if (!last || !analyst) return;
    const worker = analyst.worker;
    download.disabled = true;
    status.textContent = 'Writing the report…';
    const html = await new Promise((resolve) => {
      const prev = worker.onmessage;
      worker.onmessage = (m) => {
        if (m.data.type !== 'report') return prev?.(m);
        worker.onmessage = prev;
        resolve(m.data);
      };
      worker.postMessage({ type: 'report', title: `Analysis of ${state.sourceName || 'a capture'}` });
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

  return {
    onRun,
    scheduleRun,
    stopRun,
    onDownload,
    /** Another capture: the run and the Worker holding the last capture end. */
    reset() {
      stopRun();
      endAnalyst();
    },
    stop() {
      clearTimeout(rerun);
      stopRun();
      endAnalyst();
    },
  };
}
