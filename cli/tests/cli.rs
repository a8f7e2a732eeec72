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

/// `-o DIR` with `--to parquet`: one file per input, written in parallel, named after the input (two
/// inputs of one name from different folders get `-2`); read as one table by DuckDB, every input's
/// values exactly once.
#[test]
fn a_directory_gets_one_parquet_file_per_input() {
    let dir = scratch("parquet-dir");
    let blg = vector("BasicPerfCounters.blg");
    let tsv = vector("relog.tsv");
    let other = dir.join("elsewhere");
    std::fs::create_dir_all(&other).unwrap();
    let tsv_again = other.join("relog.tsv");
    std::fs::copy(&tsv, &tsv_again).unwrap();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = run(bin()
        .args(["convert", "--threads", "2", "--to", "parquet"])
        .args([&blg, &tsv, &tsv_again])
        .arg("-o")
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "BasicPerfCounters.blg.parquet",
            "relog.tsv-2.parquet",
            "relog.tsv.parquet"
        ]
    );
    let Some(python) = python() else { return };
    // Each file holds exactly its input's values (the two relog.tsv files the same ones).
    let got = rows_of(&py(
        &python,
        PYARROW_ROWS,
        &[&out.join("BasicPerfCounters.blg.parquet")],
    ));
    assert_eq!(got, model_rows("BasicPerfCounters.blg", &model(&blg)));
    let want_tsv = model_rows("relog.tsv", &model(&tsv));
    for name in ["relog.tsv.parquet", "relog.tsv-2.parquet"] {
        assert_eq!(
            rows_of(&py(&python, PYARROW_ROWS, &[&out.join(name)])),
            want_tsv
        );
    }
    // DuckDB over the directory: 6000 values of the .blg plus the .tsv's twice.
    let glob = out.join("*.parquet");
    let duck = py(&python, DUCKDB_COUNTS, &[&glob]);
    assert_eq!(
        duck["total"].as_u64().unwrap() as usize,
        6000 + 2 * want_tsv.len()
    );
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
    assert_eq!(b.format_name(), "pdh-tsv");
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
    assert_eq!(b.format_name(), "get-counter-json");
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
    assert!(text(&o.stderr).contains("-c \"Memory\" is not a counter path pattern"));
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

/// The core's own analysis of the same log, to compare the command's output with.
fn core_analysis(
    log: &Path,
    packs: Vec<counterlens::analysis::PackRef>,
) -> counterlens::analysis::Analysis {
    let options = counterlens::analysis::AnalyzeOptions {
        packs: Some(packs),
        ..Default::default()
    };
    counterlens::analysis::analyze(&model(log), &options).unwrap()
}

#[test]
fn analyze_writes_the_core_findings_as_json_and_html_and_fail_on_sets_the_exit_code() {
    use counterlens::analysis::{PackRef, Severity};
    let dir = scratch("analyze");
    let log = vector("PAL_SampleLog.blg");
    let (json, html) = (dir.join("r.json"), dir.join("r.html"));
    let o = run(bin()
        .arg("analyze")
        .arg(&log)
        .args(["--pack", "system-overview", "--json"])
        .arg(&json)
        .arg("--html")
        .arg(&html));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let want = core_analysis(&log, vec![PackRef::Builtin("system-overview".into())]);
    assert!(!want.findings.is_empty());
    let got: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    assert_eq!(got["inputs"][0], log.display().to_string());
    assert_eq!(
        got["findings"],
        serde_json::to_value(&want.findings).unwrap(),
        "the findings the core gives, every field"
    );
    assert_eq!(got["slices"].as_array().unwrap().len(), want.slices.len());
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("PAL_SampleLog.blg") && page.contains(&want.findings[0].title));
    let summary = text(&o.stdout);
    assert!(
        summary.starts_with(&format!(
            "PAL_SampleLog.blg: {} findings",
            want.findings.len()
        )),
        "{summary}"
    );
    // --fail-on: 3 when a finding of that severity or worse exists.
    let worst = want.findings.iter().map(|f| f.severity).max().unwrap();
    assert_eq!(worst, Severity::Critical);
    for level in ["warning", "critical"] {
        let o = run(bin()
            .args([
                "analyze",
                "-q",
                "--pack",
                "system-overview",
                "--fail-on",
                level,
            ])
            .arg(&log));
        assert_eq!(o.status.code(), Some(3), "--fail-on {level}");
    }
    // A pack whose one rule cannot break: no findings, exit 0 even with --fail-on warning.
    let quiet_pack = dir.join("quiet.json");
    std::fs::write(
        &quiet_pack,
        r#"{"id": "quiet", "title": "Quiet", "version": "1", "rules": [{"id": "never", "title": "Never",
            "counter": "\\Memory\\Available MBytes", "kind": "static", "stats": ["avg"],
            "severity": "critical", "operator": "lt", "threshold": -1}]}"#,
    )
    .unwrap();
    let o = run(bin()
        .args(["analyze", "--fail-on", "warning", "--pack"])
        .arg(&quiet_pack)
        .arg(&log));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(": 0 findings"));
}

#[test]
fn analyze_with_pal_threshold_xml_and_one_report_per_input() {
    use counterlens::analysis::PackRef;
    let dir = scratch("analyze-pal");
    let xml = root().join("tests/vectors/pal/SystemOverview.xml");
    let (pal_log, basic) = (vector("PAL_SampleLog.blg"), vector("BasicPerfCounters.blg"));
    let o = run(bin()
        .arg("analyze")
        .args([&pal_log, &basic])
        .arg("--pack")
        .arg(&xml)
        .arg("--json")
        .arg(&dir));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let imported = counterlens::analysis::pal::import_pal(&[(
        "SystemOverview.xml".into(),
        std::fs::read_to_string(&xml).unwrap(),
    )])
    .unwrap();
    assert!(
        err.contains(&format!(
            "SystemOverview.xml: {} of {} PAL thresholds translated",
            imported.translated, imported.total
        )),
        "{err}"
    );
    for log in [&pal_log, &basic] {
        let name = log.file_name().unwrap().to_string_lossy();
        let got: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.join(format!("{name}.json"))).unwrap())
                .unwrap();
        let want = core_analysis(log, vec![PackRef::Pack(imported.pack.clone())]);
        assert_eq!(
            got["findings"],
            serde_json::to_value(&want.findings).unwrap()
        );
        assert_eq!(got["rules"], serde_json::to_value(&want.rules).unwrap());
    }
}

#[test]
fn analyze_bad_packs_and_options_are_named() {
    let dir = scratch("analyze-bad");
    let log = vector("BasicPerfCounters.blg");
    let bad = dir.join("bad-pack.json");
    std::fs::write(&bad, "{\"id\": \"x\", \"rules\": [{\"id\": 3}]}").unwrap();
    let o = run(bin().args(["analyze", "--pack"]).arg(&bad).arg(&log));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("bad-pack.json: rule pack, at "), "{err}");
    let o = run(bin().args(["analyze", "--pack", "no-such-pack"]).arg(&log));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("system-overview"),
        "the built-in ids are listed"
    );
    for (opt, value, says) in [
        (
            "--slice",
            "5 parsecs",
            "--slice \"5 parsecs\": expected auto",
        ),
        ("--var", "novalue", "--var \"novalue\": expected NAME=VALUE"),
    ] {
        let o = run(bin().args(["analyze", opt, value]).arg(&log));
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains(says), "{}", text(&o.stderr));
    }
    let o = run(bin().args(["analyze", "--fail-on", "sometimes"]).arg(&log));
    assert_eq!(o.status.code(), Some(2), "clap refuses an unknown level");
}
