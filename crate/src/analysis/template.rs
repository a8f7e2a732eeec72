//! Counter lists for the next collection: the counters a set of packs reads, and the breakdowns that
//! let a card name its cause (`contributors`), one path per line as `logman create counter NAME -cf
//! FILE` takes them (`docs/analysis.md`, "Counters to collect").
//!
//! Each rule's counter, each derived series' inputs (a derived series is not a counter: its inputs are),
//! the counters the packs' variables are derived from, and each rule's breakdowns; instances become `(*)`
//! (a collector's wildcard takes `_Total` and every instance), duplicates go, in the packs' order. A
//! SQL Server object written `*:` (any instance's prefix) is listed as the default instance's `SQLServer:`
//! (a named instance's objects are `MSSQL$NAME:`).

use super::contributors::breakdowns;
use super::pack::{Derive, RulePack};
use super::{builtin_packs, AnalysisError, PackRef};
use crate::capture::path::{parse, FoldedPath};

/// The counter list of `packs` (every built-in pack when None) as a file for `logman create counter
/// -cf`: one path per line, CRLF.
pub fn counter_list(packs: Option<&[PackRef]>) -> Result<String, AnalysisError> {
    let list: Vec<&RulePack> = match packs {
        None => builtin_packs().iter().collect(),
        Some(refs) => refs
            .iter()
            .map(|r| match r {
                PackRef::Pack(p) => p.check().map(|_| p),
                PackRef::Builtin(id) => builtin_packs()
                    .iter()
                    .find(|p| &p.id == id)
                    .ok_or_else(|| AnalysisError::UnknownPack(id.clone())),
            })
            .collect::<Result<_, _>>()?,
    };
    Ok(counters(&list).into_iter().map(|p| p + "\r\n").collect())
}

/// The counters `packs` need, as `\Object(*)\Counter` lines.
pub fn counters(packs: &[&RulePack]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |path: String| {
        if !out.iter().any(|p| p.eq_ignore_ascii_case(&path)) {
            out.push(path);
        }
    };
    for pack in packs {
        for v in &pack.variables {
            let derived_from: &[&str] = match v.derive {
                Some(Derive::LogicalProcessors) => &[r"\Processor(*)\% Processor Time"],
                Some(Derive::LinkSpeedMbps) => &[r"\Network Interface(*)\Current Bandwidth"],
                Some(Derive::MinPhysicalMemoryGb) => &[r"\Memory\Available MBytes"],
                Some(Derive::Os) | None => &[],
            };
            derived_from.iter().for_each(|p| push(p.to_string()));
        }
        let derived: Vec<&str> = pack.derived.iter().map(|d| d.counter.as_str()).collect();
        for rule in &pack.rules {
            if derived
                .iter()
                .any(|d| d.eq_ignore_ascii_case(&rule.counter))
            {
                let d = pack
                    .derived
                    .iter()
                    .find(|d| d.counter.eq_ignore_ascii_case(&rule.counter));
                for input in d.iter().flat_map(|d| &d.inputs) {
                    push(collector_path(&input.counter));
                }
            } else {
                push(collector_path(&rule.counter));
            }
            if let Some(parsed) = parse(&rule.counter) {
                let folded = FoldedPath::new(&parsed);
                let (object, counter) = folded.english_or_own();
                for b in breakdowns(object, counter) {
                    push(b.path());
                }
            }
        }
    }
    out
}

/// A rule's counter path as a collector takes it: no machine, any instance as `(*)`, `*:` as
/// `SQLServer:`.
fn collector_path(path: &str) -> String {
    let Some(p) = parse(path) else {
        return path.to_string();
    };
    let object = match p.object.strip_prefix("*:") {
        Some(rest) => format!("SQLServer:{rest}"),
        None => p.object.clone(),
    };
    match p.instance {
        Some(_) => format!("\\{object}(*)\\{}", p.counter),
        None => format!("\\{object}\\{}", p.counter),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_system_overview_as_a_file() {
        let text = counter_list(Some(&[PackRef::Builtin("system-overview".into())])).unwrap();
        let lines: Vec<&str> = text.split_terminator("\r\n").collect();
        // The variables' counters first, then each rule's counter and breakdown; nothing twice.
        assert_eq!(lines[0], r"\Processor(*)\% Processor Time");
        for want in [
            r"\Process(*)\% Processor Time",
            r"\System\Processor Queue Length",
            r"\Memory\Available MBytes",
            r"\Process(*)\Private Bytes",
            r"\Process(*)\Page Faults/sec",
            r"\LogicalDisk(*)\Avg. Disk sec/Read",
            r"\Process(*)\IO Read Bytes/sec",
            r"\Network Interface(*)\Current Bandwidth",
            r"\Process(*)\Handle Count",
        ] {
            assert!(lines.contains(&want), "{want} in {lines:?}");
        }
        let mut sorted = lines.clone();
        sorted.sort_unstable_by_key(|l| l.to_ascii_lowercase());
        sorted.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        assert_eq!(sorted.len(), lines.len());
        // A derived series is not a counter.
        assert!(!text.contains("While Busy") && !text.contains("While Memory Low"));
        assert!(matches!(
            counter_list(Some(&[PackRef::Builtin("nope".into())])),
            Err(AnalysisError::UnknownPack(_))
        ));
    }

    #[test]
    fn a_rule_its_derived_inputs_its_variables_and_its_breakdowns() {
        let pack = RulePack::from_json(
            r#"{ "id": "t", "title": "T", "version": "1", "source": "test",
                 "variables": [ { "name": "logicalProcessors", "question": "How many?", "type": "number",
                                  "default": 1, "derive": "logicalProcessors" } ],
                 "derived": [ { "id": "q", "counter": "\\System\\Queue While Busy",
                                "inputs": [ { "name": "q", "counter": "\\System\\Processor Queue Length" },
                                            { "name": "cpu", "counter": "\\Processor(_Total)\\% Processor Time" } ],
                                "pairBy": "machine", "expression": "q * gt(cpu, 80)" } ],
                 "rules": [
                   { "id": "a", "title": "A", "counter": "\\\\SRV\\Processor(_Total)\\% Processor Time",
                     "kind": "static", "severity": "warning", "operator": "gt", "threshold": 80 },
                   { "id": "b", "title": "B", "counter": "\\System\\Queue While Busy",
                     "kind": "static", "severity": "warning", "operator": "gt", "threshold": 10 },
                   { "id": "c", "title": "C", "counter": "\\*:General Statistics\\User Connections",
                     "kind": "static", "severity": "warning", "operator": "gt", "threshold": 1000 },
                   { "id": "d", "title": "D", "counter": "\\LogicalDisk(*)\\Avg. Disk sec/Read",
                     "kind": "static", "severity": "warning", "operator": "gt", "threshold": 0.015 } ] }"#,
        )
        .unwrap();
        // The variable's counter first; rule a's counter (instance as (*), no machine) and its breakdown;
        // rule b's derived inputs (the processor time already listed) and, as the queue is the system's,
        // the processes' processor time again (listed); rule c as the default instance; rule d and the
        // processes' reads.
        assert_eq!(
            counters(&[&pack]),
            [
                r"\Processor(*)\% Processor Time",
                r"\Process(*)\% Processor Time",
                r"\System\Processor Queue Length",
                r"\SQLServer:General Statistics\User Connections",
                r"\LogicalDisk(*)\Avg. Disk sec/Read",
                r"\Process(*)\IO Read Bytes/sec",
            ]
        );
    }
}
