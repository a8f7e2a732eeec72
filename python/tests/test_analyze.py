"""`analyze` through the wheel gives what `counterlens analyze --json` gives on the same log with the same
options (the CLI's JSON, without its `inputs`, equals `Analysis.to_dict()` key for key and value for
value): built-in packs by default and by id, a pack given as a dict, PAL threshold XML imported by
`import_pal_thresholds` (CLI: `--pack file.xml`), variables and the slice length."""

import json

import pytest

import counterlens
from conftest import CAPTURES, VECTORS

PAL = VECTORS / "pal"


def cli_json(cli, tmp_path, log, *options):
    out = tmp_path / "cli.json"
    cli("analyze", "-q", log, "--json", out, *options)
    doc = json.loads(out.read_text())
    assert doc.pop("inputs") == [str(log)]
    return doc


CASES = [
    ("PAL_SampleLog.blg", [], {}),
    ("BasicPerfCounters.blg", [], {}),
    ("PAL_SampleLog.blg", ["--pack", "system-overview", "--slice", "5m"],
     {"packs": ["system-overview"], "slice": "5m"}),
    ("PAL_SampleLog.blg", ["--pack", PAL / "SystemOverview.xml", "--var", "totalMemoryMB=2048"],
     {"packs": "pal", "variables": {"totalMemoryMB": 2048}}),
    ("relog-pst.csv", [], {}),
]


@pytest.mark.parametrize("log,cli_options,py_options", CASES, ids=lambda x: str(x)[:40])
def test_analyze_equals_the_clis_json(cli, tmp_path, log, cli_options, py_options):
    path = CAPTURES / log
    want = cli_json(cli, tmp_path, path, *cli_options)
    options = dict(py_options)
    if options.get("packs") == "pal":
        options["packs"] = [counterlens.import_pal_thresholds(PAL / "SystemOverview.xml")]
    a = counterlens.analyze(counterlens.open_capture(path), **options)
    assert a.to_dict() == want
    # The same from the path and from the bytes, without opening first.
    assert counterlens.analyze(path, **options).to_dict() == want


def test_findings_and_cards_as_objects_and_frames(cli, tmp_path):
    path = CAPTURES / "PAL_SampleLog.blg"
    want = cli_json(cli, tmp_path, path)
    a = counterlens.analyze(counterlens.open_capture(path.read_bytes()))
    assert len(want["findings"]) > 0 and len(want["groups"]) > 0
    assert len(a.findings) == len(want["findings"])
    for f, w in zip(a.findings, want["findings"]):
        assert isinstance(f, counterlens.Finding)
        assert (f.pack, f.rule, f.severity, f.series_index, f.path, f.start, f.end, f.worst) == (
            w["pack"], w["rule"], w["severity"], w["seriesIndex"], w["path"], w["start"], w["end"], w["worst"])
        assert f.to_dict() == w
    g = a.groups[0]
    assert isinstance(g, counterlens.Group) and g.duration_ms == want["groups"][0]["durationMs"]
    df = a.findings_frame()
    assert list(df.columns) == counterlens.FINDING_COLUMNS and len(df) == len(want["findings"])
    assert df["severity"].tolist() == [w["severity"] for w in want["findings"]]
    # start is the finding's ms since the epoch as a UTC timestamp.
    assert [int(t.value // 1_000_000) for t in df["start"]] == [int(w["start"]) for w in want["findings"]]
    gf = a.groups_frame()
    assert gf["rule"].tolist() == [w["rule"] for w in want["groups"]]
    c = a.counts()
    assert c["critical"] == sum(w["severity"] == "critical" for w in want["findings"])
    assert c["critical"] + c["warning"] == len(want["findings"])


def test_rule_packs_are_the_built_in_ones():
    packs = counterlens.rule_packs()
    ids = [p["id"] for p in packs]
    assert "system-overview" in ids and len(ids) == len(set(ids))
    full = counterlens.rule_pack("system-overview")
    assert len(full["rules"]) == next(p["rules"] for p in packs if p["id"] == "system-overview")
    assert counterlens.rule_pack("no-such-pack") is None


def test_pal_import_matches_the_npm_packages_vector():
    # tests/vectors/pal/SystemOverview.import.json: what the npm package's importPalThresholds gives.
    want = json.loads((PAL / "SystemOverview.import.json").read_text(encoding="utf-8"))
    got = counterlens.import_pal_thresholds(PAL / "SystemOverview.xml")
    assert got.to_dict() == want
    assert (got.translated, got.total, got.pack["id"]) == (16, 18, want["pack"]["id"])
    # The same from the text, and from a dict of names to bytes.
    text = (PAL / "SystemOverview.xml").read_text(encoding="utf-8")
    assert counterlens.import_pal_thresholds({"SystemOverview.xml": text.encode()}).to_dict() == want


def test_report_is_html(tmp_path):
    c = counterlens.open_capture(CAPTURES / "PAL_SampleLog.blg")
    html = counterlens.analysis_report(c, counterlens.analyze(c), title="PAL sample")
    assert html.lstrip().lower().startswith("<!doctype html") and "PAL sample" in html
