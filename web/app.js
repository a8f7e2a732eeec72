// The viewer page: UI glue over the counterlens package. Every text that comes from data is set
// with textContent, never innerHTML.
import init, {
  version, counterTypes, describeCounterType, cook, explain, formatValue, cookSeries, seriesStats, renderSeriesChart,
} from './js/browser.js';

await init();

const $ = (id) => document.getElementById(id);
const cell = (text, cls) => {
  const td = document.createElement('td');
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
};
const hex = (v) => '0x' + v.toString(16).toUpperCase().padStart(8, '0');

$('version').textContent = 'v' + version();

// ---- Tabs -------------------------------------------------------------------------------------------
const tabs = [...document.querySelectorAll('[role="tab"]')];
function select(tab) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute('aria-controls')).hidden = !on;
  }
  if (tab.id === 'tab-chart') drawChart();
}
for (const t of tabs) {
  t.addEventListener('click', () => select(t));
  t.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(t);
    const next = e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] : e.key === 'ArrowLeft' ? tabs[(i + tabs.length - 1) % tabs.length] : null;
    if (next) { next.focus(); select(next); }
  });
}

// ---- Counter type reference -----------------------------------------------------------------------
const types = counterTypes();
const tbody = $('types').tBodies[0];
for (const t of types) {
  const tr = document.createElement('tr');
  tr.append(cell(t.name), cell(hex(t.value)), cell(String(t.samples), 'num'), cell(t.display), cell(t.formula));
  tbody.append(tr);
}

// ---- Chart: a built-in demo until captures can be opened ------------------------------------------
// Four CPUs' raw idle time (100 ns units) over ten minutes at one-second samples, from a fixed seed,
// cooked through the same series API a capture uses: % Processor Time is PERF_100NSEC_TIMER_INV.
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

const demo = demoCapture();
$('chart-source').textContent = 'Showing: ' + demo.name;
const dark = matchMedia('(prefers-color-scheme: dark)');

function drawChart() {
  if ($('panel-chart').hidden) return;
  const layout = renderSeriesChart($('chart'), demo.timestamps, demo.series, { unit: '%', dark: dark.matches });
  $('chart').dataset.pointsDrawn = String(layout.pointsDrawn);
}

const stats = $('chart-stats').tBodies[0];
for (const s of demo.series) {
  const st = seriesStats(s.values);
  const f = (v) => formatValue(v, 'PERF_100NSEC_TIMER_INV');
  const tr = document.createElement('tr');
  tr.append(cell(s.label), cell(f(st.min), 'num'), cell(f(st.mean), 'num'), cell(f(st.max), 'num'), cell(f(st.last), 'num'), cell(f(st.p95), 'num'));
  stats.append(tr);
}
drawChart();
new ResizeObserver(() => drawChart()).observe($('chart'));
dark.addEventListener('change', drawChart);

// ---- Calculator -------------------------------------------------------------------------------------
const form = $('calc');
const typeSelect = $('calc-type');
for (const t of types.filter((t) => t.samples > 0 || t.name)) {
  const o = document.createElement('option');
  o.value = String(t.value);
  o.textContent = `${t.name} (${hex(t.value)})`;
  typeSelect.append(o);
}
// A worked example to start from: % Processor Time between two samples (cook.json's 9.378 % row).
const example = {
  'older.value': '1170374257812', 'older.second': '130058022178447225',
  'newer.value': '1170383320312', 'newer.second': '130058022188447585',
};
typeSelect.value = String(0x21510500);
for (const [k, v] of Object.entries(example)) form.elements[k].value = v;

function sampleFrom(prefix) {
  const s = {};
  for (const f of ['value', 'second', 'frequency', 'multi']) {
    const v = form.elements[`${prefix}.${f}`].value.trim();
    if (v !== '') s[f] = v;
  }
  return Object.keys(s).length ? s : null;
}

function calculate() {
  const type = Number(typeSelect.value);
  const info = describeCounterType(type);
  $('calc-formula').textContent = `${info.formula}   (samples: ${info.samples}, display: ${info.display})`;
  const scale = form.elements.scale.value.trim();
  const options = {
    cap100: form.elements.cap100.checked, x1000: form.elements.x1000.checked, wrap32: form.elements.wrap32.checked,
    scale: scale === '' ? null : Number(scale),
  };
  const status = $('calc-status');
  try {
    const newer = sampleFrom('newer') ?? { value: '' };
    const e = explain(type, sampleFrom('older'), newer, options);
    $('calc-value').textContent = e.result.value === null ? '(no value)' : `${formatValue(e.result.value, type)}   [${e.result.value}]`;
    status.textContent = e.result.status;
    status.className = e.result.status === 'ok' ? 'status-ok' : 'status-bad';
    $('calc-explain').textContent = e.substituted;
  } catch (err) {
    $('calc-value').textContent = '';
    status.textContent = `${err.name}: ${err.message}`;
    status.className = 'status-bad';
    $('calc-explain').textContent = '';
  }
}
form.addEventListener('input', calculate);
form.addEventListener('submit', (e) => e.preventDefault());
calculate();
document.body.dataset.ready = 'true';
