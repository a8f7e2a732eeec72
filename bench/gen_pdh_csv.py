#!/usr/bin/env python3
"""Writes a synthetic PDH-CSV log (relog's dialect: zone header, quoted cells, CRLF) from a fixed seed.

Two shapes:
  --shape wide   500 `\\\\MACHINE\\Process(w3wp#n)\\% Processor Time` columns with 13-decimal values and
                 1 % " " gaps, like bench/captures.mjs (the size of the file is set with --rows).
  --shape fleet  a server's usual counters at --interval seconds: CPU total and per core, memory, disk,
                 network; CPU follows a daily curve whose height depends on the machine (--load), so the
                 busiest servers differ from the idle ones.

Usage: gen_pdh_csv.py OUT --shape wide|fleet [--machine NAME] [--rows N] [--interval S]
                      [--start 2026-11-16T00:00:00] [--load 0.0-1.0] [--seed N]
"""
import argparse
import datetime as dt
import math
import random

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--shape", choices=["wide", "fleet"], default="wide")
ap.add_argument("--machine", default="SQL01")
ap.add_argument("--rows", type=int, default=10_000)
ap.add_argument("--interval", type=float, default=1.0)
ap.add_argument("--start", default="2026-11-16T00:00:00")
ap.add_argument("--load", type=float, default=0.5)
ap.add_argument("--seed", type=int, default=7)
a = ap.parse_args()
rnd = random.Random(a.seed)
m = a.machine
start = dt.datetime.fromisoformat(a.start)

if a.shape == "wide":
    paths = [f"\\\\{m}\\Process(w3wp#{c})\\% Processor Time" for c in range(500)]
else:
    paths = [f"\\\\{m}\\Processor(_Total)\\% Processor Time"]
    paths += [f"\\\\{m}\\Processor({c})\\% Processor Time" for c in range(4)]
    paths += [
        f"\\\\{m}\\Memory\\Available MBytes",
        f"\\\\{m}\\PhysicalDisk(_Total)\\Avg. Disk sec/Read",
        f"\\\\{m}\\Network Interface(Ethernet)\\Bytes Total/sec",
    ]


def cells_wide(r):
    return ['" "' if r == 0 or rnd.random() < 0.01 else f'"{rnd.random() * 100:.13f}"' for _ in paths]


def cells_fleet(r, t):
    hour = t.hour + t.minute / 60
    # Office hours peak around 14:00; the height of the curve is the machine's load.
    day = 0.5 - 0.5 * math.cos((hour - 2) / 24 * 2 * math.pi)
    cores = [min(100.0, max(0.0, 100 * a.load * day + rnd.gauss(8, 6) + (60 if rnd.random() < 0.01 else 0))) for _ in range(4)]
    total = sum(cores) / 4
    values = [total, *cores, max(50.0, 16000 * (1 - 0.6 * a.load * day) + rnd.gauss(0, 200)), abs(rnd.gauss(0.004 + 0.01 * a.load * day, 0.002)), abs(rnd.gauss(2e6 * a.load * day, 2e5))]
    return [f'"{v!r}"' for v in values]


with open(a.out, "w", newline="") as f:
    f.write('"(PDH-CSV 4.0) (Coordinated Universal Time)(0)",' + ",".join(f'"{p}"' for p in paths) + "\r\n")
    for r in range(a.rows):
        t = start + dt.timedelta(seconds=r * a.interval)
        stamp = f'"{t.month:02}/{t.day:02}/{t.year:04} {t.hour:02}:{t.minute:02}:{t.second:02}.{t.microsecond // 1000:03}"'
        cells = cells_wide(r) if a.shape == "wide" else cells_fleet(r, t)
        f.write(stamp + "," + ",".join(cells) + "\r\n")
