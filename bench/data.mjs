import { readFileSync } from 'node:fs';

// The synthetic captures the benchmarks read, made in one place so every benchmark reads the same bytes:
// a relog-style PDH-CSV or PDH-TSV (every cell quoted, CRLF, 1 s apart from 2026-11-22 09:00:00) and a
// Get-Counter JSON as ConvertTo-Json writes it. Deterministic: the same arguments give the same bytes in
// every run.
//
// How relog writes a value (the rule `relog` below follows; docs/performance.md, "Reading captures"):
// relog, Data Collector Sets and PowerShell's Export-Counter (which writes through the same PDH log API)
// print the double with 20 significant digits, the decimal expansion of the double rounded there, and drop
// trailing zeros: "2.2693175362118793714", "0.26681812419607908726", "11140.924071276233008" (a Windows
// Server 2019 relog CSV), a latency of 0.0028616 s as "0.0028616000000000001678" (the double nearest
// 0.0028616 is 0.00286160000000000016782...); whole numbers (counts, bytes) have no fraction to print and
// come out as integers ("8589934592", "42"). Older Windows printed 17 digits ("11.296813511113458"). So a
// value's length depends on its kind, not its size, and nearly every non-integer has 20 digits, which is
// more than a u64 holds (19): the case a reader's fast path must not leave.
//
// The relog-shaped file's counters cycle through ten kinds, as a Data Collector Set's mix of processes and
// disks gives them: three % Processor Time (0-100), two rates (Disk Reads/sec, IO Data Bytes/sec: 0-20,000
// and 0-5e7), one latency in seconds (Avg. Disk sec/Read: a multiple of 100 ns up to 50 ms, as PDH
// averages tick counts), two byte counts (Working Set, Private Bytes: integers to 8 GB) and two counts
// (Thread Count, Handle Count: integers to 5,000). The clean file is the earlier benchmark's: one kind,
// % Processor Time with 13 decimals (15 significant digits), which every reader takes on its fast path.

/** A value as relog prints it: 20 significant digits, trailing zeros dropped, integers as integers. */
export function relog(v) {
  if (Number.isInteger(v)) return String(v);
  // toPrecision is exact (the double's decimal expansion rounded to 20 digits, ECMA-262), but writes
  // 1e-7 and smaller with an exponent: those are written out in full here, as the real files show.
  let s = v.toPrecision(20);
  const e = s.indexOf('e');
  if (e > 0) {
    const digits = s.slice(0, e).replace('-', '').replace('.', '');
    const exp = Number(s.slice(e + 1));
    if (exp >= 0) throw new Error(`relog() writes values below 1e20, not ${s}`);
    s = `${v < 0 ? '-' : ''}0.${'0'.repeat(-exp - 1)}${digits}`;
  }
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}

/** The ten kinds of counter of the relog-shaped file: a path for column `c`, and a value from `r()`, a
 *  uniform draw in [0, 1) with a full 53-bit mantissa (two 31-bit draws), as a ratio PDH computes has. */
const KINDS = [
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\% Processor Time`, (r) => relog(r() * 100)],
  [(c) => `\\\\SQL01\\Process(sqlservr#${c})\\% Processor Time`, (r) => relog(r() * 100)],
  [(c) => `\\\\SQL01\\Processor(${c})\\% Privileged Time`, (r) => relog(r() * 100)],
  [(c) => `\\\\SQL01\\PhysicalDisk(${c} C:)\\Disk Reads/sec`, (r) => relog(r() * 20_000)],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\IO Data Bytes/sec`, (r) => relog(r() * 5e7)],
  [(c) => `\\\\SQL01\\PhysicalDisk(${c} C:)\\Avg. Disk sec/Read`, (r) => relog(Math.round(r() * 500_000) / 1e7)],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Working Set`, (r) => relog(Math.round(r() * 8e9 / 4096) * 4096)],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Private Bytes`, (r) => relog(Math.round(r() * 8e9 / 4096) * 4096)],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Thread Count`, (r) => relog(Math.round(r() * 5000))],
  [(c) => `\\\\SQL01\\Process(w3wp#${c})\\Handle Count`, (r) => relog(Math.round(r() * 5000))],
];

/** A PDH-CSV of `cols` counters x `rows` rows. `values`: 'relog' (the rule above) or 'clean' (13
 *  decimals). `gaps`: 1 % of the cells are `" "` (no value); `blankFirstRow`: every cell of the first row
 *  is `" "` (as relog writes a first sample of rates); `tsv`: PDH-TSV (tabs, relog -f tsv). */
export function pdhCsv(cols, rows, { gaps = false, blankFirstRow = false, values = 'relog', tsv = false } = {}) {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const full = () => rand() + rand() / 2147483648;
  const sep = tsv ? '\t' : ',';
  const header = [`"(PDH-${tsv ? 'TSV' : 'CSV'} 4.0) (Pacific Standard Time)(480)"`];
  const kinds = values === 'clean' ? [[KINDS[0][0], (r) => (r() * 100).toFixed(13)]] : KINDS;
  for (let c = 0; c < cols; c++) header.push(`"${kinds[c % kinds.length][0](c)}"`);
  const value = Array.from({ length: cols }, (_, c) => kinds[c % kinds.length][1]);
  const parts = [header.join(sep) + '\r\n'];
  const t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  const p = (n) => String(n).padStart(2, '0');
  for (let r = 0; r < rows; r++) {
    const d = new Date(t0 + r * 1000);
    const cells = [`"${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.000"`];
    for (let c = 0; c < cols; c++) {
      const blank = (blankFirstRow && r === 0) || (gaps && rand() < 0.01);
      cells.push(blank ? '" "' : `"${value[c](values === 'clean' ? rand : full)}"`);
    }
    parts.push(cells.join(sep) + '\r\n');
  }
  return Buffer.from(parts.join(''));
}

/** A Get-Counter JSON of `sets` sample sets x `per` counters (w3wp % Processor Time), with 100 ns time
 *  stamps that are not multiples of 16 (a double's step there), as real ones are not. */
export function getCounterJson(sets, per) {
  const parts = ['['];
  let stamp = 134082303080000000n;
  for (let k = 0; k < sets; k++) {
    stamp += 10_000_000n + BigInt(k % 13);
    const samples = [];
    for (let i = 0; i < per; i++) {
      const raw = 1_170_374_257_812n + BigInt(k) * 7_500_000n + BigInt(i);
      samples.push(`{"Path":"\\\\\\\\sql01\\\\process(w3wp#${i})\\\\% processor time","InstanceName":"w3wp#${i}","CookedValue":25,` +
        `"RawValue":${raw},"SecondValue":${stamp},"MultipleCount":1,"CounterType":542180608,"Timestamp":"/Date(${1763756708000 + k * 1000})/",` +
        `"Timestamp100NSec":${stamp},"Status":0,"DefaultScale":0,"TimeBase":10000000}`);
    }
    parts.push(`${k ? ',' : ''}{"Timestamp":"/Date(${1763756708000 + k * 1000})/","Readings":"","CounterSamples":[${samples.join(',')}]}`);
  }
  parts.push(']');
  return Buffer.from(parts.join(''));
}

/** Every event of a .blg after buffer 0, as { type, time, bytes }. */
function events(b) {
  const BUF = b.readUInt32LE(0);
  const out = [];
  for (let base = BUF; base < b.length; base += BUF) {
    const end = b.readUInt32LE(base + 0x30);
    for (let at = base + 0x48; at + 0x30 <= base + end;) {
      const size = b.readUInt16LE(at);
      out.push({ type: b[at + 4], time: b.readBigUInt64LE(at + 0x10), bytes: b.subarray(at, at + size) });
      at += (size + 7) & ~7;
    }
  }
  return out;
}

/** A synthetic .blg of about `target` bytes: PAL_SampleLog.blg's header, name table and definitions, then
 *  its 11 samples (whole objects: 1,832 series) repeated with time stamps moving on by 60 s per sample,
 *  re-packed into its 64 KiB ETW buffers. */
export function syntheticBlg(target) {
  const source = readFileSync(new URL('../tests/vectors/captures/PAL_SampleLog.blg', import.meta.url));
  const BUF = source.readUInt32LE(0);
  const all = events(source);
  const head = all.filter((e) => e.type === 0x24 || e.type === 0x20);
  const samples = all.filter((e) => e.type === 0x22);
  const times = [...new Set(samples.map((e) => e.time))];
  const step = 600_000_000n; // 60 s in 100 ns
  const buffers = [source.subarray(0, BUF)];
  let buf = Buffer.alloc(BUF, 0xff), at = 0x48, seq = 1n;
  const flush = () => {
    source.copy(buf, 0, BUF, BUF + 0x48); // a buffer header of the source, then this buffer's own fields
    buf.writeBigUInt64LE(seq++, 0x18);
    buf.writeUInt32LE(at, 0x30);
    buffers.push(buf);
    buf = Buffer.alloc(BUF, 0xff);
    at = 0x48;
  };
  const put = (e, time) => {
    const size = (e.bytes.length + 7) & ~7;
    if (at + size > BUF) flush();
    e.bytes.copy(buf, at);
    buf.writeBigUInt64LE(time, at + 0x10);
    at += size;
  };
  head.forEach((e) => put(e, e.time));
  let total = BUF, round = 0n;
  while (total < target) {
    for (const e of samples) put(e, e.time + BigInt(times.length) * round * step);
    round++;
    total = (buffers.length + 1) * BUF;
  }
  flush();
  return Buffer.concat(buffers);
}
