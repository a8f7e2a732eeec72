//! Time slices and per-slice statistics, PAL's way: the analysed range cut into equal slices ("auto" =
//! duration / 30, PAL's AUTO), and per series and slice the min, avg and max of the values that exist
//! (NaN skipped), with the slice trend per hour: the least-squares slope of the slice averages from the
//! first slice up to this one, in units per hour (fitted by `series::TrendFit`, as the samples' trend is).
//!
//! Columnar and in one pass: the capture's timestamps are cut once into one sample-index range per slice;
//! each series is then read once, a tight loop over each range's values with four accumulators, writing
//! into columns (one `Vec<f64>` per statistic) allocated once per series.

use super::error::AnalysisError;
use crate::series::{TrendFit, MS_PER_HOUR};
use serde::{Deserialize, Serialize};

/// Slices beyond this would be a slice length far below the sampling interval of any log.
pub const MAX_SLICES: usize = 100_000;

/// The slice length asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SliceLength {
    /// Duration / 30 (PAL's AUTO).
    Auto,
    Ms(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Slice {
    /// ms since the epoch, UTC; the slice holds samples with `start <= t < end` (the last one also `t == end`).
    pub start: f64,
    pub end: f64,
}

/// The slices of an analysis and the sample range of each.
#[derive(Clone, Debug, PartialEq)]
pub struct Slicing {
    pub slices: Vec<Slice>,
    /// Per slice: the capture's sample indices `[first, end)` it holds.
    pub ranges: Vec<(usize, usize)>,
}

impl Slicing {
    /// Cuts `[from, to]` (default: the capture's first and last timestamps) into slices over `timestamps`,
    /// which must be in order (every reader delivers them so).
    pub fn new(
        timestamps: &[f64],
        length: SliceLength,
        from: Option<f64>,
        to: Option<f64>,
    ) -> Result<Slicing, AnalysisError> {
        let bad = |m: String| Err(AnalysisError::Options(m));
        if timestamps
            .windows(2)
            .any(|w| w[0].is_nan() || w[1].is_nan() || w[0] > w[1])
        {
            return bad("the capture's timestamps are not in order".into());
        }
        let (Some(&first), Some(&last)) = (timestamps.first(), timestamps.last()) else {
            return Ok(Slicing {
                slices: Vec::new(),
                ranges: Vec::new(),
            });
        };
        let from = from.unwrap_or(first);
        let to = to.unwrap_or(last);
        if !from.is_finite() || !to.is_finite() || from > to {
            return bad(format!(
                "expected from <= to, both finite; found from {from}, to {to}"
            ));
        }
        let duration = to - from;
        let (count, len) = match length {
            SliceLength::Auto if duration > 0.0 => (30, duration / 30.0),
            SliceLength::Auto => (1, 0.0),
            SliceLength::Ms(ms) if !(ms.is_finite() && ms > 0.0) => {
                return bad(format!("expected a slice length in ms above 0, found {ms}"))
            }
            SliceLength::Ms(ms) => {
                let n = (duration / ms).ceil().max(1.0);
                if n > MAX_SLICES as f64 {
                    return bad(format!(
                        "a slice of {ms} ms cuts the range into {n} slices; at most {MAX_SLICES} are allowed"
                    ));
                }
                (n as usize, ms)
            }
        };
        let slices: Vec<Slice> = (0..count)
            .map(|i| Slice {
                start: from + i as f64 * len,
                end: if i + 1 == count {
                    to.max(from + (i + 1) as f64 * len)
                } else {
                    from + (i + 1) as f64 * len
                },
            })
            .collect();
        // One walk over the timestamps: sample k belongs to the slice whose [start, end) holds it.
        let mut ranges = Vec::with_capacity(count);
        let mut k = timestamps.partition_point(|&t| t < from);
        for (i, s) in slices.iter().enumerate() {
            let begin = k;
            let last = i + 1 == count;
            while k < timestamps.len() && (timestamps[k] < s.end || (last && timestamps[k] <= to)) {
                k += 1;
            }
            ranges.push((begin, k));
        }
        Ok(Slicing { slices, ranges })
    }

    pub fn len(&self) -> usize {
        self.slices.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slices.is_empty()
    }
}

/// One series' statistics per slice, as columns. A slice with no value has `count` 0 and NaN elsewhere.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SliceStats {
    pub min: Vec<f64>,
    pub avg: Vec<f64>,
    pub max: Vec<f64>,
    pub count: Vec<u32>,
    /// Least-squares slope of the averages of slices `0..=i` (those with values), units per hour; NaN
    /// until two slices have values.
    pub trend: Vec<f64>,
}

impl SliceStats {
    /// The statistics of `values` (aligned with the timestamps `slicing` was cut from).
    pub fn compute(values: &[f64], slicing: &Slicing) -> SliceStats {
        let n = slicing.len();
        let mut out = SliceStats {
            min: Vec::with_capacity(n),
            avg: Vec::with_capacity(n),
            max: Vec::with_capacity(n),
            count: Vec::with_capacity(n),
            trend: Vec::with_capacity(n),
        };
        for &(a, b) in &slicing.ranges {
            let part = values.get(a..b).unwrap_or(&[]);
            let (min, max, sum, count) = slice_min_max_sum(part);
            if count == 0 {
                out.min.push(f64::NAN);
                out.avg.push(f64::NAN);
                out.max.push(f64::NAN);
            } else {
                out.min.push(min);
                out.avg.push(sum / count as f64);
                out.max.push(max);
            }
            out.count.push(count);
        }
        out.trend = trend(&out.avg, &slicing.slices);
        out
    }
}

/// min, max, sum and count of the non-NaN values: the inner loop. Four independent lanes over chunks of
/// four, so the compiler drops the bounds checks and the additions do not wait on one another.
///
/// A function of its own, on purpose (`inline(never)` for rustc; binaryen's wasm-opt inlines a function
/// with one caller whatever its size, and the report's chart is its second): V8 runs wasm first in its
/// baseline tier and compiles a function with its optimizing tier once it is hot, with no on-stack
/// replacement. Inlined into `analyze`, this loop sat in one huge function that reached the optimizing
/// tier late (on a loaded machine, after the benchmark's runs); as a small function called per slice it
/// is optimized after a few calls.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(never)]
pub fn slice_min_max_sum(values: &[f64]) -> (f64, f64, f64, u32) {
    let mut min = [f64::INFINITY; 4];
    let mut max = [f64::NEG_INFINITY; 4];
    let mut sum = [0.0f64; 4];
    let mut count = [0u32; 4];
    let chunks = values.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for l in 0..4 {
            let v = c[l];
            // NaN fails every comparison, so min/max pass it by; `is_nan` compiles to one compare.
            let present = !v.is_nan();
            min[l] = if v < min[l] { v } else { min[l] };
            max[l] = if v > max[l] { v } else { max[l] };
            sum[l] += if present { v } else { 0.0 };
            count[l] += present as u32;
        }
    }
    for &v in rest {
        let present = !v.is_nan();
        min[0] = if v < min[0] { v } else { min[0] };
        max[0] = if v > max[0] { v } else { max[0] };
        sum[0] += if present { v } else { 0.0 };
        count[0] += present as u32;
    }
    (
        min[0].min(min[1]).min(min[2].min(min[3])),
        max[0].max(max[1]).max(max[2].max(max[3])),
        (sum[0] + sum[1]) + (sum[2] + sum[3]),
        count[0] + count[1] + count[2] + count[3],
    )
}

/// The same loop in wasm SIMD (simd128, which the package is built with): two f64x2 lanes of each
/// accumulator. `pmin`/`pmax` (`v < min ? v : min`) pass NaN by as the scalar comparisons do; the
/// `v == v` mask zeroes NaN out of the sum and, as -1 per lane, counts the values present.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(never)]
pub fn slice_min_max_sum(values: &[f64]) -> (f64, f64, f64, u32) {
    use core::arch::wasm32::*;
    let (mut min0, mut max0) = (f64x2_splat(f64::INFINITY), f64x2_splat(f64::NEG_INFINITY));
    let (mut min1, mut max1) = (min0, max0);
    let (mut sum0, mut sum1) = (f64x2_splat(0.0), f64x2_splat(0.0));
    let (mut n0, mut n1) = (i64x2_splat(0), i64x2_splat(0));
    let chunks = values.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        let a = f64x2(c[0], c[1]);
        let b = f64x2(c[2], c[3]);
        min0 = f64x2_pmin(min0, a);
        min1 = f64x2_pmin(min1, b);
        max0 = f64x2_pmax(max0, a);
        max1 = f64x2_pmax(max1, b);
        let (ma, mb) = (f64x2_eq(a, a), f64x2_eq(b, b));
        sum0 = f64x2_add(sum0, v128_and(a, ma));
        sum1 = f64x2_add(sum1, v128_and(b, mb));
        n0 = i64x2_sub(n0, ma);
        n1 = i64x2_sub(n1, mb);
    }
    let (mut min, mut max) = (
        f64x2_extract_lane::<0>(min0)
            .min(f64x2_extract_lane::<1>(min0))
            .min(f64x2_extract_lane::<0>(min1).min(f64x2_extract_lane::<1>(min1))),
        f64x2_extract_lane::<0>(max0)
            .max(f64x2_extract_lane::<1>(max0))
            .max(f64x2_extract_lane::<0>(max1).max(f64x2_extract_lane::<1>(max1))),
    );
    let mut sum = (f64x2_extract_lane::<0>(sum0) + f64x2_extract_lane::<1>(sum0))
        + (f64x2_extract_lane::<0>(sum1) + f64x2_extract_lane::<1>(sum1));
    let mut count = (i64x2_extract_lane::<0>(n0)
        + i64x2_extract_lane::<1>(n0)
        + i64x2_extract_lane::<0>(n1)
        + i64x2_extract_lane::<1>(n1)) as u32;
    for &v in rest {
        if !v.is_nan() {
            min = min.min(v);
            max = max.max(v);
            sum += v;
            count += 1;
        }
    }
    (min, max, sum, count)
}

/// The slice trend per hour (PAL's trend): after each slice `i`, the least-squares slope of the slice
/// averages against the slices' middles in hours over slices `0..=i`, slices without an average skipped;
/// one [`TrendFit`] run along the slices. Not the trend of the samples of a range
/// ([`crate::series::samples_trend_per_hour`]): this one weighs each slice alike and looks only back.
pub fn trend(avg: &[f64], slices: &[Slice]) -> Vec<f64> {
    let origin = slices.first().map_or(0.0, |s| s.start);
    let mut fit = TrendFit::default();
    avg.iter()
        .zip(slices)
        .map(|(&y, s)| {
            fit.push(((s.start + s.end) / 2.0 - origin) / MS_PER_HOUR, y);
            fit.slope()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MIN: f64 = 60_000.0;

    #[test]
    fn auto_is_thirty_slices_and_every_sample_lands_once() {
        // 0..=60 minutes at one sample a minute: 61 samples; auto = 60 min / 30 = 2 min slices.
        let t: Vec<f64> = (0..=60).map(|i| i as f64 * MIN).collect();
        let s = Slicing::new(&t, SliceLength::Auto, None, None).unwrap();
        assert_eq!(s.len(), 30);
        assert_eq!(
            s.slices[1],
            Slice {
                start: 2.0 * MIN,
                end: 4.0 * MIN
            }
        );
        // Slice 0 holds minutes 0 and 1; the last holds 58, 59 and 60 (the end is inclusive for it).
        assert_eq!(s.ranges[0], (0, 2));
        assert_eq!(s.ranges[29], (58, 61));
    }

    #[test]
    fn slice_statistics_by_hand() {
        // Samples at 0, 1, 2, 3, 4, 5 minutes; slices of 2 minutes: [0,2) [2,4) [4,5].
        let t: Vec<f64> = (0..6).map(|i| i as f64 * MIN).collect();
        let s = Slicing::new(&t, SliceLength::Ms(2.0 * MIN), None, None).unwrap();
        assert_eq!(s.len(), 3); // ceil(5 / 2) = 3
        let v = [10.0, 30.0, f64::NAN, f64::NAN, 5.0, 7.0];
        let st = SliceStats::compute(&v, &s);
        // Slice 0: {10, 30}: min 10, avg 20, max 30. Slice 1: no value. Slice 2: {5, 7}: 5, 6, 7.
        assert_eq!(
            (st.min[0], st.avg[0], st.max[0], st.count[0]),
            (10.0, 20.0, 30.0, 2)
        );
        assert!(st.min[1].is_nan() && st.avg[1].is_nan() && st.count[1] == 0);
        assert_eq!(
            (st.min[2], st.avg[2], st.max[2], st.count[2]),
            (5.0, 6.0, 7.0, 2)
        );
    }

    #[test]
    fn the_inner_loop_covers_every_lane_and_the_rest() {
        // 9 values: two chunks of four and one left over; NaN in lanes 1 and 3.
        let v = [4.0, f64::NAN, 2.0, 8.0, 1.0, 5.0, 3.0, f64::NAN, 9.0];
        // Present: 4 2 8 1 5 3 9 -> 7 values, sum 32, min 1, max 9.
        assert_eq!(slice_min_max_sum(&v), (1.0, 9.0, 32.0, 7));
        let (min, max, sum, n) = slice_min_max_sum(&[]);
        assert_eq!(
            (min, max, sum, n),
            (f64::INFINITY, f64::NEG_INFINITY, 0.0, 0)
        );
    }

    #[test]
    fn trend_is_the_least_squares_slope_per_hour() {
        // Slices of one hour; middles at 0.5, 1.5, 2.5 h. Averages 10, 14, 15.
        let h = MS_PER_HOUR;
        let sl: Vec<Slice> = (0..3)
            .map(|i| Slice {
                start: i as f64 * h,
                end: (i + 1) as f64 * h,
            })
            .collect();
        let tr = trend(&[10.0, 14.0, 15.0], &sl);
        // One point: no slope.
        assert!(tr[0].is_nan());
        // Two points: (14 - 10) / 1 h = 4 per hour.
        assert!((tr[1] - 4.0).abs() < 1e-12);
        // Three: x = .5 1.5 2.5 (mean 1.5), y = 10 14 15 (mean 13);
        // Sxy = (-1)(-3) + 0*1 + 1*2 = 5; Sxx = 1 + 0 + 1 = 2; slope = 2.5 per hour.
        assert!((tr[2] - 2.5).abs() < 1e-12);
        // A slice without an average is skipped: x = .5 and 2.5, y = 10, 15 -> 5 / 2 = 2.5 per hour.
        let tr = trend(&[10.0, f64::NAN, 15.0], &sl);
        assert!(tr[1].is_nan());
        assert!((tr[2] - 2.5).abs() < 1e-12);
    }

    #[test]
    fn bad_options() {
        let t = [0.0, 1000.0];
        assert!(Slicing::new(&t, SliceLength::Ms(0.0), None, None).is_err());
        assert!(Slicing::new(&t, SliceLength::Ms(f64::NAN), None, None).is_err());
        assert!(Slicing::new(&t, SliceLength::Ms(0.001), None, None).is_err());
        assert!(Slicing::new(&t, SliceLength::Auto, Some(5.0), Some(1.0)).is_err());
        assert!(Slicing::new(&[2.0, 1.0], SliceLength::Auto, None, None).is_err());
        // One sample: one slice.
        let s = Slicing::new(&[7.0], SliceLength::Auto, None, None).unwrap();
        assert_eq!((s.len(), s.ranges[0]), (1, (0, 1)));
        // from/to keep samples outside out: 0 and 1000 ms with from = 500: only 1000 is in.
        let s = Slicing::new(&t, SliceLength::Auto, Some(500.0), None).unwrap();
        assert_eq!(s.ranges.iter().map(|r| r.1 - r.0).sum::<usize>(), 1);
    }

    proptest! {
        #[test]
        fn counts_sum_to_the_values_present_and_stats_are_ordered(
            values in prop::collection::vec(prop_oneof![Just(f64::NAN), -1e6f64..1e6], 1..300),
            slice in 1.0f64..50.0,
        ) {
            let t: Vec<f64> = (0..values.len()).map(|i| i as f64 * 3.0).collect();
            let s = Slicing::new(&t, SliceLength::Ms(slice), None, None).unwrap();
            // Every sample in exactly one slice.
            prop_assert_eq!(s.ranges.iter().map(|r| r.1 - r.0).sum::<usize>(), values.len());
            let st = SliceStats::compute(&values, &s);
            let present = values.iter().filter(|v| !v.is_nan()).count();
            prop_assert_eq!(st.count.iter().map(|&c| c as usize).sum::<usize>(), present);
            for i in 0..s.len() {
                if st.count[i] > 0 {
                    prop_assert!(st.min[i] <= st.avg[i] + 1e-6 && st.avg[i] <= st.max[i] + 1e-6);
                }
            }
        }
    }
}
