//! Cards: the findings a reader takes in at once, ranked by what matters (`docs/analysis.md`, "Cards").
//!
//! A card is one concern (a rule's `group`, else the rule) over one stretch of time: a warning and a
//! critical of the same episode are one card, the critical inside it. The machine first: findings on
//! series that speak for the machine (a `_Total`, memory, each disk, each adapter) make the cards;
//! findings on one part of it (a processor, a process) join the machine's card they overlap, and make a
//! card of their own only where the machine had none. Episode rules' cards are per machine. Cards are
//! ranked machine before part, then critical before warning, then longest first.

use super::contributors::Contributor;
use super::findings::{message_measure, percent_of_time, Clock, Finding, Scope};
use super::pack::{Operator, Severity};
use super::rules::Prepared;
use crate::capture::names::english_names;
use crate::capture::path::FoldedPath;
use crate::words::duration;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One card: the findings of one concern over one stretch, with the facts a reader needs first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingGroup {
    pub pack: String,
    /// The rule of its lead finding.
    pub rule: String,
    /// The worst severity of its findings.
    pub severity: Severity,
    /// ms since the epoch, UTC: the union of its lead-scope findings' ranges.
    pub start: f64,
    pub end: f64,
    /// Indices into `Analysis::findings`, in time order.
    pub findings: Vec<usize>,
    /// The index of the finding of the card's severity furthest past its threshold: on the lead's
    /// series where it has one, else on the card's scope.
    pub worst: usize,
    /// How many distinct series it hit.
    pub series: usize,
    /// Its concern: the rules' group, or the rule when it has none.
    #[serde(default)]
    pub group: String,
    /// Its lead rule's category (Processor, Memory, Disk, ...).
    #[serde(default)]
    pub category: String,
    /// The machine of its series; empty when the log names none or the card spans machines.
    #[serde(default)]
    pub machine: String,
    #[serde(default)]
    pub scope: Scope,
    /// The index of the finding that leads it: the longest on its scope's series, then the most
    /// severe, then the rule its pack lists first.
    #[serde(default)]
    pub lead: usize,
    /// `end - start`.
    #[serde(default)]
    pub duration_ms: f64,
    /// Of the lead finding when it is an episode: the mean over it and the share of its samples past
    /// the threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// The card in one sentence, in the words and units of the findings' messages.
    #[serde(default)]
    pub summary: String,
    /// A machine card's processes, largest first, from the log's own breakdown over the card's range
    /// (`contributors`); empty when the log has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub contributors: Vec<Contributor>,
    /// A machine card without contributors: the counter that would have named them
    /// (`\Process(*)\% Processor Time`), for the next collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<String>,
}

/// Object names (English, folded) whose instances are parts of a machine.
const PART_OBJECTS: [&str; 9] = [
    "processor",
    "processor information",
    "process",
    "process v2",
    "thread",
    "job object details",
    "hyper-v hypervisor logical processor",
    "hyper-v hypervisor virtual processor",
    "hyper-v hypervisor root virtual processor",
];

fn is_aggregate(instance: &str) -> bool {
    matches!(instance, "_total" | "_global_" | "__total__")
}

fn english_object(p: &FoldedPath) -> &str {
    p.english_or_own().0
}

/// The scope of series `s` as rule `rule_series` (the series its rule selects) reads it.
fn scope_of(s: usize, rule_series: &[usize], paths: &[FoldedPath]) -> Scope {
    let Some(p) = paths.get(s) else {
        return Scope::Machine;
    };
    let Some(instance) = p.instance.as_deref() else {
        return Scope::Machine;
    };
    if is_aggregate(instance) {
        return Scope::Machine;
    }
    let object = english_object(p);
    if PART_OBJECTS.contains(&object) || object.starts_with(".net clr") {
        return Scope::Instance;
    }
    // An instance whose rule also reads the object's aggregate on that machine is a part of it.
    let has_aggregate = rule_series.iter().any(|&o| {
        paths.get(o).is_some_and(|q| {
            q.machine == p.machine
                && english_object(q) == object
                && q.instance.as_deref().is_some_and(is_aggregate)
        })
    });
    if has_aggregate {
        Scope::Instance
    } else {
        Scope::Machine
    }
}

/// Sets each finding's scope from the series its rule selects.
pub fn set_scopes(findings: &mut [Finding], prepared: &[Prepared<'_>], paths: &[FoldedPath]) {
    for f in findings.iter_mut() {
        if let Some(p) = prepared
            .iter()
            .find(|p| p.pack.id == f.pack && p.rule.id == f.rule)
        {
            f.scope = scope_of(f.series_index, &p.series, paths);
        }
    }
}

/// What the cards need beyond the findings: each rule's concern and title, the series' units, the
/// clock, and whether the log names several machines.
pub struct Context<'a> {
    prepared: &'a [Prepared<'a>],
    /// (pack, rule) -> index into `prepared` (the map type `findings` uses: no second instance of it in
    /// the module).
    rules: HashMap<(&'a str, &'a str), usize>,
    pub series: &'a [&'a crate::capture::Series],
    pub clock: &'a Clock,
    pub machines: usize,
    /// For contributors: the series' folded paths, the capture's time stamps, the logical processors.
    pub paths: &'a [FoldedPath],
    pub times: &'a [f64],
    pub logical_processors: Option<usize>,
}

impl<'a> Context<'a> {
    pub fn new(
        prepared: &'a [Prepared<'a>],
        series: &'a [&'a crate::capture::Series],
        clock: &'a Clock,
        machines: usize,
        (paths, times, logical_processors): (&'a [FoldedPath], &'a [f64], Option<usize>),
    ) -> Context<'a> {
        let mut rules = HashMap::default();
        for (i, p) in prepared.iter().enumerate() {
            rules.insert((p.pack.id.as_str(), p.rule.id.as_str()), i);
        }
        Context {
            prepared,
            rules,
            series,
            clock,
            machines,
            paths,
            times,
            logical_processors,
        }
    }

    fn rule(&self, f: &Finding) -> Option<&'a super::pack::Rule> {
        let i = *self.rules.get(&(f.pack.as_str(), f.rule.as_str()))?;
        Some(self.prepared[i].rule)
    }

    /// Where its rule is in the packs' order (the prepared rules follow each pack's list).
    fn order(&self, f: &Finding) -> usize {
        self.rules
            .get(&(f.pack.as_str(), f.rule.as_str()))
            .copied()
            .unwrap_or(usize::MAX)
    }

    fn concern(&self, f: &Finding) -> &'a str {
        self.rule(f)
            .map_or("", |r| r.group.as_deref().unwrap_or(r.id.as_str()))
    }

    fn title<'f>(&self, f: &'f Finding) -> &'f str
    where
        'a: 'f,
    {
        self.rule(f).map_or(f.title.as_str(), |r| r.title.as_str())
    }

    fn machine(&self, f: &Finding) -> &'a str {
        self.series
            .get(f.series_index)
            .map_or("", |s| s.parsed.machine.as_str())
    }
}

/// How far past its threshold a value is, relative to the threshold (absolute when it is 0), so
/// findings of different rules can be compared.
fn excess(f: &Finding) -> f64 {
    let d = match f.operator {
        Operator::Gt | Operator::Ge => f.worst - f.threshold,
        Operator::Lt | Operator::Le => f.threshold - f.worst,
        Operator::Eq => 0.0,
        Operator::Ne => (f.worst - f.threshold).abs(),
    };
    if f.threshold != 0.0 {
        d / f.threshold.abs()
    } else {
        d
    }
}

/// The findings as cards, ranked (module docs).
pub fn group(findings: &[Finding], ctx: &Context<'_>) -> Vec<FindingGroup> {
    // Per concern: episode findings per machine too, growth findings per machine and instance (a
    // leaking process is a card of its own).
    let mut keys: Vec<(&str, &str, &str, &str)> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let per_machine = f.mean.is_some() || f.growth.is_some();
        let machine = if per_machine { ctx.machine(f) } else { "" };
        let instance = match (&f.growth, ctx.series.get(f.series_index)) {
            (Some(_), Some(s)) => s.parsed.instance.as_deref().unwrap_or(""),
            _ => "",
        };
        let key = (f.pack.as_str(), ctx.concern(f), machine, instance);
        match keys.iter().position(|k| {
            k.0 == key.0
                && k.1 == key.1
                && k.2.eq_ignore_ascii_case(key.2)
                && k.3.eq_ignore_ascii_case(key.3)
        }) {
            Some(k) => members[k].push(i),
            None => {
                keys.push(key);
                members.push(vec![i]);
            }
        }
    }
    let mut out = Vec::new();
    for list in members {
        out.extend(cards_of(findings, list, ctx));
    }
    out.sort_by(|a, b| {
        (a.scope as u8)
            .cmp(&(b.scope as u8))
            .then(b.severity.cmp(&a.severity))
            .then(b.duration_ms.total_cmp(&a.duration_ms))
            .then(a.start.total_cmp(&b.start))
    });
    out
}

/// The cards of one concern: the machine's findings merged where their ranges overlap or touch, the
/// parts' findings inside the machine card they overlap, the rest of the parts' findings as cards of
/// their own.
fn cards_of(findings: &[Finding], mut list: Vec<usize>, ctx: &Context<'_>) -> Vec<FindingGroup> {
    list.sort_by(|&a, &b| {
        findings[a]
            .start
            .total_cmp(&findings[b].start)
            .then(a.cmp(&b))
    });
    // (scope, start, end, members)
    let mut spans: Vec<(Scope, f64, f64, Vec<usize>)> = Vec::new();
    let merge = |spans: &mut Vec<(Scope, f64, f64, Vec<usize>)>, scope: Scope, i: usize| {
        let f = &findings[i];
        match spans
            .iter_mut()
            .rev()
            .find(|s| s.0 == scope && f.start <= s.2 && f.end >= s.1)
        {
            Some(s) => {
                s.2 = s.2.max(f.end);
                s.3.push(i);
            }
            None => spans.push((scope, f.start, f.end, vec![i])),
        }
    };
    for &i in list
        .iter()
        .filter(|&&i| findings[i].scope == Scope::Machine)
    {
        merge(&mut spans, Scope::Machine, i);
    }
    for &i in list
        .iter()
        .filter(|&&i| findings[i].scope == Scope::Instance)
    {
        let f = &findings[i];
        match spans
            .iter_mut()
            .find(|s| s.0 == Scope::Machine && f.start <= s.2 && f.end >= s.1)
        {
            Some(s) => s.3.push(i),
            None => merge(&mut spans, Scope::Instance, i),
        }
    }
    spans
        .into_iter()
        .map(|(scope, start, end, mut idx)| {
            idx.sort_by(|&a, &b| {
                findings[a]
                    .start
                    .total_cmp(&findings[b].start)
                    .then(a.cmp(&b))
            });
            card(findings, scope, start, end, idx, ctx)
        })
        .collect()
}

fn card(
    findings: &[Finding],
    scope: Scope,
    start: f64,
    end: f64,
    idx: Vec<usize>,
    ctx: &Context<'_>,
) -> FindingGroup {
    let severity = idx
        .iter()
        .map(|&i| findings[i].severity)
        .max()
        .unwrap_or(Severity::Warning);
    let own: Vec<usize> = idx
        .iter()
        .copied()
        .filter(|&i| findings[i].scope == scope)
        .collect();
    // The lead: the longest, then the most severe, then the rule its pack lists first (a pack lists
    // its concern's main counter first: processor time before the queue).
    let order = |a: usize| ctx.order(&findings[a]);
    let longest = |a: usize| {
        let f = &findings[a];
        (f.end - f.start, f.severity)
    };
    let lead = own
        .iter()
        .copied()
        .reduce(|a, b| {
            let (da, sa) = longest(a);
            let (db, sb) = longest(b);
            if db > da || (db == da && (sb > sa || (sb == sa && order(b) < order(a)))) {
                b
            } else {
                a
            }
        })
        .unwrap_or(idx[0]);
    // The worst, of the card's severity: on the lead's series where it has one, else on the card's
    // scope, else anywhere; then the furthest past its threshold (relative to it). So a processor card
    // reads its processor time's worst, not the queue's (199 against 80 is further, relatively, than
    // 100% against 95%, and would put a count of threads under the card's title).
    let lead_series = findings[lead].series_index;
    let tier = |i: usize| {
        let f = &findings[i];
        if f.series_index == lead_series {
            2
        } else if f.scope == scope {
            1
        } else {
            0
        }
    };
    let worst = idx
        .iter()
        .copied()
        .filter(|&i| findings[i].severity == severity)
        .reduce(|a, b| {
            let (ta, tb) = (tier(a), tier(b));
            if tb > ta || (tb == ta && excess(&findings[b]) > excess(&findings[a])) {
                b
            } else {
                a
            }
        })
        .unwrap_or(lead);
    let mut series: Vec<usize> = idx.iter().map(|&i| findings[i].series_index).collect();
    series.sort_unstable();
    series.dedup();
    let machine = {
        let first = ctx.machine(&findings[lead]);
        if idx
            .iter()
            .all(|&i| ctx.machine(&findings[i]).eq_ignore_ascii_case(first))
        {
            first.to_string()
        } else {
            String::new()
        }
    };
    let l = &findings[lead];
    let mut g = FindingGroup {
        pack: l.pack.clone(),
        rule: l.rule.clone(),
        severity,
        start,
        end,
        worst,
        series: series.len(),
        group: ctx.concern(l).to_string(),
        category: l.category.clone(),
        machine,
        scope,
        lead,
        duration_ms: end - start,
        mean: l.mean,
        share: l.share,
        summary: String::new(),
        contributors: Vec::new(),
        missing: None,
        findings: idx,
    };
    if scope == Scope::Machine {
        let from = ctx.times.partition_point(|&t| t < start);
        let to = ctx.times.partition_point(|&t| t <= end);
        (g.contributors, g.missing) = super::contributors::contributors(
            l.series_index,
            from..to,
            ctx.paths,
            ctx.series,
            ctx.logical_processors,
        );
    }
    g.summary = summary(findings, &g, ctx);
    g
}

/// A value of finding `f`'s series as the card writes it (`words::value`, as the message does).
fn amount_of(f: &Finding, v: f64, ctx: &Context<'_>) -> String {
    amount_in(f.series_index, v, ctx)
}

/// A value of series `index` as the card writes it.
pub(super) fn amount_in(index: usize, v: f64, ctx: &Context<'_>) -> String {
    let Some(s) = ctx.series.get(index) else {
        return crate::words::number(v);
    };
    let counter = english_names(&s.parsed).map_or(s.parsed.counter.as_str(), |(_, c)| c);
    let measure = message_measure(s.counter_type, counter);
    crate::words::value(v, measure)
}

/// The series' path as a card names it: without the machine when the log names one machine.
fn short_path<'f>(f: &'f Finding, ctx: &Context<'_>) -> &'f str {
    if ctx.machines > 1 {
        return &f.path;
    }
    match crate::words::without_machine(&f.path) {
        "" => &f.path,
        rest => rest,
    }
}

/// The card in one sentence: its lead finding (an episode: how long, how much of it, mean and worst),
/// the critical part inside a warning episode, the card's other rules and how many more series.
fn summary(findings: &[Finding], g: &FindingGroup, ctx: &Context<'_>) -> String {
    let l = &findings[g.lead];
    let clock = ctx.clock;
    let when = format!(
        "from {} to {}{}",
        clock.time(g.start),
        clock.time(g.end),
        clock.suffix()
    );
    let op = l.operator.words();
    let mut s = match (l.mean, l.share) {
        _ if l.growth.is_some() => growth_words(l, ctx, &when),
        (Some(mean), Some(share)) => format!(
            "{} {op} {} for {} {when}, {} of the time, mean {}, worst {}",
            short_path(l, ctx),
            amount_of(l, l.threshold, ctx),
            duration(l.end - l.start),
            percent_of_time(share),
            amount_of(l, mean, ctx),
            amount_of(l, l.worst, ctx),
        ),
        _ => {
            let w = &findings[g.worst];
            let on = if g.series == 1 {
                short_path(l, ctx).to_string()
            } else {
                format!("{} series", g.series)
            };
            format!(
                "{} on {on} {when}, worst {} ({op} {})",
                ctx.title(l),
                amount_of(w, w.worst, ctx),
                amount_of(w, w.threshold, ctx),
            )
        }
    };
    // The critical part of a warning episode.
    if g.severity == Severity::Critical && l.severity != Severity::Critical {
        // The lead's own series first, then the card's scope, then the longest.
        let rank = |f: &Finding| {
            (
                f.series_index == l.series_index,
                f.scope == g.scope,
                f.end - f.start,
            )
        };
        if let Some(c) = g
            .findings
            .iter()
            .map(|&i| &findings[i])
            .filter(|f| f.severity == Severity::Critical)
            .max_by(|a, b| {
                let (x, y) = (rank(a), rank(b));
                (x.0, x.1).cmp(&(y.0, y.1)).then(x.2.total_cmp(&y.2))
            })
        {
            let part = if c.series_index == l.series_index && c.operator == l.operator {
                format!(
                    "{} {} for {} of it",
                    c.operator.words(),
                    amount_of(c, c.threshold, ctx),
                    duration(c.end - c.start)
                )
            } else {
                format!(
                    "critical: {} {} {} for {}",
                    short_path(c, ctx),
                    c.operator.words(),
                    amount_of(c, c.threshold, ctx),
                    duration(c.end - c.start)
                )
            };
            s.push_str("; ");
            s.push_str(&part);
        }
    }
    // The card's other series of its own scope (another counter of the concern: the queue beside the
    // processor time), at most two, each by its worst.
    let mut seen = vec![l.series_index];
    let mut others = 0;
    for &i in &g.findings {
        let f = &findings[i];
        if f.scope != g.scope || seen.contains(&f.series_index) {
            continue;
        }
        seen.push(f.series_index);
        if others < 2 && f.growth.is_some() {
            s.push_str("; ");
            s.push_str(&growth_words(f, ctx, ""));
        } else if others < 2 {
            s.push_str(&format!(
                "; {} {} {} (worst {})",
                short_path(f, ctx),
                f.operator.words(),
                amount_of(f, f.threshold, ctx),
                amount_of(f, f.worst, ctx)
            ));
        }
        others += 1;
    }
    let parts: Vec<usize> = {
        let mut p: Vec<usize> = g
            .findings
            .iter()
            .map(|&i| &findings[i])
            .filter(|f| f.scope == Scope::Instance && g.scope == Scope::Machine)
            .map(|f| f.series_index)
            .collect();
        p.sort_unstable();
        p.dedup();
        p
    };
    if others > 2 {
        s.push_str(&format!("; {} more series", others - 2));
    }
    if !parts.is_empty() {
        s.push_str(&format!("; also on {}", parts_named(findings, g, ctx)));
    }
    if let Some(first) = g.contributors.first() {
        let capacity = ctx
            .paths
            .get(first.series_index)
            .is_some_and(|p| p.english_or_own().1.starts_with('%'));
        let named: Vec<String> = g
            .contributors
            .iter()
            .take(3)
            .map(|c| {
                let share = percent_of_time(c.share);
                if capacity {
                    format!("{} {share} of the machine", c.name)
                } else {
                    format!(
                        "{} {} ({share})",
                        c.name,
                        amount_in(c.series_index, c.value, ctx)
                    )
                }
            })
            .collect();
        s.push_str(match first.kind.as_str() {
            "processor" => "; by processor: ",
            "adapter" => "; by adapter: ",
            _ => "; by process: ",
        });
        s.push_str(&named.join(", "));
    }
    s
}

/// A growth finding in words: `Process(leaky)\Private Bytes grew 250 MB per hour for 8 h from 09:00 to
/// 17:00: from 1 GB to 3 GB, steadily (a straight line explains 99% of its change)`; `when` may be empty.
fn growth_words(f: &Finding, ctx: &Context<'_>, when: &str) -> String {
    let Some(g) = &f.growth else {
        return String::new();
    };
    let when = if when.is_empty() {
        String::new()
    } else {
        format!(" {when}")
    };
    format!(
        "{} grew {} per hour for {}{when}: from {} to {}, steadily (a straight line explains {} of its change)",
        short_path(f, ctx),
        amount_of(f, g.per_hour, ctx),
        duration(f.end - f.start),
        amount_of(f, g.from, ctx),
        amount_of(f, g.to, ctx),
        percent_of_time(g.steadiness),
    )
}

/// The parts inside a machine card by object and instance as written, at most three named:
/// `Processor(0), Processor(3), Processor(5) and 4 more`.
fn parts_named(findings: &[Finding], g: &FindingGroup, ctx: &Context<'_>) -> String {
    let mut names: Vec<String> = Vec::new();
    for &i in &g.findings {
        let f = &findings[i];
        if f.scope != Scope::Instance {
            continue;
        }
        let Some(s) = ctx.series.get(f.series_index) else {
            continue;
        };
        let name = match (&s.parsed.instance, &s.parsed.object) {
            (Some(inst), object) => format!("{object}({inst})"),
            (None, object) => object.clone(),
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let n = names.len();
    if n > 3 {
        format!("{} and {} more", names[..3].join(", "), n - 3)
    } else {
        names.join(", ")
    }
}
