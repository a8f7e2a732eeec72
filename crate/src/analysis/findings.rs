//! Findings: per rule and series, which slices break; PAL's priority inside a group (a slice broken by a
//! warning and a critical rule counts as critical); consecutive broken slices merged into one finding
//! with what broke, the worst value and the time range; the message a user reads.

use super::episodes::{episodes, Episode};
use super::pack::{Operator, Rule, RuleKind, Severity, Stat};
use super::rules::Prepared;
use super::slices::{SliceStats, Slicing};
use crate::capture::names::english_names;
use crate::units::{measure_of, Measure, Unit};
use crate::words::duration;
use crate::words::value;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub pack: String,
    pub rule: String,
    pub title: String,
    pub category: String,
    pub severity: Severity,
    pub series_index: usize,
    pub path: String,
    /// ms since the epoch, UTC: the merged slices' range.
    pub start: f64,
    pub end: f64,
    pub broke: Vec<Stat>,
    pub worst: f64,
    pub threshold: f64,
    pub operator: Operator,
    pub message: String,
    /// The variables its threshold read, with their values and origin (a default marks an answer to
    /// confirm).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<super::variables::UsedVariable>,
    /// On a derived series (its `series_index` is then at or past the capture's series count): its
    /// definition and inputs, so a viewer can compute it (`derived_values`) and explain a point.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derived: Option<super::derived::DerivedRef>,
    /// An episode rule's finding: the mean of the episode's samples and the share (0..=1) of them past
    /// the threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// A growth rule's finding: the line fitted to the series (`growth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<super::growth::Growth>,
    /// Whether its series speaks for the machine or for one part of it (decided by `cards`).
    #[serde(default)]
    pub scope: Scope,
}

/// Whether a series speaks for the machine or for one part of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Scope {
    /// A series without an instance, an aggregate (`_Total`), a disk, an adapter, a paging file alone.
    #[default]
    Machine,
    /// One processor, process, thread or CLR instance; or any instance whose rule also reads the
    /// object's `_Total` on that machine.
    Instance,
}

/// One slice broken by one rule: which statistics broke and the worst of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Break {
    /// Bits: 1 min, 2 avg, 4 max, 8 trend, 16 value.
    pub stats: u8,
    pub worst: f64,
    pub worst_stat: Stat,
}

const ORDER: [Stat; 5] = [Stat::Min, Stat::Avg, Stat::Max, Stat::Trend, Stat::Value];

fn bit(s: Stat) -> u8 {
    match s {
        Stat::Min => 1,
        Stat::Avg => 2,
        Stat::Max => 4,
        Stat::Trend => 8,
        Stat::Value => 16,
    }
}

/// Whether `a` is worse than `b` for `op` and `threshold`: further past it (for `ne`, further from it).
fn worse(op: Operator, threshold: f64, a: f64, b: f64) -> bool {
    match op {
        Operator::Gt | Operator::Ge => a > b,
        Operator::Lt | Operator::Le => a < b,
        Operator::Eq => false,
        Operator::Ne => (a - threshold).abs() > (b - threshold).abs(),
    }
}

/// A trend per hour is not judged on less than an hour: a rule of kind trend is skipped on a range
/// shorter than this, and its slices break only once the slices from the first up to them span it.
pub const MIN_TREND_SPAN_MS: f64 = 3_600_000.0;

fn trend_young(slicing: &Slicing, i: usize) -> bool {
    slicing.slices[i].end - slicing.slices[0].start < MIN_TREND_SPAN_MS
}

/// The slices `rule` breaks on one series. `values` and `slicing` give the points for
/// minDurationPercent.
pub fn breaks(
    rule: &Rule,
    threshold: f64,
    st: &SliceStats,
    values: &[f64],
    slicing: &Slicing,
) -> Vec<Option<Break>> {
    let op = rule.operator;
    let stats: &[Stat] = match (rule.kind, &rule.stats) {
        (RuleKind::Trend, _) => &[Stat::Trend],
        (RuleKind::Static, Some(s)) => s,
        (RuleKind::Static, None) => &[Stat::Min, Stat::Avg, Stat::Max],
    };
    (0..slicing.len())
        .map(|i| {
            if st.count[i] == 0 {
                return None;
            }
            let mut out: Option<Break> = None;
            for &s in stats {
                let v = match s {
                    Stat::Min => st.min[i],
                    Stat::Avg => st.avg[i],
                    Stat::Max => st.max[i],
                    // Judged only once the slices behind it span MIN_TREND_SPAN_MS.
                    Stat::Trend if trend_young(slicing, i) => f64::NAN,
                    Stat::Trend => st.trend[i],
                    Stat::Value => f64::NAN,
                };
                if op.holds(v, threshold) {
                    match &mut out {
                        None => {
                            out = Some(Break {
                                stats: bit(s),
                                worst: v,
                                worst_stat: s,
                            })
                        }
                        Some(b) => {
                            b.stats |= bit(s);
                            // On a tie the statistic that says it best: max for "above", min for "below".
                            let tie_break = v == b.worst
                                && matches!(
                                    (op, s),
                                    (Operator::Gt | Operator::Ge, Stat::Max)
                                        | (Operator::Lt | Operator::Le, Stat::Min)
                                );
                            if worse(op, threshold, v, b.worst) || tie_break {
                                b.worst = v;
                                b.worst_stat = s;
                            }
                        }
                    }
                }
            }
            if let (Some(p), Some(_), RuleKind::Static) =
                (rule.min_duration_percent, out, rule.kind)
            {
                let (a, b) = slicing.ranges[i];
                let part = values.get(a..b).unwrap_or(&[]);
                let over = part.iter().filter(|&&v| op.holds(v, threshold)).count();
                // share = over / count >= p / 100, compared without division.
                if (over as f64) * 100.0 < p * f64::from(st.count[i]) {
                    return None;
                }
            }
            out
        })
        .collect()
}

/// PAL's priority within a group on one series: where a critical rule breaks a slice, the warning
/// rules' breaks of that slice are dropped (the slice counts as critical).
pub fn apply_priority(group: &mut [(Severity, Vec<Option<Break>>)]) {
    let n = group.iter().map(|g| g.1.len()).max().unwrap_or(0);
    for i in 0..n {
        let critical = group
            .iter()
            .any(|(s, b)| *s == Severity::Critical && b.get(i).is_some_and(|x| x.is_some()));
        if critical {
            for (s, b) in group.iter_mut() {
                if *s == Severity::Warning {
                    if let Some(x) = b.get_mut(i) {
                        *x = None;
                    }
                }
            }
        }
    }
}

/// Consecutive broken slices, merged: `(first, last, stats bits, worst, worst stat)`. A slice without
/// any value (`count[i] == 0`: a gap in the log, or slices shorter than its sampling interval) neither
/// breaks nor ends a run: no data is no sign of recovery. A run ends at its last broken slice.
pub fn merge(
    op: Operator,
    threshold: f64,
    breaks: &[Option<Break>],
    count: &[u32],
) -> Vec<(usize, usize, Break)> {
    let mut out: Vec<(usize, usize, Break)> = Vec::new();
    let mut open = false;
    for (i, b) in breaks.iter().enumerate() {
        match b {
            Some(b) => match out.last_mut().filter(|_| open) {
                Some(last) => {
                    last.1 = i;
                    last.2.stats |= b.stats;
                    if worse(op, threshold, b.worst, last.2.worst) {
                        last.2.worst = b.worst;
                        last.2.worst_stat = b.worst_stat;
                    }
                }
                None => {
                    out.push((i, i, *b));
                    open = true;
                }
            },
            None if count.get(i).is_some_and(|&n| n == 0) => {}
            None => open = false,
        }
    }
    out
}

/// A run of samples a sustained rule found: first and last sample (indices into the analysed range's
/// samples) and the value furthest past the threshold among those that hold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Run {
    pub first: usize,
    pub last: usize,
    pub worst: f64,
}

/// The runs of `values` (at `times`) that satisfy `op threshold` without interruption for at least
/// `for_ms` (from the run's first to its last sample), each with its worst value. A missing sample
/// (NaN) neither holds nor ends a run.
///
/// One pass, run-length over consecutive samples, nothing allocated but the runs; a function of its
/// own (`inline(never)`): a small hot function reaches V8's optimizing tier after a few calls, where
/// inlined into `findings` it ran in the baseline tier (the same reason as
/// `slices::slice_min_max_sum`).
#[inline(never)]
pub fn sustained_runs(
    values: &[f64],
    times: &[f64],
    op: Operator,
    threshold: f64,
    for_ms: f64,
) -> Vec<Run> {
    let mut out = Vec::new();
    let mut open: Option<Run> = None;
    for (k, &v) in values.iter().enumerate() {
        if v.is_nan() {
            continue;
        }
        if op.holds(v, threshold) {
            match &mut open {
                Some(r) => {
                    r.last = k;
                    if worse(op, threshold, v, r.worst) {
                        r.worst = v;
                    }
                }
                None => {
                    open = Some(Run {
                        first: k,
                        last: k,
                        worst: v,
                    })
                }
            }
        } else if let Some(r) = open.take() {
            if times[r.last] - times[r.first] >= for_ms {
                out.push(r);
            }
        }
    }
    if let Some(r) = open {
        if times[r.last] - times[r.first] >= for_ms {
            out.push(r);
        }
    }
    out
}

/// PAL's priority sample by sample for a warning rule's runs: the samples `critical` marks (a critical
/// rule of its group broke there) leave them; what is left of a run counts if it still lasts `for_ms`.
/// Walks the runs' samples only. NaN samples neither hold nor split.
#[inline(never)]
pub fn split_runs(
    runs: &[Run],
    values: &[f64],
    times: &[f64],
    critical: &[bool],
    op: Operator,
    threshold: f64,
    for_ms: f64,
) -> Vec<Run> {
    let mut out = Vec::new();
    for r in runs {
        let mut open: Option<Run> = None;
        for k in r.first..=r.last {
            let v = values[k];
            if v.is_nan() {
                continue;
            }
            // Inside a run every sample with a value holds.
            if !critical[k] {
                match &mut open {
                    Some(p) => {
                        p.last = k;
                        if worse(op, threshold, v, p.worst) {
                            p.worst = v;
                        }
                    }
                    None => {
                        open = Some(Run {
                            first: k,
                            last: k,
                            worst: v,
                        })
                    }
                }
            } else if let Some(p) = open.take() {
                if times[p.last] - times[p.first] >= for_ms {
                    out.push(p);
                }
            }
        }
        if let Some(p) = open {
            if times[p.last] - times[p.first] >= for_ms {
                out.push(p);
            }
        }
    }
    out
}

/// The findings of prepared rules, sorted by start, then severity (critical first), then pack, rule
/// and series. `series` are the capture's series followed by the derived ones (`derived[i]` is series
/// `capture.series.len() + i`); `stats[i]` holds series `i`'s slice statistics (for every series a
/// prepared rule selects).
pub fn findings(
    prepared: &[Prepared<'_>],
    slicing: &Slicing,
    capture: &crate::capture::Capture,
    series_list: &[&crate::capture::Series],
    derived: &[super::derived::Computed],
    stats: &[Option<SliceStats>],
) -> Vec<Finding> {
    // Groups: rules of one pack sharing `group` (or a rule alone).
    let mut groups: Vec<Vec<&Prepared<'_>>> = Vec::new();
    let mut index: std::collections::HashMap<(&str, &str), usize> = Default::default();
    for p in prepared.iter().filter(|p| p.skipped.is_none()) {
        let key = (
            p.pack.id.as_str(),
            p.rule.group.as_deref().unwrap_or(p.rule.id.as_str()),
        );
        let g = *index.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(p);
    }
    let clock = Clock::of(capture, &slicing.slices);
    // The samples of the analysed range: sustained rules look at these.
    let (lo, hi) = match (slicing.ranges.first(), slicing.ranges.last()) {
        (Some(a), Some(b)) => (a.0, b.1),
        _ => (0, 0),
    };
    let times = capture.timestamps.get(lo..hi).unwrap_or(&[]);
    let mut out = Vec::new();
    for group in &groups {
        let mut series: Vec<usize> = group
            .iter()
            .flat_map(|p| p.series.iter().copied())
            .collect();
        series.sort_unstable();
        series.dedup();
        for &s in &series {
            let Some(sr) = series_list.get(s) else {
                continue;
            };
            // Present for every series a slice rule selects (sustained rules need none).
            let st = stats.get(s).and_then(|x| x.as_ref());
            let derived_ref = s
                .checked_sub(capture.series.len())
                .and_then(|i| derived.get(i))
                .map(|c| c.reference.clone());
            // Sizes in messages read as sizes: the unit from the counter's type and (English) name,
            // looked up once per series and only for a series with a finding.
            let mut measure = None;
            let members: Vec<&&Prepared<'_>> = group
                .iter()
                .filter(|p| p.series.binary_search(&s).is_ok())
                .collect();
            let mut broken: Vec<(Severity, Vec<Option<Break>>)> = members
                .iter()
                .map(|p| {
                    let b = match (p.rule.for_seconds, &p.rule.episode, st) {
                        (None, None, Some(st)) if p.rule.growth.is_none() => {
                            breaks(p.rule, p.threshold, st, &sr.values, slicing)
                        }
                        _ => vec![None; slicing.len()],
                    };
                    (p.rule.severity, b)
                })
                .collect();
            apply_priority(&mut broken);
            let values = sr.values.get(lo..hi).unwrap_or(&[]);
            // Sustained rules: their runs; PAL's priority sample by sample.
            let mut found_runs: Vec<Option<Vec<Run>>> = members
                .iter()
                .map(|p| {
                    p.rule.for_seconds.map(|f| {
                        sustained_runs(values, times, p.rule.operator, p.threshold, f * 1000.0)
                    })
                })
                .collect();
            // Episode rules: their episodes. PAL's priority does not apply: a warning and a critical
            // episode of one stretch are one card (`cards`), each kept whole.
            let found_episodes: Vec<Option<Vec<Episode>>> = members
                .iter()
                .map(|p| {
                    p.rule
                        .episode
                        .as_ref()
                        .map(|e| episodes(values, times, p.rule.operator, p.threshold, e))
                })
                .collect();
            // Growth rules: one line over the range.
            let found_growth: Vec<Option<(f64, f64, super::growth::Growth)>> = members
                .iter()
                .map(|p| {
                    p.rule.growth.as_ref().and_then(|g| {
                        super::growth::growth(values, times, p.rule.operator, p.threshold, g)
                    })
                })
                .collect();
            let has = |sev| members.iter().any(|p| p.rule.severity == sev);
            if found_runs.iter().any(Option::is_some)
                && has(Severity::Critical)
                && has(Severity::Warning)
            {
                // The samples where a critical rule of the group broke (a sustained run's samples with a
                // value; a broken slice's samples).
                let mut critical = vec![false; values.len()];
                for (k, p) in members.iter().enumerate() {
                    if p.rule.severity != Severity::Critical {
                        continue;
                    }
                    if let Some(rs) = &found_runs[k] {
                        for r in rs {
                            for j in r.first..=r.last {
                                critical[j] |= !values[j].is_nan();
                            }
                        }
                    } else {
                        for (i, b) in broken[k].1.iter().enumerate() {
                            if b.is_some() {
                                let (a, z) = slicing.ranges[i];
                                critical[a - lo..z - lo].iter_mut().for_each(|c| *c = true);
                            }
                        }
                    }
                }
                for (k, p) in members.iter().enumerate() {
                    if p.rule.severity != Severity::Warning {
                        continue;
                    }
                    if let (Some(rs), Some(f)) = (&mut found_runs[k], p.rule.for_seconds) {
                        // What is left of a warning run counts if it still lasts `for`.
                        *rs = split_runs(
                            rs,
                            values,
                            times,
                            &critical,
                            p.rule.operator,
                            p.threshold,
                            f * 1000.0,
                        );
                    } else {
                        for (i, b) in broken[k].1.iter_mut().enumerate() {
                            let (a, z) = slicing.ranges[i];
                            if b.is_some() && critical[a - lo..z - lo].iter().any(|&c| c) {
                                *b = None;
                            }
                        }
                    }
                }
            }
            let mut unit = || {
                *measure.get_or_insert_with(|| {
                    let counter =
                        english_names(&sr.parsed).map_or(sr.parsed.counter.as_str(), |(_, c)| c);
                    message_measure(sr.counter_type, counter)
                })
            };
            for (k, (p, (_, b))) in members.iter().zip(&broken).enumerate() {
                let mut found: Vec<(f64, f64, Break, Option<&Episode>)> = Vec::new();
                if p.rule.growth.is_some() {
                    if let Some((first, last, g)) = &found_growth[k] {
                        found.push((
                            *first,
                            *last,
                            Break {
                                stats: bit(Stat::Trend),
                                worst: g.per_hour,
                                worst_stat: Stat::Trend,
                            },
                            None,
                        ));
                    }
                } else if let Some(es) = &found_episodes[k] {
                    for e in es {
                        found.push((
                            times[e.first],
                            times[e.last],
                            Break {
                                stats: bit(Stat::Value),
                                worst: e.worst,
                                worst_stat: Stat::Value,
                            },
                            Some(e),
                        ));
                    }
                } else if let Some(rs) = &found_runs[k] {
                    for r in rs {
                        found.push((
                            times[r.first],
                            times[r.last],
                            Break {
                                stats: bit(Stat::Value),
                                worst: r.worst,
                                worst_stat: Stat::Value,
                            },
                            None,
                        ));
                    }
                } else {
                    let count = st.map_or(&[][..], |st| &st.count[..]);
                    for (first, last, br) in merge(p.rule.operator, p.threshold, b, count) {
                        found.push((
                            slicing.slices[first].start,
                            slicing.slices[last].end,
                            br,
                            None,
                        ));
                    }
                }
                let growth = found_growth[k].as_ref().map(|g| &g.2);
                for (start, end, br, episode) in found {
                    let broke: Vec<Stat> = ORDER
                        .into_iter()
                        .filter(|&x| br.stats & bit(x) != 0)
                        .collect();
                    out.push(Finding {
                        pack: p.pack.id.clone(),
                        rule: p.rule.id.clone(),
                        title: p.rule.title.clone(),
                        category: p.rule.category.clone(),
                        severity: p.rule.severity,
                        series_index: s,
                        path: sr.path.clone(),
                        start,
                        end,
                        message: message(
                            &sr.path,
                            p.rule,
                            p.threshold,
                            unit(),
                            &br,
                            (start, end, episode, growth),
                            &clock,
                        ),
                        broke,
                        worst: if p.rule.operator == Operator::Eq {
                            p.threshold
                        } else {
                            br.worst
                        },
                        threshold: p.threshold,
                        operator: p.rule.operator,
                        variables: Vec::new(),
                        derived: derived_ref.clone(),
                        mean: episode.map(|e| e.mean),
                        share: episode.map(|e| e.share),
                        growth: growth.cloned(),
                        scope: Default::default(),
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| {
        a.start
            .total_cmp(&b.start)
            .then(b.severity.cmp(&a.severity))
            .then_with(|| a.pack.cmp(&b.pack))
            .then_with(|| a.rule.cmp(&b.rule))
            .then(a.series_index.cmp(&b.series_index))
    });
    out
}

/// The unit a message writes a counter's numbers in: `measure_of`'s, and sizes its names do not say
/// with "bytes": Working Set (Private, Peak) counts bytes, a name ending "(KB)" or "(MB)" (SQL
/// Server's Target Server Memory (KB)) kilo- or megabytes.
pub fn message_measure(counter_type: Option<u32>, counter: &str) -> Measure {
    let m = measure_of(counter_type, counter);
    if m.unit != Unit::Count {
        return m;
    }
    let name = counter.trim().to_ascii_lowercase();
    let bytes = |multiplier| Measure {
        unit: Unit::Bytes,
        multiplier,
    };
    if name.starts_with("working set") {
        bytes(1.0)
    } else if name.ends_with("(kb)") {
        bytes(1024.0)
    } else if name.ends_with("(mb)") {
        bytes(1024.0 * 1024.0)
    } else {
        m
    }
}

/// Times in the log's own clock where the capture says its time zone (UTC = local + bias), else UTC.
pub struct Clock {
    bias_ms: f64,
    suffix: &'static str,
    /// Dates are written only when the analysed range spans more than one day.
    dates: bool,
}

impl Clock {
    pub fn of(capture: &crate::capture::Capture, slices: &[super::slices::Slice]) -> Clock {
        let (bias_ms, suffix) = match &capture.time_zone {
            Some(z) => (f64::from(z.bias_minutes) * 60_000.0, ""),
            None => (0.0, " UTC"),
        };
        let day = |t: f64| ((t - bias_ms) / 86_400_000.0).floor();
        let dates = match (slices.first(), slices.last()) {
            (Some(a), Some(b)) => day(a.start) != day(b.end),
            _ => false,
        };
        Clock {
            bias_ms,
            suffix,
            dates,
        }
    }

    /// `10:40`, or `2026-11-20 10:40` when the range spans days; seconds when they are not zero
    /// (`words::clock`, in the log's zone).
    pub fn time(&self, ms: f64) -> String {
        crate::words::clock(ms, -self.bias_ms, self.dates)
    }

    /// `2026-11-20 10:40` (seconds when they are not zero), the date always written.
    pub fn date_time(&self, ms: f64) -> String {
        crate::words::clock(ms, -self.bias_ms, true)
    }

    /// " UTC" when times are in UTC, else nothing (the log's own clock).
    pub fn suffix(&self) -> &'static str {
        self.suffix
    }
}

/// The message of a finding: `… above 80% (max 97.3%) from 10:40 to 11:10`; a sustained rule's run says
/// how long; an episode how long, how much of it and its mean: `… above 80% for 2 h 49 min, 88% of the
/// time (mean 87%, max 99.1%) from 14:21 to 17:10`.
fn message(
    path: &str,
    rule: &Rule,
    threshold: f64,
    measure: Measure,
    b: &Break,
    (start, end, episode, growth): (f64, f64, Option<&Episode>, Option<&super::growth::Growth>),
    clock: &Clock,
) -> String {
    if let Some(g) = growth {
        return format!(
            "{path} grew {} per hour for {}, from {} to {} (a straight line explains {} of its change; {} {} per hour) from {} to {}{}",
            value(g.per_hour, measure),
            duration(end - start),
            value(g.from, measure),
            value(g.to, measure),
            percent_of_time(g.steadiness),
            rule.operator.words(),
            value(threshold, measure),
            clock.time(start),
            clock.time(end),
            clock.suffix(),
        );
    }
    let (what, unit) = if rule.kind == RuleKind::Trend {
        (" trend", " per hour")
    } else {
        ("", "")
    };
    let extreme = match rule.operator {
        Operator::Lt | Operator::Le => "min",
        Operator::Gt | Operator::Ge => "max",
        Operator::Eq | Operator::Ne => "value",
    };
    // A sustained rule's run or an episode: how long, and its extreme by the operator's direction.
    let (lasting, stat) = match (rule.for_seconds, episode, b.worst_stat) {
        (_, Some(e), _) => (
            format!(
                " for {}, {} of the time",
                duration(end - start),
                percent_of_time(e.share)
            ),
            format!("mean {}, {extreme}", value(e.mean, measure)),
        ),
        (Some(_), None, Stat::Value) => (
            format!(" for {}", duration(end - start)),
            extreme.to_string(),
        ),
        _ => (String::new(), b.worst_stat.name().to_string()),
    };
    format!(
        "{path}{what} {} {}{unit}{lasting} ({stat} {}{unit}) from {} to {}{}",
        rule.operator.words(),
        value(threshold, measure),
        value(b.worst, measure),
        clock.time(start),
        clock.time(end),
        clock.suffix(),
    )
}

/// A share of time as words write it: whole percent, but never "100%" for less than all of it nor
/// "0%" for more than none (99.6% reads "99%").
pub fn percent_of_time(share: f64) -> String {
    let p = (share * 100.0).round();
    let p = if p >= 100.0 && share < 1.0 {
        99.0
    } else if p <= 0.0 && share > 0.0 {
        1.0
    } else {
        p
    };
    format!("{p}%")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Times to the nearest second, the carry into the next minute, hour and day included.
    #[test]
    fn clock_rounds_to_the_second_across_midnight() {
        // PST: bias 480 min, so local = UTC - 8 h. 2026-11-22 09:04:59.500 UTC = 01:04:59.5 local.
        let pst = Clock {
            bias_ms: 480.0 * 60_000.0,
            suffix: "",
            dates: true,
        };
        let t = |iso_ms: f64| pst.time(iso_ms);
        let at =
            |h: f64, m: f64, s: f64| 1_795_305_600_000.0 + ((h * 60.0 + m) * 60.0 + s) * 1000.0; // 2026-11-22 00:00 UTC
        assert_eq!(t(at(9.0, 4.0, 59.5)), "2026-11-22 01:05");
        assert_eq!(t(at(9.0, 4.0, 59.4)), "2026-11-22 01:04:59");
        // 2026-11-23 07:59:59.5 UTC = 23:59:59.5 local on the 22nd: the 23rd's 00:00, not 24:00.
        assert_eq!(t(at(31.0, 59.0, 59.5)), "2026-11-23 00:00");
        // The date always, seconds only when they are not zero (words::clock).
        assert_eq!(pst.date_time(at(31.0, 59.0, 59.5)), "2026-11-23 00:00");
        assert_eq!(pst.date_time(at(31.0, 59.0, 59.49)), "2026-11-22 23:59:59");
    }

    #[test]
    fn sustained_runs_by_hand() {
        // Samples every 15 s: 90 90 50 95 90 85 NaN 92 50, above 80 for 30 s.
        let t: Vec<f64> = (0..9).map(|i| i as f64 * 15_000.0).collect();
        let v = [90.0, 90.0, 50.0, 95.0, 90.0, 85.0, f64::NAN, 92.0, 50.0];
        // Run 0..=1 lasts 15 s (< 30): out. Run 3..=7 (the NaN at 6 neither holds nor ends it) lasts
        // 7 * 15 - 3 * 15 = 60 s: in, its worst 95 (the largest above).
        let r = sustained_runs(&v, &t, Operator::Gt, 80.0, 30_000.0);
        assert_eq!(
            r,
            vec![Run {
                first: 3,
                last: 7,
                worst: 95.0
            }]
        );
        // A single sample lasts 0 s: never a run, whatever the value.
        assert!(sustained_runs(&[100.0], &[0.0], Operator::Gt, 80.0, 1.0).is_empty());
        // A critical sample at 4 splits it: 3..=3 lasts 0 s (out), 5..=7 lasts 30 s (in, worst 92).
        let mut critical = vec![false; 9];
        critical[4] = true;
        assert_eq!(
            split_runs(&r, &v, &t, &critical, Operator::Gt, 80.0, 30_000.0),
            vec![Run {
                first: 5,
                last: 7,
                worst: 92.0
            }]
        );
    }

    /// The sustained rules as they were first written, sample mask by sample mask: the reference the
    /// run-length path is tested against.
    mod reference {
        use super::super::{worse, Operator};

        pub fn sustained(
            values: &[f64],
            times: &[f64],
            op: Operator,
            threshold: f64,
            for_ms: f64,
        ) -> Vec<bool> {
            let mut mask = vec![false; values.len()];
            let mut run: Option<(usize, usize)> = None;
            let mark = |mask: &mut [bool], (a, b): (usize, usize)| {
                if times[b] - times[a] >= for_ms {
                    for k in a..=b {
                        mask[k] = !values[k].is_nan();
                    }
                }
            };
            for (k, &v) in values.iter().enumerate() {
                if v.is_nan() {
                    continue;
                }
                if op.holds(v, threshold) {
                    run = Some(run.map_or((k, k), |(a, _)| (a, k)));
                } else if let Some(r) = run.take() {
                    mark(&mut mask, r);
                }
            }
            if let Some(r) = run {
                mark(&mut mask, r);
            }
            mask
        }

        /// A warning mask after PAL's priority: the samples `critical` marks leave it, and what is
        /// left counts if it still lasts `for_ms`.
        pub fn without_critical(
            mask: &[bool],
            critical: &[bool],
            values: &[f64],
            times: &[f64],
            for_ms: f64,
        ) -> Vec<bool> {
            let holds: Vec<Option<bool>> = mask
                .iter()
                .zip(critical)
                .zip(values)
                .map(|((&w, &c), v)| (!v.is_nan()).then_some(w && !c))
                .collect();
            let mut out = vec![false; mask.len()];
            let mut run: Option<(usize, usize)> = None;
            let close = |out: &mut [bool], run: Option<(usize, usize)>| {
                if let Some((a, b)) = run {
                    if times[b] - times[a] >= for_ms {
                        for k in a..=b {
                            out[k] = holds[k] == Some(true);
                        }
                    }
                }
            };
            for (k, h) in holds.iter().enumerate() {
                match h {
                    Some(true) => run = Some(run.map_or((k, k), |(a, _)| (a, k))),
                    Some(false) => close(&mut out, run.take()),
                    None => {}
                }
            }
            close(&mut out, run);
            out
        }

        /// The runs of a mask (NaN samples inside do not end one), each with its worst marked value.
        pub fn runs(
            mask: &[bool],
            values: &[f64],
            op: Operator,
            threshold: f64,
        ) -> Vec<(usize, usize, f64)> {
            let mut spans: Vec<(usize, usize)> = Vec::new();
            let mut open: Option<(usize, usize)> = None;
            for k in 0..mask.len() {
                if mask[k] {
                    open = Some(open.map_or((k, k), |(a, _)| (a, k)));
                } else if !values[k].is_nan() {
                    spans.extend(open.take());
                }
            }
            spans.extend(open);
            spans
                .into_iter()
                .map(|(a, z)| {
                    let mut w = f64::NAN;
                    for k in a..=z {
                        if mask[k] && (w.is_nan() || worse(op, threshold, values[k], w)) {
                            w = values[k];
                        }
                    }
                    (a, z, w)
                })
                .collect()
        }
    }

    proptest::proptest! {
        /// The run-length path (runs, then PAL's priority) gives what the sample masks give, bit for
        /// bit, on random values with gaps, uneven times, every operator and random critical samples.
        #[test]
        fn run_length_is_the_sample_mask_reference(
            values in proptest::collection::vec(
                proptest::prop_oneof![4 => 0.0f64..100.0, 1 => proptest::strategy::Just(f64::NAN), 1 => proptest::strategy::Just(50.0)],
                0..400,
            ),
            steps in proptest::collection::vec(1.0f64..30_000.0, 400),
            critical_bits in proptest::collection::vec(proptest::bool::weighted(0.05), 400),
            op in 0..6usize,
            threshold in 0.0f64..100.0,
            for_ms in 0.0f64..200_000.0,
        ) {
            let op = [Operator::Gt, Operator::Ge, Operator::Lt, Operator::Le, Operator::Eq, Operator::Ne][op];
            let mut t = 0.0;
            let times: Vec<f64> = steps[..values.len()].iter().map(|s| { t += s; t }).collect();
            let critical = &critical_bits[..values.len()];
            let bits = |r: Vec<(usize, usize, f64)>| r.into_iter().map(|(a, b, w)| (a, b, w.to_bits())).collect::<Vec<_>>();
            let as_tuples = |r: &[Run]| r.iter().map(|r| (r.first, r.last, r.worst.to_bits())).collect::<Vec<_>>();
            let mask = reference::sustained(&values, &times, op, threshold, for_ms);
            let got = sustained_runs(&values, &times, op, threshold, for_ms);
            proptest::prop_assert_eq!(as_tuples(&got), bits(reference::runs(&mask, &values, op, threshold)));
            let left = reference::without_critical(&mask, critical, &values, &times, for_ms);
            let split = split_runs(&got, &values, &times, critical, op, threshold, for_ms);
            proptest::prop_assert_eq!(as_tuples(&split), bits(reference::runs(&left, &values, op, threshold)));
        }
    }

    #[test]
    fn durations_and_units_in_messages() {
        // 1185 s = 19.75 min -> 20 min; 82 s; 7200 s = 2 h; 7500 s = 2 h 5 min; 2 days and 3 hours.
        assert_eq!(duration(1_185_000.0), "20 min");
        assert_eq!(duration(82_000.0), "82 s");
        assert_eq!(duration(7_200_000.0), "2 h");
        assert_eq!(duration(7_500_000.0), "2 h 5 min");
        assert_eq!(duration(183_600_000.0), "2 d 3 h");
        // Latency in seconds: 0.025 s = 25 ms; 1.5 s stays in s, with its unit.
        let latency = message_measure(None, "Avg. Disk sec/Read");
        assert_eq!(value(0.025, latency), "25 ms");
        assert_eq!(value(1.5, latency), "1.5 s");
        // Working Set counts bytes: 104857600 = 100 MB; SQL Server's (KB) counters: 4194304 KB = 4 GB.
        assert_eq!(
            value(104_857_600.0, message_measure(None, "Working Set")),
            "100 MB"
        );
        assert_eq!(
            value(
                4_194_304.0,
                message_measure(None, "Target Server Memory (KB)")
            ),
            "4 GB"
        );
    }
}
