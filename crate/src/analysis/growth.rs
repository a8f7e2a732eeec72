//! Growth: a series that rises steadily over hours, as a leak does (`docs/analysis.md`, "Growth").
//!
//! A growth rule fits one straight line to a series' samples over the analysed range
//! ([`crate::series::TrendFit`], the one fit of the trends users read) and breaks when the line's slope per hour passes the threshold, its
//! samples span at least the rule's hours, and the line explains at least the rule's steadiness of the
//! values' variance (R²). So a process that is large but flat is not a leak (slope near 0), a process that
//! grew for a few minutes and stopped is not one (R² low over hours), and a process seen in a few samples
//! is not judged at all (it spans less than the hours).

use super::pack::{GrowthSpec, Operator};
use crate::series::{TrendFit, MS_PER_HOUR};
use serde::{Deserialize, Serialize};

/// What a growth finding measured: the fitted line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Growth {
    /// The line's slope, in the counter's unit per hour.
    pub per_hour: f64,
    /// R² (0..=1): how much of the values' variance the line explains.
    pub steadiness: f64,
    /// The line's value at the first and last sample.
    pub from: f64,
    pub to: f64,
    /// How many samples it rests on.
    pub samples: usize,
}

/// The first and last sample's times (ms) and the fitted line of `values` at `times`, when it breaks
/// `op threshold` (per hour) under `spec`; None otherwise.
pub fn growth(
    values: &[f64],
    times: &[f64],
    op: Operator,
    threshold: f64,
    spec: &GrowthSpec,
) -> Option<(f64, f64, Growth)> {
    // Hours since the first time stamp, so the line's slope is per hour.
    let origin = times.first().copied().unwrap_or(0.0);
    let mut fit = TrendFit::default();
    let (mut first, mut last) = (f64::NAN, f64::NAN);
    for (&t, &v) in times.iter().zip(values) {
        if t.is_finite() && v.is_finite() {
            first = if first.is_nan() { t } else { first };
            last = t;
            fit.push((t - origin) / MS_PER_HOUR, v);
        }
    }
    let per_hour = fit.slope();
    if per_hour.is_nan() {
        return None;
    }
    let long_enough = last - first >= spec.hours() * MS_PER_HOUR;
    // NaN R² (values that never change) is not steady growth: `>=` is false for NaN.
    let steady = fit.r2() >= spec.steadiness();
    (long_enough && steady && op.holds(per_hour, threshold)).then_some((
        first,
        last,
        Growth {
            per_hour,
            steadiness: fit.r2(),
            from: fit.at(fit.first_x()),
            to: fit.at(fit.last_x()),
            samples: fit.count(),
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: f64 = 3_600_000.0;
    const MB: f64 = 1_048_576.0;

    fn spec() -> GrowthSpec {
        GrowthSpec {
            hours: None,
            steadiness: None,
        }
    }

    /// 8 hours at one sample a minute (481 samples), 1 GB rising 250 MB an hour with a ±4 MB wobble.
    fn leaking() -> (Vec<f64>, Vec<f64>) {
        let times: Vec<f64> = (0..=480).map(|i| 1.7e12 + i as f64 * 60_000.0).collect();
        let values = (0..=480)
            .map(|i| {
                let wobble = if i % 2 == 0 { 4.0 * MB } else { -4.0 * MB };
                1024.0 * MB + 250.0 * MB * (i as f64 / 60.0) + wobble
            })
            .collect();
        (values, times)
    }

    #[test]
    fn a_steady_rise_of_250_mb_an_hour_for_8_hours_breaks_100_mb_an_hour() {
        let (values, times) = leaking();
        let (start, end, g) = growth(&values, &times, Operator::Gt, 100.0 * MB, &spec()).unwrap();
        assert_eq!((start, end), (times[0], times[480]));
        // The ±4 MB wobble alternates, so it barely tilts the line: the slope stays 250 MB/h within
        // 0.1 MB/h, and the line runs from about 1024 MB to 1024 + 8 x 250 = 3024 MB.
        assert!((g.per_hour / MB - 250.0).abs() < 0.1, "{}", g.per_hour / MB);
        assert!((g.from / MB - 1024.0).abs() < 1.0 && (g.to / MB - 3024.0).abs() < 1.0);
        // R² = 1 - residual / total variance: residual 16 MB² per sample against the rise's variance
        // (2000 MB)² / 12 ≈ 333,333 MB²: 1 - 16 / 333,333 ≈ 0.99995.
        assert!(
            g.steadiness > 0.9999 && g.steadiness <= 1.0,
            "{}",
            g.steadiness
        );
        assert_eq!(g.samples, 481);
    }

    #[test]
    fn large_but_flat_is_not_growth() {
        // 11 GB held flat with the same wobble: slope ~0, R² ~0.
        let (_, times) = leaking();
        let values: Vec<f64> = (0..=480)
            .map(|i| 11.0 * 1024.0 * MB + if i % 2 == 0 { 4.0 * MB } else { -4.0 * MB })
            .collect();
        assert!(growth(&values, &times, Operator::Gt, 100.0 * MB, &spec()).is_none());
        // Values that never change: R² is NaN, never steady.
        let same = vec![5.0 * MB; 481];
        assert!(growth(&same, &times, Operator::Lt, 1.0, &spec()).is_none());
    }

    #[test]
    fn a_short_life_is_not_judged_however_steep() {
        // Seen for 90 minutes (91 samples), rising 1 GB an hour: less than the default 2 hours.
        let (_, times) = leaking();
        let mut values = vec![f64::NAN; 481];
        for (i, v) in values.iter_mut().enumerate().skip(100).take(91) {
            *v = 1024.0 * MB * (i - 100) as f64 / 60.0;
        }
        assert!(growth(&values, &times, Operator::Gt, 100.0 * MB, &spec()).is_none());
        // With `hours: 1` it is judged, and breaks.
        let one = GrowthSpec {
            hours: Some(1.0),
            steadiness: None,
        };
        let (start, end, g) = growth(&values, &times, Operator::Gt, 100.0 * MB, &one).unwrap();
        assert_eq!((start, end), (times[100], times[190]));
        assert!((g.per_hour / MB - 1024.0).abs() < 1e-6);
    }

    #[test]
    fn growth_that_stopped_early_is_not_steady() {
        // A warm-up: up 4 GB in the first hour, then flat for 7. Least squares over the 8 hours
        // (481 samples, t in hours): slope = Σ(t - t̄)(v - v̄) / Σ(t - t̄)² ≈ 178 MB/h, past 100 MB/h,
        // but R² = (Σ(t - t̄)(v - v̄))² / (Σ(t - t̄)² Σ(v - v̄)²) ≈ 0.26: a line explains little of a step.
        let (_, times) = leaking();
        let values: Vec<f64> = (0..=480)
            .map(|i| 4096.0 * MB * (i.min(60) as f64 / 60.0))
            .collect();
        let mut fit = TrendFit::default();
        for (t, v) in times.iter().zip(&values) {
            fit.push((t - times[0]) / HOUR, *v);
        }
        assert!((fit.slope() / MB - 178.09).abs() < 0.01, "{fit:?}");
        assert!((fit.r2() - 0.2623).abs() < 1e-3, "{fit:?}");
        assert!(growth(&values, &times, Operator::Gt, 100.0 * MB, &spec()).is_none());
    }
}
