#!/usr/bin/env bash
# The benchmarks (not tests: they print figures beside peers measured in the same run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --bench
bash scripts/build.sh
cargo bench -p counterlens --bench cook_series
node bench/cook-series.mjs
node bench/analysis.mjs
node bench/captures.mjs
node bench/parallel-open.mjs
node bench/blg.mjs
node bench/viewer.mjs
node bench/redraw-vs-uplot.mjs
bash bench/cli.sh
