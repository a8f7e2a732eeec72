// Opening a log in the viewer: a file chosen or dropped, a same-origin URL; read in the Worker with
// progress and cancel (reading.js); a log whose columns would outgrow the memory budget listed first and
// read in part (catalogue.js, with its picker); the status after a failure; a .blg kept to be read again
// for the raw samples of a clicked point (explain.js); the next reading Worker warmed once the page is
// idle. What a read capture changes is capture-view.js'.
import { el } from './dom.js';
import { createReader, fetchSameOrigin, describeError, warmReader, SUPERSEDED } from './reading.js';
import { fileIdentity } from './url-state.js';
import { columnBudget, estimateColumnBytes, planPart, renderPart } from './catalogue.js';

/**
 * @param {object} v  the viewer (index.js): `$`, state, options, element, on, cleanups
 * @param {{ onCaptureRead(capture, notes, name: string): void, takeMany?(files: FileList): boolean, takeDrop?(transfer: DataTransfer): boolean }} hooks  what a read capture changes; takeMany/takeDrop: several files or a folder taken by the fleet view (true), else one file opened here
 */
export function mountOpener(v, hooks) {
  const { $, state, options, element, on } = v;
  let listing = false; // the catalogue pass of a log too large to read whole is running
  const reader = createReader({ onProgress: showReadProgress });
  // A .blg's raw samples, read again for the series whose point is clicked (explain.js).
  let rawProgress = null;
  const rawReader = createReader({ onProgress: (f) => { if (f !== null) rawProgress?.(f); } });
  async function readRaw(paths, onProgress) {
    const from = state.rawSource;
    if (!from) throw new Error('the viewer was not given a file it can read again');
    rawProgress = onProgress;
    const blob = from.url ? (await fetchSameOrigin(from.url)).blob : from.blob;
    return (await rawReader.read(blob, state.sourceName, { keepRaw: paths })).capture;
  }

  function showReadProgress(fraction, name) {
    const reading = fraction !== null;
    if (reading) { delete $['chart-status'].dataset.failed; delete $['chart-status'].dataset.state; $['chart-hint'].hidden = true; }
    $['chart-progress'].hidden = !reading;
    $['chart-cancel'].hidden = !reading;
    if (!reading) return;
    $['chart-progress'].value = fraction;
    const doing = listing ? `Listing the counters of ${name} (too large to read whole)` : `Reading ${name}`;
    $['chart-status'].textContent = fraction ? `${doing}: ${Math.round(100 * fraction)} %` : doing;
  }

  // What was read of a log too large to read whole, with a picker to load other series (catalogue.js).
  const partBox = el('div', null, { 'data-part': 'part', class: 'cl-note cl-part', hidden: '' });
  $['chart-notes'].before(partBox);

  /** Opens a capture; `from` is where it can be read again (`{ url }`; the Blob itself otherwise). A log
   *  whose columns would outgrow the budget is listed first (its catalogue) and read in part: the series
   *  the analysis packs look at, or exactly `picked` (catalogue indices, from the picker) when given. */
  async function open(input, name = 'capture', from = null, { catalogue = null, picked = null } = {}) {
    const blob = input instanceof Blob ? input : new Blob([input]);
    try {
      const identity = fileIdentity(blob, name);
      const budget = options.columnBudget ?? columnBudget();
      let part = null;
      let next = null;
      if (catalogue || estimateColumnBytes(blob.size, name) > budget) {
        listing = true;
        try {
          catalogue ??= (await reader.catalogue(blob, name)).catalogue;
        } finally {
          listing = false;
        }
        if (catalogue.columnBytes > budget) {
          const plan = planPart(catalogue, budget, picked ? { patterns: [], picked } : {});
          part = { name, catalogue, budget, plan };
          next = await reader.read(blob, name, { series: plan.paths, every: plan.every });
        }
      }
      next ??= await reader.read(blob, name);
      state.source = await identity;
      // Only a .blg is read again (for its raw samples); a URL is fetched again rather than held.
      state.rawSource = next.capture.format === 'blg' ? (from ?? { blob }) : null;
      hooks.onCaptureRead(next.capture, next.notes, name);
      warmSoon();
      if (part) renderPart(partBox, part, { onLoad: (indices) => open(blob, name, from, { catalogue: part.catalogue, picked: indices }) });
      else { partBox.hidden = true; partBox.replaceChildren(); }
    } catch (err) {
      if (err === SUPERSEDED) return;
      if (err?.cancelled) delete $['chart-status'].dataset.state;
      if (err?.cancelled) $['chart-status'].textContent = `Reading ${name} cancelled.${state.capture ? ` Still showing ${state.sourceName}.` : ''}`;
      else showOpenFailure(describeError(err, { name, size: blob.size }));
    }
  }

  /** The status after a failed open: why, and which capture is still on screen. */
  function showOpenFailure(why) {
    const still = state.capture ? ` Still showing ${state.sourceName}.` : ' No capture is open.';
    $['chart-status'].textContent = `The last open failed. ${why}${/[.!?]$/.test(why) ? '' : '.'}${still}`;
    $['chart-status'].dataset.failed = 'true';
    delete $['chart-status'].dataset.state;
    $['chart-hint'].hidden = false;
  }

  async function openUrl(url, name) {
    try {
      const fetched = await fetchSameOrigin(url);
      await open(fetched.blob, name ?? fetched.name, { url });
    } catch (err) {
      showOpenFailure(describeError(err));
    }
  }

  // ---- handlers ----
  function onFileChosen(e) { const f = e.target.files[0]; if (f && !hooks.takeMany?.(e.target.files)) open(f, f.name); }
  function onDragOver(e) {
    e.preventDefault();
    element.classList.toggle('dragging', !e.target.closest?.('[data-own-drop]'));
  }
  function onDragLeave(e) { if (!e.relatedTarget || !element.contains(e.relatedTarget)) element.classList.remove('dragging'); }
  function onFileDropped(e) {
    element.classList.remove('dragging');
    if (!e.dataTransfer?.files[0] || e.target.closest?.('[data-own-drop]')) return; // panels with drops of their own
    e.preventDefault();
    if (!hooks.takeDrop?.(e.dataTransfer)) open(e.dataTransfer.files[0], e.dataTransfer.files[0].name);
  }
  function onCancelClicked() { reader.cancel(Object.assign(new Error('Reading cancelled'), { cancelled: true })); }

  on($['dropzone-open'], 'click', () => $['capture-file'].click());
  on($['capture-file'], 'change', onFileChosen);
  const dropTarget = options.dropAnywhere ? document : element;
  on(dropTarget, 'dragover', onDragOver);
  on(dropTarget, 'drop', onFileDropped);
  on(dropTarget, 'dragleave', onDragLeave);
  on($['chart-cancel'], 'click', onCancelClicked);

  // The reading Worker of the next file is made and warmed once the page has painted and is idle, so the
  // first file a user opens reads at full speed (reading.js warmReader); again after each read takes it.
  let alive = true;
  const whenIdle = (f) => (globalThis.requestIdleCallback ?? ((g) => setTimeout(g, 200)))(f, { timeout: 3000 });
  // The element's data-reader-warmed says how many warm-up reads the Worker made (tests, tools).
  const warmSoon = () => requestAnimationFrame(() => whenIdle(() => {
    if (alive) warmReader().then((w) => { if (alive && w) element.dataset.readerWarmed = String(w.reads); });
  }));
  warmSoon();

  return {
    open,
    openUrl,
    readRaw,
    stop() {
      alive = false;
      reader.stop();
      rawReader.stop();
    },
  };
}
