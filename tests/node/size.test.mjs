// The wasm module's size budget (docs/performance.md, "Package size"): every page and worker downloads
// and compiles it. scripts/build.sh prints the same two figures after each build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

// The goal is 600 KB (300 KB gzipped), not reached: measured 837,139 bytes (378,580 gzipped)
// with the legacy encodings decoded by the host's TextDecoder and the counter-name map deflated, then
// 1,277,597 (529,058) once the analysis module (and serde_path_to_error) merged, 1,182,413 (521,798) with
// the rule packs deflated, serde_path_to_error gone and serde's untagged enums replaced by visitors.
// The budget holds what is reached, with a small margin, so growth fails here; lower it as the module
// shrinks. Node's zlib at level 9 packs it about 5 KB larger than gzip -9.
// Raised since for two features, each measured with and without it: the .blg reader's keepRaw (raw
// samples kept for the series asked for, so the viewer can explain a .blg point) about 5 KB, and
// openCaptureParallel's pieces and join 23.8 KB (1,184,498 -> 1,208,308 bytes). With both and the PAL
// importer's forms from PAL's real files: 1,218,701 bytes, 542,504 by Node's zlib (538,019 by gzip -9).
// Raised again (2026-11-26) for threshold expressions that test the user's answers (comparisons, is /
// startsWith / at) and the PAL importer's switch and numeric If/Else: 17.8 KB (1,219,877 -> 1,237,683,
// 542,883 -> 550,605 by Node's zlib, the branch and its parent built in one run); with the .blg layout
// caching (2.3 KB less) and the `ne` operator: 1,235,861 bytes, 551,149 by Node's zlib.
const MAX_BYTES = 1_385_000;
const MAX_GZIP = 612_000;

test('pkg/counterlens_bg.wasm stays within its size budget', () => {
  const wasm = readFileSync(new URL('../../pkg/counterlens_bg.wasm', import.meta.url));
  const gz = gzipSync(wasm, { level: 9 }).length;
  assert.ok(wasm.length <= MAX_BYTES, `${wasm.length} bytes > ${MAX_BYTES}`);
  assert.ok(gz <= MAX_GZIP, `${gz} bytes gzipped > ${MAX_GZIP}`);
});
