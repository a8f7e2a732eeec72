//! The built `counterlens` binary, run as a user runs it; its Parquet read back with readers that are
//! not ours (pyarrow and DuckDB, from the venv `scripts/setup.sh --test` makes at `target/py`), and every
//! count and value compared with the core's capture model of the same input.

use counterlens::capture::{open_capture, Capture};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_counterlens"))
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn vector(name: &str) -> PathBuf {
    root().join("tests/vectors/captures").join(name)
}

fn model(path: &Path) -> Capture {
    open_capture(&std::fs::read(path).unwrap(), &Default::default()).unwrap()
}

/// A fresh directory under the target dir for one test's files.
fn scratch(name: &str) -> PathBuf {
    let d = root().join("target/cli-tests").join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stderr.contains("panicked"),
        "a panic reached the user: {stderr}"
    );
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The venv's Python with pyarrow and duckdb, or None (with the reason printed) when setup has not
/// installed them. Set COUNTERLENS_REQUIRE_PY=1 to make their absence a failure.
fn python() -> Option<PathBuf> {
    let py = root().join("target/py/bin/python");
    let ok = py.exists()
        && Command::new(&py)
            .args(["-c", "import pyarrow, duckdb"])
            .output()
            .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("COUNTERLENS_REQUIRE_PY").is_none(),
            "target/py has no pyarrow/duckdb"
        );
        eprintln!("SKIPPED: the Parquet read-back needs pyarrow and duckdb in target/py; run `bash scripts/setup.sh --test` (pip must reach PyPI)");
        return None;
    }
    Some(py)
}

fn py(python: &Path, script: &str, args: &[&Path]) -> serde_json::Value {
    let out = Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "python: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)))
}

/// Every row through pyarrow: [time in µs, machine, object, instance, counter, value, source], with
/// the schema's types and each column chunk's compression.
const PYARROW_ROWS: &str = r#"
import sys, json, pyarrow as pa, pyarrow.parquet as pq
f = pq.ParquetFile(sys.argv[1])
t = f.read()
cols = [t.column('time').cast(pa.int64()).to_pylist()] + [
    t.column(n).cast(pa.string()).to_pylist() for n in ('machine', 'object', 'instance', 'counter')
] + [t.column('value').to_pylist(), t.column('source').cast(pa.string()).to_pylist()]
meta = f.metadata
print(json.dumps({
  'schema': {fl.name: [str(fl.type), fl.nullable] for fl in t.schema},
  'compression': sorted({meta.row_group(g).column(c).compression for g in range(meta.num_row_groups) for c in range(meta.num_columns)}),
  'row_groups': meta.num_row_groups,
  'rows': [list(r) for r in zip(*cols)],
}))
"#;

/// Counts through DuckDB's own Parquet reader.
const DUCKDB_COUNTS: &str = r#"
import sys, json, duckdb
f = sys.argv[1]
total = duckdb.sql(f"SELECT count(*) FROM '{f}'").fetchall()[0][0]
per = duckdb.sql(f"SELECT source, machine, object, coalesce(instance, '<none>'), counter, count(*), sum(value) FROM '{f}' GROUP BY ALL ORDER BY ALL").fetchall()
types = duckdb.sql(f"DESCRIBE SELECT * FROM '{f}'").fetchall()
print(json.dumps({'total': total, 'per': per, 'types': {r[0]: r[1] for r in types}}))
"#;

/// The model's rows: (source, machine, object, instance, counter, time µs) -> value, for values that exist.
type Key = (String, String, String, Option<String>, String, i64);

fn model_rows(source: &str, c: &Capture) -> HashMap<Key, f64> {
    let mut m = HashMap::new();
    for s in &c.series {
        let p = &s.parsed;
        let inst = p.instance.as_ref().map(|i| match &p.parent {
            Some(parent) => format!("{parent}/{i}"),
            None => i.clone(),
        });
        for (k, &v) in s.values.iter().enumerate() {
            if !v.is_nan() {
                let t = (c.timestamps[k] * 1000.0).round() as i64;
                m.insert(
                    (
                        source.into(),
                        p.machine.clone(),
                        p.object.clone(),
                        inst.clone(),
                        p.counter.clone(),
                        t,
                    ),
                    v,
                );
            }
        }
    }
    m
}

fn rows_of(v: &serde_json::Value) -> HashMap<Key, f64> {
    let s = |x: &serde_json::Value| x.as_str().unwrap().to_string();
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                (
                    s(&r[6]),
                    s(&r[1]),
                    s(&r[2]),
                    r[3].as_str().map(str::to_string),
                    s(&r[4]),
                    r[0].as_i64().unwrap(),
                ),
                r[5].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn basic_perf_counters_gives_the_6000_values_pdh_gives_read_back_by_pyarrow_and_duckdb() {
    let dir = scratch("blg-parquet");
    let out = dir.join("basic.parquet");
    let blg = vector("BasicPerfCounters.blg");
    let o = run(bin().args(["convert", "-q"]).arg(&blg).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let Some(python) = python() else { return };

    let arrow = py(&python, PYARROW_ROWS, &[&out]);
    let got = rows_of(&arrow);
    let want = model_rows("BasicPerfCounters.blg", &model(&blg));
    // Tx, through Windows PDH: 601 samples, the first gives no value: 600 per counter x 10 = 6000.
    assert_eq!(arrow["rows"].as_array().unwrap().len(), 6000);
    assert_eq!(got.len(), 6000, "no two rows share series and time");
    assert_eq!(
        got, want,
        "every row, key and value, as the capture model has it"
    );

    let schema = &arrow["schema"];
    assert_eq!(
        schema["time"],
        serde_json::json!(["timestamp[us, tz=UTC]", false])
    );
    for col in ["machine", "object", "counter", "source"] {
        assert_eq!(
            schema[col],
            serde_json::json!(["dictionary<values=string, indices=int32, ordered=0>", false]),
            "{col}"
        );
    }
    assert_eq!(
        schema["instance"],
        serde_json::json!(["dictionary<values=string, indices=int32, ordered=0>", true])
    );
    assert_eq!(schema["value"], serde_json::json!(["double", false]));
    assert_eq!(arrow["compression"], serde_json::json!(["ZSTD"]));

    let duck = py(&python, DUCKDB_COUNTS, &[&out]);
    assert_eq!(duck["total"], 6000);
    assert_eq!(duck["types"]["time"], "TIMESTAMP WITH TIME ZONE");
    assert_eq!(duck["types"]["value"], "DOUBLE");
    let per = duck["per"].as_array().unwrap();
    assert_eq!(per.len(), 10, "ten series");
    for r in per {
        assert_eq!(r[5], 600, "{r}");
    }
}

fn gzip(src: &Path, dst: &Path) {
    let mut e = flate2::write::GzEncoder::new(
        std::fs::File::create(dst).unwrap(),
        flate2::Compression::default(),
    );
    e.write_all(&std::fs::read(src).unwrap()).unwrap();
    e.finish().unwrap();
}

#[test]
fn several_inputs_gzip_too_keep_every_row_with_their_source() {
    let dir = scratch("many-parquet");
    let gz = dir.join("relog-pst.csv.gz");
    gzip(&vector("relog-pst.csv"), &gz);
    let blg = vector("BasicPerfCounters.blg");
    let tsv = vector("relog.tsv");
    let out = dir.join("all.parquet");
    let o = run(bin()
        .args(["convert", "--threads", "2"])
        .args([&gz, &blg, &tsv])
        .arg("-o")
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let Some(python) = python() else { return };
    let got = rows_of(&py(&python, PYARROW_ROWS, &[&out]));
    let mut want = model_rows("BasicPerfCounters.blg", &model(&blg));
    want.extend(model_rows(
        "relog-pst.csv.gz",
        &model(&vector("relog-pst.csv")),
    ));
    want.extend(model_rows("relog.tsv", &model(&tsv)));
    assert_eq!(got, want);
    let duck = py(&python, DUCKDB_COUNTS, &[&out]);
    // relog-pst.csv: 3 rows x 3 series with 2 gaps = 7 values.
    let csv_rows: i64 = duck["per"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r[0] == "relog-pst.csv.gz")
        .map(|r| r[5].as_i64().unwrap())
        .sum();
    assert_eq!(csv_rows, 7);
    assert_eq!(duck["total"].as_u64().unwrap() as usize, want.len());
}

#[test]
fn csv_out_is_relog_csv_that_reads_back_to_the_same_values() {
    let dir = scratch("csv");
    let blg = vector("BasicPerfCounters.blg");
    let out = dir.join("basic.csv");
    let o = run(bin().arg("convert").arg(&blg).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.starts_with("\"(PDH-CSV 4.0) (UTC-08:00)(480)\",\"\\\\GEORGIS3\\"),
        "{}",
        &written[..80]
    );
    let (a, b) = (model(&blg), model(&out));
    assert_eq!(a.timestamps.len(), b.timestamps.len());
    for (x, y) in a.timestamps.iter().zip(&b.timestamps) {
        assert!((x - y).abs() <= 0.5, "times to the millisecond: {x} {y}");
    }
    for (s, t) in a.series.iter().zip(&b.series) {
        assert_eq!(s.path, t.path);
        for (v, w) in s.values.iter().zip(&t.values) {
            assert!(v == w || (v.is_nan() && w.is_nan()), "{}: {v} {w}", s.path);
        }
    }
}

#[test]
fn filters_time_window_every_nth_and_tsv() {
    let dir = scratch("filters");
    let blg = vector("BasicPerfCounters.blg");
    let a = model(&blg);
    let list = dir.join("counters.txt");
    std::fs::write(&list, "# relog -cf list\n\n\\Memory\\*\n").unwrap();
    let out = dir.join("cut.tsv");
    // The log is in UTC-08:00: 2/19/2013 18:51:00 local is 2013-02-20T02:51:00Z.
    let o = run(bin()
        .arg("convert")
        .arg(&blg)
        .args(["-c", r"\processor(_total)\*", "--cf"])
        .arg(&list)
        .args([
            "--begin",
            "2/19/2013 18:51:00",
            "--end",
            "2013-02-20T02:52:00Z",
            "--every",
            "10",
        ])
        .arg("-o")
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let b = model(&out);
    assert_eq!(b.format, "pdh-tsv");
    let kept: Vec<&str> = b.series.iter().map(|s| s.path.as_str()).collect();
    let want: Vec<&str> = a
        .series
        .iter()
        .map(|s| s.path.as_str())
        .filter(|p| {
            let l = p.to_lowercase();
            l.contains("\\memory\\") || l.contains("\\processor(_total)\\")
        })
        .collect();
    assert!(!want.is_empty());
    assert_eq!(kept, want);
    // 1-second samples from 18:50:17.844: the window 18:51:00..=18:52:00 holds 18:51:00.8xx to
    // 18:51:59.8xx, 60 samples; every 10th of them: 6.
    let lo = 1_361_328_660_000.0; // 2013-02-20T02:51:00Z: day 15756 * 86400000 + 2:51:00 (10260000 ms)
    let first = a.timestamps.iter().position(|&t| t >= lo).unwrap();
    assert_eq!(b.timestamps.len(), 6);
    for (n, t) in b.timestamps.iter().enumerate() {
        assert!((t - a.timestamps[first + 10 * n]).abs() <= 0.5);
    }
}

#[test]
fn inputs_of_one_machine_are_appended_and_overlaps_reported() {
    let dir = scratch("merge");
    let csv = vector("relog-pst.csv");
    let (p1, p2, all) = (dir.join("1.csv"), dir.join("2.csv"), dir.join("all.csv"));
    for (p, opt, t) in [
        (&p1, "--end", "11/21/2026 12:00:01"),
        (&p2, "--begin", "11/21/2026 12:00:01"),
    ] {
        let o = run(bin()
            .arg("convert")
            .arg(&csv)
            .args([opt, t])
            .arg("-o")
            .arg(p));
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let o = run(bin().arg("convert").args([&p2, &p1]).arg("-o").arg(&all));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("2.csv and 1.csv overlap") && err.contains("machine WEB01"),
        "{err}"
    );
    let (a, b) = (model(&csv), model(&all));
    assert_eq!(a.timestamps, b.timestamps, "appended in time order");
    for (s, t) in a.series.iter().zip(&b.series) {
        for (v, w) in s.values.iter().zip(&t.values) {
            assert!(v == w || (v.is_nan() && w.is_nan()));
        }
    }
}

#[test]
fn json_out_is_get_counter_shaped_and_recooks_from_its_raw_samples() {
    let dir = scratch("json");
    let src = vector("get-counter-ps51.json");
    let out = dir.join("out.json");
    let o = run(bin().arg("convert").arg(&src).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (a, b) = (model(&src), model(&out));
    assert_eq!(b.format, "get-counter-json");
    assert_eq!(a.timestamps, b.timestamps);
    assert_eq!(a.series.len(), b.series.len());
    for (s, t) in a.series.iter().zip(&b.series) {
        assert_eq!(s.path, t.path);
        for (v, w) in s.values.iter().zip(&t.values) {
            assert!(v == w || (v.is_nan() && w.is_nan()), "{}: {v} {w}", s.path);
        }
    }
    // A log without raw samples: CookedValue only, read back as given.
    let blg = vector("BasicPerfCounters.blg");
    let out = dir.join("basic.json");
    let o = run(bin().arg("convert").arg(&blg).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let (a, b) = (model(&blg), model(&out));
    assert_eq!(a.timestamps, b.timestamps);
    assert!(b.notes.iter().any(|n| n.code == "cooked-only"));
    for (s, t) in a.series.iter().zip(&b.series) {
        assert_eq!(s.path, t.path);
        for (v, w) in s.values.iter().zip(&t.values) {
            assert!(v == w || (v.is_nan() && w.is_nan()), "{}: {v} {w}", s.path);
        }
    }
}

#[test]
fn bad_inputs_name_the_file_and_place_and_the_others_are_still_converted() {
    let dir = scratch("bad");
    let bad = vector("bad-number.csv");
    let good = vector("relog-pst.csv");
    let missing = dir.join("missing.blg");
    let broken_gz = dir.join("cut.csv.gz");
    gzip(&good, &broken_gz);
    let b = std::fs::read(&broken_gz).unwrap();
    std::fs::write(&broken_gz, &b[..b.len() / 2]).unwrap();
    let hostile = dir.join("<script>.csv");
    std::fs::write(&hostile, "<script>alert(1)</script>").unwrap();
    let out = dir.join("out.parquet");
    let o = run(bin()
        .arg("convert")
        .args([&bad, &good, &missing, &broken_gz, &hostile])
        .arg("-o")
        .arg(&out));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("bad-number.csv: line 2, column 27"), "{err}");
    assert!(err.contains("missing.blg: "), "{err}");
    assert!(err.contains("cut.csv.gz: "), "{err}");
    assert!(
        err.contains("<script>.csv: line 1, column 1: expected a perfmon log"),
        "{err}"
    );
    assert!(err.contains("4 of 5 inputs failed"), "{err}");
    assert!(out.exists(), "the good input was still converted");
    if let Some(python) = python() {
        let duck = py(&python, DUCKDB_COUNTS, &[&out]);
        assert_eq!(duck["total"], 7);
    }
    // The same through info, as JSON: one entry per file, errors among them.
    let o = run(bin().args(["info", "--json"]).args([&good, &bad]));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["values"], 7);
    assert!(v[1]["error"]
        .as_str()
        .unwrap()
        .contains("line 2, column 27"));
}

#[test]
fn usage_errors_get_clap_usage_and_exit_2() {
    for args in [
        vec!["convert", "--bogus"],
        vec!["convert", "x.csv"],
        vec!["frobnicate"],
        vec!["convert", "x.csv", "-o", "y.csv", "--every", "0"],
    ] {
        let o = run(bin().args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains("Usage") || text(&o.stderr).contains("error"),
            "{args:?}"
        );
    }
    let o = run(bin().args(["convert", "x.csv", "-o", "y.csv", "--begin", "soon"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("--begin \"soon\": expected ISO 8601"));
    let o = run(bin().args(["convert", "x.csv", "-o", "y.csv", "-c", "Memory"]));
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).contains("-c \"Memory\": not a counter path pattern"));
}

#[test]
fn info_json_describes_each_log() {
    let o = run(bin()
        .args(["info", "--json"])
        .arg(vector("BasicPerfCounters.blg"))
        .arg(vector("relog-pst.csv")));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[0]["format"], "blg");
    assert_eq!(v[0]["machines"], serde_json::json!(["GEORGIS3"]));
    assert_eq!(v[0]["samples"], 601);
    assert_eq!(v[0]["series"], 10);
    assert_eq!(v[0]["values"], 6000);
    assert_eq!(v[0]["intervalSeconds"], 1.0);
    assert_eq!(v[0]["first"], "2013-02-19T18:50:17.844-08:00");
    assert_eq!(v[1]["timeZone"]["biasMinutes"], 480);
    // relog-pst.csv: times 0, 1, 2.5 s: intervals 1 and 1.5, median 1.25.
    assert_eq!(v[1]["intervalSeconds"], 1.25);
    let o = run(bin().arg("info").arg(vector("relog-pst.csv")));
    let t = text(&o.stdout);
    assert!(
        t.contains("format:    pdh-csv") && t.contains("time zone: Pacific Standard Time"),
        "{t}"
    );
}

#[test]
fn check_validates_registrations_and_exits_1_on_any_error() {
    let reg = root().join("tests/vectors/registration");
    let o = run(bin()
        .arg("check")
        .args(["rich.hex", "rich.json", "rich.man"].map(|f| reg.join(f))));
    assert!(o.status.success(), "{}", text(&o.stdout));
    let dir = scratch("check");
    let bad = dir.join("bad.json");
    std::fs::write(
        &bad,
        r#"{"counterSets": [{"guid": "not-a-guid", "counters": [{"counterId": 1, "type": "nonsense"}]}]}"#,
    )
    .unwrap();
    let o = run(bin()
        .args(["check", "--json"])
        .arg(&bad)
        .arg(reg.join("rich.json")));
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v[0]["errors"].as_u64().unwrap() > 0, "{v}");
    assert_eq!(v[1]["errors"], 0);
    let d = &v[0]["diagnostics"][0];
    assert!(
        d["line"].as_u64().is_some() && d["message"].as_str().is_some(),
        "{d}"
    );
}
