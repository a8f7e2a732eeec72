#!/usr/bin/env python3
"""Runs a command and prints its wall time and the peak of the summed resident memory of its whole
process tree (the command and every descendant: Spark's JVM and Python workers), sampled every 50 ms
from /proc. `/usr/bin/time -v` gives the largest single process instead, which misses a tree's total.

Usage: tree_peak.py CMD ARGS...   -> stderr: "tree_peak: wall 12.3 s, peak 1234.5 MiB (tree of N processes)"
"""
import os
import subprocess
import sys
import time


def children(pid):
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(c) for c in f.read().split()]
    except OSError:
        pass
    return out


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


start = time.monotonic()
p = subprocess.Popen(sys.argv[1:])
peak, most = 0, 0
while p.poll() is None:
    tree, todo = [], [p.pid]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo += children(pid)
    peak = max(peak, sum(rss_kib(pid) for pid in tree))
    most = max(most, len(tree))
    time.sleep(0.05)
wall = time.monotonic() - start
print(f"tree_peak: wall {wall:.1f} s, peak {peak / 1024:.1f} MiB (tree of up to {most} processes)",
      file=sys.stderr)
sys.exit(p.returncode)
