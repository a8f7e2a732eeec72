// Writes the viewer's sample capture: a counterlens raw capture (schema/counterlens-raw-capture-v1)
// of a realistic machine, ten minutes at one-second samples, from a fixed seed, so every build makes
// the same bytes. Usage: node scripts/make-sample.mjs > out.json
//
// The raw counters are generated the way Windows keeps them (cumulative tick counts, event counts, bases)
// so that cooking them gives believable values, and they are consistent with each other where Windows'
// are: Processor(_Total) is the mean of the CPUs, % User + % Privileged = % Processor Time, the disk's
// average base counts the same reads as Disk Reads/sec.

const SAMPLES = 600;
const T0 = Date.UTC(2026, 10, 22, 9, 0, 0); // 2026-11-22 09:00:00 UTC
const FILETIME_EPOCH = 116444736000000000n; // 1970-01-01 as a FILETIME
const QPC_FREQ = 10_000_000;

// mulberry32: a small seeded generator; Math.random would make every build different.
let seed = 0x2026_1122;
function rand() {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (a, b) => a + (b - a) * rand();

const T = {
  COUNTER: 0x10410400, SAMPLE_COUNTER: 0x00410400, BULK: 0x10410500, QUEUELEN: 0x00450400, LARGE_QUEUELEN: 0x00450500,
  QUEUELEN_100NS: 0x00550500, OBJ_QUEUELEN: 0x00650500, TIMER: 0x20410500, OBJ_TIMER: 0x20610500, TIMER_100NS: 0x20510500,
  PRECISION_SYSTEM: 0x20470500, PRECISION_100NS: 0x20570500, PRECISION_OBJECT: 0x20670500, SAMPLE_FRACTION: 0x20c20400,
  TIMER_INV: 0x21410500, TIMER_100NS_INV: 0x21510500, MULTI_TIMER: 0x22410500, MULTI_TIMER_100NS: 0x22510500,
  MULTI_TIMER_INV: 0x23410500, MULTI_TIMER_100NS_INV: 0x23510500, AVERAGE_TIMER: 0x30020400, AVERAGE_BULK: 0x40020500,
  DELTA: 0x00400400, LARGE_DELTA: 0x00400500, RAWCOUNT: 0x00010000, LARGE_RAWCOUNT: 0x00010100, RAWCOUNT_HEX: 0x00000000,
  LARGE_RAWCOUNT_HEX: 0x00000100, RAW_FRACTION: 0x20020400, LARGE_RAW_FRACTION: 0x20020500, ELAPSED: 0x30240500,
  SAMPLE_BASE: 0x40030401, AVERAGE_BASE: 0x40030402, RAW_BASE: 0x40030403, LARGE_RAW_BASE: 0x40030500,
};

/** A counter definition in the registration JSON form. */
function c(counterId, name, type, refs = {}) {
  return {
    counterId, name, type, attrib: refs.attrib ?? 0, detailLevel: refs.advanced ? 200 : 100, defaultScale: refs.scale ?? 0,
    baseCounterId: refs.base ?? null, perfTimeId: refs.time ?? null, perfFreqId: refs.freq ?? null, multiId: refs.multi ?? null,
    aggregateFunc: 0, reserved: 0,
  };
}
function set(guid, name, instanceType, counters) {
  return { counterSetGuid: guid, name, counterSetType: 0, detailLevel: 100, instanceType, counters };
}

const counterSets = [
  set('6e2b4a1c-0001-4c6e-9b1a-000000000001', 'Processor', 2, [
    c(1, '% Processor Time', T.TIMER_100NS_INV), c(2, '% User Time', T.TIMER_100NS), c(3, '% Privileged Time', T.TIMER_100NS),
    c(4, 'Interrupts/sec', T.COUNTER), c(5, '% Idle Time', T.TIMER_100NS, { advanced: true }),
  ]),
  set('6e2b4a1c-0002-4c6e-9b1a-000000000002', 'Memory', 0, [
    c(1, 'Available Bytes', T.LARGE_RAWCOUNT), c(2, 'Committed Bytes', T.LARGE_RAWCOUNT),
    c(3, '% Committed Bytes In Use', T.RAW_FRACTION, { base: 4 }), c(4, 'Commit Limit Pages', T.RAW_BASE),
    c(5, 'Pages/sec', T.COUNTER), c(6, 'Cache Faults/sec', T.COUNTER), c(7, 'Pool Nonpaged Bytes', T.RAWCOUNT),
  ]),
  set('6e2b4a1c-0003-4c6e-9b1a-000000000003', 'PhysicalDisk', 2, [
    c(1, 'Avg. Disk Queue Length', T.QUEUELEN_100NS, { scale: 2 }), c(2, 'Disk Reads/sec', T.COUNTER), c(3, 'Disk Writes/sec', T.COUNTER),
    c(4, 'Avg. Disk sec/Read', T.AVERAGE_TIMER, { base: 5, scale: 3 }), c(5, 'Avg. Disk sec/Read Base', T.AVERAGE_BASE),
    c(6, 'Avg. Disk Bytes/Read', T.AVERAGE_BULK, { base: 7, scale: -2 }), c(7, 'Avg. Disk Bytes/Read Base', T.AVERAGE_BASE),
    c(8, '% Disk Time', T.PRECISION_100NS, { base: 9 }), c(9, 'Disk Time Base', T.LARGE_RAW_BASE),
    c(10, 'Current Disk Queue Length', T.RAWCOUNT), c(11, 'Split IO/Sec', T.SAMPLE_COUNTER),
    c(12, '% Idle Samples', T.SAMPLE_FRACTION, { base: 13 }), c(13, 'Idle Sample Base', T.SAMPLE_BASE),
  ]),
  set('6e2b4a1c-0004-4c6e-9b1a-000000000004', 'Network Interface', 2, [
    c(1, 'Bytes Total/sec', T.BULK), c(2, 'Packets/sec', T.COUNTER), c(3, 'Current Bandwidth', T.LARGE_RAWCOUNT),
    c(4, 'Output Queue Length', T.LARGE_RAWCOUNT),
  ]),
  set('6e2b4a1c-0005-4c6e-9b1a-000000000005', 'Process', 2, [
    c(1, '% Processor Time', T.TIMER_100NS), c(2, 'Working Set', T.LARGE_RAWCOUNT), c(3, 'Handle Count', T.RAWCOUNT),
    c(4, 'IO Data Operations/sec', T.COUNTER), c(5, 'Elapsed Time', T.ELAPSED, { time: 6, freq: 7 }),
    c(6, 'Process Time Stamp', T.LARGE_RAWCOUNT, { advanced: true }), c(7, 'Process Frequency', T.LARGE_RAWCOUNT, { advanced: true }),
    c(8, 'ID Process', T.RAWCOUNT),
  ]),
  set('6e2b4a1c-0006-4c6e-9b1a-000000000006', 'System', 0, [
    c(1, 'Context Switches/sec', T.COUNTER), c(2, 'Processor Queue Length', T.RAWCOUNT),
    c(3, 'System Up Time', T.ELAPSED, { time: 4, freq: 5 }), c(4, 'System Time Stamp', T.LARGE_RAWCOUNT, { advanced: true }),
    c(5, 'System Frequency', T.LARGE_RAWCOUNT, { advanced: true }),
    c(6, '% Average Processor Busy', T.MULTI_TIMER_100NS, { multi: 7 }), c(7, 'Processors', T.RAWCOUNT),
    c(8, 'File Data Operations/sec', T.COUNTER), c(9, '% Registry Quota In Use', T.LARGE_RAW_FRACTION, { base: 10 }),
    c(10, 'Registry Quota Base', T.LARGE_RAW_BASE),
  ]),
  // A provider's own counter set, to exercise the types the system objects above do not.
  set('6e2b4a1c-0007-4c6e-9b1a-000000000007', 'Example Service', 0, [
    c(1, '% Worker Busy (tick timer)', T.TIMER), c(2, '% Worker Idle (tick timer)', T.TIMER_INV),
    c(3, 'Avg. Request Queue', T.QUEUELEN), c(4, 'Avg. Large Queue', T.LARGE_QUEUELEN),
    c(5, 'Avg. Object Queue', T.OBJ_QUEUELEN, { time: 14, freq: 15 }), c(6, '% Object Busy', T.OBJ_TIMER, { time: 14, freq: 15 }),
    c(7, '% Precise Busy', T.PRECISION_SYSTEM, { base: 16 }), c(8, '% Object Precise Busy', T.PRECISION_OBJECT, { time: 14, freq: 15 }),
    c(9, '% Workers Busy (multi)', T.MULTI_TIMER, { multi: 17 }), c(10, '% Workers Idle (multi inverse)', T.MULTI_TIMER_INV, { multi: 17 }),
    c(11, '% Workers Idle (100ns multi inverse)', T.MULTI_TIMER_100NS_INV, { multi: 17 }),
    c(12, 'Requests Completed (delta)', T.DELTA), c(13, 'Bytes Served (large delta)', T.LARGE_DELTA),
    c(14, 'Service Time Stamp', T.LARGE_RAWCOUNT, { advanced: true }), c(15, 'Service Frequency', T.LARGE_RAWCOUNT, { advanced: true }),
    c(16, 'Precise Time Base', T.LARGE_RAW_BASE), c(17, 'Workers', T.RAWCOUNT),
    c(18, 'Status Flags', T.RAWCOUNT_HEX, { attrib: 0x10 }), c(19, 'Build Id', T.LARGE_RAWCOUNT_HEX),
  ]),
];

// ---- The machine's state, advanced one second at a time -------------------------------------------

const cpus = [0, 1, 2, 3].map(() => ({ idle: 0, user: 0, priv: 0, interrupts: 0 }));
const mem = { pages: 0, cacheFaults: 0 };
const disks = ['0 C:', '1 D:'].map(() => ({ queue: 0, reads: 0, writes: 0, readTicks: 0, readBytes: 0, busy: 0, split: 0, idleSamples: 0, samples: 0 }));
const nic = { bytes: 0, packets: 0 };
const processes = [
  { name: 'System', pid: 4, from: 0, to: SAMPLES, cpu: 0.02, ws: 150e3, handles: 5000 },
  { name: 'svchost', pid: 1024, from: 0, to: SAMPLES, cpu: 0.05, ws: 80e6, handles: 1500 },
  { name: 'svchost#1', pid: 1100, from: 0, to: SAMPLES, cpu: 0.01, ws: 30e6, handles: 700 },
  { name: 'sqlservr', pid: 2480, from: 0, to: SAMPLES, cpu: 0.6, ws: 4.2e9, handles: 2100 },
  { name: 'notepad', pid: 6120, from: 120, to: 300, cpu: 0.001, ws: 12e6, handles: 240 },
  { name: 'backup', pid: 7004, from: 360, to: SAMPLES, cpu: 0.3, ws: 600e6, handles: 900 },
].map((p) => ({ ...p, ticks: 0, io: 0 }));
const sys = { switches: 0, files: 0 };
const svc = { busy: 0, queue: 0, lqueue: 0, oqueue: 0, obusy: 0, pbusy: 0, opbusy: 0, workerBusy: 0, completed: 0, bytes: 0 };
const BOOT_FT = FILETIME_EPOCH + BigInt(T0) * 10000n - 3n * 86400n * 10_000_000n; // up for 3 days

const u = (x) => (typeof x === 'bigint' ? String(x) : String(BigInt(Math.round(x)))); // decimal strings: exact beyond 2^53

const samples = [];
for (let k = 0; k < SAMPLES; k++) {
  const ms = T0 + k * 1000;
  const ft = FILETIME_EPOCH + BigInt(ms) * 10000n;
  const qpc = 123_456_789_000 + k * QPC_FREQ + Math.round(between(-2000, 2000));
  const load = Math.min(0.95, 0.2 + 0.12 * Math.sin(k / 45) + (k >= 300 && k < 360 ? 0.45 : 0)); // a busy minute at 09:05
  // Processors: busy share per CPU around the machine's load; user share of busy time about 70 %.
  cpus.forEach((cpu, i) => {
    const busy = Math.max(0.01, Math.min(0.99, load + between(-0.08, 0.08) + (i === 0 ? 0.05 : 0)));
    const user = busy * between(0.6, 0.8);
    cpu.idle += (1 - busy) * 1e7;
    cpu.user += user * 1e7;
    cpu.priv += (busy - user) * 1e7;
    cpu.interrupts += Math.round(between(800, 2400) * (1 + busy));
  });
  const mean = (f) => cpus.reduce((s, x) => s + x[f], 0) / cpus.length;
  const procData = {};
  cpus.forEach((cpu, i) => { procData[String(i)] = [u(cpu.idle), u(cpu.user), u(cpu.priv), u(cpu.interrupts), u(cpu.idle)]; });
  procData._Total = [u(mean('idle')), u(mean('user')), u(mean('priv')), u(cpus.reduce((s, x) => s + x.interrupts, 0)), u(mean('idle'))];

  const committedPages = 2_000_000 + 150_000 * load + between(-5000, 5000);
  mem.pages += Math.round(between(0, 40) * (1 + 5 * load));
  mem.cacheFaults += Math.round(between(100, 900));
  const memData = { '': [u(6.4e9 - 2.2e9 * load + between(-2e7, 2e7)), u(committedPages * 4096), u(committedPages), u(4_194_304), u(mem.pages), u(mem.cacheFaults), u(180e6 + between(-1e5, 1e5))] };

  const diskData = {};
  disks.forEach((d, i) => {
    const reads = Math.round(between(20, 120) * (1 + 2 * load) / (i + 1));
    const writes = Math.round(between(10, 80) * (1 + load) / (i + 1));
    const queue = between(0.1, 1.5) * (1 + 3 * load);
    d.reads += reads; d.writes += writes;
    d.queue += queue * 1e7;
    d.readTicks += reads * between(0.002, 0.012) * QPC_FREQ; // seconds per read, in QPC ticks
    d.readBytes += reads * [4096, 8192, 16384, 65536][Math.floor(rand() * 4)];
    d.busy += Math.min(1, 0.1 + 0.7 * load + between(-0.05, 0.05)) * 1e7;
    d.split += Math.round(between(0, 3));
    d.samples += 100;
    d.idleSamples += Math.round(100 * Math.max(0, 1 - (0.1 + 0.7 * load)));
    diskData[['0 C:', '1 D:'][i]] = [u(d.queue), u(d.reads), u(d.writes), u(d.readTicks), u(d.reads), u(d.readBytes), u(d.reads), u(d.busy), u(ft - BOOT_FT), u(Math.round(queue)), u(d.split), u(d.idleSamples), u(d.samples)];
  });

  nic.bytes += Math.round(between(2e5, 3e6) * (1 + load));
  nic.packets += Math.round(between(300, 4000) * (1 + load));
  const nicData = { Ethernet0: [u(nic.bytes), u(nic.packets), u(1e9), u(Math.round(between(0, 2)))] };

  const procs = {};
  for (const p of processes) {
    if (k < p.from || k >= p.to) continue;
    const share = p.name === 'sqlservr' ? p.cpu * (1 + 2 * (load - 0.2)) : p.cpu * between(0.5, 1.5);
    p.ticks += Math.max(0, share) * 1e7; // may exceed one CPU's worth: a multi-threaded process
    p.io += Math.round(between(0, 200) * share * 10);
    const started = FILETIME_EPOCH + BigInt(T0 + p.from * 1000) * 10000n - (p.from === 0 ? 36000n * 10_000_000n : 0n);
    procs[p.name] = [u(p.ticks), u(p.ws * between(0.98, 1.02)), u(p.handles + Math.round(between(-5, 5))), u(p.io), String(started), String(ft), u(1e7), u(p.pid)];
  }

  sys.switches += Math.round(between(8000, 30000) * (1 + load));
  sys.files += Math.round(between(100, 1500));
  const busySum = cpus.reduce((s, x) => s + x.user + x.priv, 0);
  const sysData = { '': [u(sys.switches), u(Math.round(between(0, 6) * load)), String(BOOT_FT), String(ft), u(1e7), u(busySum), '4', u(sys.files), u(1.2e8 + 1e4 * k), u(4e8)] };

  // The example service: 8 workers, the same busy share seen through every timer type.
  const share = Math.min(0.95, 0.3 + 0.5 * load + between(-0.05, 0.05));
  svc.busy += share * QPC_FREQ;
  svc.queue += between(0, 4) * (1 + load) * QPC_FREQ; // queue length x ticks: dN / dD is the mean length
  svc.lqueue += between(0, 40) * (1 + load) * QPC_FREQ;
  svc.oqueue += between(0, 8) * 1e7;
  svc.obusy += share * 1e7;
  svc.pbusy += share * QPC_FREQ;
  svc.workerBusy += 8 * share * QPC_FREQ;
  const completed = Math.round(between(50, 500) * (1 + load));
  svc.completed += completed;
  svc.bytes += completed * 20_000;
  const workerIdle100ns = (k + 1) * 8 * 1e7 - svc.workerBusy * (1e7 / QPC_FREQ);
  const svcData = { '': [
    u(svc.busy), u((k + 1) * QPC_FREQ - svc.busy), u(svc.queue), u(svc.lqueue), u(svc.oqueue), u(svc.obusy),
    // COUNTER_MULTI_TIMER's documented formula, 100 * (dN / (dD / F)) / M1, reads N in busy worker-seconds.
    u(svc.pbusy), u(svc.obusy), u(svc.workerBusy / QPC_FREQ), u(workerIdle100ns), u(workerIdle100ns), u(svc.completed), u(svc.bytes),
    String(ft), u(1e7), String(qpc), '8', u(0x21 | (load > 0.6 ? 0x100 : 0)), String(0x0001_0000_2400n + 0x5n),
  ] };

  samples.push({
    systemTime: new Date(ms).toISOString(),
    perfTimeStamp: String(qpc),
    perfTime100NSec: String(ft),
    perfFreq: QPC_FREQ,
    data: Object.fromEntries(counterSets.map((s, i) => [s.counterSetGuid, [procData, memData, diskData, nicData, procs, sysData, svcData][i]])),
  });
}

const capture = {
  format: 'counterlens-raw-capture',
  version: 1,
  machine: 'DEMO-SQL01',
  timeZone: { name: 'Pacific Standard Time', biasMinutes: 480 },
  counterSets,
  samples,
};
process.stdout.write(JSON.stringify(capture) + '\n');
