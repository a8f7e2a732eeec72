// The capture and packs of the analysis benchmarks (bench/analysis.mjs, bench/analysis-ab.mjs): one day at
// 10 s (8,640 samples) x 400 series = 3.5 M values, 1% missing, the counters the built-in packs read with
// as many instances as make 400; and a pack of two derived series with a sustained rule, as PAL's
// Generated series. `api` is a build of the package (its Capture, rulePacks, rulePack).

export const SAMPLES = 8640;
export const SERIES = 400;
const STEP = 10_000;
const T0 = Date.UTC(2026, 10, 20);

/** The columns: timestamps and 400 series of the built-in packs' counters (`(*)` as _Total, i1, i2, ...). */
export function analysisParts(api) {
  const counters = [...new Set(api.rulePacks().flatMap((p) => api.rulePack(p.id).rules.map((r) => r.counter)))];
  const paths = [];
  for (let k = 0; paths.length < SERIES; k++) {
    for (const c of counters) {
      if (paths.length >= SERIES) break;
      if (c.includes('(*)')) paths.push(`\\\\SRV${c.replace('(*)', `(${k === 0 ? '_Total' : `i${k}`})`)}`);
      else if (k === 0) paths.push(`\\\\SRV${c}`);
    }
  }
  let seed = 42;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const timestamps = Float64Array.from({ length: SAMPLES }, (_, i) => T0 + i * STEP);
  const series = paths.map((path) => {
    const base = rand() * 100;
    const values = new Float64Array(SAMPLES);
    for (let i = 0; i < SAMPLES; i++) values[i] = rand() < 0.01 ? NaN : base * (1 + 0.3 * Math.sin(i / 500)) + rand() * 5;
    return { path, counterType: null, reference: null, values };
  });
  return { format: 'pdh-csv', encoding: 'UTF-8', timeZone: null, notes: [], timestamps, series };
}

/** Every built-in pack plus derived series (docs/rule-packs.md): privileged share of processor time and
 *  read share of disk transfers per instance, each with a sustained rule. */
export const derivedPack = {
  id: 'derived-bench', title: 'Derived series',
  derived: [
    { id: 'priv-share', counter: '\\Bench(*)\\Privileged Share', pairBy: 'instance',
      inputs: [{ name: 'a', counter: '\\Processor(*)\\% Privileged Time' }, { name: 'b', counter: '\\Processor(*)\\% Processor Time' }],
      expression: 'if(gt(a, 0) * gt(b, 0), round(a / b * 100), 0)' },
    { id: 'queue-latency', counter: '\\Bench(*)\\Queue Latency', pairBy: 'instance',
      inputs: [{ name: 'a', counter: '\\LogicalDisk(*)\\Avg. Disk Queue Length' }, { name: 'b', counter: '\\LogicalDisk(*)\\Avg. Disk sec/Read' }],
      expression: 'abs(round(a * b * 1000))' },
  ],
  rules: [{ id: 'd', title: 'd', counter: '\\Bench(*)\\*', kind: 'static', severity: 'warning', operator: 'gt', threshold: 1e300, for: 300 }],
};
