// "Show in context" of the Analysis panel (analysis-panel.js): a card's series (the worst first) charted
// around its range (padded with context), with its warning and critical thresholds and the range shaded,
// drawn by the core's chart through the viewer's state.marks; a derived series (a PAL Generated source)
// charted above the main chart by derived.js, its inputs in the main chart. The bar over the chart says
// what is shown, and Back restores the user's own selection and range (kept at the first Show).
import { el } from './dom.js';
import { sentence, cardThresholds } from './cards.js';
import { ruleCounter } from './pack-scope.js';
import { createDerivedChart } from './derived.js';
import { describeAnalysisError } from './analysis-error.js';

/** Series shown at most by Show (the worst first). */
const SHOW_MAX = 8;

/** The view around a finding: at least as long again on each side, and at least 20 samples wide. */
export function contextRange([start, end], interval) {
  const width = Math.max(end - start, 1);
  const pad = Math.max(width, ((20 * (interval || 1000)) - width) / 2, interval || 1000);
  return [start - pad, end + pad];
}

const part = (name, tag, text, attrs = {}) => el(tag, text, { ...attrs, 'data-part': name });

/**
 * @param {{ state: object, scope: object, root: HTMLElement, canvas: HTMLCanvasElement, dark?(): boolean,
 *           context(): object, show(indices: number[], range: [number, number]): void,
 *           restore(saved: object): void, redraw(): void }} hooks
 *        the viewer's state, the panel's pack scope and section, the chart canvas, the theme, the cards'
 *        time context, and the viewer's Show, Back and redraw
 */
export function createFocus(hooks) {
  const { state, root } = hooks;
  let saved = null; // the user's view before Show: { selected, slots, hidden, paneOf, range }
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

  /** Show in context: card `k` of `analysis`. */
  function showGroup(analysis, k) {
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
    const thresholds = cardThresholds(analysis, g, state.info, (p, r) => ruleCounter(hooks.scope, p, r));
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
    focusText.textContent = `Showing: ${sentence(analysis, g, hooks.context())}${more}. `;
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
  back.addEventListener('click', onBack);

  return {
    showGroup,
    /** A card is shown (the user's own view is kept for Back). */
    showing: () => saved !== null,
    /** Another capture: no card shown, nothing to go back to. */
    reset() {
      saved = null;
      state.marks = null;
      derivedChart?.clear();
      focusBar.hidden = true;
    },
    /** The theme changed: the derived chart is drawn again in it. */
    redraw: () => derivedChart?.draw(),
    destroy() {
      back.removeEventListener('click', onBack);
      focusBar.remove();
      derivedChart?.destroy();
      derivedBox?.remove();
    },
  };
}
