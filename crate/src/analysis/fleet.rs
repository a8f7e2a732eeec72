//! The fleet: many logs of many machines reduced to which machines are in trouble, ranked
//! (`docs/analysis.md`, "The fleet").
//!
//! Each analysis is reduced per machine to a [`Run`] (its cards in brief, its key figures, a decimated
//! CPU line and a histogram of CPU that combines exactly): small whatever the log, so a caller keeps
//! runs, not captures. [`fleet`] joins a machine's runs in time order and ranks the machines worst
//! first: severity, then time in trouble, then the name. The CLI writes it as `fleet.json` and the
//! fleet page; the viewer can reduce logs in its Workers and call the same through wasm.

use super::pack::Severity;
use super::Analysis;
use crate::capture::path::FoldedPath;
use crate::capture::Capture;
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;

/// The key counters, by their English folded names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Key {
    /// `Processor(_Total)\% Processor Time` (or `Processor Information(_Total)`).
    Cpu,
    /// `Memory\Available MBytes` (KBytes, Bytes): the factor to MB.
    Memory(f64),
    /// `PhysicalDisk` / `LogicalDisk` `Avg. Disk sec/Transfer` (`/Read`, `/Write`): the factor to ms.
    Disk(f64),
}

/// Which key counter a series is, if any.
pub fn key_of(p: &FoldedPath) -> Option<Key> {
    let (object, counter) = p.english_or_own();
    let total = p.instance.as_deref() == Some("_total");
    match (object, counter) {
        ("processor" | "processor information", "% processor time") if total => Some(Key::Cpu),
        ("memory", "available mbytes") => Some(Key::Memory(1.0)),
        ("memory", "available kbytes") => Some(Key::Memory(1.0 / 1024.0)),
        ("memory", "available bytes") => Some(Key::Memory(1.0 / 1_048_576.0)),
        (
            "physicaldisk" | "logicaldisk",
            "avg. disk sec/transfer" | "avg. disk sec/read" | "avg. disk sec/write",
        ) => Some(Key::Disk(1000.0)),
        _ => None,
    }
}

/// The `p` quantile (0..=1) of sorted values, interpolated between the closest ranks (the definition
/// of numpy's default and DuckDB's `quantile_cont`): rank h = (n - 1) p, then
/// `x[floor h] + (h - floor h) (x[floor h + 1] - x[floor h])`. None for no values.
pub fn quantile(sorted: &[f64], p: f64) -> Option<f64> {
    let n = sorted.len();
    if n == 0 {
        return None;
    }
    let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(n - 1);
    Some(sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo]))
}

/// A machine's key figures over a log (or over its logs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// `Processor(_Total)\% Processor Time`: its mean and 95th percentile, in %.
    pub cpu_mean: Option<f64>,
    pub cpu_p95: Option<f64>,
    /// The least `Memory\Available MBytes`, MB.
    pub available_mb_min: Option<f64>,
    /// The worst disk's 95th percentile of `Avg. Disk sec/Transfer` (Read, Write), ms: a lone spike is
    /// not the disk's latency.
    pub disk_latency_p95_ms: Option<f64>,
}

/// CPU in bins of one percent (the last, 100, holds 100 and above), each with its count and its least
/// and greatest value, so the runs of a machine combine into its percentiles: within a bin the values
/// are taken evenly spread from its least to its greatest (exact when they are equal or evenly
/// spread, else off by less than the bin's width).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Histogram {
    /// (bin, count, least, greatest), by bin.
    pub bins: Vec<(u8, u64, f64, f64)>,
}

impl Histogram {
    pub fn of(values: &[f64]) -> Histogram {
        let mut bins: Vec<(u8, u64, f64, f64)> = Vec::new();
        for &v in values.iter().filter(|v| v.is_finite()) {
            let b = v.clamp(0.0, 100.0).floor() as u8;
            match bins.binary_search_by_key(&b, |x| x.0) {
                Ok(i) => {
                    let x = &mut bins[i];
                    x.1 += 1;
                    x.2 = x.2.min(v);
                    x.3 = x.3.max(v);
                }
                Err(i) => bins.insert(i, (b, 1, v, v)),
            }
        }
        Histogram { bins }
    }

    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
    }

    pub fn count(&self) -> u64 {
        self.bins.iter().map(|b| b.1).sum()
    }

    /// Both histograms' values.
    pub fn merge(&mut self, other: &Histogram) {
        for &(b, n, lo, hi) in &other.bins {
            match self.bins.binary_search_by_key(&b, |x| x.0) {
                Ok(i) => {
                    let x = &mut self.bins[i];
                    x.1 += n;
                    x.2 = x.2.min(lo);
                    x.3 = x.3.max(hi);
                }
                Err(i) => self.bins.insert(i, (b, n, lo, hi)),
            }
        }
    }

    /// The value of rank `r` (0-based) in the order of the values.
    fn at_rank(&self, r: u64) -> f64 {
        let mut before = 0;
        for &(_, n, lo, hi) in &self.bins {
            if r < before + n {
                let j = r - before;
                return if n > 1 {
                    lo + (hi - lo) * j as f64 / (n - 1) as f64
                } else {
                    lo
                };
            }
            before += n;
        }
        self.bins.last().map_or(f64::NAN, |b| b.3)
    }

    /// The `p` quantile as [`quantile`] defines it, over the values the bins stand for.
    pub fn quantile(&self, p: f64) -> Option<f64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        let h = (n - 1) as f64 * p.clamp(0.0, 1.0);
        let lo = h.floor() as u64;
        let (a, b) = (self.at_rank(lo), self.at_rank((lo + 1).min(n - 1)));
        Some(a + (h - lo as f64) * (b - a))
    }
}

/// A card in brief: what a fleet table shows of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Card {
    pub pack: String,
    pub group: String,
    pub category: String,
    pub severity: Severity,
    /// ms since the epoch, UTC.
    pub start: f64,
    pub end: f64,
    pub summary: String,
}

/// One machine in one analysis (a log, or its logs that follow each other).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Run {
    pub machine: String,
    /// The logs analysed, as the caller names them.
    pub logs: Vec<String>,
    /// Its first and last sample, ms since the epoch, UTC.
    pub first: Option<f64>,
    pub last: Option<f64>,
    pub samples: usize,
    pub figures: Figures,
    /// Its cards, ranked as the analysis ranks them.
    pub cards: Vec<Card>,
    /// CPU decimated to at most [`SPARK_POINTS`] points: (ms, mean of the samples in its stretch).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cpu: Vec<[f64; 2]>,
    #[serde(default, skip_serializing_if = "Histogram::is_empty")]
    pub cpu_histogram: Histogram,
}

/// Points of a run's CPU line: enough for a sparkline of a day.
pub const SPARK_POINTS: usize = 96;

/// Mean per stretch: `values` at `times` cut into at most `points` equal stretches of time.
fn decimate(times: &[f64], values: &[f64], points: usize) -> Vec<[f64; 2]> {
    let pairs: Vec<(f64, f64)> = times
        .iter()
        .zip(values)
        .filter(|(t, v)| t.is_finite() && v.is_finite())
        .map(|(&t, &v)| (t, v))
        .collect();
    let (Some(a), Some(b)) = (pairs.first(), pairs.last()) else {
        return Vec::new();
    };
    let (t0, t1) = (a.0, b.0);
    if pairs.len() <= points || t1 <= t0 {
        return pairs.iter().map(|&(t, v)| [t, v]).collect();
    }
    let width = (t1 - t0) / points as f64;
    let mut sums = vec![(0.0, 0.0, 0usize); points];
    for &(t, v) in &pairs {
        let k = (((t - t0) / width) as usize).min(points - 1);
        sums[k].0 += t;
        sums[k].1 += v;
        sums[k].2 += 1;
    }
    sums.into_iter()
        .filter(|s| s.2 > 0)
        .map(|(t, v, n)| [t / n as f64, v / n as f64])
        .collect()
}

/// The runs of one analysis: one per machine the log names (a log that names none is one run, named
/// `fallback`, the log's name). `logs` are the analysis' inputs.
pub fn runs(capture: &Capture, analysis: &Analysis, logs: &[String], fallback: &str) -> Vec<Run> {
    let mut machines: Vec<String> = analysis.log.machines.clone();
    if machines.is_empty() {
        machines.push(String::new());
    }
    let paths: Vec<FoldedPath> = capture
        .series
        .iter()
        .map(|s| FoldedPath::new(&s.parsed))
        .collect();
    let times = &capture.timestamps;
    machines
        .iter()
        .map(|m| {
            let mine = |i: usize| {
                capture
                    .series
                    .get(i)
                    .is_some_and(|s| s.parsed.machine.eq_ignore_ascii_case(m))
            };
            let mut cpu: Option<usize> = None;
            let mut memory_min: Option<f64> = None;
            let mut disk: Option<f64> = None;
            for (i, p) in paths.iter().enumerate().filter(|&(i, _)| mine(i)) {
                let values = &capture.series[i].values;
                match key_of(p) {
                    // Processor before Processor Information: the first of them.
                    Some(Key::Cpu) if cpu.is_none() => cpu = Some(i),
                    Some(Key::Memory(f)) => {
                        for &v in values.iter().filter(|v| v.is_finite()) {
                            let mb = v * f;
                            memory_min = Some(memory_min.map_or(mb, |x: f64| x.min(mb)));
                        }
                    }
                    Some(Key::Disk(f)) => {
                        let mut s: Vec<f64> =
                            values.iter().copied().filter(|v| v.is_finite()).collect();
                        s.sort_by(f64::total_cmp);
                        if let Some(p95) = quantile(&s, 0.95) {
                            disk = Some(disk.map_or(p95 * f, |x: f64| x.max(p95 * f)));
                        }
                    }
                    _ => {}
                }
            }
            let mut figures = Figures {
                available_mb_min: memory_min,
                disk_latency_p95_ms: disk,
                ..Figures::default()
            };
            let (mut line, mut histogram) = (Vec::new(), Histogram::default());
            if let Some(i) = cpu {
                let values = &capture.series[i].values;
                let mut s: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
                if !s.is_empty() {
                    figures.cpu_mean = Some(s.iter().sum::<f64>() / s.len() as f64);
                    histogram = Histogram::of(&s);
                    s.sort_by(f64::total_cmp);
                    figures.cpu_p95 = quantile(&s, 0.95);
                }
                line = decimate(times, values, SPARK_POINTS);
            }
            // Its cards: those whose findings are on its series (a card across machines counts for
            // each of them).
            let cards = analysis
                .groups
                .iter()
                .filter(|g| {
                    m.is_empty()
                        || g.machine.eq_ignore_ascii_case(m)
                        || g.findings.iter().any(|&f| {
                            analysis.findings.get(f).is_some_and(|f| {
                                crate::words::machine(&f.path).eq_ignore_ascii_case(m)
                            })
                        })
                })
                .map(|g| Card {
                    pack: g.pack.clone(),
                    group: g.group.clone(),
                    category: g.category.clone(),
                    severity: g.severity,
                    start: g.start,
                    end: g.end,
                    summary: g.summary.clone(),
                })
                .collect();
            Run {
                machine: if m.is_empty() {
                    fallback.to_string()
                } else {
                    m.clone()
                },
                logs: logs.to_vec(),
                first: times.iter().copied().find(|t| t.is_finite()),
                last: times.iter().rev().copied().find(|t| t.is_finite()),
                samples: times.len(),
                figures,
                cards,
                cpu: line,
                cpu_histogram: histogram,
            }
        })
        .collect()
}

/// The length of the union of ranges: overlapping trouble counted once.
pub fn union_ms(ranges: &mut [(f64, f64)]) -> f64 {
    ranges.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut total = 0.0;
    let mut open: Option<(f64, f64)> = None;
    for &(a, b) in ranges.iter() {
        match open {
            Some((s, e)) if a <= e => open = Some((s, e.max(b))),
            Some((s, e)) => {
                total += e - s;
                open = Some((a, b));
            }
            None => open = Some((a, b)),
        }
    }
    if let Some((s, e)) = open {
        total += e - s;
    }
    total
}

/// One run as the fleet lists it under its machine (runs over time).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunFigures {
    pub logs: Vec<String>,
    pub first: Option<f64>,
    pub last: Option<f64>,
    pub samples: usize,
    pub worst: Option<Severity>,
    pub cards: usize,
    pub trouble_ms: f64,
    pub figures: Figures,
}

/// One machine of the fleet: its runs joined in time order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Machine {
    pub machine: String,
    /// The worst severity of its cards; None: calm.
    pub worst: Option<Severity>,
    /// Its cards, critical first, then the longest, then the earliest: `cards[0]` is its top card.
    pub cards: Vec<Card>,
    /// How long it was in trouble: the union of its cards' ranges, ms.
    pub trouble_ms: f64,
    /// Its logs, in time order.
    pub logs: Vec<String>,
    pub first: Option<f64>,
    pub last: Option<f64>,
    /// Its key figures over all its logs: the CPU mean weighted by samples, the CPU p95 from the runs'
    /// histograms (`Histogram`; a single run's is exact), the least memory, the worst disk latency.
    pub figures: Figures,
    /// Per run (a log, or logs that follow each other), in time order: the key figures over time.
    pub runs: Vec<RunFigures>,
    /// CPU over all its runs, decimated: (ms, %).
    pub cpu: Vec<[f64; 2]>,
}

/// The machines ranked worst first, with the range all their logs span.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fleet {
    pub machines: Vec<Machine>,
}

/// The fleet's order: critical before warning before calm, then the longest in trouble, then more
/// cards, then by name (case-insensitive, then as written): a total order, so a table never shuffles.
pub fn rank(a: &Machine, b: &Machine) -> Ordering {
    b.worst
        .cmp(&a.worst)
        .then(b.trouble_ms.total_cmp(&a.trouble_ms))
        .then(b.cards.len().cmp(&a.cards.len()))
        .then_with(|| {
            a.machine
                .to_lowercase()
                .cmp(&b.machine.to_lowercase())
                .then_with(|| a.machine.cmp(&b.machine))
        })
}

fn rank_cards(a: &Card, b: &Card) -> Ordering {
    b.severity
        .cmp(&a.severity)
        .then((b.end - b.start).total_cmp(&(a.end - a.start)))
        .then(a.start.total_cmp(&b.start))
}

/// Joins the runs per machine (names compared ignoring case), in time order, and ranks the machines.
pub fn fleet(mut runs: Vec<Run>) -> Fleet {
    runs.sort_by(|a, b| {
        a.machine
            .to_lowercase()
            .cmp(&b.machine.to_lowercase())
            .then(
                a.first
                    .unwrap_or(f64::INFINITY)
                    .total_cmp(&b.first.unwrap_or(f64::INFINITY)),
            )
    });
    let mut machines: Vec<Machine> = Vec::new();
    let mut start = 0;
    while start < runs.len() {
        let end = start
            + runs[start..]
                .iter()
                .take_while(|r| r.machine.eq_ignore_ascii_case(&runs[start].machine))
                .count();
        machines.push(machine(&runs[start..end]));
        start = end;
    }
    machines.sort_by(rank);
    Fleet { machines }
}

fn trouble(cards: &[Card]) -> f64 {
    let mut ranges: Vec<(f64, f64)> = cards.iter().map(|c| (c.start, c.end)).collect();
    union_ms(&mut ranges)
}

/// One machine from its runs, in time order.
fn machine(runs: &[Run]) -> Machine {
    let mut cards: Vec<Card> = runs.iter().flat_map(|r| r.cards.iter().cloned()).collect();
    cards.sort_by(rank_cards);
    // Two logs of the same stretch (a .blg and its relog CSV, a log copied twice) give the same card:
    // one episode, listed once (the first, in rank order, is kept).
    let mut seen = std::collections::HashSet::new();
    cards.retain(|c| {
        seen.insert((
            c.pack.clone(),
            c.group.clone(),
            c.start.to_bits(),
            c.end.to_bits(),
        ))
    });
    let figures = if runs.len() == 1 {
        runs[0].figures.clone()
    } else {
        let mut histogram = Histogram::default();
        for r in runs {
            histogram.merge(&r.cpu_histogram);
        }
        let n = histogram.count();
        let weighted: f64 = runs
            .iter()
            .filter_map(|r| Some(r.figures.cpu_mean? * r.cpu_histogram.count() as f64))
            .sum();
        let fold = |f: fn(&Figures) -> Option<f64>, pick: fn(f64, f64) -> f64| {
            runs.iter().filter_map(|r| f(&r.figures)).reduce(pick)
        };
        Figures {
            cpu_mean: (n > 0).then(|| weighted / n as f64),
            cpu_p95: histogram.quantile(0.95),
            available_mb_min: fold(|f| f.available_mb_min, f64::min),
            disk_latency_p95_ms: fold(|f| f.disk_latency_p95_ms, f64::max),
        }
    };
    let mut cpu: Vec<[f64; 2]> = runs.iter().flat_map(|r| r.cpu.iter().copied()).collect();
    if cpu.len() > 2 * SPARK_POINTS {
        let (t, v): (Vec<f64>, Vec<f64>) = cpu.iter().map(|p| (p[0], p[1])).unzip();
        cpu = decimate(&t, &v, 2 * SPARK_POINTS);
    }
    Machine {
        machine: runs[0].machine.clone(),
        worst: cards.iter().map(|c| c.severity).max(),
        trouble_ms: trouble(&cards),
        cards,
        logs: runs.iter().flat_map(|r| r.logs.iter().cloned()).collect(),
        first: runs.iter().filter_map(|r| r.first).reduce(f64::min),
        last: runs.iter().filter_map(|r| r.last).reduce(f64::max),
        figures,
        runs: runs
            .iter()
            .map(|r| RunFigures {
                logs: r.logs.clone(),
                first: r.first,
                last: r.last,
                samples: r.samples,
                worst: r.cards.iter().map(|c| c.severity).max(),
                cards: r.cards.len(),
                trouble_ms: trouble(&r.cards),
                figures: r.figures.clone(),
            })
            .collect(),
        cpu,
    }
}

/// A heatmap cell: the worst a machine was in a stretch of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cell {
    /// No log of it covers the stretch.
    NoData,
    Calm,
    Warning,
    Critical,
}

impl Machine {
    /// Its row of the heatmap: `[x0, x1]` cut into `columns` equal stretches, each the worst card that
    /// overlaps it, calm where one of its runs covers it without a card, no data elsewhere.
    pub fn cells(&self, x0: f64, x1: f64, columns: usize) -> Vec<Cell> {
        let width = (x1 - x0) / columns.max(1) as f64;
        (0..columns)
            .map(|k| {
                let (a, b) = (x0 + k as f64 * width, x0 + (k + 1) as f64 * width);
                let overlaps = |s: f64, e: f64| s <= b && e >= a;
                let worst = self
                    .cards
                    .iter()
                    .filter(|c| overlaps(c.start, c.end))
                    .map(|c| c.severity)
                    .max();
                match worst {
                    Some(Severity::Critical) => Cell::Critical,
                    Some(Severity::Warning) => Cell::Warning,
                    None if self.runs.iter().any(|r| match (r.first, r.last) {
                        (Some(s), Some(e)) => overlaps(s, e),
                        _ => false,
                    }) =>
                    {
                        Cell::Calm
                    }
                    None => Cell::NoData,
                }
            })
            .collect()
    }
}

impl Fleet {
    /// The range every machine's logs span: (first, last).
    pub fn span(&self) -> Option<(f64, f64)> {
        let a = self
            .machines
            .iter()
            .filter_map(|m| m.first)
            .reduce(f64::min)?;
        let b = self
            .machines
            .iter()
            .filter_map(|m| m.last)
            .reduce(f64::max)?;
        Some((a, b))
    }

    /// The heatmap of the machines in their order as one `<svg>` element's text (`chart::heatmap`):
    /// `columns` stretches of [`Fleet::span`], each the worst a machine was then (no log, calm,
    /// warning, critical), `width` px wide, times `offset_minutes` east of UTC. `None` when no log has
    /// a time. The CLI's fleet page and the viewer's (`fleetHeatmapSvg`) draw it.
    pub fn heatmap_svg(
        &self,
        width: u32,
        columns: usize,
        offset_minutes: i32,
    ) -> Result<Option<String>, crate::chart::ChartError> {
        let Some((x0, x1)) = self.span() else {
            return Ok(None);
        };
        let cells: Vec<Vec<u8>> = self
            .machines
            .iter()
            .map(|m| {
                m.cells(x0, x1, columns)
                    .into_iter()
                    .map(|c| match c {
                        Cell::NoData => 0,
                        Cell::Calm => 1,
                        Cell::Warning => 2,
                        Cell::Critical => 3,
                    })
                    .collect()
            })
            .collect();
        let rows: Vec<crate::chart::heatmap::HeatRow<'_>> = self
            .machines
            .iter()
            .zip(&cells)
            .map(|(m, c)| crate::chart::heatmap::HeatRow {
                label: &m.machine,
                cells: c,
            })
            .collect();
        crate::chart::heatmap::heatmap_svg(width, &rows, (x0, x1), offset_minutes).map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn card(severity: Severity, start: f64, end: f64) -> Card {
        Card {
            pack: "system-overview".into(),
            group: "processor".into(),
            category: "Processor".into(),
            severity,
            start,
            end,
            summary: String::new(),
        }
    }

    fn run(machine: &str, first: f64, cards: Vec<Card>, cpu: &[f64]) -> Run {
        let mut s = cpu.to_vec();
        s.sort_by(f64::total_cmp);
        Run {
            machine: machine.into(),
            logs: vec![format!("{machine}-{first}.blg")],
            first: Some(first),
            last: Some(first + 3_600_000.0),
            samples: cpu.len(),
            figures: Figures {
                cpu_mean: Some(cpu.iter().sum::<f64>() / cpu.len() as f64),
                cpu_p95: quantile(&s, 0.95),
                ..Figures::default()
            },
            cards,
            cpu: Vec::new(),
            cpu_histogram: Histogram::of(cpu),
        }
    }

    const H: f64 = 3_600_000.0;

    #[test]
    fn machines_rank_by_severity_then_time_in_trouble_then_name() {
        let f = fleet(vec![
            // calm
            run("DB01", 0.0, vec![], &[10.0]),
            // a warning of 2 h
            run(
                "web02",
                0.0,
                vec![card(Severity::Warning, 0.0, 2.0 * H)],
                &[50.0],
            ),
            // a critical of 10 min inside a warning of 1 h: in trouble 1 h
            run(
                "WEB01",
                0.0,
                vec![
                    card(Severity::Warning, 0.0, H),
                    card(Severity::Critical, 0.1 * H, 0.1 * H + 600_000.0),
                ],
                &[90.0],
            ),
            // WEB03's two logs: a critical of 30 min in each, 1 h in all, the later log first given
            run(
                "WEB03",
                5.0 * H,
                vec![card(Severity::Critical, 5.0 * H, 5.5 * H)],
                &[80.0],
            ),
            run(
                "web03",
                0.0,
                vec![card(Severity::Critical, 0.0, 0.5 * H)],
                &[70.0],
            ),
            // calm too: after DB01 by name
            run("FILE01", 0.0, vec![], &[5.0]),
        ]);
        let names: Vec<&str> = f.machines.iter().map(|m| m.machine.as_str()).collect();
        // Critical: WEB01 (trouble 1 h: the critical is inside the warning) and WEB03 (0.5 + 0.5 = 1 h)
        // tie on time; WEB03 has 2 cards to WEB01's 2: by name, WEB01 first. Then web02 (warning),
        // then the calm ones by name.
        assert_eq!(names, ["WEB01", "web03", "web02", "DB01", "FILE01"]);
        let web03 = &f.machines[1];
        assert_eq!(web03.trouble_ms, H);
        // Logs in time order: the one at 0 before the one at 5 h.
        assert_eq!(web03.logs, ["web03-0.blg", "WEB03-18000000.blg"]);
        // CPU mean over both (one sample each): (70 + 80) / 2 = 75; p95 of {70, 80}:
        // h = 1 x 0.95, 70 + 0.95 x 10 = 79.5.
        assert_eq!(web03.figures.cpu_mean, Some(75.0));
        assert_eq!(web03.figures.cpu_p95, Some(79.5));
        assert_eq!(f.machines[0].worst, Some(Severity::Critical));
        assert_eq!(f.machines[0].cards[0].severity, Severity::Critical);
        assert_eq!(f.machines[3].worst, None);
    }

    #[test]
    fn the_same_episode_from_two_logs_of_one_stretch_is_one_card() {
        // A .blg and its relog CSV of the same hour: the same card in both runs, and a second card
        // (memory) in the CSV's only. Joined: two cards, not three; trouble 1 h, not more.
        let cpu = card(Severity::Critical, 0.0, H);
        let memory = Card {
            group: "memory".into(),
            ..card(Severity::Warning, 0.0, 0.5 * H)
        };
        let f = fleet(vec![
            run("TM2-A", 0.0, vec![cpu.clone()], &[50.0]),
            run("TM2-A", 0.0, vec![cpu.clone(), memory.clone()], &[50.0]),
        ]);
        assert_eq!(f.machines[0].cards, vec![cpu, memory]);
        assert_eq!(f.machines[0].trouble_ms, H);
    }

    #[test]
    fn quantiles_interpolate_between_ranks() {
        // 1..=5: p95 at rank 4 x 0.95 = 3.8: 4 + 0.8 x (5 - 4) = 4.8; the median 3.
        let s = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(quantile(&s, 0.95), Some(4.8));
        assert_eq!(quantile(&s, 0.5), Some(3.0));
        assert_eq!(quantile(&[], 0.5), None);
        // The histogram gives the same where each bin's values are evenly spread: 10, 10.5, 11 fall in
        // bins 10 (10, 10.5) and 11 (11); rank 2 x 0.5 = 1: 10.5.
        let h = Histogram::of(&[10.0, 10.5, 11.0]);
        assert_eq!(h.quantile(0.5), Some(10.5));
        // A constant 10% stays 10 (the bin's least and greatest are both 10), not 10.95.
        assert_eq!(Histogram::of(&[10.0; 100]).quantile(0.95), Some(10.0));
    }

    #[test]
    fn trouble_counts_overlaps_once() {
        // [0, 2] and [1, 3] overlap: 3; [5, 6] apart: 1; 4 in all.
        let mut r = [(1.0, 3.0), (0.0, 2.0), (5.0, 6.0)];
        assert_eq!(union_ms(&mut r), 4.0);
    }

    #[test]
    fn heatmap_cells_say_critical_warning_calm_or_no_data() {
        let f = fleet(vec![run(
            "WEB01",
            0.0,
            vec![
                card(Severity::Warning, 0.0, 0.5 * H),
                card(Severity::Critical, 0.25 * H, 0.3 * H),
            ],
            &[1.0],
        )]);
        // [0, 2 h] in 4 columns of 30 min: the first holds both cards (critical), the second the
        // warning's end (0.5 h, touching), the third calm inside the run (to 1 h), the fourth no data.
        let cells = f.machines[0].cells(0.0, 2.0 * H, 4);
        assert_eq!(
            cells,
            [Cell::Critical, Cell::Warning, Cell::Calm, Cell::NoData]
        );
    }

    fn arb_machine() -> impl Strategy<Value = Machine> {
        (
            prop_oneof![
                Just(None),
                Just(Some(Severity::Warning)),
                Just(Some(Severity::Critical))
            ],
            0u8..4,
            0usize..3,
            prop_oneof![Just("a"), Just("A"), Just("b"), Just("web01")],
        )
            .prop_map(|(worst, t, n, name)| Machine {
                machine: name.into(),
                worst,
                cards: vec![card(Severity::Warning, 0.0, 1.0); n],
                trouble_ms: f64::from(t) * 1000.0,
                logs: vec![],
                first: None,
                last: None,
                figures: Figures::default(),
                runs: vec![],
                cpu: vec![],
            })
    }

    proptest! {
        /// The ranking is a total order: antisymmetric and transitive, and equal only for machines
        /// alike in every key (so a sort gives one order whatever the input order).
        #[test]
        fn ranking_is_a_total_order(a in arb_machine(), b in arb_machine(), c in arb_machine()) {
            prop_assert_eq!(rank(&a, &b), rank(&b, &a).reverse());
            if rank(&a, &b) != Ordering::Greater && rank(&b, &c) != Ordering::Greater {
                prop_assert_ne!(rank(&a, &c), Ordering::Greater);
            }
            if rank(&a, &b) == Ordering::Equal {
                prop_assert_eq!((&a.machine, a.worst, a.trouble_ms, a.cards.len()),
                    (&b.machine, b.worst, b.trouble_ms, b.cards.len()));
            }
        }

        /// Quantiles are monotone in p, inside the values' range, for the exact and the histogram
        /// forms alike.
        #[test]
        fn quantiles_are_monotone(mut v in proptest::collection::vec(0.0f64..120.0, 1..60),
                                  p in 0.0f64..1.0, q in 0.0f64..1.0) {
            let (p, q) = (p.min(q), p.max(q));
            let h = Histogram::of(&v);
            v.sort_by(f64::total_cmp);
            let (lo, hi) = (v[0], v[v.len() - 1]);
            let (a, b) = (quantile(&v, p).unwrap(), quantile(&v, q).unwrap());
            prop_assert!(a <= b && lo <= a && b <= hi);
            let (a, b) = (h.quantile(p).unwrap(), h.quantile(q).unwrap());
            prop_assert!(a <= b + 1e-9 && lo <= a + 1e-9 && b <= hi + 1e-9);
        }
    }
}
