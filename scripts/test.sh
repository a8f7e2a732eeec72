#!/usr/bin/env bash
# Every test layer, in order, after the same set-up as `npm start` plus Chromium. Each layer runs even
# when an earlier one failed; the last line sums them all: "N passed, N failed".
#   bash scripts/test.sh                  every layer (what `npm test` and CI run)
#   bash scripts/test.sh native browser   only the layers named: lint, native, wasm, package, browser
set -euo pipefail
cd "$(dirname "$0")/.."

all_layers=(lint native wasm package browser)
wanted=("$@")
((${#wanted[@]})) || wanted=("${all_layers[@]}")
for w in "${wanted[@]}"; do
  [[ " ${all_layers[*]} " == *" $w "* ]] || { echo "test.sh: unknown layer '$w' (one of: ${all_layers[*]})" >&2; exit 2; }
done
wants() { [[ " ${wanted[*]} " == *" $1 "* ]]; }

# Set-up and build only for what the chosen layers need: lint and native need neither Chromium nor pkg/.
if wants wasm || wants package || wants browser; then
  bash scripts/setup.sh --test
  bash scripts/build.sh
elif wants native; then
  bash scripts/setup.sh --bench  # the Python venv only: the CLI's tests read Parquet back with pyarrow
else
  bash scripts/setup.sh
fi

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
failed_layers=()

layer() {
  local name=$1; shift
  wants "$name" || return 0
  printf '\n=== %s: %s\n' "$name" "$*"
  if ! "$@" 2>&1 | tee "$logs/$name.log"; then failed_layers+=("$name"); fi
}

# Each check runs even when one before it failed (set -e does not apply inside an `if` condition).
lint() {
  local rc=0
  cargo fmt --all --check || rc=1
  cargo clippy --workspace --all-targets -- -D warnings || rc=1
  cargo clippy --target wasm32-unknown-unknown -p counterlens --lib --test wasm_node --test wasm_browser -- -D warnings || rc=1
  return $rc
}
# 0. Lint: rustfmt's style, and clippy with the workspace's lints (Cargo.toml) as errors, native and wasm32.
layer lint lint
# 1. Rust, native: unit tests, the shared vectors, properties, charts rendered to SVG.
layer native cargo test --workspace
# 2. The wasm binding layer under Node and in headless Chromium (chromedriver from Debian).
layer wasm env CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown -p counterlens --test wasm_node --test wasm_browser
# 3. The built npm package under Node, and its packed tarball installed outside the repository.
layer package node --test --test-reporter=tap tests/node/
# 4. The served viewer in Chromium, driven by Playwright.
layer browser node --test --test-reporter=tap tests/browser/

passed=0; failed=0
for f in "$logs"/native.log "$logs"/wasm.log; do
  [[ -f "$f" ]] || continue
  read -r p q < <(awk '/^test result: /{ for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i; if ($(i+1) ~ /^failed/) f += $i } }
                       END { print p + 0, f + 0 }' "$f")
  passed=$((passed + p)); failed=$((failed + q))
done
for f in "$logs"/package.log "$logs"/browser.log; do
  [[ -f "$f" ]] || continue
  p=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$f" | tail -1); q=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$f" | tail -1)
  passed=$((passed + ${p:-0})); failed=$((failed + ${q:-0}))
done
echo
if ((${#failed_layers[@]})); then
  echo "counterlens: FAILED layers: ${failed_layers[*]}"
  [[ $failed -eq 0 ]] && failed=${#failed_layers[@]}
else
  echo "counterlens: all layers passed (${wanted[*]})"
fi
echo "$passed passed, $failed failed"
((${#failed_layers[@]} == 0))
