// Pointer, wheel and keyboard on the chart canvas: drag to zoom a time range, shift-drag to pan, wheel to
// zoom around the cursor, double-click to reset. Keys on the focused chart: Left and Right move a crosshair
// sample by sample (PageUp/PageDown ten; Home/End to the range's ends), its values shown beside it and said in
// a live region; Shift+Left/Right pan, + and - zoom, 0 resets, Escape (or leaving the chart) removes the
// crosshair. Hovering shows the same crosshair at the nearest sample, whose values the chart panel reads
// from the data (not from pixels).
// Positions come from the layout the last renderChart returned (the plot rectangle and its time range).

/**
 * @param {{canvas: HTMLCanvasElement, selection: HTMLElement, cursor: HTMLElement, readout: HTMLElement}} parts
 *        the canvas and the overlays over it (positioned in the canvas's offset parent)
 * @param {object} chart
 * @param {() => object|null} chart.layout   the last ChartLayout (null before the first draw)
 * @param {() => [number, number]|null} chart.range  the time range shown, null for the whole capture
 * @param {(r: [number, number]|null) => void} chart.setRange
 * @param {(t: number) => {x: number, lines: Node[]}|null} chart.readout  the sample nearest t: its time's
 *        x in the plot (CSS px from the plot's left) and the lines to show
 * @param {(t: number|null, step: number) => number|null} [chart.stepFrom]  the time of the sample `step`
 *        samples from the one nearest t (null: from before the first), for the keyboard crosshair
 * @param {HTMLElement} [chart.live]  a live region: the keyboard crosshair's values are written there
 * @param {(t: number) => void} [chart.pick]  a click (not a drag) at time t
 * @param {() => void} [chart.leave]  the pointer left the plot (the crosshair is gone)
 */
export function mountInteractions({ canvas, selection, cursor, readout }, chart) {
  let drag = null; // { mode: 'zoom' | 'pan', x0, range0 }

  const plot = () => {
    const l = chart.layout();
    return l && l.plotWidth > 0 && l.x1 > l.x0 ? l : null;
  };
  // The canvas's border offsets its content box (where layout coordinates start) inside .chart-box.
  const left = () => canvas.offsetLeft + canvas.clientLeft;
  const top = () => canvas.offsetTop + canvas.clientTop;
  const timeAt = (l, x) => l.x0 + ((x - l.plotLeft) / l.plotWidth) * (l.x1 - l.x0);
  const current = (l) => chart.range() ?? [l.x0, l.x1];

  function zoom(factor, centre) {
    const l = plot();
    if (!l) return;
    const [a, b] = current(l);
    const c = centre ?? (a + b) / 2;
    chart.setRange([c - (c - a) * factor, c + (b - c) * factor]);
  }
  function pan(fraction) {
    const l = plot();
    if (!l) return;
    const [a, b] = current(l);
    const d = (b - a) * fraction;
    chart.setRange([a + d, b + d]);
  }

  canvas.addEventListener('pointerdown', (e) => {
    const l = plot();
    if (!l || e.button !== 0) return;
    canvas.setPointerCapture(e.pointerId);
    drag = { mode: e.shiftKey ? 'pan' : 'zoom', x0: e.offsetX, range0: current(l) };
  });
  canvas.addEventListener('pointermove', (e) => {
    const l = plot();
    if (!l) return;
    if (drag?.mode === 'zoom') {
      const [x1, x2] = [drag.x0, e.offsetX].map((x) => Math.min(Math.max(x, l.plotLeft), l.plotLeft + l.plotWidth)).sort((p, q) => p - q);
      Object.assign(selection.style, { left: `${left() + x1}px`, top: `${top() + l.plotTop}px`, width: `${x2 - x1}px`, height: `${l.plotHeight}px` });
      selection.hidden = false;
    } else if (drag?.mode === 'pan') {
      const [a, b] = drag.range0;
      const dt = ((e.offsetX - drag.x0) / l.plotWidth) * (b - a);
      chart.setRange([a - dt, b - dt]);
    }
    hover(e.offsetX, e.offsetY);
  });
  canvas.addEventListener('pointerup', (e) => {
    const l = plot();
    const d = drag;
    drag = null;
    selection.hidden = true;
    if (!l || d?.mode !== 'zoom') return;
    if (Math.abs(e.offsetX - d.x0) < 4) {
      chart.pick?.(timeAt(l, e.offsetX)); // a click, not a drag: the point under the cursor
      return;
    }
    const [t1, t2] = [timeAt(l, d.x0), timeAt(l, e.offsetX)].sort((p, q) => p - q);
    chart.setRange([t1, t2]);
  });
  canvas.addEventListener('pointercancel', () => { drag = null; selection.hidden = true; });
  canvas.addEventListener('dblclick', () => chart.setRange(null));
  canvas.addEventListener('wheel', (e) => {
    const l = plot();
    if (!l) return;
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.25 : 0.8, timeAt(l, e.offsetX));
  }, { passive: false });
  // The keyboard crosshair's time, null when it is not shown.
  let keyTime = null;
  function moveKeyCrosshair(step, to) {
    const l = plot();
    if (!l || !chart.stepFrom) return;
    const [a, b] = current(l);
    const t = to === 'start' ? chart.stepFrom(a - 1e-6, 0) : to === 'end' ? chart.stepFrom(b, 0)
      : keyTime === null ? chart.stepFrom((a + b) / 2, 0) : chart.stepFrom(keyTime, step);
    if (t === null) return;
    // Keep it inside the visible range: past an edge, the range follows it.
    if (t < a || t > b) {
      const w = b - a;
      chart.setRange(t < a ? [t, t + w] : [t - w, t]);
    }
    keyTime = t;
    const r = showAt(t);
    if (chart.live) chart.live.textContent = r?.text ?? '';
  }
  function hideCrosshair() {
    keyTime = null;
    cursor.hidden = true;
    readout.hidden = true;
    chart.leave?.();
  }
  canvas.addEventListener('keydown', (e) => {
    const act = {
      ArrowLeft: () => (e.shiftKey ? pan(-0.1) : moveKeyCrosshair(-1)), ArrowRight: () => (e.shiftKey ? pan(0.1) : moveKeyCrosshair(1)),
      PageUp: () => moveKeyCrosshair(-10), PageDown: () => moveKeyCrosshair(10),
      Home: () => moveKeyCrosshair(0, 'start'), End: () => moveKeyCrosshair(0, 'end'),
      '+': () => zoom(0.8), '=': () => zoom(0.8), '-': () => zoom(1.25), 0: () => chart.setRange(null),
      Escape: () => (keyTime === null ? null : hideCrosshair()),
    }[e.key];
    if (act && !(e.key === 'Escape' && keyTime === null)) { e.preventDefault(); act(); }
  });
  canvas.addEventListener('blur', () => { if (keyTime !== null) hideCrosshair(); });
  canvas.addEventListener('pointerleave', () => { cursor.hidden = true; readout.hidden = true; chart.leave?.(); });

  /** The crosshair at the sample nearest the pointer, with every selected series' value there. */
  function hover(x, y) {
    const l = plot();
    if (!l || x < l.plotLeft || x > l.plotLeft + l.plotWidth || y < l.plotTop || y > l.plotTop + l.plotHeight) {
      cursor.hidden = true;
      readout.hidden = true;
      chart.leave?.();
      return;
    }
    showAt(timeAt(l, x));
  }

  /** The crosshair and its readout box at the sample nearest time `t`. */
  function showAt(t) {
    const l = plot();
    if (!l) return null;
    const r = chart.readout(t);
    if (!r) return null;
    const cx = l.plotLeft + r.x;
    Object.assign(cursor.style, { left: `${left() + cx}px`, top: `${top() + l.plotTop}px`, height: `${l.plotHeight}px` });
    cursor.hidden = false;
    readout.replaceChildren(...r.lines);
    readout.hidden = false;
    // Beside the cursor, on the side with more room.
    const w = readout.offsetWidth;
    const onRight = cx + 12 + w <= l.plotLeft + l.plotWidth;
    Object.assign(readout.style, { left: `${left() + (onRight ? cx + 12 : Math.max(l.plotLeft, cx - 12 - w))}px`, top: `${top() + l.plotTop + 8}px` });
    return r;
  }

  /** The crosshair line at time `t` without a readout (another pane is hovered), or none for null. */
  function cursorAt(t) {
    const l = plot();
    if (!l || t === null || t < l.x0 || t > l.x1) { cursor.hidden = true; return; }
    const cx = l.plotLeft + ((t - l.x0) / (l.x1 - l.x0)) * l.plotWidth;
    Object.assign(cursor.style, { left: `${left() + cx}px`, top: `${top() + l.plotTop}px`, height: `${l.plotHeight}px` });
    cursor.hidden = false;
  }

  return { zoom, pan, cursorAt };
}
