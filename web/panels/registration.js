// "Check a registration": paste or drop a manifest, JSON or hex (or a binary block file), see every
// diagnostic (sortable, each linked to its rule) and the counter sets with references resolved.
import { validateRegistration } from '../js/browser.js';
import { $, el, hex32 } from '../dom.js';

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2 };
const INSTANCE_TYPES = { 0: 'single', 2: 'multiple', 4: 'single aggregate', 6: 'multiple aggregate', 12: 'single aggregate history', 22: 'instance aggregate' };

// A small manifest with two faults, to show what a report looks like.
const EXAMPLE = `<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation>
<counters xmlns="http://schemas.microsoft.com/win/2005/12/counters" schemaVersion="1.1">
 <provider providerName="Example" providerGuid="{11111111-2222-3333-4444-555555555555}" symbol="Example" applicationIdentity="example.exe">
  <counterSet guid="{ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}" uri="Example.Requests" name="Example Requests"
              description="Requests served" symbol="Requests" instances="multiple">
   <counter id="1" uri="Example.Requests.Rate" name="Requests/sec" description="Requests per second"
            type="perf_counter_counter" detailLevel="standard" struct="Stats" field="Requests"/>
   <counter id="2" uri="Example.Requests.Latency" name="Avg. Latency" description="Seconds per request"
            type="perf_average_timer" detailLevel="standard" baseID="3" struct="Stats" field="LatencyTicks"/>
   <counter id="3" uri="Example.Requests.LatencyBase" name="Latency base" description="Requests timed"
            type="perf_raw_base" detailLevel="advanced" struct="Stats" field="Timed"/>
   <counter id="2" uri="Example.Requests.Queue" name="Queue Length" description="Waiting requests"
            type="perf_counter_rawcount" detailLevel="standard" struct="Stats" field="Queue"/>
  </counterSet>
 </provider>
</counters></instrumentation></instrumentationManifest>`;

export function mountRegistration() {
  const input = $('reg-input');
  const format = $('reg-format');
  let lastReport = null;
  let sortBySeverity = 1;
  let bytes = null; // a dropped or chosen file's bytes, until the text is edited

  function check() {
    const source = bytes ?? input.value;
    if (!bytes && input.value.trim() === '') {
      $('reg-summary').textContent = 'Paste a manifest, JSON or hex, or drop a file.';
      $('reg-diagnostics').tBodies[0].replaceChildren();
      $('reg-sets').replaceChildren();
      return;
    }
    const options = format.value === 'auto' ? undefined : { format: format.value };
    lastReport = validateRegistration(source, options);
    render();
  }

  function render() {
    const r = lastReport;
    const sets = r.counterSets.length;
    $('reg-summary').textContent =
      `Read as ${r.format}: ${sets} counter set${sets === 1 ? '' : 's'}, ${r.errors} error${r.errors === 1 ? '' : 's'}, ` +
      `${r.warnings} warning${r.warnings === 1 ? '' : 's'}, ${r.diagnostics.length - r.errors - r.warnings} note(s).`;
    const diags = [...r.diagnostics].sort((a, b) =>
      sortBySeverity * (SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]) || a.offset - b.offset);
    $('reg-diagnostics').tBodies[0].replaceChildren(...diags.map((d) => {
      const tr = el('tr', null, { class: `sev-${d.severity}` });
      const code = el('td');
      // The rule in the docs, found by its code (a text fragment: the browser scrolls to it).
      code.append(el('a', d.code, { href: `docs/registration-rules.md#:~:text=${encodeURIComponent('`' + d.code + '`')}`, target: '_blank', rel: 'noopener' }));
      const where = d.line ? `line ${d.line}, col ${d.column}` : `byte ${d.offset}`;
      tr.append(el('td', d.severity), code, el('td', d.counterSet ?? ''), el('td', d.counterId ?? ''), el('td', d.field ?? ''),
        el('td', where), el('td', d.message), el('td', d.source));
      return tr;
    }));
    $('reg-sets').replaceChildren(...r.counterSets.map((s) => {
      const box = el('section', null, { class: 'reg-set' });
      box.append(el('h3', `${s.name ?? '(no name)'}  {${s.guid}}`),
        el('p', `${INSTANCE_TYPES[s.instanceType] ?? 'instance type ' + s.instanceType}, ${s.counters} counter${s.counters === 1 ? '' : 's'}`, { class: 'muted' }));
      const table = el('table', null, { class: 'grid' });
      const head = el('tr');
      for (const h of ['Id', 'Name', 'Type', 'Base', 'Perf time', 'Perf freq', 'Multi']) head.append(el('th', h));
      table.append(el('thead'), el('tbody'));
      table.tHead.append(head);
      table.tBodies[0].append(...s.counterList.map((c) => {
        const tr = el('tr');
        tr.append(el('td', c.counterId, { class: 'num' }), el('td', c.name ?? ''), el('td', c.typeName ?? hex32(c.type)),
          el('td', c.base ?? ''), el('td', c.perfTime ?? ''), el('td', c.perfFreq ?? ''), el('td', c.multi ?? ''));
        return tr;
      }));
      box.append(table);
      return box;
    }));
  }

  async function load(file) {
    const data = new Uint8Array(await file.arrayBuffer());
    // Show text files in the box (so they can be edited); keep binary ones as bytes.
    const text = new TextDecoder('utf-8', { fatal: false }).decode(data.subarray(0, 4096));
    const binary = /[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text);
    bytes = binary ? data : null;
    input.value = binary ? `(${file.name}: ${data.length} bytes of binary registration blocks)` : new TextDecoder().decode(data);
    check();
  }

  let timer;
  input.addEventListener('input', () => { bytes = null; clearTimeout(timer); timer = setTimeout(check, 200); });
  format.addEventListener('change', check);
  $('reg-file').addEventListener('change', (e) => e.target.files[0] && load(e.target.files[0]));
  input.addEventListener('dragover', (e) => e.preventDefault());
  input.addEventListener('drop', (e) => {
    e.preventDefault();
    if (e.dataTransfer.files[0]) load(e.dataTransfer.files[0]);
  });
  $('reg-example').addEventListener('click', () => { bytes = null; input.value = EXAMPLE; check(); });
  $('reg-sort').addEventListener('click', () => {
    sortBySeverity = -sortBySeverity;
    $('reg-sort').parentElement.setAttribute('aria-sort', sortBySeverity > 0 ? 'ascending' : 'descending');
    if (lastReport) render();
  });
  check();
}
