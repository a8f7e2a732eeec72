//! Time axis: tick positions on round local-time boundaries, and their labels.
//!
//! Dates come from [`crate::civil`].

use crate::civil::civil_from_days;

const SECOND: f64 = 1000.0;
const MINUTE: f64 = 60.0 * SECOND;
const HOUR: f64 = 60.0 * MINUTE;
const DAY: f64 = 24.0 * HOUR;

/// Steps a tick may take, in ms: round numbers of each unit.
const STEPS: &[f64] = &[
    1.0,
    2.0,
    5.0,
    10.0,
    20.0,
    50.0,
    100.0,
    200.0,
    500.0,
    SECOND,
    2.0 * SECOND,
    5.0 * SECOND,
    10.0 * SECOND,
    15.0 * SECOND,
    30.0 * SECOND,
    MINUTE,
    2.0 * MINUTE,
    5.0 * MINUTE,
    10.0 * MINUTE,
    15.0 * MINUTE,
    30.0 * MINUTE,
    HOUR,
    2.0 * HOUR,
    3.0 * HOUR,
    6.0 * HOUR,
    12.0 * HOUR,
    DAY,
    2.0 * DAY,
    7.0 * DAY,
    14.0 * DAY,
    28.0 * DAY,
];

/// Ticks every `step` ms on round boundaries of local time (`offset_min` minutes east of UTC).
pub fn ticks(x0: f64, x1: f64, max_ticks: usize, offset_min: i32) -> (Vec<f64>, f64) {
    let span = x1 - x0;
    if span.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) || !span.is_finite() {
        return (vec![], 0.0);
    }
    let step = STEPS
        .iter()
        .copied()
        .find(|s| span / s <= max_ticks.max(1) as f64)
        .unwrap_or_else(|| {
            // Longer than 28 days a tick: round to whole weeks.
            (span / max_ticks.max(1) as f64 / (7.0 * DAY)).ceil() * 7.0 * DAY
        });
    let offset = f64::from(offset_min) * MINUTE;
    let first = ((x0 + offset) / step).ceil() * step - offset;
    let mut out = Vec::new();
    let mut t = first;
    while t <= x1 && out.len() <= max_ticks * 2 {
        out.push(t);
        t = first + step * out.len() as f64;
    }
    (out, step)
}

/// The label of a tick: as precise as the step needs, in local time (`offset_min` east of UTC).
pub fn label(ms: f64, step: f64, span: f64, offset_min: i32) -> String {
    let local = ms + f64::from(offset_min) * MINUTE;
    let days = (local / DAY).floor();
    let (y, mo, d) = civil_from_days(days as i64);
    let in_day = (local - days * DAY).round() as i64; // ms since local midnight
    let (h, mi, s, milli) = (
        in_day / 3_600_000,
        in_day / 60_000 % 60,
        in_day / 1000 % 60,
        in_day % 1000,
    );
    if step >= DAY {
        format!("{y:04}-{mo:02}-{d:02}")
    } else if span > DAY {
        format!("{mo:02}-{d:02} {h:02}:{mi:02}")
    } else if step >= MINUTE {
        format!("{h:02}:{mi:02}")
    } else if step >= SECOND {
        format!("{h:02}:{mi:02}:{s:02}")
    } else {
        format!("{h:02}:{mi:02}:{s:02}.{milli:03}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_in_local_time() {
        // 2013-02-20 02:50:18.844 UTC = 1361328618844 ms; PST is UTC-8 (offset -480 min): 18:50:18.844 on the 19th.
        let t = 1_361_328_618_844.0;
        assert_eq!(label(t, 500.0, 10_000.0, 0), "02:50:18.844");
        assert_eq!(label(t, 500.0, 10_000.0, -480), "18:50:18.844");
        assert_eq!(label(t, SECOND, 60_000.0, -480), "18:50:18");
        assert_eq!(label(t, MINUTE, HOUR, 0), "02:50");
        assert_eq!(label(t, HOUR, 3.0 * DAY, -480), "02-19 18:50");
        assert_eq!(label(t, DAY, 30.0 * DAY, 0), "2013-02-20");
    }

    #[test]
    fn ticks_fall_on_round_local_boundaries() {
        // 10 minutes of data, at most 6 ticks: 10 min / 6 = 100 s, so the step is 2 minutes.
        let x0 = 1_361_328_618_844.0;
        let (t, step) = ticks(x0, x0 + 10.0 * MINUTE, 6, 0);
        assert_eq!(step, 2.0 * MINUTE);
        assert!(t.iter().all(|&v| v % (2.0 * MINUTE) == 0.0 && v >= x0));
        assert_eq!(t.len(), 5);
        // With a half-hour zone (India, +330 min) day ticks fall on local midnight, not UTC midnight.
        let (t, step) = ticks(0.0, 10.0 * DAY, 10, 330);
        assert_eq!(step, DAY);
        assert_eq!((t[0] + 330.0 * MINUTE) % DAY, 0.0);
        assert!(ticks(5.0, 5.0, 10, 0).0.is_empty());
    }
}
