#!/usr/bin/env python3
"""The peer of `counterlens convert X.csv -o X.parquet`: DuckDB's own CSV reader on the same PDH-CSV,
to Parquet (zstd), in two forms, timed in this process (best of --runs):
  wide  read_csv -> Parquet as it comes (one column per counter; the time left as text): DuckDB's best case
  long  read_csv -> UNPIVOT (one row per value that exists) with the time parsed: the work ours does,
        minus splitting each path into machine/object/instance/counter
Prints one JSON line: {"threads": N, "wide_s", "wide_cpu_s", "long_s", "long_cpu_s", "long_rows"}
(CPU: time.process_time(), all of this process's threads).
Usage: duckdb_csv.py CSV OUTDIR [--threads N] [--runs N]
"""
import argparse
import json
import os
import time

import duckdb

ap = argparse.ArgumentParser()
ap.add_argument("csv")
ap.add_argument("outdir")
ap.add_argument("--threads", type=int, default=1)
ap.add_argument("--runs", type=int, default=3)
a = ap.parse_args()

con = duckdb.connect()
con.execute(f"SET threads = {a.threads}")
src = f"read_csv('{a.csv}', nullstr = ' ')"
first = con.sql(f"DESCRIBE SELECT * FROM {src}").fetchall()[0][0]
q = '"' + first.replace('"', '""') + '"'
wide = os.path.join(a.outdir, "duckdb-wide.parquet")
long = os.path.join(a.outdir, "duckdb-long.parquet")
queries = {
    "wide": f"COPY (SELECT * FROM {src}) TO '{wide}' (FORMAT parquet, COMPRESSION zstd)",
    "long": f"""COPY (SELECT strptime({q}, '%m/%d/%Y %H:%M:%S.%g') AS time, path, value
                FROM (UNPIVOT (SELECT * FROM {src}) ON COLUMNS(* EXCLUDE ({q})) INTO NAME path VALUE value))
              TO '{long}' (FORMAT parquet, COMPRESSION zstd)""",
}
out = {"threads": a.threads}
for name, sql in queries.items():
    best, cpu = float("inf"), float("inf")
    for _ in range(a.runs):
        t, c = time.perf_counter(), time.process_time()
        con.execute(sql)
        best = min(best, time.perf_counter() - t)
        cpu = min(cpu, time.process_time() - c)
    out[f"{name}_s"] = round(best, 3)
    out[f"{name}_cpu_s"] = round(cpu, 3)
out["long_rows"] = con.sql(f"SELECT count(*) FROM '{long}'").fetchall()[0][0]
print(json.dumps(out))
