//! One series of a .blg: its raw samples gathered per field and cooked a block at a time by
//! `series::cook_series` (one loop per formula over whole columns, as `cookSeries` does), rather than
//! one generic `cook()` per value. The result is the same value for value: a gap where the log has no
//! value, a two-sample type cooked against the sample just before, and an average over an interval with
//! no operations shown as 0, as Perfmon and relog show it ("Calculating Counter Values"; `docs/blg.md`).
//! A series asked for (`OpenOptions::keep_raw`) also keeps every raw sample as given, aside from the
//! cooking, so any of its points can be explained with its numbers.

use crate::capture::RawColumn;
use crate::cook::{compute, CookOptions, Pair, RawSample, Status};
use crate::series::{cook_series, Frequency, RawColumns};
use crate::types::{CounterType, Formula};

/// Raw samples per block: enough for the loop to pay off; little memory held per series (4 KiB at most).
const BLOCK: usize = 128;

pub(super) struct Column {
    /// Sort key: definition, counter within the object, order the instance was first seen.
    pub order: (usize, usize, usize),
    pub path: String,
    pub type_value: u32,
    pub scale: i32,
    ty: CounterType,
    two_samples: bool,
    /// AVERAGE_TIMER or AVERAGE_BULK.
    average: bool,
    /// Cooked values, one per sample up to the pending block.
    values: Vec<f64>,
    /// Samples accounted for: cooked values and pending raw samples (a carried one not counted).
    len: usize,
    /// The pending raw samples, by field. With `carried`, the first is the last sample of the block
    /// before (already cooked), kept as the older sample of the next value.
    value: Vec<u64>,
    second: Vec<u64>,
    frequency: Vec<u64>,
    multi: Vec<u64>,
    carried: bool,
    /// Whether the pending samples have a frequency and a multi count (all of them alike).
    shape: (bool, bool),
    /// Every raw sample as given (absent where the log has no value), for a series that keeps them: one
    /// record per sample while reading (one stream of writes per series, not five), made columnar at the
    /// end. `None` for a series that keeps none (allocates nothing).
    raw: Option<Vec<Kept>>,
}

impl Column {
    pub fn new(
        order: (usize, usize, usize),
        path: String,
        type_value: u32,
        scale: i32,
        capacity: usize,
    ) -> Column {
        let ty = CounterType::from_value(type_value);
        Column {
            order,
            path,
            type_value,
            scale,
            ty,
            two_samples: ty.samples() == 2,
            average: matches!(
                ty.formula(),
                Some(Formula::AverageTimer | Formula::AverageBulk)
            ),
            values: Vec::with_capacity(capacity),
            len: 0,
            value: Vec::new(),
            second: Vec::new(),
            frequency: Vec::new(),
            multi: Vec::new(),
            carried: false,
            shape: (false, false),
            raw: None,
        }
    }

    /// Keeps every raw sample from now on (called before the first `put`).
    pub fn keep_raw(&mut self) {
        self.raw = Some(Vec::with_capacity(self.values.capacity()));
    }

    pub fn reserve(&mut self, extra: usize) {
        self.values.reserve_exact(extra);
        if let Some(raw) = &mut self.raw {
            raw.reserve_exact(extra);
        }
    }

    /// Sample `k` of this series: its raw sample, or `None` where the log has no value.
    pub fn put(&mut self, k: usize, raw: Option<RawSample>) {
        if self.len > k {
            return; // a second value for the same sample (a duplicate key): the first stands
        }
        if self.raw.is_some() {
            self.keep_sample(k, raw.as_ref());
        }
        // A gap (samples without this series, or no value now) ends the run of consecutive samples.
        if self.len < k || raw.is_none() {
            self.flush();
            self.drop_pending();
            self.values.resize(k, f64::NAN);
            self.len = k;
        }
        let Some(raw) = raw else {
            self.values.push(f64::NAN);
            self.len = k + 1;
            return;
        };
        let shape = (raw.frequency.is_some(), raw.multi.is_some());
        if shape != self.shape && !self.value.is_empty() {
            // Other fields than the pending samples' (a hostile log): those are cooked first. The older
            // sample's F and M are never read (`Pair` takes them from the newer), so the carried one
            // takes placeholders in the new shape.
            self.flush();
            if self.carried {
                self.frequency.clear();
                self.multi.clear();
                self.frequency.extend(shape.0.then_some(0));
                self.multi.extend(shape.1.then_some(0));
            }
        }
        self.shape = shape;
        self.value.push(raw.value);
        // The .blg paths always give D (a PDH_RAW_COUNTER's SecondValue, or the object's time or base).
        self.second.push(raw.second.unwrap_or(0));
        if let Some(f) = raw.frequency {
            self.frequency.push(f);
        }
        if let Some(m) = raw.multi {
            self.multi.push(m);
        }
        self.len = k + 1;
        if self.value.len() >= BLOCK {
            self.flush();
        }
    }

    /// Sample `k` kept as given (out of line: most series keep none, and `put` stays as small as it was).
    #[cold]
    #[inline(never)]
    fn keep_sample(&mut self, k: usize, raw: Option<&RawSample>) {
        if let Some(kept) = &mut self.raw {
            if kept.len() < k {
                kept.resize(k, Kept::default());
            }
            kept.push(raw.map_or_else(Kept::default, Kept::of));
        }
    }

    fn drop_pending(&mut self) {
        self.value.clear();
        self.second.clear();
        self.frequency.clear();
        self.multi.clear();
        self.carried = false;
    }

    /// Cooks the pending raw samples into `values`; a two-sample type keeps the last one as the older
    /// sample of the next block.
    fn flush(&mut self) {
        let n = self.value.len();
        if n == usize::from(self.carried) {
            return;
        }
        let cols = RawColumns {
            value: &self.value,
            second: Some(&self.second),
            frequency: self.shape.0.then_some(Frequency::Column(&self.frequency)),
            multi: self.shape.1.then_some(&self.multi[..]),
        };
        let opts = CookOptions::default();
        let mut out = Vec::with_capacity(n);
        match cook_series(self.ty, &cols, &opts, &mut out) {
            Ok(counts) if self.average && counts.get(Status::ZeroDenominator) > 0 => {
                // Which NaNs are zero denominators: worked out again for those values only.
                if let Some(formula) = self.ty.formula() {
                    for (i, v) in out.iter_mut().enumerate().skip(1) {
                        if !v.is_nan() {
                            continue;
                        }
                        let pair = Pair {
                            n0: self.value[i - 1],
                            n1: self.value[i],
                            d0: self.second[i - 1],
                            d1: self.second[i],
                            f: self.frequency.get(i).copied().unwrap_or(0),
                            m1: self.multi.get(i).copied().unwrap_or(0),
                        };
                        if compute(formula, &pair, false) == Err(Status::ZeroDenominator) {
                            *v = 0.0;
                        }
                    }
                }
            }
            Ok(_) => {}
            // A field the type needs is missing from every pending sample: no values, as `cook()`.
            Err(_) => {
                out.clear();
                out.resize(n, f64::NAN);
            }
        }
        self.values
            .extend_from_slice(&out[usize::from(self.carried)..]);
        if self.two_samples {
            let keep = |v: &mut Vec<u64>| {
                if let Some(&last) = v.last() {
                    v.clear();
                    v.push(last);
                }
            };
            keep(&mut self.value);
            keep(&mut self.second);
            keep(&mut self.frequency);
            keep(&mut self.multi);
            self.carried = true;
        } else {
            self.drop_pending();
        }
    }

    /// The raw samples kept (for a series that keeps them), `samples` long, with the options the values
    /// are cooked with.
    pub fn take_raw(&mut self, samples: usize) -> Option<RawColumn> {
        let mut kept = self.raw.take()?;
        kept.resize(samples, Kept::default());
        let mut raw = RawColumn {
            present: Vec::with_capacity(samples),
            ..RawColumn::default()
        };
        for s in &kept {
            raw.value.push(s.fields[0]);
            raw.second.push(s.fields[1]);
            raw.frequency.push(s.fields[2]);
            raw.multi.push(s.fields[3]);
            raw.present.push(s.present);
        }
        Some(raw)
    }

    /// The cooked series, `samples` long.
    pub fn finish(mut self, samples: usize) -> Vec<f64> {
        self.flush();
        self.values.resize(samples, f64::NAN);
        self.values
    }
}

/// One raw sample kept: N, D, F, M (0 where absent) and which are present (`RawColumn::present`'s bits).
#[derive(Clone, Copy, Default)]
struct Kept {
    fields: [u64; 4],
    present: u8,
}

impl Kept {
    fn of(s: &RawSample) -> Kept {
        let bit = |o: Option<u64>, b: u8| if o.is_some() { b } else { 0 };
        Kept {
            fields: [
                s.value,
                s.second.unwrap_or(0),
                s.frequency.unwrap_or(0),
                s.multi.unwrap_or(0),
            ],
            present: 1 | bit(s.second, 2) | bit(s.frequency, 4) | bit(s.multi, 8),
        }
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
            keep in any::<bool>(),
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
            if keep {
                col.keep_raw();
            }
            for (k, r) in &samples {
                col.put(*k, *r);
            }
            let raw = col.take_raw(n);
            let got = col.finish(n);
            // Keeping the raw samples changes no value: both are compared with the same per-value cooking.
            let want = per_value(TYPES[t], &samples, n);
            prop_assert_eq!(raw.is_some(), keep);
            if let Some(raw) = raw {
                // The raw samples kept: the first one given for each sample, none where none was given.
                let mut kept: Vec<Option<RawSample>> = vec![None; n];
                let mut given = vec![false; n];
                for (k, r) in &samples {
                    if !std::mem::replace(&mut given[*k], true) {
                        kept[*k] = *r;
                    }
                }
                prop_assert_eq!(raw.present.len(), n);
                prop_assert_eq!(raw.value.len(), n);
                prop_assert_eq!(&raw.options, &CookOptions::default());
                for (k, r) in kept.iter().enumerate() {
                    prop_assert_eq!(raw.get(k), *r, "raw sample {}", k);
                }
            }
            prop_assert_eq!(got.len(), want.len());
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                prop_assert!(g.to_bits() == w.to_bits() || (g.is_nan() && w.is_nan()), "value {}: {} != {}", i, g, w);
            }
        }
    }
}
