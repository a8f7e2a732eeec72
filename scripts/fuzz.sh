#!/usr/bin/env bash
# Runs every cargo-fuzz target (fuzz/fuzz_targets/) for the given number of seconds each, seeded with the
# golden files of tests/vectors/ (and the analysis targets with PAL's files, the built-in packs and their
# expressions: scripts/fuzz-seeds.mjs), and prints per target the executions, the coverage reached and whether
# anything crashed. Needs the nightly toolchain and cargo-fuzz (installed here when missing).
#   bash scripts/fuzz.sh [seconds per target, default 60] [target ...]
# Crashes are left in fuzz/artifacts/<target>/; each one found becomes a regression test (docs/robustness.md).
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH="${1:-60}"
shift || true
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(capture capture_csv capture_get_counter capture_raw_json capture_blg registration_binary registration_text counter_type pal_import rule_pack expression)

V=tests/vectors
seed() { # seed <target> <file>... : copies files into the target's corpus (prefixing a byte when asked)
  local t="$1"; shift
  mkdir -p "fuzz/corpus/$t"
  for f in "$@"; do cp "$f" "fuzz/corpus/$t/seed-$(basename "$f")"; done
}
prefixed() { # prefixed <target> <byte> <file>...: the targets whose first byte picks a form
  local t="$1" b="$2"; shift 2
  mkdir -p "fuzz/corpus/$t"
  for f in "$@"; do { printf "\\x$b"; cat "$f"; } > "fuzz/corpus/$t/seed-$b-$(basename "$f")"; done
}
seed capture $V/captures/*.csv $V/captures/*.tsv $V/captures/*.json
head -c 131072 $V/captures/BasicPerfCounters.blg > /tmp/counterlens-seed-basic.blg
head -c 262144 $V/captures/PAL_SampleLog.blg > /tmp/counterlens-seed-pal.blg
seed capture /tmp/counterlens-seed-basic.blg
seed capture_blg /tmp/counterlens-seed-basic.blg /tmp/counterlens-seed-pal.blg
prefixed capture_csv 00 $V/captures/*.csv
prefixed capture_csv 01 $V/captures/relog.tsv
seed capture_get_counter $V/captures/get-counter-*.json
seed capture_raw_json $V/captures/raw-*.json
# The binary registration seed: the hex fixture as bytes.
mkdir -p fuzz/corpus/registration_binary
tr -cd '0-9a-fA-F' < $V/registration/rich.hex | xxd -r -p > fuzz/corpus/registration_binary/seed-rich.bin
prefixed registration_text 00 $V/registration/rich.hex
prefixed registration_text 01 $V/registration/rich.json
prefixed registration_text 02 $V/registration/rich.man
mkdir -p fuzz/corpus/counter_type
for s in PERF_COUNTER_COUNTER 0x21510500 272696576 perf_counter_rawcount Timer100NsInverse PERF_PRECISION_TIMESTAMP; do
  printf '%s' "$s" > "fuzz/corpus/counter_type/seed-$s"
done

# The analysis targets: PAL files of tests/vectors/pal whole, and each ANALYSIS (with the file's QUESTIONs)
# as a small file of its own, so the fuzzer starts from every snippet form; the built-in packs; and every
# threshold and derived-series expression those packs and the imports hold. Generated here, not stored.
node scripts/fuzz-seeds.mjs fuzz/corpus

cd fuzz
cargo +nightly fuzz build -O -a >/dev/null 2>&1
printf '%-22s %8s %12s %16s %8s %8s %s\n' target seconds executions "last new cov at" cov features crashes
for t in "${TARGETS[@]}"; do
  log="artifacts/$t.log"
  mkdir -p artifacts
  status=0
  cargo +nightly fuzz run "$t" -O -a -- -max_total_time="$SECONDS_EACH" -max_len=524288 -timeout=10 -print_final_stats=1 >"$log" 2>&1 || status=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo '?')
  # The execution at which coverage last grew: far below the total means the target had stopped finding any.
  last_new=$(grep -E '^#[0-9]+\s+NEW' "$log" | tail -1 | grep -o '^#[0-9]*' | tr -d '#' || true)
  crashes=$(ls "artifacts/$t" 2>/dev/null | grep -c -E '^(crash|oom|timeout|leak)-' || true)
  printf '%-22s %8s %12s %16s %8s %8s %s\n' "$t" "$SECONDS_EACH" "$execs" "${last_new:-?}" "$cov" "$ft" "$crashes$([ $status -ne 0 ] && echo " (exit $status: see fuzz/$log)")"
done
