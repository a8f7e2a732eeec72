#!/usr/bin/env bash
# Installs what building (and, with --test, testing) counterlens needs, skipping what is already there.
# Safe to run again: each step checks before it installs. See docs/toolchain.md for why each step is so.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=false
want_py=false
want_wheel=false
[[ "${1:-}" == "--test" ]] && want_test=true && want_py=true && want_wheel=true
# --bench: only the Python venv of step 5 beyond the build set-up (bench/cli.sh needs DuckDB).
[[ "${1:-}" == "--bench" ]] && want_py=true
# --python: what the `python` layer of scripts/test.sh needs (steps 5 and 6), without Chromium.
[[ "${1:-}" == "--python" ]] && want_py=true && want_wheel=true

say() { printf '[setup] %s\n' "$*"; }
as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

# 1. The wasm32 target of the machine's one Rust toolchain.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. The wasm-bindgen CLI at exactly the version crate/Cargo.toml pins (crate and CLI must match).
#    Without --locked: a locked dependency of the CLI can be newer than the registry index seen here.
wb_version=$(sed -n 's/^wasm-bindgen = "=\([0-9.]*\)".*/\1/p' crate/Cargo.toml)
if [[ -z "$wb_version" ]]; then echo "[setup] cannot read the wasm-bindgen pin from crate/Cargo.toml" >&2; exit 1; fi
if [[ "$(wasm-bindgen --version 2>/dev/null || true)" != "wasm-bindgen $wb_version" ]]; then
  say "installing wasm-bindgen-cli $wb_version (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "=$wb_version"
fi

# 3. npm devDependencies (binaryen's wasm-opt, playwright-core, sirv), when missing or older than the lock.
if [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  say "installing npm devDependencies"
  npm ci --no-audit --no-fund
fi

# 4. For tests: Debian's Chromium and ChromeDriver (never a browser download: none can be fetched here).
if $want_test && { [[ ! -x /usr/bin/chromium ]] || [[ ! -x /usr/bin/chromedriver ]]; }; then
  say "installing Debian chromium and chromium-driver"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# 5. For tests and benchmarks: a Python venv at target/py with pyarrow and duckdb, the readers that are not
#    ours for the CLI's Parquet (cli/tests/cli.rs) and DuckDB's own CSV reader (bench/cli.sh).
if $want_py && ! target/py/bin/python -c 'import pyarrow, duckdb' 2>/dev/null; then
  say "installing pyarrow and duckdb into target/py"
  python3 -m venv target/py
  if ! target/py/bin/pip install -q pyarrow duckdb; then
    say "pip could not install pyarrow and duckdb (no network?): the CLI's Parquet read-back tests will be skipped"
  fi
fi
# 6. For the Python package (python/, the `python` test layer): maturin in target/py, which builds the
#    wheel; a wheelhouse (target/wheelhouse) of what its tests install into a fresh venv (numpy, pandas,
#    pyarrow, pytest, pyspark: pandas below 3, which pyspark asks for), so each test run installs
#    offline; and Java for Spark's local mode (Debian's default-jre-headless: OpenJDK 17).
if $want_wheel; then
  if ! target/py/bin/maturin --version 2>/dev/null | grep -q '^maturin 1\.'; then
    say "installing maturin into target/py"
    target/py/bin/pip install -q 'maturin>=1.16,<2'
  fi
  wheel_reqs=(numpy 'pandas<3' pyarrow pytest pyspark)
  if [[ "$(cat target/wheelhouse/.requirements 2>/dev/null)" != "${wheel_reqs[*]}" ]]; then
    say "filling target/wheelhouse with ${wheel_reqs[*]} (pyspark is ~400 MB, once)"
    mkdir -p target/wheelhouse
    target/py/bin/pip wheel -q -w target/wheelhouse "${wheel_reqs[@]}"
    echo "${wheel_reqs[*]}" > target/wheelhouse/.requirements
  fi
  if ! command -v java >/dev/null; then
    say "installing Debian default-jre-headless (Java for Spark's local mode)"
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq default-jre-headless >/dev/null
  fi
fi
say "ready"
