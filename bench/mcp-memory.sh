#!/usr/bin/env bash
# Peak memory of `counterlens mcp` on a huge log: a relog-shaped PDH-CSV of about GB gigabytes (500
# counters, one row a second, values cycled from 64 rows written as relog prints them) made on the fly,
# then, each in a server of its own, measured by /usr/bin/time -v:
#   1. statistics of one series (\Processor(_Total)\% Processor Time): the reader keeps the timestamps
#      and that one column only (OpenOptions::series);
#   2. list_logs: the catalogue pass (counts, no values).
# The figure goes to docs/mcp.md by hand. Usage: bash bench/mcp-memory.sh [GB]   (default 2)
# COUNTERLENS_BIN: an already built binary (the release build with fat LTO takes minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
gb=${1:-2}
if [[ -z ${COUNTERLENS_BIN:-} ]]; then cargo build --release --bin counterlens; fi
bin=${COUNTERLENS_BIN:-${CARGO_TARGET_DIR:-target}/release/counterlens}
d=${CARGO_TARGET_DIR:-target}/bench/mcp-memory
mkdir -p "$d"
csv=$d/big.csv
if [[ ! -f $csv ]]; then
  python3 - "$csv" "$gb" <<'PY'
import random, sys, datetime
out, gb = sys.argv[1], float(sys.argv[2])
random.seed(39)
objects = [("Processor(_Total)", "% Processor Time", lambda: random.uniform(0, 100))]
objects += [(f"Processor({i})", "% Processor Time", lambda: random.uniform(0, 100)) for i in range(31)]
objects += [(f"Process(w3wp#{i})", c, lambda: random.uniform(0, 1e9)) for i in range(93)
            for c in ("Private Bytes", "Working Set", "% Processor Time", "IO Data Bytes/sec", "Handle Count")]
objects += [(f"LogicalDisk(C:)", f"Counter {i}", lambda: random.uniform(0, 1e3)) for i in range(3)]
assert len(objects) == 500, len(objects)
head = '"(PDH-CSV 4.0) (Pacific Standard Time)(480)"' + "".join(f',"\\\\BIG01\\{o}\\{c}"' for o, c, _ in objects) + "\n"
bodies = ["".join(f',"{f():.13f}"' for _, _, f in objects) + "\n" for _ in range(64)]
start = datetime.datetime(2026, 11, 1)
target = int(gb * (1 << 30))
with open(out, "w", newline="") as f:
    f.write(head)
    size, k = len(head), 0
    while size < target:
        t = start + datetime.timedelta(seconds=k)
        row = f'"{t:%m/%d/%Y %H:%M:%S}.000"' + bodies[k % 64]
        f.write(row)
        size += len(row)
        k += 1
print(f"{out}: {size / (1 << 30):.2f} GiB, {k} rows of 500 counters", file=sys.stderr)
PY
fi
ls -l "$csv"
run() { # name, JSON-RPC request of the measured call
  local name=$1 req=$2
  printf '%s\n%s\n' \
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}' \
    "$req" |
    /usr/bin/time -v "$bin" mcp --root "$d" --timeout 3600 >"$d/$name.out" 2>"$d/$name.time"
  echo "$name: peak RSS $(grep 'Maximum resident' "$d/$name.time" | awk '{print $NF}') KiB, wall $(grep 'Elapsed (wall' "$d/$name.time" | awk '{print $NF}')"
  tail -c 600 "$d/$name.out"; echo
}
run statistics '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"statistics","arguments":{"log":"big.csv","counters":"\\Processor(_Total)\\% Processor Time"}}}'
run list_logs '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"list_logs","arguments":{}}}'
