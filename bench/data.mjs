// The synthetic captures the benchmarks read, made in one place so every benchmark reads the same bytes:
// a relog-style PDH-CSV (500 w3wp processes' % Processor Time, every value quoted with 13 decimals, 1 s
// apart from 2026-11-22 09:00:00) and a Get-Counter JSON as ConvertTo-Json writes it. Deterministic: the
// same arguments give the same bytes in every run.

/** A PDH-CSV of `cols` counters x `rows` rows. `gaps`: 1 % of the cells are `" "` (no value);
 *  `blankFirstRow`: every cell of the first row is `" "` (as relog writes a first sample of rates). */
export function pdhCsv(cols, rows, { gaps = false, blankFirstRow = false } = {}) {
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const header = ['"(PDH-CSV 4.0) (Pacific Standard Time)(480)"'];
  for (let c = 0; c < cols; c++) header.push(`"\\\\SQL01\\Process(w3wp#${c})\\% Processor Time"`);
  const parts = [header.join(',') + '\r\n'];
  const t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  const p = (n) => String(n).padStart(2, '0');
  for (let r = 0; r < rows; r++) {
    const d = new Date(t0 + r * 1000);
    const cells = [`"${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())}/${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.000"`];
    for (let c = 0; c < cols; c++) {
      const blank = (blankFirstRow && r === 0) || (gaps && rand() < 0.01);
      cells.push(blank ? '" "' : `"${(rand() * 100).toFixed(13)}"`);
    }
    parts.push(cells.join(',') + '\r\n');
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
