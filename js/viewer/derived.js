// A derived series in the viewer (a pack's series computed sample by sample from the capture's: PAL's SQL
// Compilations to Batch Requests per SQL instance, Disk Overwhelmed, ...). It is not in the capture, so
// Show on its card charts it here, above the main chart: the values from `derivedSeries`, named by the
// finding's path and its definition, with the rule's thresholds and the finding's range; the main chart
// shows its inputs as context. A click on a point (or "Explain the worst point") explains it the way
// explain.js explains a cooked value: each input's value at that sample and the expression with those
// values written in (`explainDerived`). Everything from a pack or a file is written with textContent.
import { Capture, derivedSeries, explainDerived, renderChart } from '../core.js';
import { el } from './dom.js';
import { formatTime, offsetMinutes } from './state.js';

/** Series of one card charted here at most (the worst first). */
const MAX = 4;

/**
 * @param {HTMLElement} box  the derived chart's region (hidden until a derived card is shown)
 * @param {object} state  the viewer's state (capture, timestamps, theme for the clock)
 * @param {{ dark(): boolean, describe(e: unknown): string }} hooks  the theme, and how an analysis error reads
 */
export function createDerivedChart(box, state, hooks) {
  let shown = null; // { capture, findings, thresholds, range, ranges }
  const title = el('h3', null, { 'data-part': 'derived-title' });
  const definition = el('div', null, { class: 'derived-definition', 'data-part': 'derived-definition' });
  const canvas = el('canvas', null, { 'data-part': 'derived-chart', tabindex: '0',
    'aria-label': 'The derived series: click a point to see how it was computed' });
  const worst = el('button', 'Explain the worst point', { type: 'button', 'data-part': 'derived-explain-worst' });
  const hint = el('p', null, { class: 'muted' });
  hint.append('Click a point of this chart to see how it was computed from its inputs. ', worst);
  const explanation = el('div', null, { 'data-part': 'derived-explain', 'aria-live': 'polite' });
  explanation.hidden = true;
  box.replaceChildren(title, definition, el('div', null, { class: 'derived-chart-box' }), hint, explanation);
  box.querySelector('.derived-chart-box').append(canvas);
  box.hidden = true;
  let layout = null;

  /** Charts the derived series of `findings` (an analysis' findings with `derived`, the worst first) over
   *  `range`, the thresholds on the first, `ranges` shaded. Returns an error's text, or null. */
  function show(findings, { thresholds, range, ranges }) {
    clear();
    const list = findings.slice(0, MAX);
    let capture;
    try {
      const series = list.map((f) => ({ path: f.path, counterType: null, reference: null, values: derivedSeries(state.capture, f.derived) }));
      capture = Capture.fromParts({ format: 'unknown', encoding: 'unknown', timeZone: state.capture.timeZone ?? null, notes: [],
        timestamps: Float64Array.from(state.timestamps), series });
    } catch (e) {
      return hooks.describe(e);
    }
    shown = { capture, findings: list, thresholds, range, ranges };
    const f = list[0];
    title.textContent = `Derived series: ${f.path}${list.length > 1 ? ` and ${list.length - 1} more` : ''}`;
    definition.replaceChildren(...list.slice(0, 1).flatMap((x) => defined(x)));
    box.hidden = false;
    draw();
    return null;
  }

  /** A definition in words: "= expression", then what each name stands for and the variables. */
  function defined(f) {
    const d = f.derived;
    const lines = [el('p', `${f.path} = ${d.expression}`, { class: 'formula' })];
    const where = el('ul', null, { class: 'derived-inputs' });
    for (const i of d.inputs) where.append(el('li', `${i.name}: ${i.path}`));
    for (const [name, v] of Object.entries(d.variables ?? {})) where.append(el('li', `${name} = ${v} (a variable of pack ${d.pack})`));
    lines.push(el('p', `Computed sample by sample by pack ${d.pack} (${d.id}) from the series charted below, where:`, { class: 'muted' }), where);
    return lines;
  }

  function draw() {
    if (!shown || box.hidden || !canvas.isConnected) return;
    const n = shown.findings.length;
    layout = renderChart(canvas, shown.capture, [...Array(n).keys()], {
      dark: hooks.dark(), offsetMinutes: offsetMinutes(state), xRange: shown.range, legend: n > 1,
      thresholds: shown.thresholds.map((t) => ({ ...t, series: 0 })), ranges: shown.ranges,
    });
    for (const k of ['x0', 'x1', 'plotLeft', 'plotTop', 'plotWidth', 'plotHeight']) canvas.dataset[k] = String(layout[k]);
    canvas.dataset.marks = (layout.marks ?? []).map((m) => `${m.kind}:${m.value}:${m.a}:${m.b}`).join(' ');
  }

  /** Explains sample `k` of each derived series charted: inputs' values and the arithmetic. */
  function explain(k) {
    if (!shown || k < 0) return;
    const items = [el('h3', `How the values at ${formatTime(state, state.timestamps[k])} were computed`)];
    for (const f of shown.findings) {
      const item = el('div', null, { 'data-part': 'derived-explain-item' });
      item.append(el('h4', f.path));
      try {
        const e = explainDerived(state.capture, f.derived, k);
        item.append(el('p', `${f.path} = ${e.expression}`, { class: 'formula' }));
        const inputs = el('ul', null, { class: 'derived-inputs' });
        for (const i of e.inputs) inputs.append(el('li', `${i.name} = ${Number.isNaN(i.value) ? 'no value' : String(i.value)} (${i.path})`, { 'data-input': i.name, 'data-value': String(i.value) }));
        for (const [name, v] of Object.entries(e.variables ?? {})) inputs.append(el('li', `${name} = ${v} (a variable)`));
        item.append(inputs);
        item.append(e.substituted !== undefined && e.substituted !== null
          ? el('p', e.substituted, { class: 'formula', 'data-part': 'derived-arithmetic' })
          : el('p', 'An input has no value at this sample, so the derived series has none either.', { class: 'muted', 'data-part': 'derived-arithmetic' }));
      } catch (err) {
        item.append(el('p', hooks.describe(err), { class: 'muted' }));
      }
      items.push(item);
    }
    const close = el('button', 'Close', { type: 'button' });
    close.addEventListener('click', () => { explanation.hidden = true; });
    explanation.replaceChildren(...items, close);
    explanation.dataset.sample = String(k);
    explanation.hidden = false;
  }

  /** The sample of the first series' worst value inside the finding's range (by the rule's operator). */
  function worstSample() {
    if (!shown) return -1;
    const f = shown.findings[0];
    const v = shown.capture.values(0);
    const below = f.operator === 'lt' || f.operator === 'le';
    let best = -1;
    for (let k = 0; k < v.length; k++) {
      const t = state.timestamps[k];
      if (t < f.start || t > f.end || Number.isNaN(v[k])) continue;
      if (best < 0 || (below ? v[k] < v[best] : v[k] > v[best])) best = k;
    }
    return best;
  }

  const onClick = (e) => {
    if (!shown || !layout) return;
    const r = canvas.getBoundingClientRect();
    const x = e.clientX - r.left - layout.plotLeft;
    if (x < 0 || x > layout.plotWidth) return;
    explain(shown.capture.sampleAt(layout.x0 + (x / layout.plotWidth) * (layout.x1 - layout.x0)));
  };
  const onWorst = () => explain(worstSample());
  canvas.addEventListener('click', onClick);
  worst.addEventListener('click', onWorst);
  // Drawn again when its box changes width (a window resized, a phone turned).
  let width = 0;
  const resized = new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w !== width) { width = w; draw(); }
  });
  resized.observe(box.querySelector('.derived-chart-box'));

  /** Hides the chart and frees the capture it drew. */
  function clear() {
    shown?.capture.free();
    shown = null;
    layout = null;
    box.hidden = true;
    explanation.hidden = true;
  }

  function destroy() {
    clear();
    resized.disconnect();
    canvas.removeEventListener('click', onClick);
    worst.removeEventListener('click', onWorst);
  }

  return { show, draw, explain, clear, destroy, get shown() { return shown !== null; } };
}
