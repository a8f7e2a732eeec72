// The calculator: pick a type, enter two raw samples, see the value, its status and the explanation.
import { counterTypes, describeCounterType, explain, formatValue } from '../js/browser.js';
import { $, el, hex32 } from '../dom.js';

export function mountCalculator() {
  const form = $('calc');
  const typeSelect = $('calc-type');
  for (const t of counterTypes()) typeSelect.append(el('option', `${t.name} (${hex32(t.value)})`, { value: String(t.value) }));
  // A worked example to start from: % Processor Time between two samples (cook.json's 9.378 % row).
  const example = {
    'older.value': '1170374257812', 'older.second': '130058022178447225',
    'newer.value': '1170383320312', 'newer.second': '130058022188447585',
  };
  typeSelect.value = String(0x21510500);
  for (const [k, v] of Object.entries(example)) form.elements[k].value = v;

  const sampleFrom = (prefix) => {
    const s = {};
    for (const f of ['value', 'second', 'frequency', 'multi']) {
      const v = form.elements[`${prefix}.${f}`].value.trim();
      if (v !== '') s[f] = v;
    }
    return Object.keys(s).length ? s : null;
  };

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
      const e = explain(type, sampleFrom('older'), sampleFrom('newer') ?? { value: '' }, options);
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
}
