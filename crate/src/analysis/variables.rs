//! The variables thresholds are computed from, and where each value came from: the user's answer wins,
//! then what the capture shows (`logicalProcessors` = `Processor(*)` instances other than `_Total`), then
//! the pack's default (PAL's QUESTION variables and their defaults).

use super::error::AnalysisError;
use super::pack::{Derive, RulePack, Value};
use crate::capture::path::FoldedPath;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The name under which the derived processor count is always available.
pub const LOGICAL_PROCESSORS: &str = "logicalProcessors";

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// Passed by the user.
    User,
    /// Derived from the capture.
    Capture,
    /// The pack's default.
    Pack,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Variables {
    pub values: BTreeMap<String, Value>,
    pub sources: BTreeMap<String, Origin>,
}

impl Variables {
    /// Resolves every variable the packs declare (the first pack declaring a name gives its default),
    /// every variable the user passes, and `logicalProcessors` where the capture shows processors.
    pub fn resolve(
        packs: &[&RulePack],
        user: &BTreeMap<String, Value>,
        paths: &[FoldedPath],
    ) -> Variables {
        let processors = logical_processors(paths);
        let mut v = Variables::default();
        let set = |v: &mut Variables, name: &str, value: Value, origin: Origin| {
            v.values.insert(name.to_string(), value);
            v.sources.insert(name.to_string(), origin);
        };
        for (name, value) in user {
            set(&mut v, name, value.clone(), Origin::User);
        }
        if let Some(n) = processors {
            if !v.values.contains_key(LOGICAL_PROCESSORS) {
                set(
                    &mut v,
                    LOGICAL_PROCESSORS,
                    Value::Number(n as f64),
                    Origin::Capture,
                );
            }
        }
        for pack in packs {
            for var in &pack.variables {
                if v.values.contains_key(&var.name) {
                    continue;
                }
                match (var.derive, processors) {
                    (Some(Derive::LogicalProcessors), Some(n)) => {
                        set(&mut v, &var.name, Value::Number(n as f64), Origin::Capture)
                    }
                    _ => set(&mut v, &var.name, var.default.clone(), Origin::Pack),
                }
            }
        }
        v
    }

    /// The number a variable stands for: `Ok(None)` when it is unknown, an error when its value is text
    /// that is not a number.
    pub fn number(&self, name: &str) -> Result<Option<f64>, AnalysisError> {
        self.values
            .get(name)
            .map(|v| {
                v.as_number()
                    .map_err(|t| AnalysisError::NonNumericVariable {
                        name: name.to_string(),
                        value: t.to_string(),
                    })
            })
            .transpose()
    }
}

/// Logical processors: distinct `Processor(*)` instances other than `_Total` (written or English object
/// name), counted per machine; the largest machine's count where a capture holds several. None when the
/// capture has no such instance.
pub fn logical_processors(paths: &[FoldedPath]) -> Option<usize> {
    let mut per_machine: BTreeMap<&str, std::collections::BTreeSet<&str>> = BTreeMap::new();
    for p in paths {
        let object = p.english.as_ref().map_or(p.object.as_str(), |(o, _)| o);
        if object != "processor" {
            continue;
        }
        if let Some(i) = p.instance.as_deref().filter(|i| *i != "_total") {
            per_machine.entry(&p.machine).or_default().insert(i);
        }
    }
    per_machine.values().map(|s| s.len()).max()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::path::parse;

    fn paths(list: &[&str]) -> Vec<FoldedPath> {
        list.iter()
            .map(|p| FoldedPath::new(&parse(p).unwrap()))
            .collect()
    }

    #[test]
    fn processors_are_instances_other_than_total() {
        // Instances 0, 1, 2, 3 (two counters each) and _Total: 4 processors. Processor Information's
        // instances (0,0 ...) are another object and do not count.
        let p = paths(&[
            r"\\S\Processor(_Total)\% Processor Time",
            r"\\S\Processor(0)\% Processor Time",
            r"\\S\Processor(1)\% Processor Time",
            r"\\S\Processor(2)\% Processor Time",
            r"\\S\Processor(3)\% Processor Time",
            r"\\S\Processor(0)\% User Time",
            r"\\S\Processor(3)\% User Time",
            r"\\S\Processor Information(0,0)\% Processor Time",
        ]);
        assert_eq!(logical_processors(&p), Some(4));
        // A Spanish log counts the same way.
        let p = paths(&[
            r"\\S\Procesador(0)\% de tiempo de procesador",
            r"\\S\Procesador(1)\% de tiempo de procesador",
        ]);
        assert_eq!(logical_processors(&p), Some(2));
        assert_eq!(logical_processors(&paths(&[r"\\S\Memory\Pages/sec"])), None);
        // Only _Total: nothing to count.
        assert_eq!(
            logical_processors(&paths(&[r"\\S\Processor(_Total)\% Processor Time"])),
            None
        );
    }

    #[test]
    fn user_wins_then_capture_then_pack() {
        let pack = RulePack::from_json(
            r#"{ "id": "p", "title": "P", "rules": [], "variables": [
                { "name": "PhysicalMemoryGB", "default": 16 },
                { "name": "NumberOfProcessors", "default": 1, "derive": "logicalProcessors" },
                { "name": "OS", "type": "string", "default": "Windows Server" } ] }"#,
        )
        .unwrap();
        let p = paths(&[
            r"\\S\Processor(0)\% Processor Time",
            r"\\S\Processor(1)\% Processor Time",
        ]);
        let mut user = BTreeMap::new();
        user.insert("PhysicalMemoryGB".to_string(), Value::Text("64".into()));
        let v = Variables::resolve(&[&pack], &user, &p);
        assert_eq!(v.number("PhysicalMemoryGB").unwrap(), Some(64.0));
        assert_eq!(v.sources["PhysicalMemoryGB"], Origin::User);
        assert_eq!(v.number("NumberOfProcessors").unwrap(), Some(2.0));
        assert_eq!(v.sources["NumberOfProcessors"], Origin::Capture);
        assert_eq!(v.number(LOGICAL_PROCESSORS).unwrap(), Some(2.0));
        assert_eq!(v.sources["OS"], Origin::Pack);
        assert!(matches!(
            v.number("OS"),
            Err(AnalysisError::NonNumericVariable { name, .. }) if name == "OS"
        ));
        assert_eq!(v.number("Nope").unwrap(), None);
        // Without processors in the capture the pack's default stands.
        let v = Variables::resolve(&[&pack], &BTreeMap::new(), &[]);
        assert_eq!(v.number("NumberOfProcessors").unwrap(), Some(1.0));
        assert_eq!(v.sources["NumberOfProcessors"], Origin::Pack);
        assert!(!v.values.contains_key(LOGICAL_PROCESSORS));
    }
}
