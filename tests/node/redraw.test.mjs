// The viewer's one redraw path (js/viewer/redraw.js), with a fake requestAnimationFrame: changes made in
// one frame are painted once, in the next frame; each part is painted after exactly the changes its
// DEPENDS entry names, in the table's order; flush paints at once; stop paints nothing more.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRedraw, partsFor, DEPENDS, CHANGES } from '../../js/viewer/redraw.js';

/** A fake frame clock: callbacks wait until `tick()` runs them, as the browser's next frame would. */
function fakeFrames() {
  let next = 1;
  const waiting = new Map();
  return {
    frame: (f) => { waiting.set(next, f); return next++; },
    cancelFrame: (id) => waiting.delete(id),
    waiting: () => waiting.size,
    tick() {
      const run = [...waiting.values()];
      waiting.clear();
      for (const f of run) f();
    },
  };
}

/** Painters that log each part painted. */
function logging() {
  const log = [];
  const painters = Object.fromEntries(Object.keys(DEPENDS).map((p) => [p, () => log.push(p)]));
  return { log, painters };
}

test('several changes in one frame: one frame asked for, each part painted once, in the table order', () => {
  const clock = fakeFrames();
  const { log, painters } = logging();
  const r = createRedraw(painters, clock);
  r.changed('selection');
  r.changed('range');
  r.changed('selection', 'highlight');
  assert.equal(clock.waiting(), 1, 'one frame for three calls');
  assert.deepEqual(log, [], 'nothing is painted before the frame');
  assert.deepEqual(r.pending().sort(), ['highlight', 'range', 'selection']);
  clock.tick();
  // selection reaches tree, layout, chart, multiples, legend, stats, comparison, url, listeners (not facts,
  // not derived); range and highlight add none the selection did not: 9 parts, each once.
  assert.deepEqual(log, ['tree', 'layout', 'chart', 'multiples', 'legend', 'stats', 'comparison', 'url', 'listeners']);
  assert.deepEqual(r.pending(), []);
  // The next change asks for a new frame.
  r.changed('theme');
  assert.equal(clock.waiting(), 1);
  clock.tick();
  assert.deepEqual(log.slice(9), ['chart', 'multiples', 'url', 'derived']);
});

test('the dependency map: what each change repaints', () => {
  assert.deepEqual(partsFor(['highlight']), ['chart']);
  assert.deepEqual(partsFor(['filter']), ['tree']);
  // The verdict and cards write times in the chosen zone: the results repaint too (no new analysis).
  assert.deepEqual(partsFor(['zone']), ['chart', 'multiples', 'results']);
  assert.deepEqual(partsFor(['sort']), ['stats']);
  assert.deepEqual(partsFor(['references']), ['chart', 'stats']);
  assert.deepEqual(partsFor(['compare']), ['chart', 'legend', 'comparison']);
  assert.deepEqual(partsFor(['hidden']), ['chart', 'legend']);
  assert.deepEqual(partsFor(['marks']), ['chart']);
  assert.deepEqual(partsFor(['view']), ['layout', 'chart', 'multiples', 'legend']);
  assert.deepEqual(partsFor(['scale']), ['chart', 'multiples', 'legend', 'url']);
  // A tick in the tree repaints what the selection does, but not the tree (which keeps its focus).
  assert.deepEqual(partsFor(['tick']), partsFor(['selection']).filter((p) => p !== 'tree'));
  assert.deepEqual(partsFor(['compareSort']), ['comparison']);
  assert.deepEqual(partsFor(['analysis']), ['results']);
  assert.deepEqual(partsFor(['capture']), Object.keys(DEPENDS).filter((p) => p !== 'derived' && p !== 'results'));
  assert.deepEqual(partsFor([]), []);
  // Every change repaints something, and every part is repainted by something.
  for (const c of CHANGES) assert.ok(partsFor([c]).length > 0, c);
  for (const p of Object.keys(DEPENDS)) assert.ok(DEPENDS[p].length > 0, p);
});

test('a hover in one frame and a theme in the next: the chart is painted in each frame', () => {
  const clock = fakeFrames();
  const { log, painters } = logging();
  const r = createRedraw(painters, clock);
  r.changed('highlight');
  r.changed('highlight');
  clock.tick();
  assert.deepEqual(log, ['chart']);
  clock.tick();
  assert.deepEqual(log, ['chart'], 'a frame with no change paints nothing');
});

test('flush paints at once and drops the frame; a part without a painter is skipped', () => {
  const clock = fakeFrames();
  const log = [];
  const r = createRedraw({ chart: () => log.push('chart'), legend: () => log.push('legend') }, clock);
  r.changed('hidden');
  r.flush();
  assert.deepEqual(log, ['chart', 'legend']);
  assert.equal(clock.waiting(), 0, 'the frame was cancelled');
  r.flush();
  assert.deepEqual(log, ['chart', 'legend'], 'nothing waits: nothing painted');
});

test('a painter that changes something more is painted in the next frame, not lost', () => {
  const clock = fakeFrames();
  const log = [];
  let r = null;
  r = createRedraw({ tree: () => { log.push('tree'); r.changed('highlight'); }, chart: () => log.push('chart') }, clock);
  r.changed('filter');
  clock.tick();
  assert.deepEqual(log, ['tree']);
  clock.tick();
  assert.deepEqual(log, ['tree', 'chart']);
});

test('an unknown change is refused by name; after stop nothing is painted', () => {
  const clock = fakeFrames();
  const { log, painters } = logging();
  const r = createRedraw(painters, clock);
  assert.throws(() => r.changed('colour'), /unknown change colour/);
  r.changed('sort');
  r.stop();
  clock.tick();
  r.changed('sort');
  assert.equal(clock.waiting(), 0);
  assert.deepEqual(log, []);
});
