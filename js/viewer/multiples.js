// Small multiples: one counter across several machines drawn as one small chart per machine, side by side,
// on shared axes (the same time range and the same value range), so the machines compare at a glance.
// Chosen in the chart toolbar (View: a chart per machine) when the selection is one counter on several
// machines (index.js); each chart is the core's renderChart, as the main chart is.
import { renderChart } from '../core.js';
import { el } from './dom.js';
import { offsetMinutes } from './state.js';

/** Draws (or, `on` false, removes) one chart per selected series into `container`, captioned with its
 *  machine, in machine order. The value range is shared: from min(0, lowest min) to the highest max of
 *  the selected series over the visible range. */
export function renderMultiples(container, state, on, { dark }) {
  if (!on || !state.capture) {
    if (container.firstChild) container.replaceChildren();
    return;
  }
  const { capture, timestamps } = state;
  const indices = [...state.selected].sort((a, b) => state.info[a].machine.localeCompare(state.info[b].machine));
  const [from, to] = state.range ?? [timestamps[0], timestamps[timestamps.length - 1]];
  let lo = 0, hi = -Infinity;
  for (const i of indices) {
    const st = capture.stats(i, from, to);
    if (Number.isFinite(st.min)) lo = Math.min(lo, st.min);
    if (Number.isFinite(st.max)) hi = Math.max(hi, st.max);
  }
  if (!(hi > lo)) hi = lo + 1;
  const figures = indices.map((i) => {
    const figure = el('figure', null, { class: 'multiple', 'data-index': String(i) });
    const canvas = el('canvas', null, { 'data-part': 'multiple-chart', role: 'img', 'aria-label': `${state.info[i].path}: ${state.info[i].counter} on \\\\${state.info[i].machine}` });
    figure.append(el('figcaption', `\\\\${state.info[i].machine}`), canvas);
    return figure;
  });
  container.replaceChildren(...figures);
  for (const [k, i] of indices.entries()) {
    const canvas = figures[k].querySelector('canvas');
    const layout = renderChart(canvas, capture, [i], { dark, legend: false, colors: [state.slots.get(i)], offsetMinutes: offsetMinutes(state), xRange: [from, to], yRange: [lo, hi] });
    canvas.dataset.y0 = String(layout.y0);
    canvas.dataset.y1 = String(layout.y1);
    canvas.dataset.pointsDrawn = String(layout.pointsDrawn);
  }
}
