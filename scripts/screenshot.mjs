// The README's screenshots, taken by Playwright in Debian's Chromium from the served viewer (the sample
// capture): docs/img/viewer.png at 1440x900 (processor time and memory on their own axes, the disk in a
// second pane, the legend), docs/img/viewer-dark.png the same in the dark theme, docs/img/viewer-phone.png
// at 390x844 (a phone) and docs/img/viewer-phone-drawer.png with its series drawer open; docs/img/verdict.png,
// the verdict of PAL's sample log (tests/vectors/captures/PAL_SampleLog.blg: a real log with trouble).
// Run: node scripts/screenshot.mjs   (after npm run build)
import { serve, launch, openPage, repo } from '../tests/browser/harness.mjs';

const server = await serve();
/** The sample's verdict is in (not "Analysing…"), so every view shows what a user sees once it is done. */
const verdictDone = (page) => page.waitForFunction(() => {
  const v = document.querySelector('#verdict');
  return v && !v.hidden && v.dataset.state && v.dataset.state !== 'running';
}, null, { timeout: 30000 });
const browser = await launch();

/** The sample with memory and disk reads added, the disk in a second pane. */
async function compose(page) {
  await page.fill('#series-filter', '\\Memory\\Available Bytes');
  await page.keyboard.press('Enter');
  await page.fill('#series-filter', '\\PhysicalDisk(*)\\Disk Reads/sec');
  await page.keyboard.press('Enter');
  await page.fill('#series-filter', '');
  const rows = await page.$$eval('#chart-legend tbody tr', (trs) => trs.map((tr) => tr.textContent));
  const disk = rows.findIndex((r) => r.includes('PhysicalDisk'));
  if (disk >= 0) await page.selectOption(`#chart-legend tbody tr:nth-child(${disk + 1}) select`, 'new');
  for (const [k, r] of rows.entries()) if (k > disk && r.includes('PhysicalDisk')) await page.selectOption(`#chart-legend tbody tr:nth-child(${k + 1}) select`, { value: '1' });
  await page.mouse.move(0, 0);
  await page.evaluate(() => document.activeElement?.blur());
}

const { page } = await openPage(browser, server.url);
await page.emulateMedia({ colorScheme: 'light' });
await page.setViewportSize({ width: 1440, height: 900 });
await compose(page);
await verdictDone(page);
await page.screenshot({ path: repo + 'docs/img/viewer.png' });
await page.selectOption('#theme', 'dark');
await page.mouse.move(0, 0);
await page.screenshot({ path: repo + 'docs/img/viewer-dark.png' });
await page.close();

const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, colorScheme: 'light' });
const p = await phone.newPage();
await p.goto(server.url);
await p.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
await p.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
await verdictDone(p);
await p.screenshot({ path: repo + 'docs/img/viewer-phone.png' });
await p.tap('#series-drawer');
await p.screenshot({ path: repo + 'docs/img/viewer-phone-drawer.png' });
await phone.close();

const { page: pal } = await openPage(browser, server.url);
await pal.emulateMedia({ colorScheme: 'light' });
await pal.setViewportSize({ width: 1440, height: 900 });
await pal.setInputFiles('[data-part="capture-file"]', repo + 'tests/vectors/captures/PAL_SampleLog.blg');
await pal.waitForFunction(() => document.querySelector('#verdict')?.dataset.state === 'critical', null, { timeout: 60000 });
await pal.mouse.move(0, 0);
await pal.locator('#verdict.verdict').screenshot({ path: repo + 'docs/img/verdict.png' });
await pal.close();

console.log('docs/img/viewer.png, viewer-dark.png, viewer-phone.png, viewer-phone-drawer.png, verdict.png written');
await browser.close();
server.close();
