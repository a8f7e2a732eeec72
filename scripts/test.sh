#!/usr/bin/env bash
# Every test layer, in order, after the same set-up as `npm start` plus Chromium. Each layer runs even
# when an earlier one failed; the last line sums them all: "N passed, N failed".
#   bash scripts/test.sh                  every layer (what `npm test` and CI run)
#   bash scripts/test.sh native browser   only the layers named: lint, native, wasm, package, browser, python
set -euo pipefail
cd "$(dirname "$0")/.."

all_layers=(lint native wasm package browser python)
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
elif wants python; then
  bash scripts/setup.sh --python # the Python venv, maturin, the wheelhouse and Java (no Chromium)
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

# 5. The Python package: its wheel built by maturin, installed with its test dependencies into a fresh
#    venv (offline, from target/wheelhouse), and pytest run from outside the source folder so the
#    installed package is what is tested: golden captures, analyze against the CLI's JSON (the CLI built
#    by `cargo build --profile test`, the artifacts the native layer's `cargo test` uses), errors, and
#    the Spark job of docs/fleet.md in local mode against the CLI.
python_layer() {
  local target=${CARGO_TARGET_DIR:-$PWD/target}
  rm -f target/wheels/counterlens-*.whl
  (cd python && ../target/py/bin/maturin build -o ../target/wheels) || return 1
  local wheel
  wheel=$(ls target/wheels/counterlens-*.whl) || return 1
  echo "wheel: $wheel ($(stat -c %s "$wheel") bytes)"
  cargo build --profile test -p counterlens-cli || return 1
  python3 -m venv --clear target/py-wheel || return 1
  target/py-wheel/bin/pip install -q --no-index --find-links target/wheelhouse "$wheel[test,spark]" || return 1
  (cd target && COUNTERLENS_BIN="$target/debug/counterlens" COUNTERLENS_REQUIRE_CLI=1 COUNTERLENS_REQUIRE_SPARK=1 \
     PYSPARK_PYTHON="$PWD/py-wheel/bin/python" PYSPARK_DRIVER_PYTHON="$PWD/py-wheel/bin/python" \
     py-wheel/bin/python -m pytest -p no:cacheprovider -rs --rootdir ../python ../python/tests)
}
layer python python_layer

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
if [[ -f "$logs/python.log" ]]; then
  # pytest's summary line: "== 40 passed, 1 skipped in 50.2s ==" (failed and errors counted as failed).
  read -r p q < <(awk '/^=+ .* in [0-9.]+s/ { for (i = 1; i <= NF; i++) { if ($(i+1) ~ /^passed/) p += $i;
                       if ($(i+1) ~ /^(failed|errors?)/) f += $i } } END { print p + 0, f + 0 }' "$logs/python.log")
  passed=$((passed + p)); failed=$((failed + q))
fi
echo
if ((${#failed_layers[@]})); then
  echo "counterlens: FAILED layers: ${failed_layers[*]}"
  [[ $failed -eq 0 ]] && failed=${#failed_layers[@]}
else
  echo "counterlens: all layers passed (${wanted[*]})"
fi
echo "$passed passed, $failed failed"
((${#failed_layers[@]} == 0))
