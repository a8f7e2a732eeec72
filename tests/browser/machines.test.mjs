// Machines as a first-class dimension, on a synthetic capture of 26 machines (WEB01..WEB26, each with
// Processor(_Total)\% Processor Time and Memory\Available MBytes; WEBnn's CPU is nn + i % 5): the status
// counts the machines; the default selection (8 lines at most: the busiest by mean, WEB19..WEB26) says it
// shows the 8 busiest of 26 and offers them all;
// legend, crosshair and statistics name each series' machine; one counter across the machines can be
// drawn as a chart per machine on shared axes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

const MACHINES = Array.from({ length: 26 }, (_, k) => `WEB${String(k + 1).padStart(2, '0')}`);
const cpu = (m) => `\\\\${m}\\Processor(_Total)\\% Processor Time`;
const mem = (m) => `\\\\${m}\\Memory\\Available MBytes`;

/** The capture: 60 one-second samples; WEBnn's CPU is nn + (i % 5) %, its memory 1000 * nn MB. */
export function fleetCsv() {
  const columns = MACHINES.flatMap((m) => [cpu(m), mem(m)]);
  const rows = [['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"', ...columns.map((c) => `"${c}"`)].join(',')];
  for (let i = 0; i < 60; i++) {
    const values = MACHINES.flatMap((m, k) => [k + 1 + (i % 5), 1000 * (k + 1)]);
    rows.push([`"11/22/2026 09:00:${String(i).padStart(2, '0')}.000"`, ...values.map((v) => `"${v}"`)].join(','));
  }
  const file = join(mkdtempSync(join(tmpdir(), 'counterlens-fleet-')), 'fleet.csv');
  writeFileSync(file, rows.join('\r\n') + '\r\n');
  return file;
}

test('26 machines: the default says what it chose, names carry the machine, small multiples share axes', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.setInputFiles('#capture-file', fleetCsv());
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('fleet.csv:'));
  assert.match(await page.textContent('#chart-status'), /^fleet\.csv: pdh-csv, [^,]+, 60 samples, 52 series, 26 machines, /);
  // The default: _Total's processor time of the 8 busiest machines (by mean: WEB19..WEB26, in file order),
  // and a note that says so.
  const legend = () => page.$$eval('#chart-legend tbody tr[data-index] td:first-child', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(await legend(), MACHINES.slice(18).map((m) => `\\\\${m} Processor(_Total)\\% Processor Time`));
  assert.equal(await page.textContent('#selection-note'), 'Showing Processor(_Total)\\% Processor Time of the 8 busiest (by mean) of 26 machines (at most 8 lines at first).Show all 26');
  // The statistics' first column is the whole path, machine included.
  assert.deepEqual(await page.$$eval('#chart-stats tbody td:first-child', (t) => t.map((x) => x.textContent)), MACHINES.slice(18).map(cpu));
  // The crosshair's readout names the machine of each line.
  const l = await page.$eval('#chart', (c) => ({ ...Object.fromEntries(Object.entries(c.dataset).map(([k, v]) => [k, Number(v)])), box: c.getBoundingClientRect().toJSON() }));
  await page.mouse.move(l.box.x + l.plotLeft + l.plotWidth * 0.5, l.box.y + l.plotTop + l.plotHeight / 2);
  const readout = await page.$$eval('#chart-readout [data-index] span:not(.swatch)', (s) => s.map((x) => x.textContent));
  assert.deepEqual(readout, MACHINES.slice(18).map((m) => `\\\\${m} Processor(_Total)\\% Processor Time: `));
  await page.mouse.move(0, 0);
  // Show all: the same counter on all 26.
  await page.click('[data-part="show-all-machines"]');
  assert.equal((await legend()).length, 26);
  assert.equal(await page.textContent('#selection-note'), 'Showing all 26 machines.');
  // One counter across machines: a chart per machine, captioned, on one value range (0 to the highest max:
  // WEB26's CPU peaks at 26 + 4 = 30 %).
  assert.ok(await page.isVisible('#chart-view'));
  await page.selectOption('#chart-view', 'machines');
  assert.equal(await page.isVisible('#chart'), false);
  const multiples = await page.$$eval('#multiples figure', (f) => f.map((x) => ({ caption: x.querySelector('figcaption').textContent, y0: Number(x.querySelector('canvas').dataset.y0), y1: Number(x.querySelector('canvas').dataset.y1), points: Number(x.querySelector('canvas').dataset.pointsDrawn) })));
  assert.deepEqual(multiples.map((m) => m.caption), MACHINES.map((m) => `\\\\${m}`));
  assert.ok(multiples.every((m) => m.y0 === multiples[0].y0 && m.y1 === multiples[0].y1 && m.points > 0), JSON.stringify(multiples.slice(0, 2)));
  assert.ok(multiples[0].y0 <= 0 && multiples[0].y1 >= 30, JSON.stringify(multiples[0]));
  await page.screenshot({ path: artifacts + 'machines-multiples.png', fullPage: true });
  // Back to one chart; a selection of two counters offers no per-machine view.
  await page.selectOption('#chart-view', 'one');
  assert.ok(await page.isVisible('#chart'));
  await page.fill('#series-filter', '\\\\WEB01\\Memory\\Available MBytes');
  await page.keyboard.press('Enter');
  assert.equal(await page.isVisible('#chart-view'), false);
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});
