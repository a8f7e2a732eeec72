//! End-to-end tests of `analyze` on small captures built here, expectations computed by hand.

use super::*;
use crate::capture::Series;
use proptest::prelude::*;

const MIN: f64 = 60_000.0;
/// 2026-11-20 10:00:00 UTC: days_from_civil(2026, 11, 20) = 20412; 20412 * 86400000 + 10 * 3600000.
const T0: f64 = 20412.0 * 86_400_000.0 + 10.0 * 3_600_000.0;

fn series(path: &str, values: Vec<f64>) -> Series {
    Series::new(path.to_string(), values)
}

/// Samples every minute from 10:00 to 11:00 (61 of them): `auto` cuts 30 slices of 2 minutes, slice i
/// holding minutes 2i and 2i+1 (the last also minute 60).
fn capture(series: Vec<Series>) -> Capture {
    Capture {
        format: Some(crate::capture::Format::PdhCsv),
        encoding: Some(crate::capture::CaptureEncoding::Text(
            crate::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: (0..=60).map(|i| T0 + i as f64 * MIN).collect(),
        series,
        notes: Vec::new(),
    }
}

fn pack(rules: &str) -> RulePack {
    RulePack::from_json(&format!(
        r#"{{ "id": "t", "title": "T", "variables": [ {{ "name": "PhysicalMemoryGB", "default": 8 }} ],
             "rules": [ {rules} ] }}"#
    ))
    .unwrap()
}

fn run(c: &Capture, p: RulePack, vars: &[(&str, Value)]) -> Result<Analysis, AnalysisError> {
    analyze(
        c,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(p)]),
            variables: vars
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
            ..Default::default()
        },
    )
}

const CPU_WARNING: &str = r#"{ "id": "cpu-w", "group": "cpu", "title": "CPU high", "category": "Processor",
    "counter": "\\Processor(*)\\% Processor Time", "kind": "static", "severity": "warning",
    "operator": "gt", "threshold": 80 }"#;
const CPU_CRITICAL: &str = r#"{ "id": "cpu-c", "group": "cpu", "title": "CPU very high", "category": "Processor",
    "counter": "\\Processor(*)\\% Processor Time", "kind": "static", "severity": "critical",
    "operator": "gt", "threshold": 95 }"#;

/// 20% but for minutes 40..=49: 90 on even minutes, 97.3 on odd ones.
fn cpu_pegged() -> Vec<f64> {
    (0..=60)
        .map(|m| match m {
            40..=49 if m % 2 == 0 => 90.0,
            40..=49 => 97.3,
            _ => 20.0,
        })
        .collect()
}

#[test]
fn a_pegged_cpu_is_one_finding_with_its_range_and_worst() {
    let c = capture(vec![series(
        r"\\SRV\Processor(_Total)\% Processor Time",
        cpu_pegged(),
    )]);
    let a = run(&c, pack(CPU_WARNING), &[]).unwrap();
    assert_eq!(a.slices.len(), 30);
    // Minutes 40..=49 are slices 20..=24 (each {90, 97.3}: min 90, avg 93.65, max 97.3, all > 80):
    // one finding from 10:40 to 10:50.
    assert_eq!(a.findings.len(), 1, "{:#?}", a.findings);
    let f = &a.findings[0];
    assert_eq!((f.start, f.end), (T0 + 40.0 * MIN, T0 + 50.0 * MIN));
    assert_eq!(f.broke, vec![Stat::Min, Stat::Avg, Stat::Max]);
    assert_eq!(
        (f.worst, f.threshold, f.severity),
        (97.3, 80.0, Severity::Warning)
    );
    assert_eq!(
        f.message,
        // A percent reads with its sign wherever it is written (words::value).
        r"\\SRV\Processor(_Total)\% Processor Time above 80% (max 97.3%) from 10:40 to 10:50 UTC"
    );
    assert_eq!(
        a.rules,
        vec![RuleRun {
            pack: "t".into(),
            rule: "cpu-w".into(),
            title: "CPU high".into(),
            category: "Processor".into(),
            severity: Severity::Warning,
            description: Default::default(),
            references: Vec::new(),
            group: Some("cpu".into()),
            trend: false,
            operator: Some(Operator::Gt),
            variables: Vec::new(),
            counter: r"\Processor(*)\% Processor Time".into(),
            episode: None,
            growth: None,
            series: 1,
            threshold: Some(80.0),
            skipped: None
        }]
    );
    // One card: the one finding, its own worst.
    assert_eq!(a.groups.len(), 1);
    assert_eq!(
        (
            a.groups[0].findings.clone(),
            a.groups[0].worst,
            a.groups[0].series
        ),
        (vec![0], 0, 1)
    );
    // What the log says of itself: the machine, 61 samples a minute apart.
    assert_eq!(a.log.machines, vec!["SRV".to_string()]);
    assert_eq!(a.log.interval_ms, Some(MIN));
}

#[test]
fn slices_without_values_do_not_end_a_finding() {
    // Minutes 44 and 45 (all of slice 22) missing: slices 20, 21 | 22 empty | 23, 24 still make one
    // finding 10:40-10:50. A value back under the threshold (minute 48, 49 at 20: slice 24) ends it at
    // slice 23's end, 10:48.
    let v: Vec<f64> = cpu_pegged()
        .into_iter()
        .enumerate()
        .map(|(m, x)| if m == 44 || m == 45 { f64::NAN } else { x })
        .collect();
    let c = capture(vec![series(
        r"\\SRV\Processor(_Total)\% Processor Time",
        v.clone(),
    )]);
    let a = run(&c, pack(CPU_WARNING), &[]).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| ((f.start - T0) / MIN, (f.end - T0) / MIN))
        .collect();
    assert_eq!(got, vec![(40.0, 50.0)]);
    let v: Vec<f64> = v
        .into_iter()
        .enumerate()
        .map(|(m, x)| if m == 48 || m == 49 { 20.0 } else { x })
        .collect();
    let c = capture(vec![series(r"\\SRV\Processor(_Total)\% Processor Time", v)]);
    let a = run(&c, pack(CPU_WARNING), &[]).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| ((f.start - T0) / MIN, (f.end - T0) / MIN))
        .collect();
    assert_eq!(got, vec![(40.0, 48.0)]);
}

#[test]
fn critical_wins_the_slice_within_a_group() {
    // 97.3 only at minutes 44..=47 (slices 22, 23); 90 at 40..=43 and 48..=49 (slices 20, 21, 24).
    let v: Vec<f64> = (0..=60)
        .map(|m| match m {
            44..=47 => 97.3,
            40..=49 => 90.0,
            _ => 20.0,
        })
        .collect();
    let c = capture(vec![series(r"\\SRV\Processor(_Total)\% Processor Time", v)]);
    let a = run(&c, pack(&format!("{CPU_WARNING}, {CPU_CRITICAL}")), &[]).unwrap();
    // Critical breaks slices 22-23 (max 97.3 > 95); the warning breaks 20-24 but loses 22-23 to it:
    // warning 20-21 (10:40-10:44), critical 22-23 (10:44-10:48), warning 24 (10:48-10:50).
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| {
            (
                f.rule.as_str(),
                (f.start - T0) / MIN,
                (f.end - T0) / MIN,
                f.worst,
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("cpu-w", 40.0, 44.0, 90.0),
            ("cpu-c", 44.0, 48.0, 97.3),
            ("cpu-w", 48.0, 50.0, 90.0)
        ]
    );
    // Without a group the two rules are independent: the warning covers 40-50 whole.
    let ungrouped = format!("{CPU_WARNING}, {CPU_CRITICAL}").replace(r#""group": "cpu","#, "");
    let a = run(&c, pack(&ungrouped), &[]).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| (f.rule.as_str(), (f.start - T0) / MIN, (f.end - T0) / MIN))
        .collect();
    assert_eq!(got, vec![("cpu-w", 40.0, 50.0), ("cpu-c", 44.0, 48.0)]);
}

#[test]
fn findings_sort_by_start_then_critical_first() {
    // Two series breaking from the same slice: the critical one on _Total first.
    let c = capture(vec![
        series(r"\\SRV\Processor(0)\% Processor Time", cpu_pegged()),
        series(r"\\SRV\Processor(_Total)\% Processor Time", cpu_pegged()),
    ]);
    let crit = CPU_CRITICAL.replace(r#""group": "cpu","#, "").replace(
        r#""kind""#,
        r#""instances": { "include": ["_Total"] }, "kind""#,
    );
    let warn = CPU_WARNING.replace(r#""group": "cpu","#, "").replace(
        r#""kind""#,
        r#""instances": { "exclude": ["_total"] }, "kind""#,
    );
    let a = run(&c, pack(&format!("{warn}, {crit}")), &[]).unwrap();
    let got: Vec<_> = a
        .findings
        .iter()
        .map(|f| (f.severity, f.series_index, (f.start - T0) / MIN))
        .collect();
    // Critical (max 97.3 > 95) on series 1 from 10:40; the warning on series 0 from 10:40 too.
    assert_eq!(
        got,
        vec![(Severity::Critical, 1, 40.0), (Severity::Warning, 0, 40.0)]
    );
}

#[test]
fn a_trend_rule_reads_the_slope_per_hour() {
    // Handles grow by 60 a minute: 3600 an hour; minute 60 is missing, so every slice i holds minutes
    // 2i and 2i+1 and its average 1000 + 60 (2i + 0.5) lies on one line, 30 below the value at the
    // slice middle 2i + 1: the least-squares slope of points on a line is its slope, 60 a minute = 3600
    // per hour, from slice 1 on (slice 0 alone has no slope). A trend is judged only once the slices
    // behind it span an hour: the last slice (58 to 60 minutes) only.
    let v: Vec<f64> = (0..=60)
        .map(|m| {
            if m == 60 {
                f64::NAN
            } else {
                1000.0 + 60.0 * m as f64
            }
        })
        .collect();
    let c = capture(vec![series(r"\\SRV\Process(app)\Handle Count", v)]);
    let p = pack(
        r#"{ "id": "handles", "title": "Handle leak", "counter": "\\Process(*)\\Handle Count",
             "kind": "trend", "severity": "warning", "operator": "gt", "threshold": 1000 }"#,
    );
    let a = run(&c, p, &[]).unwrap();
    assert_eq!(a.findings.len(), 1);
    let f = &a.findings[0];
    assert_eq!(((f.start - T0) / MIN, (f.end - T0) / MIN), (58.0, 60.0));
    assert_eq!(f.broke, vec![Stat::Trend]);
    assert!((f.worst - 3600.0).abs() < 1e-6, "{}", f.worst);
    assert_eq!(
        f.message,
        r"\\SRV\Process(app)\Handle Count trend above 1000 per hour (trend 3600 per hour) from 10:58 to 11:00 UTC"
    );
}

#[test]
fn thresholds_from_variables_user_over_default() {
    // Available MBytes: 4000, but 1000 at minutes 10..=13 (slices 5, 6).
    let v: Vec<f64> = (0..=60)
        .map(|m| {
            if (10..=13).contains(&m) {
                1000.0
            } else {
                4000.0
            }
        })
        .collect();
    let c = capture(vec![series(r"\\SRV\Memory\Available MBytes", v)]);
    let rule = r#"{ "id": "mem", "title": "Low memory", "counter": "\\Memory\\Available MBytes",
        "kind": "static", "stats": ["avg"], "severity": "critical", "operator": "lt",
        "threshold": "PhysicalMemoryGB * 1024 * 0.10" }"#;
    // Default 8 GB: 8 * 1024 * 0.10 = 819.2 MB; 1000 is not below it: no finding.
    let a = run(&c, pack(rule), &[]).unwrap();
    assert!(a.findings.is_empty());
    assert_eq!(a.variables["PhysicalMemoryGB"], Value::Number(8.0));
    assert_eq!(a.variable_sources["PhysicalMemoryGB"], Origin::Pack);
    // The user says 16 GB: 16 * 1024 * 0.10 = 1638.4 MB; the avg 1000 of slices 5-6 is below it.
    let a = run(&c, pack(rule), &[("PhysicalMemoryGB", Value::Number(16.0))]).unwrap();
    assert_eq!(a.variable_sources["PhysicalMemoryGB"], Origin::User);
    assert_eq!(a.findings.len(), 1);
    let f = &a.findings[0];
    assert!((f.threshold - 1638.4).abs() < 1e-9);
    // The evaluated threshold is reported with the rule too (what the viewer draws).
    assert!((a.rules[0].threshold.unwrap() - 1638.4).abs() < 1e-9);
    assert_eq!(((f.start - T0) / MIN, (f.end - T0) / MIN), (10.0, 14.0));
    assert_eq!(f.broke, vec![Stat::Avg]);
    // Sizes read as sizes: 1638.4 MB / 1024 = 1.6 GB; 1000 MB stays MB (under 1024).
    assert_eq!(
        f.message,
        r"\\SRV\Memory\Available MBytes below 1.6 GB (avg 1000 MB) from 10:10 to 10:14 UTC"
    );
    // Clamps: thresholdMax 1000 -> min(1638.4, 1000) = 1000; 1000 is not below 1000.
    let clamped = rule.replace(r#""threshold":"#, r#""thresholdMax": 1000, "threshold":"#);
    let a = run(
        &c,
        pack(&clamped),
        &[("PhysicalMemoryGB", Value::Number(16.0))],
    )
    .unwrap();
    assert!(a.findings.is_empty());
}

#[test]
fn bad_variables_are_errors_naming_them() {
    let c = capture(vec![series(
        r"\\SRV\Memory\Available MBytes",
        vec![1.0; 61],
    )]);
    let unknown = r#"{ "id": "m", "title": "M", "counter": "\\Memory\\Available MBytes", "kind": "static",
        "severity": "warning", "operator": "lt", "threshold": "TotalRamGB * 2" }"#;
    match run(&c, pack(unknown), &[]) {
        Err(AnalysisError::UnknownVariable { name, rule, .. }) => {
            assert_eq!((name.as_str(), rule.as_str()), ("TotalRamGB", "m"))
        }
        other => panic!("{other:?}"),
    }
    let uses = unknown.replace("TotalRamGB", "PhysicalMemoryGB");
    match run(
        &c,
        pack(&uses),
        &[("PhysicalMemoryGB", Value::Text("lots".into()))],
    ) {
        Err(AnalysisError::NonNumericVariable { name, value }) => {
            assert_eq!(
                (name.as_str(), value.as_str()),
                ("PhysicalMemoryGB", "lots")
            )
        }
        other => panic!("{other:?}"),
    }
    // A number given as text is a number.
    assert!(run(
        &c,
        pack(&uses),
        &[("PhysicalMemoryGB", Value::Text(" 32 ".into()))]
    )
    .is_ok());
    let bad = unknown.replace("TotalRamGB * 2", "2 *");
    assert!(matches!(
        run(&c, pack(&bad), &[]),
        Err(AnalysisError::Expression { .. })
    ));
}

#[test]
fn rules_that_cannot_run_say_why() {
    let c = capture(vec![series(
        r"\\SRV\Processor(_Total)\% Processor Time",
        vec![1.0; 61],
    )]);
    let sql = r#"{ "id": "ple", "title": "PLE", "counter": "\\SQLServer:Buffer Manager\\Page life expectancy",
        "kind": "static", "severity": "warning", "operator": "lt", "threshold": 300 }"#;
    let only_total = CPU_WARNING.replace(
        r#""kind""#,
        r#""instances": { "exclude": ["_Total"] }, "kind""#,
    );
    let a = run(&c, pack(&format!("{sql}, {only_total}")), &[]).unwrap();
    assert_eq!(
        a.rules[0].skipped.as_deref(),
        Some(r"no series in the capture matches \SQLServer:Buffer Manager\Page life expectancy")
    );
    assert_eq!(
        a.rules[1].skipped.as_deref(),
        Some(r"1 series match \Processor(*)\% Processor Time but the instance filter leaves none")
    );
    assert_eq!((a.rules[0].series, a.rules[1].series), (0, 0));
    assert_eq!((a.rules[0].threshold, a.rules[1].threshold), (None, None));
    // A threshold that is no number (0 / 0) is a skip with the reason, not a silent rule.
    let nan = CPU_WARNING.replace(r#""threshold": 80"#, r#""threshold": "0 / 0""#);
    let a = run(&c, pack(&nan), &[]).unwrap();
    assert!(a.rules[0]
        .skipped
        .as_deref()
        .unwrap()
        .contains("not a finite number"));
}

#[test]
fn min_duration_percent_needs_that_share_of_points() {
    // Slices of two points {90, 10}: max 90 > 80, but only 1 point of 2 = 50% is above.
    let v: Vec<f64> = (0..=60)
        .map(|m| if m % 2 == 0 { 90.0 } else { 10.0 })
        .collect();
    let c = capture(vec![series(r"\\SRV\Processor(_Total)\% Processor Time", v)]);
    let with = |p: u32| {
        CPU_WARNING.replace(
            r#""threshold": 80"#,
            &format!(r#""threshold": 80, "minDurationPercent": {p}"#),
        )
    };
    // 50% >= 50%: every slice breaks: one finding over the whole hour.
    let a = run(&c, pack(&with(50)), &[]).unwrap();
    assert_eq!(a.findings.len(), 1);
    assert_eq!(
        (a.findings[0].start, a.findings[0].end),
        (T0, T0 + 60.0 * MIN)
    );
    // 50% < 60% in slices 0..=28; the last holds 58, 59, 60 = {90, 10, 90}: 2/3 = 67% >= 60%.
    let a = run(&c, pack(&with(60)), &[]).unwrap();
    assert_eq!(a.findings.len(), 1);
    assert_eq!(a.findings[0].start, T0 + 58.0 * MIN);
}

#[test]
fn localized_logs_and_derived_processors() {
    // A Spanish log: the English rule finds it; two processors derived.
    let c = capture(vec![
        series(
            r"\\SRV\Procesador(0)\% de tiempo de procesador",
            cpu_pegged(),
        ),
        series(
            r"\\SRV\Procesador(1)\% de tiempo de procesador",
            vec![5.0; 61],
        ),
    ]);
    let rule = CPU_WARNING.replace(
        r#""threshold": 80"#,
        r#""threshold": "logicalProcessors * 40""#,
    );
    let a = run(&c, pack(&rule), &[]).unwrap();
    // logicalProcessors = 2: threshold 2 * 40 = 80.
    assert_eq!(a.variables["logicalProcessors"], Value::Number(2.0));
    assert_eq!(a.variable_sources["logicalProcessors"], Origin::Capture);
    assert_eq!(a.findings.len(), 1);
    assert_eq!(a.findings[0].series_index, 0);
    assert_eq!(a.findings[0].threshold, 80.0);
}

#[test]
fn options_and_packs_by_id() {
    let c = capture(vec![series(
        r"\\SRV\Processor(_Total)\% Processor Time",
        cpu_pegged(),
    )]);
    let e = analyze(
        &c,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Builtin("no-such-pack".into())]),
            ..Default::default()
        },
    );
    assert_eq!(e, Err(AnalysisError::UnknownPack("no-such-pack".into())));
    // Slices of 10 minutes from 10:30 to 11:00: 3 slices; the pegged minutes 40..=49 fill slice 1.
    let a = analyze(
        &c,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(pack(CPU_WARNING))]),
            slice: SliceLength::Ms(10.0 * MIN),
            from: Some(T0 + 30.0 * MIN),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(a.slices.len(), 3);
    assert_eq!(a.findings.len(), 1);
    assert_eq!(
        (a.findings[0].start, a.findings[0].end),
        (T0 + 40.0 * MIN, T0 + 50.0 * MIN)
    );
    // The default (no packs) runs the built-in packs whose counters the capture has; none of them
    // errors on a capture like this one.
    assert!(analyze(&c, &AnalyzeOptions::default()).is_ok());
}

#[test]
fn the_analysis_round_trips_as_json() {
    let c = capture(vec![series(
        r"\\SRV\Processor(_Total)\% Processor Time",
        cpu_pegged(),
    )]);
    let a = run(&c, pack(CPU_WARNING), &[]).unwrap();
    let json = serde_json::to_string(&a).unwrap();
    assert!(json.contains(r#""seriesIndex":0"#) && json.contains(r#""broke":["min","avg","max"]"#));
    assert_eq!(serde_json::from_str::<Analysis>(&json).unwrap(), a);
}

proptest! {
    #[test]
    fn findings_are_sorted_disjoint_and_inside_the_range(
        a in prop::collection::vec(prop_oneof![Just(f64::NAN), 0.0f64..100.0], 61),
        b in prop::collection::vec(prop_oneof![Just(f64::NAN), 0.0f64..100.0], 61),
        slice in prop_oneof![Just(None), (1u32..20).prop_map(Some)],
    ) {
        let c = capture(vec![
            series(r"\\SRV\Processor(0)\% Processor Time", a),
            series(r"\\SRV\Processor(_Total)\% Processor Time", b),
        ]);
        let an = analyze(&c, &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(pack(&format!("{CPU_WARNING}, {CPU_CRITICAL}")))]),
            slice: slice.map_or(SliceLength::Auto, |m| SliceLength::Ms(f64::from(m) * MIN)),
            ..Default::default()
        }).unwrap();
        for w in an.findings.windows(2) {
            prop_assert!(w[0].start < w[1].start
                || (w[0].start == w[1].start && w[0].severity >= w[1].severity));
        }
        let (lo, hi) = (an.slices[0].start, an.slices.last().unwrap().end);
        for f in &an.findings {
            prop_assert!(lo <= f.start && f.start < f.end && f.end <= hi);
            // Warning and critical of the group never share a slice on one series.
            for g in &an.findings {
                if g.series_index == f.series_index && g.rule != f.rule {
                    prop_assert!(g.end <= f.start || f.end <= g.start);
                }
            }
        }
    }
}

#[test]
fn a_state_counter_that_leaves_its_value_breaks_ne() {
    // A cache state that should read 1: 1 everywhere but minutes 10..=13 (state 4, then 0, 4, 2) and
    // minute 30 (NaN: no value, which is not a different state).
    let values: Vec<f64> = (0..=60)
        .map(|m| match m {
            10 | 12 => 4.0,
            11 => 0.0,
            13 => 2.0,
            30 => f64::NAN,
            _ => 1.0,
        })
        .collect();
    let c = capture(vec![series(
        r"\\SRV\Cluster CSV Volume Cache(C1)\Cache State",
        values,
    )]);
    let rule = r#"{ "id": "state", "title": "Cache not enabled", "counter": "\\Cluster CSV Volume Cache(*)\\Cache State",
        "kind": "static", "severity": "warning", "operator": "ne", "threshold": 1 }"#;
    let a = run(&c, pack(rule), &[]).unwrap();
    // Slices of 2 minutes: slice 5 = minutes 10, 11 (min 0, avg 2, max 4), slice 6 = minutes 12, 13
    // (min 2, avg 3, max 4): every statistic differs from 1 in both; one finding from 10:10 to 10:14.
    // Slice 15 (minutes 30, 31: one value, 1) breaks nothing.
    assert_eq!(a.findings.len(), 1, "{:?}", a.findings);
    let f = &a.findings[0];
    assert_eq!(f.operator, Operator::Ne);
    assert_eq!((f.start - T0) / MIN, 10.0);
    assert_eq!((f.end - T0) / MIN, 14.0);
    assert_eq!(f.broke, vec![Stat::Min, Stat::Avg, Stat::Max]);
    // The worst is the statistic furthest from 1: |4 - 1| = 3 beats |0 - 1| = 1 and |3 - 1| = 2.
    assert_eq!(f.worst, 4.0);
    assert!(f.message.contains("not equal to 1"), "{}", f.message);
}

#[test]
fn findings_say_which_answers_they_rest_on_and_the_log_gives_the_link_speed() {
    // The built-in system overview on a log whose memory stays at 1000 MB and whose link is 10 Gbit/s,
    // its utilisation 0: Available MBytes below 10% of the default 16 GB (1638.4 MB) but not below 5%
    // (819.2 MB): one warning resting on PhysicalMemoryGB, the pack's default.
    let c = capture(vec![
        series(r"\\SRV\Memory\Available MBytes", vec![1000.0; 61]),
        series(
            r"\\SRV\Network Interface(eth0)\Current Bandwidth",
            vec![10_000_000_000.0; 61],
        ),
        // A tunnel adapter's 2^63 - 1 bit/s is no link speed: left out.
        series(
            r"\\SRV\Network Interface(isatap)\Current Bandwidth",
            vec![9_223_372_036_854_775_807.0; 61],
        ),
        series(
            r"\\SRV\Network Interface(eth0)\Bytes Total/sec",
            vec![0.0; 61],
        ),
    ]);
    let a = analyze(&c, &AnalyzeOptions::default()).unwrap();
    let f: Vec<&Finding> = a
        .findings
        .iter()
        .filter(|f| f.rule.starts_with("available-memory"))
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].severity, Severity::Warning);
    assert_eq!(
        f[0].variables,
        vec![UsedVariable {
            name: "PhysicalMemoryGB".into(),
            value: Value::Number(16.0),
            origin: Origin::Pack
        }]
    );
    // 10 000 000 000 bit/s / 1 000 000 = 10 000 Mbit/s, from the log.
    assert_eq!(a.variables["LinkSpeedMbps"], Value::Number(10_000.0));
    assert_eq!(a.variable_sources["LinkSpeedMbps"], Origin::Capture);
    assert_eq!(a.log.link_speed_mbps, Some(10_000.0));
    let run = a
        .rules
        .iter()
        .find(|r| r.rule == "network-utilisation-warning")
        .unwrap();
    // 10 000 * 1 000 000 / 8 * 0.30 = 375 000 000 bytes/s.
    assert_eq!(run.threshold, Some(375_000_000.0));
    assert_eq!(run.variables, vec!["LinkSpeedMbps".to_string()]);
    // The rule's words travel with the analysis (the report and the viewer's cards show them).
    let mem = a
        .rules
        .iter()
        .find(|r| r.rule == "available-memory-warning")
        .unwrap();
    assert!(!mem.description.is_empty() && !mem.references.is_empty());
    assert_eq!(mem.operator, Some(Operator::Lt));
}
