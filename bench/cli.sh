#!/usr/bin/env bash
# The command line's benchmark: PDH-CSV to Parquet with `counterlens convert`, beside DuckDB's own
# read_csv to Parquet on the same file in the same run. Figures go to docs/performance.md by hand.
#   1. one ~100 MB PDH-CSV (500 counters, 13-decimal values, 1 % gaps), one reader thread;
#   2. four ~25 MB PDH-CSVs (four machines) in one call, --threads 1 and --threads 2;
#   3. DuckDB (from the venv target/py) on the file of 1, SET threads = 1 and 2.
# Times are the best of 3 wall-clock runs. Usage: bash bench/cli.sh   (needs scripts/setup.sh --bench)
set -euo pipefail
cd "$(dirname "$0")/.."
py=target/py/bin/python
if ! $py -c 'import duckdb' 2>/dev/null; then
  echo "bench/cli.sh: target/py has no duckdb; run bash scripts/setup.sh --bench" >&2
  exit 1
fi
cargo build --release --bin counterlens
bin=target/release/counterlens
d=target/bench
mkdir -p "$d"
[[ -f $d/big.csv ]] || $py bench/gen_pdh_csv.py "$d/big.csv" --shape wide --rows 10700
for m in 1 2 3 4; do
  [[ -f $d/part$m.csv ]] || $py bench/gen_pdh_csv.py "$d/part$m.csv" --shape wide --rows 2675 --machine "SQL0$m" --seed "$m"
done

# Best of 3 wall-clock seconds of a command.
best() {
  local b=999999 t
  for _ in 1 2 3; do
    t=$($py -c 'import subprocess, sys, time
t = time.perf_counter(); subprocess.run(sys.argv[1:], check=True); print(time.perf_counter() - t)' "$@")
    b=$($py -c "print(min($b, $t))")
  done
  echo "$b"
}
mbs() { $py -c "print(f'{$1 / 1e6 / $2:.0f}')"; }
size() { stat -c %s "$@" | awk '{ s += $1 } END { print s }'; }

big=$(size "$d/big.csv")
parts=$(size "$d"/part?.csv)
echo "counterlens convert, PDH-CSV to Parquet (zstd), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
t=$(best $bin convert -q --threads 1 "$d/big.csv" -o "$d/big.parquet")
rows=$($py -c "import duckdb; print(duckdb.sql(\"SELECT count(*) FROM '$d/big.parquet'\").fetchall()[0][0])")
printf '  1 file  %5.1f MB, 1 thread : %6.3f s  %4s MB/s  (%s rows, Parquet %.1f MB)\n' \
  "$($py -c "print($big / 1e6)")" "$t" "$(mbs "$big" "$t")" "$rows" "$($py -c "print($(size "$d/big.parquet") / 1e6)")"
t1=$(best $bin convert -q --threads 1 "$d"/part?.csv -o "$d/parts.parquet")
t2=$(best $bin convert -q --threads 2 "$d"/part?.csv -o "$d/parts.parquet")
printf '  4 files %5.1f MB, 1 thread : %6.3f s  %4s MB/s\n' "$($py -c "print($parts / 1e6)")" "$t1" "$(mbs "$parts" "$t1")"
printf '  4 files %5.1f MB, 2 threads: %6.3f s  %4s MB/s  (%.2fx)\n' "$($py -c "print($parts / 1e6)")" "$t2" "$(mbs "$parts" "$t2")" "$($py -c "print($t1 / $t2)")"

echo "DuckDB $($py -c 'import duckdb; print(duckdb.__version__)') read_csv to Parquet (zstd), same 1 file"
for th in 1 2; do
  j=$($py bench/duckdb_csv.py "$d/big.csv" "$d" --threads $th)
  w=$($py -c "import json; print(json.loads('$j')['wide_s'])")
  l=$($py -c "import json; print(json.loads('$j')['long_s'])")
  n=$($py -c "import json; print(json.loads('$j')['long_rows'])")
  printf '  threads=%s  wide (as read): %6.3f s  %4s MB/s   long (UNPIVOT, %s rows): %6.3f s  %4s MB/s\n' \
    "$th" "$w" "$(mbs "$big" "$w")" "$n" "$l" "$(mbs "$big" "$l")"
done
