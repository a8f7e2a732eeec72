// The first open in a fresh page, against the fifth: headless Chromium, a module Worker as the viewer's
// (js/viewer/worker.js) reading a capture with the package. V8 compiles wasm with its baseline tier
// (Liftoff) and compiles a function again with its optimizing tier (TurboFan) once it has run enough; a
// call already running stays on the code it started with. So the first open in a fresh page may run
// slower than later ones, and a user opens one file in a fresh page.
//
// For each capture (a relog-shaped PDH-CSV and a .blg, bench/data.mjs, about 10 MB and 200 MB) and each
// way in (openCapture on the bytes; CaptureReader fed 4 MiB slices of the Blob, as the viewer's worker
// reads a File): a fresh browser context (its own renderer process, nothing compiled), one Worker, five
// opens in a row, timed inside the Worker (the Blob's bytes are read before openCapture's clock starts;
// the slices are read inside CaptureReader's, as the viewer does); then a second Worker in the same page,
// one open. With --warm-up, each Worker first runs the viewer's warm-up (js/warm-up.js, as the
// viewer's reading Worker does from page load while the user picks a file) and its time is printed.
// Run: node bench/first-open.mjs [--warm-up] [--sizes 10,200] [--only csv|blg]   (after npm run build)
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { pdhCsv, syntheticBlg } from './data.mjs';

const flag = (f) => process.argv.includes(f);
const value = (f, d) => (flag(f) ? process.argv[process.argv.indexOf(f) + 1] : d);
const SIZES = value('--sizes', '10,200').split(',').map(Number);
const only = value('--only', null);
const warm = flag('--warm-up');
const repo = new URL('..', import.meta.url);

// Inputs, made once: relog-shaped CSV of 500 counters (about 9.3 KB a row), .blg from the PAL sample.
const inputs = [];
for (const mbs of SIZES) {
  if (only !== 'blg') inputs.push([`PDH-CSV relog-shaped ${mbs} MB`, pdhCsv(500, Math.round((mbs * 1e6) / 9260))]);
  if (only !== 'csv') inputs.push([`.blg ${mbs} MB`, syntheticBlg(mbs * 1e6)]);
}

const worker = `
import init, * as lens from '/pkg/counterlens.js';
import { warmUp as viewerWarmUp } from '/js/warm-up.js';
const t0 = performance.now();
const ready = init().then(async () => {
  const compiled = performance.now() - t0;
  let warmUp = null;
  if (${warm}) warmUp = (await viewerWarmUp()).ms;
  return { compiled, warmUp };
});
ready.then((r) => postMessage({ ready: r }));
onmessage = async ({ data: { blob, api } }) => {
  await ready;
  let c, ms;
  if (api === 'openCapture') {
    const bytes = new Uint8Array(await blob.arrayBuffer());
    const t = performance.now();
    c = lens.openCapture(bytes);
    ms = performance.now() - t;
  } else {
    const t = performance.now();
    const r = new lens.CaptureReader({ size: blob.size });
    for (let at = 0; at < blob.size; at += 4 << 20) r.push(new Uint8Array(await blob.slice(at, at + (4 << 20)).arrayBuffer()));
    c = r.finish();
    ms = performance.now() - t;
    r.free();
  }
  const values = c.seriesCount * c.sampleCount;
  c.free();
  postMessage({ ms, values });
};`;
const page = '<!doctype html><meta charset="utf-8"><title>first open</title>';

const data = new Map(inputs.map(([name, bytes], i) => [`/data/${i}`, bytes]));
const server = http.createServer((req, res) => {
  const send = (type, body) => { res.setHeader('Content-Type', type); res.end(body); };
  if (req.url === '/') return send('text/html', page);
  if (req.url === '/worker.js') return send('text/javascript', worker);
  if (data.has(req.url)) return send('application/octet-stream', data.get(req.url));
  if (req.url.startsWith('/pkg/') || req.url.startsWith('/js/')) {
    try {
      const body = readFileSync(new URL(`.${req.url}`, repo));
      return send(req.url.endsWith('.wasm') ? 'application/wasm' : req.url.endsWith('.js') ? 'text/javascript' : 'application/octet-stream', body);
    } catch { /* fall through */ }
  }
  res.statusCode = 404;
  res.end();
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
console.log(`Chromium ${browser.version()}; load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${warm ? 'with' : 'without'} the warm-up`);

const rate = (bytes, ms) => `${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;
try {
  for (const [i, [name, bytes]] of inputs.entries()) {
    for (const api of ['openCapture', 'CaptureReader']) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(origin + '/');
      const r = await tab.evaluate(async ({ url, api }) => {
        const blob = await (await fetch(url)).blob();
        const start = () => new Promise((resolve) => {
          const w = new Worker('/worker.js', { type: 'module' });
          w.onmessage = ({ data }) => resolve({ w, ready: data.ready });
        });
        const call = (w) => new Promise((resolve) => {
          w.onmessage = ({ data }) => resolve(data);
          w.postMessage({ blob, api });
        });
        const a = await start();
        const calls = [];
        for (let k = 0; k < 5; k++) calls.push(await call(a.w));
        a.w.terminate();
        const b = await start();
        const second = await call(b.w);
        b.w.terminate();
        return { ready: a.ready, calls, second, secondReady: b.ready };
      }, { url: `/data/${i}`, api });
      await context.close();
      const ms = r.calls.map((c) => c.ms);
      console.log(`${name.padEnd(28)} ${api.padEnd(13)} first ${ms[0].toFixed(0).padStart(5)} ms (${rate(bytes.length, ms[0])}), ` +
        `2nd-5th ${ms.slice(1).map((x) => x.toFixed(0)).join(' ')} ms (5th ${rate(bytes.length, ms[4])}); first/fifth ${(ms[0] / ms[4]).toFixed(2)}; ` +
        `a second Worker's first ${r.second.ms.toFixed(0)} ms; compile ${r.ready.compiled.toFixed(0)} ms` +
        (r.ready.warmUp !== null ? `, warm-up ${r.ready.warmUp.toFixed(0)} ms` : '') + `; ${r.calls[0].values} values`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
