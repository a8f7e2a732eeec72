//! docs/fleet.md, run as written: its `sh` blocks in a fresh folder with the built `counterlens` and the
//! venv's Python (target/py, with duckdb) first on PATH; the listing it shows checked against the files
//! made; its `sql` block run by DuckDB and the printed table compared with the `text` block after it; its
//! Spark `python` block, where Java and pyspark are installed (skipped, with a message, otherwise), must
//! print the same servers and figures as DuckDB.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The fenced blocks of a Markdown text: (info string, body).
fn blocks(md: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in md.lines() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new())),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some((_, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

fn trimmed(s: &str) -> String {
    s.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

/// The rows of a printed table (DuckDB's box or Spark's `show`): machine, mean and worst hourly p95,
/// hours (the worst hour left out: a tie may be broken differently by each engine).
fn table_rows(printed: &str) -> Vec<Vec<String>> {
    printed
        .lines()
        .map(|l| {
            l.split(['│', '|'])
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|cells| cells.len() == 5 && cells[0].starts_with("WEB"))
        .map(|c| vec![c[0].clone(), c[1].clone(), c[2].clone(), c[4].clone()])
        .collect()
}

fn files_under(dir: &Path, base: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files_under(&p, base, out);
        } else {
            out.push(p.strip_prefix(base).unwrap().to_string_lossy().into_owned());
        }
    }
}

#[test]
fn the_fleet_page_runs_as_written_and_shows_what_it_prints() {
    let py_bin = root().join("target/py/bin");
    let py = py_bin.join("python");
    let has_duckdb = py.exists()
        && Command::new(&py)
            .args(["-c", "import duckdb"])
            .output()
            .is_ok_and(|o| o.status.success());
    if !has_duckdb {
        assert!(
            std::env::var_os("COUNTERLENS_REQUIRE_PY").is_none(),
            "target/py has no duckdb"
        );
        eprintln!(
            "SKIPPED: docs/fleet.md needs duckdb in target/py; run `bash scripts/setup.sh --test`"
        );
        return;
    }
    let dir = root().join("target/cli-tests/fleet-doc");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root().join("bench"), dir.join("bench")).unwrap();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_counterlens"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}:{}",
        bin_dir.display(),
        py_bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let md = std::fs::read_to_string(root().join("docs/fleet.md")).unwrap();
    let blocks = blocks(&md);
    let (mut ran_sh, mut checked_listing, mut checked_duckdb) = (0, false, false);
    let mut last_output: Option<String> = None;
    let mut duckdb_rows = Vec::new();
    for (info, body) in &blocks {
        match info.as_str() {
            "sh" => {
                let o = Command::new("bash")
                    .args(["-euo", "pipefail", "-c", body])
                    .current_dir(&dir)
                    .env("PATH", &path)
                    .output()
                    .unwrap();
                assert!(
                    o.status.success(),
                    "{body}\n{}",
                    String::from_utf8_lossy(&o.stderr)
                );
                ran_sh += 1;
            }
            "sql" => {
                std::fs::write(dir.join("q.sql"), body).unwrap();
                let o = Command::new(&py)
                    .args([
                        "-c",
                        "import duckdb; duckdb.sql(open('q.sql').read()).show()",
                    ])
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                last_output = Some(String::from_utf8_lossy(&o.stdout).into_owned());
                duckdb_rows = table_rows(last_output.as_deref().unwrap_or(""));
                assert_eq!(duckdb_rows.len(), 10);
            }
            "python" => {
                let spark = Command::new(&py)
                    .args(["-c", "import pyspark"])
                    .output()
                    .is_ok_and(|o| o.status.success())
                    && Command::new("java")
                        .arg("-version")
                        .output()
                        .is_ok_and(|o| o.status.success());
                if !spark {
                    eprintln!("SKIPPED: the Spark step needs Java and pyspark (in target/py)");
                    last_output = None;
                    continue;
                }
                let o = Command::new(&py)
                    .args(["-c", body])
                    .current_dir(&dir)
                    .output()
                    .unwrap();
                assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
                // Spark's table: the same servers and figures as DuckDB's.
                let spark = table_rows(&String::from_utf8_lossy(&o.stdout));
                assert_eq!(spark, duckdb_rows, "Spark agrees with DuckDB");
            }
            "text" if body.starts_with("fleet/") => {
                // The listing: every line shown is a file made, and the count is the count made.
                let mut made = Vec::new();
                files_under(&dir.join("fleet"), &dir, &mut made);
                for line in body.lines() {
                    if let Some(n) = line
                        .strip_prefix('(')
                        .and_then(|l| l.strip_suffix(" files)"))
                    {
                        assert_eq!(made.len(), n.parse::<usize>().unwrap(), "{made:?}");
                    } else if line != "..." {
                        assert!(made.iter().any(|m| m == line), "{line} not in {made:?}");
                    }
                }
                checked_listing = true;
            }
            "text" => {
                if let Some(out) = last_output.take() {
                    assert_eq!(trimmed(&out), trimmed(body), "the output the page shows");
                    checked_duckdb = true;
                }
            }
            _ => {}
        }
    }
    assert!(ran_sh >= 4 && checked_listing && checked_duckdb);
    // Section 4: the fleet ranked worst first (severity, then time in trouble), and WEB05 worse than
    // the normal of its two quieter weeks.
    let fleet: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("reports/fleet.json")).unwrap()).unwrap();
    let machines = fleet["machines"].as_array().unwrap();
    assert_eq!(machines.len(), 20);
    let key = |m: &serde_json::Value| {
        let worst = match m["worst"].as_str() {
            Some("critical") => 2,
            Some("warning") => 1,
            _ => 0,
        };
        (worst, m["troubleMs"].as_f64().unwrap())
    };
    for w in machines.windows(2) {
        let (a, b) = (key(&w[0]), key(&w[1]));
        assert!(
            a.0 > b.0 || (a.0 == b.0 && a.1 >= b.1),
            "{a:?} before {b:?}"
        );
    }
    assert!(std::fs::read_to_string(dir.join("reports/index.html"))
        .unwrap()
        .contains("<svg class=\"heatmap\""));
    let web05: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("WEB05.json")).unwrap()).unwrap();
    assert!(
        web05["groups"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["pack"] == "baseline"),
        "WEB05 is worse than its normal"
    );
}
