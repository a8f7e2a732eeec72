// The viewer in headless Chromium (Debian's, through playwright-core), against the served page:
//   1. redraw time for 8 series x 1 million points after a zoom (renderChart with a new xRange: M4
//      decimation in wasm, then plotters on the canvas), beside the same redraw of 8 x 1,000 points, so
//      the cost of the data shows apart from the fixed cost of axes and labels;
//   2. time from choosing a ~200 MB PDH-CSV in the file input to the first chart on screen;
//   3. memory of the page after loading it (JS heap, and the wasm memory holding the columns).
// Run: node bench/viewer.mjs [rows of the CSV, default 20000]   (after npm run build)
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage } from '../tests/browser/harness.mjs';

const ROWS = Number(process.argv[2] ?? 20_000);
const COLS = 500;
const server = await serve();
const browser = await launch();
const { page } = await openPage(browser, server.url);

// 1. Redraws, timed inside the page.
const redraw = await page.evaluate(async () => {
  const { Capture, renderChart } = await import('/js/browser.js');
  const canvas = document.createElement('canvas');
  canvas.style.width = '1200px';
  canvas.style.height = '420px';
  document.body.append(canvas);
  const run = (n) => {
    const t0 = Date.UTC(2026, 10, 22);
    const timestamps = new Float64Array(n).map((_, i) => t0 + i * 1000);
    const series = Array.from({ length: 8 }, (_, s) => ({
      path: `\\\\H\\Processor(${s})\\% Processor Time`, counterType: null,
      values: new Float64Array(n).map((_, i) => 50 + 40 * Math.sin(i / (500 + 37 * s)) + 5 * Math.sin(i * 0.37 * (s + 1))),
      reference: null,
    }));
    const capture = Capture.fromParts({ format: 'pdh-csv', encoding: 'utf-8', timeZone: null, notes: [], timestamps, series });
    const indices = [0, 1, 2, 3, 4, 5, 6, 7];
    const span = timestamps[n - 1] - timestamps[0];
    renderChart(canvas, capture, indices, {}); // warm-up
    const times = [];
    let points = 0;
    for (let k = 0; k < 30; k++) {
      // Zooms between the whole capture and a tenth of it, at different places.
      const w = span * (0.1 + 0.9 * ((k * 7) % 10) / 9);
      const from = timestamps[0] + (span - w) * ((k * 3) % 10) / 9;
      const t = performance.now();
      points = renderChart(canvas, capture, indices, { xRange: [from, from + w] }).pointsDrawn;
      times.push(performance.now() - t);
    }
    capture.free();
    times.sort((a, b) => a - b);
    return { median: times[15], p90: times[27], points };
  };
  return { big: run(1_000_000), small: run(1_000), width: canvas.width };
});
console.log(`redraw after a zoom, 8 series on a ${redraw.width}-px-wide canvas (30 zooms, median / 90th percentile):`);
console.log(`  8 x 1,000,000 points: ${redraw.big.median.toFixed(1)} ms / ${redraw.big.p90.toFixed(1)} ms (${redraw.big.points} points drawn after M4)`);
console.log(`  8 x 1,000 points:     ${redraw.small.median.toFixed(1)} ms / ${redraw.small.p90.toFixed(1)} ms (${redraw.small.points} points drawn)`);

// 2. A large CSV through the file input, to the first chart.
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const dir = mkdtempSync(join(tmpdir(), 'counterlens-bench-'));
const file = join(dir, 'big.csv');
{
  const parts = [['"(PDH-CSV 4.0) (Pacific Standard Time)(480)"', ...Array.from({ length: COLS }, (_, c) => `"\\\\SQL01\\Processor(${c})\\% Processor Time"`)].join(',') + '\r\n'];
  const t0 = Date.UTC(2026, 10, 22, 9);
  for (let r = 0; r < ROWS; r++) {
    const d = new Date(t0 + r * 1000);
    const hh = String(d.getUTCHours()).padStart(2, '0'), mm = String(d.getUTCMinutes()).padStart(2, '0'), ss = String(d.getUTCSeconds()).padStart(2, '0');
    const cells = [`"11/22/2026 ${hh}:${mm}:${ss}.000"`];
    for (let c = 0; c < COLS; c++) cells.push(`"${(rand() * 100).toFixed(13)}"`);
    parts.push(cells.join(',') + '\r\n');
  }
  writeFileSync(file, parts.join(''));
}
const size = (await import('node:fs')).statSync(file).size;
await page.evaluate(() => {
  window.benchChosen = null;
  document.querySelector('#capture-file').addEventListener('change', () => { window.benchChosen = performance.now(); }, { once: true });
});
const t = performance.now();
await page.setInputFiles('#capture-file', file);
await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('big.csv:')
  && Number(document.querySelector('#chart').dataset.pointsDrawn) > 0, null, { timeout: 600_000, polling: 50 });
// Timed in the page from the input's change event (the file chosen) to the chart drawn; the outer time
// also holds Playwright handing the file to the browser.
const firstChart = await page.evaluate(() => performance.now() - window.benchChosen);
const outer = performance.now() - t;
console.log(`a ${(size / 1e6).toFixed(0)} MB PDH-CSV (${COLS} series x ${ROWS} rows) from choosing it to the first chart: ${(firstChart / 1000).toFixed(2)} s (${(size / 1e6 / (firstChart / 1000)).toFixed(0)} MB/s; ${(outer / 1000).toFixed(2)} s with Playwright's hand-over)`);

// 3. Memory after loading it.
const cdp = await page.context().newCDPSession(page);
await cdp.send('HeapProfiler.collectGarbage');
await cdp.send('Performance.enable');
const { metrics } = await cdp.send('Performance.getMetrics');
const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
const wasm = await page.evaluate(async () => (await (await import('/js/browser.js')).default()).memory.buffer.byteLength);
const columns = (COLS + 1) * ROWS * 8;
console.log(`page memory after loading it: JS heap ${(heap / 1e6).toFixed(0)} MB, wasm memory ${(wasm / 1e6).toFixed(0)} MB (the columns themselves: ${(columns / 1e6).toFixed(0)} MB)`);

rmSync(dir, { recursive: true, force: true });
await browser.close();
server.close();
