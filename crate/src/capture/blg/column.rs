//! One series of a .blg: each raw sample cooked as it arrives against the one before it (kept as its
//! N and D only), so no raw samples are held and none is copied again. Values are the same, value for
//! value, as one `cook()` per value and as `series::cook_series` over the whole column: the same
//! `compute` and `apply_options`, a gap where the log has no value, a two-sample type cooked against the
//! sample just before, and an average over an interval with no operations shown as 0, as Perfmon and
//! relog show it ("Calculating Counter Values"; `docs/blg.md`). A series asked for
//! (`OpenOptions::keep_raw`) also keeps every raw sample as given, so its points can be explained.

use crate::capture::RawColumn;
use crate::cook::{apply_options, compute, CookOptions, Pair, RawSample, Status};
use crate::types::{is_dword_size, CounterType, Display, Formula};

pub(super) struct Column {
    hot: Hot,
    /// Sort key: definition, counter within the object, order the instance was first seen.
    pub order: (usize, usize, usize),
    pub path: String,
    pub scale: i32,
    /// Every raw sample as given (absent where the log has no value), for a series that keeps them: one
    /// record per sample while reading (one stream of writes per series, not five), made columnar at the
    /// end. `None` for a series that keeps none (`Hot::keep` says which, so `put` reads one cache line).
    raw: Option<Vec<Kept>>,
    /// A catalogue pass (`count`): one more than the last sample given (0: none), whether it had a
    /// value, and the samples with a value.
    counted: (usize, bool, usize),
}

/// What cooking a value reads and writes, in two adjacent cache lines: a sample of a whole-object log
/// touches thousands of series in turn, and each touch is a likely cache miss (measured natively: the
/// loads of a series' state and the store of its value were most of the loop's time). The newest values
/// wait in `stage`, beside the state, and reach `values` eight at a time (one whole line written at
/// once, where a store per sample into each series' own vector missed the cache again and again).
#[repr(C, align(64))]
struct Hot {
    /// Cooked values, one per sample given so far (gaps NaN), but for the `staged` newest.
    values: Vec<f64>,
    /// One more than the index of the last sample with a value (`NONE`: none), and its N and D (the
    /// older sample of the next value).
    next: usize,
    n0: u64,
    d0: u64,
    type_value: u32,
    cooking: Cooking,
    /// Whether `Column::raw` keeps this series' raw samples.
    keep: bool,
    /// How many of `stage` hold values not yet in `values` (0 to `STAGE - 1`).
    staged: u8,
    /// The newest values, after those in `values`.
    stage: [f64; STAGE],
}

/// Values staged per series: one cache line of f64.
const STAGE: usize = 8;

/// `Hot::next` when no sample has a value to cook the next one against.
const NONE: usize = usize::MAX;

/// Bytes of one raw sample kept while reading (`Kept`), per sample of a series that keeps them.
pub(super) const RAW_RECORD: usize = size_of::<Kept>();

impl Hot {
    /// Values given so far, staged or not.
    #[inline(always)]
    fn len(&self) -> usize {
        self.values.len() + usize::from(self.staged)
    }

    #[inline(always)]
    fn push(&mut self, v: f64) {
        let s = usize::from(self.staged);
        self.stage[s % STAGE] = v;
        if s + 1 == STAGE {
            self.values.extend_from_slice(&self.stage);
            self.staged = 0;
        } else {
            self.staged += 1;
        }
    }

    /// Moves the staged values into `values`.
    fn flush(&mut self) {
        let s = usize::from(self.staged);
        self.values.extend_from_slice(&self.stage[..s]);
        self.staged = 0;
    }
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
                next: NONE,
                n0: 0,
                d0: 0,
                type_value,
                cooking: Cooking::new(CounterType::from_value(type_value)),
                keep: false,
                staged: 0,
                stage: [0.0; STAGE],
            },
            order,
            path,
            scale,
            raw: None,
            counted: (0, false, 0),
        }
    }

    /// Sample `k` in a catalogue pass: counted (when it has a value), never cooked or stored; a second
    /// value for the same sample is ignored, as `put` ignores it.
    pub fn count(&mut self, k: usize, present: bool) {
        let (next, _, n) = self.counted;
        if next > k {
            return;
        }
        self.counted = (k + 1, present, n + usize::from(present));
    }

    /// Takes sample `k` back from the count (`retract` for a catalogue pass).
    pub fn uncount(&mut self, k: usize) {
        let (next, present, n) = self.counted;
        if next == k + 1 {
            self.counted = (k, false, n - usize::from(present));
        }
    }

    /// The samples counted with a value (`count`).
    pub fn counted(&self) -> usize {
        self.counted.2
    }

    /// Keeps every raw sample from now on (called before the first `put`).
    pub fn keep_raw(&mut self) {
        self.raw = Some(Vec::with_capacity(self.hot.values.capacity()));
        self.hot.keep = true;
    }

    pub fn type_value(&self) -> u32 {
        self.hot.type_value
    }

    /// Room for `samples` values in all (and raw records, for a series that keeps them).
    pub fn reserve_to(&mut self, samples: usize) {
        let extra = samples.saturating_sub(self.hot.values.len());
        self.reserve(extra);
    }

    /// Takes sample `k`, the last one given to the log, back (a sample not read: `OpenOptions::from_ms`,
    /// `to_ms`, `every`), keeping what the next sample, then also sample `k`, is cooked against: this
    /// sample's N and D when it had a value, none when it had none or this series was not in it.
    pub fn retract(&mut self, k: usize) {
        let hot = &mut self.hot;
        if hot.len() > k {
            if hot.staged > 0 {
                hot.staged -= 1;
            } else {
                hot.values.truncate(k);
            }
            hot.next = if hot.next == k + 1 { k } else { NONE };
            if let Some(raw) = &mut self.raw {
                raw.truncate(k);
            }
        } else if hot.next == k {
            // Not in sample k: the next sample has no sample just before it with this series.
            hot.next = NONE;
        }
    }

    pub fn reserve(&mut self, extra: usize) {
        self.hot.values.reserve_exact(extra);
        if let Some(raw) = &mut self.raw {
            raw.reserve_exact(extra);
        }
    }

    /// Sample `k` of this series: its raw sample, or `None` where the log has no value.
    #[inline(always)]
    pub fn put(&mut self, k: usize, raw: Option<RawSample>) {
        let hot = &mut self.hot;
        let len = hot.len();
        if len > k {
            return; // a second value for the same sample (a duplicate key): the first stands
        }
        if hot.keep {
            self.raw_sample(k, raw.as_ref());
        }
        let hot = &mut self.hot;
        if len < k {
            hot.flush();
            hot.values.resize(k, f64::NAN); // samples without this series
        }
        let Some(raw) = raw else {
            hot.push(f64::NAN);
            hot.next = NONE;
            return;
        };
        // The .blg paths always give D (a PDH_RAW_COUNTER's SecondValue, or the object's time or base).
        let d1 = raw.second.unwrap_or(0);
        let older = (hot.next == k).then_some((hot.n0, hot.d0));
        (hot.next, hot.n0, hot.d0) = (k + 1, raw.value, d1);
        let v = match hot.cooking.formula {
            Some(f) => hot.cooking.value(f, older, &raw, d1),
            None => f64::NAN,
        };
        hot.push(v);
    }

    /// Sample `k` kept as given (out of line: most series keep none).
    #[cold]
    #[inline(never)]
    fn raw_sample(&mut self, k: usize, raw: Option<&RawSample>) {
        if let Some(kept) = &mut self.raw {
            if kept.len() < k {
                kept.resize(k, Kept::default());
            }
            kept.push(raw.map_or_else(Kept::default, Kept::of));
        }
    }

    /// The first `samples` values (every sample given so far), taken out, and their raw samples for a
    /// series that keeps them; the next sample given is then sample 0, cooked against the last one
    /// taken (`BlgReader::take_rows`).
    pub fn take(&mut self, samples: usize) -> (Vec<f64>, Option<RawColumn>) {
        let raw = self.raw.as_mut().map(|kept| {
            let raw = raw_column(kept, samples);
            kept.clear();
            raw
        });
        let hot = &mut self.hot;
        hot.flush();
        let mut values = hot.values.clone();
        values.resize(samples, f64::NAN);
        hot.values.clear();
        // `next` is one more than the last sample with a value: the last one taken keeps its N and D
        // for the next value (as sample 0 follows it); any earlier one leaves the next without one.
        hot.next = if hot.next == samples { 0 } else { NONE };
        (values, raw)
    }

    /// The raw samples kept (for a series that keeps them), `samples` long, with the options the values
    /// are cooked with.
    pub fn take_raw(&mut self, samples: usize) -> Option<RawColumn> {
        let kept = self.raw.take()?;
        Some(raw_column(&kept, samples))
    }

    /// The cooked series, `samples` long.
    pub fn finish(mut self, samples: usize) -> Vec<f64> {
        self.hot.flush();
        self.hot.values.resize(samples, f64::NAN);
        self.hot.values
    }
}

/// The first `samples` raw samples kept, columnar (absent ones past the end of `kept`).
fn raw_column(kept: &[Kept], samples: usize) -> RawColumn {
    let mut raw = RawColumn {
        present: Vec::with_capacity(samples),
        ..RawColumn::default()
    };
    let absent = Kept::default();
    for s in kept.iter().chain(std::iter::repeat(&absent)).take(samples) {
        raw.value.push(s.fields[0]);
        raw.second.push(s.fields[1]);
        raw.frequency.push(s.fields[2]);
        raw.multi.push(s.fields[3]);
        raw.present.push(s.present);
    }
    raw
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

    #[test]
    fn the_hot_state_is_two_cache_lines_with_the_keep_flag() {
        // The state, then the stage: 64 bytes + 8 values of 8 bytes.
        assert_eq!(size_of::<Hot>(), 128);
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
