//! `counterlens mcp` driven as a client drives it: the built binary over stdio, one JSON-RPC line per
//! request. Each tool on PAL's sample log gives the numbers the core computes directly; a path outside
//! the roots, a symbolic link out of them, a malformed line and a missing log are errors after which the
//! server still answers. The Server 2019 log comes from ../shared/data/real (skipped when absent; its
//! licence allows use, but it is read in place, not copied).

use counterlens::analysis::{self, AnalyzeOptions};
use counterlens::capture::{open_capture, Capture, OpenOptions, PathPattern};
use counterlens::chart::range_stats::range_stats;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pal() -> PathBuf {
    repo().join("tests/vectors/captures/PAL_SampleLog.blg")
}

/// The Server 2019 .blg (Apache-2.0), read where it lies; None when ../shared is absent.
fn server_2019() -> Option<PathBuf> {
    let p = repo().join("../shared/data/real/tm2py_TM2-A_NewDataCollector.blg");
    p.is_file().then_some(p)
}

fn model(path: &Path) -> Capture {
    open_capture(&std::fs::read(path).unwrap(), &OpenOptions::default()).unwrap()
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("mcp-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Client {
    fn start(args: &[&str]) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_counterlens"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut c = Client {
            child,
            stdin,
            stdout,
            next: 0,
        };
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}),
        );
        assert_eq!(init["result"]["protocolVersion"], "2025-06-18");
        c.send_line(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        c
    }

    fn send_line(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(!line.is_empty(), "the server closed its output");
        serde_json::from_str(&line).unwrap()
    }

    /// Sends a request, returns the whole reply (checked to answer this id).
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let line = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_line(&line.to_string());
        let reply = self.read();
        assert_eq!(reply["id"], id, "{reply}");
        reply
    }

    /// A tool call's result (`isError` and content).
    fn call(&mut self, tool: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(r.get("error").is_none(), "{r}");
        r["result"].clone()
    }

    /// A tool call that must succeed: its structured content (checked to equal its text).
    fn ok(&mut self, tool: &str, args: Value) -> Value {
        let r = self.call(tool, args.clone());
        assert_eq!(r["isError"], false, "{tool} {args}: {r}");
        let text = r["content"][0]["text"].as_str().unwrap();
        if tool != "summary" {
            assert_eq!(
                serde_json::from_str::<Value>(text).unwrap(),
                r["structuredContent"]
            );
        }
        r["structuredContent"].clone()
    }

    /// A tool call that must fail as a tool error: its message.
    fn tool_error(&mut self, tool: &str, args: Value) -> String {
        let r = self.call(tool, args.clone());
        assert_eq!(r["isError"], true, "{tool} {args}: {r}");
        r["content"][0]["text"].as_str().unwrap().to_string()
    }

    /// Still serving: a ping is answered.
    fn alive(&mut self) {
        assert_eq!(self.request("ping", json!({}))["result"], json!({}));
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A root holding PAL's sample log (a copy, in the test's own directory).
fn pal_root(name: &str) -> PathBuf {
    let d = scratch(name);
    std::fs::create_dir_all(d.join("pal")).unwrap();
    std::fs::copy(pal(), d.join("pal/PAL_SampleLog.blg")).unwrap();
    d
}

fn close(a: &Value, b: f64) {
    let a = a.as_f64().unwrap_or(f64::NAN);
    assert!(
        a == b || (a - b).abs() <= 1e-9 * b.abs().max(1.0),
        "{a} != {b}"
    );
}

#[test]
fn initialize_negotiates_and_lists_the_tools() {
    let root = pal_root("init");
    let mut c = Client::start(&["--root", root.to_str().unwrap()]);
    for (asked, agreed) in [
        ("1999-01-01", "2025-06-18"),
        ("2025-03-26", "2025-03-26"),
        ("2024-11-05", "2024-11-05"),
    ] {
        let r = c.request("initialize", json!({"protocolVersion": asked, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}));
        assert_eq!(r["result"]["protocolVersion"], agreed);
        assert_eq!(r["result"]["serverInfo"]["name"], "counterlens");
    }
    let tools = c.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            assert!(t["description"].as_str().unwrap().len() > 80);
            assert_eq!(t["inputSchema"]["type"], "object");
            assert_eq!(t["annotations"]["readOnlyHint"], true);
            t["name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(
        names,
        [
            "list_logs",
            "catalogue",
            "statistics",
            "values",
            "analyze",
            "explain",
            "compare",
            "summary"
        ]
    );
    // Before 2025-06-18 results carry text only.
    let r = c.call("list_logs", json!({}));
    assert!(r.get("structuredContent").is_none());
    assert!(r["content"][0]["text"]
        .as_str()
        .unwrap()
        .contains("PAL_SampleLog.blg"));
}

#[test]
fn each_tool_on_pal_sample_log_gives_the_core_s_numbers() {
    let root = pal_root("tools");
    let m = model(&pal());
    let east = -m.time_zone.as_ref().unwrap().bias_minutes;
    let mut c = Client::start(&["--root", root.to_str().unwrap()]);
    let log = "pal/PAL_SampleLog.blg";

    // list_logs: from the catalogue pass, the whole read's figures.
    let l = c.ok("list_logs", json!({}));
    assert_eq!(l["found"], 1);
    let e = &l["logs"][0];
    assert_eq!(e["log"], log);
    assert_eq!(e["uri"], "counterlens://log/0/pal/PAL_SampleLog.blg");
    assert_eq!(e["format"], "blg");
    assert_eq!(e["machines"], json!(["ZACH-PC"]));
    assert_eq!(e["series"], m.series.len());
    assert_eq!(e["samples"], m.timestamps.len());
    assert_eq!(e["first"]["utc"], "2007-08-14T19:40:38.659Z");
    assert_eq!(e["first"]["local"], "2007-08-14T15:40:38.659-04:00");
    assert_eq!(e["bytes"], std::fs::metadata(pal()).unwrap().len());

    // catalogue: the series a pattern matches, bounded.
    let memory = PathPattern::parse("\\Memory\\*").unwrap();
    let want = m
        .series
        .iter()
        .filter(|s| memory.matches(&s.parsed))
        .count();
    let k = c.ok(
        "catalogue",
        json!({"log": log, "counters": "\\Memory\\*", "limit": 5}),
    );
    assert_eq!(k["matched"], want);
    assert_eq!(k["listed"], 5);
    assert!(k["cut"]
        .as_str()
        .unwrap()
        .starts_with(&format!("{} series left out", want - 5)));

    // statistics: range_stats over the series read alone.
    let path = "\\\\ZACH-PC\\Memory\\Available MBytes";
    let i = m.series.iter().position(|s| s.path == path).unwrap();
    let want = range_stats(&m.timestamps, &m.series[i].values, None, None);
    let s = c.ok(
        "statistics",
        json!({"log": log, "counters": "\\Memory\\Available MBytes"}),
    );
    assert_eq!(s["matched"], 1);
    let row = &s["series"][0];
    assert_eq!(row["path"], path);
    assert_eq!(row["count"], want.count);
    for (k, v) in [
        ("min", want.min),
        ("mean", want.mean),
        ("max", want.max),
        ("p95", want.p95),
        ("trendPerHour", want.trend_per_hour),
    ] {
        close(&row[k], v);
    }
    // ... and over a range in the log's own time (no zone): the samples from 15:45 on.
    let s = c.ok("statistics", json!({"log": log, "counters": "\\Memory\\Available MBytes", "from": "2007-08-14T15:45:00"}));
    let from = m.timestamps[0] - m.timestamps[0] % 86_400_000.0 + (19.0 * 60.0 + 45.0) * 60_000.0;
    let want = range_stats(&m.timestamps, &m.series[i].values, Some(from), None);
    assert_eq!(s["series"][0]["count"], want.count);
    close(&s["series"][0]["mean"], want.mean);
    assert!(want.count < m.timestamps.len() - 1);

    // values: every value when few, min and max kept when decimated.
    let v = c.ok("values", json!({"log": log, "counter": path}));
    let values: Vec<f64> = m.series[i]
        .values
        .iter()
        .copied()
        .filter(|x| !x.is_nan())
        .collect();
    assert_eq!(v["returned"], values.len());
    let pts = v["points"].as_array().unwrap();
    for (p, (&t, &x)) in pts.iter().zip(
        m.timestamps
            .iter()
            .zip(&m.series[i].values)
            .filter(|(_, x)| !x.is_nan()),
    ) {
        assert_eq!(p[0], counterlens_iso(t, east));
        close(&p[1], x);
    }
    let v = c.ok("values", json!({"log": log, "counter": path, "points": 4}));
    assert!(v["returned"].as_u64().unwrap() <= 4);
    let got: Vec<f64> = v["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[1].as_f64().unwrap())
        .collect();
    let (lo, hi) = values
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    assert!(got.contains(&lo) && got.contains(&hi), "{got:?}");

    // analyze: the core's cards and counts.
    let a = analysis::analyze(&m, &AnalyzeOptions::default()).unwrap();
    let r = c.ok("analyze", json!({"log": log}));
    assert_eq!(r["counts"]["findings"], a.findings.len());
    assert_eq!(r["counts"]["cards"], a.groups.len());
    assert_eq!(r["cards"].as_array().unwrap().len(), a.groups.len().min(10));
    for (card, g) in r["cards"].as_array().unwrap().iter().zip(&a.groups) {
        assert_eq!(card["summary"], g.summary);
        assert_eq!(card["start"]["local"], counterlens_iso(g.start, east));
        assert_eq!(
            card["findings"][0]["message"],
            a.findings[g.findings[0]].message
        );
    }
    // PAL's sample: Available MBytes under 5% and 10% of 16 GB for its ten minutes, one card with the
    // critical and the warning episode inside it.
    assert!(
        r["verdict"]
            .as_str()
            .unwrap()
            .starts_with("1 card (1 critical, 0 warning): 2 findings (1 critical, 1 warning)"),
        "{}",
        r["verdict"]
    );

    // explain: the finding's rule and threshold; a point's value and formula with raw numbers.
    let f = &a.findings[0];
    let x = c.ok("explain", json!({"log": log, "finding": 0}));
    assert_eq!(x["finding"]["message"], f.message);
    assert_eq!(x["finding"]["rule"], f.rule);
    close(&x["finding"]["thresholdEvaluated"], f.threshold);
    assert!(x["finding"]["variables"].as_array().unwrap().len() == f.variables.len());
    let proc = "\\\\ZACH-PC\\Processor(_Total)\\% Processor Time";
    let j = m.series.iter().position(|s| s.path == proc).unwrap();
    let x = c.ok(
        "explain",
        json!({"log": log, "counter": proc, "time": "2007-08-14T19:45:40Z"}),
    );
    let k = m.sample_at(m.timestamps[0] + 302_000.0).unwrap();
    assert_eq!(
        x["point"]["sample"]["utc"],
        counterlens_iso(m.timestamps[k], 0)
    );
    close(&x["point"]["value"], m.series[j].values[k]);
    assert!(x["point"]["explanation"]["formula"]
        .as_str()
        .unwrap()
        .contains("dN"));

    // compare: a log with itself changes nothing.
    let r = c.ok(
        "compare",
        json!({"a": log, "b": log, "counters": "\\Memory\\*"}),
    );
    let want = m
        .series
        .iter()
        .filter(|s| memory.matches(&s.parsed))
        .count();
    assert_eq!(r["matched"], want);
    assert_eq!(
        (r["onlyInA"].as_u64(), r["onlyInB"].as_u64()),
        (Some(0), Some(0))
    );
    for row in r["rows"].as_array().unwrap() {
        assert_eq!(row["mean"]["difference"].as_f64().unwrap_or(0.0), 0.0);
    }

    // summary: the report's first page in words.
    let s = c.ok("summary", json!({"log": log}));
    let text = s["summary"].as_str().unwrap();
    assert!(
        text.starts_with("pal/PAL_SampleLog.blg: machine ZACH-PC"),
        "{text}"
    );
    assert!(text.contains(&a.groups[0].summary));
    assert!(text.contains("2007-08-14T19:40:38.659Z"));
}

/// The CLI's ISO 8601 with the offset written (as the server writes times).
fn counterlens_iso(ms: f64, east: i32) -> String {
    let local = ms.round() + f64::from(east) * 60_000.0;
    let days = (local / 86_400_000.0).floor();
    let (y, mo, d) = counterlens::civil::civil_from_days(days as i64);
    let t = (local - days * 86_400_000.0) as i64;
    let zone = if east == 0 {
        "Z".to_string()
    } else {
        format!(
            "{}{:02}:{:02}",
            if east < 0 { '-' } else { '+' },
            east.abs() / 60,
            east.abs() % 60
        )
    };
    format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}.{:03}{zone}",
        t / 3_600_000,
        t / 60_000 % 60,
        t / 1000 % 60,
        t % 1000
    )
}

#[test]
fn a_server_2019_log_read_in_place_and_compared() {
    let Some(blg) = server_2019() else {
        eprintln!("skipped: ../shared/data/real is absent");
        return;
    };
    let real = blg.parent().unwrap().to_str().unwrap().to_string();
    let root = pal_root("server2019");
    let mut c = Client::start(&["--root", root.to_str().unwrap(), "--root", &real]);
    let m = model(&blg);
    let log = "counterlens://log/1/tm2py_TM2-A_NewDataCollector.blg";
    let cpu = "\\\\TM2-A\\Processor(_Total)\\% Processor Time";
    let i = m.series.iter().position(|s| s.path == cpu).unwrap();
    // 16:00 to 20:00 on 2025-05-19, the log's clock (Pacific, bias 420 in May).
    let bias = m.time_zone.as_ref().unwrap().bias_minutes;
    let day = 20227.0 * 86_400_000.0; // 2025-05-19
    let (from, to) = (
        day + (16.0 * 60.0 + f64::from(bias)) * 60_000.0,
        day + (20.0 * 60.0 + f64::from(bias)) * 60_000.0,
    );
    assert_eq!(counterlens::civil::civil_from_days(20227), (2025, 5, 19));
    let want = range_stats(&m.timestamps, &m.series[i].values, Some(from), Some(to));
    let s = c.ok(
        "statistics",
        json!({"log": log, "counters": "\\Processor(_Total)\\% Processor Time", "from": "2025-05-19T16:00:00", "to": "2025-05-19T20:00:00"}),
    );
    let row = &s["series"][0];
    assert_eq!(row["count"], want.count);
    for (k, v) in [
        ("min", want.min),
        ("mean", want.mean),
        ("max", want.max),
        ("p95", want.p95),
        ("trendPerHour", want.trend_per_hour),
    ] {
        close(&row[k], v);
    }
    let a = analysis::analyze(&m, &AnalyzeOptions::default()).unwrap();
    let r = c.ok("analyze", json!({"log": log, "limit": 3}));
    assert_eq!(r["counts"]["findings"], a.findings.len());
    assert_eq!(r["cards"][0]["summary"], a.groups[0].summary);
    assert!(r["cut"].is_string() == (a.groups.len() > 3));
    // PAL's Vista laptop against the Server 2019 box: matched without the machine.
    let p = model(&pal());
    let k = p
        .series
        .iter()
        .position(|s| s.path == "\\\\ZACH-PC\\Processor(_Total)\\% Processor Time")
        .unwrap();
    let r = c.ok("compare", json!({"a": "pal/PAL_SampleLog.blg", "b": log, "counters": "\\Processor(_Total)\\% Processor Time"}));
    assert_eq!(r["matched"], 1);
    let (sa, sb) = (
        p.stats(k, None, None).unwrap(),
        m.stats(i, None, None).unwrap(),
    );
    let row = &r["rows"][0];
    close(&row["mean"]["a"], sa.mean);
    close(&row["mean"]["b"], sb.mean);
    close(&row["p95"]["difference"], sb.p95 - sa.p95);
    close(
        &row["max"]["percent"],
        100.0 * (sb.max - sa.max) / sa.max.abs(),
    );
}

#[test]
fn mistakes_are_errors_and_the_server_keeps_serving() {
    let root = pal_root("errors");
    let outside = scratch("errors-outside");
    std::fs::copy(pal(), outside.join("secret.blg")).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.join("secret.blg"), root.join("link.blg")).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("linkdir")).unwrap();
    }
    let mut c = Client::start(&[
        "--root",
        root.to_str().unwrap(),
        "--max-log-bytes",
        "100000",
    ]);
    let log = "pal/PAL_SampleLog.blg";

    // Paths out of the roots: by .., absolute, through a symbolic link (file or directory).
    let secret = outside.join("secret.blg");
    for bad in [
        "../errors-outside/secret.blg".to_string(),
        secret.display().to_string(),
        "link.blg".into(),
        "linkdir/secret.blg".into(),
        "counterlens://log/0/../errors-outside/secret.blg".into(),
    ] {
        let e = c.tool_error("statistics", json!({"log": bad, "counters": "\\Memory\\*"}));
        assert!(e.contains("outside the roots"), "{bad}: {e}");
        c.alive();
    }
    // The walk lists neither the link nor what it leads to.
    let l = c.ok("list_logs", json!({}));
    assert_eq!(l["found"], 1, "{l}");
    assert!(l["notes"][0].as_str().unwrap().contains("2 symbolic links"));

    // A malformed line: a parse error, and the next request is answered.
    c.send_line("{\"jsonrpc\":\"2.0\",\"id\":");
    let r = c.read();
    assert_eq!(
        (r["error"]["code"].as_i64(), &r["id"]),
        (Some(-32700), &Value::Null)
    );
    c.alive();
    c.send_line("[1,2]");
    assert_eq!(c.read()["error"]["code"], -32600);
    c.alive();
    assert_eq!(
        c.request("tools/frobnicate", json!({}))["error"]["code"],
        -32601
    );
    assert_eq!(
        c.request("tools/call", json!({"name": "rm_rf"}))["error"]["code"],
        -32602
    );
    c.alive();

    // Bad arguments are tool errors with the reason.
    for (tool, args, says) in [
        (
            "summary",
            json!({"log": "pal/nope.blg"}),
            "no log pal/nope.blg",
        ),
        (
            "statistics",
            json!({"log": log}),
            "missing field `counters`",
        ),
        (
            "statistics",
            json!({"log": log, "counters": "<script>"}),
            "not a counter path pattern",
        ),
        (
            "statistics",
            json!({"log": log, "counters": "\\Nothing\\here"}),
            "no series of",
        ),
        (
            "statistics",
            json!({"log": log, "counters": "\\Memory\\*", "from": "yesterday"}),
            "not a time",
        ),
        (
            "statistics",
            json!({"log": log, "counters": "\\Memory\\*", "from": "2030-01-01T00:00:00Z"}),
            "no sample",
        ),
        (
            "catalogue",
            json!({"log": log, "pattern": "\\Memory\\*"}),
            "unknown field `pattern`",
        ),
        (
            "values",
            json!({"log": log, "counter": "\\Memory\\*"}),
            "not one",
        ),
        (
            "values",
            json!({"log": log, "counter": "\\Memory\\Available MBytes", "points": 100000}),
            "out of range",
        ),
        (
            "analyze",
            json!({"log": log, "packs": ["nope"]}),
            "no built-in pack",
        ),
        ("explain", json!({"log": log}), "give `finding`"),
        ("list_logs", json!({"limit": "many"}), "invalid type"),
        ("summary", json!({"log": "pal"}), "not a file"),
    ] {
        let e = c.tool_error(tool, args.clone());
        assert!(e.contains(says), "{tool} {args}: {e}");
    }
    let r = c.request(
        "tools/call",
        json!({"name": "summary", "arguments": "pal/PAL_SampleLog.blg"}),
    );
    assert_eq!(r["result"]["isError"], true);

    // Over the size bound: a whole read is refused and says what to do; a part of it is read.
    let e = c.tool_error("analyze", json!({"log": log}));
    assert!(
        e.contains("over the 100000-byte bound") && e.contains("counters pattern"),
        "{e}"
    );
    c.ok(
        "statistics",
        json!({"log": log, "counters": "\\Memory\\Available MBytes"}),
    );
    c.alive();
}

#[test]
fn resources_and_the_diagnose_prompt() {
    let root = pal_root("resources");
    let mut c = Client::start(&["--root", root.to_str().unwrap()]);
    let r = c.request("resources/list", json!({}));
    let list = r["result"]["resources"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    let uri = list[0]["uri"].as_str().unwrap();
    assert_eq!(uri, "counterlens://log/0/pal/PAL_SampleLog.blg");
    let r = c.request("resources/read", json!({"uri": uri}));
    let text = r["result"]["contents"][0]["text"].as_str().unwrap();
    let s = c.ok("summary", json!({"log": uri}));
    assert_eq!(text, s["summary"].as_str().unwrap());
    let r = c.request(
        "resources/read",
        json!({"uri": "counterlens://log/0/../../etc/passwd"}),
    );
    assert_eq!(r["error"]["code"], -32002);
    let r = c.request("prompts/list", json!({}));
    assert_eq!(r["result"]["prompts"][0]["name"], "diagnose");
    let r = c.request(
        "prompts/get",
        json!({"name": "diagnose", "arguments": {"log": "pal/PAL_SampleLog.blg"}}),
    );
    let text = r["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap();
    for step in ["list_logs", "summary", "analyze", "statistics"] {
        assert!(text.contains(step), "{text}");
    }
    assert_eq!(
        c.request("prompts/get", json!({"name": "diagnose"}))["error"]["code"],
        -32602
    );
    c.alive();
}
