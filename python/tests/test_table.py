"""The long table (`Capture.table()`) and `convert` to Parquet are the CLI's: `counterlens convert LOG -o
out.parquet` read back with pyarrow gives the same schema and rows; CSV from `convert` reads back to the
same values. BasicPerfCounters.blg: 6000 values, as Windows PDH gives 6000 (docs/fleet.md)."""

import numpy as np
import pyarrow.parquet as pq

import counterlens
from conftest import CAPTURES


def test_table_and_parquet_equal_the_clis(cli, tmp_path):
    log = CAPTURES / "BasicPerfCounters.blg"
    cli("convert", "-q", log, "-o", tmp_path / "cli.parquet")
    want = pq.read_table(tmp_path / "cli.parquet")
    assert want.num_rows == 6000
    c = counterlens.open_capture(log)
    t = c.table()
    assert t.schema == want.schema
    # `source`: the file's name here; the CLI names a single input with its folder.
    assert set(t.column("source").to_pylist()) == {"BasicPerfCounters.blg"}
    assert set(want.column("source").to_pylist()) == {"captures/BasicPerfCounters.blg"}
    assert t.drop_columns(["source"]).to_pylist() == want.drop_columns(["source"]).to_pylist()
    rows = counterlens.convert(c, tmp_path / "py.parquet", source="captures/BasicPerfCounters.blg")
    assert rows == 6000
    got = pq.read_table(tmp_path / "py.parquet")
    assert got.schema == want.schema and got.to_pylist() == want.to_pylist()
    # The row count is the values that exist: NaN cells have no row.
    assert sum(int(np.count_nonzero(~np.isnan(c.values(i)))) for i in range(c.series_count)) == 6000


def test_table_of_bytes_has_an_empty_source_unless_named(tmp_path):
    c = counterlens.open_capture((CAPTURES / "relog-pst.csv").read_bytes())
    t = c.table()
    assert set(t.column("source").to_pylist()) == {""}
    counterlens.convert(c, tmp_path / "x.parquet", source="WEB01/relog-pst.csv")
    assert set(pq.read_table(tmp_path / "x.parquet").column("source").to_pylist()) == {"WEB01/relog-pst.csv"}
    # relog-pst.csv: 3 series x 3 samples, values where captures.json has them (not null).
    df = t.to_pandas()
    assert len(df) == sum(int(np.count_nonzero(~np.isnan(c.values(i)))) for i in range(c.series_count))


def test_convert_to_csv_reads_back(tmp_path):
    c = counterlens.open_capture(CAPTURES / "relog-pst.csv")
    assert counterlens.convert(c, tmp_path / "a.tsv") == 3
    b = counterlens.open_capture(tmp_path / "a.tsv")
    assert b.format == "pdh-tsv"
    for i in range(c.series_count):
        assert np.array_equal(b.values(i), c.values(i), equal_nan=True)
