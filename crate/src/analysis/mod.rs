//! Analysis: say what was wrong in a capture, when, and how badly, with PAL-compatible rules.
//!
//! Rule packs ([`pack`]) select series by Perfmon wildcard paths ([`rules`]) and compare per-slice
//! statistics ([`slices`]) with thresholds ([`expr`], [`variables`]); consecutive broken slices become
//! findings ([`findings`]); [`report`] writes them as one self-contained HTML page. docs/analysis.md
//! describes the semantics and the decisions.

pub mod baseline;
mod builtin;
pub mod cards;
pub mod contributors;
pub mod derived;
pub mod episodes;
pub mod error;
pub mod expr;
pub mod findings;
pub mod fleet;
pub mod growth;
pub mod pack;
pub mod pal;
pub mod report;
pub mod rules;
pub mod slices;
pub mod story;
pub mod template;
pub mod variables;

pub use cards::FindingGroup;
pub use contributors::Contributor;
pub use derived::{derived_values, explain_derived, DerivedExplanation, DerivedRef};
pub use error::AnalysisError;
pub use findings::Finding;
pub use findings::Scope;
pub use pack::{
    Block, Derive, Derived, DerivedInput, EpisodeSpec, Inline, Instances, Operator, PairBy,
    Reference, Rule, RuleKind, RulePack, Severity, Stat, Text, Threshold, Value, Variable,
    VariableType,
};
pub use report::analysis_report;
pub use slices::{Slice, SliceLength, SliceStats, Slicing};
pub use variables::{FromLog, Origin, UsedVariable};

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
    /// The machine's normal: adds the cards "worse than its normal" (`baseline::judge`), ranked and
    /// told with the others. A baseline of another machine is an error.
    pub baseline: Option<baseline::Baseline>,
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
            baseline: None,
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

/// What ran: one entry per rule of every pack analysed, with what a reader needs to understand it (its
/// title, category, description and references, the variables its threshold reads).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleRun {
    pub pack: String,
    pub rule: String,
    #[serde(default)]
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub category: String,
    #[serde(default = "default_severity")]
    pub severity: Severity,
    /// Why it matters and what to check next: plain text, or PAL's paragraphs, lists and links as
    /// blocks (`pack::Text`, never HTML).
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub description: Text,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Reference>,
    /// Rules of one pack and group are one PAL analysis (its warning and critical).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// A trend rule compares slopes per hour, not values.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trend: bool,
    /// How its threshold is compared (absent in analyses from before it was reported).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operator: Option<Operator>,
    /// The variables its threshold expression reads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<String>,
    /// The counter path it selects (so a chart draws a group's thresholds only on that counter).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub counter: String,
    /// An episode rule: its window and share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub episode: Option<EpisodeSpec>,
    /// A growth rule: its hours and steadiness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<pack::GrowthSpec>,
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

fn default_severity() -> Severity {
    Severity::Warning
}

/// What the log says of itself, for a verdict's header: its machines, OS, clock, sampling.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LogFacts {
    /// The machines its counter paths name (without the leading backslashes), in order of appearance.
    pub machines: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub os: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logical_processors: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link_speed_mbps: Option<f64>,
    pub samples: usize,
    pub series: usize,
    /// ms since the epoch, UTC; NaN-free: absent without samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<f64>,
    /// The median step between samples, ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interval_ms: Option<f64>,
}

impl LogFacts {
    pub fn of(capture: &Capture, log: &FromLog) -> LogFacts {
        let mut machines: Vec<String> = Vec::new();
        for s in &capture.series {
            let m = s.parsed.machine.as_str();
            if !m.is_empty() && !machines.iter().any(|x| x.eq_ignore_ascii_case(m)) {
                machines.push(m.to_string());
            }
        }
        let ts: Vec<f64> = capture
            .timestamps
            .iter()
            .copied()
            .filter(|t| t.is_finite())
            .collect();
        let mut steps: Vec<f64> = ts.windows(2).map(|w| w[1] - w[0]).collect();
        steps.sort_by(f64::total_cmp);
        LogFacts {
            machines,
            os: log.os.clone(),
            logical_processors: log.logical_processors,
            link_speed_mbps: log.link_speed_mbps,
            samples: capture.timestamps.len(),
            series: capture.series.len(),
            first: ts.first().copied(),
            last: ts.last().copied(),
            interval_ms: steps.get(steps.len() / 2).copied(),
        }
    }
}

/// A pack an analysis ran, so a verdict can name what produced it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PackUsed {
    pub id: String,
    pub title: String,
    /// Where it comes from: "counterlens built-in", a PAL file's name, a team's own.
    #[serde(default)]
    pub source: String,
    pub builtin: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Analysis {
    /// The packs analysed, in order.
    #[serde(default)]
    pub packs: Vec<PackUsed>,
    pub slices: Vec<Slice>,
    /// Sorted by start, then severity (critical first).
    pub findings: Vec<Finding>,
    /// The findings as cards: one concern over one stretch, ranked by what matters (`cards`).
    #[serde(default)]
    pub groups: Vec<FindingGroup>,
    /// The cards in a few plain sentences: what, when, how badly, the likely cause, the next step.
    #[serde(default)]
    pub story: story::Story,
    pub rules: Vec<RuleRun>,
    /// The values used.
    pub variables: BTreeMap<String, Value>,
    /// Where each value came from.
    #[serde(default)]
    pub variable_sources: BTreeMap<String, Origin>,
    /// What the log says of itself (machines, OS, time range, interval).
    #[serde(default)]
    pub log: LogFacts,
}

/// The least stretch of log `rule` needs before it judges anything: its episode window, the hours of a
/// growth rule, its `for`, an hour for a trend per slice; 0 for a rule on slices, which judges any.
fn judges_after_ms(rule: &Rule) -> f64 {
    let s = if let Some(e) = &rule.episode {
        e.window
    } else if let Some(g) = &rule.growth {
        g.hours() * 3600.0
    } else if let Some(f) = rule.for_seconds {
        f
    } else if rule.kind == RuleKind::Trend {
        3600.0
    } else {
        0.0
    };
    s * 1000.0
}

/// Whether a built-in pack applies to a log (its series folded in `paths`): one of its rules selects a
/// series of the log, or one of its derived series has every input in the log on a machine its
/// `unless` does not cover (the rules on it then have a series to run on).
fn applies(pack: &RulePack, paths: &[FoldedPath]) -> bool {
    let matching = |text: &str| -> Vec<&str> {
        crate::capture::PathPattern::parse(text).map_or_else(
            |_| Vec::new(),
            |p| {
                paths
                    .iter()
                    .filter(|fp| p.matches_folded(fp))
                    .map(|fp| fp.machine.as_str())
                    .collect()
            },
        )
    };
    pack.rules.iter().any(|r| rules::select(r, paths).is_ok())
        || pack.derived.iter().any(|d| {
            let covered = d.unless.as_deref().map(matching).unwrap_or_default();
            d.inputs
                .iter()
                .all(|i| matching(&i.counter).iter().any(|m| !covered.contains(m)))
        })
}

/// Analyses `capture` with the packs of `options`.
pub fn analyze(capture: &Capture, options: &AnalyzeOptions) -> Result<Analysis, AnalysisError> {
    // Another machine's normal is refused before any rule runs.
    if let Some(b) = &options.baseline {
        baseline::fits(capture, b)?;
    }
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
            .filter(|p| applies(p, &paths))
            .collect(),
    };
    let from_log = FromLog::of(capture, &paths);
    let vars = variables::Variables::resolve(&packs, &options.variables, &from_log);
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
                    crate::words::duration(span)
                ));
                p.series.clear();
                p.threshold = f64::NAN;
            }
        }
    }
    // Each selected series' statistics, once, however many rules read them (sustained and episode
    // rules read the samples, not the slices).
    let mut stats: Vec<Option<SliceStats>> = vec![None; all.len()];
    for p in prepared.iter().filter(|p| {
        p.rule.for_seconds.is_none() && p.rule.episode.is_none() && p.rule.growth.is_none()
    }) {
        for &s in &p.series {
            if stats[s].is_none() {
                stats[s] = Some(SliceStats::compute(&all[s].values, &slicing));
            }
        }
    }
    let mut findings = findings::findings(&prepared, &slicing, capture, &all, &computed, &stats);
    let reads = |p: &rules::Prepared<'_>| -> Vec<String> {
        match &p.rule.threshold {
            Threshold::Expression(text) => expr::Expr::parse(text)
                .map(|e| e.variables().into_iter().map(str::to_string).collect())
                .unwrap_or_default(),
            Threshold::Number(_) => Vec::new(),
        }
    };
    // Each finding says which answers its threshold rests on, and where each came from.
    for f in &mut findings {
        if let Some(p) = prepared
            .iter()
            .find(|p| p.pack.id == f.pack && p.rule.id == f.rule)
        {
            f.variables = reads(p)
                .into_iter()
                .filter_map(|name| {
                    Some(UsedVariable {
                        value: vars.values.get(&name)?.clone(),
                        origin: *vars.sources.get(&name)?,
                        name,
                    })
                })
                .collect();
        }
    }
    cards::set_scopes(&mut findings, &prepared, &paths);
    let facts = LogFacts::of(capture, &from_log);
    let clock = findings::Clock::of(capture, &slicing.slices);
    let ctx = cards::Context::new(
        &prepared,
        &all,
        &clock,
        facts.machines.len(),
        (&paths, &capture.timestamps, from_log.logical_processors),
    );
    let mut groups = cards::group(&findings, &ctx);
    let running: Vec<&rules::Prepared<'_>> =
        prepared.iter().filter(|p| p.skipped.is_none()).collect();
    let mut ran = story::Ran {
        rules: running.len(),
        shortest_ms: running
            .iter()
            .map(|p| judges_after_ms(p.rule))
            .reduce(f64::min),
    };
    let judged = match &options.baseline {
        Some(b) => {
            let (runs, pack) = baseline::judge(capture, b, &clock, &mut findings, &mut groups);
            ran.rules += runs.len();
            let window = baseline::WINDOW_S * 1000.0;
            ran.shortest_ms = Some(ran.shortest_ms.map_or(window, |s| s.min(window)));
            Some((runs, pack))
        }
        None => None,
    };
    let story = story::story(
        &groups,
        &findings,
        &ctx,
        ran,
        facts.first.zip(facts.last).map(|(a, b)| b - a),
    );
    let (judged_rules, judged_pack) = judged.map_or((Vec::new(), None), |(r, p)| (r, Some(p)));
    Ok(Analysis {
        packs: packs
            .iter()
            .map(|p| PackUsed {
                id: p.id.clone(),
                title: p.title.clone(),
                source: p.source.clone(),
                builtin: p.source == builtin::SOURCE,
            })
            .chain(judged_pack)
            .collect(),
        slices: slicing.slices,
        groups,
        story,
        findings,
        rules: prepared
            .iter()
            .map(|p| RuleRun {
                pack: p.pack.id.clone(),
                rule: p.rule.id.clone(),
                title: p.rule.title.clone(),
                category: p.rule.category.clone(),
                severity: p.rule.severity,
                description: p.rule.description.clone(),
                references: p.rule.references.clone(),
                group: p.rule.group.clone(),
                trend: p.rule.kind == RuleKind::Trend,
                operator: Some(p.rule.operator),
                variables: reads(p),
                counter: p.rule.counter.clone(),
                episode: p.rule.episode.clone(),
                growth: p.rule.growth.clone(),
                series: p.series.len(),
                threshold: (p.skipped.is_none() && p.threshold.is_finite()).then_some(p.threshold),
                skipped: p.skipped.clone(),
            })
            .chain(judged_rules)
            .collect(),
        variables: vars.values,
        variable_sources: vars.sources,
        log: facts,
    })
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod verdict_tests;
