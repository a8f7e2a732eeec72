//! Episodes: the stretches where a rule's condition holds for most of a window of samples, so that the
//! same trouble is the same episode whether a log was written every second or every minute, a short dip
//! does not split it, and a spike or a few seconds never make one (`docs/analysis.md`, "Episodes").
//!
//! At each sample the window is the samples of the last `window` seconds, `t >= t_k - window` (at least
//! `samples` of them); it is judged once the log has run for the whole window (a sample before it, or
//! the log's first at its start, within half a sample interval). It holds when most of it is past the threshold: more than `share` of
//! its samples (default one half), or its mean with at least a quarter of its samples. The held
//! windows' spans, merged where closer together than the window, trimmed to their first and last
//! sample that satisfies the comparison, are the episodes.
//!
//! A window's sum is kept running (added at its end, taken off at its start), so a mean is compared
//! with the error of a few additions, not of a fresh sum: values a threshold sits on to the last bit
//! may fall either side of it.

use super::pack::{EpisodeSpec, Operator};

/// A window whose mean is past the threshold also needs this share of its samples past it: a lone
/// spike can carry a mean, never a quarter of the samples.
const MEAN_MIN_SHARE: f64 = 0.25;

/// One episode of one series: indices into the values given (samples with a value).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Episode {
    /// The first and last sample that satisfy the comparison.
    pub first: usize,
    pub last: usize,
    /// The value furthest past the threshold.
    pub worst: f64,
    /// The mean of the samples with a value from `first` to `last`.
    pub mean: f64,
    /// The share (0..=1) of those samples that satisfy the comparison.
    pub share: f64,
    /// How many samples with a value it spans.
    pub samples: usize,
}

/// Whether `a` is further past `threshold` than `b` for `op` (for `ne`, further from it).
fn further(op: Operator, threshold: f64, a: f64, b: f64) -> bool {
    match op {
        Operator::Gt | Operator::Ge => a > b,
        Operator::Lt | Operator::Le => a < b,
        Operator::Eq => false,
        Operator::Ne => (a - threshold).abs() > (b - threshold).abs(),
    }
}

/// The episodes of `values` (at `times`, ms, ascending) for `op threshold` judged as `spec` says. NaN
/// values are missing samples: they neither hold nor break a window, and a window reaches back over
/// them to its `samples`.
///
/// One pass with two pointers and the window's running count, sum and holding count, nothing allocated
/// but the episodes: O(n) whatever the window (a sparse log's reach back to `samples` walks at most that
/// many more). A series with no sample past the threshold is one pass of comparisons.
#[inline(never)]
pub fn episodes(
    values: &[f64],
    times: &[f64],
    op: Operator,
    threshold: f64,
    spec: &EpisodeSpec,
) -> Vec<Episode> {
    let n = values.len().min(times.len());
    let values = &values[..n];
    // No sample past the threshold, no held window (each needs some).
    if !values.iter().any(|&v| op.holds(v, threshold)) {
        return Vec::new();
    }
    let window_ms = spec.window * 1000.0;
    let min_samples = spec.min_samples();
    let share = spec.share();
    let Some(first_valid) = values.iter().position(|v| !v.is_nan()) else {
        return Vec::new();
    };
    // The window [a..=k] (raw indices; NaN samples inside are skipped) and its running figures.
    let (mut a, mut count, mut sum, mut over) = (first_valid, 0usize, 0.0f64, 0usize);
    let mut prev_time = f64::NAN;
    // Merged spans of held windows, raw indices of their first and last sample.
    let mut spans: Vec<(usize, usize)> = Vec::new();
    for k in first_valid..n {
        let v = values[k];
        if v.is_nan() {
            continue;
        }
        let tk = times[k];
        count += 1;
        sum += v;
        over += usize::from(op.holds(v, threshold));
        // The samples of the last `window` seconds: t >= t_k - window.
        while a < k && (values[a].is_nan() || times[a] < tk - window_ms) {
            if !values[a].is_nan() {
                count -= 1;
                sum -= values[a];
                over -= usize::from(op.holds(values[a], threshold));
            }
            a += 1;
        }
        let half_step = if prev_time.is_nan() {
            0.0
        } else {
            (tk - prev_time) / 2.0
        };
        prev_time = tk;
        // At least `min_samples` of them, reaching back over a sparse log's or a gap's samples.
        let (mut start, mut c, mut s_, mut o) = (a, count, sum, over);
        let mut j = a;
        while c < min_samples && j > first_valid {
            j -= 1;
            if !values[j].is_nan() {
                start = j;
                c += 1;
                s_ += values[j];
                o += usize::from(op.holds(values[j], threshold));
            }
        }
        if c < min_samples {
            continue;
        }
        // Judged once the log has run for the whole window: a sample before it, or the log's first
        // at its start (within half a sample interval: clocks jitter by milliseconds).
        if start == first_valid && tk - times[first_valid] < window_ms - half_step {
            continue;
        }
        // The share first; the mean only for a window with a quarter past the threshold (most windows
        // of a calm stretch have none: no division).
        let holds = o as f64 > share * c as f64
            || (o as f64 >= MEAN_MIN_SHARE * c as f64 && op.holds(s_ / c as f64, threshold));
        if !holds {
            continue;
        }
        match spans.last_mut() {
            // Closer together than the window: one episode.
            Some(last) if times[start] - times[last.1] < window_ms => last.1 = k,
            _ => spans.push((start, k)),
        }
    }
    spans
        .into_iter()
        .filter_map(|(s, e)| {
            let holds = |k: &usize| op.holds(values[*k], threshold);
            let first = (s..=e).find(holds)?;
            let last = (s..=e).rev().find(holds)?;
            let (mut total, mut samples, mut over) = (0.0, 0usize, 0usize);
            let mut worst = values[first];
            for &v in &values[first..=last] {
                if v.is_nan() {
                    continue;
                }
                total += v;
                samples += 1;
                if op.holds(v, threshold) {
                    over += 1;
                    if further(op, threshold, v, worst) {
                        worst = v;
                    }
                }
            }
            Some(Episode {
                first,
                last,
                worst,
                mean: total / samples as f64,
                share: over as f64 / samples as f64,
                samples,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(window: f64, share: Option<f64>) -> EpisodeSpec {
        EpisodeSpec {
            window,
            share,
            samples: None,
        }
    }

    fn times(n: usize, step_s: f64) -> Vec<f64> {
        (0..n).map(|i| i as f64 * step_s * 1000.0).collect()
    }

    /// An hour at 92% whose every tenth sample dips to 55%, between calm half hours at 20%, at 1 s,
    /// 15 s and 60 s: one episode spanning the hour, whatever the interval.
    #[test]
    fn an_hour_with_dips_is_one_episode_at_every_interval() {
        for step in [1.0, 15.0, 60.0] {
            let per_hour = (3600.0 / step) as usize;
            let calm = per_hour / 2;
            let mut v = vec![20.0; calm];
            v.extend((0..per_hour).map(|i| if i % 10 == 9 { 55.0 } else { 92.0 }));
            v.extend(vec![20.0; calm]);
            let t = times(v.len(), step);
            let e = episodes(&v, &t, Operator::Gt, 80.0, &spec(900.0, None));
            assert_eq!(e.len(), 1, "step {step}");
            // From the hour's first sample to its last above 80 (the hour's last sample is a dip when
            // the count is a multiple of 10, so the last 92 is the one before it).
            assert_eq!(e[0].first, calm, "step {step}");
            assert_eq!(e[0].last, calm + per_hour - 2, "step {step}");
            // Mean over the episode: 9 of every 10 samples at 92 and 1 at 55, less the last dip:
            // (n - 1) samples with (n / 10 - 1) dips. At 60 s: 59 samples, 5 dips:
            // (54 * 92 + 5 * 55) / 59 = (4968 + 275) / 59 = 88.864...
            let n = per_hour - 1;
            let dips = per_hour / 10 - 1;
            let mean = ((n - dips) as f64 * 92.0 + dips as f64 * 55.0) / n as f64;
            assert!((e[0].mean - mean).abs() < 1e-9, "step {step}");
            assert_eq!(e[0].worst, 92.0);
            assert!((e[0].share - (n - dips) as f64 / n as f64).abs() < 1e-12);
        }
    }

    /// Real logs' clocks jitter (15.003 s, 14.998 s): the same hour with every time stamp off by up to
    /// 40 ms is the same episode at 1 s, 15 s and 60 s.
    #[test]
    fn jittered_time_stamps_give_the_same_episode() {
        for step in [1.0, 15.0, 60.0] {
            let per_hour = (3600.0 / step) as usize;
            let half = per_hour / 2;
            let mut v = vec![20.0; half];
            v.extend((0..per_hour).map(|i| if i % 10 == 9 { 55.0 } else { 92.0 }));
            v.extend(vec![20.0; half]);
            // +-40 ms, the same pattern every 7 samples.
            let t: Vec<f64> = (0..v.len())
                .map(|i| {
                    i as f64 * step * 1000.0 + [0.0, 40.0, -40.0, 13.0, -27.0, 31.0, -8.0][i % 7]
                })
                .collect();
            let e = episodes(&v, &t, Operator::Gt, 80.0, &spec(900.0, None));
            assert_eq!(e.len(), 1, "step {step}");
            assert_eq!(
                (e[0].first, e[0].last),
                (half, half + per_hour - 2),
                "step {step}"
            );
        }
    }

    /// A single spike, or a few seconds at 100%, never make an episode; nor does a log shorter than
    /// the window.
    #[test]
    fn spikes_and_short_logs_make_none() {
        let mut v = vec![10.0; 600];
        v[300] = 100.0;
        v[301..306].iter_mut().for_each(|x| *x = 100.0);
        let t = times(600, 1.0);
        // 6 s at 100 in a 300 s window: mean (294 * 10 + 6 * 100) / 300 = 11.8, 2% past 80.
        assert!(episodes(&v, &t, Operator::Gt, 80.0, &spec(300.0, None)).is_empty());
        // 60 samples at 1 s, all at 100: the log never runs for a 300 s window.
        let v = vec![100.0; 60];
        assert!(episodes(&v, &times(60, 1.0), Operator::Gt, 80.0, &spec(300.0, None)).is_empty());
    }

    /// A mean past the threshold needs a quarter of the window past it too: at 60 s, a 5-minute window
    /// holds 6 samples (t >= t_k - 300 s); with one at 500 its mean is (5 * 10 + 500) / 6 = 91.7 > 80
    /// but only 1 of 6 (17%) is past it.
    #[test]
    fn a_lone_spike_cannot_carry_a_mean() {
        let mut v = vec![10.0; 20];
        v[10] = 500.0;
        let t = times(20, 60.0);
        assert!(episodes(&v, &t, Operator::Gt, 80.0, &spec(300.0, None)).is_empty());
        // Two such samples in six (33%, not half): by the mean, (4 * 10 + 2 * 500) / 6 = 173 > 80, an
        // episode from the first to the second spike, mean (500 + 500) / 2 = 500 (nothing in between).
        v[11] = 500.0;
        let e = episodes(&v, &t, Operator::Gt, 80.0, &spec(300.0, None));
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].first, e[0].last, e[0].mean, e[0].samples),
            (10, 11, 500.0, 2)
        );
    }

    /// Share mode: at least 40% of a 30-minute window past 95%, at 60 s: four bursts of 15 min at 100%
    /// every 30 min are one episode from the first burst's first sample to the last burst's last. The
    /// window is 31 samples; the first with 13 (40% of 31 = 12.4) at 100 ends at sample 72, the last at
    /// 182 (182 - 30 = 152: 152..=164).
    #[test]
    fn bursts_are_one_episode_in_share_mode() {
        let mut v = vec![5.0; 60];
        for burst in 0..4 {
            let s = 60 + burst * 30;
            v.extend(vec![100.0; 15]);
            v.extend(vec![10.0; 15]);
            assert_eq!(v.len(), s + 30);
        }
        v.extend(vec![5.0; 60]);
        let t = times(v.len(), 60.0);
        let e = episodes(&v, &t, Operator::Gt, 95.0, &spec(1800.0, Some(0.4)));
        assert_eq!(e.len(), 1);
        // First burst 60..75, last burst 150..165: first 60, last 164.
        assert_eq!((e[0].first, e[0].last), (60, 164));
        // 60 of the 105 samples from 60 to 164 are at 100: share 60 / 105.
        assert!((e[0].share - 60.0 / 105.0).abs() < 1e-12);
        // At 80 with the default share, more than half (15.5 of 31): a window inside the bursts holds 15 or 16
        // samples at 100, and those with 16 (from the one ending at 90, 60..=90) hold; their mean,
        // about 55, does not. Held windows are never a window apart: the same episode.
        let e = episodes(&v, &t, Operator::Gt, 80.0, &spec(1800.0, None));
        assert_eq!((e.len(), e[0].first, e[0].last), (1, 60, 164));
        // With a window of 5 minutes (6 samples) and 60% of it (3.6): a window holds with 4 at 100 (its
        // mean with 3, (3 * 100 + 3 * 10) / 6 = 55, is not past 60). A burst at s holds the windows
        // ending at s + 3 ..= s + 16, from s - 2 ..= s + 11; the next burst's first starts at s + 28,
        // 12 minutes after the last ends (>= 5): four episodes, each its burst's 15 samples.
        let e = episodes(&v, &t, Operator::Gt, 60.0, &spec(300.0, Some(0.6)));
        let spans: Vec<(usize, usize)> = e.iter().map(|e| (e.first, e.last)).collect();
        assert_eq!(spans, vec![(60, 74), (90, 104), (120, 134), (150, 164)]);
    }

    /// Episodes closer together than the window merge; further apart they stay two.
    #[test]
    fn episodes_merge_when_closer_than_the_window() {
        // At 60 s, window 300 s: 10 min at 90, a gap of g minutes at 10, 10 min at 90.
        let run = |gap: usize| {
            let mut v = vec![10.0; 20];
            v.extend(vec![90.0; 10]);
            v.extend(vec![10.0; gap]);
            v.extend(vec![90.0; 10]);
            v.extend(vec![10.0; 20]);
            episodes(
                &v,
                &times(v.len(), 60.0),
                Operator::Gt,
                80.0,
                &spec(300.0, None),
            )
        };
        // A window is 6 samples (t >= t_k - 300 s); it holds with 4 of 6 at 90 (more than half; 3 of 6
        // is half, and its mean (3 * 90 + 3 * 10) / 6 = 50 is not past 80). Gap of 3 min (samples 30-32
        // at 10): held windows end at 31 (26..=31: 4 at 90) and start again at 31 (31..=36: 33-36):
        // one episode.
        let one = run(3);
        assert_eq!(one.len(), 1);
        assert_eq!((one[0].first, one[0].last), (20, 42));
        // Gap of 10 min (30-39): held windows end at 31 (26..=31), start again at 38 (38..=43: 40-43 at
        // 90); t(38) - t(31) = 7 min, not closer than the window: two.
        let two = run(10);
        assert_eq!(two.len(), 2);
        assert_eq!(
            (two[0].first, two[0].last, two[1].first, two[1].last),
            (20, 29, 40, 49)
        );
    }

    /// A sparse log: windows reach back to 5 samples, so a 5-minute window on a log written every
    /// 10 minutes judges 5 samples (40 minutes of log, which spans the window).
    #[test]
    fn sparse_logs_reach_back_to_five_samples() {
        let v = [10.0, 10.0, 90.0, 90.0, 90.0, 90.0, 10.0, 10.0, 10.0, 10.0];
        let t = times(v.len(), 600.0);
        // Windows of 5 samples from the one ending at 4 (0..=4: 3 of 5 above 80, held), 5 (4 of 5), 6
        // (4 of 5), 7 (3 of 5); at 8, 2 of 5 and mean (2 * 90 + 3 * 10) / 5 = 42: no. Held 0..=7,
        // trimmed to the samples above 80: 2..=5, mean 90.
        let e = episodes(&v, &t, Operator::Gt, 80.0, &spec(300.0, None));
        assert_eq!(e.len(), 1);
        assert_eq!((e[0].first, e[0].last, e[0].mean), (2, 5, 90.0));
        // Above 95: no sample, no episode.
        assert!(episodes(&v, &t, Operator::Gt, 95.0, &spec(300.0, None)).is_empty());
    }

    /// Missing samples neither hold nor break a window: the same values with NaN between them give
    /// the same episode (indices into the values with the NaN).
    #[test]
    fn missing_samples_are_skipped() {
        let mut v = vec![10.0; 10];
        v.extend(vec![90.0; 10]);
        v.extend(vec![10.0; 10]);
        let t = times(v.len(), 60.0);
        let plain = episodes(&v, &t, Operator::Gt, 80.0, &spec(300.0, None));
        assert_eq!(plain.len(), 1);
        assert_eq!((plain[0].first, plain[0].last), (10, 19));
        let mut gappy = v.clone();
        gappy[12] = f64::NAN;
        let e = episodes(&gappy, &t, Operator::Gt, 80.0, &spec(300.0, None));
        assert_eq!((e[0].first, e[0].last, e[0].samples), (10, 19, 9));
    }

    /// Below a threshold (Available MBytes under 5% of 16 GB = 819.2 MB) works the same way, its worst
    /// the smallest.
    #[test]
    fn below_a_threshold() {
        let mut v = vec![4000.0; 10];
        v.extend([700.0, 650.0, 900.0, 600.0, 700.0, 750.0]);
        v.extend(vec![4000.0; 10]);
        let t = times(v.len(), 60.0);
        let e = episodes(&v, &t, Operator::Lt, 819.2, &spec(300.0, None));
        assert_eq!(e.len(), 1);
        // 10..=15 with 900 inside: mean (700 + 650 + 900 + 600 + 700 + 750) / 6 = 4300 / 6 = 716.67,
        // 5 of 6 below, worst 600.
        assert_eq!((e[0].first, e[0].last, e[0].worst), (10, 15, 600.0));
        assert!((e[0].mean - 4300.0 / 6.0).abs() < 1e-9);
        assert!((e[0].share - 5.0 / 6.0).abs() < 1e-12);
    }

    /// The episodes as first written, with the samples with a value listed and prefix sums: the
    /// reference the running-sum path is tested against.
    mod reference {
        use super::super::{further, Episode, EpisodeSpec, Operator, MEAN_MIN_SHARE};

        pub fn episodes(
            values: &[f64],
            times: &[f64],
            op: Operator,
            threshold: f64,
            spec: &EpisodeSpec,
        ) -> Vec<Episode> {
            let valid: Vec<usize> = (0..values.len().min(times.len()))
                .filter(|&i| !values[i].is_nan())
                .collect();
            let m = valid.len();
            let window_ms = spec.window * 1000.0;
            let min_samples = spec.min_samples();
            let mut sum = Vec::with_capacity(m + 1);
            let mut held = Vec::with_capacity(m + 1);
            sum.push(0.0f64);
            held.push(0usize);
            for &i in &valid {
                sum.push(sum.last().copied().unwrap_or(0.0) + values[i]);
                held.push(
                    held.last().copied().unwrap_or(0) + usize::from(op.holds(values[i], threshold)),
                );
            }
            let t = |k: usize| times[valid[k]];
            // Merged spans of held windows, as indices into `valid`.
            let mut spans: Vec<(usize, usize)> = Vec::new();
            let mut a = 0usize;
            for k in 0..m {
                // The samples of the last `window` seconds: t >= t_k - window.
                while a < k && t(a) < t(k) - window_ms {
                    a += 1;
                }
                // At least `min_samples` of them, reaching back over a sparse log's or a gap's samples.
                if k + 1 < min_samples {
                    continue;
                }
                let start = a.min(k + 1 - min_samples);
                // Judged once the log has run for the whole window: a sample before it, or the log's first at
                // its start (within half a sample interval: clocks jitter by milliseconds).
                let half_step = if k > 0 { (t(k) - t(k - 1)) / 2.0 } else { 0.0 };
                if start == 0 && t(k) - t(0) < window_ms - half_step {
                    continue;
                }
                let count = k + 1 - start;
                let over = held[k + 1] - held[start];
                let mean = (sum[k + 1] - sum[start]) / count as f64;
                let holds = over as f64 > spec.share() * count as f64
                    || (op.holds(mean, threshold) && over as f64 >= MEAN_MIN_SHARE * count as f64);
                if !holds {
                    continue;
                }
                match spans.last_mut() {
                    // Closer together than the window: one episode.
                    Some(last) if t(start) - t(last.1) < window_ms => last.1 = k,
                    _ => spans.push((start, k)),
                }
            }
            spans
                .into_iter()
                .filter_map(|(s, e)| {
                    let holds = |k: &usize| op.holds(values[valid[*k]], threshold);
                    let first = (s..=e).find(holds)?;
                    let last = (s..=e).rev().find(holds)?;
                    let mut total = 0.0;
                    let mut over = 0usize;
                    let mut worst = values[valid[first]];
                    for k in first..=last {
                        let v = values[valid[k]];
                        total += v;
                        if op.holds(v, threshold) {
                            over += 1;
                            if further(op, threshold, v, worst) {
                                worst = v;
                            }
                        }
                    }
                    let n = last - first + 1;
                    Some(Episode {
                        first: valid[first],
                        last: valid[last],
                        worst,
                        mean: total / n as f64,
                        share: over as f64 / n as f64,
                        samples: n,
                    })
                })
                .collect()
        }
    }

    proptest::proptest! {
        /// Invariants on random values with gaps: episodes are in order and apart by at least the
        /// window, each starts and ends on a sample past the threshold, its share and mean are those of
        /// its samples, and a series that never passes the threshold has none.
        #[test]
        fn episode_invariants(
            values in proptest::collection::vec(
                proptest::prop_oneof![6 => 0.0f64..100.0, 1 => proptest::strategy::Just(f64::NAN)],
                0..600,
            ),
            steps in proptest::collection::vec(500.0f64..90_000.0, 600),
            threshold in 0.0f64..100.0,
            window in 1.0f64..3600.0,
            share in proptest::option::of(0.05f64..1.0),
        ) {
            let mut acc = 0.0;
            let t: Vec<f64> = steps[..values.len()].iter().map(|s| { acc += s; acc }).collect();
            let spec = EpisodeSpec { window, share, samples: None };
            let e = episodes(&values, &t, Operator::Gt, threshold, &spec);
            for w in e.windows(2) {
                proptest::prop_assert!(w[0].last < w[1].first);
            }
            for x in &e {
                proptest::prop_assert!(values[x.first] > threshold && values[x.last] > threshold);
                let inside: Vec<f64> = values[x.first..=x.last].iter().copied().filter(|v| !v.is_nan()).collect();
                proptest::prop_assert_eq!(inside.len(), x.samples);
                let over = inside.iter().filter(|&&v| v > threshold).count();
                proptest::prop_assert!((x.share - over as f64 / inside.len() as f64).abs() < 1e-12);
                let max = inside.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                proptest::prop_assert_eq!(x.worst, max);
            }
            if values.iter().all(|v| v.is_nan() || *v <= threshold) {
                proptest::prop_assert!(e.is_empty());
            }
            // The running sums find what the prefix sums found.
            let spans = |e: &[Episode]| e.iter().map(|x| (x.first, x.last, x.samples, x.worst.to_bits())).collect::<Vec<_>>();
            proptest::prop_assert_eq!(spans(&e), spans(&reference::episodes(&values, &t, Operator::Gt, threshold, &spec)));
        }
    }
}
