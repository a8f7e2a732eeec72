// Mixed units in one chart: % Processor Time (0-100) and Available MBytes (thousands) each get an axis
// of their own, so both lines use most of the plot's height (read from the canvas's pixels); Perfmon's
// per-counter scale and a log scale are choices; values are shown in their unit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, launch, openPage, artifacts } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

/** A PDH-CSV of 120 samples: CPU 10..90 % and memory 7000..8000 MB, both saw-tooth. */
export function mixedCsv() {
  const rows = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\H\\Processor(_Total)\\% Processor Time","\\\\H\\Memory\\Available MBytes"'];
  for (let i = 0; i < 120; i++) {
    const t = new Date(Date.UTC(2026, 10, 22, 9, 0, i));
    const stamp = `11/22/2026 09:${String(t.getUTCMinutes()).padStart(2, '0')}:${String(t.getUTCSeconds()).padStart(2, '0')}.000`;
    rows.push(`"${stamp}","${10 + 80 * ((i % 20) / 19)}","${7000 + 1000 * ((i % 12) / 11)}"`);
  }
  const file = join(mkdtempSync(join(tmpdir(), 'counterlens-units-')), 'mixed.csv');
  writeFileSync(file, rows.join('\r\n') + '\r\n');
  return file;
}

/** Per palette colour, the topmost and bottommost device-pixel row of the plot's right 40 % that has it
 *  (clear of anything drawn in a corner), as a fraction of the plot's height. */
const extents = (page) => page.$eval('#chart', (c) => {
  const r = window.devicePixelRatio;
  const [left, top, w, h] = ['plotLeft', 'plotTop', 'plotWidth', 'plotHeight'].map((k) => Math.round(Number(c.dataset[k]) * r));
  const d = c.getContext('2d').getImageData(left, top, w, h).data;
  const colours = { blue: [0, 114, 178], orange: [213, 94, 0] };
  const out = {};
  for (const [name, [R, G, B]] of Object.entries(colours)) {
    let lo = Infinity, hi = -Infinity;
    for (let y = 0; y < h; y++) {
      for (let x = Math.round(w * 0.6); x < w; x++) {
        const i = (y * w + x) * 4;
        if (Math.abs(d[i] - R) < 40 && Math.abs(d[i + 1] - G) < 40 && Math.abs(d[i + 2] - B) < 40) { lo = Math.min(lo, y); hi = Math.max(hi, y); }
      }
    }
    out[name] = (hi - lo) / h;
  }
  return out;
});

test('percent and megabytes on their own axes: both lines span most of the plot', async () => {
  const { page, problems } = await openPage(browser, server.url);
  await page.setInputFiles('#capture-file', mixedCsv());
  await page.waitForFunction(() => document.querySelector('#chart-status').textContent.startsWith('mixed.csv:'));
  // The CPU series is selected first; add the memory one.
  await page.fill('#series-filter', 'memory');
  await page.check('#series-list input[data-index="1"]');
  await page.mouse.move(0, 0); // no series hovered: none highlighted, none faded
  await page.dispatchEvent('#series-list', 'pointerleave');
  await page.screenshot({ path: artifacts + 'mixed-units.png' });
  assert.equal(await page.getAttribute('#chart', 'data-axes'), 'left:percent right:bytes');
  const e = await extents(page);
  assert.ok(e.blue > 0.7 && e.orange > 0.7, JSON.stringify(e));
  // Values in their unit: the memory in GB (7000..8000 MiB are 6.84..7.81 GiB) in the stats table.
  const stats = await page.$$eval('#chart-stats tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  assert.deepEqual(stats[1].slice(1, 4), ['6.84 GB', formatMean(), '7.81 GB']);
  // Perfmon's scale: one axis; the memory (x0.01 -> 70..80) is a tenth of the height, CPU as before.
  await page.selectOption('#chart-scale', 'perfmon');
  assert.equal(await page.getAttribute('#chart', 'data-axes'), 'left:count');
  const p = await extents(page);
  assert.ok(p.orange < 0.15 && p.blue > 0.7, JSON.stringify(p));
  // Log: an axis per unit, logarithmic.
  await page.selectOption('#chart-scale', 'log');
  assert.equal(await page.getAttribute('#chart', 'data-axes'), 'left:percent:log right:bytes:log');
  assert.deepEqual(problems, { console: [], errors: [], foreign: [] });
  await page.close();
});

/** The memory's mean: the saw-tooth 7000 + 1000 k/11 (k = 0..11) ten times over, mean 7500 MiB =
 *  7500 / 1024 = 7.32 GiB. */
function formatMean() {
  return '7.32 GB';
}
