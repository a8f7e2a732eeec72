// The served Content-Security-Policy header is the page's <meta> policy, character for character:
// scripts/serve.mjs reads it from web/index.html, so the two cannot drift apart again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serve } from '../browser/harness.mjs'; // the same served page the browser tests drive

test('the served CSP header equals the page\'s <meta> policy', async () => {
  const server = await serve();
  try {
    const res = await fetch(server.url);
    assert.equal(res.status, 200);
    const html = await res.text();
    const meta = html.match(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i);
    assert.ok(meta, 'the page has a CSP <meta>');
    const header = res.headers.get('content-security-policy');
    assert.equal(header, meta[1]);
    // The policy is strict: same-origin scripts plus the wasm compile, nothing inline, no plugins.
    assert.match(header, /script-src 'self' 'wasm-unsafe-eval'(;|$)/);
    assert.match(header, /object-src 'none'/);
    assert.doesNotMatch(header, /unsafe-inline/);
    assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN');
    // Every file served carries the same header, the package's modules included.
    const js = await fetch(server.url + 'js/browser.js');
    assert.equal(js.headers.get('content-security-policy'), header);
  } finally {
    server.close();
  }
});
