// Synthetic logs for the verdict evaluation (bench/verdict-eval.mjs, tests/node/verdict-eval.test.mjs):
// a relog-style PDH-CSV of one machine's usual counters at calm levels, with noise, plus the trouble a
// spec in tests/vectors/verdict/labels.json describes, so that what an expert would report is known by
// construction. Deterministic: a spec gives the same bytes in every run (seeded PRNG, no clock).
//
// The machine: Processor(_Total) and each of `processors` processors' % Processor Time and % Privileged
// Time (_Total is the mean of the processors, as Windows computes it; privileged <= processor time),
// System\Processor Queue Length, Memory\Available MBytes (55% of `memoryGB` free, +-2%), % Committed Bytes
// In Use (36-40%), Pages/sec (0-40, a 1% chance of 100-300), LogicalDisk(C:)\Avg. Disk sec/Read (1-6 ms)
// and /Write (0.5-4 ms), Paging File(_Total)\% Usage (5.5-6.5%), and one Network Interface's Bytes
// Total/sec (0.2-3 MB/s) and Current Bandwidth (1 Gbit/s). Calm processors: a level drifting slowly
// inside `calmCpu` (default [8, 20]) plus +-6 per sample and processor, clamped to [0, 100].
//
// Trouble (`spec.trouble`, each from `from` to `to`, times 'YYYY-MM-DD HH:MM:SS' in the log's clock, UTC):
//   { kind: 'cpu', level, noise, dip?: { every, level }, cycle?: { period, on, offLevel? }, queue?: [lo, hi],
//     privileged? }  every processor at level +- noise; with `dip` every `every`-th sample of the trouble
//     is at dip.level +- noise instead; with `cycle` the level holds for the first `on` seconds of every
//     `period` (from `from`) and the rest is at offLevel +- noise, or calm without offLevel; `queue`: the
//     processor queue (whole numbers, uniform) while the level holds; privileged time is `privileged`
//     (default 0.10) x processor time while busy.
//   { kind: 'cpu-spikes', count, seconds: [lo, hi], level: [lo, hi], privileged: [lo, hi] }  `count`
//     spikes on one processor each (chosen at random), lasting lo..hi seconds, at random starts.
//   { kind: 'available-mb', range: [lo, hi], pagesPerSec?: [lo, hi] }  Available MBytes (whole MB).
//   { kind: 'disk-read', range: [lo, hi] }  LogicalDisk(C:)\Avg. Disk sec/Read in seconds.
//   { kind: 'paging', level, noise }  Paging File(_Total)\% Usage.
//
// Processes (`spec.processes`, optional): [{ name, privateMB, handles, noise?, growth?: { from, to,
// mbPerHour, handlesPerHour } }] add Process(name)\Private Bytes and \Handle Count columns after the
// others: flat at privateMB (bytes = MB x 1,048,576) and handles +- noise (default 0.5%) per sample, plus,
// from growth.from, mbPerHour and handlesPerHour times the hours since then, held from growth.to on (a
// warm-up that stops). Drawn from a stream of their own, so they never move the other columns' values.
//
// `processOnly: true` writes a collector set of Process counters only (as many Data Collector Sets are):
// `% Processor Time` of Process(_Total), Process(Idle), Process(System) and Process(app), in place of
// every column above, from the same processors' values: busy = the processors' sum (100% each); _Total
// = 100% per processor x (1 +- 0.3%, a sample's jitter); System 10% of busy, app 90%; Idle the rest.
//
// The file is what relog writes: header `"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"`, every cell
// quoted, CRLF, times "MM/DD/YYYY HH:MM:SS.mmm" (a few ms of jitter after a fixed .4xx offset, as a
// collector's clock gives), values with 20 significant digits (bench/data.mjs's `relog`), whole numbers
// as integers, and `" "` in the first row for the counters that need two samples (rates, times, averages).
import { relog } from './data.mjs';

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 'YYYY-MM-DD HH:MM:SS' read as UTC, in ms. */
export function utcMs(text) {
  const ms = Date.parse(`${text.replace(' ', 'T')}Z`);
  if (Number.isNaN(ms)) throw new Error(`not a time 'YYYY-MM-DD HH:MM:SS': ${text}`);
  return ms;
}

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));
const NIC = 'Intel[R] Ethernet Connection [7] I219-LM';

/** The counters of the machine, in the order of the file's columns: [path, needs two samples]. */
function columns(machine, n, processes = []) {
  const m = `\\\\${machine}`;
  const cols = [];
  for (const k of ['Available MBytes', '% Committed Bytes In Use']) cols.push([`${m}\\Memory\\${k}`, false]);
  cols.push([`${m}\\Memory\\Pages/sec`, true]);
  for (const k of ['Avg. Disk sec/Read', 'Avg. Disk sec/Write']) cols.push([`${m}\\LogicalDisk(C:)\\${k}`, true]);
  cols.push([`${m}\\Network Interface(${NIC})\\Bytes Total/sec`, true]);
  cols.push([`${m}\\Network Interface(${NIC})\\Current Bandwidth`, false]);
  cols.push([`${m}\\Paging File(_Total)\\% Usage`, false]);
  for (const c of ['_Total', ...Array.from({ length: n }, (_, i) => String(i))]) {
    for (const k of ['% Processor Time', '% Privileged Time']) cols.push([`${m}\\Processor(${c})\\${k}`, true]);
  }
  cols.push([`${m}\\System\\Processor Queue Length`, false]);
  for (const p of processes) {
    for (const k of ['Private Bytes', 'Handle Count']) cols.push([`${m}\\Process(${p.name})\\${k}`, false]);
  }
  return cols;
}

/** A synthetic log as relog-style PDH-CSV bytes (see the top of this file for `spec`). */
export function syntheticCsv(spec) {
  const { machine = 'APP01', interval, processors: n = 4, memoryGB = 16, seed = 1, calmCpu = [8, 20] } = spec;
  const t0 = utcMs(spec.start), tEnd = utcMs(spec.end);
  const rows = Math.floor((tEnd - t0) / (interval * 1000)) + 1;
  const trouble = (spec.trouble ?? []).map((t) => ({ ...t, fromMs: utcMs(t.from), toMs: utcMs(t.to) }));
  const rand = prng(seed);
  const u = (lo, hi) => lo + (hi - lo) * rand();
  // Spikes drawn first, from their own stream, so a spec's other trouble does not move them.
  const spikes = [];
  for (const t of trouble.filter((t) => t.kind === 'cpu-spikes')) {
    const r = prng(seed * 7919 + 17);
    for (let k = 0; k < t.count; k++) {
      const len = Math.round(t.seconds[0] + (t.seconds[1] - t.seconds[0]) * r()) * 1000;
      const at = t.fromMs + Math.floor(r() * ((t.toMs - t.fromMs - len) / 1000)) * 1000;
      spikes.push({ from: at, to: at + len, cpu: Math.floor(r() * n), level: t.level, privileged: t.privileged });
    }
  }
  const processes = (spec.processes ?? []).map((p) => ({
    ...p,
    growth: p.growth && { ...p.growth, fromMs: utcMs(p.growth.from), toMs: utcMs(p.growth.to) },
  }));
  const procRand = prng(seed * 104729 + 3);
  const cols = spec.processOnly
    ? ['_Total', 'Idle', 'System', 'app'].map((i) => [`\\\\${machine}\\Process(${i})\\% Processor Time`, true])
    : columns(machine, n, processes);
  const out = [[`"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"`, ...cols.map(([p]) => `"${p}"`)].join(',')];
  const p2 = (x) => String(x).padStart(2, '0');
  let drift = (calmCpu[0] + calmCpu[1]) / 2;
  for (let r = 0; r < rows; r++) {
    const t = t0 + r * interval * 1000;
    const active = (kind) => trouble.find((x) => x.kind === kind && t >= x.fromMs && t < x.toMs);
    // Processors: calm, or the cpu trouble's level, or a spike on one of them.
    drift = clamp(drift + u(-0.5, 0.5) * Math.sqrt(interval), calmCpu[0], calmCpu[1]);
    const cpu = active('cpu');
    let busy = null; // { level, noise } while the cpu trouble holds its level or dip
    let queueRange = null;
    if (cpu) {
      const k = Math.round((t - cpu.fromMs) / (interval * 1000));
      if (cpu.dip && k % cpu.dip.every === cpu.dip.every - 1) busy = { level: cpu.dip.level, noise: cpu.noise };
      else if (cpu.cycle && (t - cpu.fromMs) % (cpu.cycle.period * 1000) >= cpu.cycle.on * 1000) {
        if (cpu.cycle.offLevel !== undefined) busy = { level: cpu.cycle.offLevel, noise: cpu.noise };
      } else {
        busy = { level: cpu.level, noise: cpu.noise };
        queueRange = cpu.queue ?? null;
      }
    }
    const proc = [], priv = [];
    for (let c = 0; c < n; c++) {
      let v, k;
      if (busy) {
        v = clamp(busy.level + u(-busy.noise, busy.noise), 0, 100);
        k = v * (cpu.privileged ?? 0.1) * u(0.8, 1.2);
      } else {
        v = clamp(drift + u(-6, 6), 0, 100);
        k = v * u(0.15, 0.35);
      }
      const s = spikes.find((s) => s.cpu === c && t >= s.from && t < s.to);
      if (s) {
        v = u(s.level[0], s.level[1]);
        k = Math.min(v, u(s.privileged[0], s.privileged[1]));
      }
      proc.push(v);
      priv.push(k);
    }
    const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
    const mem = active('available-mb');
    const disk = active('disk-read');
    const paging = active('paging');
    const values = {
      avail: mem ? Math.round(u(mem.range[0], mem.range[1])) : Math.round(memoryGB * 1024 * u(0.53, 0.57)),
      committed: u(36, 40),
      pages: mem?.pagesPerSec ? u(mem.pagesPerSec[0], mem.pagesPerSec[1]) : rand() < 0.01 ? u(100, 300) : u(0, 40),
      read: Math.round((disk ? u(disk.range[0], disk.range[1]) : u(0.001, 0.006)) * 1e7) / 1e7,
      write: Math.round(u(0.0005, 0.004) * 1e7) / 1e7,
      net: u(2e5, 3e6),
      paging: paging ? clamp(paging.level + u(-paging.noise, paging.noise), 0, 100) : u(5.5, 6.5),
      queue: queueRange ? Math.round(u(queueRange[0], queueRange[1])) : Math.floor(3 * rand() ** 2),
    };
    if (spec.processOnly) {
      const sum = proc.reduce((x, y) => x + y, 0);
      const total = 100 * n * u(0.997, 1.003);
      const cells = [total, Math.max(0, total - sum), 0.1 * sum, 0.9 * sum];
      const d = new Date(t + 400 + Math.floor(rand() * 30));
      const stamp = `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
      out.push([`"${stamp}"`, ...cells.map((v) => (r === 0 ? '" "' : `"${relog(v)}"`))].join(','));
      continue;
    }
    const cells = [values.avail, values.committed, values.pages, values.read, values.write, values.net, 1_000_000_000, values.paging];
    cells.push(mean(proc), mean(priv));
    for (let c = 0; c < n; c++) cells.push(proc[c], priv[c]);
    cells.push(values.queue);
    for (const p of processes) {
      const g = p.growth;
      const hours = g ? (clamp(t, g.fromMs, g.toMs) - g.fromMs) / 3_600_000 : 0;
      const wobble = () => 1 + (p.noise ?? 0.005) * (2 * procRand() - 1);
      cells.push(Math.round((p.privateMB + hours * (g?.mbPerHour ?? 0)) * 1_048_576 * wobble()));
      cells.push(Math.round((p.handles + hours * (g?.handlesPerHour ?? 0)) * wobble()));
    }
    const d = new Date(t + 400 + Math.floor(rand() * 30));
    const stamp = `${p2(d.getUTCMonth() + 1)}/${p2(d.getUTCDate())}/${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())}.${String(d.getUTCMilliseconds()).padStart(3, '0')}`;
    out.push([`"${stamp}"`, ...cells.map((v, i) => (r === 0 && cols[i][1] ? '" "' : `"${relog(v)}"`))].join(','));
  }
  return Buffer.from(out.join('\r\n') + '\r\n', 'latin1');
}
