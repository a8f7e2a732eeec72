"""The Spark job of docs/fleet.md ("The verdict on Spark"), run as written in Spark's local mode over a
folder of logs, gives the CLI's verdict: its findings table holds, log by log, the findings of
`counterlens analyze --json DIR/` on the same logs, and its machines ranked by trouble are the CLI's
index.json counts, ranked the same way. Skipped without pyspark and Java, unless
COUNTERLENS_REQUIRE_SPARK is set (scripts/test.sh sets it: the set-up installs both)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

from conftest import CAPTURES, ROOT

FLEET_MD = ROOT / "docs" / "fleet.md"


def spark_ready():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return shutil.which("java") is not None


def job_block():
    """The docs' job: the fenced block whose info string is `python counterlens-spark`."""
    text = FLEET_MD.read_text(encoding="utf-8")
    start = text.index("```python counterlens-spark\n") + len("```python counterlens-spark\n")
    return text[start:text.index("\n```", start) + 1]


def make_logs(folder: pathlib.Path, machines: int):
    """A small fleet: `machines` servers' day of one-minute samples (bench/gen_pdh_csv.py, loads from
    0.30 to 0.95, so some servers breach the CPU rules and some do not), plus the two public .blg logs
    of tests/vectors/captures in folders of their own."""
    for n in range(1, machines + 1):
        d = folder / f"WEB{n:02d}"
        d.mkdir(parents=True)
        load = 0.30 + 0.65 * (n - 1) / max(machines - 1, 1)
        subprocess.run([sys.executable, str(ROOT / "bench" / "gen_pdh_csv.py"), str(d / "fleet_11160000.csv"),
                        "--shape", "fleet", "--machine", f"WEB{n:02d}", "--rows", "1440", "--interval", "60",
                        "--load", f"{load:.2f}", "--seed", str(n)], check=True)
    for name in ("PAL_SampleLog.blg", "BasicPerfCounters.blg"):
        d = folder / name.split(".")[0]
        d.mkdir()
        shutil.copy(CAPTURES / name, d / name)


@pytest.mark.skipif(not spark_ready() and not os.environ.get("COUNTERLENS_REQUIRE_SPARK"),
                    reason="the Spark job needs pyspark and Java")
def test_the_spark_job_of_the_fleet_page_gives_the_clis_verdict(cli, tmp_path):
    import pyarrow.parquet as pq

    make_logs(tmp_path / "perflogs", 6)
    logs = sorted(p for p in (tmp_path / "perflogs").rglob("*") if p.is_file())
    env = dict(os.environ, PYSPARK_PYTHON=sys.executable, PYSPARK_DRIVER_PYTHON=sys.executable)
    r = subprocess.run([sys.executable, "-c", job_block()], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-4000:]

    cli("analyze", "-q", *logs, "--json", f"{tmp_path / 'cli'}/")
    index = json.loads((tmp_path / "cli" / "index.json").read_text())
    assert len(index) == len(logs)

    # Findings, log by log: the CLI's JSON of each log against the Spark table's rows of that log.
    spark = pq.read_table(tmp_path / "verdict" / "findings").to_pylist()
    keys = ("pack", "rule", "severity", "path", "worst", "threshold", "message")
    total = 0
    for log in logs:
        doc = json.loads((tmp_path / "cli" / (str(log.relative_to(tmp_path / "perflogs")) + ".json")).read_text())
        want = sorted((*(f[k] for k in keys), round(f["start"]), round(f["end"])) for f in doc["findings"])
        got = sorted((*(row[k] for k in keys), round(row["start"].timestamp() * 1000), round(row["end"].timestamp() * 1000))
                     for row in spark if row["log"].endswith(log.relative_to(tmp_path).as_posix()))
        assert got == want, log
        total += len(want)
    assert total == len(spark) and total > 0

    # The machines ranked by trouble: the CLI index's counts summed per machine, ranked critical first.
    ranked = pq.read_table(tmp_path / "verdict" / "machines").to_pylist()
    per_machine = {}
    for e in index:
        doc = json.loads((tmp_path / "cli" / e["data"]).read_text())
        m = ",".join(doc["log"]["machines"])
        c, w, n = per_machine.get(m, (0, 0, 0))
        per_machine[m] = (c + e["critical"], w + e["warning"], n + 1)
    want = sorted(((m, *v) for m, v in per_machine.items()), key=lambda r: (-r[1], -r[2], r[0]))
    assert [(r["machine"], r["critical"], r["warning"], r["logs"]) for r in ranked] == want
    # Some servers are in trouble and some are not: the ranking is not trivially flat.
    assert want[0][1] + want[0][2] > 0 and want[-1][1] + want[-1][2] < want[0][1] + want[0][2]
