#!/usr/bin/env bash
# Builds the npm package files: release wasm -> wasm-bindgen (--target web) -> wasm-opt -O3 into pkg/.
# When the compiled wasm has not changed since the last run, the bindgen and wasm-opt steps are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

# The viewer's sample capture: generated, deterministic (the same bytes every time).
if [[ ! -f web/sample-capture.json || scripts/make-sample.mjs -nt web/sample-capture.json ]]; then
  node scripts/make-sample.mjs > web/sample-capture.json
fi

# --no-default-features: no encoding_rs/chardetng; the host's TextDecoder decodes legacy code pages.
cargo build --release --target wasm32-unknown-unknown -p counterlens --no-default-features
raw=target/wasm32-unknown-unknown/release/counterlens.wasm
stamp=pkg/.built-from
if [[ -f "$stamp" && -f pkg/counterlens_bg.wasm && ! "$raw" -nt "$stamp" ]]; then
  echo "[build] pkg/ is up to date"
  exit 0
fi
rm -rf pkg
wasm-bindgen --target web --out-dir pkg --out-name counterlens "$raw"
# binaryen from npm, not Debian's (version 108 breaks wasm-bindgen's externref table). The features are
# the ones Rust enables by default for wasm32-unknown-unknown; wasm-opt must be told they are allowed.
node_modules/.bin/wasm-opt -O3 \
  --enable-bulk-memory --enable-mutable-globals --enable-sign-ext --enable-nontrapping-float-to-int \
  --enable-reference-types --enable-multivalue --enable-simd \
  pkg/counterlens_bg.wasm -o pkg/counterlens_bg.wasm
touch "$stamp"
size=$(wc -c < pkg/counterlens_bg.wasm)
gz=$(gzip -9 -c pkg/counterlens_bg.wasm | wc -c)
echo "[build] pkg/counterlens_bg.wasm: $size bytes, $gz gzipped"
