//! One series of a .blg: each raw sample cooked as it arrives against the one before it (kept as its
//! N and D only), so no raw samples are held and none is copied again. Values are the same, value for
//! value, as one `cook()` per value and as `series::cook_series` over the whole column: the same
//! `compute` and `apply_options`, a gap where the log has no value, a two-sample type cooked against the
//! sample just before, and an average over an interval with no operations shown as 0, as Perfmon and
//! relog show it ("Calculating Counter Values"; `docs/blg.md`).

use crate::cook::{apply_options, compute, CookOptions, Pair, RawSample, Status};
use crate::types::{is_dword_size, CounterType, Display, Formula};

pub(super) struct Column {
    hot: Hot,
    /// Sort key: definition, counter within the object, order the instance was first seen.
    pub order: (usize, usize, usize),
    pub path: String,
    pub scale: i32,
}

/// What cooking a value reads and writes, in one cache line: a sample of a whole-object log touches
/// thousands of series in turn, and each touch is a likely cache miss (measured natively: the loads of
/// a series' state and the store of its value were most of the loop's time).
#[repr(C, align(64))]
struct Hot {
    /// Cooked values, one per sample given so far (gaps NaN).
    values: Vec<f64>,
    /// One more than the index of the last sample with a value (0: none), and its N and D (the older
    /// sample of the next value).
    next: usize,
    n0: u64,
    d0: u64,
    type_value: u32,
    cooking: Cooking,
}

/// How a type's values are cooked, worked out once per series.
#[derive(Clone, Copy)]
struct Cooking {
    /// None for a type with no numeric value (unknown, not displayable, text): every value is NaN.
    formula: Option<Formula>,
    two_samples: bool,
    /// Whether the formula reads F and M (a sample without one has no value, as in `cook_series`).
    needs: (bool, bool),
    /// AVERAGE_TIMER or AVERAGE_BULK: a zero interval is 0 operations, shown as 0.
    average: bool,
    percent: bool,
    wrap: bool,
}

impl Cooking {
    fn new(ty: CounterType) -> Cooking {
        let formula = ty
            .formula()
            .filter(|f| !matches!(f, Formula::NotDisplayable | Formula::Text));
        let spec = formula.map(|f| f.spec());
        Cooking {
            formula,
            two_samples: formula.is_some_and(|f| f.samples() == 2),
            needs: spec.map_or((false, false), |s| (s.frequency, s.multi)),
            average: matches!(formula, Some(Formula::AverageTimer | Formula::AverageBulk)),
            percent: ty.display() == Display::Percent,
            wrap: CookOptions::default().wrap32 && is_dword_size(ty.value),
        }
    }

    /// The value of a sample (N1, D1, F, M) against the sample before it (N0, D0), if there is one, by
    /// the type's formula (inlined into `put`: out of line it cost a call per value).
    #[inline(always)]
    fn value(&self, formula: Formula, older: Option<(u64, u64)>, raw: &RawSample, d1: u64) -> f64 {
        if (self.needs.0 && raw.frequency.is_none()) || (self.needs.1 && raw.multi.is_none()) {
            return f64::NAN;
        }
        // A one-sample formula reads the newer sample only (`cook_series` pairs it with itself).
        let (n0, d0) = match older {
            _ if !self.two_samples => (raw.value, d1),
            Some(o) => o,
            None => return f64::NAN,
        };
        let pair = Pair {
            n0,
            n1: raw.value,
            d0,
            d1,
            f: raw.frequency.unwrap_or(0),
            m1: raw.multi.unwrap_or(0),
        };
        match compute(formula, &pair, self.wrap) {
            Ok(v) => apply_options(v, self.percent, &CookOptions::default()),
            Err(Status::ZeroDenominator) if self.average => 0.0,
            Err(_) => f64::NAN,
        }
    }
}

impl Column {
    pub fn new(
        order: (usize, usize, usize),
        path: String,
        type_value: u32,
        scale: i32,
        capacity: usize,
    ) -> Column {
        Column {
            hot: Hot {
                values: Vec::with_capacity(capacity),
                next: 0,
                n0: 0,
                d0: 0,
                type_value,
                cooking: Cooking::new(CounterType::from_value(type_value)),
            },
            order,
            path,
            scale,
        }
    }

    pub fn type_value(&self) -> u32 {
        self.hot.type_value
    }

    pub fn reserve(&mut self, extra: usize) {
        self.hot.values.reserve_exact(extra);
    }

    /// Sample `k` of this series: its raw sample, or `None` where the log has no value.
    #[inline(always)]
    pub fn put(&mut self, k: usize, raw: Option<RawSample>) {
        let hot = &mut self.hot;
        let len = hot.values.len();
        if len > k {
            return; // a second value for the same sample (a duplicate key): the first stands
        }
        if len < k {
            hot.values.resize(k, f64::NAN); // samples without this series
        }
        let Some(raw) = raw else {
            hot.values.push(f64::NAN);
            hot.next = 0;
            return;
        };
        // The .blg paths always give D (a PDH_RAW_COUNTER's SecondValue, or the object's time or base).
        let d1 = raw.second.unwrap_or(0);
        let older = (hot.next != 0 && hot.next == k).then_some((hot.n0, hot.d0));
        (hot.next, hot.n0, hot.d0) = (k + 1, raw.value, d1);
        let v = match hot.cooking.formula {
            Some(f) => hot.cooking.value(f, older, &raw, d1),
            None => f64::NAN,
        };
        hot.values.push(v);
    }

    /// The cooked series, `samples` long.
    pub fn finish(mut self, samples: usize) -> Vec<f64> {
        self.hot.values.resize(samples, f64::NAN);
        self.hot.values
    }
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::cook::{cook, Cooked};
    use proptest::prelude::*;

    /// The reader before block cooking: each value cooked at once by `cook()` against the sample before
    /// it. Block cooking must give exactly these values.
    fn per_value(type_value: u32, samples: &[(usize, Option<RawSample>)], n: usize) -> Vec<f64> {
        let ty = CounterType::from_value(type_value);
        let two = ty.samples() == 2;
        let average = matches!(
            ty.formula(),
            Some(Formula::AverageTimer | Formula::AverageBulk)
        );
        let mut values: Vec<f64> = Vec::new();
        let mut last: Option<(usize, RawSample)> = None;
        for (k, raw) in samples {
            let k = *k;
            if values.len() > k {
                continue;
            }
            values.resize(k, f64::NAN);
            let Some(raw) = raw else {
                values.push(f64::NAN);
                last = None;
                continue;
            };
            let older = match &last {
                Some((j, s)) if two && *j + 1 == k => Some(s),
                _ => None,
            };
            values.push(match cook(ty, older, raw, &CookOptions::default()) {
                Ok(Cooked { value: Some(v), .. }) => v,
                Ok(Cooked {
                    status: Status::ZeroDenominator,
                    ..
                }) if average => 0.0,
                _ => f64::NAN,
            });
            last = Some((k, *raw));
        }
        values.resize(n, f64::NAN);
        values
    }

    // PERF_COUNTER_COUNTER, PERF_100NSEC_TIMER, PERF_AVERAGE_TIMER, PERF_AVERAGE_BULK,
    // PERF_COUNTER_RAWCOUNT, PERF_100NSEC_MULTI_TIMER, PERF_RAW_FRACTION, PERF_ELAPSED_TIME (winperf.h).
    const TYPES: [u32; 8] = [
        0x1041_0400,
        0x2051_0500,
        0x3002_0400,
        0x4002_0500,
        0x0001_0000,
        0x2251_0500,
        0x2002_0400,
        0x3020_0500,
    ];

    fn raw() -> impl Strategy<Value = Option<RawSample>> {
        // Small values, so that equal and decreasing samples (zero and negative intervals) are common.
        prop::option::weighted(
            0.9,
            (
                0u64..6,
                0u64..4,
                prop::option::weighted(0.95, 0u64..3),
                prop::option::weighted(0.9, 0u64..3),
            )
                .prop_map(|(value, second, frequency, multi)| RawSample {
                    value,
                    second: Some(second),
                    frequency,
                    multi,
                }),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn block_cooking_gives_what_cook_gives_per_value(
            t in 0..TYPES.len(),
            // Step 0: a duplicate of the last sample; 1: the next; 2..: samples without this series.
            steps in prop::collection::vec((0usize..4, raw()), 0..400),
        ) {
            let mut k = 0usize;
            let samples: Vec<(usize, Option<RawSample>)> = steps
                .iter()
                .enumerate()
                .map(|(i, (step, r))| {
                    if i > 0 {
                        k += step;
                    }
                    (k, *r)
                })
                .collect();
            let n = k + 3;
            let mut col = Column::new((0, 0, 0), String::new(), TYPES[t], 0, 0);
            for (k, r) in &samples {
                col.put(*k, *r);
            }
            let got = col.finish(n);
            let want = per_value(TYPES[t], &samples, n);
            prop_assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                prop_assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()), "value {}: {} != {}", i, g, w);
            }
        }
    }
}
