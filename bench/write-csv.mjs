// Writes bench/data.mjs's relog-shaped PDH-CSV (500 counters of ten kinds, values as relog prints them,
// 1 % " " gaps) to a file, for the benchmarks that run outside Node (bench/cli.sh):
//   node bench/write-csv.mjs OUT ROWS [MACHINE] [COUNTERS]   (MACHINE replaces the file's SQL01;
//   COUNTERS, default 500: relog logs of thousands of series, bench/fleet-parquet.sh)
import { writeFileSync } from 'node:fs';
import { pdhCsv } from './data.mjs';

const [out, rows, machine, counters] = process.argv.slice(2);
if (!out || !(Number(rows) > 0)) {
  console.error('usage: node bench/write-csv.mjs OUT ROWS [MACHINE] [COUNTERS]');
  process.exit(2);
}
let text = pdhCsv(Number(counters ?? 500), Number(rows), { gaps: true }).toString('latin1');
if (machine) text = text.replaceAll('\\\\SQL01\\', `\\\\${machine}\\`);
writeFileSync(out, text, 'latin1');
