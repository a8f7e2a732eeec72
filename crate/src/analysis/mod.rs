//! Analysis: say what was wrong in a capture, when, and how badly, with PAL-compatible rules.
//!
//! Rule packs ([`pack`]) select series by Perfmon wildcard paths ([`rules`]) and compare per-slice
//! statistics ([`slices`]) with thresholds ([`expr`], [`variables`]); consecutive broken slices become
//! findings ([`findings`]); [`report`] writes them as one self-contained HTML page. docs/analysis.md
//! describes the semantics and the decisions.

mod builtin;
pub mod derived;
pub mod error;
pub mod expr;
pub mod findings;
pub mod pack;
pub mod pal;
pub mod report;
pub mod rules;
pub mod slices;
pub mod variables;

pub use derived::{derived_values, DerivedRef};
pub use error::AnalysisError;
pub use findings::Finding;
pub use pack::{
    Block, Derive, Derived, DerivedInput, Inline, Instances, Operator, PairBy, Reference, Rule,
    RuleKind, RulePack, Severity, Stat, Text, Threshold, Value, Variable, VariableType,
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
    /// Where a built-in pack and another pack (an imported PAL file) have rules on the same series:
    /// whose rules run.
    pub overlap: Overlap,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            packs: None,
            variables: BTreeMap::new(),
            slice: SliceLength::Auto,
            from: None,
            to: None,
            overlap: Overlap::default(),
        }
    }
}

/// One analysis per concern: where a built-in pack and a pack given whole (an imported PAL file, a
/// team's own pack) both have rules on one series, the user chooses whose run; the others are listed
/// as skipped with the reason, so one breach is never reported twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Overlap {
    /// The given pack's rules (PAL's thresholds, when a PAL file was imported): the default, since
    /// the user brought that pack on purpose.
    #[default]
    Imported,
    /// The built-in packs' rules.
    Builtin,
    /// Both, each finding listed (as before this option).
    Both,
}

/// Takes out of the rules of one side, per `overlap`, the series a rule of the other side selects; a
/// rule left with none is skipped, naming the pack chosen.
fn resolve_overlap(prepared: &mut [rules::Prepared<'_>], overlap: Overlap) {
    if overlap == Overlap::Both {
        return;
    }
    let builtin = |p: &rules::Prepared<'_>| p.pack.source == builtin::SOURCE;
    // The series each side's running rules select, and one pack that selects each.
    let mut by_side: [BTreeMap<usize, String>; 2] = [BTreeMap::new(), BTreeMap::new()];
    for p in prepared.iter().filter(|p| p.skipped.is_none()) {
        let side = usize::from(builtin(p));
        for &s in &p.series {
            by_side[side].entry(s).or_insert_with(|| p.pack.id.clone());
        }
    }
    let loser = usize::from(overlap == Overlap::Imported);
    for p in prepared.iter_mut().filter(|p| p.skipped.is_none()) {
        if usize::from(builtin(p)) != loser {
            continue;
        }
        let other = &by_side[1 - loser];
        let winner = p.series.iter().find_map(|s| other.get(s)).cloned();
        // The series the other side covers leave this rule; with none left it is skipped.
        p.series.retain(|s| !other.contains_key(s));
        if let (Some(winner), true) = (winner, p.series.is_empty()) {
            p.skipped = Some(format!(
                "{winner} has rules on the same series and was chosen (option overlap: {})",
                match overlap {
                    Overlap::Imported => "imported",
                    _ => "builtin",
                }
            ));
            p.series.clear();
            p.threshold = f64::NAN;
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
    // The packs' derived series, after the capture's: series `capture.series.len() + i` is derived[i].
    let mut computed = Vec::new();
    for pack in &packs {
        for (i, d) in pack.derived.iter().enumerate() {
            computed.extend(derived::compute(
                &pack.id,
                i,
                d,
                capture,
                &paths,
                &vars.values,
            )?);
        }
    }
    let mut paths = paths;
    paths.extend(computed.iter().map(|c| FoldedPath::new(&c.series.parsed)));
    let all: Vec<&crate::capture::Series> = capture
        .series
        .iter()
        .chain(computed.iter().map(|c| &c.series))
        .collect();
    let mut prepared = Vec::new();
    for pack in &packs {
        prepared.extend(rules::prepare(pack, &vars, &paths)?);
    }
    resolve_overlap(&mut prepared, options.overlap);
    let slicing = Slicing::new(&capture.timestamps, options.slice, options.from, options.to)?;
    // A trend per hour is not judged on less than an hour of log.
    if let (Some(a), Some(b)) = (slicing.slices.first(), slicing.slices.last()) {
        let span = b.end - a.start;
        if span < findings::MIN_TREND_SPAN_MS {
            for p in prepared
                .iter_mut()
                .filter(|p| p.rule.kind == RuleKind::Trend && p.skipped.is_none())
            {
                p.skipped = Some(format!(
                    "a trend per hour needs at least an hour of log; the range analysed is {}",
                    findings::duration(span)
                ));
                p.series.clear();
                p.threshold = f64::NAN;
            }
        }
    }
    // Each selected series' statistics, once, however many rules read them.
    let mut stats: Vec<Option<SliceStats>> = vec![None; all.len()];
    for p in &prepared {
        for &s in &p.series {
            if stats[s].is_none() {
                stats[s] = Some(SliceStats::compute(&all[s].values, &slicing));
            }
        }
    }
    let findings = findings::findings(&prepared, &slicing, capture, &all, &computed, &stats);
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
