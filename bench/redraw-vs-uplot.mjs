// Redraw of 8 series x 1,000,000 points after a zoom, in headless Chromium (Debian's, via playwright-core),
// with counterlens' renderer (M4 in wasm, plotters on the canvas) and with uPlot (the reference for fast
// canvas charts, npm devDependency pinned in package.json) in the same page and the same run, on the same
// data, canvas size and zoom sequence. Two figures each: the time of the draw calls, and the time until
// the canvas is rasterised (a 1-pixel getImageData forces it).
// Run: node bench/redraw-vs-uplot.mjs   (after npm run build)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { serve, launch, openPage } from '../tests/browser/harness.mjs';

const require = createRequire(import.meta.url);
const uplotJs = readFileSync(require.resolve('uplot/dist/uPlot.esm.js'));
const uplotVersion = JSON.parse(readFileSync(require.resolve('uplot/package.json'))).version;

const server = await serve();
const browser = await launch();
const { page } = await openPage(browser, server.url);
// uPlot served from the page's own origin (its CSP allows only that); the server itself is not changed.
await page.route('**/bench-assets/uPlot.esm.js', (route) => route.fulfill({ body: uplotJs, contentType: 'text/javascript' }));

const result = await page.evaluate(async () => {
  const { Capture, renderChart } = await import('/js/browser.js');
  const { default: uPlot } = await import('/bench-assets/uPlot.esm.js');
  const N = 1_000_000, S = 8, W = 1200, H = 420;
  const t0 = Date.UTC(2026, 10, 22);
  const timestamps = new Float64Array(N).map((_, i) => t0 + i * 1000);
  const columns = Array.from({ length: S }, (_, s) => new Float64Array(N).map((_, i) => 50 + 40 * Math.sin(i / (500 + 37 * s)) + 5 * Math.sin(i * 0.37 * (s + 1))));
  const span = timestamps[N - 1] - timestamps[0];
  // The same 30 zooms for both: between the whole capture and a tenth of it, at different places.
  const zooms = Array.from({ length: 30 }, (_, k) => {
    const w = span * (0.1 + 0.9 * ((k * 7) % 10) / 9);
    const from = timestamps[0] + (span - w) * ((k * 3) % 10) / 9;
    return [from, from + w];
  });
  const summary = (times) => { const s = [...times].sort((a, b) => a - b); return { median: s[15], p90: s[27] }; };
  const time = (redraw, flush) => {
    const draw = [], full = [];
    redraw(zooms[0]); flush(); // warm-up
    for (const z of zooms) {
      const a = performance.now();
      redraw(z);
      const b = performance.now();
      flush();
      const c = performance.now();
      draw.push(b - a);
      full.push(c - a);
    }
    return { draw: summary(draw), full: summary(full) };
  };

  // counterlens
  const canvas = document.createElement('canvas');
  canvas.style.width = `${W}px`;
  canvas.style.height = `${H}px`;
  document.body.append(canvas);
  const capture = Capture.fromParts({ format: 'pdh-csv', encoding: 'utf-8', timeZone: null, notes: [], timestamps,
    series: columns.map((values, s) => ({ path: `\\\\H\\Processor(${s})\\% Processor Time`, counterType: null, values, reference: null })) });
  const indices = [...Array(S).keys()];
  let points = 0;
  const ours = time((z) => { points = renderChart(canvas, capture, indices, { xRange: z, legend: false }).pointsDrawn; },
    () => canvas.getContext('2d').getImageData(0, 0, 1, 1));
  capture.free();
  canvas.remove();

  // uPlot: x in seconds (its time scale), one line per series, no legend or cursor work.
  const host = document.createElement('div');
  document.body.append(host);
  const u = new uPlot({ width: W, height: H, legend: { show: false }, cursor: { show: false },
    series: [{}, ...columns.map((_, s) => ({ stroke: '#0072b2', width: 1 / devicePixelRatio, label: `s${s}` }))] },
  [Float64Array.from(timestamps, (t) => t / 1000), ...columns], host);
  const theirs = time((z) => u.batch(() => u.setScale('x', { min: z[0] / 1000, max: z[1] / 1000 })),
    () => host.querySelector('canvas').getContext('2d').getImageData(0, 0, 1, 1));
  u.destroy();
  return { ours, theirs, points, width: Math.round(W * devicePixelRatio) };
});

const f = (x) => `${x.median.toFixed(1)} ms / ${x.p90.toFixed(1)} ms`;
console.log(`redraw after a zoom, 8 series x 1,000,000 points, ${result.width}-px-wide canvas, 30 zooms (median / 90th percentile):`);
console.log(`  counterlens (M4 in wasm + plotters): draw calls ${f(result.ours.draw)}; rasterised ${f(result.ours.full)} (${result.points} points drawn after M4)`);
console.log(`  uPlot ${uplotVersion}:                       draw calls ${f(result.theirs.draw)}; rasterised ${f(result.theirs.full)}`);
await browser.close();
server.close();
