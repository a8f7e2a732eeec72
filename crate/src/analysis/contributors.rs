//! Contributors: which processes did it. Over a card's range, the log's own breakdown of the card's
//! resource by process, largest first, each with its share (`docs/analysis.md`, "Contributors"):
//!
//! - processor time (and the queue while busy): `Process(*)\% Processor Time` (kernel time:
//!   `% Privileged Time`), a share of the machine's capacity (a process' counter is per core: 100% is one
//!   logical processor, so it is divided by `logicalProcessors` x 100);
//! - memory and the paging file: `Process(*)\Private Bytes`, a share of all processes' private bytes;
//! - disks: `Process(*)\IO Data Bytes/sec` (reads: `IO Read Bytes/sec`, writes: `IO Write Bytes/sec`), a
//!   share of all processes' I/O.
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
}

/// The most contributors a card lists.
pub const MAX: usize = 5;

/// Which breakdown answers a card led by `lead` (folded English object and counter), and whether
/// shares are of the machine's processor capacity.
fn breakdown(object: &str, counter: &str) -> Option<(&'static str, bool)> {
    match (object, counter) {
        ("processor" | "processor information", "% privileged time") => {
            Some(("% privileged time", true))
        }
        ("processor" | "processor information", _) | ("system", _) => {
            Some(("% processor time", true))
        }
        ("memory" | "paging file", _) => Some(("private bytes", false)),
        ("logicaldisk" | "physicaldisk", c) if c.contains("read") => {
            Some(("io read bytes/sec", false))
        }
        ("logicaldisk" | "physicaldisk", c) if c.contains("write") => {
            Some(("io write bytes/sec", false))
        }
        ("logicaldisk" | "physicaldisk", _) => Some(("io data bytes/sec", false)),
        _ => None,
    }
}

/// The contributors of a card led by series `lead` over samples `range` (indices into the capture's
/// samples), largest first, at most `MAX`; empty when the log has no breakdown.
pub fn contributors(
    lead: usize,
    range: std::ops::Range<usize>,
    paths: &[FoldedPath],
    series: &[&crate::capture::Series],
    logical_processors: Option<usize>,
) -> Vec<Contributor> {
    let Some(lp) = paths.get(lead) else {
        return Vec::new();
    };
    let (object, counter) = lp.english_or_own();
    let Some((wanted, of_capacity)) = breakdown(object, counter) else {
        return Vec::new();
    };
    let n = range.len();
    if n == 0 {
        return Vec::new();
    }
    let mut out: Vec<Contributor> = Vec::new();
    for (i, p) in paths.iter().enumerate().take(series.len()) {
        let (o, c) = p.english_or_own();
        if o != "process" || c != wanted || p.machine != lp.machine {
            continue;
        }
        let Some(instance) = p.instance.as_deref() else {
            continue;
        };
        if matches!(instance, "_total" | "idle") {
            continue;
        }
        let values = series[i].values.get(range.clone()).unwrap_or(&[]);
        let sum: f64 = values.iter().filter(|v| v.is_finite()).sum();
        let value = sum / n as f64;
        if value > 0.0 {
            let s = series[i];
            out.push(Contributor {
                series_index: i,
                path: s.path.clone(),
                name: s.parsed.instance.clone().unwrap_or_default(),
                value,
                share: 0.0,
            });
        }
    }
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
    top
}
