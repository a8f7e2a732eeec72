// The fleet view's test logs, made in the test (tests/browser/fleet.test.mjs, a11y.test.mjs,
// baseline.test.mjs): relog CSVs of a machine's CPU and available memory over two hours, and the five logs
// of three machines whose ranking fleet.test.mjs pins.
export const T0 = Date.UTC(2026, 6, 4); // 2026-07-04 00:00:00 UTC (no zone in the files)
export const HOUR = 3_600_000;

/** A relog CSV of `machine`'s _Total CPU and available memory over two hours at 15 s (480 samples) from
 *  `start` (ms); `cpu(s)` and `mem(s)` give the values at s seconds into the log. */
export function log(machine, start, cpu, mem = () => 8000) {
  const paths = [`\\\\${machine}\\Processor(_Total)\\% Processor Time`, `\\\\${machine}\\Memory\\Available MBytes`];
  const lines = [['(PDH-CSV 4.0)', ...paths].map((c) => `"${c}"`).join(',')];
  const p2 = (n) => String(n).padStart(2, '0');
  for (let k = 0; k < 480; k++) {
    const t = new Date(start + k * 15_000);
    const stamp = `${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000`;
    lines.push([stamp, cpu(k * 15), mem(k * 15)].map((c) => `"${c}"`).join(','));
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}
export const busy = (from, to) => (s) => (s >= from && s < to ? 97 : 10);
export const calm = () => 10;

// By construction, against the system overview's rules (CPU above 95 % is critical; Available MBytes
// under 10 % of the default 16 GB, 1638.4 MB, is a warning, under 5 %, 819.2 MB, critical):
// - WEB01: web-1 (00:00-02:00) at 97 % from 00:30 to 01:30, 60 min; web-2 (02:00-04:00) calm: critical,
//   60 min in trouble;
// - DB01: db-1 (00:00-02:00) calm; db-2 (02:00-04:00) at 97 % from 02:30 to 03:00, 30 min: critical,
//   30 min in trouble (60 > 30: WEB01 first);
// - APP01: app-1 (00:00-02:00) CPU calm, 1000 MB available all along (below 1638.4, above 819.2): a
//   warning only, so last whatever its time in trouble.
// Rows: WEB01, DB01, APP01. A click on DB01 opens db-2.csv, the first of its 2 logs in trouble.
export const FIVE = () => [
  { name: 'web-1.csv', mimeType: 'text/csv', buffer: log('WEB01', T0, busy(1800, 5400)) },
  { name: 'db-2.csv', mimeType: 'text/csv', buffer: log('DB01', T0 + 2 * HOUR, busy(1800, 3600)) },
  { name: 'app-1.csv', mimeType: 'text/csv', buffer: log('APP01', T0, calm, () => 1000) },
  { name: 'web-2.csv', mimeType: 'text/csv', buffer: log('WEB01', T0 + 2 * HOUR, calm) },
  { name: 'db-1.csv', mimeType: 'text/csv', buffer: log('DB01', T0, calm) },
];
