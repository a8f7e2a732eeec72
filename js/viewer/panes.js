// The chart pane: draws the selected series with renderChart (composition and M4 in the core), and the
// crosshair readout and click-to-explain over it (pointer, wheel and keys in chart-interact.js).
import { renderChart, seriesColor } from '../api.js';
import { el } from './dom.js';
import { mountInteractions } from './chart-interact.js';
import { renderLegend, showLegendAt } from './legend.js';
import { selection, formatTime, offsetMinutes, formatSeriesValue } from './state.js';

/**
 * @param {{canvas, selection, cursor, readout, range, explain, legend}} parts  the pane's elements
 * @param {object} state  the viewer's state (state.js)
 * @param {{ setRange(r): void, options(): object }} hooks  the viewer's range change, and draw options
 *        (dark, references)
 */
export function createChartPane(parts, state, hooks) {
  let layout = null; // what the last renderChart returned
  let drawn = { indices: [], factors: new Map() }; // what it drew, for the legend

  function draw() {
    const { capture } = state;
    if (!capture || !parts.canvas.isConnected || parts.canvas.closest('[hidden]')) return;
    const indices = selection(state).filter((i) => !state.hidden.has(i));
    const o = hooks.options();
    // The legend is outside the plot (legend.js), not drawn on the canvas.
    const view = { dark: o.dark, offsetMinutes: offsetMinutes(state), colors: indices.map((i) => state.slots.get(i)), legend: false };
    if (state.range) view.xRange = state.range;
    if (state.yScale !== 'units') view.yScale = state.yScale;
    if (o.references) view.references = true;
    if (state.highlight !== null && state.selected.has(state.highlight)) view.highlight = indices.indexOf(state.highlight);
    layout = renderChart(parts.canvas, capture, indices, view);
    // The layout, for tests and tools that drive the chart: plot rectangle (CSS px) and time range.
    for (const k of ['pointsDrawn', 'x0', 'x1', 'plotLeft', 'plotTop', 'plotWidth', 'plotHeight']) parts.canvas.dataset[k] = String(layout[k]);
    parts.canvas.dataset.axes = layout.axes.map((a) => `${a.side}:${a.unit}${a.log ? ':log' : ''}`).join(' ');
    const factors = new Map();
    for (const [k, i] of indices.entries()) factors.set(i, layout.series[k]?.factor ?? 1);
    drawn = { indices, factors };
    parts.range.textContent = state.timestamps.length ? `${formatTime(state, layout.x0)} to ${formatTime(state, layout.x1)}${state.range ? '' : ' (all)'}` : '';
  }

  /** The crosshair: the sample nearest `t`, its time, and each selected series' value there. */
  function readout(t) {
    const { capture, timestamps, info } = state;
    if (!capture || !layout || !timestamps.length) return null;
    const k = capture.sampleAt(t);
    if (k < 0) return null;
    const ts = timestamps[k];
    const lines = [el('div', formatTime(state, ts), { class: 'readout-time' })];
    for (const i of selection(state)) {
      const s = info[i];
      const v = capture.valueAt(i, k);
      const swatch = el('span', null, { class: 'swatch' });
      swatch.style.background = seriesColor(state.slots.get(i));
      const line = el('div', null, { 'data-index': String(i), 'data-value': String(v) });
      line.append(swatch, el('span', `${s.instance !== undefined ? `${s.object}(${s.instance})` : s.object}\\${s.counter}: `), el('b', Number.isNaN(v) ? 'no value' : formatSeriesValue(s, v)));
      lines.push(line);
    }
    showLegendAt(parts.legend, state, k);
    return { x: ((ts - layout.x0) / (layout.x1 - layout.x0)) * layout.plotWidth, lines, sample: k };
  }

  /** Explains each selected series' value at the sample nearest `t` (captures that keep the raw numbers;
   *  other formats hold only cooked values, and the box says so). */
  function explainAt(t) {
    const { capture, timestamps, info } = state;
    if (!capture || !timestamps.length) return;
    const k = capture.sampleAt(t);
    const items = [];
    for (const i of selection(state)) {
      let e;
      try {
        e = capture.explainAt(i, k);
      } catch (err) {
        e = { formula: '', substituted: err.message };
      }
      if (!e) continue;
      const item = el('div', null, { 'data-index': String(i) });
      item.append(el('h4', info[i].path), el('p', e.formula, { class: 'formula' }), el('p', e.substituted, { class: 'formula' }));
      items.push(item);
    }
    const box = parts.explain;
    const close = el('button', 'Close', { type: 'button' });
    close.addEventListener('click', () => { box.hidden = true; });
    box.replaceChildren(el('h3', `How the values at ${formatTime(state, timestamps[k])} were computed`), ...(items.length ? items
      : [el('p', `This capture (${capture.format}) holds the values as they were written, not the raw samples they came from: nothing to explain.`, { class: 'muted' })]), close);
    box.hidden = false;
  }

  const interactions = mountInteractions({ canvas: parts.canvas, selection: parts.selection, cursor: parts.cursor, readout: parts.readout },
    { layout: () => layout, range: () => state.range, setRange: hooks.setRange, readout, pick: explainAt, leave: () => showLegendAt(parts.legend, state, null) });

  /** The legend of what the last draw showed (after a change of selection, range or scale). */
  const legend = () => renderLegend(parts.legend, state, drawn.factors);

  return { draw, legend, zoom: interactions.zoom, pan: interactions.pan, layout: () => layout };
}
