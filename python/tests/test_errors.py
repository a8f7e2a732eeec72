"""Errors are exceptions of the package's classes carrying the core's code and place."""

import json

import pytest

import counterlens
from conftest import CAPTURES


def test_capture_errors_carry_code_line_and_column():
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(b"")
    assert e.value.code == "empty" and isinstance(e.value, counterlens.CounterlensError)
    # bad-number.csv: captures.json gives its error's line and column; here a hand-made one: the
    # header, one good row, then "x" in row 3's second cell (line 3, column 27: after the 26
    # characters of the quoted time and the comma).
    text = (
        '"(PDH-CSV 4.0) (Coordinated Universal Time)(0)","\\\\A\\Memory\\Available MBytes"\r\n'
        '"11/21/2026 00:00:00.000","1"\r\n'
        '"11/21/2026 00:00:01.000","x"\r\n'
    )
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(text.encode())
    assert (e.value.code, e.value.line, e.value.column) == ("bad-number", 3, 27), str(e.value)
    # The core's message, which begins with the place.
    assert str(e.value).startswith("line 3, column 27: expected a number"), str(e.value)


def test_reading_option_errors_name_the_python_argument():
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(CAPTURES / "relog-pst.csv", encoding="klingon")
    assert e.value.code == "bad-encoding"
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(CAPTURES / "relog-pst.csv", format="xlsx")
    assert e.value.code == "unsupported"
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(CAPTURES / "relog-pst.csv", series="\\Memory\\*")
    assert (e.value.code, e.value.field) == ("invalid-argument", "series")
    with pytest.raises(counterlens.CaptureError) as e:
        counterlens.open_capture(42)
    assert (e.value.code, e.value.field) == ("invalid-argument", "data")
    c = counterlens.open_capture(CAPTURES / "relog-pst.csv")
    with pytest.raises(counterlens.CaptureError) as e:
        c.values(99)
    assert (e.value.code, e.value.field) == ("invalid-argument", "index")
    assert "the capture has 3" in str(e.value)


def test_a_missing_file_is_an_io_error_naming_it(tmp_path):
    with pytest.raises(counterlens.CounterlensError) as e:
        counterlens.open_capture(tmp_path / "nope.blg")
    assert e.value.code == "io" and e.value.file.endswith("nope.blg")


def test_analysis_errors_carry_pointer_line_column_and_variable():
    c = counterlens.open_capture(CAPTURES / "relog-pst.csv")
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(c, packs=["no-such-pack"])
    assert (e.value.code, e.value.field) == ("unknown-pack", "packs")
    # A pack whose JSON breaks on line 2, column 11 (the 'x' after "id": ).
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(c, packs=['{\n  "id": x}'])
    assert (e.value.code, e.value.line, e.value.column) == ("bad-pack", 2, 9), str(e.value)
    # A threshold naming a variable that neither the caller, the log nor the pack gives.
    pack = {"id": "t", "title": "T", "rules": [{
        "id": "m", "title": "M", "counter": "\\Memory\\Available Bytes", "kind": "static",
        "severity": "warning", "operator": "lt", "threshold": "TotalRamGB * 2"}]}
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(c, packs=[pack])
    assert (e.value.code, e.value.variable, e.value.field) == ("unknown-variable", "TotalRamGB", "variables")
    with pytest.raises(counterlens.AnalysisError) as e:
        counterlens.analyze(c, slice="often")
    assert (e.value.code, e.value.field) == ("invalid-argument", "slice")


def test_convert_refuses_to_overwrite(tmp_path):
    out = tmp_path / "a.csv"
    c = counterlens.open_capture(CAPTURES / "relog-pst.csv")
    assert counterlens.convert(c, out) == 3
    with pytest.raises(counterlens.ConvertError) as e:
        counterlens.convert(c, out)
    assert e.value.code == "exists" and e.value.file == str(out)
    assert counterlens.convert(c, out, overwrite=True) == 3
