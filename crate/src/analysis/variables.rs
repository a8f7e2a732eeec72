//! The variables thresholds are computed from, and where each value came from: the user's answer wins,
//! then what the capture shows ([`FromLog`]: `logicalProcessors` = `Processor(*)` instances other than
//! `_Total`, or without them `Process(_Total)\% Processor Time` / 100; the network link speed from `Network Interface(*)\Current Bandwidth`; the OS a .blg's header
//! names), then the pack's default (PAL's QUESTION variables and their defaults). [`UsedVariable`] is
//! what a finding reports of the variables its threshold read.

use super::error::AnalysisError;
use super::pack::{Derive, RulePack, Value};
use crate::capture::path::FoldedPath;
use crate::capture::Capture;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The name under which the derived processor count is always available.
pub const LOGICAL_PROCESSORS: &str = "logicalProcessors";

/// The fastest link speed taken from `Current Bandwidth`, bit/s (1 Tbit/s): tunnel and loopback adapters
/// report 2^63 - 1 (PAL's sample log has one), which is no link speed.
pub const MAX_LINK_BITS: f64 = 1e12;

/// What the capture itself says about the machine, used before a pack's default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FromLog {
    /// `Processor(*)` instances other than `_Total` (the largest machine's count).
    pub logical_processors: Option<usize>,
    /// The fastest `Network Interface(*)\Current Bandwidth` seen, in Mbit/s (the counter is in bit/s).
    pub link_speed_mbps: Option<f64>,
    /// "Windows 6.1 build 7601": the OS a .blg's header names.
    pub os: Option<String>,
    /// At least this much RAM, in GB: the largest `Memory\Available MBytes` (or KBytes, Bytes) seen, to
    /// 0.1 GB below (the largest machine's, in a log of several).
    pub min_physical_memory_gb: Option<f64>,
}

impl FromLog {
    /// Reads what the capture says: processors from its paths, link speed from its values, the OS from
    /// the note the .blg reader writes of its header ("binary perfmon log from Windows 10.0 build 19041").
    pub fn of(capture: &Capture, paths: &[FoldedPath]) -> FromLog {
        let mut link: Option<f64> = None;
        let mut memory_mb: Option<f64> = None;
        let mut from_processes: Option<usize> = None;
        for (s, p) in capture.series.iter().zip(paths) {
            let (object, counter) = p.english_or_own();
            if (object, counter, p.instance.as_deref())
                == ("process", "% processor time", Some("_total"))
            {
                from_processes = from_processes.max(processors_of_process_total(&s.values));
            }
            let per_mb = match (object, counter) {
                ("memory", "available mbytes") => Some(1.0),
                ("memory", "available kbytes") => Some(1024.0),
                ("memory", "available bytes") => Some(1024.0 * 1024.0),
                _ => None,
            };
            if let Some(per_mb) = per_mb {
                for &v in &s.values {
                    let mb = v / per_mb;
                    if mb.is_finite() && mb > 0.0 && memory_mb.is_none_or(|m| mb > m) {
                        memory_mb = Some(mb);
                    }
                }
            }
            if object == "network interface" && counter == "current bandwidth" {
                // Tunnel and loopback adapters report 2^63 bit/s or so: nothing above 1 Tbit/s is a link.
                for &v in &s.values {
                    if v.is_finite() && v > 0.0 && v <= MAX_LINK_BITS && link.is_none_or(|m| v > m)
                    {
                        link = Some(v);
                    }
                }
            }
        }
        FromLog {
            logical_processors: logical_processors(paths).or(from_processes),
            link_speed_mbps: link.map(|bits| bits / 1e6),
            os: capture.notes.iter().find_map(|n| os_of_note(&n.message)),
            // 26,119 MB free is at least 26,119 / 1024 = 25.51 GB of RAM: 25.5, never rounded up.
            min_physical_memory_gb: memory_mb.map(|mb| (mb / 1024.0 * 10.0).floor() / 10.0),
        }
    }
}

/// "Windows 10.0 build 19041" out of the .blg reader's note on its header, if this is that note.
pub fn os_of_note(message: &str) -> Option<String> {
    let rest = message.strip_prefix("binary perfmon log from ")?;
    let end = rest.find(" (")?;
    let os = &rest[..end];
    os.starts_with("Windows ").then(|| os.to_string())
}

/// A variable a finding's threshold read: its value and where the value came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UsedVariable {
    pub name: String,
    pub value: Value,
    pub origin: Origin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Origin {
    /// Passed by the user.
    User,
    /// Derived from the capture.
    Capture,
    /// A lower bound the capture proves (`minPhysicalMemoryGb`: at least the most memory it shows free),
    /// used because it is above the default: "at least 25.3 (from the log)".
    Bound,
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
        log: &FromLog,
    ) -> Variables {
        let processors = log.logical_processors;
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
                let derived = match var.derive {
                    Some(Derive::LogicalProcessors) => processors.map(|n| Value::Number(n as f64)),
                    Some(Derive::LinkSpeedMbps) => log.link_speed_mbps.map(Value::Number),
                    Some(Derive::Os) => log.os.clone().map(Value::Text),
                    // A lower bound replaces the default only where it is above it: a machine with
                    // 8 GB free may have 16 or 64.
                    Some(Derive::MinPhysicalMemoryGb) => log
                        .min_physical_memory_gb
                        .filter(|&gb| matches!(var.default, Value::Number(d) if gb > d))
                        .map(Value::Number),
                    None => None,
                };
                let origin = if var.derive == Some(Derive::MinPhysicalMemoryGb) {
                    Origin::Bound
                } else {
                    Origin::Capture
                };
                match derived {
                    Some(value) => set(&mut v, &var.name, value, origin),
                    None => set(&mut v, &var.name, var.default.clone(), Origin::Pack),
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

/// Logical processors in a log without `Processor(*)` instances, from `Process(_Total)\% Processor Time`:
/// every process's time together, Idle's included, is 100% per logical processor, so its median over the
/// log divided by 100, to the nearest whole number (a sample's jitter moves it by a few percent, never
/// by half a processor). None without a finite positive value.
fn processors_of_process_total(values: &[f64]) -> Option<usize> {
    let mut v: Vec<f64> = values
        .iter()
        .copied()
        .filter(|x| x.is_finite() && *x > 0.0)
        .collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = (v[v.len() / 2] / 100.0).round();
    (n >= 1.0).then_some(n as usize)
}

/// Logical processors: the core's one count (`words::logical_processors`), per machine, by written or
/// English names.
pub use crate::words::logical_processors;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::path::parse;

    fn paths(list: &[&str]) -> Vec<FoldedPath> {
        list.iter()
            .map(|p| FoldedPath::new(&parse(p).unwrap()))
            .collect()
    }

    /// Issue 37: a desktop whose Available MBytes is 25,990 to 26,119 MB had at least the most ever
    /// free, 26,119 / 1024 = 25.507 GB of RAM: PhysicalMemoryGB is 25.5 from the log (never rounded up),
    /// not the default 16. A log whose most free is 8,000 MB (7.8 GB) keeps the default, which the pack
    /// marks as an answer to confirm.
    #[test]
    fn processors_from_the_processes_total() {
        // 4 processors: _Total near 400 (398.7, 401.2, 400.0, 399.1, 402.5 sorted: median 400.0) -> 4.
        assert_eq!(
            processors_of_process_total(&[398.7, 401.2, f64::NAN, 400.0, 399.1, 402.5]),
            Some(4)
        );
        // A real 12-processor log's first samples (1 202.3, 1 205.5, 1 120.1, 1 193.0; one below 1 200
        // by 80, a sample's jitter): median of 4 = the upper middle, 1 202.3 -> 12.02 -> 12.
        assert_eq!(
            processors_of_process_total(&[1202.3, 1205.5, 1120.1, 1193.0]),
            Some(12)
        );
        assert_eq!(processors_of_process_total(&[0.0, f64::NAN]), None);
        assert_eq!(processors_of_process_total(&[30.0]), None);
    }

    #[test]
    fn physical_memory_is_at_least_the_most_ever_free() {
        use crate::analysis::{AnalyzeOptions, Origin as O};
        let t0 = 1_795_305_600_000.0;
        let cap = |mb: Vec<f64>| Capture {
            format: None,
            encoding: None,
            time_zone: None,
            timestamps: (0..mb.len()).map(|i| t0 + i as f64 * 60_000.0).collect(),
            series: vec![crate::capture::Series::new(
                r"\\DESK\Memory\Available MBytes".into(),
                mb,
            )],
            notes: Vec::new(),
        };
        let a = crate::analysis::analyze(
            &cap(vec![26_050.0, 25_990.0, 26_119.0]),
            &AnalyzeOptions::default(),
        )
        .unwrap();
        assert_eq!(a.variables["PhysicalMemoryGB"], Value::Number(25.5));
        // A lower bound, said as one ("at least 25.5, from the log") by the report, the viewer and MCP.
        assert_eq!(a.variable_sources["PhysicalMemoryGB"], O::Bound);
        let html = crate::analysis::analysis_report(&cap(vec![26_050.0]), &a, None);
        assert!(html.contains("at least this, from the log (the most memory it shows free)"));
        let a = crate::analysis::analyze(&cap(vec![8000.0, 7000.0]), &AnalyzeOptions::default())
            .unwrap();
        assert_eq!(a.variables["PhysicalMemoryGB"], Value::Number(16.0));
        assert_eq!(a.variable_sources["PhysicalMemoryGB"], O::Pack);
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

    fn log(p: &[FoldedPath]) -> FromLog {
        FromLog {
            logical_processors: logical_processors(p),
            ..FromLog::default()
        }
    }

    #[test]
    fn the_os_from_the_blg_note() {
        assert_eq!(
            os_of_note("binary perfmon log from Windows 6.1 build 7601 (64-bit logger), 20 samples; values cooked").as_deref(),
            Some("Windows 6.1 build 7601")
        );
        assert_eq!(os_of_note("line 3: cut short"), None);
        assert_eq!(os_of_note("binary perfmon log from somewhere"), None);
    }

    #[test]
    fn link_speed_and_os_are_derived_before_the_default() {
        let pack = RulePack::from_json(
            r#"{ "id": "p", "title": "P", "rules": [], "variables": [
                { "name": "LinkSpeedMbps", "default": 1000, "derive": "linkSpeedMbps" },
                { "name": "OS", "type": "string", "default": "Windows Server", "derive": "os" } ] }"#,
        )
        .unwrap();
        let log = FromLog {
            logical_processors: None,
            // 10 Gbit/s: 10 000 000 000 bit/s / 1e6 = 10 000 Mbit/s.
            link_speed_mbps: Some(10_000.0),
            os: Some("Windows 6.1 build 7601".into()),
            min_physical_memory_gb: None,
        };
        let v = Variables::resolve(&[&pack], &BTreeMap::new(), &log);
        assert_eq!(v.number("LinkSpeedMbps").unwrap(), Some(10_000.0));
        assert_eq!(v.sources["LinkSpeedMbps"], Origin::Capture);
        assert_eq!(v.values["OS"], Value::Text("Windows 6.1 build 7601".into()));
        assert_eq!(v.sources["OS"], Origin::Capture);
        // Nothing in the log: the defaults, marked as such.
        let v = Variables::resolve(&[&pack], &BTreeMap::new(), &FromLog::default());
        assert_eq!(v.number("LinkSpeedMbps").unwrap(), Some(1000.0));
        assert_eq!(v.sources["LinkSpeedMbps"], Origin::Pack);
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
        let v = Variables::resolve(&[&pack], &user, &log(&p));
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
        let v = Variables::resolve(&[&pack], &BTreeMap::new(), &FromLog::default());
        assert_eq!(v.number("NumberOfProcessors").unwrap(), Some(1.0));
        assert_eq!(v.sources["NumberOfProcessors"], Origin::Pack);
        assert!(!v.values.contains_key(LOGICAL_PROCESSORS));
    }
}
