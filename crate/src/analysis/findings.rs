//! Findings: per rule and series, which slices break; PAL's priority inside a group (a slice broken by a
//! warning and a critical rule counts as critical); consecutive broken slices merged into one finding
//! with what broke, the worst value and the time range; the message a user reads.

use super::pack::{Operator, Rule, RuleKind, Severity, Stat};
use super::rules::Prepared;
use super::slices::{SliceStats, Slicing};
use crate::capture::names::english_names;
use crate::units::{amount, measure_of, Measure};
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
}

/// One slice broken by one rule: which statistics broke and the worst of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Break {
    /// Bits: 1 min, 2 avg, 4 max, 8 trend.
    pub stats: u8,
    pub worst: f64,
    pub worst_stat: Stat,
}

const ORDER: [Stat; 4] = [Stat::Min, Stat::Avg, Stat::Max, Stat::Trend];

fn bit(s: Stat) -> u8 {
    match s {
        Stat::Min => 1,
        Stat::Avg => 2,
        Stat::Max => 4,
        Stat::Trend => 8,
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
                    Stat::Trend => st.trend[i],
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

/// The findings of prepared rules, sorted by start, then severity (critical first), then pack, rule
/// and series. `stats[i]` holds series `i`'s slice statistics
/// (for every series a prepared rule selects).
pub fn findings(
    prepared: &[Prepared<'_>],
    slicing: &Slicing,
    capture: &crate::capture::Capture,
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
    let mut out = Vec::new();
    for group in &groups {
        let mut series: Vec<usize> = group
            .iter()
            .flat_map(|p| p.series.iter().copied())
            .collect();
        series.sort_unstable();
        series.dedup();
        for &s in &series {
            let Some(sr) = capture.series.get(s) else {
                continue;
            };
            let Some(st) = stats.get(s).and_then(|x| x.as_ref()) else {
                continue;
            };
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
                    (
                        p.rule.severity,
                        breaks(p.rule, p.threshold, st, &sr.values, slicing),
                    )
                })
                .collect();
            apply_priority(&mut broken);
            for (p, (_, b)) in members.iter().zip(&broken) {
                for (first, last, br) in merge(p.rule.operator, p.threshold, b, &st.count) {
                    let start = slicing.slices[first].start;
                    let end = slicing.slices[last].end;
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
                            *measure.get_or_insert_with(|| {
                                let counter = english_names(&sr.parsed)
                                    .map_or(sr.parsed.counter.as_str(), |(_, c)| c);
                                measure_of(sr.counter_type, counter)
                            }),
                            &br,
                            start,
                            end,
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

/// One card of findings: a rule's findings whose time ranges overlap or touch, on any series ("kernel
/// time above 20% on 11 of 20 processors, 13:46-13:47, worst 35.9%"), with the list one click away.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FindingGroup {
    pub pack: String,
    pub rule: String,
    pub severity: Severity,
    /// ms since the epoch, UTC: the union of its findings' ranges.
    pub start: f64,
    pub end: f64,
    /// Indices into `Analysis::findings`, in time order.
    pub findings: Vec<usize>,
    /// The index of the finding furthest past the threshold.
    pub worst: usize,
    /// How many distinct series it hit.
    pub series: usize,
}

/// The findings grouped per pack, rule and severity into runs of overlapping or touching ranges; the
/// groups ordered worst first: critical before warning, then by how many series they hit, then by start.
pub fn group(findings: &[Finding]) -> Vec<FindingGroup> {
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&findings[a], &findings[b]);
        (x.pack.as_str(), x.rule.as_str(), x.severity)
            .cmp(&(y.pack.as_str(), y.rule.as_str(), y.severity))
            .then(x.start.total_cmp(&y.start))
            .then(a.cmp(&b))
    });
    let mut out: Vec<FindingGroup> = Vec::new();
    for i in order {
        let f = &findings[i];
        match out.last_mut() {
            Some(g)
                if g.pack == f.pack
                    && g.rule == f.rule
                    && g.severity == f.severity
                    && f.start <= g.end =>
            {
                g.end = g.end.max(f.end);
                g.findings.push(i);
                let w = &findings[g.worst];
                if worse(f.operator, f.threshold, f.worst, w.worst) {
                    g.worst = i;
                }
            }
            _ => out.push(FindingGroup {
                pack: f.pack.clone(),
                rule: f.rule.clone(),
                severity: f.severity,
                start: f.start,
                end: f.end,
                findings: vec![i],
                worst: i,
                series: 0,
            }),
        }
    }
    for g in &mut out {
        let mut s: Vec<usize> = g
            .findings
            .iter()
            .map(|&i| findings[i].series_index)
            .collect();
        s.sort_unstable();
        s.dedup();
        g.series = s.len();
    }
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.series.cmp(&a.series))
            .then(a.start.total_cmp(&b.start))
    });
    out
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

    /// `10:40`, or `2026-11-20 10:40` when the range spans days; seconds when they are not zero.
    pub fn time(&self, ms: f64) -> String {
        if !ms.is_finite() {
            return "?".into();
        }
        let local = ms - self.bias_ms;
        let days = (local / 86_400_000.0).floor();
        let secs = ((local - days * 86_400_000.0) / 1000.0).round() as i64;
        let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
        let mut t = if s == 0 {
            format!("{h:02}:{m:02}")
        } else {
            format!("{h:02}:{m:02}:{s:02}")
        };
        if self.dates {
            let (y, mo, d) = crate::civil::civil_from_days(days as i64);
            t = format!("{y:04}-{mo:02}-{d:02} {t}");
        }
        t
    }

    /// `2026-11-20 10:40:05`, the date always written.
    pub fn date_time(&self, ms: f64) -> String {
        if !ms.is_finite() {
            return "?".into();
        }
        let local = ms - self.bias_ms;
        let days = (local / 86_400_000.0).floor();
        let secs = ((local - days * 86_400_000.0) / 1000.0).round() as i64;
        let (y, mo, d) = crate::civil::civil_from_days(days as i64);
        format!(
            "{y:04}-{mo:02}-{d:02} {:02}:{:02}:{:02}",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        )
    }

    /// " UTC" when times are in UTC, else nothing (the log's own clock).
    pub fn suffix(&self) -> &'static str {
        self.suffix
    }
}

#[allow(clippy::too_many_arguments)]
fn message(
    path: &str,
    rule: &Rule,
    threshold: f64,
    measure: Measure,
    b: &Break,
    start: f64,
    end: f64,
    clock: &Clock,
) -> String {
    let (what, unit) = if rule.kind == RuleKind::Trend {
        (" trend", " per hour")
    } else {
        ("", "")
    };
    format!(
        "{path}{what} {} {}{unit} ({} {}{unit}) from {} to {}{}",
        rule.operator.words(),
        amount(threshold, measure),
        b.worst_stat.name(),
        amount(b.worst, measure),
        clock.time(start),
        clock.time(end),
        clock.suffix(),
    )
}

#[cfg(test)]
mod tests {
    use super::{group, Finding, Operator, Severity};

    fn f(
        rule: &str,
        severity: Severity,
        series: usize,
        (start, end): (f64, f64),
        worst: f64,
    ) -> Finding {
        Finding {
            pack: "p".into(),
            rule: rule.into(),
            title: String::new(),
            category: String::new(),
            severity,
            series_index: series,
            path: String::new(),
            start,
            end,
            broke: Vec::new(),
            worst,
            threshold: 20.0,
            operator: Operator::Gt,
            message: String::new(),
            variables: Vec::new(),
        }
    }

    #[test]
    fn findings_group_into_cards_per_rule_and_overlapping_range() {
        use Severity::*;
        let list = vec![
            f("priv", Warning, 0, (0.0, 10.0), 25.0),  // 0
            f("priv", Warning, 1, (5.0, 15.0), 35.9),  // 1: overlaps 0
            f("priv", Warning, 1, (15.0, 20.0), 30.0), // 2: touches 1's end
            f("priv", Warning, 2, (40.0, 50.0), 22.0), // 3: later, alone
            f("cpu", Critical, 3, (0.0, 10.0), 99.0),  // 4: another rule
        ];
        let g = group(&list);
        // Critical first; then the card over 2 series (0-20) before the one over 1 (40-50).
        assert_eq!(g.len(), 3);
        assert_eq!(
            (g[0].rule.as_str(), g[0].findings.clone()),
            ("cpu", vec![4])
        );
        assert_eq!(
            (g[1].findings.clone(), g[1].start, g[1].end),
            (vec![0, 1, 2], 0.0, 20.0)
        );
        // Worst of "above": the largest, 35.9 (finding 1); two distinct series.
        assert_eq!((g[1].worst, g[1].series), (1, 2));
        assert_eq!((g[2].findings.clone(), g[2].series), (vec![3], 1));
    }
}
