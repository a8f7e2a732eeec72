//! Native timing of `analyze` on a capture shaped as bench/analysis.mjs's (one day at 10 s x 400 series =
//! 3.5 M values, 1% missing, the counters the built-in packs read; the same generator in exact integer
//! arithmetic, where JS's doubles round, so the values and findings differ a little), for profiling: under
//! `valgrind --tool=callgrind` its instruction counts do not move with the machine's load.
//! `cargo run --release --example analysis_bench -- [runs] [builtin|derived]`: every built-in pack
//! (the default), or every built-in pack and the benchmark's pack of two derived series with a
//! sustained rule.
use counterlens::analysis::{analyze, builtin_packs, AnalyzeOptions, PackRef, RulePack};
use counterlens::capture::{Capture, Series};
use std::time::Instant;

const SAMPLES: usize = 8640;
const SERIES: usize = 400;
const STEP: f64 = 10_000.0;
const T0: f64 = 1_795_132_800_000.0; // 2026-11-20 00:00 UTC

const DERIVED: &str = r#"{ "id": "derived-bench", "title": "Derived series",
  "derived": [
    { "id": "priv-share", "counter": "\\Bench(*)\\Privileged Share", "pairBy": "instance",
      "inputs": [ { "name": "a", "counter": "\\Processor(*)\\% Privileged Time" },
                  { "name": "b", "counter": "\\Processor(*)\\% Processor Time" } ],
      "expression": "if(gt(a, 0) * gt(b, 0), round(a / b * 100), 0)" },
    { "id": "queue-latency", "counter": "\\Bench(*)\\Queue Latency", "pairBy": "instance",
      "inputs": [ { "name": "a", "counter": "\\LogicalDisk(*)\\Avg. Disk Queue Length" },
                  { "name": "b", "counter": "\\LogicalDisk(*)\\Avg. Disk sec/Read" } ],
      "expression": "abs(round(a * b * 1000))" } ],
  "rules": [ { "id": "d", "title": "d", "counter": "\\Bench(*)\\*", "kind": "static",
    "severity": "warning", "operator": "gt", "threshold": 1e300, "for": 300 } ] }"#;

fn main() {
    let mut args = std::env::args().skip(1);
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let derived = args.next().as_deref() == Some("derived");
    // The built-in packs' counters, `(*)` as _Total then i1, i2, ... until 400 series (as the JS bench).
    let mut counters: Vec<&str> = Vec::new();
    for p in builtin_packs() {
        for r in &p.rules {
            if !counters.contains(&r.counter.as_str()) {
                counters.push(&r.counter);
            }
        }
    }
    let mut paths: Vec<String> = Vec::new();
    let mut k = 0;
    while paths.len() < SERIES {
        for c in &counters {
            if paths.len() >= SERIES {
                break;
            }
            if c.contains("(*)") {
                let inst = if k == 0 {
                    "_Total".to_string()
                } else {
                    format!("i{k}")
                };
                paths.push(format!("\\\\SRV{}", c.replace("(*)", &format!("({inst})"))));
            } else if k == 0 {
                paths.push(format!("\\\\SRV{c}"));
            }
        }
        k += 1;
    }
    // The JS bench's generator: a linear congruential sequence.
    let mut seed: u64 = 42;
    let mut rand = || {
        seed = (seed.wrapping_mul(1_103_515_245).wrapping_add(12_345)) & 0x7fff_ffff;
        seed as f64 / 0x7fff_ffff as f64
    };
    let series: Vec<Series> = paths
        .into_iter()
        .map(|p| {
            let base = rand() * 100.0;
            let values = (0..SAMPLES)
                .map(|i| {
                    if rand() < 0.01 {
                        f64::NAN
                    } else {
                        base * (1.0 + 0.3 * (i as f64 / 500.0).sin()) + rand() * 5.0
                    }
                })
                .collect();
            Series::new(p, values)
        })
        .collect();
    let capture = Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: None,
        time_zone: None,
        timestamps: (0..SAMPLES).map(|i| T0 + i as f64 * STEP).collect(),
        series,
        notes: Vec::new(),
    };
    let mut packs: Vec<PackRef> = builtin_packs()
        .iter()
        .map(|p| PackRef::Builtin(p.id.clone()))
        .collect();
    if derived {
        packs.push(PackRef::Pack(
            RulePack::from_json(DERIVED).expect("the bench pack reads"),
        ));
    }
    let options = AnalyzeOptions {
        packs: Some(packs),
        ..Default::default()
    };
    let mut times = Vec::new();
    let mut findings = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let a = analyze(&capture, &options).expect("analyzes");
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        findings = a.findings.len();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "analyze{}: {findings} findings, median {:.1} ms, fastest {:.1} ms over {runs} runs",
        if derived { " + derived" } else { "" },
        times[times.len() / 2],
        times[0]
    );
}
