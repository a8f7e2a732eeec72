// The viewer's one redraw path. Handlers change the state and say what changed (`changed('selection')`,
// `changed('range', 'theme')`); the scheduler repaints, once per animation frame, every part that depends
// on something that changed, each part once however many changes came in that frame, in a fixed order
// (the chart before its legend, which shows the factors it drew with). Which part depends on what is one
// table, DEPENDS; nothing else in the viewer decides what to repaint. `flush()` paints at once (the
// public API's calls, which return with the view drawn).

/** What each part of the viewer shows, in painting order, and the changes it is painted again after:
 *  capture (another log), selection (series selected, their colours), tick (a series ticked in the tree
 *  itself), filter (the tree's filter text), range (the visible time range), theme, zone (the time
 *  labels' zone), scale (the value axes), view (one chart or a chart per machine), highlight (the hovered
 *  series), hidden (series hidden from the chart), panes (the pane of a series), references (PDH's own
 *  values overlaid), sort (the statistics' order), compare (the comparison file, alignment or overlay),
 *  compareSort (the change table's order), marks (an analysis card's thresholds), analysis (a run's
 *  results came), size (the chart's box; the API's redraw). */
export const DEPENDS = {
  facts: ['capture'], // the status line, the log's facts, its notes
  tree: ['capture', 'selection', 'filter'], // not after a tick: the tree shows its own ticks (and keeps focus)
  layout: ['capture', 'selection', 'tick', 'view'], // one chart or a chart per machine, the empty chart's note
  chart: ['capture', 'selection', 'tick', 'range', 'theme', 'zone', 'scale', 'view', 'highlight', 'hidden', 'panes', 'references', 'compare', 'marks', 'size'],
  multiples: ['capture', 'selection', 'tick', 'range', 'theme', 'zone', 'scale', 'view'],
  legend: ['capture', 'selection', 'tick', 'range', 'scale', 'view', 'hidden', 'panes', 'compare'],
  stats: ['capture', 'selection', 'tick', 'range', 'references', 'sort'],
  comparison: ['capture', 'selection', 'tick', 'range', 'compare', 'compareSort'],
  url: ['capture', 'selection', 'tick', 'range', 'scale', 'theme', 'panes'],
  listeners: ['capture', 'selection', 'tick', 'range'],
  derived: ['theme'], // the analysis' derived-series chart
  results: ['analysis', 'zone'], // the analysis' summary, cards, verdict and questions (their times in the zone chosen)
};

/** Every change a handler may name (a name not here is a mistake, thrown at once). */
export const CHANGES = [...new Set(Object.values(DEPENDS).flat())];

/** The parts to paint after `changes`, in painting order. */
export function partsFor(changes, depends = DEPENDS) {
  const set = new Set(changes);
  return Object.keys(depends).filter((part) => depends[part].some((c) => set.has(c)));
}

/**
 * @param {Record<string, () => void>} painters  how each part of DEPENDS is painted (a part without one
 *        is skipped: a chart-only viewer has no tree)
 * @param {{ frame?: (f: () => void) => number, cancelFrame?: (id: number) => void, depends?: object }} [how]
 *        the frame clock (requestAnimationFrame by default; tests pass a fake) and the table
 * @returns {{ changed(...what: string[]): void, flush(): void, pending(): string[], stop(): void }}
 */
export function createRedraw(painters, how = {}) {
  const frame = how.frame ?? ((f) => requestAnimationFrame(f));
  const cancelFrame = how.cancelFrame ?? ((id) => cancelAnimationFrame(id));
  const depends = how.depends ?? DEPENDS;
  const known = new Set(Object.values(depends).flat());
  let changes = new Set();
  let scheduled = null; // the frame asked for, while changes wait
  let stopped = false;

  function paint() {
    scheduled = null;
    const now = changes;
    changes = new Set();
    for (const part of partsFor(now, depends)) painters[part]?.();
  }

  return {
    /** Records what changed; the parts that depend on it are painted in the next frame. */
    changed(...what) {
      for (const w of what) {
        if (!known.has(w)) throw new TypeError(`redraw: unknown change ${w} (one of ${[...known].join(', ')})`);
        changes.add(w);
      }
      if (!stopped && scheduled === null && changes.size) scheduled = frame(paint);
    },
    /** Paints what waits now, instead of in the next frame. */
    flush() {
      if (scheduled !== null) cancelFrame(scheduled);
      if (!stopped) paint();
    },
    /** The changes waiting for the next frame (tests, tools). */
    pending: () => [...changes],
    stop() {
      stopped = true;
      if (scheduled !== null) cancelFrame(scheduled);
      scheduled = null;
    },
  };
}
