//! Sustained trouble is never missed and a single spike never alarms, whatever the slice length: the
//! built-in packs' episode rules on a two-day log at 15 s, PhysicalDisk latency, and no hourly trend
//! from a log of 82 seconds.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::{
    analyze, AnalyzeOptions, PackRef, RulePack, Severity, SliceLength, Stat,
};
use counterlens::capture::{Capture, Series};

const STEP: f64 = 15_000.0;
/// 2025-11-20 00:00:00 UTC: days_from_civil(2025, 11, 20) = 20412.
const T0: f64 = 20412.0 * 86_400_000.0;

fn capture(n: usize, step: f64, series: Vec<Series>) -> Capture {
    Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: (0..n).map(|i| T0 + i as f64 * step).collect(),
        series,
        notes: Vec::new(),
    }
}

/// Two days at 15 s: 2 * 86400 / 15 = 11520 intervals, 11521 samples; CPU 30% with `peak` over
/// `range`.
fn two_days(peak: f64, range: std::ops::Range<usize>) -> Capture {
    const N: usize = 11_521;
    let mut cpu = vec![30.0; N];
    for i in range {
        cpu[i] = peak;
    }
    capture(
        N,
        STEP,
        vec![Series::new(
            "\\\\SRV\\Processor(_Total)\\% Processor Time".into(),
            cpu,
        )],
    )
}

#[test]
fn twenty_minutes_at_98_percent_in_two_days_is_critical() {
    // 20 minutes = 80 samples, 5000..5080, from sample 5000 to 5079, 79 * 15 s = 1185 s: most of every
    // 5-minute window (21 samples) above 95 is the critical episode, most of every 15-minute one
    // (61) above 80 the warning's, and 20 minutes is more than a tenth of two hours above 95 (the
    // bursts rule), over the same samples: three findings, one card.
    let cap = two_days(98.0, 5000..5080);
    // Auto slices are 1.6 h (48 h / 30): the slice average is about 30 + 68 * 80 / 384 = 44%, far
    // below 95; the episode rules see the samples.
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    let cpu: Vec<_> = a
        .findings
        .iter()
        .filter(|f| f.pack == "system-overview")
        .collect();
    assert_eq!(cpu.len(), 3, "{:#?}", a.findings);
    assert_eq!(a.groups.len(), 1);
    assert_eq!(a.groups[0].severity, Severity::Critical);
    let f = cpu
        .iter()
        .find(|f| f.rule == "processor-time-critical")
        .unwrap();
    let w = cpu
        .iter()
        .find(|f| f.rule == "processor-time-warning")
        .unwrap();
    assert_eq!((w.start, w.end), (f.start, f.end));
    assert_eq!(f.rule, "processor-time-critical");
    assert_eq!(f.severity, Severity::Critical);
    assert_eq!(f.broke, vec![Stat::Value]);
    assert_eq!(f.worst, 98.0);
    assert_eq!(f.start, T0 + 5000.0 * STEP);
    assert_eq!(f.end, T0 + 5079.0 * STEP);
    // 5000 * 15 s = 20 h 50 min; 5079 * 15 s = 21 h 9 min 45 s; 1185 s rounds to 20 min.
    assert_eq!(
        f.message,
        "\\\\SRV\\Processor(_Total)\\% Processor Time above 95% for 20 min, 100% of the time (mean 98%, max 98%) from 2025-11-20 20:50 to 2025-11-20 21:09:45 UTC"
    );
    // The same with slices of one hour, or of 10 s: the same finding.
    for slice in [3_600_000.0, 10_000.0] {
        let b = analyze(
            &cap,
            &AnalyzeOptions {
                slice: SliceLength::Ms(slice),
                ..Default::default()
            },
        )
        .unwrap();
        let got: Vec<_> = b
            .findings
            .iter()
            .map(|f| (f.rule.as_str(), f.start, f.end))
            .collect();
        assert_eq!(
            got,
            vec![
                ("processor-time-critical", f.start, f.end),
                ("processor-bursts-warning", f.start, f.end),
                ("processor-time-warning", f.start, f.end)
            ],
            "slice {slice}"
        );
    }
}

#[test]
fn a_single_sample_at_100_percent_is_no_finding() {
    let cap = two_days(100.0, 7000..7001);
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    assert!(a.findings.is_empty(), "{:#?}", a.findings);
    // Nor two minutes of it: 8 samples of a 5-minute window's 21 (38%, not most of it), its mean
    // (8 * 100 + 13 * 30) / 21 = 56.7 below 95.
    let cap = two_days(100.0, 7000..7008);
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    assert!(a.findings.is_empty(), "{:#?}", a.findings);
    // Three minutes (12 of 21 samples, most of a window) is an episode of the critical rule: the line
    // between a spike and saturation is "most of the window".
    let cap = two_days(100.0, 7000..7012);
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    let rules: Vec<&str> = a.findings.iter().map(|f| f.rule.as_str()).collect();
    assert_eq!(rules, vec!["processor-time-critical"]);
}

#[test]
fn a_long_warning_around_a_short_critical_is_both_once() {
    // 85% from sample 1000 to 1199 (200 samples, 50 min), 98% inside it from 1100 to 1139 (10 min).
    let mut cap = two_days(85.0, 1000..1200);
    for v in &mut cap.series[0].values[1100..1140] {
        *v = 98.0;
    }
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), (f.start - T0) / STEP, (f.end - T0) / STEP))
        .collect();
    // Critical: 1100..=1139 (most of every 5-minute window around it). The warning episode is the
    // whole stretch above 80, 1000..=1199, kept whole (episodes take no samples out of each other): one
    // card, critical, spanning the 50 minutes.
    assert_eq!(
        got,
        vec![
            ("processor-time-warning", 1000.0, 1199.0),
            ("processor-time-critical", 1100.0, 1139.0),
        ]
    );
    assert_eq!(a.groups.len(), 1);
    assert_eq!(
        (
            a.groups[0].severity,
            (a.groups[0].start - T0) / STEP,
            (a.groups[0].end - T0) / STEP
        ),
        (Severity::Critical, 1000.0, 1199.0)
    );
}

#[test]
fn forty_ms_physical_disk_reads_for_ten_minutes_are_found() {
    // Two hours at 15 s (481 samples); reads at 4 ms, 40 ms from sample 100 to 139 (40 samples, ten
    // minutes).
    const N: usize = 481;
    let mut reads = vec![0.004; N];
    for v in &mut reads[100..140] {
        *v = 0.040;
    }
    let cap = capture(
        N,
        STEP,
        vec![Series::new(
            "\\\\SRV\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read".into(),
            reads,
        )],
    );
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), f.start, f.end, f.worst))
        .collect();
    // Critical: most of 5-minute windows (21 samples) above 25 ms. Warning: a 10-minute window holds 41
    // samples, of which 40 are at 40 ms (most of it): the same samples. Both, one card.
    let (s, e) = (T0 + 100.0 * STEP, T0 + 139.0 * STEP);
    assert_eq!(
        got,
        vec![
            ("physical-disk-read-latency-critical", s, e, 0.040),
            ("physical-disk-read-latency-warning", s, e, 0.040)
        ]
    );
    assert_eq!(a.groups.len(), 1);
    assert_eq!(a.groups[0].severity, Severity::Critical);
}

#[test]
fn an_82_second_log_gets_no_hourly_trend() {
    // 42 samples 2 s apart (82 s); Private Bytes growing 1 MB a sample: 1.76 GB an hour if extrapolated.
    const N: usize = 42;
    let bytes: Vec<f64> = (0..N).map(|i| 400e6 + i as f64 * 1_048_576.0).collect();
    let cap = capture(
        N,
        2_000.0,
        vec![Series::new(
            "\\\\SRV\\Process(w3wp)\\Private Bytes".into(),
            bytes,
        )],
    );
    let a = analyze(&cap, &AnalyzeOptions::default()).unwrap();
    assert!(a.findings.is_empty(), "{:#?}", a.findings);
    let run = a
        .rules
        .iter()
        .find(|r| r.rule == "private-bytes-trend")
        .unwrap();
    assert_eq!(
        run.skipped.as_deref(),
        Some("a trend per hour needs at least an hour of log; the range analysed is 82 s")
    );
    assert_eq!(run.series, 0);
}

#[test]
fn a_trend_is_judged_only_after_an_hour() {
    // Three hours at 15 s (721 samples), Private Bytes growing 200 MB an hour from the start: with 30
    // slices of 6 minutes, a slice trend rule (PAL's, as the pack below has it; the built-in leak rules
    // judge growth over the whole range instead, `growth` in docs/rule-packs.md) breaks 100 MB/h from
    // the first slice on, but is judged only from slice 9 (ending at 60 min) on.
    const N: usize = 721;
    let mb = 1_048_576.0;
    let bytes: Vec<f64> = (0..N)
        .map(|i| 400.0 * mb + 200.0 * mb * (i as f64 * STEP) / 3_600_000.0)
        .collect();
    let cap = capture(
        N,
        STEP,
        vec![Series::new(
            "\\\\SRV\\Process(w3wp)\\Private Bytes".into(),
            bytes,
        )],
    );
    let pack = RulePack::from_json(
        r#"{ "id": "t", "title": "T", "version": "1", "source": "test", "rules": [
             { "id": "private-bytes-trend", "title": "Private bytes trend", "counter": "\\Process(*)\\Private Bytes",
               "kind": "trend", "severity": "warning", "operator": "gt", "threshold": "100MB" } ] }"#,
    )
    .unwrap();
    let options = AnalyzeOptions {
        packs: Some(vec![PackRef::Pack(pack)]),
        ..AnalyzeOptions::default()
    };
    let a = analyze(&cap, &options).unwrap();
    let f: Vec<_> = a
        .findings
        .iter()
        .filter(|f| f.rule == "private-bytes-trend")
        .collect();
    assert_eq!(f.len(), 1, "{:#?}", a.findings);
    assert_eq!(f[0].start, T0 + 54.0 * 60_000.0);
    assert_eq!(f[0].end, T0 + 180.0 * 60_000.0);
    assert!(
        f[0].message.contains("trend above 100 MB per hour"),
        "{}",
        f[0].message
    );
}
