// Shared by the browser tests: serve the viewer on a free port and drive Debian's Chromium with
// playwright-core (never a downloaded browser). Collects console errors, page errors and every
// request that leaves the page's origin.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = fileURLToPath(new URL('../..', import.meta.url));
export const artifacts = repo + 'test-results/';
mkdirSync(artifacts, { recursive: true });

export async function serve() {
  const child = spawn(process.execPath, ['scripts/serve.mjs'], { cwd: repo, env: { ...process.env, PORT: '0', HOST: '127.0.0.1' } });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/http:\/\/[\d.]+:\d+\//);
      if (m) resolve(m[0]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
  return { url, pid: child.pid, close: () => child.kill() };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic'],
  });
}

/** A page that records problems: console errors, uncaught exceptions, requests off the origin. `init`
 *  (with `arg`) runs in the page before its own scripts. */
export async function openPage(browser, url, { init, arg } = {}) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  if (init) await page.addInitScript(init, arg);
  const problems = { console: [], errors: [], foreign: [] };
  const origin = new URL(url).origin;
  page.on('console', (m) => { if (m.type() === 'error') problems.console.push(m.text()); });
  page.on('pageerror', (e) => problems.errors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) problems.foreign.push(u);
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 30000 });
  return { page: readAfterFrame(page), problems };
}

/** The page's reads (evaluate, $eval, textContent, ...) wait for its next animation frame first. The
 *  viewer repaints what a change affects once per frame (js/viewer/redraw.js), just before the browser
 *  paints: what a test reads after an action is then what the user sees after it. */
export function readAfterFrame(page) {
  const evaluate = page.evaluate.bind(page);
  const frame = () => evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve())));
  for (const name of ['evaluate', '$eval', '$$eval', '$', '$$', 'textContent', 'innerText', 'getAttribute', 'inputValue',
    'isVisible', 'isHidden', 'isChecked', 'isDisabled', 'isEnabled', 'screenshot']) {
    const read = page[name].bind(page);
    page[name] = async (...args) => { await frame(); return read(...args); };
  }
  return page;
}
