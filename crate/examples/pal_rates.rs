//! Imports PAL threshold files (the first one and the files it inherits, given after it) and prints
//! translated / total and the untranslated thresholds grouped by reason: how docs/rule-packs.md's table
//! of measured rates was made.
//!
//! `cargo run -p counterlens --example pal_rates -- IIS.xml AspDotNet.xml DotNet.xml SystemOverview.xml
//! QuickSystemOverview.xml` (add `--rules` to print each translated rule, `--notes` the bands count and the notes).

use counterlens::analysis::pal::import_pal;
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show_rules = args.iter().any(|a| a == "--rules");
    let show_notes = args.iter().any(|a| a == "--notes");
    let mut files = Vec::new();
    for path in args.iter().filter(|a| !a.starts_with("--")) {
        match std::fs::read_to_string(path) {
            Ok(text) => files.push((path.clone(), text)),
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        }
    }
    let imp = match import_pal(&files) {
        Ok(imp) => imp,
        Err(e) => {
            eprintln!("import failed: {e}");
            std::process::exit(1);
        }
    };
    // Written at once, and a closed pipe (`| head`) ends the output quietly instead of panicking.
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}: translated {} / {} (missing files: {:?})",
        imp.pack.source, imp.translated, imp.total, imp.missing_files
    );
    let mut by_reason: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for u in &imp.untranslated {
        by_reason
            .entry(u.reason.as_str())
            .or_default()
            .push(format!("{} / {}", u.analysis, u.threshold));
    }
    for (reason, list) in &by_reason {
        let _ = writeln!(out, "  {} x {reason}", list.len());
        for t in list {
            let _ = writeln!(out, "      {t}");
        }
    }
    if show_notes {
        let _ = writeln!(out, "  {} bands; notes:", imp.bands.len());
        for n in &imp.notes {
            let _ = writeln!(out, "  note: {n}");
        }
    }
    if show_rules {
        for d in &imp.pack.derived {
            let inputs: Vec<String> = d
                .inputs
                .iter()
                .map(|i| format!("{} = {}", i.name, i.counter))
                .collect();
            let _ = writeln!(
                out,
                "  derived {} ({:?}): {} = {} [{}]",
                d.id,
                d.pair_by,
                d.counter,
                d.expression,
                inputs.join(", ")
            );
        }
        for r in &imp.pack.rules {
            let rule = serde_json::to_string(r).unwrap_or_default();
            let _ = writeln!(out, "  rule {}: {rule}", r.id);
        }
    }
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), out.as_bytes());
}
