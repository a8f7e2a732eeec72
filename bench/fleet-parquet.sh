#!/usr/bin/env bash
# Several logs into one Parquet file (issue 40, point 6): four ~100 MB relog-shaped PDH-CSVs (bench/data.mjs:
# 2,000 series of ten kinds, values as relog prints them with up to 20 significant digits, 1 % gaps; four
# machines) converted into ONE file in one call, against the four single calls one after another and the
# four into a directory, in the same run. Best of 3 wall-clock runs; CPU = user + sys of all threads; peak
# memory = the largest resident set of the run.
#   COUNTERLENS_BIN=/path/to/counterlens bash bench/fleet-parquet.sh   (default: builds target/release)
#   COUNTERLENS_BASE_BIN: another build (main's, before the parallel encoding) measured on the one file
#   in the same run, as its peer.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z ${COUNTERLENS_BIN:-} ]]; then cargo build --release --bin counterlens; fi
bin=${COUNTERLENS_BIN:-${CARGO_TARGET_DIR:-target}/release/counterlens}
d=${BENCH_DIR:-target/bench/fleet-parquet}
mkdir -p "$d"
for m in 1 2 3 4; do
  [[ -f $d/log$m.csv ]] || node bench/write-csv.mjs "$d/log$m.csv" 2750 "SQL0$m" 2000
done
logs=("$d"/log?.csv)
python3 - "$bin" "${COUNTERLENS_BASE_BIN:-}" "$d" "${logs[@]}" <<'PY'
import os, resource, subprocess, sys, time
bin, base, d, logs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
size = sum(os.path.getsize(p) for p in logs)

def once(cmds):
    """Runs the commands one after another in a fresh child each; wall, CPU, peak RSS (MB) of the set."""
    w0 = time.perf_counter()
    cpu, peak = 0.0, 0
    for c in cmds:
        pid = os.fork()
        if pid == 0:
            os.execvp(c[0], c)
        _, status, ru = os.wait4(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0, c
        cpu += ru.ru_utime + ru.ru_stime
        peak = max(peak, ru.ru_maxrss // 1024)
    return time.perf_counter() - w0, cpu, peak

def best(name, make):
    runs = [once(make()) for _ in range(3)]
    w, c, p = min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs)
    print(f"  {name:52}: wall {w:6.2f} s {size / 1e6 / w:5.0f} MB/s   CPU {c:6.2f} s   peak {p:5d} MB")
    return w

print(f"4 logs, {size / 1e6:.1f} MB in all, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
one = lambda th: [[bin, "convert", "-q", "--overwrite", "--threads", str(th), *logs, "-o", f"{d}/all.parquet"]]
singles = lambda: [[bin, "convert", "-q", "--overwrite", p, "-o", p + ".parquet"] for p in logs]
ws = best("four single calls, one after another", singles)
w2 = best("four into one Parquet file, 2 threads", lambda: one(2))
w1 = best("four into one Parquet file, 1 thread", lambda: one(1))
if base:
    wb = best("four into one Parquet file, 2 threads, base build",
              lambda: [[base, "convert", "-q", "--overwrite", *logs, "-o", f"{d}/base.parquet"]])
    print(f"  base build's one file / four single calls: {wb / ws:.2f}")
best("four into a directory (a file each), 2 threads",
     lambda: [[bin, "convert", "-q", "--overwrite", *logs, "-o", f"{d}/dir/"]])
print(f"  one file, 2 threads / four single calls: {w2 / ws:.2f}; 1 thread / 2 threads: {w1 / w2:.2f}x")
PY
