// The viewer from a phone to 4K: at 390x844 the chart is at least 300x180 CSS px, nothing scrolls
// sideways and the series list is a drawer; at 800x600 the chart is at least 480x260; at 4K it fills the
// room. The sample capture is open in each.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serve, launch, artifacts, readAfterFrame } from './harness.mjs';

let server, browser;
before(async () => { server = await serve(); browser = await launch(); });
after(async () => { await browser?.close(); server?.close(); });

async function at(width, height) {
  const page = readAfterFrame(await browser.newPage({ viewport: { width, height } }));
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
  const m = await page.evaluate(() => {
    const c = document.querySelector('#chart');
    return { w: c.clientWidth, h: c.clientHeight, scrollW: document.documentElement.scrollWidth, viewW: document.documentElement.clientWidth,
      aside: getComputedStyle(document.querySelector('#panel-chart aside')).display, plotW: Number(c.dataset.plotWidth) };
  });
  return { page, m, errors };
}

test('phone, 390x844: chart at least 300x180, no sideways scrolling, the series list as a drawer', async () => {
  const { page, m, errors } = await at(390, 844);
  assert.ok(m.w >= 300 && m.h >= 180, JSON.stringify(m));
  assert.ok(m.scrollW <= m.viewW, `page ${m.scrollW} px wide in a ${m.viewW} px viewport`);
  assert.equal(m.aside, 'none');
  await page.screenshot({ path: artifacts + 'layout-phone.png', fullPage: true });
  // The drawer opens, a series can be picked in it, Escape closes it.
  await page.click('#series-drawer');
  assert.equal(await page.getAttribute('#series-drawer', 'aria-expanded'), 'true');
  assert.ok(await page.isVisible('#series-list'));
  const before = await page.$$eval('#chart-stats tbody tr', (r) => r.length);
  await page.fill('#series-filter', 'memory');
  await page.screenshot({ path: artifacts + 'layout-phone-drawer.png' });
  await page.locator('#series-list input[type="checkbox"]').first().check();
  assert.equal(await page.$$eval('#chart-stats tbody tr', (r) => r.length), before + 1);
  await page.screenshot({ path: artifacts + 'layout-phone-drawer.png' });
  await page.keyboard.press('Escape');
  assert.equal(await page.isVisible('#series-list'), false);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth));
  assert.deepEqual(errors, []);
  await page.close();
});

test('small laptop window, 800x600: chart at least 480x260, no sideways scrolling', async () => {
  const { page, m, errors } = await at(800, 600);
  assert.ok(m.w >= 480 && m.h >= 260, JSON.stringify(m));
  assert.ok(m.scrollW <= m.viewW, JSON.stringify(m));
  await page.screenshot({ path: artifacts + 'layout-800x600.png' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('4K, 3840x2160: the series list beside a chart that fills the width', async () => {
  const { page, m, errors } = await at(3840, 2160);
  assert.notEqual(m.aside, 'none');
  assert.ok(m.w >= 3000 && m.h >= 1000, JSON.stringify(m));
  assert.ok(m.scrollW <= m.viewW, JSON.stringify(m));
  assert.deepEqual(errors, []);
  await page.close();
});

test('phone: the drawer closes by its Close button, a tap outside it and Back; legend names do not wrap a character a line', async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  await page.goto(server.url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  await page.waitForFunction(() => Number(document.querySelector('#chart').dataset.pointsDrawn) > 0);
  const open = () => page.isVisible('#series-list');
  // The Close control; a series picked in the drawer stays in the URL after it closes (the drawer's
  // history entry is gone back over, and the view written again).
  await page.tap('#series-drawer');
  assert.ok(await open());
  await page.fill('#series-filter', 'available bytes');
  await page.tap('#series-list label[data-index]');
  await page.waitForFunction(() => decodeURIComponent(location.hash).includes('Available Bytes'));
  await page.tap('#series-drawer-close');
  assert.equal(await open(), false);
  await page.waitForTimeout(300); // the history's popstate
  assert.ok(decodeURIComponent(new URL(page.url()).hash).includes('Available Bytes'), page.url());
  assert.equal(await page.getAttribute('#series-drawer', 'aria-expanded'), 'false');
  // A tap outside the drawer (on the scrim over the chart).
  await page.tap('#series-drawer');
  assert.ok(await open());
  await page.touchscreen.tap(370, 400);
  assert.equal(await open(), false);
  // Back: the drawer closes and the page stays.
  const url = page.url();
  await page.tap('#series-drawer');
  assert.ok(await open());
  await page.goBack();
  await page.waitForFunction(() => !document.querySelector('#chart-layout').classList.contains('drawer-open'));
  assert.equal(await open(), false);
  assert.equal(page.url().split('#')[0], url.split('#')[0]);
  assert.ok(await page.isVisible('#chart'));
  // The legend's names: each at least a word wide (no one-character lines).
  const narrowest = await page.$$eval('#chart-legend tbody button', (bs) => Math.min(...bs.map((b) => b.getBoundingClientRect().width)));
  assert.ok(narrowest >= 120, `a legend name ${narrowest} px wide`);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth));
  await page.screenshot({ path: artifacts + 'layout-phone-closed.png', fullPage: true });
  await context.close();
});
