//! The numbers and words the tools return, computed from the core's results: a range's statistics
//! (`chart::range_stats`: the viewer's), min-max decimation of a series, the change table of two logs
//! (counters matched by path without the machine, as the viewer's compare.js), the verdict sentence and
//! the summary in words (the report's first page as text).

use crate::time::{iso, iso_utc};
use counterlens::analysis::{Analysis, Severity};
use counterlens::capture::Capture;
use counterlens::words::duration;
use serde::Serialize;

/// Minutes east of UTC of a capture's clock (Windows' bias is minutes west).
pub fn east(c: &Capture) -> i32 {
    c.time_zone.as_ref().map_or(0, |z| -z.bias_minutes)
}

/// A time in the log's zone and in UTC.
#[derive(Clone, Debug, Serialize)]
pub struct When {
    pub local: String,
    pub utc: String,
}

pub fn when(ms: f64, east: i32) -> When {
    When {
        local: iso(ms, east),
        utc: iso_utc(ms),
    }
}

/// The log's zone in words.
pub fn zone_text(c: &Capture) -> String {
    match &c.time_zone {
        Some(z) => {
            let e = -z.bias_minutes;
            let offset = format!(
                "UTC{}{:02}:{:02}",
                if e < 0 { '-' } else { '+' },
                e.abs() / 60,
                e.abs() % 60
            );
            if z.name.is_empty() || z.name == offset {
                offset
            } else {
                format!("{} ({offset})", z.name)
            }
        }
        None => "none recorded (times are UTC)".into(),
    }
}

/// Min-max decimation: the samples `lo..hi` (gaps left out) in at most `points` points. When there are
/// more, they are cut into `points / 2` buckets of consecutive samples and each bucket gives its
/// minimum and its maximum in time order, so no spike or dip is lost.
pub fn decimate(ts: &[f64], vs: &[f64], lo: usize, hi: usize, points: usize) -> Vec<(f64, f64)> {
    let idx: Vec<usize> = (lo..hi).filter(|&k| !vs[k].is_nan()).collect();
    if idx.len() <= points {
        return idx.iter().map(|&k| (ts[k], vs[k])).collect();
    }
    let buckets = (points / 2).max(1);
    let mut out = Vec::with_capacity(buckets * 2);
    for b in 0..buckets {
        let (s, e) = (idx.len() * b / buckets, idx.len() * (b + 1) / buckets);
        if s == e {
            continue;
        }
        let part = &idx[s..e];
        let (mut min, mut max) = (part[0], part[0]);
        for &k in part {
            if vs[k] < vs[min] {
                min = k;
            }
            if vs[k] > vs[max] {
                max = k;
            }
        }
        let (a, b) = if min <= max { (min, max) } else { (max, min) };
        out.push((ts[a], vs[a]));
        if b != a {
            out.push((ts[b], vs[b]));
        }
    }
    out
}

/// A path without its machine, lower-cased: how counters of two logs are matched (compare.js's
/// `counterKey`).
pub fn counter_key(path: &str) -> String {
    counterlens::words::without_machine(path).to_lowercase()
}

/// One figure of a change-table row: A, B, B - A and the change in % of |A| (null where A is 0).
#[derive(Clone, Debug, Serialize)]
pub struct Change {
    pub a: f64,
    pub b: f64,
    pub difference: f64,
    pub percent: f64,
}

pub fn change(a: f64, b: f64) -> Change {
    Change {
        a,
        b,
        difference: b - a,
        percent: if a == 0.0 {
            f64::NAN
        } else {
            100.0 * (b - a) / a.abs()
        },
    }
}

/// The verdict in one sentence, as the report's summary says it.
pub fn verdict(a: &Analysis) -> String {
    let ran = a.rules.iter().filter(|r| r.skipped.is_none()).count();
    let crit = a
        .findings
        .iter()
        .filter(|f| f.severity == Severity::Critical)
        .count();
    let n = a.findings.len();
    if ran == 0 {
        format!("Not analysed: no rule applies to these counters ({} series). This is not a clean result: the log lacks the counters the packs know (processor, memory, disk, network).", a.log.series)
    } else if n == 0 {
        format!(
            "No rule broke: {ran} rules ran on this log; {} did not (their counters are not in it).",
            a.rules.len() - ran
        )
    } else {
        // Cards first, as the viewer's verdict counts them: a card is one episode of one concern.
        let critical_cards = a
            .groups
            .iter()
            .filter(|g| g.severity == Severity::Critical)
            .count();
        let cards = a.groups.len();
        format!(
            "{cards} card{} ({critical_cards} critical, {} warning): {n} finding{} ({crit} critical, {} warning) from {ran} rule{} that ran; {} did not run.",
            if cards == 1 { "" } else { "s" },
            cards - critical_cards,
            if n == 1 { "" } else { "s" },
            n - crit,
            if ran == 1 { "" } else { "s" },
            a.rules.len() - ran
        )
    }
}

pub fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "critical",
        Severity::Warning => "warning",
    }
}

/// The summary in words: the report's first page as text (the log's machines, time range in its zone
/// and in UTC, interval, the verdict sentence, the three worst cards).
pub fn summary_text(name: &str, c: &Capture, a: &Analysis) -> String {
    let e = east(c);
    let log = &a.log;
    let mut t = String::new();
    let machines = if log.machines.is_empty() {
        "machine not named in the counter paths".to_string()
    } else {
        format!(
            "{} {}",
            if log.machines.len() == 1 {
                "machine"
            } else {
                "machines"
            },
            log.machines.join(", ")
        )
    };
    t.push_str(&format!(
        "{name}: {machines}{}, a {} log.\n",
        log.os
            .as_deref()
            .map(|o| format!(" ({o})"))
            .unwrap_or_default(),
        c.format_name()
    ));
    match (log.first, log.last) {
        (Some(f), Some(l)) => t.push_str(&format!(
            "Time: {} to {} in the log's zone, {}; {} to {} UTC. {} long, a sample every {}; {} samples of {} series.\n",
            iso(f, e),
            iso(l, e),
            zone_text(c),
            iso_utc(f),
            iso_utc(l),
            duration(l - f),
            log.interval_ms.map_or("-".into(), duration),
            log.samples,
            log.series
        )),
        _ => t.push_str("Time: the log has no samples.\n"),
    }
    t.push_str(&format!("Verdict: {}\n", verdict(a)));
    if !a.groups.is_empty() {
        t.push_str("The worst:\n");
        for (i, g) in a.groups.iter().take(3).enumerate() {
            t.push_str(&format!(
                "{}. [{}] {} ({} to {})\n",
                i + 1,
                severity(g.severity),
                g.summary,
                iso(g.start, e),
                iso(g.end, e)
            ));
        }
        if a.groups.len() > 3 {
            t.push_str(&format!(
                "... and {} more cards (the analyze tool lists them).\n",
                a.groups.len() - 3
            ));
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimation_keeps_every_spike_and_dip() {
        let ts: Vec<f64> = (0..1000).map(f64::from).collect();
        let mut vs: Vec<f64> = (0..1000).map(|k| f64::from(k % 7)).collect();
        vs[333] = 100.0;
        vs[666] = -100.0;
        vs[500] = f64::NAN;
        let d = decimate(&ts, &vs, 0, 1000, 200);
        assert!(d.len() <= 200);
        assert!(d.contains(&(333.0, 100.0)) && d.contains(&(666.0, -100.0)));
        assert!(d.windows(2).all(|w| w[0].0 < w[1].0), "in time order");
        // Few samples: all of them, gaps left out.
        assert_eq!(decimate(&ts, &vs, 498, 503, 200).len(), 4);
    }

    #[test]
    fn counters_match_without_the_machine() {
        assert_eq!(
            counter_key("\\\\WEB01\\Processor(_Total)\\% Processor Time"),
            "\\processor(_total)\\% processor time"
        );
        assert_eq!(
            counter_key("\\Memory\\Available MBytes"),
            "\\memory\\available mbytes"
        );
        let c = change(50.0, 75.0);
        assert_eq!((c.difference, c.percent), (25.0, 50.0));
        assert!(change(0.0, 1.0).percent.is_nan());
    }
}
