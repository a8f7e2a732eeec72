//! Statistics of a visible range as the viewer shows them: those of [`crate::series::stats`] (count, min,
//! max, mean, population standard deviation, p95, last) plus the 99th percentile and the trend per hour
//! ([`crate::series::samples_trend_per_hour`]: the least-squares slope of every sample's value against
//! time, per hour).

use crate::series::{samples_trend_per_hour, stats_with, Stats};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RangeStats {
    pub count: usize,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub last: f64,
    pub stddev: f64,
    pub p95: f64,
    /// 99th percentile, nearest-rank: the ceil(0.99 n)-th smallest value.
    pub p99: f64,
    /// Least-squares slope of the samples' values against time, per hour; NaN with fewer than two values.
    pub trend_per_hour: f64,
}

/// Statistics of `values` at `timestamps` (ms) within `from <= t <= to` (either end open when None).
pub fn range_stats(
    timestamps: &[f64],
    values: &[f64],
    from: Option<f64>,
    to: Option<f64>,
) -> RangeStats {
    let n = timestamps.len().min(values.len());
    let lo = from.map_or(0, |f| timestamps[..n].partition_point(|&t| t < f));
    let hi = to.map_or(n, |t| timestamps[..n].partition_point(|&x| x <= t));
    let (ts, vs) = (&timestamps[lo..hi.max(lo)], &values[lo..hi.max(lo)]);
    let (base, [p99]) = stats_with(vs, [0.99]);
    let Stats {
        count,
        min,
        max,
        mean,
        last,
        stddev,
        p95,
    } = base;
    RangeStats {
        count,
        min,
        max,
        mean,
        last,
        stddev,
        p95,
        p99,
        trend_per_hour: samples_trend_per_hour(ts, vs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p99_and_trend_per_hour() {
        // 100 values 1..=100, one a minute: p99 is the ceil(0.99 * 100) = 99th smallest = 99; the line
        // rises 1 per minute = 60 per hour; p95 the 95th = 95.
        let ts: Vec<f64> = (0..100).map(|i| 1.7e12 + i as f64 * 60_000.0).collect();
        let vs: Vec<f64> = (1..=100).map(f64::from).collect();
        let r = range_stats(&ts, &vs, None, None);
        assert_eq!(r.p99, 99.0);
        assert_eq!(r.p95, 95.0);
        assert_eq!(r.count, 100);
        assert!(
            (r.trend_per_hour - 60.0).abs() < 1e-9,
            "{}",
            r.trend_per_hour
        );
        // The range [10th minute, 19th minute] holds values 11..=20: count 10, p99 the 10th = 20.
        let r = range_stats(&ts, &vs, Some(ts[10]), Some(ts[19]));
        assert_eq!((r.count, r.min, r.p99), (10, 11.0, 20.0));
    }

    #[test]
    fn gaps_and_empty_ranges() {
        let ts = [0.0, 3_600_000.0, 7_200_000.0];
        // NaN left out: values 10 at 0 h and 30 at 2 h, a rise of 10 per hour.
        let r = range_stats(&ts, &[10.0, f64::NAN, 30.0], None, None);
        assert!((r.trend_per_hour - 10.0).abs() < 1e-12);
        let r = range_stats(&ts, &[10.0, f64::NAN, 30.0], Some(5e9), None);
        assert_eq!(r.count, 0);
        assert!(r.p99.is_nan() && r.trend_per_hour.is_nan());
        assert!(range_stats(&ts, &[1.0, f64::NAN, f64::NAN], None, None)
            .trend_per_hour
            .is_nan());
    }
}
