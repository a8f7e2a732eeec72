#!/usr/bin/env bash
# The same fleet two ways on this machine, same logs, same run: the viewer's fleet view in headless
# Chromium (bench/fleet-memory.mjs --dir: every log picked at once, read and analysed in its Worker pool)
# and the CLI (`counterlens analyze logs/*/*.csv --json out/`, every core; it joins a machine's logs that
# follow each other into one analysis, where the viewer analyses each log alone and joins the runs). N logs (default 200) of
# bench/gen_pdh_csv.py's fleet shape, ROWS one-second samples each (default 100,000: ~20 MB of PDH-CSV,
# ~4 GB for 200): N/2 servers, two logs each (consecutive stretches), loads spread over the servers. To
# save the generator's time, 20 logs are generated and the others are copies with the server's name
# changed (sed): the readers and the analysis do the same work on a copy. Prints wall time and peak
# memory of each: the viewer's from fleet-memory.mjs (the whole browser's resident memory), the CLI's from
# bench/tree_peak.py. Figures go to docs/performance.md by hand.
#   Usage: bash bench/fleet-viewer-vs-cli.sh [N] [ROWS]
#   Needs: pkg/ built (bash scripts/build.sh), a release CLI at COUNTERLENS_BIN (default: built here).
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-200}
rows=${2:-100000}
target=${CARGO_TARGET_DIR:-$PWD/target}
if [[ -z ${COUNTERLENS_BIN:-} ]]; then cargo build --release -p counterlens-cli; fi
bin=${COUNTERLENS_BIN:-$target/release/counterlens}
d=target/bench-fleet-big
if [[ ! -f $d/.made-$n-$rows ]]; then
  rm -rf "$d"; mkdir -p "$d/base" "$d/logs"
  for i in $(seq 1 10); do
    m=$(printf 'BASE%02d' "$i")
    for day in 0 1; do
      start=$(date -u -d "2026-11-16 + $((day * rows)) seconds" +%Y-%m-%dT%H:%M:%S)
      echo "$d/base/$m-$day.csv --shape fleet --machine $m --rows $rows --interval 1 --start $start --load 0.$(( 20 + (i * 37) % 78 )) --seed $((i * 2 + day))"
    done
  done | xargs -P 2 -L 1 python3 bench/gen_pdh_csv.py
  for k in $(seq 1 $((n / 2))); do
    b=$(( (k - 1) % 10 + 1 ))
    m=$(printf 'SRV%03d' "$k")
    mkdir -p "$d/logs/$m"
    for day in 0 1; do
      sed "s/BASE$(printf '%02d' "$b")/$m/g" "$d/base/$(printf 'BASE%02d' "$b")-$day.csv" > "$d/logs/$m/$m-$day.csv"
    done
  done
  touch "$d/.made-$n-$rows"
fi
echo "logs: $(find "$d/logs" -type f | wc -l), $(du -sh "$d/logs" | cut -f1)"
echo "== viewer: the fleet view (bench/fleet-memory.mjs --dir)"
node bench/fleet-memory.mjs --dir "$d/logs" "$n"
# `analyze` takes files (a directory is refused): the shell lists them.
echo "== CLI: counterlens analyze -q logs/*/*.csv --json cli/"
rm -rf "$d/cli"
python3 bench/tree_peak.py "$bin" analyze -q "$d"/logs/*/*.csv --json "$d/cli/" > /dev/null
echo "fleet.json: $(wc -c < "$d/cli/fleet.json") bytes, $(grep -c '"machine":' "$d/cli/fleet.json") machines"
