//! One analysis per concern: PAL's QuickSystemOverview.xml imported beside the built-in packs gives no
//! finding twice, asks for the RAM once, offers the OS as a choice list, and names its pack readably.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::pal::import_pal;
use counterlens::analysis::{analyze, AnalyzeOptions, Overlap, PackRef, VariableType};
use counterlens::capture::{Capture, Series};

const N: usize = 481;
const STEP: f64 = 15_000.0;
const T0: f64 = 1_763_625_600_000.0;
const MB: f64 = 1_048_576.0;

fn qso() -> counterlens::analysis::pal::PalImport {
    let xml = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/pal/QuickSystemOverview.xml"
    ))
    .unwrap();
    import_pal(&[("QuickSystemOverview.xml".into(), xml)]).unwrap()
}

/// A server whose memory runs out (79 MB available for the second hour) and whose CPU is pegged.
fn troubled() -> Capture {
    let mut series = Vec::new();
    let mut add = |p: &str, f: &dyn Fn(usize) -> f64| {
        series.push(Series::new(p.to_string(), (0..N).map(f).collect()));
    };
    add("\\\\SRV\\Memory\\Available MBytes", &|i| {
        if i >= 240 {
            79.0
        } else {
            6000.0
        }
    });
    for cpu in ["0", "1", "_Total"] {
        add(
            &format!("\\\\SRV\\Processor({cpu})\\% Processor Time"),
            &|i| if (120..240).contains(&i) { 99.0 } else { 20.0 },
        );
    }
    add("\\\\SRV\\Process(w3wp)\\Working Set", &|i| {
        400.0 * MB + i as f64 * MB
    });
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

#[test]
fn quick_system_overview_beside_the_built_ins() {
    let imp = qso();
    assert_eq!(imp.pack.id, "pal-quicksystemoverview");
    let cap = troubled();
    let packs = vec![
        PackRef::Builtin("system-overview".into()),
        PackRef::Pack(imp.pack.clone()),
    ];
    let a = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(packs.clone()),
            ..Default::default()
        },
    )
    .unwrap();
    // No series has findings from both packs (the default: PAL's rules, since it was imported).
    for f in &a.findings {
        for g in &a.findings {
            assert!(
                f.series_index != g.series_index || f.pack == g.pack,
                "{} and {} both on {}",
                f.message,
                g.message,
                f.path
            );
        }
    }
    assert!(a
        .findings
        .iter()
        .any(|f| f.pack == "pal-quicksystemoverview" && f.path.ends_with("Available MBytes")));
    // The built-in rules on those series are listed as skipped, naming the pack chosen.
    let skipped = a
        .rules
        .iter()
        .find(|r| r.rule == "available-memory-critical")
        .unwrap();
    assert!(
        skipped
            .skipped
            .as_deref()
            .unwrap()
            .starts_with("pal-quicksystemoverview has rules on the same series"),
        "{skipped:?}"
    );
    // The RAM is asked once, in GB, under one name; the link speed once, in Mbit/s.
    let ram: Vec<&str> = a
        .variables
        .keys()
        .map(String::as_str)
        .filter(|k| k.to_ascii_lowercase().contains("memory"))
        .collect();
    assert_eq!(ram, vec!["PhysicalMemoryGB"]);
    let mut asked: Vec<(&str, &str)> = Vec::new();
    let so = counterlens::analysis::builtin_packs()
        .iter()
        .find(|p| p.id == "system-overview")
        .unwrap();
    for v in so.variables.iter().chain(&imp.pack.variables) {
        if !asked.iter().any(|(n, _)| *n == v.name) {
            asked.push((&v.name, &v.question));
        } else {
            // Asked by both: the same question.
            assert!(
                asked.contains(&(v.name.as_str(), v.question.as_str())),
                "{}",
                v.name
            );
        }
    }
    assert_eq!(
        asked
            .iter()
            .filter(|(_, q)| q.contains("RAM") || q.contains("physical memory"))
            .count(),
        1,
        "{asked:#?}"
    );
    assert!(!imp
        .pack
        .variables
        .iter()
        .any(|v| v.name == "NetworkBandwidth"));
    // The OS is a choice list, the default among the choices.
    let os = imp.pack.variables.iter().find(|v| v.name == "OS").unwrap();
    assert_eq!(os.kind, VariableType::String);
    assert!(os.choices.len() > 10, "{:?}", os.choices);
    assert!(os.choices.iter().any(|c| c == "Windows Server"));
    assert!(!os.question.contains("PAL's options"));
    // With the built-in packs chosen: the PAL rules on those series are the ones skipped.
    let b = analyze(
        &cap,
        &AnalyzeOptions {
            packs: Some(packs),
            overlap: Overlap::Builtin,
            ..Default::default()
        },
    )
    .unwrap();
    for f in &b.findings {
        for g in &b.findings {
            assert!(f.series_index != g.series_index || f.pack == g.pack);
        }
    }
    assert!(b
        .findings
        .iter()
        .any(|f| f.pack == "system-overview" && f.path.ends_with("Available MBytes")));
}

#[test]
fn categories_are_the_built_ins_and_sizes_read_as_sizes() {
    let imp = qso();
    let cats: std::collections::BTreeSet<&str> =
        imp.pack.rules.iter().map(|r| r.category.as_str()).collect();
    for c in &cats {
        assert!(
            [
                "Processor",
                "Memory",
                "Disk",
                "Network",
                "Process",
                "System"
            ]
            .contains(c),
            "category {c:?}"
        );
    }
}
