// The viewer is split by concern (js/viewer/*.js, one module per piece) and its Worker loads only the
// package's core: these tests drive the modules in the page and read what the Worker imports.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { serve, launch, openPage, repo } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

test('the worker imports the core (js/core.js, errors.js, and its warm-up js/warm-up.js) only, never the viewer or the package entry', () => {
  // What core.js and warm-up.js load in turn is checked in tests/node/imports.test.mjs (no viewer module,
  // no entry).
  const src = readFileSync(repo + 'js/viewer/worker.js', 'utf8');
  const imports = [...src.matchAll(/^import .* from '([^']+)';/gm)].map((m) => m[1]);
  assert.deepEqual(imports, ['../core.js', '../errors.js', '../warm-up.js']);
});

test('each concern is its own module, usable on its own in the page', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const out = await page.evaluate(async () => {
    const tree = await import('/js/viewer/series-tree.js');
    const url = await import('/js/viewer/url-state.js');
    const st = await import('/js/viewer/state.js');
    const stats = await import('/js/viewer/stats.js');
    const state = st.createState();
    st.selectSeries(state, 7);
    st.selectSeries(state, 2);
    st.deselectSeries(state, 7);
    st.selectSeries(state, 9); // takes the lowest free slot, 0 (7's), again
    state.timestamps = new Float64Array([1000, 2000, 3000]);
    state.info = Array.from({ length: 10 }, (_, i) => ({ index: i, path: `\\\\H\\Obj\\C${i}` }));
    state.range = st.clampRange(state, [500, 1500]); // moved inside the capture, same width: [1000, 2000]
    const f = tree.seriesFilter('\\Processor(*)\\% Processor Time');
    return {
      slots: [...state.slots],
      range: state.range,
      hash: url.encodeView(state),
      back: (({ paths, range }) => ({ paths, range }))(url.decodeView('#' + url.encodeView(state))),
      filter: [f('\\\\H\\Processor(0)\\% Processor Time'), f('\\\\H\\Memory\\Available MBytes')],
      sort: [stats.nextSort({ key: null, dir: 1 }, 'max'), stats.nextSort({ key: 'max', dir: -1 }, 'max')],
    };
  });
  assert.deepEqual(out.slots, [[2, 1], [9, 0]]);
  assert.deepEqual(out.range, [1000, 2000]);
  assert.equal(out.hash, 's=\\\\H\\Obj\\C2&s=\\\\H\\Obj\\C9&from=1000&to=2000');
  assert.deepEqual(out.back, { paths: ['\\\\H\\Obj\\C2', '\\\\H\\Obj\\C9'], range: [1000, 2000] });
  assert.deepEqual(out.filter, [true, false]);
  assert.deepEqual(out.sort, [{ key: 'max', dir: -1 }, { key: 'max', dir: 1 }]);
  // And the whole viewer, built from them, opens a file through the Worker.
  await page.setInputFiles('#capture-file', repo + 'tests/vectors/captures/BasicPerfCounters.blg');
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('BasicPerfCounters.blg:'));
  assert.ok(Number(await page.getAttribute('#chart', 'data-points-drawn')) > 0);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
