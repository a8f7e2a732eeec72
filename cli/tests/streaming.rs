//! `convert` streams: a log is read a few MiB at a time and written row group by row group, so memory
//! holds a row group and the rows of a few MiB of input, never the log. What it writes is what the whole
//! read writes: the same Parquet rows in the same order and row groups, read back with the parquet
//! crate; the same CSV/TSV bytes; with filters (-c, --begin/--end, -t), gaps, partitions and .blg logs.
//!
//! Two knobs of the binary make small logs exercise it: `COUNTERLENS_STREAM_BYTES` (bytes read between
//! two takes of rows; 0: one take at the end, the whole capture as one piece: the whole read) and
//! `COUNTERLENS_ROW_GROUP` (values per row group, 1 Mi by default).

use counterlens::capture::{open_capture, write_pdh, Capture, OpenOptions};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn vector(name: &str) -> PathBuf {
    root().join("tests/vectors/captures").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let d = root().join("target/cli-tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// `convert` with the knobs: `stream` bytes between takes (0: the whole read), `group` values per row
/// group.
fn convert(stream: u64, group: usize, args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_counterlens"))
        .env("COUNTERLENS_STREAM_BYTES", stream.to_string())
        .env("COUNTERLENS_ROW_GROUP", group.to_string())
        .arg("convert")
        .arg("-q")
        .args(args)
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "a panic reached the user: {err}");
    out
}

/// One Parquet row: time, machine, object, instance, counter, value (bits), source, object_en,
/// counter_en.
type Row = (
    i64,
    String,
    String,
    Option<String>,
    String,
    u64,
    String,
    Option<String>,
    Option<String>,
);

/// Every row of a Parquet file in order, and the rows of each row group.
fn parquet_rows(path: &Path) -> (Vec<Row>, Vec<i64>) {
    use arrow_array::cast::AsArray;
    use arrow_array::types::{Float64Type, Int32Type, TimestampMicrosecondType};
    use arrow_array::Array;
    let b = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(path).unwrap()).unwrap();
    let groups = b
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect();
    let mut rows = Vec::new();
    for batch in b.build().unwrap() {
        let batch = batch.unwrap();
        let col = |name: &str| batch.column_by_name(name).unwrap().clone();
        let text = |name: &str, k: usize| -> Option<String> {
            let c = col(name);
            let d = c.as_dictionary::<Int32Type>();
            if d.is_null(k) {
                return None;
            }
            let key = d.keys().value(k) as usize;
            Some(d.values().as_string::<i32>().value(key).to_string())
        };
        let time = col("time");
        let time = time.as_primitive::<TimestampMicrosecondType>();
        let value = col("value");
        let value = value.as_primitive::<Float64Type>();
        for k in 0..batch.num_rows() {
            rows.push((
                time.value(k),
                text("machine", k).unwrap(),
                text("object", k).unwrap(),
                text("instance", k),
                text("counter", k).unwrap(),
                value.value(k).to_bits(),
                text("source", k).unwrap(),
                text("object_en", k),
                text("counter_en", k),
            ));
        }
    }
    (rows, groups)
}

/// `2026-11-21T20:00:00.000Z` of ms since the epoch (the CLI reads ISO 8601 with a zone).
fn iso(ms: f64) -> String {
    let d = (ms / 86_400_000.0).floor() as i64;
    let (y, m, dd) = counterlens::civil::civil_from_days(d);
    let in_day = (ms - d as f64 * 86_400_000.0) as i64;
    format!(
        "{y:04}-{m:02}-{dd:02}T{:02}:{:02}:{:02}.{:03}Z",
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000
    )
}

/// A PDH-CSV of `series` series and `rows` rows one second apart from 2026-11-21 12:00:00 local (bias
/// 480), value (row * 1000 + series) / 8 (exact in binary); with `gaps`, a blank every 7th cell and
/// series 3 only from row 100 on (as a process that starts).
fn generated(path: &Path, series: usize, rows: usize, gaps: bool) {
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(w, "\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\"").unwrap();
    for k in 0..series {
        let p = match k % 3 {
            0 => format!("\\\\WEB01\\Processor({})\\% Processor Time", k / 3),
            1 => format!("\\\\WEB01\\Process(w3wp#{})\\Working Set", k / 3),
            _ => format!("\\\\WEB01\\Memory\\Counter {k}"),
        };
        write!(w, ",\"{p}\"").unwrap();
    }
    write!(w, "\r\n").unwrap();
    for r in 0..rows {
        write!(
            w,
            "\"11/21/2026 {:02}:{:02}:{:02}.000\"",
            12 + r / 3600,
            r / 60 % 60,
            r % 60
        )
        .unwrap();
        for k in 0..series {
            if gaps && ((r + k) % 7 == 0 || (k == 3 && r < 100)) {
                write!(w, ",\" \"").unwrap();
            } else {
                write!(w, ",\"{}\"", (r * 1000 + k) as f64 / 8.0).unwrap();
            }
        }
        write!(w, "\r\n").unwrap();
    }
    w.flush().unwrap();
}

/// The logs and selections every comparison runs over: the sample .blg logs (one with instances that
/// come and go), relog's CSV and TSV, and a generated CSV with gaps; each whole, with a counter filter,
/// and with a time window and every 3rd sample.
fn cases(dir: &Path) -> Vec<(PathBuf, Vec<String>)> {
    let gen = dir.join("gaps.csv");
    generated(&gen, 12, 900, true);
    let mut out = Vec::new();
    for log in [
        vector("BasicPerfCounters.blg"),
        vector("PAL_SampleLog.blg"),
        vector("relog-pst.csv"),
        vector("relog.tsv"),
        gen,
    ] {
        let c = open_capture(&std::fs::read(&log).unwrap(), &OpenOptions::default()).unwrap();
        let t = &c.timestamps;
        out.push((log.clone(), vec![]));
        out.push((
            log.clone(),
            vec![
                "-c".into(),
                r"\Processor(*)\*".into(),
                "-c".into(),
                c.series[c.series.len() - 1].path.clone(),
            ],
        ));
        out.push((
            log,
            vec![
                "--begin".into(),
                iso(t[t.len() / 5]),
                "--end".into(),
                iso(t[t.len() * 3 / 4]),
                "-t".into(),
                "3".into(),
            ],
        ));
    }
    out
}

fn args<'a>(log: &'a Path, sel: &'a [String], out: &'a Path) -> Vec<&'a str> {
    let mut a = vec![log.to_str().unwrap()];
    a.extend(sel.iter().map(String::as_str));
    a.extend(["-o", out.to_str().unwrap()]);
    a
}

#[test]
fn parquet_streamed_is_the_whole_read_row_for_row_and_group_for_group() {
    let dir = scratch("streaming-parquet");
    let mut several_groups = 0;
    for (i, (log, sel)) in cases(&dir).iter().enumerate() {
        let whole = dir.join(format!("{i}-whole.parquet"));
        let streamed = dir.join(format!("{i}-streamed.parquet"));
        // Takes of 3,000 bytes: a .blg buffer is 64 KiB, so a take holds a buffer's samples or none.
        let a = convert(0, 700, &args(log, sel, &whole));
        let b = convert(3000, 700, &args(log, sel, &streamed));
        let what = format!("{} {sel:?}", log.display());
        assert_eq!(a.status.code(), b.status.code(), "{what}");
        assert_eq!(a.stderr, b.stderr, "{what}");
        assert_eq!(whole.exists(), streamed.exists(), "{what}");
        if !whole.exists() {
            continue;
        }
        let (wr, wg) = parquet_rows(&whole);
        let (sr, sg) = parquet_rows(&streamed);
        assert_eq!(wg, sg, "{what}: row groups");
        assert!(wr == sr, "{what}: rows");
        several_groups += usize::from(wg.len() > 2);
        if sel.is_empty() {
            // Every value of the log is a row (PDH counts values; no row for a gap).
            let c = open_capture(&std::fs::read(log).unwrap(), &OpenOptions::default()).unwrap();
            let values: usize = c
                .series
                .iter()
                .map(|s| s.values.iter().filter(|v| !v.is_nan()).count())
                .sum();
            assert_eq!(wr.len(), values, "{what}");
        }
    }
    assert!(several_groups >= 4, "{several_groups}");
}

#[test]
fn csv_and_tsv_streamed_are_the_whole_read_byte_for_byte() {
    let dir = scratch("streaming-csv");
    for (i, (log, sel)) in cases(&dir).iter().enumerate() {
        for ext in ["csv", "tsv"] {
            let whole = dir.join(format!("{i}-whole.{ext}"));
            let streamed = dir.join(format!("{i}-streamed.{ext}"));
            let a = convert(0, 2000, &args(log, sel, &whole));
            let b = convert(3000, 2000, &args(log, sel, &streamed));
            let what = format!("{} {sel:?} {ext}", log.display());
            assert_eq!(a.status.code(), b.status.code(), "{what}");
            assert_eq!(a.stderr, b.stderr, "{what}");
            assert_eq!(whole.exists(), streamed.exists(), "{what}");
            if !whole.exists() {
                continue;
            }
            let w = std::fs::read(&whole).unwrap();
            assert!(w == std::fs::read(&streamed).unwrap(), "{what}");
            if sel.is_empty() {
                // The core's writer over the whole capture, as `convert` wrote before it streamed.
                let c: Capture =
                    open_capture(&std::fs::read(log).unwrap(), &OpenOptions::default()).unwrap();
                let mut want = Vec::new();
                write_pdh(&c, None, ext == "tsv", &mut want).unwrap();
                assert!(w == want, "{what}");
            }
        }
    }
}

#[test]
fn partitions_streamed_are_the_whole_read() {
    let dir = scratch("streaming-partitions");
    // PAL's sample log spans two UTC days; BasicPerfCounters one.
    for log in ["PAL_SampleLog.blg", "BasicPerfCounters.blg"] {
        let log = vector(log);
        let whole = dir.join(format!("{}-whole/", log.display().to_string().len()));
        let streamed = dir.join(format!("{}-streamed/", log.display().to_string().len()));
        for (out, stream) in [(&whole, 0), (&streamed, 3000)] {
            let o = convert(
                stream,
                1500,
                &[
                    log.to_str().unwrap(),
                    "-o",
                    out.to_str().unwrap(),
                    "--partition",
                    "machine,date",
                ],
            );
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        let list = |d: &Path| {
            let mut v: Vec<PathBuf> = Vec::new();
            let mut stack = vec![d.to_path_buf()];
            while let Some(p) = stack.pop() {
                for e in std::fs::read_dir(&p).unwrap() {
                    let e = e.unwrap().path();
                    if e.is_dir() {
                        stack.push(e);
                    } else {
                        v.push(e.strip_prefix(d).unwrap().to_path_buf());
                    }
                }
            }
            v.sort();
            v
        };
        let files = list(&whole);
        assert_eq!(files, list(&streamed));
        assert!(!files.is_empty());
        for f in &files {
            let (wr, wg) = parquet_rows(&whole.join(f));
            let (sr, sg) = parquet_rows(&streamed.join(f));
            assert_eq!(wg, sg, "{}", f.display());
            assert!(wr == sr, "{}", f.display());
        }
    }
}

#[test]
fn row_groups_end_where_the_values_reach_the_row_group_size() {
    let dir = scratch("streaming-groups");
    let log = dir.join("full.csv");
    // 10 series x 1,000 rows, no gaps: 10 values a row, 10,000 in all.
    generated(&log, 10, 1000, false);
    for (group, want) in [
        // 2,500 values are reached at row 250: four groups of 250 rows x 10 values.
        (2500, vec![2500, 2500, 2500, 2500]),
        // 2,499 are reached at row 250 too (2,490 after 249 rows).
        (2499, vec![2500, 2500, 2500, 2500]),
        // 2,501 at row 251 (2,510 values): three such groups, and 10,000 - 3 x 2,510 = 2,470 left.
        (2501, vec![2510, 2510, 2510, 2470]),
    ] {
        for stream in [0, 4096, 100_000] {
            let out = dir.join(format!("{group}-{stream}.parquet"));
            let o = convert(
                stream,
                group,
                &[log.to_str().unwrap(), "-o", out.to_str().unwrap()],
            );
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            let (rows, groups) = parquet_rows(&out);
            assert_eq!(groups, want, "group {group}, takes of {stream} bytes");
            assert_eq!(rows.len(), 10_000);
            // Within a group, series by series: the first 250 rows of group 1 are series 0's.
            assert!(rows[..250].iter().all(|r| r.3.as_deref() == Some("0")));
            assert_eq!(rows[0].0, rows[1].0 - 1_000_000, "one second apart");
        }
    }
}

/// `convert` under GNU time (`/usr/bin/time -f %M`): its exit status and its peak resident memory in kB.
fn convert_peak(dir: &Path, stream: u64, args: &[&str]) -> (bool, u64) {
    let report = dir.join("peak.txt");
    let status = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o"])
        .arg(&report)
        .arg(env!("CARGO_BIN_EXE_counterlens"))
        .env("COUNTERLENS_STREAM_BYTES", stream.to_string())
        .args(["convert", "-q"])
        .args(args)
        .status()
        .expect("GNU time runs");
    let text = std::fs::read_to_string(&report).unwrap();
    (
        status.success(),
        text.trim().lines().last().unwrap().parse().unwrap(),
    )
}

/// Ignored by default (it writes a 250 MB log and converts it three times: about a minute; it needs GNU
/// time at /usr/bin/time): `cargo test -p counterlens-cli --test streaming -- --ignored`.
#[test]
#[ignore]
fn a_log_many_row_groups_big_converts_in_bounded_memory() {
    let dir = scratch("streaming-memory");
    let log = dir.join("big.csv");
    // 2,000 series x 10,000 rows: 20 M values, 160 MB of f64 columns read whole.
    generated(&log, 2000, 10_000, false);
    let (parquet, csv, whole) = (
        dir.join("big.parquet"),
        dir.join("big-out.csv"),
        dir.join("whole.parquet"),
    );
    let l = log.to_str().unwrap();
    let (ok, to_parquet) = convert_peak(&dir, 8 << 20, &[l, "-o", parquet.to_str().unwrap()]);
    assert!(ok);
    let (ok, to_csv) = convert_peak(&dir, 8 << 20, &[l, "-o", csv.to_str().unwrap()]);
    assert!(ok);
    // The whole read (one take at the end) holds the 160 MB of columns.
    let (ok, read_whole) = convert_peak(&dir, 0, &[l, "-o", whole.to_str().unwrap()]);
    assert!(ok);
    eprintln!(
        "peak RSS: to Parquet {to_parquet} kB, to CSV {to_csv} kB, whole read {read_whole} kB"
    );
    // 2,000 values a row: 1,048,576 are reached at row 525 (1,050,000): 19 groups of 525 rows and
    // 10,000 - 19 x 525 = 25 rows (50,000 values) left.
    let groups = ParquetRecordBatchReaderBuilder::try_new(std::fs::File::open(&parquet).unwrap())
        .unwrap()
        .metadata()
        .row_groups()
        .iter()
        .map(|g| g.num_rows())
        .collect::<Vec<_>>();
    assert_eq!(groups.len(), 20);
    assert!(groups[..19].iter().all(|&n| n == 1_050_000));
    assert_eq!(groups[19], 50_000);
    assert!(read_whole > 160_000, "{read_whole}");
    assert!(to_parquet < 120_000, "{to_parquet}");
    assert!(to_csv < 60_000, "{to_csv}");
    let _ = std::fs::remove_dir_all(&dir);
}
