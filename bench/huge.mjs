// Issue 27's "Done when": a log bigger than a browser tab, read and converted. Generates a multi-GB
// PDH-CSV shaped like a Data Collector Set's (2,000 series of ten kinds, values as relog prints them: up to
// 20 significant digits, bench/data.mjs's `relog`; 1 % blank cells; 50 processes that start a tenth of the
// way in; 1,024 distinct rows of values, repeated with new times), streamed to disk (never held), and a 1 GB log of the same shape whose columns fit (a quarter of
// the big one's size, when that is less); then, each in
// its own process under GNU time (wall seconds and peak RSS):
//   - `counterlens convert` of the big log to Parquet and to CSV (streamed, bounded memory);
//   - the package's CaptureReader with `series` naming a tenth of the series, the big log pushed in 4 MiB
//     chunks;
//   - the package's catalogue pass (CatalogueReader, issue 27 point 5) over the big log, pushed the same way;
//   - the small log read whole (CaptureReader, and `convert` with COUNTERLENS_STREAM_BYTES=0), beside the
//     same two streamed.
// Usage: nice -n 15 node bench/huge.mjs [GB, default 5] [--keep]. Needs pkg/ (bash scripts/build.sh) and
// a release build (COUNTERLENS_BIN, default target/release/counterlens). Checks free disk first (the log,
// its CSV copy and its Parquet: about 2.5 times its size) and deletes what it wrote unless --keep.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statfsSync, statSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relog } from './data.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const SERIES = 2000;

/** The ten kinds of counter (as bench/data.mjs's relog-shaped file), each a path and a value of r in [0, 1). */
const KINDS = [
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\% Processor Time`, (r) => r * 100],
  [(c) => `\\\\SQL01\\Process(sqlservr#${c})\\% Processor Time`, (r) => r * 100],
  [(c) => `\\\\SQL01\\Processor(${c})\\% Privileged Time`, (r) => r * 100],
  [(c) => `\\\\SQL01\\PhysicalDisk(${c} C:)\\Disk Reads/sec`, (r) => r * 20_000],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\IO Data Bytes/sec`, (r) => r * 5e7],
  [(c) => `\\\\SQL01\\PhysicalDisk(${c} C:)\\Avg. Disk sec/Read`, (r) => Math.round(r * 500_000) / 1e7],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Working Set`, (r) => Math.round(r * 8e9 / 4096) * 4096],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Private Bytes`, (r) => Math.round(r * 8e9 / 4096) * 4096],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Thread Count`, (r) => Math.round(r * 5000)],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Handle Count`, (r) => Math.round(r * 5000)],
];
const paths = Array.from({ length: SERIES }, (_, c) => KINDS[c % KINDS.length][0](c));

/** Writes a log of about `bytes` bytes to `file`, a block of rows at a time. Values come from a pool of
 *  65,536 relog-printed values per kind (printing 20 digits per cell would take the generator minutes),
 *  drawn at random per cell, for 1,024 distinct rows; the rows then repeat with new times (on a shared
 *  2-core machine, drawing every cell of 3 GB took more than ten minutes). */
function generate(file, bytes) {
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pools = KINDS.map(([, v]) => Array.from({ length: 65536 }, () => `,"${relog(v(rand() + rand() / 2147483648))}"`));
  const fd = openSync(file, 'w');
  let written = writeSync(fd, `"(PDH-CSV 4.0) (Pacific Standard Time)(480)",${paths.map((p) => `"${p}"`).join(',')}\r\n`);
  const t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  const p2 = (n) => String(n).padStart(2, '0');
  const late = SERIES - 50; // the last 50 series: processes that start a tenth of the way in
  const rowsGuess = Math.floor(bytes / (SERIES * 17));
  const body = (r, started) => {
    let s = '';
    for (let c = 0; c < SERIES; c++) {
      const x = rand();
      s += x < 0.01 || (c >= late && !started) ? ',"' + ' "' : pools[c % KINDS.length][(x * 65536) | 0];
    }
    return s + '\r\n';
  };
  const bodies = Array.from({ length: 1024 }, (_, r) => body(r, true));
  const early = Array.from({ length: 64 }, (_, r) => body(r, false));
  for (let r = 0; written < bytes; ) {
    const block = [];
    for (let k = 0; k < 256; k++, r++) {
      const d = new Date(t0 + r * 15000);
      block.push(`"${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.000"`);
      block.push(r < rowsGuess / 10 ? early[r % 64] : bodies[r % 1024]);
    }
    written += writeSync(fd, block.join(''));
  }
  closeSync(fd);
  return written;
}

/** A child process under GNU time: its stdout, wall seconds and peak RSS (MB). */
function timed(cmd, args, env = {}) {
  const report = join(root, 'target/bench/time.txt');
  const r = spawnSync('/usr/bin/time', ['-f', '%e %M', '-o', report, cmd, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  const [wall, kb] = readFileSync(report, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  return { out: r.stdout.trim(), wall, rss: kb / 1024 };
}

// A child: read a log with the package and print what was read.
if (process.argv[2] === '--read') {
  const [, , , file, how] = process.argv;
  const core = await import('../js/node.js');
  const { createReadStream } = await import('node:fs');
  if (how === 'catalogue') {
    const reader = new core.CatalogueReader();
    for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 })) reader.push(chunk);
    const cat = reader.finish();
    console.log(`${cat.series.length} series, ${cat.rows} rows, columns of a whole read ${(cat.columnBytes / 2 ** 30).toFixed(2)} GiB`);
    process.exit(0);
  }
  const options = how === 'tenth' ? { series: paths.filter((_, i) => i % 10 === 0).map((p) => p.replace('\\\\SQL01', '')) } : {};
  const reader = new core.CaptureReader(options);
  for await (const chunk of createReadStream(file, { highWaterMark: 4 << 20 })) reader.push(chunk);
  const c = reader.finish();
  console.log(`${c.seriesCount} series x ${c.sampleCount} samples`);
  process.exit(0);
}

const gb = Number(process.argv.find((a) => /^\d+(\.\d+)?$/.test(a)) ?? 5);
const keep = process.argv.includes('--keep');
const bin = process.env.COUNTERLENS_BIN ?? join(root, 'target/release/counterlens');
const dir = join(root, 'target/bench/huge');
mkdirSync(dir, { recursive: true });
const fs = statfsSync(dir);
const free = fs.bavail * fs.bsize;
const need = (gb + 1) * 2.5e9;
if (free < need) throw new Error(`bench/huge.mjs: ${(free / 1e9).toFixed(1)} GB free under ${dir}; ${(need / 1e9).toFixed(1)} GB needed`);
const core = await import('../js/node.js');
const hasCatalogue = typeof core.CatalogueReader === 'function';

const big = join(dir, 'huge.csv');
const small = join(dir, 'small.csv');
const results = [];
const say = (line) => { console.log(line); results.push(line); };
try {
  let t = performance.now();
  generate(big, gb * 1e9);
  say(`generated ${big}: ${(statSync(big).size / 1e9).toFixed(2)} GB in ${((performance.now() - t) / 1000).toFixed(0)} s`);
  generate(small, Math.min(1e9, (gb * 1e9) / 4));
  say(`generated ${small}: ${(statSync(small).size / 1e9).toFixed(2)} GB`);
  say(`load before: ${loadavg().map((x) => x.toFixed(1)).join(' ')}; ${execFileSync('uptime').toString().trim()}`);
  const row = (what, r, bytes) => say(`${what.padEnd(58)} ${r.wall.toFixed(1).padStart(7)} s  ${(bytes / 1e6 / r.wall).toFixed(0).padStart(4)} MB/s  peak RSS ${r.rss.toFixed(0).padStart(6)} MB  ${r.out.split('\n').pop()}`);
  const size = (f) => statSync(f).size;
  const conv = (input, out, env = {}) => timed(bin, ['convert', '--overwrite', '--threads', '1', input, '-o', out], env);
  for (const [name, input] of [['big', big], ['small', small]]) {
    const n = size(input);
    say(`\n${name}: ${(n / 1e9).toFixed(2)} GB, ${SERIES} series`);
    row('CLI convert -> Parquet (streamed)', conv(input, join(dir, `${name}.parquet`)), n);
    rmSync(join(dir, `${name}.parquet`), { force: true });
    row('CLI convert -> CSV (streamed)', conv(input, join(dir, `${name}-out.csv`)), n);
    rmSync(join(dir, `${name}-out.csv`), { force: true });
    row('package CaptureReader, series: a tenth (200)', timed('node', [fileURLToPath(import.meta.url), '--read', input, 'tenth']), n);
    if (name === 'big') {
      if (hasCatalogue) row('package catalogue pass', timed('node', [fileURLToPath(import.meta.url), '--read', input, 'catalogue']), n);
      else say('package catalogue pass: not in this build (issue 27 point 5 had not landed on main)');
    } else {
      row('package CaptureReader, whole', timed('node', [fileURLToPath(import.meta.url), '--read', input, 'whole']), n);
      row('CLI convert -> Parquet, whole read (COUNTERLENS_STREAM_BYTES=0)', conv(input, join(dir, `${name}.parquet`), { COUNTERLENS_STREAM_BYTES: '0' }), n);
      rmSync(join(dir, `${name}.parquet`), { force: true });
    }
  }
  say(`\nload after: ${execFileSync('uptime').toString().trim()}`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
