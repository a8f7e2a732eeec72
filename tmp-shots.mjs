import { serve, launch, openPage } from './tests/browser/harness.mjs';
const server = await serve();
const browser = await launch();
const files = process.argv.slice(2);
for (const f of files) {
  for (const [w, h, theme] of [[1440, 900, 'light'], [390, 844, 'dark']]) {
    const { page } = await openPage(browser, server.url);
    await page.setViewportSize({ width: w, height: h });
    if (theme === 'dark') await page.emulateMedia({ colorScheme: 'dark' });
    await page.setInputFiles('#capture-file', f);
    await page.waitForFunction(() => { const v = document.querySelector('#verdict'); return v && !v.hidden && v.dataset.state && v.dataset.state !== 'running'; }, null, { timeout: 60000 });
    await page.waitForTimeout(500);
    const name = f.split('/').pop().replace(/\W/g, '_');
    await page.screenshot({ path: `/tmp/shots/${name}-${w}-${theme}.png` });
    await page.close();
  }
}
await browser.close(); server.close();
