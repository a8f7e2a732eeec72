//! Property tests of the calculation: invariants that must hold for any raw values.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::{
    cook, cook_series, parse_type, CookOptions, CounterType, Frequency, RawColumns, RawSample,
    Status,
};
use proptest::prelude::*;

fn ty(s: &str) -> CounterType {
    parse_type(s).unwrap()
}

fn no_cap() -> CookOptions {
    CookOptions {
        cap100: false,
        ..Default::default()
    }
}

/// A pair of samples with every field set, so any type can be cooked from it.
fn pair() -> impl Strategy<Value = (RawSample, RawSample)> {
    (
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
        any::<u64>(),
    )
        .prop_map(|(n0, n1, d0, d1, f, m)| {
            (
                RawSample::new(n0).second(d0).frequency(f).multi(m),
                RawSample::new(n1).second(d1).frequency(f).multi(m),
            )
        })
}

/// Samples that are increasing, as a healthy counter's are.
fn increasing() -> impl Strategy<Value = (RawSample, RawSample)> {
    (
        0u64..u64::MAX / 2,
        0u64..1 << 40,
        0u64..u64::MAX / 2,
        1u64..1 << 40,
        1u64..1 << 40,
        1u64..64,
    )
        .prop_map(|(n0, dn, d0, dd, f, m)| {
            (
                RawSample::new(n0).second(d0).frequency(f).multi(m),
                RawSample::new(n0 + dn)
                    .second(d0 + dd)
                    .frequency(f)
                    .multi(m),
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn inverse_timers_are_100_minus_their_plain_twins((a, b) in increasing()) {
        for (inv, plain) in [("PERF_COUNTER_TIMER_INV", "PERF_COUNTER_TIMER"), ("PERF_100NSEC_TIMER_INV", "PERF_100NSEC_TIMER")] {
            let i = cook(ty(inv), Some(&a), &b, &no_cap()).unwrap();
            let p = cook(ty(plain), Some(&a), &b, &no_cap()).unwrap();
            prop_assert_eq!(i.status, p.status);
            if let (Some(i), Some(p)) = (i.value, p.value) {
                // 100*(1 - x) and 100 - 100*x differ only by rounding, relative to the larger magnitude.
                prop_assert!((i - (100.0 - p)).abs() <= 1e-9 * p.abs().max(100.0), "{} vs 100 - {}", i, p);
            }
        }
    }

    #[test]
    fn scaling_by_ten_to_the_k((a, b) in increasing(), k in -10i32..=10, t in prop::sample::select(counterlens::types::TYPES)) {
        let plain = cook(CounterType::from_value(t.value), Some(&a), &b, &no_cap()).unwrap();
        let scaled = cook(CounterType::from_value(t.value), Some(&a), &b, &CookOptions { scale: Some(k), ..no_cap() }).unwrap();
        prop_assert_eq!(plain.status, scaled.status);
        if let (Some(p), Some(s)) = (plain.value, scaled.value) {
            let want = p * 10f64.powi(k);
            prop_assert!((s - want).abs() <= 1e-14 * want.abs(), "{} * 10^{} = {} != {}", p, k, s, want);
        }
    }

    #[test]
    fn ok_results_are_always_finite((a, b) in pair(), t in prop::sample::select(counterlens::types::TYPES),
                                    cap100: bool, scale in prop::option::of(-10i32..=10), x1000: bool, wrap32: bool) {
        let opts = CookOptions { cap100, scale, x1000, wrap32 };
        let r = cook(CounterType::from_value(t.value), Some(&a), &b, &opts).unwrap();
        match r.status {
            Status::Ok => prop_assert!(r.value.is_some_and(f64::is_finite), "{:?}", r),
            _ => prop_assert_eq!(r.value, None),
        }
    }

    #[test]
    fn no_precision_is_lost_above_2_pow_53(base in (1u64 << 53)..(u64::MAX - (1 << 20)), dn in 0u64..(1 << 20)) {
        // Any difference below 2^53 between values above 2^53 is exact: the subtraction is in integers.
        let r = cook(ty("PERF_COUNTER_LARGE_DELTA"), Some(&RawSample::new(base)), &RawSample::new(base + dn), &no_cap()).unwrap();
        prop_assert_eq!(r.value, Some(dn as f64));
        let older = RawSample::new(base).second(base).frequency(1);
        let newer = RawSample::new(base + dn).second(base + 1).frequency(1);
        let r = cook(ty("PERF_COUNTER_BULK_COUNT"), Some(&older), &newer, &no_cap()).unwrap();
        prop_assert_eq!(r.value, Some(dn as f64)); // dN / ((1) / 1)
    }

    #[test]
    fn swapped_samples_never_give_a_positive_rate((a, b) in pair(), t in prop::sample::select(counterlens::types::TYPES)) {
        let t = CounterType::from_value(t.value);
        if !t.fields().delta {
            return Ok(());
        }
        // Order (a, b) forward (by N, then D), then cook it backwards: newer as the older sample.
        // Backwards, N decreases (negative-value) or, N equal, D decreases or stays (a denominator
        // status), so no ok positive value can come out.
        let (older, newer) = if (a.value, a.second) <= (b.value, b.second) { (a, b) } else { (b, a) };
        let r = cook(t, Some(&newer), &older, &no_cap()).unwrap();
        if r.status == Status::Ok {
            prop_assert!(r.value.unwrap() <= 0.0, "{:?} backwards gave {:?}", t, r);
        }
    }

    #[test]
    fn series_equals_pairwise_cook(values in prop::collection::vec(0u64..1000, 0..50), t in prop::sample::select(counterlens::types::TYPES)) {
        let t = CounterType::from_value(t.value);
        let second: Vec<u64> = (0..values.len() as u64).map(|i| i * 7 + (i % 3)).collect();
        let multi: Vec<u64> = values.iter().map(|v| v % 4).collect();
        let cols = RawColumns { value: &values, second: Some(&second), frequency: Some(Frequency::Constant(3)), multi: Some(&multi) };
        let mut out = vec![];
        cook_series(t, &cols, &CookOptions::default(), &mut out).unwrap();
        prop_assert_eq!(out.len(), values.len());
        let s = |i: usize| RawSample::new(values[i]).second(second[i]).frequency(3).multi(multi[i]);
        for (i, got) in out.iter().enumerate() {
            let older = if i == 0 { None } else { Some(s(i - 1)) };
            let want = cook(t, older.as_ref(), &s(i), &CookOptions::default()).unwrap().value.unwrap_or(f64::NAN);
            prop_assert_eq!(got.to_bits(), want.to_bits(), "index {}", i);
        }
    }
}
