//! The answers drive the branches of imported PAL rules: QuickSystemOverview.xml's kernel-pool
//! thresholds (a `switch` on the OS answer, If/Else on UserVa and the RAM) and SystemOverview.xml's
//! Virtual Bytes If/Else on `$OS.substring(0,2)`, imported from PAL's own files and run through
//! `analyze` on a small capture with PAL's default answers and with others: the threshold follows the
//! answer, and a finding appears or not.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::pal::import_pal;
use counterlens::analysis::{analyze, AnalysisError, AnalyzeOptions, PackRef, RulePack, Value};
use counterlens::capture::{Capture, Series};
use std::collections::BTreeMap;

const MB: f64 = 1024.0 * 1024.0;
const GB: f64 = 1024.0 * MB;

fn pal(name: &str) -> (String, String) {
    let path = format!("{}/../tests/vectors/pal/{name}", env!("CARGO_MANIFEST_DIR"));
    (name.to_string(), std::fs::read_to_string(path).unwrap())
}

fn pack() -> RulePack {
    let imp = import_pal(&[pal("SystemOverview.xml"), pal("QuickSystemOverview.xml")]).unwrap();
    // Only PAL's questions and the derived variables: no variable stands for a branch.
    let names: Vec<&str> = imp.pack.variables.iter().map(|v| v.name.as_str()).collect();
    for n in &names {
        assert!(
            ["logicalProcessors", "LinkSpeedMbps", "PhysicalMemoryGB"].contains(n)
                || imp.variables.iter().any(|q| q.name == *n),
            "{n}"
        );
    }
    imp.pack
}

/// One hour at 60 s (61 samples), every value the same.
fn capture(series: &[(&str, f64)]) -> Capture {
    Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: (0..61).map(|i| 1.8e12 + f64::from(i) * 60_000.0).collect(),
        series: series
            .iter()
            .map(|(p, v)| Series::new(p.to_string(), vec![*v; 61]))
            .collect(),
        notes: Vec::new(),
    }
}

/// The threshold a rule ran with and whether its analysis (the rule's group: the warning and critical
/// rules; where both break, the slice counts as critical) found something.
fn run(
    pack: &RulePack,
    cap: &Capture,
    rule: &str,
    answers: &[(&str, Value)],
) -> Result<(f64, bool), AnalysisError> {
    let variables: BTreeMap<String, Value> = answers
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let a = analyze(
        cap,
        &AnalyzeOptions {
            packs: Some(vec![PackRef::Pack(pack.clone())]),
            variables,
            ..AnalyzeOptions::default()
        },
    )?;
    let t = a
        .rules
        .iter()
        .find(|r| r.rule == rule)
        .and_then(|r| r.threshold)
        .unwrap_or_else(|| panic!("{rule} did not run: {:?}", a.rules));
    let group = rule.rsplit_once('-').map_or(rule, |(g, _)| g);
    Ok((
        t,
        a.findings
            .iter()
            .any(|f| f.rule.rsplit_once('-').is_some_and(|(g, _)| g == group)),
    ))
}

fn text(s: &str) -> Value {
    Value::Text(s.into())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * b.abs()
}

#[test]
fn the_os_answer_drives_the_non_paged_pool_thresholds() {
    let pack = pack();
    // 700 MB of nonpaged pool, all hour.
    let cap = capture(&[(r"\\SRV\Memory\Pool Nonpaged Bytes", 700.0 * MB)]);
    let warn = "memory-pool-non-paged-bytes-1";
    let crit = "memory-pool-non-paged-bytes-2";

    // PAL's defaults: OS "Windows Server" is no case, so `default`: min(16 GB * 0.75, 128 GB) = 12 GB;
    // 60% = 7.2 GB = 7730941132.8 bytes; 700 MB is below: no finding.
    let (t, found) = run(&pack, &cap, warn, &[]).unwrap();
    assert!(close(t, 12.0 * GB * 0.6), "{t}");
    assert!(!found);

    // Windows Server 2003 32-bit with /3GB (UserVa 3072 > 2048): 128 MB; 60% = 76.8 MB = 80530636.8;
    // 80% = 102.4 MB. 700 MB is above both.
    let answers = [
        ("OS", text("Windows Server 2003 32-bit")),
        ("UserVa", Value::Number(3072.0)),
    ];
    let (t, found) = run(&pack, &cap, warn, &answers).unwrap();
    assert!(close(t, 128.0 * MB * 0.6), "{t}");
    assert!(found);
    let (t, found) = run(&pack, &cap, crit, &answers).unwrap();
    assert!(close(t, 128.0 * MB * 0.8), "{t}");
    assert!(found);
    // Without /3GB (UserVa 2048) and 16 GB (> 1 GB): 256 MB; 60% = 153.6 MB. Still above.
    let (t, _) = run(
        &pack,
        &cap,
        warn,
        &[("OS", text("WINDOWS SERVER 2003 32-BIT"))],
    )
    .unwrap();
    assert!(close(t, 256.0 * MB * 0.6), "{t}");
    // ... and 1 GB of RAM (<= 1GB): 208 MB.
    let (t, _) = run(
        &pack,
        &cap,
        warn,
        &[
            ("OS", text("windows xp 32-bit")),
            ("PhysicalMemoryGB", Value::Number(1.0)),
        ],
    )
    .unwrap();
    assert!(close(t, 208.0 * MB * 0.6), "{t}");

    // Windows 7 32-bit, UserVa 3072, 4 GB: min(4 GB * 0.75, (4096 - 3072) MB) = min(3 GB, 1024 MB)
    // = 1024 MB; 60% = 614.4 MB = 644245094.4: 700 MB is above (warning); 80% = 819.2 MB: not critical.
    let answers = [
        ("OS", text("Windows 7 32-bit")),
        ("UserVa", Value::Number(3072.0)),
        ("PhysicalMemoryGB", Value::Number(4.0)),
    ];
    let (t, found) = run(&pack, &cap, warn, &answers).unwrap();
    assert!(close(t, 1024.0 * MB * 0.6), "{t}");
    assert!(found);
    let (t, _) = run(&pack, &cap, crit, &answers).unwrap();
    assert!(close(t, 1024.0 * MB * 0.8), "{t}");
    // Same without /3GB: min(3 GB, 2 GB) = 2 GB; 60% = 1.2 GB: no finding.
    let (t, found) = run(&pack, &cap, warn, &answers[..1]).unwrap();
    assert!(close(t, 2.0 * GB * 0.6), "{t}");
    assert!(!found);

    // 64-bit answers share the default: min(PhysicalMemory GB * 0.75, 128 GB) * 0.6.
    // 1 GB: 0.75 GB * 0.6 = 0.45 GB = 460.8 MB: 700 MB is above. 256 GB: min(192, 128) = 128 GB.
    let (t, found) = run(
        &pack,
        &cap,
        warn,
        &[
            ("OS", text("Windows Server 2008 R2 64-bit")),
            ("PhysicalMemoryGB", Value::Number(1.0)),
        ],
    )
    .unwrap();
    assert!(close(t, 0.75 * GB * 0.6), "{t}");
    assert!(found);
    let (t, _) = run(
        &pack,
        &cap,
        warn,
        &[("PhysicalMemoryGB", Value::Number(256.0))],
    )
    .unwrap();
    assert!(close(t, 128.0 * GB * 0.6), "{t}");
    // XP / 2003 64-bit: 75% of RAM with no 128 GB cap: 256 GB * 0.75 * 0.6 = 115.2 GB.
    let (t, _) = run(
        &pack,
        &cap,
        warn,
        &[
            ("OS", text("Windows XP 64-bit")),
            ("PhysicalMemoryGB", Value::Number(256.0)),
        ],
    )
    .unwrap();
    assert!(close(t, 256.0 * GB * 0.75 * 0.6), "{t}");

    // A number for the OS answer is an error naming it, not a silent branch.
    match run(&pack, &cap, warn, &[("OS", Value::Number(32.0))]) {
        Err(AnalysisError::NonTextVariable { name, .. }) => assert_eq!(name, "OS"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_os_answer_drives_the_paged_pool_thresholds() {
    let pack = pack();
    let cap = capture(&[(r"\\SRV\Memory\Pool Paged Bytes", 300.0 * MB)]);
    let warn = "memory-pool-paged-bytes-1";
    // XP 32-bit with /3GB: 158 MB; 60% = 94.8 MB: 300 MB is above.
    let (t, found) = run(
        &pack,
        &cap,
        warn,
        &[
            ("OS", text("Windows XP 32-bit")),
            ("UserVa", Value::Number(3072.0)),
        ],
    )
    .unwrap();
    assert!(close(t, 158.0 * MB * 0.6), "{t}");
    assert!(found);
    // XP 64-bit: PAL switches on $iPhysicalMemory, which is in bytes by then (16 GB = 17179869184),
    // so none of the cases 1 to 32 match and `default` gives 54180 MB; 60% = 32508 MB.
    let (t, found) = run(&pack, &cap, warn, &[("OS", text("Windows XP 64-bit"))]).unwrap();
    assert!(close(t, 54180.0 * MB * 0.6), "{t}");
    assert!(!found);
}

#[test]
fn the_os_answer_drives_the_virtual_bytes_if_else() {
    let pack = pack();
    // 1.5 GB of virtual bytes in one process.
    let cap = capture(&[(r"\\SRV\Process(app)\Virtual Bytes", 1.5 * GB)]);
    let rule = "process-virtual-bytes-1";
    // $OS.substring(0,2) -eq '32': the default "Windows Server" ("Wi") is 64-bit: 0.6 * 8 TB, no finding.
    let (t, found) = run(&pack, &cap, rule, &[]).unwrap();
    assert!(close(t, 0.6 * 8.0 * 1024.0 * GB), "{t}");
    assert!(!found);
    // An answer starting "32": 0.6 * 2 GB = 1.2 GB < 1.5 GB: a finding.
    let (t, found) = run(&pack, &cap, rule, &[("OS", text("32-bit Windows"))]).unwrap();
    assert!(close(t, 0.6 * 2.0 * GB), "{t}");
    assert!(found);
}
