"""A machine's normal through the wheel: `build_baseline` gives the file `counterlens baseline` writes,
and `analyze(log, baseline=...)` the CLI's `analyze --baseline` JSON, on logs made here whose trouble is
known by construction: four weekdays of WEB01 at 10% CPU, then a Friday at 60% from 11:00 to 12:59."""

import datetime
import json

import pytest

import counterlens

MONDAY = datetime.datetime(2026, 11, 16, tzinfo=datetime.timezone.utc)


def log(path, machine, day, minutes, cpu):
    """A relog CSV (no zone: UTC), one sample a minute from 10:00 of MONDAY + day."""
    start = MONDAY + datetime.timedelta(days=day, hours=10)
    rows = ['"(PDH-CSV 4.0)","\\\\%s\\Processor(_Total)\\%% Processor Time"' % machine]
    for k in range(minutes):
        t = start + datetime.timedelta(minutes=k)
        rows.append('"%s","%s"' % (t.strftime("%m/%d/%Y %H:%M:%S.000"), cpu(k)))
    path.write_text("\r\n".join(rows) + "\r\n")
    return path


def test_build_baseline_and_analyze_with_it_equal_the_clis(cli, tmp_path):
    days = [log(tmp_path / f"d{d}.csv", "WEB01", d, 240, lambda k: 10) for d in range(4)]
    friday = log(tmp_path / "fri.csv", "WEB01", 4, 240, lambda k: 60 if 60 <= k < 180 else 10)
    cli("baseline", *days, "-o", tmp_path / "web01.baseline.json")
    want = json.loads((tmp_path / "web01.baseline.json").read_text())
    got = counterlens.build_baseline(days, names=want["logs"])
    assert got == want
    # 4 logs x 240 samples; each hour 10-13 on weekdays rests on 240 samples at 10%.
    assert (got["machine"], got["samples"]) == ("WEB01", 960)
    cli("analyze", "-q", friday, "--baseline", tmp_path / "web01.baseline.json", "--json", tmp_path / "a.json")
    doc = json.loads((tmp_path / "a.json").read_text())
    doc.pop("inputs")
    for baseline in (got, tmp_path / "web01.baseline.json", json.dumps(got)):
        a = counterlens.analyze(friday, baseline=baseline)
        assert a.to_dict() == doc
    cards = [g for g in a.groups if g.pack == "baseline"]
    # The limit max(3 x 10, 10 + 10) = 30; 60% from 11:00 to 12:59 is one card, the story's one problem.
    assert len(cards) == 1
    assert a.story.headline == "One problem in 3 h 59 min of log."
    assert counterlens.analyze(friday).groups == []


def test_another_machines_baseline_and_mixed_logs_are_refused(tmp_path):
    days = [log(tmp_path / f"d{d}.csv", "WEB01", d, 240, lambda k: 10) for d in range(4)]
    db = log(tmp_path / "db.csv", "DB01", 4, 60, lambda k: 10)
    b = counterlens.build_baseline(days)
    assert b["logs"] == [str(d) for d in days]
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(db, baseline=b)
    assert e.value.code == "baseline"
    assert "machine WEB01 (4 logs), this log is of machine DB01" in str(e.value)
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.build_baseline([days[0], db])
    assert e.value.code == "baseline" and "DB01" in str(e.value)
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(db, baseline='{"format": 3}')
    assert e.value.code == "baseline"
    with pytest.raises(TypeError):
        counterlens.analyze(db, baseline=42)
