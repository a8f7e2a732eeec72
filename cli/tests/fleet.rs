//! The fleet from the command line, on logs made here (PDH-CSV at one-minute samples, UTC): `analyze`
//! over many logs ranks the machines in `fleet.json` and on the fleet page; `baseline` learns a
//! machine's normal and `analyze --baseline` says when a log is worse than it, and refuses another
//! machine's; several logs into one Parquet file keep the inputs' order.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_counterlens"))
}

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .join("target/cli-tests")
        .join(name);
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

/// 2026-11-16 00:00 UTC, a Monday.
const MONDAY: i64 = 1_794_787_200_000;
const MIN: i64 = 60_000;
const DAY: i64 = 1440 * MIN;

/// A PDH-CSV log of `machine` from `start` (ms, UTC): `minutes` samples a minute apart, CPU from `cpu`
/// (the minute's index), Available MBytes at 8000.
fn csv(path: &Path, machine: &str, start: i64, minutes: i64, cpu: impl Fn(i64) -> f64) {
    let mut s = format!(
        "\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\{machine}\\Processor(_Total)\\% Processor Time\",\"\\\\{machine}\\Memory\\Available MBytes\"\n"
    );
    for k in 0..minutes {
        let t = start + k * MIN;
        let (y, m, d) = counterlens::civil::civil_from_days(t.div_euclid(DAY));
        let secs = t.rem_euclid(DAY) / 1000;
        s.push_str(&format!(
            "\"{m:02}/{d:02}/{y:04} {:02}:{:02}:00.000\",\"{}\",\"8000\"\n",
            secs / 3600,
            secs / 60 % 60,
            cpu(k)
        ));
    }
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, s).unwrap();
}

#[test]
fn fleet_json_ranks_the_machines_worst_first() {
    let dir = scratch("fleet-rank");
    let logs = dir.join("logs");
    // Two hours each (120 samples: the two-hour rules, judged once a log has run two hours, never are).
    // WEB01: 97% from minute 30 to 59: a critical card (above 95 for most of 5 min) with the warning
    // inside it, from the first to the last sample past 80: 30..59 min, 29 min = 1,740,000 ms.
    csv(&logs.join("WEB01/a.csv"), "WEB01", MONDAY, 120, |k| {
        if (30..60).contains(&k) {
            97.0
        } else {
            10.0
        }
    });
    // WEB02: 85% from minute 30 to 89: a warning card, 59 min = 3,540,000 ms.
    csv(&logs.join("WEB02/a.csv"), "WEB02", MONDAY, 120, |k| {
        if (30..90).contains(&k) {
            85.0
        } else {
            10.0
        }
    });
    // WEB03: 85% from minute 10 to 99: a warning card, 89 min = 5,340,000 ms: before WEB02.
    csv(&logs.join("WEB03/a.csv"), "WEB03", MONDAY, 120, |k| {
        if (10..100).contains(&k) {
            85.0
        } else {
            10.0
        }
    });
    // DB01: calm, two logs a day apart (two runs), the later given first: 30% then 20%.
    csv(&logs.join("DB01/b.csv"), "DB01", MONDAY + DAY, 120, |_| {
        30.0
    });
    csv(&logs.join("DB01/a.csv"), "DB01", MONDAY, 120, |_| 20.0);
    let (html, json) = (dir.join("html/"), dir.join("json/"));
    let o = run(bin()
        .args(["analyze", "-q"])
        .args(
            [
                "WEB02/a.csv",
                "DB01/b.csv",
                "WEB01/a.csv",
                "DB01/a.csv",
                "WEB03/a.csv",
            ]
            .map(|p| logs.join(p)),
        )
        .arg("--html")
        .arg(&html)
        .arg("--json")
        .arg(&json));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let fleet: serde_json::Value =
        serde_json::from_slice(&std::fs::read(json.join("fleet.json")).unwrap()).unwrap();
    let machines = fleet["machines"].as_array().unwrap();
    let names: Vec<&str> = machines
        .iter()
        .map(|m| m["machine"].as_str().unwrap())
        .collect();
    // Critical, then the warnings by time in trouble (89 min before 59 min), then the calm.
    assert_eq!(names, ["WEB01", "WEB03", "WEB02", "DB01"]);
    let worst: Vec<Option<&str>> = machines.iter().map(|m| m["worst"].as_str()).collect();
    assert_eq!(
        worst,
        [Some("critical"), Some("warning"), Some("warning"), None]
    );
    let trouble: Vec<f64> = machines
        .iter()
        .map(|m| m["troubleMs"].as_f64().unwrap())
        .collect();
    assert_eq!(trouble, [1_740_000.0, 5_340_000.0, 3_540_000.0, 0.0]);
    // WEB01's top card is its processor card, critical.
    assert_eq!(machines[0]["cards"][0]["severity"], "critical");
    assert_eq!(machines[0]["cards"][0]["category"], "Processor");
    // WEB01's figures: mean (30 x 97 + 90 x 10) / 120 = 3810 / 120 = 31.75; p95 at rank 119 x 0.95 =
    // 113.05 of 90 tens and 30 97s: 97. Least memory 8000 MB.
    let f = &machines[0]["figures"];
    assert_eq!(f["cpuMean"], 31.75);
    assert_eq!(f["cpuP95"], 97.0);
    assert_eq!(f["availableMbMin"], 8000.0);
    assert!(f["diskLatencyP95Ms"].is_null());
    // DB01: its two logs in time order, two runs (20% then 30%), mean over both (120 samples each):
    // (20 + 30) / 2 = 25; p95 from the histograms: rank 239 x 0.95 = 227.05, past the 120 at 20: 30.
    let db = &machines[3];
    let logs_of: Vec<&str> = db["logs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert!(
        logs_of[0].ends_with("DB01/a.csv") && logs_of[1].ends_with("DB01/b.csv"),
        "{logs_of:?}"
    );
    let runs: Vec<f64> = db["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["figures"]["cpuMean"].as_f64().unwrap())
        .collect();
    assert_eq!(runs, [20.0, 30.0]);
    assert_eq!(db["figures"]["cpuMean"], 25.0);
    assert_eq!(db["figures"]["cpuP95"], 30.0);
    // The page: the heatmap (the core's SVG), the machines in that order, no script.
    let page = std::fs::read_to_string(html.join("index.html")).unwrap();
    assert!(
        page.contains("<h1>3 of 4 machines in trouble (1 critical, 2 warning); 1 calm</h1>"),
        "{page}"
    );
    assert!(page.contains("<svg class=\"heatmap\"") && !page.contains("<script"));
    let at = |m: &str| page.find(&format!("<td>{m}</td>")).unwrap();
    assert!(at("WEB01") < at("WEB03") && at("WEB03") < at("WEB02") && at("WEB02") < at("DB01"));
    // The per-log reports are still linked.
    assert!(page.contains("href=\"WEB01/a.csv.html\""), "{page}");
}

/// Four weekdays (Monday to Thursday) at 10% CPU, a log a day.
fn four_days_at_ten(dir: &Path, machine: &str) -> Vec<PathBuf> {
    (0..4)
        .map(|d| {
            let p = dir.join(format!("{machine}/day{d}.csv"));
            csv(&p, machine, MONDAY + d * DAY, 1440, |_| 10.0);
            p
        })
        .collect()
}

#[test]
fn a_baseline_at_ten_percent_flags_sixty_for_two_hours_and_not_twelve() {
    let dir = scratch("baseline");
    let days = four_days_at_ten(&dir, "WEB01");
    let base = dir.join("WEB01.baseline.json");
    let o = run(bin().arg("baseline").args(&days).arg("-o").arg(&base));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let b: serde_json::Value = serde_json::from_slice(&std::fs::read(&base).unwrap()).unwrap();
    assert_eq!(
        (b["machine"].as_str(), b["samples"].as_u64()),
        (Some("WEB01"), Some(4 * 1440))
    );
    // Small: 2 counters x 24 weekday hours of 5 quantiles.
    assert!(std::fs::metadata(&base).unwrap().len() < 16_000);
    // Friday from 10:00, four hours; 60% from 11:00 to 12:59 (120 samples). Every hour's usual p95 is
    // 10 (from 4 x 60 = 240 samples); the limit max(3 x 10, 10 + 10) = 30; 60 is past it throughout.
    let friday = MONDAY + 4 * DAY + 600 * MIN;
    let hot = dir.join("WEB01/friday.csv");
    csv(&hot, "WEB01", friday, 240, |k| {
        if (60..180).contains(&k) {
            60.0
        } else {
            10.0
        }
    });
    let out = dir.join("hot.json");
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&base)
        .arg(&hot)
        .arg("--json")
        .arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let a: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let cards: Vec<&serde_json::Value> = a["groups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["pack"] == "baseline")
        .collect();
    assert_eq!(cards.len(), 1, "{}", a["groups"]);
    let g = cards[0];
    // From 11:00 to 12:59: 119 min.
    assert_eq!(g["durationMs"], 119.0 * 60_000.0);
    assert_eq!(g["rule"], "cpu-above-normal");
    let summary = g["summary"].as_str().unwrap();
    assert!(
        summary.contains("its usual p95 for those hours (up to 10%); the normal: 4 logs from 2026-11-16 to 2026-11-19, 5760 samples, 480 samples in those hours"),
        "{summary}"
    );
    let f = &a["findings"][g["lead"].as_u64().unwrap() as usize];
    assert_eq!(
        (&f["pack"], &f["threshold"], &f["mean"]),
        (&"baseline".into(), &30.0.into(), &60.0.into())
    );
    // Nothing of the built-in packs breaks at 60%: the verdict without the baseline is calm.
    assert!(a["groups"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["pack"] == "baseline"));
    // At 12% (under 30): no card worse than its normal.
    let mild = dir.join("WEB01/mild.csv");
    csv(&mild, "WEB01", friday, 240, |k| {
        if (60..180).contains(&k) {
            12.0
        } else {
            10.0
        }
    });
    let out = dir.join("mild.json");
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&base)
        .arg(&mild)
        .arg("--json")
        .arg(&out));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let a: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(
        a["groups"]
            .as_array()
            .unwrap()
            .iter()
            .all(|g| g["pack"] != "baseline"),
        "{}",
        a["groups"]
    );
    assert!(a["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["pack"] != "baseline"));
}

#[test]
fn a_baseline_of_another_machine_is_refused() {
    let dir = scratch("baseline-other");
    let days = four_days_at_ten(&dir, "WEB01");
    let base = dir.join("WEB01.baseline.json");
    assert!(run(bin().arg("baseline").args(&days).arg("-o").arg(&base))
        .status
        .success());
    let db = dir.join("DB01/friday.csv");
    csv(&db, "DB01", MONDAY + 4 * DAY, 240, |_| 60.0);
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&base)
        .arg(&db));
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(
        err.contains(
            "the baseline is the normal of machine WEB01 (4 logs), this log is of machine DB01"
        ),
        "{err}"
    );
    // A baseline of two machines' logs is refused too, naming them, and nothing is written.
    let o = run(bin()
        .arg("baseline")
        .arg(&days[0])
        .arg(&db)
        .arg("-o")
        .arg(dir.join("mixed.baseline.json")));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o.stderr).contains("is of machine DB01, the logs before it of WEB01"),
        "{}",
        text(&o.stderr)
    );
    assert!(!dir.join("mixed.baseline.json").exists());
    // A file that is no baseline: a usage error naming the place.
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&days[0])
        .arg(&db));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("line 1, column 47: expected a counterlens baseline"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn a_fleet_s_normals_in_one_folder_judge_each_machine_against_its_own() {
    // Last week: four weekdays of WEB01 and of DB01, each at 10% all day, in one folder.
    let dir = scratch("fleet-normals");
    let mut last_week = four_days_at_ten(&dir.join("last"), "WEB01");
    last_week.extend(four_days_at_ten(&dir.join("last"), "DB01"));
    let normals = dir.join("normals");
    // One run over the folder, into a folder: one MACHINE.baseline.json each.
    let o = run(bin()
        .args(["baseline", "-q"])
        .arg(dir.join("last"))
        .arg("-o")
        .arg(format!("{}/", normals.display())));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let mut made: Vec<String> = std::fs::read_dir(&normals)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    made.sort();
    assert_eq!(made, ["DB01.baseline.json", "WEB01.baseline.json"]);
    for m in ["DB01", "WEB01"] {
        let b: serde_json::Value = serde_json::from_slice(
            &std::fs::read(normals.join(format!("{m}.baseline.json"))).unwrap(),
        )
        .unwrap();
        // 4 logs x 1440 samples each, of this machine only.
        assert_eq!(
            (b["machine"].as_str(), b["samples"].as_u64()),
            (Some(m), Some(4 * 1440))
        );
    }
    // Friday from 10:00, four hours: WEB01 at 60% and APP01 at 60% from 11:00 to 12:59, DB01 at 12%.
    // WEB01's limit is max(3 x 10, 10 + 10) = 30: one card; DB01's 12% is under its 30: none; APP01 has
    // no normal: analysed by the rules alone, and its summary says so.
    let friday = MONDAY + 4 * DAY + 600 * MIN;
    let hot = |k: i64| if (60..180).contains(&k) { 60.0 } else { 10.0 };
    csv(&dir.join("fri/WEB01.csv"), "WEB01", friday, 240, hot);
    csv(&dir.join("fri/APP01.csv"), "APP01", friday, 240, hot);
    csv(&dir.join("fri/DB01.csv"), "DB01", friday, 240, |k| {
        if (60..180).contains(&k) {
            12.0
        } else {
            10.0
        }
    });
    let out = dir.join("out");
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&normals)
        .arg(dir.join("fri"))
        .arg("--json")
        .arg(format!("{}/", out.display())));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let stdout = text(&o.stdout);
    assert!(
        stdout.contains(
            "(no normal of machine APP01 among the --baseline files: judged by the rules alone)"
        ),
        "{stdout}"
    );
    let fleet: serde_json::Value =
        serde_json::from_slice(&std::fs::read(out.join("fleet.json")).unwrap()).unwrap();
    let rows: Vec<(String, serde_json::Value, usize)> = fleet["machines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["machine"].as_str().unwrap().to_string(),
                m["worst"].clone(),
                m["cards"].as_array().unwrap().len(),
            )
        })
        .collect();
    // WEB01 worse than its normal ranks first; APP01 and DB01 calm, by name.
    assert_eq!(
        rows,
        [
            ("WEB01".to_string(), "warning".into(), 1),
            ("APP01".to_string(), serde_json::Value::Null, 0),
            ("DB01".to_string(), serde_json::Value::Null, 0),
        ]
    );
    assert_eq!(fleet["machines"][0]["cards"][0]["pack"], "baseline");
    // All of Friday merged into one analysis of three machines: no one machine's normal fits it, so it is
    // judged by the rules alone (no card), and said so.
    let o = run(bin()
        .args(["analyze", "-q", "--merge", "--baseline"])
        .arg(&normals)
        .arg(dir.join("fri")));
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(
        text(&o.stdout).contains("(the analysis spans several machines, and a normal is one machine's: judged by the rules alone)"),
        "{}",
        text(&o.stdout)
    );
    // Two normals of one machine: a usage error naming both files.
    std::fs::copy(
        normals.join("WEB01.baseline.json"),
        dir.join("again.baseline.json"),
    )
    .unwrap();
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(&normals)
        .arg("--baseline")
        .arg(dir.join("again.baseline.json"))
        .arg(dir.join("fri")));
    assert_eq!(o.status.code(), Some(2));
    let e = text(&o.stderr);
    assert!(e.contains("are both the normal of machine WEB01"), "{e}");
    // A folder without any: said so.
    std::fs::create_dir_all(dir.join("none")).unwrap();
    let o = run(bin()
        .args(["analyze", "-q", "--baseline"])
        .arg(dir.join("none"))
        .arg(dir.join("fri")));
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("no MACHINE.baseline.json in this folder"));
}

#[test]
fn several_logs_into_one_parquet_file_keep_the_inputs_order() {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = scratch("one-parquet-order");
    // Six logs of 600 samples and 2 series (1,200 values each); row groups of 500 values: three each
    // (500, 500, 200 values: a block ends at the sample that reaches 500, 250 samples x 2 series).
    let logs: Vec<PathBuf> = (0..6)
        .map(|i| {
            let p = dir.join(format!("S{i}.csv"));
            csv(&p, &format!("S{i}"), MONDAY, 600, |k| k as f64);
            p
        })
        .collect();
    let out = dir.join("all.parquet");
    let o = run(bin()
        .args(["convert", "-q", "--threads", "3"])
        .args(logs.iter().rev())
        .arg("-o")
        .arg(&out)
        .env("COUNTERLENS_ROW_GROUP", "500"));
    assert!(o.status.success(), "{}", text(&o.stderr));
    let r = SerializedFileReader::new(std::fs::File::open(&out).unwrap()).unwrap();
    let md = r.metadata();
    let rows: Vec<i64> = md.row_groups().iter().map(|g| g.num_rows()).collect();
    assert_eq!(rows, [500, 500, 200].repeat(6));
    assert_eq!(md.file_metadata().num_rows(), 6 * 1200);
    // The machine column's statistics per row group: S5's three first (given first), S0's last.
    let machine = md
        .file_metadata()
        .schema_descr()
        .columns()
        .iter()
        .position(|c| c.name() == "machine")
        .unwrap();
    let order: Vec<String> = md
        .row_groups()
        .iter()
        .map(|g| {
            let s = g.column(machine).statistics().unwrap();
            String::from_utf8_lossy(s.min_bytes_opt().unwrap()).into_owned()
        })
        .collect();
    let want: Vec<String> = (0..6)
        .rev()
        .flat_map(|i| vec![format!("S{i}"); 3])
        .collect();
    assert_eq!(order, want);
}

#[test]
fn many_logs_are_analysed_as_they_are_read_in_the_order_given() {
    let dir = scratch("analyze-pipeline");
    // Six logs; WEB01's and WEB04's second hours follow their first (one analysis each): four analyses.
    let mut logs = Vec::new();
    for (m, part, start) in [
        ("WEB01", "a", 0),
        ("WEB01", "b", 60),
        ("WEB02", "a", 0),
        ("WEB03", "a", 0),
        ("WEB04", "a", 0),
        ("WEB04", "b", 60),
    ] {
        let p = dir.join(format!("{m}/{part}.csv"));
        csv(&p, m, MONDAY + start * MIN, 60, |_| 10.0);
        logs.push(p);
    }
    let mut outs = Vec::new();
    for threads in ["1", "2"] {
        let o = run(bin()
            .args(["analyze", "-q", "--threads", threads])
            .args(&logs)
            .arg("--json")
            .arg(dir.join(format!("t{threads}/"))));
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        let out = text(&o.stdout);
        let heads: Vec<&str> = out
            .lines()
            .filter(|l| !l.starts_with(' '))
            .map(|l| l.split(':').next().unwrap())
            .collect();
        assert_eq!(
            heads,
            [
                "WEB01/a.csv and 1 more",
                "WEB02/a.csv",
                "WEB03/a.csv",
                "WEB04/a.csv and 1 more",
                "4 analyses"
            ]
        );
        outs.push(out);
    }
    // One thread (two logs read ahead, one analysis at a time) or two: the same output.
    assert_eq!(outs[0], outs[1]);
}
