// The fleet view's ranking and drawing (fleet.js): the runs read so far ranked by the core (rankFleet)
// into the heatmap and the table, again a moment after more logs arrive (not more often than RERANK_MS,
// nor more than a fifth of the time), the worst LIVE_ROWS only while the pool runs; the heatmap drawn
// again when its box's width changes, and which top cards are cut to two lines marked with it.
import { rankFleet } from '../core.js';
import { fleetRow, heatmapNodes, watchWidth, markClamped } from './fleet-layout.js';

/** Re-ranking while logs arrive: at most this often (ms), and never more than a fifth of the time (the
 *  wait is at least 4 times the last ranking's); the last log always ranks. */
const RERANK_MS = 400;
/** While logs arrive, the table and heatmap show the worst this many machines (all of them at the end):
 *  a few hundred rows drawn again every moment would cost more than the reading. */
export const LIVE_ROWS = 40;

/**
 * @param {{ box: HTMLElement, heat: HTMLElement, table: HTMLTableElement, runs(): object[], reading(): boolean,
 *           ranked(): void }} parts  the view's section, heatmap box and table; the runs so far; whether the
 *   pool is still reading; told after a ranking made while reading
 */
export function createRanking({ box, heat, table, runs, reading, ranked }) {
  let fleet = { machines: [] };
  let renderMs = 0;
  let drawnWidth = 0;
  let timer = null;

  /** The machines drawn: the worst LIVE_ROWS while the pool runs, all once it is done. */
  const shown = () => (reading() && fleet.machines.length > LIVE_ROWS ? fleet.machines.slice(0, LIVE_ROWS) : fleet.machines);
  function drawHeatmap() {
    const width = Math.max(320, Math.min(1400, Math.round(heat.clientWidth || box.clientWidth || 960)));
    heat.replaceChildren(...heatmapNodes(shown(), width));
    drawnWidth = width;
  }
  function render() {
    const t = performance.now();
    fleet = rankFleet(runs());
    drawHeatmap();
    table.tBodies[0].replaceChildren(...shown().map(fleetRow));
    requestAnimationFrame(() => markClamped(table));
    renderMs = performance.now() - t;
  }
  // The heatmap is drawn for its box's width (labels stay readable on a phone): again when that changes;
  // which top cards are cut to two lines changes with it.
  const unwatch = watchWidth(heat, (w) => {
    markClamped(table);
    if (Math.abs(w - drawnWidth) > 16 && fleet.machines.length) drawHeatmap();
  });

  return {
    /** The fleet as last ranked (rankFleet's). */
    fleet: () => fleet,
    /** Ranks now (`last`: the pool is done) or a moment later. */
    soon(last) {
      if (last) { clearTimeout(timer); timer = null; render(); return; }
      if (timer) return;
      timer = setTimeout(() => { timer = null; render(); ranked(); }, Math.max(RERANK_MS, 4 * renderMs));
    },
    /** A new fleet: nothing ranked yet. */
    clear() { clearTimeout(timer); timer = null; fleet = { machines: [] }; render(); },
    stop() { clearTimeout(timer); unwatch(); },
  };
}
