//! Contributors: which processes did it. Over a card's range, the log's own breakdown of the card's
//! resource by process, largest first, each with its share (`docs/analysis.md`, "Contributors"):
//!
//! - processor time (and the queue while busy): `Process(*)\% Processor Time` (kernel time:
//!   `% Privileged Time`), a share of the machine's capacity (a process' counter is per core: 100% is one
//!   logical processor, so it is divided by `logicalProcessors` x 100);
//! - memory and the paging file: `Process(*)\Private Bytes`, a share of all processes' private bytes;
//! - disks: `Process(*)\IO Data Bytes/sec` (reads: `IO Read Bytes/sec`, writes: `IO Write Bytes/sec`), a
//!   share of all processes' I/O;
//! - paging (Pages/sec, Page Reads/sec): `Process(*)\Page Faults/sec`, a share of all processes' faults;
//! - the network: each adapter's `Network Interface(*)\Bytes Total/sec`, a share of all adapters'.
//!
//! Kernel time without the processes' `% Privileged Time` falls back to each processor's (`Processor(*)\%
//! Privileged Time`, a share of the machine). A card whose breakdown the log lacks names the counter that
//! would have given it (`missing`), for the next collection (`template`).
//!
//! A process' value is its mean over every sample of the range, a sample where it was not running
//! counting 0, so one seen in a single sample never outranks one that ran all along. `_Total` and `Idle`
//! are not processes.

use crate::capture::path::FoldedPath;
use serde::{Deserialize, Serialize};

/// One process' part in a card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contributor {
    /// The breakdown series (`Process(sqlservr)\% Processor Time`).
    pub series_index: usize,
    pub path: String,
    /// Its instance as written (`sqlservr`).
    pub name: String,
    /// Its mean over the card's range, in the counter's unit.
    pub value: f64,
    /// 0..=1: of the machine's processor capacity, or of all processes' private bytes or I/O.
    pub share: f64,
    /// What it is: "process", "processor" or "adapter".
    #[serde(default = "process")]
    pub kind: String,
}

fn process() -> String {
    "process".into()
}

/// A breakdown: the object and counter (English, folded) whose instances split a card's resource, and
/// whether shares are of the machine's processor capacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Breakdown {
    pub object: &'static str,
    pub counter: &'static str,
    pub of_capacity: bool,
}

impl Breakdown {
    /// The counter path as a collector writes it (`\Process(*)\% Processor Time`), for `missing` and
    /// the counter lists of `template`.
    pub fn path(&self) -> String {
        let title = |s: &str| -> String {
            match s {
                "process" => "Process".into(),
                "processor" => "Processor".into(),
                "network interface" => "Network Interface".into(),
                "% processor time" => "% Processor Time".into(),
                "% privileged time" => "% Privileged Time".into(),
                "private bytes" => "Private Bytes".into(),
                "io read bytes/sec" => "IO Read Bytes/sec".into(),
                "io write bytes/sec" => "IO Write Bytes/sec".into(),
                "io data bytes/sec" => "IO Data Bytes/sec".into(),
                "page faults/sec" => "Page Faults/sec".into(),
                "bytes total/sec" => "Bytes Total/sec".into(),
                other => other.into(),
            }
        };
        format!("\\{}(*)\\{}", title(self.object), title(self.counter))
    }
}

/// The most contributors a card lists.
pub const MAX: usize = 5;

const fn by(object: &'static str, counter: &'static str, of_capacity: bool) -> Breakdown {
    Breakdown {
        object,
        counter,
        of_capacity,
    }
}

/// The breakdowns that answer a card led by `object`/`counter` (folded English), the first the log has
/// wins: processes first, then the machine's parts.
pub fn breakdowns(object: &str, counter: &str) -> &'static [Breakdown] {
    const KERNEL: &[Breakdown] = &[
        by("process", "% privileged time", true),
        by("processor", "% privileged time", true),
    ];
    const CPU: &[Breakdown] = &[by("process", "% processor time", true)];
    const MEMORY: &[Breakdown] = &[by("process", "private bytes", false)];
    const PAGING: &[Breakdown] = &[by("process", "page faults/sec", false)];
    const READS: &[Breakdown] = &[by("process", "io read bytes/sec", false)];
    const WRITES: &[Breakdown] = &[by("process", "io write bytes/sec", false)];
    const IO: &[Breakdown] = &[by("process", "io data bytes/sec", false)];
    const NETWORK: &[Breakdown] = &[by("network interface", "bytes total/sec", false)];
    match (object, counter) {
        ("processor" | "processor information", "% privileged time") => KERNEL,
        ("processor" | "processor information", _) | ("system", _) => CPU,
        // The machine's processor time read from the processes (a log without Processor counters).
        ("process", "% processor time excluding idle") => CPU,
        ("memory", c) if c.starts_with("pages/sec") || c.starts_with("page reads/sec") => PAGING,
        ("memory" | "paging file", _) => MEMORY,
        ("logicaldisk" | "physicaldisk", c) if c.contains("read") => READS,
        ("logicaldisk" | "physicaldisk", c) if c.contains("write") => WRITES,
        ("logicaldisk" | "physicaldisk", _) => IO,
        ("network interface" | "network adapter", _) => NETWORK,
        _ => &[],
    }
}

/// The contributors of a card led by series `lead` over samples `range` (indices into the capture's
/// samples), largest first, at most `MAX`; and, when the log has none of the breakdowns, the counter
/// that would have given them.
pub fn contributors(
    lead: usize,
    range: std::ops::Range<usize>,
    paths: &[FoldedPath],
    series: &[&crate::capture::Series],
    logical_processors: Option<usize>,
) -> (Vec<Contributor>, Option<String>) {
    let Some(lp) = paths.get(lead) else {
        return (Vec::new(), None);
    };
    let (object, counter) = lp.english_or_own();
    let list = breakdowns(object, counter);
    if range.is_empty() {
        return (Vec::new(), None);
    }
    for b in list {
        let found = of_breakdown(b, lp, range.clone(), paths, series, logical_processors);
        if let Some(found) = found {
            return (found, None);
        }
    }
    (Vec::new(), list.first().map(Breakdown::path))
}

/// The contributors of one breakdown; None when the log has none of its series on the lead's machine.
fn of_breakdown(
    b: &Breakdown,
    lp: &FoldedPath,
    range: std::ops::Range<usize>,
    paths: &[FoldedPath],
    series: &[&crate::capture::Series],
    logical_processors: Option<usize>,
) -> Option<Vec<Contributor>> {
    let n = range.len();
    let kind = match b.object {
        "process" => "process",
        "processor" => "processor",
        _ => "adapter",
    };
    let mut any = false;
    let mut out: Vec<Contributor> = Vec::new();
    for (i, p) in paths.iter().enumerate().take(series.len()) {
        let (o, c) = p.english_or_own();
        if o != b.object || c != b.counter || p.machine != lp.machine {
            continue;
        }
        let Some(instance) = p.instance.as_deref() else {
            continue;
        };
        if matches!(instance, "_total" | "idle") {
            continue;
        }
        any = true;
        let values = series[i].values.get(range.clone()).unwrap_or(&[]);
        let sum: f64 = values.iter().filter(|v| v.is_finite()).sum();
        let value = sum / n as f64;
        if value > 0.0 {
            let s = series[i];
            out.push(Contributor {
                series_index: i,
                path: s.path.clone(),
                name: match (kind, s.parsed.instance.as_deref()) {
                    ("processor", Some(n)) => format!("processor {n}"),
                    (_, n) => n.unwrap_or_default().to_string(),
                },
                value,
                share: 0.0,
                kind: kind.into(),
            });
        }
    }
    if !any {
        return None;
    }
    let of_capacity = b.of_capacity;
    let whole = if of_capacity {
        logical_processors.unwrap_or(1).max(1) as f64 * 100.0
    } else {
        out.iter().map(|c| c.value).sum()
    };
    for c in &mut out {
        c.share = if whole > 0.0 {
            (c.value / whole).min(1.0)
        } else {
            0.0
        };
    }
    // The largest first, at most MAX: an insertion into a list of five rather than a sort (a sort of a
    // new element type is a new instantiation of the standard library's sort in the wasm module).
    let mut top: Vec<Contributor> = Vec::with_capacity(MAX + 1);
    for c in out {
        let at = top
            .iter()
            .position(|t| c.value > t.value)
            .unwrap_or(top.len());
        if at < MAX {
            top.insert(at, c);
            top.truncate(MAX);
        }
    }
    Some(top)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_resource_has_its_breakdown_and_the_path_a_collector_writes() {
        let first = |o, c| breakdowns(o, c).first().map(Breakdown::path);
        assert_eq!(
            first("processor", "% processor time").as_deref(),
            Some(r"\Process(*)\% Processor Time")
        );
        // Kernel time: the processes' first, each processor's when the log has no process.
        let kernel: Vec<String> = breakdowns("processor", "% privileged time")
            .iter()
            .map(Breakdown::path)
            .collect();
        assert_eq!(
            kernel,
            [
                r"\Process(*)\% Privileged Time",
                r"\Processor(*)\% Privileged Time"
            ]
        );
        assert_eq!(
            first("memory", "pages/sec while memory low").as_deref(),
            Some(r"\Process(*)\Page Faults/sec")
        );
        assert_eq!(
            first("memory", "available mbytes").as_deref(),
            Some(r"\Process(*)\Private Bytes")
        );
        assert_eq!(
            first("logicaldisk", "avg. disk sec/write").as_deref(),
            Some(r"\Process(*)\IO Write Bytes/sec")
        );
        assert_eq!(
            first("network interface", "output queue length").as_deref(),
            Some(r"\Network Interface(*)\Bytes Total/sec")
        );
        assert!(breakdowns("sqlserver:buffer manager", "page life expectancy").is_empty());
    }
}
