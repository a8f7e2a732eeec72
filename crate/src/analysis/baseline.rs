//! A machine's normal: robust quantiles of its machine-level counters by hour of day and weekday or
//! weekend, from its earlier logs ([`Builder`], [`Baseline`]; `schema/counterlens-baseline-v1.schema.json`),
//! and the cards "worse than its normal" a new log of that machine gets from it ([`judge`], which
//! `analysis::analyze` runs when `AnalyzeOptions::baseline` is given, before the story, so the story
//! tells and counts these cards as it does the others; the rule in `docs/analysis.md`, "Worse than its
//! normal"). Its findings and cards carry `pack: "baseline"`.

use super::cards::FindingGroup;
use super::episodes::episodes;
use super::findings::{message_measure, percent_of_time, Clock, Finding, Scope};
use super::fleet::{key_of, quantile, Key};
use super::pack::{EpisodeSpec, Operator, Severity, Stat};
use super::{PackUsed, RuleRun};
use crate::capture::names::english_names;
use crate::capture::path::{self, FoldedPath};
use crate::capture::Capture;
use crate::words::duration;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The quantiles kept per cell.
pub const QUANTILES: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];

/// A cell resting on fewer samples is not judged: too thin to be anyone's normal.
pub const MIN_CELL_SAMPLES: u64 = 20;

/// How far past its normal a sample is: past `FACTOR` times its usual, and by at least the counter's
/// floor (`Judged::floor`), so an idle machine at 0.5% is not "worse" at 2%.
pub const FACTOR: f64 = 3.0;

/// Worse than its normal for most of this long (s) makes a card.
pub const WINDOW_S: f64 = 1800.0;

pub const PACK_ID: &str = "baseline";

#[derive(Debug, thiserror::Error, PartialEq)]
pub enum BaselineError {
    /// The logs (or the log and the baseline) are of different machines.
    #[error("{0}")]
    Machines(String),
    /// A log without samples or machine-level counters: nothing to learn.
    #[error("{0}")]
    Empty(String),
    /// The file is not a baseline: where, and what was expected.
    #[error("{0}")]
    Bad(String),
}

impl From<BaselineError> for super::AnalysisError {
    fn from(e: BaselineError) -> Self {
        super::AnalysisError::Baseline(e.to_string())
    }
}

/// One hour of the day on weekdays or at weekends: its sample count and quantiles (`QUANTILES`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cell {
    /// 0..=23, in the log's own clock.
    pub hour: u8,
    pub weekend: bool,
    /// How many samples it rests on.
    pub samples: u64,
    /// The quantiles of `Baseline::quantiles`, in the counter's unit.
    pub q: Vec<f64>,
}

/// One counter's normal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Normal {
    /// The counter path without the machine, as the first log wrote it (`\Processor(_Total)\% Processor Time`).
    pub path: String,
    pub cells: Vec<Cell>,
}

/// A machine's normal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Baseline {
    /// `"counterlens-baseline"`.
    pub format: String,
    /// 1.
    pub version: u32,
    pub machine: String,
    /// The logs it rests on, as named when it was made, and their first and last sample (ms, UTC).
    pub logs: Vec<String>,
    pub first: f64,
    pub last: f64,
    /// The samples of those logs.
    pub samples: u64,
    pub quantiles: Vec<f64>,
    pub counters: Vec<Normal>,
}

/// Hour of the day (0..=23) and whether it is Saturday or Sunday, in the clock `bias_minutes` gives
/// (UTC = local + bias, Windows' convention).
pub fn hour_and_weekend(ms: f64, bias_minutes: i32) -> (u8, bool) {
    let local = ms - f64::from(bias_minutes) * 60_000.0;
    let days = (local / 86_400_000.0).floor();
    let hour = ((local - days * 86_400_000.0) / 3_600_000.0).floor() as u8;
    // 1970-01-01 was a Thursday: (days + 4) mod 7 is 0 on Sundays, 6 on Saturdays.
    let weekday = (days as i64 + 4).rem_euclid(7);
    (hour.min(23), weekday == 0 || weekday == 6)
}

fn cell_index(hour: u8, weekend: bool) -> usize {
    usize::from(hour) + if weekend { 24 } else { 0 }
}

/// A series' key without its machine: its folded English object, instance and counter.
fn key(p: &FoldedPath) -> String {
    let (o, c) = p.english_or_own();
    format!("{o}\u{0}{}\u{0}{c}", p.instance.as_deref().unwrap_or(""))
}

/// Whether a series speaks for the machine (no instance, an aggregate) or is a key counter (a disk's
/// latency): the series a baseline keeps.
fn kept(p: &FoldedPath) -> bool {
    match p.instance.as_deref() {
        None | Some("_total" | "_global_" | "__total__") => true,
        Some(_) => key_of(p).is_some(),
    }
}

/// The one machine a capture's paths name ("" for none), as written by its first series; an error
/// naming them (`what` names the capture) when there are several: a normal is one machine's.
pub fn machine_of(c: &Capture, what: &str) -> Result<String, BaselineError> {
    let mut names: Vec<&str> = Vec::new();
    for s in &c.series {
        let m = s.parsed.machine.as_str();
        if !names.iter().any(|x| x.eq_ignore_ascii_case(m)) {
            names.push(m);
        }
    }
    match names.as_slice() {
        [] => Ok(String::new()),
        [one] => Ok(one.to_string()),
        many => Err(BaselineError::Machines(format!(
            "{what} names {} machines ({}): a baseline is one machine's normal",
            many.len(),
            many.join(", ")
        ))),
    }
}

/// Builds a baseline from logs of one machine, one at a time (each log's values are kept as f32 per
/// counter and cell until [`Builder::finish`]).
#[derive(Default)]
pub struct Builder {
    machine: Option<String>,
    logs: Vec<String>,
    first: f64,
    last: f64,
    samples: u64,
    /// key -> (path as written, 48 cells of values)
    counters: BTreeMap<String, (String, Vec<Vec<f32>>)>,
    order: Vec<String>,
}

impl Builder {
    pub fn new() -> Builder {
        Builder {
            first: f64::INFINITY,
            last: f64::NEG_INFINITY,
            ..Builder::default()
        }
    }

    /// Adds a log named `name`. An error when it is of another machine than the logs before it.
    pub fn add(&mut self, name: &str, c: &Capture) -> Result<(), BaselineError> {
        let machine = machine_of(c, name)?;
        if let Some(m) = &self.machine {
            if !m.eq_ignore_ascii_case(&machine) {
                return Err(BaselineError::Machines(format!(
                    "{name} is of machine {}, the logs before it of {}: a baseline is one machine's normal",
                    shown(&machine),
                    shown(m)
                )));
            }
        } else {
            self.machine = Some(machine);
        }
        let bias = c.time_zone.as_ref().map_or(0, |z| z.bias_minutes);
        let cells: Vec<usize> = c
            .timestamps
            .iter()
            .map(|&t| {
                let (h, w) = hour_and_weekend(t, bias);
                cell_index(h, w)
            })
            .collect();
        for s in &c.series {
            let p = FoldedPath::new(&s.parsed);
            if !kept(&p) {
                continue;
            }
            let k = key(&p);
            let entry = self.counters.entry(k.clone()).or_insert_with(|| {
                self.order.push(k.clone());
                (
                    crate::words::without_machine(&s.path).to_string(),
                    vec![Vec::new(); 48],
                )
            });
            for (&v, &cell) in s.values.iter().zip(&cells) {
                if v.is_finite() {
                    entry.1[cell].push(v as f32);
                }
            }
        }
        if let (Some(&a), Some(&b)) = (c.timestamps.first(), c.timestamps.last()) {
            self.first = self.first.min(a);
            self.last = self.last.max(b);
        }
        self.samples += c.timestamps.len() as u64;
        self.logs.push(name.to_string());
        Ok(())
    }

    pub fn finish(self) -> Result<Baseline, BaselineError> {
        if self.samples == 0 || self.counters.is_empty() {
            return Err(BaselineError::Empty(
                "no samples of machine-level counters in the logs: nothing to learn a normal from"
                    .into(),
            ));
        }
        let mut counters = Vec::new();
        let mut by_key = self.counters;
        for k in &self.order {
            let Some((path, cells)) = by_key.remove(k) else {
                continue;
            };
            let cells: Vec<Cell> = cells
                .into_iter()
                .enumerate()
                .filter(|(_, v)| !v.is_empty())
                .map(|(i, v)| {
                    let mut s: Vec<f64> = v.into_iter().map(f64::from).collect();
                    s.sort_by(f64::total_cmp);
                    Cell {
                        hour: (i % 24) as u8,
                        weekend: i >= 24,
                        samples: s.len() as u64,
                        q: QUANTILES
                            .iter()
                            .map(|&p| quantile(&s, p).unwrap_or(f64::NAN))
                            .collect(),
                    }
                })
                .collect();
            if !cells.is_empty() {
                counters.push(Normal { path, cells });
            }
        }
        Ok(Baseline {
            format: "counterlens-baseline".into(),
            version: 1,
            machine: self.machine.unwrap_or_default(),
            logs: self.logs,
            first: self.first,
            last: self.last,
            samples: self.samples,
            quantiles: QUANTILES.to_vec(),
            counters,
        })
    }
}

/// The local date of `ms` (`2026-11-16`), in the clock `bias_minutes` gives.
fn date(ms: f64, bias_minutes: i32) -> String {
    let days = ((ms - f64::from(bias_minutes) * 60_000.0) / 86_400_000.0).floor() as i64;
    let (y, m, d) = crate::civil::civil_from_days(days);
    format!("{y:04}-{m:02}-{d:02}")
}

fn shown(machine: &str) -> &str {
    if machine.is_empty() {
        "(none named)"
    } else {
        machine
    }
}

impl Baseline {
    /// Reads a baseline file; errors name the line and column, or the member (a JSON pointer), and
    /// what was expected.
    pub fn from_json(text: &str) -> Result<Baseline, BaselineError> {
        let b: Baseline = serde_json::from_str(text).map_err(|e| {
            BaselineError::Bad(format!(
                "line {}, column {}: expected a counterlens baseline (schema/counterlens-baseline-v1.schema.json): {e}",
                e.line(),
                e.column()
            ))
        })?;
        let bad =
            |at: String, what: &str| Err(BaselineError::Bad(format!("{at}: expected {what}")));
        if b.format != "counterlens-baseline" {
            return bad("/format".into(), "\"counterlens-baseline\"");
        }
        if b.version != 1 {
            return bad("/version".into(), "1 (the version this counterlens reads)");
        }
        if b.quantiles != QUANTILES {
            return bad("/quantiles".into(), "[0.05, 0.25, 0.5, 0.75, 0.95]");
        }
        for (i, n) in b.counters.iter().enumerate() {
            if path::parse(&n.path).is_none() {
                return bad(
                    format!("/counters/{i}/path"),
                    "a counter path (\\Object(Instance)\\Counter)",
                );
            }
            for (j, c) in n.cells.iter().enumerate() {
                if c.hour > 23 {
                    return bad(
                        format!("/counters/{i}/cells/{j}/hour"),
                        "an hour from 0 to 23",
                    );
                }
                if c.q.len() != QUANTILES.len() || c.q.windows(2).any(|w| !(w[0] <= w[1])) {
                    return bad(
                        format!("/counters/{i}/cells/{j}/q"),
                        "5 quantiles, in increasing order",
                    );
                }
            }
        }
        Ok(b)
    }

    fn normal_of(&self, p: &FoldedPath) -> Option<&Normal> {
        let k = key(p);
        self.counters
            .iter()
            .find(|n| path::parse(&n.path).is_some_and(|q| key(&FoldedPath::new(&q)) == k))
    }
}

/// The counters judged against their normal, which way is worse, and the least distance from the
/// normal that counts (in the key figure's unit: %, MB, ms).
struct Judged {
    rule: &'static str,
    title: &'static str,
    category: &'static str,
    /// Higher is worse (its usual: the cell's p95); else lower (its usual: the cell's p05).
    up: bool,
    floor: f64,
}

fn judged(k: Key) -> Judged {
    match k {
        Key::Cpu => Judged {
            rule: "cpu-above-normal",
            title: "Processor time worse than its normal",
            category: "Processor",
            up: true,
            floor: 10.0,
        },
        Key::Memory(_) => Judged {
            rule: "memory-below-normal",
            title: "Available memory worse than its normal",
            category: "Memory",
            up: false,
            floor: 256.0,
        },
        Key::Disk(_) => Judged {
            rule: "disk-latency-above-normal",
            title: "Disk latency worse than its normal",
            category: "Disk",
            up: true,
            floor: 10.0,
        },
    }
}

fn factor(k: Key) -> f64 {
    match k {
        Key::Cpu => 1.0,
        Key::Memory(f) | Key::Disk(f) => f,
    }
}

/// The limit past which a sample is worse than its normal, in the counter's unit, for a cell's
/// usual value `u` (its p95 when higher is worse, its p05 when lower is): above max(3u, u + floor), or
/// below min(u / 3, u - floor). None where nothing can be below it.
pub fn limit(up: bool, usual: f64, floor: f64) -> Option<f64> {
    if up {
        Some((FACTOR * usual).max(usual + floor))
    } else {
        let l = (usual / FACTOR).min(usual - floor);
        (l > 0.0).then_some(l)
    }
}

/// Whether `baseline` can judge `capture`: an error when the log is of another machine (or of
/// several). `analysis::analyze` asks before it runs any rule, so a refused normal costs no analysis.
pub(crate) fn fits(capture: &Capture, baseline: &Baseline) -> Result<(), BaselineError> {
    let machine = machine_of(capture, "the log")?;
    if !machine.eq_ignore_ascii_case(&baseline.machine) {
        return Err(BaselineError::Machines(format!(
            "the baseline is the normal of machine {} ({} logs), this log is of machine {}: a log is judged against its own machine's normal",
            shown(&baseline.machine),
            baseline.logs.len(),
            shown(&machine)
        )));
    }
    Ok(())
}

/// Adds to `findings` and `groups` (an analysis' findings and ranked cards, `clock` its clock) the
/// cards "worse than its normal" of `capture` against `baseline`, which `fits` it: findings and cards
/// with `pack: "baseline"`, merged into the analysis' order and the cards' rank. Returns one rule run
/// per judged counter kind and the pack used.
pub(crate) fn judge(
    capture: &Capture,
    baseline: &Baseline,
    clock: &Clock,
    findings: &mut Vec<Finding>,
    groups: &mut Vec<FindingGroup>,
) -> (Vec<RuleRun>, PackUsed) {
    let bias = capture.time_zone.as_ref().map_or(0, |z| z.bias_minutes);
    let times = &capture.timestamps;
    let cells: Vec<usize> = times
        .iter()
        .map(|&t| {
            let (h, w) = hour_and_weekend(t, bias);
            cell_index(h, w)
        })
        .collect();
    let period = format!(
        "{} logs from {} to {}, {} samples",
        baseline.logs.len(),
        date(baseline.first, bias),
        date(baseline.last, bias),
        baseline.samples
    );
    let spec = EpisodeSpec {
        window: WINDOW_S,
        share: None,
        samples: None,
    };
    let mut runs: BTreeMap<&'static str, (Judged, usize)> = BTreeMap::new();
    let mut new: Vec<Finding> = Vec::new();
    for (si, s) in capture.series.iter().enumerate() {
        let p = FoldedPath::new(&s.parsed);
        let Some(k) = key_of(&p) else { continue };
        let j = judged(k);
        let floor = j.floor / factor(k);
        runs.entry(j.rule).or_insert_with(|| (judged(k), 0)).1 += 1;
        let Some(normal) = baseline.normal_of(&p) else {
            continue;
        };
        let mut by_cell: [Option<&Cell>; 48] = [None; 48];
        for c in &normal.cells {
            if c.samples >= MIN_CELL_SAMPLES {
                by_cell[cell_index(c.hour, c.weekend)] = Some(c);
            }
        }
        let q = if j.up { QUANTILES.len() - 1 } else { 0 };
        let limits: Vec<f64> = cells
            .iter()
            .map(|&c| {
                by_cell[c]
                    .and_then(|c| limit(j.up, c.q[q], floor))
                    .unwrap_or(f64::NAN)
            })
            .collect();
        // How far past its limit each sample is, as a ratio: an episode of it above 1 is one of the
        // counter worse than its normal for most of the window.
        let ratio: Vec<f64> = s
            .values
            .iter()
            .zip(&limits)
            .map(|(&v, &l)| {
                if !v.is_finite() || !l.is_finite() {
                    f64::NAN
                } else if j.up {
                    v / l
                } else if v > 0.0 {
                    l / v
                } else {
                    f64::MAX
                }
            })
            .collect();
        for e in episodes(&ratio, times, Operator::Gt, 1.0, &spec) {
            let range = e.first..=e.last;
            let vals: Vec<(usize, f64)> = range
                .clone()
                .filter(|&i| ratio[i].is_finite())
                .map(|i| (i, s.values[i]))
                .collect();
            let (wi, worst) = vals
                .iter()
                .copied()
                .reduce(|a, b| {
                    if (j.up && b.1 > a.1) || (!j.up && b.1 < a.1) {
                        b
                    } else {
                        a
                    }
                })
                .unwrap_or((e.first, f64::NAN));
            let mean = vals.iter().map(|x| x.1).sum::<f64>() / vals.len().max(1) as f64;
            // The normal of the hours it spans: their usual (the highest p95, or the lowest p05) and
            // the samples they rest on.
            let mut seen = [false; 48];
            let (mut usual, mut rests) = (f64::NAN, 0u64);
            for i in range.clone() {
                if let Some(c) = by_cell[cells[i]] {
                    if !std::mem::replace(&mut seen[cells[i]], true) {
                        rests += c.samples;
                        usual = if usual.is_nan() {
                            c.q[q]
                        } else if j.up {
                            usual.max(c.q[q])
                        } else {
                            usual.min(c.q[q])
                        };
                    }
                }
            }
            let counter = english_names(&s.parsed).map_or(s.parsed.counter.as_str(), |(_, c)| c);
            let measure = message_measure(s.counter_type, counter);
            let amount = |v: f64| crate::words::value(v, measure);
            let (start, end) = (times[e.first], times[e.last]);
            let which = if j.up { "p95" } else { "p05" };
            let message = format!(
                "{} {} its normal for {}, {} of the time (mean {}, {} {}) from {} to {}{}: {} {}{} its usual {which} for those hours ({} {}); the normal: {period}, {rests} samples in those hours",
                s.path,
                if j.up { "above" } else { "below" },
                duration(end - start),
                percent_of_time(e.share),
                amount(mean),
                if j.up { "max" } else { "min" },
                amount(worst),
                clock.time(start),
                clock.time(end),
                clock.suffix(),
                if j.up { "more than" } else { "less than" },
                if j.up { "3 times" } else { "a third of" },
                if j.up {
                    format!(" (and {} more)", amount(floor))
                } else {
                    format!(" (and {} less)", amount(floor))
                },
                if j.up { "up to" } else { "down to" },
                amount(usual),
            );
            new.push(Finding {
                pack: PACK_ID.into(),
                rule: j.rule.into(),
                title: j.title.into(),
                category: j.category.into(),
                severity: Severity::Warning,
                series_index: si,
                path: s.path.clone(),
                start,
                end,
                broke: vec![Stat::Value],
                worst,
                threshold: limits[wi],
                operator: if j.up { Operator::Gt } else { Operator::Lt },
                message,
                variables: Vec::new(),
                derived: None,
                mean: Some(mean),
                share: Some(e.share),
                growth: None,
                scope: Scope::Machine,
            });
        }
    }
    // The findings in the analysis' order (start, severity, pack, rule, series), the cards' indices
    // carried over.
    let before = findings.len();
    let mut all: Vec<Finding> = std::mem::take(findings);
    all.extend(new);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by(|&a, &b| {
        let (a, b) = (&all[a], &all[b]);
        a.start
            .total_cmp(&b.start)
            .then(b.severity.cmp(&a.severity))
            .then_with(|| a.pack.cmp(&b.pack))
            .then_with(|| a.rule.cmp(&b.rule))
            .then(a.series_index.cmp(&b.series_index))
    });
    let mut at = vec![0; all.len()];
    for (new_i, &old_i) in order.iter().enumerate() {
        at[old_i] = new_i;
    }
    for g in groups.iter_mut() {
        for f in &mut g.findings {
            *f = at[*f];
        }
        g.worst = at[g.worst];
        g.lead = at[g.lead];
    }
    let mut slots: Vec<Option<Finding>> = all.into_iter().map(Some).collect();
    *findings = order.iter().filter_map(|&i| slots[i].take()).collect();
    for &new_i in at.iter().skip(before) {
        let f = &findings[new_i];
        // The message with the path without its machine, as other cards name a series.
        let summary = format!(
            "{}{}",
            crate::words::without_machine(&f.path),
            f.message.get(f.path.len()..).unwrap_or("")
        );
        groups.push(FindingGroup {
            pack: PACK_ID.into(),
            rule: f.rule.clone(),
            severity: f.severity,
            start: f.start,
            end: f.end,
            findings: vec![new_i],
            worst: new_i,
            series: 1,
            group: f.rule.clone(),
            category: f.category.clone(),
            machine: capture
                .series
                .get(f.series_index)
                .map(|s| s.parsed.machine.clone())
                .unwrap_or_default(),
            scope: Scope::Machine,
            lead: new_i,
            duration_ms: f.end - f.start,
            mean: f.mean,
            share: f.share,
            summary,
            contributors: Vec::new(),
            missing: None,
        });
    }
    // Ranked as the cards are (cards::group): machine before part, critical first, longest, earliest.
    groups.sort_by(|a, b| {
        (a.scope as u8)
            .cmp(&(b.scope as u8))
            .then(b.severity.cmp(&a.severity))
            .then(b.duration_ms.total_cmp(&a.duration_ms))
            .then(a.start.total_cmp(&b.start))
    });
    let mut rules = Vec::new();
    for (rule, (j, n)) in runs {
        rules.push(RuleRun {
            pack: PACK_ID.into(),
            rule: rule.into(),
            title: j.title.into(),
            category: j.category.into(),
            severity: Severity::Warning,
            description: super::pack::Text::Plain(format!(
                "Worse than this machine's normal for that hour of the day (weekdays and weekends apart): {} for most of {} ({}), past {} times its usual and by at least the floor; hours whose normal rests on fewer than {MIN_CELL_SAMPLES} samples are not judged. The normal: {period}.",
                if j.up { "above its usual p95" } else { "below its usual p05" },
                duration(WINDOW_S * 1000.0),
                if j.up { "higher is worse" } else { "lower is worse" },
                FACTOR
            )),
            references: Vec::new(),
            group: Some(rule.into()),
            trend: false,
            operator: Some(if j.up { Operator::Gt } else { Operator::Lt }),
            variables: Vec::new(),
            counter: String::new(),
            episode: Some(spec.clone()),
            growth: None,
            series: n,
            threshold: None,
            skipped: None,
        });
    }
    let pack = PackUsed {
        id: PACK_ID.into(),
        title: "Worse than its normal".into(),
        source: format!("baseline of {}: {period}", shown(&baseline.machine)),
        builtin: false,
    };
    (rules, pack)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::{Series, TimeZone};
    use proptest::prelude::*;

    /// 2026-11-16 00:00 UTC, a Monday.
    const MONDAY: f64 = 1_794_787_200_000.0;
    const DAY: f64 = 86_400_000.0;
    const MIN: f64 = 60_000.0;

    fn capture(machine: &str, start: f64, minutes: usize, cpu: impl Fn(usize) -> f64) -> Capture {
        Capture {
            format: None,
            encoding: None,
            time_zone: None,
            timestamps: (0..minutes).map(|k| start + k as f64 * MIN).collect(),
            series: vec![Series::new(
                format!("\\\\{machine}\\Processor(_Total)\\% Processor Time"),
                (0..minutes).map(cpu).collect(),
            )],
            notes: vec![],
        }
    }

    #[test]
    fn hours_and_weekends_in_the_log_s_clock() {
        // Monday 00:00 UTC; 2026-11-21 (Monday + 5 days) is a Saturday; 23:30 on Sunday is hour 23.
        assert_eq!(hour_and_weekend(MONDAY, 0), (0, false));
        assert_eq!(hour_and_weekend(MONDAY + 5.0 * DAY, 0), (0, true));
        assert_eq!(
            hour_and_weekend(MONDAY + 7.0 * DAY - 30.0 * MIN, 0),
            (23, true)
        );
        // Pacific (bias 480: UTC = local + 8 h): Monday 00:00 UTC is Sunday 16:00 local, a weekend.
        assert_eq!(hour_and_weekend(MONDAY, 480), (16, true));
    }

    #[test]
    fn limits_are_three_times_the_usual_and_past_the_floor() {
        // Up, usual p95 10%, floor 10: max(3 x 10, 10 + 10) = 30; usual 2%: max(6, 12) = 12.
        assert_eq!(limit(true, 10.0, 10.0), Some(30.0));
        assert_eq!(limit(true, 2.0, 10.0), Some(12.0));
        // Down, usual p05 3000 MB, floor 256: min(1000, 2744) = 1000; 300 MB: min(100, 44) = 44;
        // 200 MB: min(66.7, -56): nothing is below it.
        assert_eq!(limit(false, 3000.0, 256.0), Some(1000.0));
        assert_eq!(limit(false, 300.0, 256.0), Some(44.0));
        assert_eq!(limit(false, 200.0, 256.0), None);
    }

    fn baseline_of_four_days_at(level: f64) -> Baseline {
        let mut b = Builder::new();
        for d in 0..4 {
            let c = capture("WEB01", MONDAY + f64::from(d) * DAY, 1440, |_| level);
            b.add(&format!("day{d}.csv"), &c).unwrap();
        }
        b.finish().unwrap()
    }

    #[test]
    fn a_baseline_keeps_quantiles_per_hour_and_the_samples_they_rest_on() {
        let mut b = Builder::new();
        // Four weekdays of minutes; the value is the minute of the hour (0..59) at every hour.
        for d in 0..4 {
            let c = capture("WEB01", MONDAY + f64::from(d) * DAY, 1440, |k| {
                (k % 60) as f64
            });
            b.add(&format!("day{d}.csv"), &c).unwrap();
        }
        let b = b.finish().unwrap();
        assert_eq!(
            (b.machine.as_str(), b.samples, b.logs.len()),
            ("WEB01", 4 * 1440, 4)
        );
        let cells = &b.counters[0].cells;
        // Weekday hours only: 24 cells of 4 days x 60 samples = 240.
        assert_eq!(cells.len(), 24);
        assert!(cells.iter().all(|c| !c.weekend && c.samples == 240));
        // Each value 0..59 four times; sorted, rank h = 239 p: p05 h = 11.95 between x[11] = 2 and
        // x[12] = 3: 2.95; the median h = 119.5 between 29 and 30: 29.5; p95 h = 227.05 between
        // x[227] = 56 and x[228] = 57: 56.05.
        let q = &cells[0].q;
        assert!(
            (q[0] - 2.95).abs() < 1e-9 && q[2] == 29.5 && (q[4] - 56.05).abs() < 1e-9,
            "{q:?}"
        );
        // It reads back as it was written.
        let text = serde_json::to_string(&b).unwrap();
        assert_eq!(Baseline::from_json(&text).unwrap(), b);
    }

    #[test]
    fn logs_of_two_machines_make_no_baseline() {
        let mut b = Builder::new();
        b.add("a.csv", &capture("WEB01", MONDAY, 10, |_| 1.0))
            .unwrap();
        let e = b
            .add("b.csv", &capture("WEB02", MONDAY, 10, |_| 1.0))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "b.csv is of machine WEB02, the logs before it of WEB01: a baseline is one machine's normal"
        );
    }

    fn judged_cards(b: &Baseline, c: &Capture) -> super::super::Analysis {
        let options = super::super::AnalyzeOptions {
            baseline: Some(b.clone()),
            ..Default::default()
        };
        super::super::analyze(c, &options).unwrap()
    }

    #[test]
    fn sixty_percent_for_two_hours_against_a_normal_of_ten_is_worse_than_its_normal() {
        let b = baseline_of_four_days_at(10.0);
        // Friday from 10:00: an hour at 10%, two hours (120 samples, 11:00 to 12:59) at 60%, an hour
        // at 10%. Each hour's normal: p95 10 from 240 samples; the limit max(3 x 10, 10 + 10) = 30.
        let start = MONDAY + 4.0 * DAY + 10.0 * 60.0 * MIN;
        let c = capture("WEB01", start, 240, |k| {
            if (60..180).contains(&k) {
                60.0
            } else {
                10.0
            }
        });
        let a = judged_cards(&b, &c);
        let cards: Vec<&FindingGroup> = a.groups.iter().filter(|g| g.pack == "baseline").collect();
        assert_eq!(cards.len(), 1, "{:?}", a.groups);
        let g = cards[0];
        let f = &a.findings[g.lead];
        // The episode: the samples at 60%, 11:00 to 12:59: 119 min; all of them past 30.
        assert_eq!((g.start, g.end), (start + 60.0 * MIN, start + 179.0 * MIN));
        assert_eq!(
            (f.mean, f.share, f.threshold, f.worst),
            (Some(60.0), Some(1.0), 30.0, 60.0)
        );
        assert_eq!(
            (f.pack.as_str(), f.rule.as_str()),
            ("baseline", "cpu-above-normal")
        );
        assert!(
            g.summary.starts_with("\\Processor(_Total)\\% Processor Time above its normal for 119 min, 100% of the time (mean 60%, max 60%) from 11:00 to 12:59 UTC: more than 3 times (and 10% more) its usual p95 for those hours (up to 10%); the normal: 4 logs from 2026-11-16 to 2026-11-19, 5760 samples, 480 samples in those hours"),
            "{}",
            g.summary
        );
        assert!(a.packs.iter().any(|p| p.id == "baseline"));
        // The story tells it as any card: no built-in rule breaks at 60% (the processor rules need
        // 80%), so this is the one problem of 239 min of log (240 samples a minute apart), told with the
        // rule (3 times its usual), not one hour's limit, and the rule counted among those that ran.
        assert_eq!(a.story.headline, "One problem in 3 h 59 min of log.");
        assert_eq!(a.story.lines.len(), 1);
        assert_eq!(a.groups[a.story.lines[0].group].pack, "baseline");
        assert_eq!(
            a.story.lines[0].text,
            "The processors worked far harder than their normal for those hours from 11:00 to 12:59 UTC (119 min; mean 60%, worst 60%, more than 3 times its usual for the hour throughout)."
        );
        assert!(a.story.lines[0]
            .next
            .starts_with("Find what changed on this machine then"));
        assert_eq!(
            a.story.ran,
            a.rules.iter().filter(|r| r.skipped.is_none()).count()
        );
        // The cards' findings point at their findings after the merge.
        for g in &a.groups {
            assert!(g.findings.iter().all(|&i| i < a.findings.len()));
        }
        // At 12% nothing: 12 < 30.
        let c = capture("WEB01", start, 240, |k| {
            if (60..180).contains(&k) {
                12.0
            } else {
                10.0
            }
        });
        assert!(judged_cards(&b, &c)
            .groups
            .iter()
            .all(|g| g.pack != "baseline"));
    }

    #[test]
    fn a_log_of_another_machine_is_refused() {
        let b = baseline_of_four_days_at(10.0);
        let c = capture("DB01", MONDAY + 4.0 * DAY, 60, |_| 10.0);
        let options = super::super::AnalyzeOptions {
            baseline: Some(b),
            ..Default::default()
        };
        let e = super::super::analyze(&c, &options).unwrap_err();
        assert_eq!(e.code(), "baseline");
        assert!(
            e.to_string()
                .contains("machine WEB01 (4 logs), this log is of machine DB01"),
            "{e}"
        );
    }

    #[test]
    fn a_baseline_file_that_does_not_read_says_where() {
        let e = Baseline::from_json("{\"format\": 3}")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("line 1, column 12: expected a counterlens baseline"),
            "{e}"
        );
        let mut b = baseline_of_four_days_at(10.0);
        b.counters[0].cells[3].q = vec![1.0, 0.5, 2.0, 3.0, 4.0];
        let e = Baseline::from_json(&serde_json::to_string(&b).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "/counters/0/cells/3/q: expected 5 quantiles, in increasing order"
        );
    }

    proptest! {
        /// A cell's quantiles are in increasing order whatever the values.
        #[test]
        fn cell_quantiles_are_monotone(v in proptest::collection::vec(-1e6f64..1e6, 1..200)) {
            let mut b = Builder::new();
            let c = Capture {
                time_zone: Some(TimeZone { name: "x".into(), bias_minutes: 0 }),
                ..capture("WEB01", MONDAY, v.len(), |k| v[k])
            };
            b.add("a.csv", &c).unwrap();
            for n in b.finish().unwrap().counters {
                for cell in n.cells {
                    prop_assert!(cell.q.windows(2).all(|w| w[0] <= w[1]), "{:?}", cell.q);
                }
            }
        }
    }
}
