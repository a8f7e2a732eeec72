// The wasm module's size budget (docs/performance.md, "Package size"): every page and worker downloads
// and compiles it. scripts/build.sh prints the same two figures after each build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// The budget holds what is reached with a small margin, so growth fails here: a change that grows the
// module is measured (bytes before and after, with its parent built in the same run) and raises these two
// with the figures written in docs/performance.md, "Package size" (the history of every raise is there).
// Node's zlib at level 9 packs the module about 5 KB larger than gzip -9.
const MAX_BYTES = 1_922_000;
const MAX_GZIP = 826_000;

test('pkg/counterlens_bg.wasm stays within its size budget', () => {
  const wasm = readFileSync(new URL('../../pkg/counterlens_bg.wasm', import.meta.url));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(wasm.length <= MAX_BYTES, `${wasm.length} bytes > ${MAX_BYTES}`);
  assert.ok(gz <= MAX_GZIP, `${gz} bytes gzipped > ${MAX_GZIP}`);
});
