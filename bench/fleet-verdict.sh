#!/usr/bin/env bash
# The fleet's verdict two ways on this machine, same logs, same run: `counterlens analyze --json DIR/`
# (the CLI, every core) against the Spark job of docs/fleet.md (section 5) in local mode (local[2])
# with the Python package. N logs (default 300) of bench/gen_pdh_csv.py's fleet shape: one server's day
# of one-minute samples each (1,440 samples x 8 counters, ~0.4 MB of PDH-CSV), loads spread over the
# servers. Prints wall time and peak memory of each (bench/tree_peak.py: the whole process tree, so
# Spark's JVM and Python workers count). Figures go to docs/fleet.md and docs/performance.md by hand.
#   Usage: bash bench/fleet-verdict.sh [N]
#   Needs: the wheel installed in target/py-wheel (bash scripts/test.sh python makes it) and a CLI at
#   COUNTERLENS_BIN (default: the `wheel` profile's build, the same compiler settings as the wheel's).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
py=$PWD/target/py-wheel/bin/python
target=${CARGO_TARGET_DIR:-$PWD/target}
if [[ -z ${COUNTERLENS_BIN:-} ]]; then cargo build --profile wheel -p counterlens-cli; fi
bin=${COUNTERLENS_BIN:-$target/wheel/counterlens}
d=target/bench-fleet
if [[ ! -f $d/.made-$n ]]; then
  rm -rf "$d"; mkdir -p "$d/perflogs"
  for i in $(seq 1 "$n"); do
    m=$(printf 'SRV%03d' "$i")
    mkdir -p "$d/perflogs/$m"
    echo "$d/perflogs/$m/fleet_11160000.csv --shape fleet --machine $m --rows 1440 --interval 60 --load 0.$(( 20 + (i * 37) % 78 )) --seed $i"
  done | xargs -P 2 -L 1 "$py" bench/gen_pdh_csv.py
  touch "$d/.made-$n"
fi
echo "logs: $(find "$d/perflogs" -type f | wc -l), $(du -sh "$d/perflogs" | cut -f1)"
# The job exactly as docs/fleet.md shows it.
awk '/^```python counterlens-spark$/ { on = 1; next } on && /^```$/ { exit } on' docs/fleet.md > "$d/job.py"
rm -rf "$d/cli" "$d/verdict"
echo "== CLI: counterlens analyze -q perflogs/*/* --json cli/"
(cd "$d" && "$py" ../../bench/tree_peak.py "$bin" analyze -q perflogs/*/* --json cli/ > /dev/null)
echo "== Spark local[2]: docs/fleet.md's job"
(cd "$d" && PYSPARK_PYTHON="$py" PYSPARK_DRIVER_PYTHON="$py" "$py" ../../bench/tree_peak.py "$py" job.py > spark.out 2> spark.err) \
  || { tail -20 "$d/spark.err"; exit 1; }
grep tree_peak "$d/spark.err"
head -14 "$d/spark.out"
