// Chart panes: each draws its share of the selected series with renderChart (composition and M4 in the
// core), with the crosshair readout over it and a click sent to explain.js (pointer, wheel and keys in
// chart-interact.js). A stack of panes shares the time axis: one range (zoom and pan move them all) and
// one crosshair (hovering one pane shows the same time in the others), as uPlot's cursor sync does.
import { renderChart, seriesColor } from '../core.js';
import { el } from './dom.js';
import { mountInteractions } from './chart-interact.js';
import { renderLegend, showLegendAt, displayName, legendOrder } from './legend.js';
import { selection, formatTime, offsetMinutes, formatSeriesValue } from './state.js';

/**
 * @param {{canvas, selection, cursor, readout, range, legend}} parts  the pane's elements
 * @param {object} state  the viewer's state (state.js)
 * @param {{ setRange(r): void, options(): object, explain(k: number): void }} hooks  the viewer's range
 *        change, draw options (dark, references), and a click at sample k
 */
export function createChartPane(parts, state, hooks, paneIndex = 0) {
  let layout = null; // what the last renderChart returned
  let drawn = { indices: [], factors: new Map() }; // what it drew, for the legend

  function draw() {
    const { capture } = state;
    if (!capture || !parts.canvas.isConnected || parts.canvas.closest('[hidden]')) return;
    const indices = selection(state).filter((i) => !state.hidden.has(i) && (state.paneOf.get(i) ?? 0) === paneIndex);
    const o = hooks.options();
    // The legend is outside the plot (legend.js), not drawn on the canvas.
    const view = { dark: o.dark, offsetMinutes: offsetMinutes(state), colors: indices.map((i) => state.slots.get(i)), legend: false };
    if (state.range) view.xRange = state.range;
    if (state.yScale !== 'units') view.yScale = state.yScale;
    const overlays = hooks.overlays?.(indices);
    if (overlays?.length) view.overlays = overlays;
    const axes = hooks.axes?.();
    if (axes) [view.axesLeft, view.axesRight] = axes;
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

  /** The crosshair: the sample nearest `t`, its time, and each selected series' value there (named with
   *  its machine when the log has several), as lines for the box and as one sentence for a live region. */
  function readout(t) {
    const { capture, timestamps, info } = state;
    if (!capture || !layout || !timestamps.length) return null;
    const k = capture.sampleAt(t);
    if (k < 0) return null;
    const ts = timestamps[k];
    const lines = [el('div', formatTime(state, ts), { class: 'readout-time' })];
    const said = [];
    for (const i of legendOrder(state).filter((j) => (state.paneOf.get(j) ?? 0) === paneIndex)) {
      const s = info[i];
      const v = capture.valueAt(i, k);
      const swatch = el('span', null, { class: 'swatch' });
      swatch.style.background = seriesColor(state.slots.get(i));
      const line = el('div', null, { 'data-index': String(i), 'data-value': String(v) });
      const value = Number.isNaN(v) ? 'no value' : formatSeriesValue(s, v);
      line.append(swatch, el('span', `${displayName(s, state.multiMachine)}: `), el('b', value));
      lines.push(line);
      said.push(`${displayName(s, state.multiMachine)} ${value}`);
    }
    showLegendAt(parts.legend, state, k);
    hooks.onCursor?.(ts);
    return { x: ((ts - layout.x0) / (layout.x1 - layout.x0)) * layout.plotWidth, lines, sample: k, time: ts,
      text: `${formatTime(state, ts)}: ${said.join('; ') || 'no series'}` };
  }

  /** The time of the sample `step` samples from the one nearest `t` (the keyboard crosshair). */
  function stepFrom(t, step) {
    const { capture, timestamps } = state;
    if (!capture || !timestamps.length) return null;
    const k = Math.min(Math.max((t === null ? -1 : capture.sampleAt(t)) + step, 0), timestamps.length - 1);
    return timestamps[k];
  }

  /** A click: the selected series' values at the sample nearest `t` are explained (explain.js). */
  function explainAt(t) {
    const { capture, timestamps } = state;
    if (capture && timestamps.length) hooks.explain?.(capture.sampleAt(t));
  }

  const interactions = mountInteractions({ canvas: parts.canvas, selection: parts.selection, cursor: parts.cursor, readout: parts.readout },
    { layout: () => layout, range: () => state.range, setRange: hooks.setRange, readout, stepFrom, pick: explainAt, live: parts.live,
      leave: () => { showLegendAt(parts.legend, state, null); hooks.onCursor?.(null); } });

  /** The legend of what the last draw showed (after a change of selection, range or scale). */
  const legend = () => renderLegend(parts.legend, state, drawn.factors, 1, hooks.legendOthers?.() ?? []);

  return { draw, legend, zoom: interactions.zoom, pan: interactions.pan, cursorAt: interactions.cursorAt, layout: () => layout, factors: () => drawn.factors };
}

/** A pane's box: the canvas and the overlays over it. */
export function paneBox(k) {
  const box = el('div', null, { class: 'chart-box', 'data-pane': String(k) });
  const canvas = el('canvas', null, { 'data-part': 'chart', 'data-pane': String(k), tabindex: '0', 'aria-label': `Chart pane ${k + 1}: drag to zoom, shift-drag to pan, wheel to zoom, double-click to reset` });
  const overlays = ['chart-selection', 'chart-cursor', 'chart-readout'].map((n) => {
    const d = el('div', null, { 'data-part': n });
    d.hidden = true;
    return d;
  });
  box.append(canvas, ...overlays);
  return { box, canvas, selection: overlays[0], cursor: overlays[1], readout: overlays[2] };
}

/**
 * A stack of panes sharing the time axis. Pane 0 uses the parts the layout built (`#chart`); the others
 * are added to `parts.stack` as series are moved to them (state.paneOf), and removed when they empty.
 */
export function createPaneStack(parts, state, hooks) {
  const panes = [];
  const resize = new ResizeObserver(() => draw());
  const syncCursor = (from) => (t) => { for (const p of panes) if (p !== from()) p.cursorAt(t); };
  // The value axes each pane needs (units alternate left, right, as chart::plan_axes places them), and
  // the most of any pane, which every pane reserves so the plots line up on the shared time axis.
  let axes = [1, 0];
  function reserve() {
    let [l, r] = [1, 0];
    for (let p = 0; p < panes.length; p++) {
      const shown = [...state.selected].filter((i) => !state.hidden.has(i) && (state.paneOf.get(i) ?? 0) === p);
      const n = state.yScale === 'perfmon' ? 1 : new Set(shown.map((i) => state.info[i].unit)).size;
      [l, r] = [Math.max(l, Math.ceil(n / 2)), Math.max(r, Math.floor(n / 2))];
    }
    axes = [l, r];
  }
  function add(elements) {
    let pane = null;
    pane = createChartPane({ ...parts, ...elements }, state, { ...hooks, axes: () => axes, onCursor: syncCursor(() => pane) }, panes.length);
    pane.box = elements.box;
    panes.push(pane);
    resize.observe(elements.canvas);
  }
  add({ canvas: parts.canvas, selection: parts.selection, cursor: parts.cursor, readout: parts.readout, box: null });

  /** Pane numbers in use, made contiguous (0, 1, 2, ...), and as many panes as they need. */
  function arrange() {
    const used = [...new Set([...state.selected].map((i) => state.paneOf.get(i) ?? 0))].filter((p) => p > 0).sort((a, b) => a - b);
    const renumber = new Map(used.map((p, k) => [p, k + 1]));
    for (const i of state.selected) if ((state.paneOf.get(i) ?? 0) > 0) state.paneOf.set(i, renumber.get(state.paneOf.get(i)));
    const want = 1 + used.length;
    while (panes.length < want) {
      const b = paneBox(panes.length);
      parts.stack.append(b.box);
      add(b);
    }
    while (panes.length > want) {
      const p = panes.pop();
      resize.unobserve(p.box.querySelector('canvas'));
      p.box.remove();
    }
  }

  function draw() {
    arrange();
    reserve();
    for (const p of panes) p.draw();
  }
  /** The one legend, for every pane's series (with the factor each was drawn with). */
  function legend() {
    const factors = new Map();
    for (const p of panes) for (const [i, f] of p.factors()) factors.set(i, f);
    renderLegend(parts.legend, state, factors, panes.length, hooks.legendOthers?.() ?? []);
  }
  return { draw, legend, zoom: (f) => panes[0].zoom(f), pan: (f) => panes[0].pan(f), layout: () => panes[0].layout(), count: () => panes.length, stop: () => resize.disconnect() };
}
