// The README's screenshot (docs/img/viewer.png), taken by Playwright in Debian's Chromium from the served
// viewer: the sample capture with processor time and memory on their own axes, a second pane, the legend.
// Run: node scripts/screenshot.mjs   (after npm run build)
import { serve, launch, openPage, repo } from '../tests/browser/harness.mjs';

const server = await serve();
const browser = await launch();
const { page } = await openPage(browser, server.url);
await page.setViewportSize({ width: 1280, height: 1100 });
await page.fill('#series-filter', '\\Memory\\Available Bytes');
await page.keyboard.press('Enter');
await page.fill('#series-filter', '\\PhysicalDisk(*)\\Disk Reads/sec');
await page.keyboard.press('Enter');
await page.fill('#series-filter', '');
// The disk in a second pane; processors and memory share the first, on their own axes.
const rows = await page.$$eval('#chart-legend tbody tr', (trs) => trs.map((tr) => tr.textContent));
const disk = rows.findIndex((r) => r.includes('PhysicalDisk'));
if (disk >= 0) await page.selectOption(`#chart-legend tbody tr:nth-child(${disk + 1}) select`, 'new');
for (const [k, r] of rows.entries()) if (k > disk && r.includes('PhysicalDisk')) await page.selectOption(`#chart-legend tbody tr:nth-child(${k + 1}) select`, { value: '1' });
await page.mouse.move(0, 0);
await page.screenshot({ path: repo + 'docs/img/viewer.png' });
console.log('docs/img/viewer.png written');
await browser.close();
server.close();
