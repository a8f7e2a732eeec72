// A localized log (Spanish): the default chart is the processor's (found by its English names, though
// memory comes first in the file), every name shown has its English one beside it (tree, legend,
// crosshair, statistics), and a counter's unit comes from its English name: "Promedio de segundos de
// disco/transferencia" is Avg. Disk sec/Transfer, in seconds, so 0.00183 reads as 1.83 ms.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const MEM = '\\\\SRV\\Memoria\\Bytes disponibles';
const CPU = '\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador';
const CPU0 = '\\\\SRV\\Procesador(0)\\% de tiempo de procesador';
const DISK = '\\\\SRV\\Disco físico(_Total)\\Promedio de segundos de disco/transferencia';

test('a Spanish log: processor by default, English names beside, units from the English counter', async () => {
  const { page, problems } = await openPage(browser, server.url);
  const head = ['(PDH-CSV 4.0) (Hora estándar romance)(-60)', MEM, CPU, CPU0, DISK].map((c) => `"${c}"`).join(',');
  const rows = [0, 1, 2].map((i) => [`11/22/2026 09:00:0${i}.000`, 1000 + i, 12.5 + i, 10 + i, 0.00183].map((c) => `"${c}"`).join(','));
  await page.setInputFiles('#capture-file', { name: 'es.csv', mimeType: 'text/csv', buffer: Buffer.from([head, ...rows].join('\r\n') + '\r\n') });
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('es.csv:'));
  const legend = () => page.$$eval('#chart-legend tbody tr[data-index] td:first-child', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(await legend(), [
    'Procesador(_Total)\\% de tiempo de procesador — Processor(_Total)\\% Processor Time',
    'Procesador(0)\\% de tiempo de procesador — Processor(0)\\% Processor Time',
  ]);
  // The statistics: the path as written, the English path beside it.
  assert.deepEqual(await page.$$eval('#chart-stats tbody td:first-child', (t) => t.map((x) => x.textContent)), [
    `${CPU} — \\\\SRV\\Processor(_Total)\\% Processor Time`, `${CPU0} — \\\\SRV\\Processor(0)\\% Processor Time`]);
  // The crosshair too.
  const l = await page.$eval('#chart', (c) => ({ ...Object.fromEntries(Object.entries(c.dataset).map(([k, v]) => [k, Number(v)])), box: c.getBoundingClientRect().toJSON() }));
  await page.mouse.move(l.box.x + l.plotLeft + 2, l.box.y + l.plotTop + l.plotHeight / 2);
  assert.equal(await page.textContent('#chart-readout [data-index] span:not(.swatch)'), 'Procesador(_Total)\\% de tiempo de procesador — Processor(_Total)\\% Processor Time: ');
  await page.mouse.move(0, 0);
  // The disk's time per transfer, in seconds by its English counter: 0.00183 s = 1.83 ms.
  await page.fill('#series-filter', 'Avg. Disk sec/Transfer');
  await page.keyboard.press('Enter');
  const disk = await page.$$eval('#chart-legend tbody tr[data-index]', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)).find((r) => r[0].startsWith('Disco')));
  assert.equal(disk[0], 'Disco físico(_Total)\\Promedio de segundos de disco/transferencia — PhysicalDisk(_Total)\\Avg. Disk sec/Transfer');
  assert.equal(disk[1], '1.83 ms');
  await page.screenshot({ path: artifacts + 'localized.png' });
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
