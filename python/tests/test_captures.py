"""Every golden capture of tests/vectors/captures/ read through the wheel gives what
tests/vectors/captures.json says (the same expectations tests/node/captures.test.mjs checks the npm
package against): format, encoding, time zone, timestamps, series, values, reference values, notes; the
logs that must not read raise CaptureError with the same code, line and column."""

import gzip
import json
import math
import re

import numpy as np
import pytest

import counterlens
from conftest import CAPTURES, ROOT, VECTORS

FILES = json.loads((VECTORS / "captures.json").read_text(encoding="utf-8"))["files"]


def snake(k):
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", k).lower()


def plain(a):
    return [None if math.isnan(v) else v for v in a.tolist()]


def check(name, want, open_):
    if "error" in want:
        with pytest.raises(counterlens.CaptureError) as e:
            open_()
        assert e.value.code == want["error"]["code"], f"{name}: {e.value}"
        if want["error"].get("line"):
            assert (e.value.line, e.value.column) == (want["error"]["line"], want["error"]["column"])
        return
    c = open_()
    assert c.format == want["format"], name
    assert c.encoding == want["encoding"], name
    tz = want["timeZone"]
    assert c.time_zone == (tz and {"name": tz["name"], "bias_minutes": tz["biasMinutes"]}), name
    ts = c.timestamps()
    assert ts.dtype == np.float64
    assert ts.tolist() == want["timestamps"], f"{name}: {want.get('why')}"
    assert c.sample_count == len(want["timestamps"])
    assert c.series_count == len(want["series"])
    infos = c.series()
    for i, w in enumerate(want["series"]):
        meta = {snake(k): v for k, v in w.items() if k not in ("values", "reference")}
        assert infos[i] == {"index": i, **meta}, name
        v = c.values(i)
        assert isinstance(v, np.ndarray) and v.dtype == np.float64 and v.shape == (c.sample_count,)
        assert plain(v) == w["values"], f"{name} {w['path']}"
        ref = c.reference(i)
        assert (ref is None and "reference" not in w) or plain(ref) == w["reference"], name
    assert [n["code"] for n in c.notes()] == want["notes"], name
    if want.get("noteMessage"):
        assert c.notes()[0]["message"] == want["noteMessage"]


@pytest.mark.parametrize("name", sorted(FILES))
def test_golden_capture_from_bytes_path_and_gzip(name, tmp_path):
    want = FILES[name]
    data = (CAPTURES / name).read_bytes()
    check(name, want, lambda: counterlens.open_capture(data))
    check(f"{name} (path)", want, lambda: counterlens.open_capture(CAPTURES / name))
    check(f"{name} (str path)", want, lambda: counterlens.open_capture(str(CAPTURES / name)))
    check(f"{name} (bytearray)", want, lambda: counterlens.open_capture(bytearray(data)))
    gz = tmp_path / (name + ".gz")
    gz.write_bytes(gzip.compress(data))
    check(f"{name} (gzip file)", want, lambda: counterlens.open_capture(gz))
    check(f"{name} (gzip bytes)", want, lambda: counterlens.open_capture(gz.read_bytes()))


# The .blg logs are checked against what Windows PDH reads from them (crate/tests/blg.rs), not by
# captures.json.
BLG = {"BasicPerfCounters.blg", "PAL_SampleLog.blg"}
# The Russian log is checked as its English twin's analysis (crate/tests/localized.rs), not by
# captures.json; test_localized_names_read_in_english below reads it here too.
LOCALIZED = {"ru-cpu-busy.csv"}


def test_every_golden_capture_is_checked():
    on_disk = {p.name for p in CAPTURES.iterdir() if p.name != "README.md"}
    assert on_disk - BLG - LOCALIZED == set(FILES) and (BLG | LOCALIZED) <= on_disk


def test_localized_names_read_in_english():
    # Every series of the windows-1251 Russian vector has its English path (Процессор -> Processor).
    c = counterlens.open_capture(CAPTURES / "ru-cpu-busy.csv")
    names = [c.english_path(i) for i in range(len(c.series()))]
    assert any(n and "\\Processor(_Total)\\% Processor Time" in n for n in names), names


def test_blg_reads_what_windows_pdh_reads():
    # Tx (through PDH): 601 samples, the first gives no value: 600 per counter, 6000 in all.
    c = counterlens.open_capture(CAPTURES / "BasicPerfCounters.blg")
    assert (c.format, c.sample_count, c.series_count) == ("blg", 601, 10)
    for i in range(10):
        v = c.values(i)
        assert math.isnan(v[0]) and int(np.count_nonzero(~np.isnan(v))) == 600
    # Cut short, as tests/node/fidelity.test.mjs cuts it: the complete samples, with a note.
    cut = counterlens.open_capture((CAPTURES / "BasicPerfCounters.blg").read_bytes()[:0x2_1234])
    note = next(n for n in cut.notes() if n["code"] == "truncated")
    assert "truncated at byte 135732" in note["message"]
    assert 100 < cut.sample_count < 601


def test_stats_and_csv_round_trip():
    c = counterlens.open_capture(CAPTURES / "relog-pst.csv")
    # % Processor Time from the second sample on is 100.00000000000001 and 350 (captures.json).
    s = c.stats(0, 1795291201000)
    assert (s["count"], s["max"], s["last"]) == (2, 350, 350)
    b = counterlens.open_capture(c.to_csv().encode())
    assert b.timestamps().tolist() == c.timestamps().tolist()
    for i in range(c.series_count):
        assert np.array_equal(b.values(i), c.values(i), equal_nan=True)
    assert c.to_csv([2, 0]).startswith(
        '"(PDH-CSV 4.0) (Pacific Standard Time)(480)","\\\\WEB01\\PhysicalDisk(0 C:)\\Disk Reads/sec",'
        '"\\\\WEB01\\Processor(_Total)\\% Processor Time"\r\n'
    )


def test_reading_options_are_the_npm_packages():
    path = CAPTURES / "relog-pst.csv"
    one = counterlens.open_capture(path, series=["\\\\*\\Processor(*)\\*"])
    assert [s["path"] for s in one.series()] == ["\\\\WEB01\\Processor(_Total)\\% Processor Time"]
    window = counterlens.open_capture(path, from_ms=1795291201000)
    assert window.timestamps().tolist() == [1795291201000, 1795291202500]
    every = counterlens.open_capture(path, every=2)
    assert every.timestamps().tolist() == [1795291200000, 1795291202500]
