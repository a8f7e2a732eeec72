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
    let want = model_rows("captures/BasicPerfCounters.blg", &model(&blg));
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
    for col in ["instance", "object_en", "counter_en"] {
        assert_eq!(
            schema[col],
            serde_json::json!(["dictionary<values=string, indices=int32, ordered=0>", true]),
            "{col}"
        );
    }
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
    // Named below the inputs' common folder (the repository: one input is under target/).
    let mut want = model_rows("tests/vectors/captures/BasicPerfCounters.blg", &model(&blg));
    want.extend(model_rows(
        "target/cli-tests/many-parquet/relog-pst.csv.gz",
        &model(&vector("relog-pst.csv")),
    ));
    want.extend(model_rows("tests/vectors/captures/relog.tsv", &model(&tsv)));
    assert_eq!(got, want);
    let duck = py(&python, DUCKDB_COUNTS, &[&out]);
    // relog-pst.csv: 3 rows x 3 series with 2 gaps = 7 values.
    let csv_rows: i64 = duck["per"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r[0] == "target/cli-tests/many-parquet/relog-pst.csv.gz")
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
        err.contains("merge/2.csv and merge/1.csv overlap") && err.contains("machine WEB01"),
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
fn a_folder_stands_for_the_logs_under_it_and_not_for_the_command_s_own_output() {
    // logs/WEB01/a.blg, logs/b.csv.gz and logs/c.csv are logs; logs/notes.md is no log by its name,
    // logs/.old/d.csv is hidden: three inputs, in name order level by level (WEB01/ sorts before b).
    let d = scratch("folder-input");
    let logs = d.join("logs");
    std::fs::create_dir_all(logs.join("WEB01")).unwrap();
    std::fs::create_dir_all(logs.join(".old")).unwrap();
    std::fs::copy(vector("BasicPerfCounters.blg"), logs.join("WEB01/a.blg")).unwrap();
    gzip(&vector("relog-pst.csv"), &logs.join("b.csv.gz"));
    std::fs::copy(vector("typeperf.csv"), logs.join("c.csv")).unwrap();
    std::fs::copy(vector("typeperf.csv"), logs.join(".old/d.csv")).unwrap();
    std::fs::write(logs.join("notes.md"), "not a log").unwrap();
    let o = run(bin().args(["info", "--json"]).arg(&logs));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let files: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["file"].as_str().unwrap())
        .collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].ends_with("logs/WEB01/a.blg"), "{files:?}");
    assert!(files[1].ends_with("logs/b.csv.gz"), "{files:?}");
    assert!(files[2].ends_with("logs/c.csv"), "{files:?}");
    // The same folder given to analyze, twice, with the JSON written inside it: the second run does
    // not read the first run's JSON (which a .json name would make a log) and sees the same 3 logs.
    for _ in 0..2 {
        let o = run(bin()
            .args(["analyze", "-q", "--json"])
            .arg(logs.join("out/"))
            .arg(&logs));
        assert!(o.status.success(), "{}", text(&o.stderr));
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(logs.join("out/index.json")).unwrap()).unwrap();
        let inputs: usize = index
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["inputs"].as_array().unwrap().len())
            .sum();
        assert_eq!(inputs, 3, "{index}");
    }
    // convert over the same folder: analyze's reports in logs/out/ (JSON, by name a log) are left out
    // with a warning naming each, not read as failed logs; its own output file is not taken as an input
    // on the next run: both runs merge the same 3 logs (the second replaces the first's file).
    for _ in 0..2 {
        let o = run(bin()
            .args(["convert", "-q", "--overwrite", "-o"])
            .arg(logs.join("all.csv"))
            .arg(&logs));
        let e = text(&o.stderr);
        assert!(o.status.success(), "{e}");
        assert!(
            e.contains("warning: left out, it does not read as a log:")
                && e.contains("out/index.json: line 1, column 1"),
            "{e}"
        );
        assert!(!e.contains("all.csv"), "{e}");
    }
    // A folder with no log under it: a usage error (exit 2) that says what was looked for.
    std::fs::create_dir_all(d.join("empty")).unwrap();
    let o = run(bin().arg("info").arg(d.join("empty")));
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(
        e.contains("empty: no log in this folder") && e.contains(".blg"),
        "{e}"
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
            "captures/PAL_SampleLog.blg: {} findings",
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
        let got: serde_json::Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!("captures/{name}.json"))).unwrap(),
        )
        .unwrap();
        let want = core_analysis(log, vec![PackRef::Pack(imported.pack.clone())]);
        assert_eq!(
            got["findings"],
            serde_json::to_value(&want.findings).unwrap()
        );
        assert_eq!(got["rules"], serde_json::to_value(&want.rules).unwrap());
    }
}

/// The fleet's collection layout (docs/fleet.md): the same file name in every server's folder. WEB01
/// holds BasicPerfCounters.blg, WEB02 PAL_SampleLog.blg.
fn fleet(dir: &Path) -> (PathBuf, PathBuf) {
    let (a, b) = (
        dir.join("perflogs/WEB01/fleet_11160000.blg"),
        dir.join("perflogs/WEB02/fleet_11160000.blg"),
    );
    for (p, v) in [(&a, "BasicPerfCounters.blg"), (&b, "PAL_SampleLog.blg")] {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::copy(vector(v), p).unwrap();
    }
    (a, b)
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(
                    p.strip_prefix(dir)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
            }
        }
    }
    out.sort();
    out
}

/// Same-named logs in two server folders give two outputs and two sources; a re-run refuses to
/// overwrite (and reads nothing), `--overwrite` replaces only the file of the log given.
#[test]
fn same_named_logs_of_two_servers_never_collide_and_are_never_overwritten_silently() {
    let dir = scratch("fleet-names");
    let (web01, web02) = fleet(&dir);
    // `-o DIR/`: a directory that does not exist yet, Parquet by default.
    let out = dir.join("fleet/2026-w47/");
    let o = run(bin()
        .current_dir(&dir)
        .args(["convert", "--threads", "2"])
        .args([&web01, &web02])
        .arg("-o")
        .arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        files_under(&out),
        [
            "WEB01/fleet_11160000.blg.parquet",
            "WEB02/fleet_11160000.blg.parquet"
        ]
    );
    let first = std::fs::read(out.join("WEB01/fleet_11160000.blg.parquet")).unwrap();
    // WEB02 again, alone: the same name as in the run over both; it exists, so nothing happens.
    let o = run(bin().arg("convert").arg(&web02).arg("-o").arg(&out));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "WEB02/fleet_11160000.blg.parquet: the file exists; give --overwrite to replace it"
        ) && err.contains("nothing was read or written"),
        "{err}"
    );
    let o = run(bin()
        .arg("convert")
        .arg(&web02)
        .arg("-o")
        .arg(&out)
        .arg("--overwrite"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        std::fs::read(out.join("WEB01/fleet_11160000.blg.parquet")).unwrap(),
        first,
        "WEB01's file is untouched"
    );
    assert_eq!(files_under(&out).len(), 2);
    // A directory in another format: a file per input, named alike.
    let csvs = dir.join("csv/");
    let o = run(bin()
        .args(["convert", "--to", "csv"])
        .args([&web01, &web02])
        .arg("-o")
        .arg(&csvs));
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        files_under(&csvs),
        [
            "WEB01/fleet_11160000.blg.csv",
            "WEB02/fleet_11160000.blg.csv"
        ]
    );
    assert_eq!(
        model(&csvs.join("WEB02/fleet_11160000.blg.csv"))
            .timestamps
            .len(),
        model(&web02).timestamps.len()
    );
    // One file: parent folders are made; a second run refuses to overwrite it.
    let one = dir.join("merged/2026-w47.parquet");
    for expected in [Some(0), Some(1)] {
        let o = run(bin()
            .arg("convert")
            .args([&web01, &web02])
            .arg("-o")
            .arg(&one));
        assert_eq!(o.status.code(), expected, "{}", text(&o.stderr));
    }
    let Some(python) = python() else { return };
    // Every row of each server's log, with its relative path as source; DuckDB over the directory.
    let glob = out.join("*/*.parquet");
    let duck = py(&python, DUCKDB_COUNTS, &[&glob]);
    let mut sources: Vec<(String, i64)> = Vec::new();
    for r in duck["per"].as_array().unwrap() {
        let s = r[0].as_str().unwrap().to_string();
        match sources.last_mut() {
            Some((last, n)) if *last == s => *n += r[5].as_i64().unwrap(),
            _ => sources.push((s, r[5].as_i64().unwrap())),
        }
    }
    let pal_values: usize = model_rows("x", &model(&vector("PAL_SampleLog.blg"))).len();
    assert_eq!(
        sources,
        [
            ("WEB01/fleet_11160000.blg".to_string(), 6000),
            ("WEB02/fleet_11160000.blg".to_string(), pal_values as i64)
        ]
    );
    let got = rows_of(&py(&python, PYARROW_ROWS, &[&one]));
    let mut want = model_rows("WEB01/fleet_11160000.blg", &model(&web01));
    want.extend(model_rows("WEB02/fleet_11160000.blg", &model(&web02)));
    assert_eq!(got, want);
}

/// `--partition machine,date`: hive folders per machine and UTC day, which DuckDB reads as columns and
/// prunes on.
#[test]
fn partitions_are_hive_folders_that_duckdb_reads() {
    let dir = scratch("fleet-partition");
    let (web01, web02) = fleet(&dir);
    let out = dir.join("fleet/");
    let o = run(bin()
        .arg("convert")
        .args([&web01, &web02])
        .arg("-o")
        .arg(&out)
        .args(["--partition", "machine,date"]));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let files = files_under(&out);
    // BasicPerfCounters.blg: GEORGIS3, 2013-02-20 02:50 to 03:00 UTC (one day).
    assert!(
        files.contains(
            &"machine=GEORGIS3/date=2013-02-20/WEB01__fleet_11160000.blg.parquet".to_string()
        ),
        "{files:?}"
    );
    let pal = model(&web02);
    let days: std::collections::BTreeSet<String> = pal
        .timestamps
        .iter()
        .map(|&t| {
            // Days since the epoch to a date: the civil calendar of the core.
            let d = (t / 86_400_000.0).floor() as i64;
            let (y, m, dd) = counterlens::civil::civil_from_days(d);
            format!("{y:04}-{m:02}-{dd:02}")
        })
        .collect();
    let pal_machine = &pal.series[0].parsed.machine;
    for day in &days {
        assert!(
            files.contains(&format!(
                "machine={pal_machine}/date={day}/WEB02__fleet_11160000.blg.parquet"
            )),
            "{files:?}"
        );
    }
    assert_eq!(files.len(), 1 + days.len());
    let Some(python) = python() else { return };
    let q = r#"
import sys, json, duckdb
g = sys.argv[1]
rel = f"read_parquet('{g}', hive_partitioning = true)"
per = duckdb.sql(f"SELECT machine, CAST(date AS VARCHAR), count(*) FROM {rel} GROUP BY ALL ORDER BY ALL").fetchall()
one = duckdb.sql(f"SELECT count(*) FROM {rel} WHERE date = DATE '2013-02-20' AND machine = 'GEORGIS3'").fetchall()[0][0]
print(json.dumps({'per': per, 'one': one}))
"#;
    let v = py(&python, q, &[&out.join("**/*.parquet")]);
    assert_eq!(v["one"], 6000, "{v}");
    let total: i64 = v["per"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[2].as_i64().unwrap())
        .sum();
    assert_eq!(total as usize, 6000 + model_rows("x", &pal).len());
}

/// Notes that mean lost data are printed by convert and analyze, `-q` or not; `--strict` exits 1. A
/// .blg cut at a buffer boundary is known as truncated from its header's count of buffers.
#[test]
fn lost_data_is_always_said_and_strict_fails_on_it() {
    let dir = scratch("strict");
    let b = std::fs::read(vector("PAL_SampleLog.blg")).unwrap();
    let (edge, inside) = (dir.join("edge.blg"), dir.join("inside.blg"));
    // PAL_SampleLog.blg is closed (it has a trailer) and 7 buffers of 64 KiB: cut after 6, and inside the 7th.
    std::fs::write(&edge, &b[..6 * 0x1_0000]).unwrap();
    std::fs::write(&inside, &b[..6 * 0x1_0000 + 0x1234]).unwrap();
    let whole = vector("PAL_SampleLog.blg");
    let o = run(bin()
        .args(["convert", "-q"])
        .arg(&whole)
        .arg("-o")
        .arg(dir.join("whole.csv")));
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(text(&o.stderr), "", "a closed, whole log: nothing to say");
    for (cut, says) in [
        (&edge, "edge.blg: data lost: [truncated] the file is truncated at byte 393216 (a buffer boundary): its header says 7 buffers"),
        (&inside, "inside.blg: data lost: [truncated] the file is truncated at byte 397876 (4660 bytes into buffer 6"),
    ] {
        let o = run(bin()
            .args(["convert", "-q"])
            .arg(cut)
            .arg("-o")
            .arg(cut.with_extension("parquet")));
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        assert!(text(&o.stderr).contains(says), "{}", text(&o.stderr));
        let o = run(bin()
            .args(["convert", "-q", "--strict", "--overwrite"])
            .arg(cut)
            .arg("-o")
            .arg(cut.with_extension("parquet")));
        assert_eq!(o.status.code(), Some(1));
        assert!(
            text(&o.stderr).contains("--strict: 1 inputs lost data"),
            "{}",
            text(&o.stderr)
        );
        let o = run(bin()
            .args(["analyze", "-q", "--pack", "system-overview", "--strict"])
            .arg(cut));
        assert_eq!(o.status.code(), Some(1));
        assert!(text(&o.stderr).contains(says), "{}", text(&o.stderr));
    }
}

/// A .blg without a trailer whose buffers are all whole (BasicPerfCounters: Microsoft's sample, which
/// Windows reads whole) lost nothing: no "data lost", and `--strict` passes.
#[test]
fn a_log_only_not_closed_lost_nothing() {
    let dir = scratch("not-closed");
    let log = vector("BasicPerfCounters.blg");
    for args in [
        vec!["convert", "-q", "--strict"],
        vec!["analyze", "-q", "--strict", "--pack", "system-overview"],
    ] {
        let mut cmd = bin();
        cmd.args(&args).arg(&log);
        if args[0] == "convert" {
            cmd.arg("-o").arg(dir.join("basic.parquet"));
        } else {
            cmd.arg("--json").arg(dir.join("basic.json"));
        }
        let o = run(&mut cmd);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", text(&o.stderr));
        assert!(
            !text(&o.stderr).contains("data lost"),
            "{}",
            text(&o.stderr)
        );
    }
}

/// Messages that say what happened: a pack that is a log, `check` on a log, a filter that matches
/// nothing, every input failing (no empty file left), a CSV merge of many machines.
#[test]
fn messages_say_what_the_file_is_and_what_was_not_written() {
    let dir = scratch("messages");
    let log = vector("PAL_SampleLog.blg");
    let junk = dir.join("junk.blg");
    std::fs::copy(&log, &junk).unwrap();
    let o = run(bin().args(["analyze", "--pack"]).arg(&junk).arg(&log));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("junk.blg: this is a performance log (blg), not a rule pack"),
        "{}",
        text(&o.stderr)
    );
    let o = run(bin().arg("check").arg(&junk));
    assert_eq!(o.status.code(), Some(1));
    let all = text(&o.stdout) + &text(&o.stderr);
    assert_eq!(
        all.matches("this is a performance log (blg), not a registration")
            .count(),
        1,
        "{all}"
    );
    assert!(all.lines().count() <= 3, "{all}");
    // A filter that keeps nothing of one input: a warning naming it; the other is written.
    let csv = vector("relog-pst.csv");
    let out = dir.join("mem.csv");
    let o = run(bin()
        .arg("convert")
        .args([&log, &csv])
        .args(["-c", r"\\WEB01\Memory\*", "-o"])
        .arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("warning: captures/PAL_SampleLog.blg: no series matches the counter filter")
            && !err.contains("relog-pst.csv: no series"),
        "{err}"
    );
    // Nothing kept at all: no file, exit 1.
    let none = dir.join("none.parquet");
    let o = run(bin()
        .arg("convert")
        .arg(&log)
        .args(["--begin", "2030-01-01T00:00:00Z", "-o"])
        .arg(&none));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("no sample in the time window")
            && text(&o.stderr).contains("nothing was written"),
        "{}",
        text(&o.stderr)
    );
    assert!(!none.exists());
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".partial")));
    // Every input failed: no file.
    let o = run(bin()
        .arg("convert")
        .arg(vector("bad-number.csv"))
        .arg("-o")
        .arg(&none));
    assert_eq!(o.status.code(), Some(1));
    assert!(!none.exists());
    // Two machines merged side by side in CSV: most cells empty, said with the figures. relog-pst.csv
    // (WEB01: 3 samples of 3 series, 7 values) and the same as WEB02 a day later share no time: 6 rows
    // x 6 columns = 36 cells, 14 values, 22 (61%) empty.
    let web02 = dir.join("web02.csv");
    std::fs::write(
        &web02,
        std::fs::read_to_string(&csv)
            .unwrap()
            .replace("WEB01", "WEB02")
            .replace("11/21/2026", "11/22/2026"),
    )
    .unwrap();
    let o = run(bin()
        .arg("convert")
        .args([&csv, &web02])
        .arg("-o")
        .arg(dir.join("side.csv")));
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o.stderr).contains(
            "warning: the merged table has 6 columns and 36 cells, 22 of them (61%) empty: the 2 inputs"
        ),
        "{}",
        text(&o.stderr)
    );
}

/// English names beside the written ones: one query covers a Spanish and an English server.
#[test]
fn parquet_has_english_names_for_localized_logs() {
    let dir = scratch("english");
    let es = dir.join("es.csv");
    std::fs::write(
        &es,
        "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\SRV1\\Procesador(_Total)\\% de tiempo de procesador\",\"\\\\SRV1\\Mi objeto\\Mi contador\"\r\n\
\"11/21/2026 12:00:00.000\",\"10\",\"1\"\r\n\
\"11/21/2026 12:00:01.000\",\"20\",\"2\"\r\n",
    )
    .unwrap();
    let en = vector("relog-pst.csv");
    let out = dir.join("all.parquet");
    let o = run(bin().arg("convert").args([&es, &en]).arg("-o").arg(&out));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let Some(python) = python() else { return };
    let q = r#"
import sys, json, duckdb
f = sys.argv[1]
rows = duckdb.sql(f"SELECT machine, object, counter, object_en, counter_en, count(*) FROM '{f}' GROUP BY ALL ORDER BY ALL").fetchall()
cpu = duckdb.sql(f"SELECT machine, avg(value) FROM '{f}' WHERE object_en = 'Processor' AND counter_en = '% Processor Time' GROUP BY ALL ORDER BY ALL").fetchall()
print(json.dumps({'rows': rows, 'cpu': cpu}))
"#;
    let v = py(&python, q, &[&out]);
    assert_eq!(
        v["rows"],
        serde_json::json!([
            ["SRV1", "Mi objeto", "Mi contador", null, null, 2],
            [
                "SRV1",
                "Procesador",
                "% de tiempo de procesador",
                "Processor",
                "% Processor Time",
                2
            ],
            [
                "WEB01",
                "Memory",
                "Available Bytes",
                "Memory",
                "Available Bytes",
                2
            ],
            [
                "WEB01",
                "PhysicalDisk",
                "Disk Reads/sec",
                "PhysicalDisk",
                "Disk Reads/sec",
                2
            ],
            [
                "WEB01",
                "Processor",
                "% Processor Time",
                "Processor",
                "% Processor Time",
                3
            ]
        ])
    );
    // SRV1: (10 + 20) / 2 = 15; WEB01: relog-pst.csv's (12.5 + 100.000000000000021 + 350) / 3, the
    // middle value being 100 as a double.
    assert_eq!(v["cpu"][0], serde_json::json!(["SRV1", 15.0]));
    let web01 = v["cpu"][1][1].as_f64().unwrap();
    assert!((web01 - (12.5 + 100.0 + 350.0) / 3.0).abs() < 1e-12);
}

/// analyze: one analysis per log by default (its own slices), an index over them; logs of one machine
/// that follow each other are one analysis; `--merge` merges all; a report file for several is refused.
#[test]
fn analyze_gives_one_analysis_per_log_and_an_index() {
    use counterlens::analysis::PackRef;
    let dir = scratch("analyze-each");
    let (basic, pal) = (vector("BasicPerfCounters.blg"), vector("PAL_SampleLog.blg"));
    let (html, json) = (dir.join("html/"), dir.join("json/"));
    let o = run(bin()
        .args(["analyze", "-q", "--pack", "system-overview"])
        .args([&basic, &pal])
        .arg("--html")
        .arg(&html)
        .arg("--json")
        .arg(&json));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let pack = || vec![PackRef::Builtin("system-overview".into())];
    let (want_b, want_p) = (core_analysis(&basic, pack()), core_analysis(&pal, pack()));
    let out = text(&o.stdout);
    for (name, want) in [
        ("BasicPerfCounters.blg", &want_b),
        ("PAL_SampleLog.blg", &want_p),
    ] {
        assert!(
            out.contains(&format!(
                "captures/{name}: {} findings",
                want.findings.len()
            )),
            "{out}"
        );
        let got: serde_json::Value = serde_json::from_slice(
            &std::fs::read(json.join(format!("captures/{name}.json"))).unwrap(),
        )
        .unwrap();
        // Each log analysed alone: the core's analysis of that log, its own slices.
        assert_eq!(
            got["findings"],
            serde_json::to_value(&want.findings).unwrap()
        );
        assert_eq!(got["slices"].as_array().unwrap().len(), want.slices.len());
        assert!(html.join(format!("captures/{name}.html")).exists());
    }
    let index: serde_json::Value =
        serde_json::from_slice(&std::fs::read(json.join("index.json")).unwrap()).unwrap();
    assert_eq!(index.as_array().unwrap().len(), 2);
    let e = &index[1];
    assert_eq!(e["title"], "captures/PAL_SampleLog.blg");
    assert_eq!(e["data"], "captures/PAL_SampleLog.blg.json");
    let crit = want_p
        .findings
        .iter()
        .filter(|f| f.severity == counterlens::analysis::Severity::Critical)
        .count();
    assert_eq!(e["critical"], crit);
    assert_eq!(e["warning"], want_p.findings.len() - crit);
    let by_cat: u64 = e["categories"]
        .as_object()
        .unwrap()
        .values()
        .map(|c| c["critical"].as_u64().unwrap() + c["warning"].as_u64().unwrap())
        .sum();
    assert_eq!(by_cat as usize, want_p.findings.len());
    // The time range as `info` gives it (the log's own zone).
    let info: serde_json::Value =
        serde_json::from_slice(&run(bin().args(["info", "--json"]).arg(&pal)).stdout).unwrap();
    assert_eq!(
        (&e["first"], &e["last"]),
        (&info[0]["first"], &info[0]["last"])
    );
    assert!(e["first"].as_str().unwrap().starts_with("20"), "{e}");
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(
        page.contains("<a href=\"captures/PAL_SampleLog.blg.html\">captures/PAL_SampleLog.blg</a>"),
        "{page}"
    );
    // One report file for two analyses: a usage error that says what to do.
    let o = run(bin()
        .args(["analyze", "-q"])
        .args([&basic, &pal])
        .arg("--html")
        .arg(dir.join("report.html")));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("give --merge"),
        "{}",
        text(&o.stderr)
    );
    // --merge: one analysis of both.
    let o = run(bin()
        .args(["analyze", "-q", "--merge", "--pack", "system-overview"])
        .args([&basic, &pal]));
    assert_eq!(o.status.code(), Some(0));
    assert!(text(&o.stdout).starts_with("captures/BasicPerfCounters.blg and 1 more: "));
    // relog-pst.csv cut in two: one machine, the second half right after the first: one analysis.
    let csv = vector("relog-pst.csv");
    let (p1, p2) = (dir.join("day1.csv"), dir.join("day2.csv"));
    for (p, opt, t) in [
        (&p1, "--end", "11/21/2026 12:00:01"),
        (&p2, "--begin", "11/21/2026 12:00:02"),
    ] {
        let o = run(bin()
            .arg("convert")
            .arg(&csv)
            .args([opt, t])
            .arg("-o")
            .arg(p));
        assert!(o.status.success(), "{}", text(&o.stderr));
    }
    let o = run(bin().args(["analyze", "-q"]).args([&p1, &p2]));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(
        out.starts_with("analyze-each/day1.csv and 1 more: "),
        "{out}"
    );
    assert!(!out.contains("analyses:"), "{out}");
}

/// The progress bar on a terminal (a pseudo-terminal made by `script`): files done of the total, and
/// 100% at the end.
#[test]
fn progress_on_a_terminal_ends_at_100_percent() {
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        eprintln!("SKIPPED: no /usr/bin/script to make a pseudo-terminal");
        return;
    }
    let dir = scratch("progress");
    let (web01, web02) = fleet(&dir);
    let cmd = format!(
        "{} convert {} {} -o {}",
        env!("CARGO_BIN_EXE_counterlens"),
        web01.display(),
        web02.display(),
        dir.join("out/").display()
    );
    let o = run(Command::new(script).args(["-qec", &cmd, "/dev/null"]));
    let all = text(&o.stdout);
    assert!(o.status.success(), "{all}");
    assert!(all.contains("100%") && all.contains("2/2 files"), "{all}");
}

/// The exit codes table of the README: every row's example, run in a folder holding the files it names,
/// exits with that row's code.
#[test]
fn every_row_of_the_readme_exit_code_table_holds() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("### Exit codes")
        .expect("the README's exit codes table");
    let rows: Vec<(i32, String)> = readme[start..]
        .lines()
        .skip_while(|l| !l.starts_with("|---"))
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            let example = cells[2].trim_matches('`').to_string();
            (cells[0].parse().unwrap(), example)
        })
        .collect();
    assert!(rows.len() >= 20, "{rows:?}");
    for code in [0, 1, 2, 3] {
        assert!(rows.iter().any(|r| r.0 == code), "a row for exit {code}");
    }
    let dir = scratch("exit-codes");
    std::fs::copy(vector("PAL_SampleLog.blg"), dir.join("web01.blg")).unwrap();
    std::fs::copy(vector("bad-number.csv"), dir.join("bad.csv")).unwrap();
    let b = std::fs::read(vector("PAL_SampleLog.blg")).unwrap();
    std::fs::write(dir.join("cut.blg"), &b[..6 * 0x1_0000]).unwrap();
    std::fs::write(dir.join("old.parquet"), b"").unwrap();
    std::fs::write(
        dir.join("bad.json"),
        r#"{"counterSets": [{"guid": "not-a-guid", "counters": [{"counterId": 1, "type": "nonsense"}]}]}"#,
    )
    .unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_counterlens"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for (code, example) in rows {
        let o = run(Command::new("bash")
            .args(["-c", &example])
            .current_dir(&dir)
            .env("PATH", &path));
        assert_eq!(
            o.status.code(),
            Some(code),
            "{example}: {}",
            text(&o.stderr)
        );
        if code == 2 {
            assert!(
                text(&o.stderr).contains("error"),
                "{example}: {}",
                text(&o.stderr)
            );
        }
    }
}

/// Values echoed as written (clap quotes them; no doubled backslashes), every usage error exit 2.
#[test]
fn usage_errors_echo_the_value_as_written() {
    let log = vector("PAL_SampleLog.blg");
    for (args, says) in [
        (
            vec!["--begin", "garbage"],
            "invalid value 'garbage' for '--begin <BEGIN>': expected ISO 8601",
        ),
        (
            vec!["-c", r"\Processor(*"],
            r"invalid value '\Processor(*' for '--counter <COUNTERS>': not a counter path pattern",
        ),
        (
            vec!["--every", "0"],
            "invalid value '0' for '--every <EVERY>'",
        ),
        (vec!["--to", "xml"], "invalid value 'xml' for '--to <TO>'"),
        (
            vec!["--partition", "host"],
            "invalid value 'host' for '--partition <PARTITION>'",
        ),
        (
            vec!["--threads", "0"],
            "invalid value '0' for '--threads <THREADS>'",
        ),
    ] {
        let o = run(bin()
            .arg("convert")
            .arg(&log)
            .args(["-o", "x.csv"])
            .args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(says),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
    for (args, says) in [
        (vec!["--pack", "nosuchpack"], "invalid value 'nosuchpack' for '--pack <PACK>': neither a file nor a built-in pack (system-overview"),
        (vec!["--slice", "5 parsecs"], "invalid value '5 parsecs' for '--slice <SLICE>': expected auto"),
        (vec!["--var", "novalue"], "invalid value 'novalue' for '--var <VARS>': expected NAME=VALUE"),
        (vec!["--fail-on", "sometimes"], "invalid value 'sometimes' for '--fail-on <FAIL_ON>'"),
    ] {
        let o = run(bin().arg("analyze").arg(&log).args(&args));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(text(&o.stderr).contains(says), "{args:?}: {}", text(&o.stderr));
    }
    let dir = scratch("usage");
    let bad = dir.join("bad-pack.json");
    std::fs::write(&bad, "{\"id\": \"x\", \"rules\": [{\"id\": 3}]}").unwrap();
    let o = run(bin().args(["analyze", "--pack"]).arg(&bad).arg(&log));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("bad-pack.json: rule pack, at "),
        "{}",
        text(&o.stderr)
    );
    let list = dir.join("list.txt");
    std::fs::write(&list, "\\Memory\\*\nMemory\n").unwrap();
    let o = run(bin()
        .arg("convert")
        .arg(&log)
        .args(["-o", "x.csv", "--cf"])
        .arg(&list));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("list.txt: line 2: 'Memory' is not a counter path pattern"),
        "{}",
        text(&o.stderr)
    );
}

/// `template`: the counters to collect for the packs given (a file for `logman -cf`), written to a file,
/// CRLF; the list the package's `counterTemplate` gives (the core's).
#[test]
fn template_lists_the_counters_and_breakdowns_of_the_packs() {
    let dir = scratch("template");
    let pack = dir.join("disk.json");
    std::fs::write(
        &pack,
        r#"{ "id": "t", "title": "T", "version": "1", "source": "test", "rules": [
             { "id": "r", "title": "R", "counter": "\\\\SRV\\LogicalDisk(C:)\\Avg. Disk sec/Write",
               "kind": "static", "severity": "warning", "operator": "gt", "threshold": 0.02 } ] }"#,
    )
    .unwrap();
    let out_file = dir.join("counters.txt");
    let o = run(bin()
        .arg("template")
        .arg("--pack")
        .arg(&pack)
        .arg("-o")
        .arg(&out_file));
    assert!(o.status.success(), "{}", text(&o.stderr));
    // The rule's counter (no machine, the instance as (*)) and the processes' writes that name the cause.
    assert_eq!(
        std::fs::read_to_string(&out_file).unwrap(),
        "\\LogicalDisk(*)\\Avg. Disk sec/Write\r\n\\Process(*)\\IO Write Bytes/sec\r\n"
    );
    // Every built-in pack by default: the processor time and its breakdown among them.
    let o = run(bin().arg("template"));
    let all = text(&o.stdout);
    assert!(
        all.starts_with("\\Processor(*)\\% Processor Time\r\n"),
        "{all}"
    );
    assert!(all.contains("\r\n\\Process(*)\\% Processor Time\r\n"));
}

/// Issue 41: `-c` keeps the series of the Russian log that tests/vectors/words.json's `?`- and
/// `*`-patterns select, the same the viewer's filter shows (tests/node/words.test.mjs reads the same
/// cases); a pattern that selects nothing keeps nothing, one that is no pattern is refused.
#[test]
fn dash_c_keeps_the_words_vectors_series_of_a_localized_log() {
    let words: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/vectors/words.json")).unwrap(),
    )
    .unwrap();
    let m = &words["matching"];
    let log = vector(m["capture"].as_str().unwrap());
    let all = model(&log);
    let dir = scratch("words-matching");
    for (k, c) in m["cases"].as_array().unwrap().iter().enumerate() {
        let pattern = c["pattern"].as_str().unwrap();
        let want: Vec<&str> = c["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| all.series[i.as_u64().unwrap() as usize].path.as_str())
            .collect();
        let out = dir.join(format!("{k}.csv"));
        let o = run(bin()
            .arg("convert")
            .arg(&log)
            .args(["-c", pattern, "-o"])
            .arg(&out));
        if want.is_empty() {
            assert_ne!(o.status.code(), Some(0), "{pattern}: {}", text(&o.stderr));
            assert!(!out.exists(), "{pattern}");
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{pattern}: {}", text(&o.stderr));
        let kept = model(&out);
        let got: Vec<&str> = kept.series.iter().map(|s| s.path.as_str()).collect();
        assert_eq!(got, want, "{pattern}");
    }
}

/// Issue 41's done-when: one series (tests/vectors/words-one-text.csv: `% Processor Time` at 97.4567
/// from 00:30 to 01:00, 10.25 before and after) reads one text per value wherever the CLI writes it:
/// the finding's message and the card in the JSON, and the HTML report, write its worst and mean
/// 97.4567 as `97.5%` (three significant digits), never perflib's `97.457%` or the raw `97.4567`; the
/// viewer's legend, statistics and card write the same (tests/browser/words.test.mjs).
#[test]
fn one_series_reads_one_text_per_value_in_the_json_and_the_report() {
    let dir = scratch("words-one-text");
    let log = root().join("tests/vectors/words-one-text.csv");
    let (html, json) = (dir.join("r.html"), dir.join("f.json"));
    let o = run(bin()
        .arg("analyze")
        .arg(&log)
        .arg("--html")
        .arg(&html)
        .arg("--json")
        .arg(&json));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let json = std::fs::read_to_string(&json).unwrap();
    let html = std::fs::read_to_string(&html).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let messages: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert!(!messages.is_empty(), "{json}");
    for m in &messages {
        // "... above 80% for 30 min, 100% of the time (mean 97.5%, max 97.5%) from 00:30 to 01:00 UTC"
        assert!(m.contains("(mean 97.5%, max 97.5%)"), "{m}");
    }
    let summaries: Vec<&str> = v["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["summary"].as_str().unwrap())
        .collect();
    assert!(
        summaries
            .iter()
            .any(|s| s.contains("mean 97.5%, worst 97.5%")),
        "{summaries:?}"
    );
    assert!(
        html.contains("97.5%"),
        "the report writes the worst as 97.5%"
    );
    for other in ["97.457", "97.4567", "97.46"] {
        assert!(!json.contains(&format!("{other}%")), "{other}% in the JSON");
        assert!(
            !html.contains(&format!("{other}%")),
            "{other}% in the report"
        );
    }
}
