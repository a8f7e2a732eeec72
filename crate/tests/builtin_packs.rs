//! The built-in packs on whole captures: a calm, healthy server gives no finding; a server with a CPU
//! pegged for half an hour and running out of memory gets both said, when and how badly.
//! The capture is built here: two hours at 15 s (481 samples), values from a fixed pseudo-random walk.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::expr::Expr;
use counterlens::analysis::pal::import_pal;
use counterlens::analysis::{
    analyze, builtin_packs, AnalyzeOptions, PackRef, Severity, Threshold, Value,
};
use counterlens::capture::{Capture, Series};
use proptest::prelude::*;

const STEP: f64 = 15_000.0;
const N: usize = 481;
/// 2026-11-20 08:00:00 UTC: days_from_civil(2026, 11, 20) = 20412; 20412 * 86400000 + 8 * 3600000.
const T0: f64 = 20412.0 * 86_400_000.0 + 8.0 * 3_600_000.0;
const MB: f64 = 1024.0 * 1024.0;

/// xorshift64*: the same "noise" on every run, in [0, 1).
struct Noise(u64);
impl Noise {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }
    /// `base` ± `spread`, uniformly.
    fn around(&mut self, base: f64, spread: f64) -> f64 {
        base + (self.next() * 2.0 - 1.0) * spread
    }
}

fn series(path: &str, values: Vec<f64>) -> Series {
    Series::new(path.to_string(), values)
}

fn capture(series: Vec<Series>) -> Capture {
    Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: (0..N).map(|i| T0 + i as f64 * STEP).collect(),
        series,
        notes: Vec::new(),
    }
}

/// A calm server: 4 logical processors 10-40% busy, 6 GB of 16 GB available, disks answering in 2-8 ms
/// (one slow read of 120 ms on an idle volume), a quiet network, processes whose handles, threads and
/// private bytes wobble but do not grow.
fn calm(noise: &mut Noise) -> Vec<Series> {
    let mut out = Vec::new();
    let mut gen = |path: &str, f: &mut dyn FnMut(usize, &mut Noise) -> f64| {
        let v = (0..N).map(|i| f(i, noise)).collect();
        out.push(series(path, v));
    };
    for cpu in ["0", "1", "2", "3", "_Total"] {
        gen(
            &format!("\\\\SRV\\Processor({cpu})\\% Processor Time"),
            &mut |_, n| n.around(25.0, 15.0),
        );
        gen(
            &format!("\\\\SRV\\Processor({cpu})\\% Privileged Time"),
            &mut |_, n| n.around(5.0, 3.0),
        );
    }
    gen("\\\\SRV\\System\\Processor Queue Length", &mut |_, n| {
        (n.next() * 4.0).floor()
    });
    gen("\\\\SRV\\Memory\\Available MBytes", &mut |_, n| {
        n.around(6000.0, 300.0)
    });
    gen("\\\\SRV\\Memory\\% Committed Bytes In Use", &mut |_, n| {
        n.around(42.0, 3.0)
    });
    gen("\\\\SRV\\Memory\\Pages/sec", &mut |i, n| {
        if i % 97 == 0 {
            400.0
        } else {
            n.next() * 50.0
        }
    });
    gen("\\\\SRV\\Memory\\Page Reads/sec", &mut |_, n| {
        n.next() * 20.0
    });
    gen("\\\\SRV\\Memory\\Pool Nonpaged Bytes", &mut |_, n| {
        n.around(300.0 * MB, 2.0 * MB)
    });
    gen("\\\\SRV\\Memory\\Pool Paged Bytes", &mut |_, n| {
        n.around(500.0 * MB, 4.0 * MB)
    });
    for disk in ["C:", "D:", "_Total"] {
        gen(
            &format!("\\\\SRV\\LogicalDisk({disk})\\Avg. Disk sec/Read"),
            &mut |i, n| {
                if i == 200 {
                    0.120
                } else {
                    n.around(0.005, 0.003)
                }
            },
        );
        gen(
            &format!("\\\\SRV\\LogicalDisk({disk})\\Avg. Disk sec/Write"),
            &mut |_, n| n.around(0.004, 0.003),
        );
        gen(
            &format!("\\\\SRV\\LogicalDisk({disk})\\Avg. Disk Queue Length"),
            &mut |_, n| n.next() * 2.0,
        );
        gen(
            &format!("\\\\SRV\\LogicalDisk({disk})\\% Idle Time"),
            &mut |_, n| n.around(92.0, 7.0),
        );
        gen(
            &format!("\\\\SRV\\LogicalDisk({disk})\\% Free Space"),
            &mut |_, n| n.around(40.0, 0.1),
        );
    }
    gen(
        "\\\\SRV\\Network Interface(Ethernet)\\Output Queue Length",
        &mut |_, _| 0.0,
    );
    gen(
        "\\\\SRV\\Network Interface(Ethernet)\\Bytes Total/sec",
        &mut |_, n| n.around(3.0 * MB, 2.0 * MB),
    );
    for p in ["svchost", "sqlservr", "w3wp", "Idle", "_Total"] {
        gen(
            &format!("\\\\SRV\\Process({p})\\Handle Count"),
            &mut |_, n| n.around(1500.0, 40.0).round(),
        );
        gen(
            &format!("\\\\SRV\\Process({p})\\Thread Count"),
            &mut |_, n| n.around(60.0, 6.0).round(),
        );
        gen(
            &format!("\\\\SRV\\Process({p})\\Private Bytes"),
            &mut |_, n| n.around(400.0 * MB, 8.0 * MB),
        );
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// Whatever the wobble (the seed of the noise), a calm server gives no finding.
    #[test]
    fn any_calm_server_gives_no_finding(seed in 1u64..u64::MAX) {
        let a = analyze(&capture(calm(&mut Noise(seed))), &AnalyzeOptions::default()).unwrap();
        let said: Vec<&str> = a.findings.iter().map(|f| f.message.as_str()).collect();
        prop_assert!(said.is_empty(), "findings on a calm server:\n{}", said.join("\n"));
    }
}

#[test]
fn a_calm_healthy_server_gives_no_finding() {
    let mut noise = Noise(0x9e37_79b9_7f4a_7c15);
    let cap = capture(calm(&mut noise));
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    let said: Vec<&str> = a.findings.iter().map(|f| f.message.as_str()).collect();
    assert!(
        said.is_empty(),
        "findings on a calm server:\n{}",
        said.join("\n")
    );
    // And the system overview did run: every one of its rules on the counters above (36 of 44: not
    // the paging file's two, which this server does not log, nor the six on counters it lacks).
    let ran = a
        .rules
        .iter()
        .filter(|r| r.pack == "system-overview" && r.skipped.is_none())
        .count();
    assert_eq!(
        ran,
        36,
        "{:#?}",
        a.rules
            .iter()
            .filter(|r| r.skipped.is_some())
            .collect::<Vec<_>>()
    );
    // logicalProcessors derived from Processor(0..3): 4.
    assert_eq!(
        a.variables.get("logicalProcessors").map(|v| v.to_string()),
        Some("4".to_string())
    );
}

#[test]
fn a_pegged_cpu_and_a_server_running_out_of_memory_are_said() {
    let mut noise = Noise(0x1234_5678_9abc_def1);
    let mut s = calm(&mut noise);
    // CPU pegged from 08:30 to 09:00 (samples 120..240); available memory falling from 6000 MB to
    // 300 MB over the second hour (samples 240..480), below 5% of 16 GB = 819.2 MB from sample
    // 240 + (6000 - 819.2) / (5700 / 240) = 240 + 218.1 = 458.1 on.
    for x in s.iter_mut() {
        if x.path.contains("Processor(") && x.path.ends_with("% Processor Time") {
            for i in 120..240 {
                x.values[i] = 99.0;
            }
        }
        if x.path.ends_with("Available MBytes") {
            for i in 240..N {
                x.values[i] = 6000.0 - 5700.0 * (i - 240) as f64 / 240.0;
            }
        }
    }
    let a = analyze(&capture(s), &AnalyzeOptions::default()).unwrap();
    let cpu: Vec<_> = a
        .findings
        .iter()
        .filter(|f| f.rule == "processor-time-critical" && f.path.contains("_Total"))
        .collect();
    assert_eq!(cpu.len(), 1, "{:#?}", a.findings);
    // The rule holds 95% for 5 minutes sample by sample: the run of 99s from sample 120 (08:30) to
    // sample 239 (08:59:45), 119 * 15 s = 1785 s, whatever the slices.
    assert_eq!(cpu[0].start, T0 + 120.0 * STEP, "{:?}", cpu[0]);
    assert_eq!(cpu[0].end, T0 + 239.0 * STEP, "{:?}", cpu[0]);
    assert_eq!(cpu[0].worst, 99.0);
    assert_eq!(cpu[0].severity, Severity::Critical);
    assert!(
        a.findings
            .iter()
            .any(|f| f.rule == "available-memory-critical"),
        "{:#?}",
        a.findings
    );
    assert!(a
        .findings
        .iter()
        .any(|f| f.rule == "available-memory-warning" || f.rule == "available-memory-critical"));
}

#[test]
fn every_threshold_expression_of_the_built_ins_evaluates_with_the_defaults() {
    // PhysicalMemoryGB 16, logicalProcessors 4, LinkSpeedMbps 1000: e.g. the nonpaged pool warning
    // 16 * 1GB * 0.10 = 1717986918.4 bytes, the processor queue warning 4 * 10 = 40.
    for p in builtin_packs() {
        let default = |name: &str| {
            p.variables
                .iter()
                .find(|v| v.name == name)
                .and_then(|v| match v.default {
                    Value::Number(n) => Some(n),
                    Value::Text(_) => None,
                })
        };
        for r in &p.rules {
            if let Threshold::Expression(e) = &r.threshold {
                let parsed =
                    Expr::parse(e).unwrap_or_else(|err| panic!("{}/{}: {err}", p.id, r.id));
                let v = parsed
                    .eval(&default)
                    .unwrap_or_else(|name| panic!("{}/{}: no default for {name}", p.id, r.id));
                assert!(v.is_finite() && v > 0.0, "{}/{}: {v}", p.id, r.id);
            }
        }
    }
    let so = builtin_packs()
        .iter()
        .find(|p| p.id == "system-overview")
        .unwrap();
    let t = |id: &str| match &so.rules.iter().find(|r| r.id == id).unwrap().threshold {
        Threshold::Expression(e) => Expr::parse(e)
            .unwrap()
            .eval(&|n| match n {
                "PhysicalMemoryGB" => Some(16.0),
                "logicalProcessors" => Some(4.0),
                "LinkSpeedMbps" => Some(1000.0),
                _ => None,
            })
            .unwrap(),
        Threshold::Number(n) => *n,
    };
    assert_eq!(t("pool-nonpaged-warning"), 1_717_986_918.4);
    assert_eq!(t("processor-queue-warning"), 40.0);
    // 1000 Mbit/s = 125000000 bytes/s; 30% of it = 37500000.
    assert_eq!(t("network-utilisation-warning"), 37_500_000.0);
}

#[test]
fn the_pack_imported_from_pal_runs_on_a_capture() {
    let xml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/pal/SystemOverview.xml"
    ))
    .unwrap();
    let imp = import_pal(&[("SystemOverview.xml".into(), xml)]).unwrap();
    let cap = capture(calm(&mut Noise(7)));
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(imp.pack.clone())]),
            ..Default::default()
        },
    )
    .unwrap();
    // Every translated rule is listed; those on counters the capture has ran (Private Bytes, Handle
    // Count and Thread Count on the 4 processes other than _Total), the others say why not.
    assert_eq!(a.rules.len(), imp.pack.rules.len());
    let run = |id: &str| a.rules.iter().find(|r| r.rule == id).unwrap();
    assert_eq!(run("process-private-bytes-1").series, 4);
    assert!(run("process-working-set-1")
        .skipped
        .as_deref()
        .unwrap()
        .contains("no series"));
    // logicalProcessors * 20 = 80 on \Processor(*)\% Processor Time: the calm server stays under it.
    assert_eq!(run("process-privileged-time-2").series, 5);
    assert!(a.findings.is_empty(), "{:#?}", a.findings);
}

#[test]
fn sql_rules_match_default_and_named_instances() {
    // Page life expectancy 100 s (below 300) on a default and a named instance; 5000 s on another.
    let s = vec![
        series(
            "\\\\SRV\\SQLServer:Buffer Manager\\Page life expectancy",
            vec![100.0; N],
        ),
        series(
            "\\\\SRV\\MSSQL$PROD:Buffer Manager\\Page life expectancy",
            vec![100.0; N],
        ),
        series(
            "\\\\SRV\\MSSQL$TEST:Buffer Manager\\Page life expectancy",
            vec![5000.0; N],
        ),
    ];
    let a = analyze(&capture(s), &AnalyzeOptions::default()).unwrap();
    let run = a
        .rules
        .iter()
        .find(|r| r.pack == "sql-server" && r.rule == "page-life-expectancy-warning")
        .unwrap();
    assert_eq!(run.series, 3);
    let mut paths: Vec<&str> = a.findings.iter().map(|f| f.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(
        paths,
        vec![
            "\\\\SRV\\MSSQL$PROD:Buffer Manager\\Page life expectancy",
            "\\\\SRV\\SQLServer:Buffer Manager\\Page life expectancy"
        ]
    );
    // One finding each over the whole capture: 08:00 to 10:00.
    for f in &a.findings {
        assert_eq!((f.start, f.end), (T0, T0 + 120.0 * 60_000.0));
    }
}
