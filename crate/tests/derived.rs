//! Derived series: computed sample by sample from the capture's series, paired per SQL Server instance
//! or per instance, with PAL's guard and rounding; findings on them carry their definition, and
//! `derived_values` computes them again from the capture.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::{
    analyze, derived_values, explain_derived, AnalyzeOptions, PackRef, RulePack, SliceLength,
};
use counterlens::capture::{Capture, Series};

const T0: f64 = 1_700_000_000_000.0;
const STEP: f64 = 15_000.0;

fn capture(series: Vec<Series>) -> Capture {
    let n = series.first().map_or(0, |s| s.values.len());
    Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: (0..n).map(|i| T0 + i as f64 * STEP).collect(),
        series,
        notes: Vec::new(),
    }
}

fn s(path: &str, v: &[f64]) -> Series {
    Series::new(path.to_string(), v.to_vec())
}

/// PAL's SQL Compilations to Batch Requests ratio: `[int]` (halves to even) of a / b * 100 where both
/// exceed 1, else 0, per SQL instance.
const PACK: &str = r#"{
  "id": "t", "title": "T",
  "derived": [
    { "id": "compilations-ratio",
      "counter": "\\SQL Generated(*)\\SQL Compilations to Batch Requests",
      "inputs": [ { "name": "a", "counter": "\\*:SQL Statistics\\SQL Compilations/sec" },
                  { "name": "b", "counter": "\\*:SQL Statistics\\Batch Requests/sec" } ],
      "pairBy": "sqlInstance",
      "expression": "if(gt(a, 1) * gt(b, 1), round(a / b * 100), 0)" },
    { "id": "memory-gap",
      "counter": "\\SQL Generated(*)\\Target - Total Server Memory MB",
      "inputs": [ { "name": "a", "counter": "\\*:Memory Manager\\Target Server Memory (KB)" },
                  { "name": "b", "counter": "\\*:Memory Manager\\Total Server Memory (KB)" } ],
      "pairBy": "sqlInstance",
      "expression": "if(gt(a, 1) * gt(b, 1), abs(round(round(a - b) / 1024)), 0)" }
  ],
  "rules": [
    { "id": "ratio", "title": "Compilations above 10% of batch requests", "category": "SQL Server",
      "counter": "\\SQL Generated(*)\\SQL Compilations to Batch Requests",
      "kind": "static", "stats": ["max"], "severity": "warning", "operator": "gt", "threshold": 10 },
    { "id": "gap", "title": "Target and total memory apart", "category": "SQL Server",
      "counter": "\\SQL Generated(*)\\Target - Total Server Memory MB",
      "kind": "static", "stats": ["max"], "severity": "warning", "operator": "gt", "threshold": 500 }
  ]
}"#;

#[test]
fn a_ratio_per_sql_instance_with_pal_guard_and_rounding() {
    let cap = capture(vec![
        // INST1: 10/40 = 25%; 0.5 is not above 1 -> 0; batch 0 -> 0; 5/3 = 166.67 -> 167.
        s(
            "\\\\SRV\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec",
            &[10.0, 0.5, 30.0, 5.0],
        ),
        // INST2: 5/8 = 62.5 -> 62 (half to even); 7/8 = 87.5 -> 88; 1.5/2 = 75; a missing sample -> none.
        s(
            "\\\\SRV\\MSSQL$INST2:SQL Statistics\\SQL Compilations/sec",
            &[5.0, 7.0, 1.5, f64::NAN],
        ),
        s(
            "\\\\SRV\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec",
            &[40.0, 100.0, 0.0, 3.0],
        ),
        s(
            "\\\\SRV\\MSSQL$INST2:SQL Statistics\\Batch Requests/sec",
            &[8.0, 8.0, 2.0, 9.0],
        ),
        // Another machine's INST1 is no partner for SRV's.
        s(
            "\\\\OTHER\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec",
            &[1.0, 1.0, 1.0, 1.0],
        ),
        // Target - Total on the default instance (SQLServer: = MSSQLSERVER), KB:
        // 8388608 - 4194304 = 4194304 KB = 4096 MB; 8000000 - 8000512 = -512 -> -0.5 -> [int] 0 -> 0;
        // 8000000 - 7998464 = 1536 -> 1.5 -> 2 (half to even); 1 is not above 1 -> 0.
        s(
            "\\\\SRV\\SQLServer:Memory Manager\\Target Server Memory (KB)",
            &[8388608.0, 8000000.0, 8000000.0, 1.0],
        ),
        s(
            "\\\\SRV\\SQLServer:Memory Manager\\Total Server Memory (KB)",
            &[4194304.0, 8000512.0, 7998464.0, 5.0],
        ),
    ]);
    let pack = RulePack::from_json(PACK).unwrap();
    // One slice of a minute over the four samples: each series' max is compared once.
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(pack)]),
            slice: SliceLength::Ms(60_000.0),
            ..Default::default()
        },
    )
    .unwrap();
    let mut got: Vec<_> = a
        .findings
        .iter()
        .map(|f| (f.path.as_str(), f.worst, f.series_index >= cap.series.len()))
        .collect();
    got.sort_by(|x, y| x.0.cmp(y.0));
    assert_eq!(
        got,
        vec![
            (
                "\\\\SRV\\SQL Generated(INST1)\\SQL Compilations to Batch Requests",
                167.0,
                true
            ),
            (
                "\\\\SRV\\SQL Generated(INST2)\\SQL Compilations to Batch Requests",
                88.0,
                true
            ),
            (
                "\\\\SRV\\SQL Generated(MSSQLSERVER)\\Target - Total Server Memory MB",
                4096.0,
                true
            ),
        ]
    );
    // Each finding carries the definition; derived_values gives the series sample by sample.
    let values = |path: &str| {
        let f = a.findings.iter().find(|f| f.path.contains(path)).unwrap();
        let d = f.derived.as_ref().unwrap();
        derived_values(&cap, d).unwrap()
    };
    assert_eq!(values("(INST1)"), vec![25.0, 0.0, 0.0, 167.0]);
    let inst2 = values("(INST2)");
    assert_eq!(&inst2[..3], &[62.0, 88.0, 75.0]);
    assert!(inst2[3].is_nan());
    assert_eq!(values("(MSSQLSERVER)"), vec![4096.0, 0.0, 2.0, 0.0]);
    let f = a
        .findings
        .iter()
        .find(|f| f.path.contains("(INST1)"))
        .unwrap();
    let d = f.derived.as_ref().unwrap();
    assert_eq!(d.id, "compilations-ratio");
    assert_eq!(
        d.expression,
        "if(gt(a, 1) * gt(b, 1), round(a / b * 100), 0)"
    );
    let inputs: Vec<(&str, &str)> = d
        .inputs
        .iter()
        .map(|i| (i.name.as_str(), i.path.as_str()))
        .collect();
    assert_eq!(
        inputs,
        vec![
            (
                "a",
                "\\\\SRV\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec"
            ),
            (
                "b",
                "\\\\SRV\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec"
            ),
        ]
    );
    assert_eq!(cap.series[d.inputs[1].series_index].path, d.inputs[1].path);
    // The finding says what it compared: max 167 above 10.
    assert!(f.message.contains("above 10 (max 167)"), "{}", f.message);
}

#[test]
fn a_derived_series_without_partners_is_none_and_its_rules_say_so() {
    let cap = capture(vec![s(
        "\\\\SRV\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec",
        &[10.0, 20.0],
    )]);
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(RulePack::from_json(PACK).unwrap())]),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(a.findings.is_empty());
    let r = a.rules.iter().find(|r| r.rule == "ratio").unwrap();
    assert!(r.skipped.as_deref().unwrap().contains("no series"), "{r:?}");
}

#[test]
fn pairing_by_instance() {
    // PAL's Read Write Ratio: reads / (reads + writes) * 100 per LogicalDisk instance.
    let pack = r#"{ "id": "t", "title": "T",
      "derived": [ { "id": "rw", "counter": "\\LogicalDisk(*)\\Read Write Ratio",
        "inputs": [ { "name": "a", "counter": "\\LogicalDisk(*)\\Disk Reads/sec" },
                    { "name": "b", "counter": "\\LogicalDisk(*)\\Disk Writes/sec" } ],
        "pairBy": "instance", "expression": "if(gt(a, 0) * gt(b, 0), round(a / (a + b) * 100), 0)" } ],
      "rules": [ { "id": "r", "title": "R", "counter": "\\LogicalDisk(*)\\Read Write Ratio",
        "instances": { "exclude": ["_Total"] },
        "kind": "static", "stats": ["avg"], "severity": "warning", "operator": "ge", "threshold": 0 } ] }"#;
    let cap = capture(vec![
        s("\\\\SRV\\LogicalDisk(C:)\\Disk Reads/sec", &[30.0, 10.0]),
        s("\\\\SRV\\LogicalDisk(D:)\\Disk Reads/sec", &[1.0, 0.0]),
        s("\\\\SRV\\LogicalDisk(D:)\\Disk Writes/sec", &[3.0, 5.0]),
        s("\\\\SRV\\LogicalDisk(C:)\\Disk Writes/sec", &[10.0, 30.0]),
    ]);
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(RulePack::from_json(pack).unwrap())]),
            ..Default::default()
        },
    )
    .unwrap();
    // C: 30/40 = 75, 10/40 = 25; D: 1/4 = 25, reads 0 -> 0.
    let v: Vec<(String, Vec<f64>)> = a
        .findings
        .iter()
        .map(|f| {
            (
                f.path.clone(),
                derived_values(&cap, f.derived.as_ref().unwrap()).unwrap(),
            )
        })
        .collect();
    assert_eq!(
        v,
        vec![
            (
                "\\\\SRV\\LogicalDisk(C:)\\Read Write Ratio".to_string(),
                vec![75.0, 25.0]
            ),
            (
                "\\\\SRV\\LogicalDisk(D:)\\Read Write Ratio".to_string(),
                vec![25.0, 0.0]
            ),
        ]
    );
}

#[test]
fn a_point_of_a_derived_series_is_explained_by_its_inputs_and_the_arithmetic() {
    // Two named instances, each its own ratio: INST1 10/40, INST2 7/8 at sample 0; INST2 has no
    // compilations value at sample 1.
    let cap = capture(vec![
        s(
            "\\\\SRV\\MSSQL$INST1:SQL Statistics\\SQL Compilations/sec",
            &[10.0, 0.5],
        ),
        s(
            "\\\\SRV\\MSSQL$INST2:SQL Statistics\\SQL Compilations/sec",
            &[7.0, f64::NAN],
        ),
        s(
            "\\\\SRV\\MSSQL$INST1:SQL Statistics\\Batch Requests/sec",
            &[40.0, 100.0],
        ),
        s(
            "\\\\SRV\\MSSQL$INST2:SQL Statistics\\Batch Requests/sec",
            &[8.0, 8.0],
        ),
    ]);
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(RulePack::from_json(PACK).unwrap())]),
            slice: SliceLength::Ms(60_000.0),
            ..Default::default()
        },
    )
    .unwrap();
    let d = |inst: &str| {
        a.findings
            .iter()
            .find(|f| f.path.contains(inst))
            .and_then(|f| f.derived.clone())
            .unwrap()
    };
    // INST1 at sample 0: 10 / 40 * 100 = 25 (both above 1), round(25) = 25.
    let e = explain_derived(&cap, &d("(INST1)"), 0).unwrap();
    assert_eq!((e.sample, e.time, e.value), (0, T0, 25.0));
    let ins: Vec<(&str, usize, f64)> = e
        .inputs
        .iter()
        .map(|i| (i.name.as_str(), i.series_index, i.value))
        .collect();
    assert_eq!(ins, vec![("a", 0, 10.0), ("b", 2, 40.0)]);
    assert_eq!(
        e.substituted.as_deref(),
        Some("if(gt(10, 1) * gt(40, 1), round(10 / 40 * 100), 0) = 25")
    );
    // INST1 at sample 1: 0.5 is not above 1, so the guard gives 0.
    let e = explain_derived(&cap, &d("(INST1)"), 1).unwrap();
    assert_eq!(
        e.substituted.as_deref(),
        Some("if(gt(0.5, 1) * gt(100, 1), round(0.5 / 100 * 100), 0) = 0")
    );
    // INST2 at sample 0: 7 / 8 * 100 = 87.5, halves to even: 88; its own inputs (1 and 3).
    let e = explain_derived(&cap, &d("(INST2)"), 0).unwrap();
    assert_eq!(e.value, 88.0);
    assert_eq!(
        e.inputs.iter().map(|i| i.series_index).collect::<Vec<_>>(),
        vec![1, 3]
    );
    assert_eq!(
        e.substituted.as_deref(),
        Some("if(gt(7, 1) * gt(8, 1), round(7 / 8 * 100), 0) = 88")
    );
    // INST2 at sample 1: compilations has no value, so neither has the ratio.
    let e = explain_derived(&cap, &d("(INST2)"), 1).unwrap();
    assert!(e.value.is_nan() && e.inputs[0].value.is_nan() && e.substituted.is_none());
    // A sample past the capture is an error that says so.
    let err = explain_derived(&cap, &d("(INST2)"), 2).unwrap_err();
    assert!(
        err.to_string()
            .contains("sample 2 is past the capture's 2 samples"),
        "{err}"
    );
}
