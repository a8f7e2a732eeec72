//! Analysis: say what was wrong in a capture, when, and how badly, with PAL-compatible rules.
//!
//! Rule packs ([`pack`]) select series by Perfmon wildcard paths ([`rules`]) and compare per-slice
//! statistics ([`slices`]) with thresholds ([`expr`], [`variables`]); consecutive broken slices become
//! findings ([`findings`]); [`report`] writes them as one self-contained HTML page. docs/analysis.md
//! describes the semantics and the decisions.

mod builtin;
pub mod error;
pub mod expr;
pub mod findings;
pub mod pack;
pub mod pal;
pub mod report;
pub mod rules;
pub mod slices;
pub mod variables;

pub use error::AnalysisError;
pub use findings::Finding;
pub use pack::{
    Derive, Instances, Operator, Reference, Rule, RuleKind, RulePack, Severity, Stat, Threshold,
    Value, Variable, VariableType,
};
pub use report::analysis_report;
pub use slices::{Slice, SliceLength, SliceStats, Slicing};
pub use variables::Origin;

use crate::capture::path::FoldedPath;
use crate::capture::Capture;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The built-in rule packs (parsed once). A pack that does not read is left out here and fails the
/// test `builtin_packs_all_read`.
pub fn builtin_packs() -> &'static [RulePack] {
    static PACKS: OnceLock<Vec<RulePack>> = OnceLock::new();
    PACKS.get_or_init(|| {
        builtin::builtin_json()
            .iter()
            .filter_map(|t| RulePack::from_json(t).ok())
            .collect()
    })
}

/// A pack to run: a built-in one by id, or one given whole.
#[derive(Clone, Debug, PartialEq)]
pub enum PackRef {
    Builtin(String),
    Pack(RulePack),
}

#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeOptions {
    /// None: every built-in pack with at least one rule whose counters the capture has.
    pub packs: Option<Vec<PackRef>>,
    /// The user's answers; they win over derived values and defaults.
    pub variables: BTreeMap<String, Value>,
    pub slice: SliceLength,
    /// ms since the epoch, UTC; default the capture's first and last timestamps.
    pub from: Option<f64>,
    pub to: Option<f64>,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            packs: None,
            variables: BTreeMap::new(),
            slice: SliceLength::Auto,
            from: None,
            to: None,
        }
    }
}

/// What ran: one entry per rule of every pack analysed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleRun {
    pub pack: String,
    pub rule: String,
    /// How many series it ran on.
    pub series: usize,
    /// The threshold it compared with: the number, or the expression evaluated with the variables and
    /// clamped (absent when skipped), so a chart can draw it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold: Option<f64>,
    /// Why it did not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    pub slices: Vec<Slice>,
    /// Sorted by start, then severity (critical first).
    pub findings: Vec<Finding>,
    pub rules: Vec<RuleRun>,
    /// The values used.
    pub variables: BTreeMap<String, Value>,
    /// Where each value came from.
    #[serde(default)]
    pub variable_sources: BTreeMap<String, Origin>,
}

/// Analyses `capture` with the packs of `options`.
pub fn analyze(capture: &Capture, options: &AnalyzeOptions) -> Result<Analysis, AnalysisError> {
    let paths: Vec<FoldedPath> = capture
        .series
        .iter()
        .map(|s| FoldedPath::new(&s.parsed))
        .collect();
    let packs: Vec<&RulePack> = match &options.packs {
        Some(list) => list
            .iter()
            .map(|r| match r {
                PackRef::Pack(p) => {
                    p.check()?;
                    Ok(p)
                }
                PackRef::Builtin(id) => builtin_packs()
                    .iter()
                    .find(|p| &p.id == id)
                    .ok_or_else(|| AnalysisError::UnknownPack(id.clone())),
            })
            .collect::<Result<_, _>>()?,
        None => builtin_packs()
            .iter()
            .filter(|p| p.rules.iter().any(|r| rules::select(r, &paths).is_ok()))
            .collect(),
    };
    let vars = variables::Variables::resolve(&packs, &options.variables, &paths);
    let mut prepared = Vec::new();
    for pack in &packs {
        prepared.extend(rules::prepare(pack, &vars, &paths)?);
    }
    let slicing = Slicing::new(&capture.timestamps, options.slice, options.from, options.to)?;
    // Each selected series' statistics, once, however many rules read them.
    let mut stats: Vec<Option<SliceStats>> = vec![None; capture.series.len()];
    for p in &prepared {
        for &s in &p.series {
            if stats[s].is_none() {
                stats[s] = Some(SliceStats::compute(&capture.series[s].values, &slicing));
            }
        }
    }
    let findings = findings::findings(&prepared, &slicing, capture, &stats);
    Ok(Analysis {
        slices: slicing.slices,
        findings,
        rules: prepared
            .iter()
            .map(|p| RuleRun {
                pack: p.pack.id.clone(),
                rule: p.rule.id.clone(),
                series: p.series.len(),
                threshold: (p.skipped.is_none() && p.threshold.is_finite()).then_some(p.threshold),
                skipped: p.skipped.clone(),
            })
            .collect(),
        variables: vars.values,
        variable_sources: vars.sources,
    })
}

#[cfg(test)]
mod tests;
