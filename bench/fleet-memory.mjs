// The viewer's fleet view with many logs, in headless Chromium: is its memory bounded (not growing with
// the number of logs)? For each count N (default 25 50 100 200) a fresh page is given N logs at once
// (the file input, as a user picking them) and, while the Worker pool reads and analyses them, sampled
// every 200 ms: the page's JS heap (CDP Performance.getMetrics JSHeapUsedSize), the largest wasm memory of
// a pool Worker (the fleet view's data-worker-wasm-peak), and the resident memory of the whole browser
// (every Chromium process: the sum of VmRSS over this process's descendants, from /proc). Prints the wall
// time from the pick to "N of N logs read" and the peaks, as a Markdown table (docs/performance.md).
// The logs: by default N synthetic relog CSVs written here (two per machine, one day at 10 s, 12
// counters: ~1.6 MB each); with --dir, the .csv/.blg files of that folder (the first N of them, sorted).
//   Usage: node bench/fleet-memory.mjs [--dir DIR] [N ...]
//   Needs: pkg/ built (bash scripts/build.sh) and Debian's Chromium (as the browser tests).
import { mkdirSync, readdirSync, writeFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serve, launch, repo } from '../tests/browser/harness.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--dir');
const dir = at >= 0 ? args.splice(at, 2)[1] : null;
const counts = args.length ? args.map(Number) : [25, 50, 100, 200];

/** One synthetic log: `machine`'s day at 10 s (8640 samples), CPU total and 4 cores, memory, 2 disks'
 *  latency and queue, network; CPU busy (97 %) for `busyMin` minutes from 10:00 when busyMin > 0. */
function synthetic(machine, day, busyMin) {
  const paths = ['Processor(_Total)\\% Processor Time', ...[0, 1, 2, 3].map((c) => `Processor(${c})\\% Processor Time`),
    'Memory\\Available MBytes', 'Memory\\Pages/sec', 'PhysicalDisk(0 C:)\\Avg. Disk sec/Transfer', 'PhysicalDisk(1 D:)\\Avg. Disk sec/Transfer',
    'PhysicalDisk(0 C:)\\Current Disk Queue Length', 'Network Interface(eth0)\\Bytes Total/sec', 'System\\Processor Queue Length'];
  const lines = [['(PDH-CSV 4.0) (Coordinated Universal Time)(0)', ...paths.map((p) => `\\\\${machine}\\${p}`)].map((c) => `"${c}"`).join(',')];
  const p2 = (n) => String(n).padStart(2, '0');
  const t0 = Date.UTC(2026, 10, 16 + day);
  for (let k = 0; k < 8640; k++) {
    const t = new Date(t0 + k * 10_000);
    const s = k * 10;
    const busy = busyMin > 0 && s >= 36000 && s < 36000 + busyMin * 60;
    const cpu = busy ? 97 : 20 + 15 * Math.sin(s / 7000) + (k % 7);
    const v = [cpu, cpu - 1, cpu + 1, cpu - 2, cpu + 2, 6000 - (k % 50), k % 13, 0.004 + (k % 5) / 1000, 0.003, k % 3, 1e6 + (k % 1000), k % 4];
    const stamp = `${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000`;
    lines.push([stamp, ...v.map((x) => (Number.isInteger(x) ? String(x) : x.toFixed(6)))].map((c) => `"${c}"`).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function logs(n) {
  if (dir) {
    const all = [];
    const walk = (d) => { for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(join(d, e.name)); else if (/\.(csv|blg)$/i.test(e.name)) all.push(join(d, e.name));
    } };
    walk(dir);
    return all.slice(0, n);
  }
  const out = join(repo, 'target', 'bench-fleet-memory');
  mkdirSync(out, { recursive: true });
  return Array.from({ length: n }, (_, k) => {
    const machine = `SRV${String(k >> 1).padStart(3, '0')}`;
    const file = join(out, `${machine}-${k & 1}.csv`);
    if (!existsSync(file)) writeFileSync(file, synthetic(machine, k & 1, (k * 37) % 5 === 0 ? 30 + (k % 90) : 0));
    return file;
  });
}

/** The resident memory of every descendant of this process (the browser's processes), bytes. */
function browserRss() {
  const kids = new Map();
  for (const p of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!kids.has(ppid)) kids.set(ppid, []);
      kids.get(ppid).push(Number(p));
    } catch { /* gone */ }
  }
  const by = { total: 0 };
  const stack = [...(kids.get(process.pid) ?? [])];
  while (stack.length) {
    const p = stack.pop();
    if (p === serverPid) continue;
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'));
      const type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${p}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      if (m) { by.total += Number(m[1]) * 1024; by[type] = (by[type] ?? 0) + Number(m[1]) * 1024; }
    } catch { /* gone */ }
    stack.push(...(kids.get(p) ?? []));
  }
  return by;
}

let serverPid = -1;
const server = await serve();
serverPid = server.pid ?? -1;
const browser = await launch();
const MB = (b) => (b / 1048576).toFixed(0);
const rows = [];
for (const n of counts) {
  const files = logs(n);
  const bytes = files.reduce((s, f) => s + statSync(f).size, 0);
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const heap = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize').value;
  const base = { heap: await heap(), rss: browserRss() };
  const peak = { heap: 0, rss: { total: 0 }, wasm: 0 };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak.heap = Math.max(peak.heap, await heap());
      const r = browserRss();
      if (r.total > peak.rss.total) peak.rss = r;
      peak.wasm = Math.max(peak.wasm, Number(await page.getAttribute('[data-part="fleet"]', 'data-worker-wasm-peak').catch(() => 0)) || 0);
      await new Promise((r) => setTimeout(r, 200));
    }
  })();
  const t = performance.now();
  await page.setInputFiles('#capture-file', files);
  await page.waitForFunction((k) => (document.querySelector('[data-part="fleet-status"]')?.textContent ?? '').startsWith(`${k} of ${k} logs read in`), n, { timeout: 0, polling: 100 });
  const ms = performance.now() - t;
  sampling = false;
  await sampler;
  await cdp.send('HeapProfiler.collectGarbage');
  const after = await heap();
  await new Promise((r) => setTimeout(r, 1000));
  const rssAfter = browserRss();
  const status = await page.textContent('[data-part="fleet-status"]');
  const machines = await page.$$eval('[data-part="fleet-table"] tbody tr', (r) => r.length);
  rows.push({ n, mb: MB(bytes), s: (ms / 1000).toFixed(1), heap0: MB(base.heap), heap: MB(peak.heap), heapAfter: MB(after), wasm: MB(peak.wasm), rss0: MB(base.rss.total), rss: MB(peak.rss.total), rssAfter: MB(rssAfter.total), renderer: [MB(base.rss.renderer ?? 0), MB(peak.rss.renderer ?? 0), MB(rssAfter.renderer ?? 0)], browserProc: [MB(base.rss.browser ?? 0), MB(peak.rss.browser ?? 0), MB(rssAfter.browser ?? 0)], machines, status });
  console.error(JSON.stringify(rows.at(-1)));
  await context.close();
}
await browser.close();
server.close();
console.log('| logs | MB in all | machines | wall (s) | page JS heap: before, peak, after GC (MB) | largest Worker wasm memory (MB) | all Chromium RSS: before, peak, after (MB) | its renderers: before, peak, after (MB) | its browser process: before, peak, after (MB) |');
console.log('|---:|---:|---:|---:|---|---:|---|---|---|');
for (const r of rows) console.log(`| ${r.n} | ${r.mb} | ${r.machines} | ${r.s} | ${r.heap0}, ${r.heap}, ${r.heapAfter} | ${r.wasm} | ${r.rss0}, ${r.rss}, ${r.rssAfter} | ${r.renderer.join(', ')} | ${r.browserProc.join(', ')} |`);
