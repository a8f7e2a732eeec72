// The chart panel: until captures can be opened, a built-in demo cooked through the same series API a
// capture uses, drawn by plotters on the canvas, with statistics per series.
import { cookSeries, seriesStats, formatValue, renderSeriesChart } from '../js/browser.js';
import { $, el } from '../dom.js';

// Four CPUs' raw idle time (100 ns units) over ten minutes at one-second samples, from a fixed seed:
// % Processor Time is PERF_100NSEC_TIMER_INV.
function demoCapture() {
  const n = 600, cpus = 4, t0 = Date.UTC(2026, 10, 22, 9, 0, 0);
  const timestamps = new Float64Array(n);
  const stamp = new BigUint64Array(n);
  const fileTimeOfEpoch = 116444736000000000n; // 1970-01-01 as a Windows FILETIME
  for (let i = 0; i < n; i++) {
    timestamps[i] = t0 + i * 1000;
    stamp[i] = fileTimeOfEpoch + BigInt(t0 + i * 1000) * 10000n;
  }
  let seed = 20261122;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const series = [];
  for (let c = 0; c < cpus; c++) {
    const idle = new BigUint64Array(n);
    let acc = 1_170_374_257_812n + BigInt(c) * 1_000_000n;
    for (let i = 0; i < n; i++) {
      const busy = Math.min(0.98, Math.max(0.01, 0.15 + 0.1 * Math.sin(i / 40 + c) + (i > 300 && i < 360 ? 0.5 : 0) + 0.08 * rand()));
      acc += BigInt(Math.round(10_000_000 * (1 - busy)));
      idle[i] = acc;
    }
    const values = cookSeries('PERF_100NSEC_TIMER_INV', { value: idle, second: stamp });
    series.push({ label: `\\\\DEMO\\Processor(${c})\\% Processor Time`, values });
  }
  return { name: 'built-in demo (open a capture: coming with the capture readers)', timestamps, series };
}

export function mountChart() {
  const demo = demoCapture();
  $('chart-source').textContent = 'Showing: ' + demo.name;
  const dark = matchMedia('(prefers-color-scheme: dark)');
  const draw = () => {
    if ($('panel-chart').hidden) return;
    const layout = renderSeriesChart($('chart'), demo.timestamps, demo.series, { unit: '%', dark: dark.matches });
    $('chart').dataset.pointsDrawn = String(layout.pointsDrawn);
  };
  const f = (v) => formatValue(v, 'PERF_100NSEC_TIMER_INV');
  $('chart-stats').tBodies[0].replaceChildren(...demo.series.map((s) => {
    const st = seriesStats(s.values);
    const tr = el('tr');
    tr.append(el('td', s.label), ...[st.min, st.mean, st.max, st.last, st.p95].map((v) => el('td', f(v), { class: 'num' })));
    return tr;
  }));
  new ResizeObserver(draw).observe($('chart'));
  dark.addEventListener('change', draw);
  return draw;
}
