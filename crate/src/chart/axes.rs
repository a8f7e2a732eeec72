//! Value axes: round tick values for linear and logarithmic axes, and Perfmon's power-of-ten scale
//! (each counter multiplied by 10^k so it spans the 0-100 plot, the factor shown beside its name, as
//! Perfmon's "Scale" column does).

use crate::units::{byte_prefix, Unit};

/// A step of 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|s| *s >= raw * (1.0 - 1e-12))
        .unwrap_or(10.0 * p)
}

/// Round ticks within `[lo, hi]`, at most about `max` of them. For bytes the steps are round in the
/// prefix the axis shows (a step of 2 GB, not of 2 000 000 000 bytes).
pub fn linear_ticks(lo: f64, hi: f64, max: usize, unit: Unit) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return vec![];
    }
    let d = match unit {
        Unit::Bytes | Unit::BytesPerSecond => byte_prefix(lo.abs().max(hi.abs())).0,
        _ => 1.0,
    };
    let step = nice_step((hi - lo) / d / max.max(1) as f64) * d;
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks of a log axis over `[lo, hi]` (both > 0): the powers of ten, with 2 and 5 between them when
/// the axis spans less than two decades.
pub fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return vec![];
    }
    let (a, b) = (lo.log10().floor() as i32, hi.log10().ceil() as i32);
    let steps: &[f64] = if b - a <= 2 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut out = Vec::new();
    for e in a..=b {
        for m in steps {
            let v = m * 10f64.powi(e);
            if v >= lo * (1.0 - 1e-12) && v <= hi * (1.0 + 1e-12) {
                out.push(v);
            }
        }
    }
    out
}

/// Perfmon's automatic scale: the power of ten `k` that puts `max` (the largest absolute value shown)
/// in (10, 100], so the line spans most of a 0-100 plot; 0 for a series without values or all zero.
pub fn power_of_ten_scale(max: f64) -> i32 {
    if !(max.is_finite() && max > 0.0) {
        return 0;
    }
    let mut k = (100.0 / max).log10().floor() as i32;
    // log10 of an exact power of ten can land a hair off: settle on the largest k that keeps max*10^k <= 100.
    while max * 10f64.powi(k + 1) <= 100.0 * (1.0 + 1e-12) {
        k += 1;
    }
    while k > -300 && max * 10f64.powi(k) > 100.0 * (1.0 + 1e-12) {
        k -= 1;
    }
    k.clamp(-300, 300)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_ticks_are_round() {
        // 0..105 in at most 6: a raw step of 17.5 rounds up to 20.
        assert_eq!(
            linear_ticks(0.0, 105.0, 6, Unit::Percent),
            vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
        );
        // Bytes to 8 GiB (8 * 2^30) in at most 4: in GiB a raw step of 2 -> 2 GiB each.
        let g = 1024.0 * 1024.0 * 1024.0;
        assert_eq!(
            linear_ticks(0.0, 8.0 * g, 4, Unit::Bytes),
            vec![0.0, 2.0 * g, 4.0 * g, 6.0 * g, 8.0 * g]
        );
        assert!(linear_ticks(1.0, 1.0, 5, Unit::Count).is_empty());
    }

    #[test]
    fn log_ticks_on_decades() {
        assert_eq!(log_ticks(1.0, 1000.0), vec![1.0, 10.0, 100.0, 1000.0]);
        assert_eq!(log_ticks(3.0, 60.0), vec![5.0, 10.0, 20.0, 50.0]);
        assert!(log_ticks(0.0, 10.0).is_empty());
    }

    #[test]
    fn perfmon_scale_puts_the_maximum_between_10_and_100() {
        // 8000 * 10^-2 = 80; 100 * 10^0 = 100; 0.5 * 10^2 = 50; 10 * 10^1 = 100; 1000 * 10^-1 = 100.
        assert_eq!(power_of_ten_scale(8000.0), -2);
        assert_eq!(power_of_ten_scale(100.0), 0);
        assert_eq!(power_of_ten_scale(0.5), 2);
        assert_eq!(power_of_ten_scale(10.0), 1);
        assert_eq!(power_of_ten_scale(1000.0), -1);
        assert_eq!(power_of_ten_scale(0.0), 0);
        assert_eq!(power_of_ten_scale(f64::NAN), 0);
    }
}
