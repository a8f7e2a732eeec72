// Time from choosing a ~200 MB log to the verdict on screen, in headless Chromium (Debian's, through
// playwright-core), against the served page: a PDH-CSV of one server's usual counters (32 processors,
// memory, 4 disks, 2 network interfaces, 60 processes: 370 series) at one-second samples with known
// trouble (processors pegged for 20 minutes, a disk slow for 10), generated here and deleted after.
// Timed in the page from the file input's change event to (1) the first chart drawn and (2) the verdict
// shown (the analysis run on open in its Worker), so the analysis' share shows beside the read.
// Run: node bench/verdict.mjs [rows, default 30000]   (after npm run build)
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage } from '../tests/browser/harness.mjs';

const ROWS = Number(process.argv[2] ?? 30_000);
const M = '\\\\SQL01';
const cols = [];
for (const c of [...Array.from({ length: 32 }, (_, i) => String(i)), '_Total']) {
  for (const k of ['% Processor Time', '% Privileged Time', '% User Time']) cols.push([`${M}\\Processor(${c})\\${k}`, 'cpu', k]);
}
for (const k of ['Available MBytes', '% Committed Bytes In Use', 'Pages/sec', 'Pool Nonpaged Bytes']) cols.push([`${M}\\Memory\\${k}`, 'mem', k]);
for (const d of ['C:', 'D:', 'E:', 'F:']) for (const k of ['Avg. Disk sec/Read', 'Avg. Disk sec/Write', 'Avg. Disk Queue Length', '% Idle Time', '% Free Space']) cols.push([`${M}\\LogicalDisk(${d})\\${k}`, d, k]);
for (const n of ['eth0', 'eth1']) for (const k of ['Bytes Total/sec', 'Current Bandwidth', 'Output Queue Length']) cols.push([`${M}\\Network Interface(${n})\\${k}`, 'net', k]);
for (let p = 0; p < 60; p++) for (const k of ['% Processor Time', 'Private Bytes', 'Handle Count', 'Thread Count']) cols.push([`${M}\\Process(app${p})\\${k}`, 'proc', k]);

let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
function value([, kind, k], r) {
  const pegged = r >= 3600 && r < 4800; // 20 minutes from 10:00
  const slow = r >= 7200 && r < 7800; // 10 minutes from 11:00
  const j = rand();
  if (kind === 'cpu') return k === '% Processor Time' ? (pegged ? 96 + 3 * j : 20 + 30 * j) : k === '% Privileged Time' ? 5 + 10 * j : 15 + 20 * j;
  if (kind === 'mem') return { 'Available MBytes': 9000 + 500 * j, '% Committed Bytes In Use': 40 + 5 * j, 'Pages/sec': 50 * j, 'Pool Nonpaged Bytes': 2e8 + 1e6 * j }[k];
  if (kind === 'net') return { 'Bytes Total/sec': 1e7 * j, 'Current Bandwidth': 1e10, 'Output Queue Length': 0 }[k];
  if (kind === 'proc') return { '% Processor Time': 10 * j, 'Private Bytes': 1e8 + 1e6 * j, 'Handle Count': 500 + j, 'Thread Count': 40 }[k];
  return { 'Avg. Disk sec/Read': slow && kind === 'D:' ? 0.04 + 0.01 * j : 0.002 + 0.003 * j, 'Avg. Disk sec/Write': 0.003 * j + 0.001, 'Avg. Disk Queue Length': 2 * j, '% Idle Time': 60 + 30 * j, '% Free Space': 40 }[k];
}

const dir = mkdtempSync(join(tmpdir(), 'counterlens-verdict-'));
const file = join(dir, 'server.csv');
{
  const out = createWriteStream(file);
  out.write(['"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)"', ...cols.map((c) => `"${c[0]}"`)].join(',') + '\r\n');
  const t0 = Date.UTC(2026, 10, 22, 9);
  for (let r = 0; r < ROWS; r++) {
    const d = new Date(t0 + r * 1000);
    const p2 = (n) => String(n).padStart(2, '0');
    const line = [`"11/${p2(d.getUTCDate())}/2026 ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.000"`, ...cols.map((c) => `"${value(c, r).toFixed(6)}"`)].join(',') + '\r\n';
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}
const size = statSync(file).size;

const server = await serve();
const browser = await launch();
const { page } = await openPage(browser, server.url);
await page.setViewportSize({ width: 1440, height: 900 });
// The sample's own analysis (run when the page opens) out of the way first.
await page.waitForFunction(() => ['critical', 'warning', 'clean', 'none'].includes(document.querySelector('#verdict')?.dataset.state), null, { timeout: 60_000 });
await page.evaluate(() => {
  window.bench = { chosen: null, chart: null, verdict: null };
  document.querySelector('#capture-file').addEventListener('change', () => { window.bench.chosen = performance.now(); }, { once: true });
  const status = document.querySelector('#chart-status');
  const chart = document.querySelector('#chart');
  new MutationObserver(() => { if (window.bench.chart === null && status.textContent.startsWith('server.csv:') && Number(chart.dataset.pointsDrawn) > 0) window.bench.chart = performance.now(); })
    .observe(chart, { attributes: true });
  const v = document.querySelector('#verdict');
  new MutationObserver(() => { if (window.bench.verdict === null && window.bench.chart !== null && ['critical', 'warning', 'clean', 'none'].includes(v.dataset.state)) window.bench.verdict = performance.now(); })
    .observe(v, { attributes: true, childList: true, subtree: true });
});
await page.setInputFiles('#capture-file', file);
await page.waitForFunction(() => window.bench.verdict !== null, null, { timeout: 900_000, polling: 50 });
const b = await page.evaluate(() => window.bench);
const took = await page.getAttribute('[data-part="analysis"]', 'data-took');
const head = await page.textContent('#verdict [data-part="verdict-head"]');
console.log(`a ${(size / 1e6).toFixed(0)} MB PDH-CSV (${cols.length} series x ${ROWS} rows), from choosing it:`);
console.log(`  first chart on screen: ${((b.chart - b.chosen) / 1000).toFixed(2)} s`);
console.log(`  verdict on screen:     ${((b.verdict - b.chosen) / 1000).toFixed(2)} s (the run in its Worker, with the copy of the columns to it: ${took} ms)`);
console.log(`  verdict: ${head}`);
rmSync(dir, { recursive: true, force: true });
await browser.close();
server.close();
