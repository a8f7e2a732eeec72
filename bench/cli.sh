#!/usr/bin/env bash
# The command line's benchmark: PDH-CSV to Parquet with `counterlens convert`, beside DuckDB's own
# read_csv to Parquet on the same file in the same run. Figures go to docs/performance.md by hand.
#   1. one ~100 MB PDH-CSV (500 counters, 1 % gaps), one reader thread: values as relog writes them
#      (bench/data.mjs: 20 significant digits, integers for counts and bytes), and the earlier
#      benchmark's 13-decimal values beside them (the figures measured before 2026-11-26 are on those);
#   2. four ~25 MB relog-shaped PDH-CSVs (four machines) in one call, --threads 1 and --threads 2;
#   3. DuckDB (from the venv target/py) on the file of 1, SET threads = 1 and 2.
# Times are the best of 3 wall-clock runs. Usage: bash bench/cli.sh   (needs scripts/setup.sh --bench)
# COUNTERLENS_BASE_BIN: another build (main's, say) measured on the file of 1 in the same run, as its peer.
set -euo pipefail
cd "$(dirname "$0")/.."
py=target/py/bin/python
if ! $py -c 'import duckdb' 2>/dev/null; then
  echo "bench/cli.sh: target/py has no duckdb; run bash scripts/setup.sh --bench" >&2
  exit 1
fi
# COUNTERLENS_BIN: an already built binary (the release build with fat LTO takes minutes on 2 cores).
if [[ -z ${COUNTERLENS_BIN:-} ]]; then cargo build --release --bin counterlens; fi
bin=${COUNTERLENS_BIN:-target/release/counterlens}
d=target/bench
mkdir -p "$d"
[[ -f $d/clean.csv ]] || $py bench/gen_pdh_csv.py "$d/clean.csv" --shape wide --rows 10700
[[ -f $d/relog.csv ]] || node bench/write-csv.mjs "$d/relog.csv" 11000
for m in 1 2 3 4; do
  [[ -f $d/relog-part$m.csv ]] || node bench/write-csv.mjs "$d/relog-part$m.csv" 2750 "SQL0$m"
done

# Best of 3 runs of a command: "wall_seconds cpu_seconds" (CPU = user + sys of all its threads, which
# the machine's other load does not inflate the way it does wall time).
best() {
  $py - "$@" <<'PY'
import resource, subprocess, sys, time
runs = []
for _ in range(3):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(sys.argv[1:], check=True)
    w = time.perf_counter() - t
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    runs.append((w, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
print(min(r[0] for r in runs), min(r[1] for r in runs))
PY
}
mbs() { $py -c "print(f'{$1 / 1e6 / $2:.0f}')"; }
size() { stat -c %s "$@" | awk '{ s += $1 } END { print s }'; }

big=$(size "$d/relog.csv")
clean=$(size "$d/clean.csv")
parts=$(size "$d"/relog-part?.csv)
echo "counterlens convert, PDH-CSV to Parquet (zstd), $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg)"
echo "  (wall: best of 3; CPU: user + sys of all threads, best of 3; MB/s of wall and of CPU time)"
read -r w c < <(best $bin convert -q --overwrite --threads 1 "$d/relog.csv" -o "$d/big.parquet")
rows=$($py -c "import duckdb; print(duckdb.sql(\"SELECT count(*) FROM '$d/big.parquet'\").fetchall()[0][0])")
printf '  1 file  %5.1f MB, 1 thread : wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s  (%s rows, Parquet %.1f MB)\n' \
  "$($py -c "print($big / 1e6)")" "$w" "$(mbs "$big" "$w")" "$c" "$(mbs "$big" "$c")" "$rows" "$($py -c "print($(size "$d/big.parquet") / 1e6)")"
read -r w c < <(best $bin convert -q --overwrite --threads 1 "$d/clean.csv" -o "$d/clean.parquet")
printf '  1 file  %5.1f MB, 13 decimals : wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s\n' \
  "$($py -c "print($clean / 1e6)")" "$w" "$(mbs "$clean" "$w")" "$c" "$(mbs "$clean" "$c")"
if [[ -n ${COUNTERLENS_BASE_BIN:-} ]]; then
  # A base build from before --overwrite writes over its output without asking; later ones need the flag.
  ow=$("$COUNTERLENS_BASE_BIN" convert --help 2>&1 | grep -q -- --overwrite && echo --overwrite || true)
  read -r w c < <(best "$COUNTERLENS_BASE_BIN" convert -q $ow --threads 1 "$d/relog.csv" -o "$d/big-base.parquet")
  printf '  1 file, 1 thread, base build %s: wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s\n' \
    "$COUNTERLENS_BASE_BIN" "$w" "$(mbs "$big" "$w")" "$c" "$(mbs "$big" "$c")"
fi
# convert streams (a take every 8 MiB, row groups as they fill); the same build reading the file whole
# first (COUNTERLENS_STREAM_BYTES=0) is its peer: the two alternate, 3 rounds, best of each.
$py - "$bin" "$d/relog.csv" "$big" <<'PY'
import os, resource, subprocess, sys, time
bin, src, size = sys.argv[1], sys.argv[2], int(sys.argv[3])
runs = {"streamed": [], "whole read": []}
for _ in range(3):
    for name, env in (("streamed", {}), ("whole read", {"COUNTERLENS_STREAM_BYTES": "0"})):
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        subprocess.run([bin, "convert", "-q", "--overwrite", "--threads", "1", src, "-o", src + ".ab.parquet"],
                       check=True, env={**os.environ, **env})
        w = time.perf_counter() - t
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        runs[name].append((w, r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime))
for name, r in runs.items():
    w, c = min(x[0] for x in r), min(x[1] for x in r)
    print(f"  1 file, 1 thread, {name:10}: wall {w:6.3f} s {size / 1e6 / w:4.0f} MB/s   CPU {c:6.3f} s {size / 1e6 / c:4.0f} MB/s")
os.remove(src + ".ab.parquet")
PY
for th in 1 2; do
  read -r w c < <(best $bin convert -q --overwrite --threads $th "$d"/relog-part?.csv -o "$d/parts.parquet")
  printf '  4 files %5.1f MB, %s thread, one output file       : wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s\n' \
    "$($py -c "print($parts / 1e6)")" "$th" "$w" "$(mbs "$parts" "$w")" "$c" "$(mbs "$parts" "$c")"
done
# One output file has one writer; a directory gets a file per input, each read and written on its own thread.
for th in 1 2; do
  read -r w c < <(best $bin convert -q --overwrite --threads $th "$d"/relog-part?.csv -o "$d/parts/")
  printf '  4 files %5.1f MB, %s thread, a file per input (dir): wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s\n' \
    "$($py -c "print($parts / 1e6)")" "$th" "$w" "$(mbs "$parts" "$w")" "$c" "$(mbs "$parts" "$c")"
done

echo "DuckDB $($py -c 'import duckdb; print(duckdb.__version__)') read_csv to Parquet (zstd), same 1 file"
for th in 1 2; do
  j=$($py bench/duckdb_csv.py "$d/relog.csv" "$d" --threads $th)
  for form in wide long; do
    read -r w c n < <($py -c "import json; j = json.loads('$j'); print(j['${form}_s'], j['${form}_cpu_s'], j['long_rows'])")
    printf '  threads=%s %-4s: wall %6.3f s %4s MB/s   CPU %6.3f s %4s MB/s%s\n' "$th" "$form" "$w" "$(mbs "$big" "$w")" "$c" "$(mbs "$big" "$c")" \
      "$([[ $form == long ]] && echo "  ($n rows)")"
  done
done
