// Reading a part of a big log against reading it all (issue 27): a generated PDH-CSV of 2,000 series
// (200 MB), read whole by openCapture and with `series` naming a tenth of them (200), in turns, best of
// three each; prints the times, the load, and the process's peak RSS. `node bench/parts.mjs [MB]`.
import { openCapture } from '../js/node.js';
import { loadavg } from 'node:os';

const mb = Number(process.argv[2] ?? 200);
const series = 2000;
let head = '"(PDH-CSV 4.0) (Pacific Standard Time)(480)"';
for (let k = 0; k < series; k++) head += `,"\\\\SRV\\Process(p${k})\\Working Set"`;
const rowOf = (r) => {
  let s = `"11/21/2026 ${String(12 + (r / 3600 | 0) % 12).padStart(2, '0')}:${String((r / 60 | 0) % 60).padStart(2, '0')}:${String(r % 60).padStart(2, '0')}.000"`;
  for (let k = 0; k < series; k++) s += `,"${(r * 7 + k * 13) % 100000 / 8}"`;
  return `${s}\r\n`;
};
const rowBytes = rowOf(0).length;
const rows = Math.floor((mb << 20) / rowBytes);
const text = head + '\r\n' + Array.from({ length: rows }, (_, r) => rowOf(r)).join('');
const bytes = new TextEncoder().encode(text);
const tenth = Array.from({ length: series / 10 }, (_, i) => `\\Process(p${i * 10})\\Working Set`);
const runs = { whole: [], tenth: [] };
for (let i = 0; i < 3; i++) {
  for (const [name, options] of [['whole', {}], ['tenth', { series: tenth }]]) {
    const t = performance.now();
    const c = openCapture(bytes, options);
    runs[name].push(performance.now() - t);
    if (i === 0) console.log(`${name}: ${c.seriesCount} series x ${c.sampleCount} samples`);
    c.free();
  }
}
const best = (a) => Math.min(...a).toFixed(0);
console.log(`${(bytes.length / 1e6).toFixed(0)} MB, ${rows} rows: whole ${best(runs.whole)} ms, a tenth of the series ${best(runs.tenth)} ms (best of 3, in turns); load ${loadavg().map((x) => x.toFixed(1)).join(' ')}; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
