//! Series: cooking a column of raw samples into a column of values, and statistics over a range,
//! the trend among them: [`TrendFit`], the one least-squares fit of value against time in hours that
//! both trends a user reads are computed with (a range's "trend per hour" over its samples,
//! [`samples_trend_per_hour`]; and the analysis' "slice trend per hour" over the slice averages so far,
//! `analysis::slices::trend`).
//!
//! Cooking is columnar (one `u64` slice per raw field, one `f64` slice out) so that a series of millions
//! of samples is one call and one pass. Value `i` is computed from samples `i-1` and `i` for two-sample
//! types and from sample `i` alone otherwise. Where the status is not ok the value is NaN, a gap: the
//! first value of a two-sample type, a negative difference (the SDK sample, "Calculating Counter Values": drop the older sample; the next
//! value is computed against the newer one, so one point is lost, not two), a zero interval.

use crate::cook::{apply_options, check_options, compute, CookError, CookOptions, Pair, Status};
use crate::types::{is_dword_size, CounterType, Display, Formula};
use serde::Serialize;

/// Where F comes from: one frequency for the whole series (the usual case) or one per sample.
#[derive(Clone, Copy, Debug)]
pub enum Frequency<'a> {
    Constant(u64),
    Column(&'a [u64]),
}

/// The raw fields of a series, one slice each, all of the same length as `value`.
#[derive(Clone, Copy, Debug)]
pub struct RawColumns<'a> {
    pub value: &'a [u64],
    pub second: Option<&'a [u64]>,
    pub frequency: Option<Frequency<'a>>,
    pub multi: Option<&'a [u64]>,
}

/// How many values of a cooked series ended in each status (indexed like `Status::ALL`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StatusCounts(pub [usize; 7]);

impl StatusCounts {
    pub fn get(&self, s: Status) -> usize {
        self.0[s as usize]
    }
}

fn check_len(field: &'static str, expected: usize, got: usize) -> Result<(), CookError> {
    if expected == got {
        Ok(())
    } else {
        Err(CookError::ColumnLength {
            field,
            expected,
            got,
        })
    }
}

/// Cooks a whole series into `out` (cleared first). Returns how many values ended in each status.
///
/// ```
/// use counterlens::cook::{CookOptions, Status};
/// use counterlens::series::{cook_series, Frequency, RawColumns};
/// use counterlens::types::parse_type;
/// let rate = parse_type("PERF_COUNTER_COUNTER").unwrap();
/// // Time stamps one second apart at 1 kHz; counts growing by 10, then 30.
/// let (value, second) = ([100u64, 110, 140], [0u64, 1000, 2000]);
/// let cols = RawColumns { value: &value, second: Some(&second),
///                         frequency: Some(Frequency::Constant(1000)), multi: None };
/// let mut out = Vec::new();
/// let counts = cook_series(rate, &cols, &CookOptions::default(), &mut out).unwrap();
/// // The first value has no older sample: NaN, counted as needs-two-samples.
/// assert!(out[0].is_nan());
/// assert_eq!(out[1..], [10.0, 30.0]);
/// assert_eq!(counts.get(Status::NeedsTwoSamples), 1);
/// ```
pub fn cook_series(
    ty: CounterType,
    cols: &RawColumns<'_>,
    opts: &CookOptions,
    out: &mut Vec<f64>,
) -> Result<StatusCounts, CookError> {
    check_options(opts)?;
    let n = cols.value.len();
    out.clear();
    let mut counts = StatusCounts::default();
    let formula = match ty.formula() {
        None => {
            out.resize(n, f64::NAN);
            counts.0[Status::UnknownType as usize] = n;
            return Ok(counts);
        }
        Some(Formula::NotDisplayable | Formula::Text) => {
            out.resize(n, f64::NAN);
            counts.0[Status::NotDisplayable as usize] = n;
            return Ok(counts);
        }
        Some(f) => f,
    };
    let need = formula.spec();
    let missing = |field: &'static str| CookError::MissingField {
        ty: ty.to_string(),
        sample: "every",
        field,
        meaning: crate::cook::field_meaning(formula, field),
    };
    // Columns a formula does not read are replaced by `value` (same length, never read) so the loop
    // below indexes unconditionally.
    let second = match cols.second {
        Some(s) => {
            check_len("second", n, s.len())?;
            s
        }
        None if need.second => return Err(missing("second")),
        None => cols.value,
    };
    let (freq_const, freq_col) = match cols.frequency {
        Some(Frequency::Column(c)) => {
            check_len("frequency", n, c.len())?;
            (None, c)
        }
        Some(Frequency::Constant(f)) => (Some(f), cols.value),
        None if need.frequency => return Err(missing("frequency")),
        None => (Some(0), cols.value),
    };
    let multi = match cols.multi {
        Some(m) => {
            check_len("multi", n, m.len())?;
            m
        }
        None if need.multi => return Err(missing("multi")),
        None => cols.value,
    };
    let wrap = opts.wrap32 && is_dword_size(ty.value);
    let percent = ty.display() == Display::Percent;
    let two = formula.samples() == 2;
    out.reserve_exact(n);
    if two && n > 0 {
        out.push(f64::NAN);
        counts.0[Status::NeedsTwoSamples as usize] += 1;
    }
    let columns = Columns {
        value: cols.value,
        second,
        freq_const,
        freq_col,
        multi,
    };
    // One copy of the loop per formula, with the formula a constant in it: the per-element match
    // folds away (measured: about twice as fast in wasm as matching inside the loop).
    macro_rules! per_formula {
        ($($f:ident),*) => {
            match formula {
                $(Formula::$f => fill(&columns, two, |p| compute(Formula::$f, p, wrap), percent, opts, out, &mut counts),)*
                // Returned early above; written out so that no input can reach a panic.
                Formula::NotDisplayable | Formula::Text => fill(&columns, two, |_| Err(Status::NotDisplayable), percent, opts, out, &mut counts),
            }
        };
    }
    per_formula!(
        Rate,
        Queue,
        Timer,
        TimerInv,
        MultiTimerTick,
        MultiTimer100Ns,
        MultiTimerInv,
        AverageTimer,
        AverageBulk,
        Delta,
        Raw,
        RawFraction,
        Elapsed
    );
    Ok(counts)
}

/// The columns of one series, every slice as long as `value`.
struct Columns<'a> {
    value: &'a [u64],
    second: &'a [u64],
    freq_const: Option<u64>,
    freq_col: &'a [u64],
    multi: &'a [u64],
}

/// The loop of `cook_series` for one formula, given as `calc`.
#[inline(always)]
fn fill(
    c: &Columns<'_>,
    two: bool,
    calc: impl Fn(&Pair) -> Result<f64, Status>,
    percent: bool,
    opts: &CookOptions,
    out: &mut Vec<f64>,
    counts: &mut StatusCounts,
) {
    let n = c.value.len();
    let mut ok = 0usize;
    for i in usize::from(two).min(n)..n {
        let prev = if two { i - 1 } else { i };
        let pair = Pair {
            n0: c.value[prev],
            n1: c.value[i],
            d0: c.second[prev],
            d1: c.second[i],
            f: c.freq_const.unwrap_or_else(|| c.freq_col[i]),
            m1: c.multi[i],
        };
        out.push(match calc(&pair) {
            Ok(v) => {
                ok += 1;
                apply_options(v, percent, opts)
            }
            Err(s) => {
                counts.0[s as usize] += 1;
                f64::NAN
            }
        });
    }
    counts.0[Status::Ok as usize] += ok;
}

/// Milliseconds in an hour: trends are per hour.
pub const MS_PER_HOUR: f64 = 3_600_000.0;

/// A running least-squares fit of y against x: points are added one at a time and the slope is there
/// after each (Welford's updates of the means and co-moments, so long series of large values and times of
/// 1.7e12 ms lose no precision). NaN with fewer than two points or all at one x.
///
/// ```
/// use counterlens::series::TrendFit;
/// let mut f = TrendFit::default();
/// f.push(0.5, 10.0);
/// assert!(f.slope().is_nan());
/// f.push(1.5, 14.0);
/// f.push(2.5, 15.0);
/// // x mean 1.5, y mean 13: Sxy = (-1)(-3) + 0 + (1)(2) = 5, Sxx = 2: slope 2.5.
/// assert!((f.slope() - 2.5).abs() < 1e-12);
/// // Syy = 9 + 1 + 4 = 14: R² = 25 / (2 x 14); the line at x = 2.5: 13 + 2.5 = 15.5.
/// assert!((f.r2() - 25.0 / 28.0).abs() < 1e-12 && (f.at(2.5) - 15.5).abs() < 1e-12);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TrendFit {
    n: f64,
    mean_x: f64,
    mean_y: f64,
    sxx: f64,
    sxy: f64,
    syy: f64,
    first_x: f64,
    last_x: f64,
}

impl TrendFit {
    /// Adds the point (x, y); a point where either is not finite is left out.
    pub fn push(&mut self, x: f64, y: f64) {
        if !x.is_finite() || !y.is_finite() {
            return;
        }
        self.n += 1.0;
        if self.n == 1.0 {
            self.first_x = x;
        }
        self.last_x = x;
        let dx = x - self.mean_x;
        let dy = y - self.mean_y;
        self.mean_x += dx / self.n;
        self.mean_y += dy / self.n;
        self.sxx += dx * (x - self.mean_x);
        self.sxy += dx * (y - self.mean_y);
        self.syy += dy * (y - self.mean_y);
    }

    /// How many points it rests on.
    pub fn count(&self) -> usize {
        self.n as usize
    }

    /// The first and last point's x.
    pub fn first_x(&self) -> f64 {
        self.first_x
    }

    pub fn last_x(&self) -> f64 {
        self.last_x
    }

    /// The line's value at `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.mean_y + self.slope() * (x - self.mean_x)
    }

    /// R², the share (0..=1) of y's variance the line explains: Sxy² / (Sxx Syy); NaN when y does not
    /// vary or the slope is NaN.
    pub fn r2(&self) -> f64 {
        if self.n >= 2.0 && self.sxx > 0.0 && self.syy > 0.0 {
            (self.sxy * self.sxy / (self.sxx * self.syy)).min(1.0)
        } else {
            f64::NAN
        }
    }

    /// The slope (units of y per unit of x) of the points so far.
    pub fn slope(&self) -> f64 {
        if self.n >= 2.0 && self.sxx > 0.0 {
            self.sxy / self.sxx
        } else {
            f64::NAN
        }
    }
}

/// The trend per hour of a series over a range: the least-squares slope of every sample's value against
/// its time (ms), times 3 600 000, the samples where both are finite. What the viewer's statistics, the
/// report's statistics table and the MCP server call "trend per hour".
///
/// ```
/// use counterlens::series::samples_trend_per_hour;
/// // 10 at 0 h, no value at 1 h, 30 at 2 h: 10 per hour.
/// let t = [0.0, 3_600_000.0, 7_200_000.0];
/// assert!((samples_trend_per_hour(&t, &[10.0, f64::NAN, 30.0]) - 10.0).abs() < 1e-12);
/// ```
pub fn samples_trend_per_hour(timestamps: &[f64], values: &[f64]) -> f64 {
    let origin = timestamps.first().copied().unwrap_or(0.0);
    let mut fit = TrendFit::default();
    for (t, v) in timestamps.iter().zip(values) {
        fit.push((t - origin) / MS_PER_HOUR, *v);
    }
    fit.slope()
}

/// Statistics over the values of a range, NaN (no value) excluded. Every figure is NaN when count is 0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Stats {
    pub count: usize,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// The last value that is not NaN.
    pub last: f64,
    /// Population standard deviation (divisor n), as a summary of what was observed.
    pub stddev: f64,
    /// 95th percentile, nearest-rank: the ceil(0.95 n)-th smallest value.
    pub p95: f64,
}

/// Count, min, max, mean, last, standard deviation and 95th percentile of the values that are not NaN.
///
/// ```
/// use counterlens::series::stats;
/// let s = stats(&[2.0, f64::NAN, 4.0, 6.0]);
/// assert_eq!((s.count, s.min, s.max, s.mean, s.last), (3, 2.0, 6.0, 4.0, 6.0));
/// // Population deviation: sqrt(((2-4)^2 + 0 + (6-4)^2) / 3) = sqrt(8/3).
/// assert!((s.stddev - (8.0f64 / 3.0).sqrt()).abs() < 1e-12);
/// ```
pub fn stats(values: &[f64]) -> Stats {
    stats_with(values, []).0
}

/// `stats` and, from the same one copy of the values, the nearest-rank percentiles `qs`
/// (the ceil(q n)-th smallest value; NaN when there is no value): one copy and one pass for all of them.
pub fn stats_with<const N: usize>(values: &[f64], qs: [f64; N]) -> (Stats, [f64; N]) {
    let mut count = 0usize;
    let (mut min, mut max, mut last) = (f64::INFINITY, f64::NEG_INFINITY, f64::NAN);
    // Welford's running mean and sum of squared deviations: stable for long series of large values.
    let (mut mean, mut m2) = (0.0f64, 0.0f64);
    for &v in values {
        if v.is_nan() {
            continue;
        }
        count += 1;
        min = min.min(v);
        max = max.max(v);
        last = v;
        let delta = v - mean;
        mean += delta / count as f64;
        m2 += delta * (v - mean);
    }
    if count == 0 {
        let stats = Stats {
            count,
            min: f64::NAN,
            max: f64::NAN,
            mean: f64::NAN,
            last: f64::NAN,
            stddev: f64::NAN,
            p95: f64::NAN,
        };
        return (stats, [f64::NAN; N]);
    }
    let mut finite: Vec<f64> = values.iter().copied().filter(|v| !v.is_nan()).collect();
    let mut nearest_rank = |q: f64| {
        let rank = (q * count as f64).ceil() as usize; // 1-based, 1 <= rank <= count
        *finite
            .select_nth_unstable_by(rank.clamp(1, count) - 1, f64::total_cmp)
            .1
    };
    let p95 = nearest_rank(0.95);
    let stats = Stats {
        count,
        min,
        max,
        mean,
        last,
        stddev: (m2 / count as f64).sqrt(),
        p95,
    };
    (stats, qs.map(nearest_rank))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cook::{cook, RawSample};
    use crate::types::parse_type;

    fn ty(s: &str) -> CounterType {
        parse_type(s).unwrap()
    }

    #[test]
    fn rate_series_has_a_gap_first_and_where_the_counter_went_back() {
        let value = [100, 200, 400, 50, 150];
        let second = [0, 10, 20, 30, 40];
        let cols = RawColumns {
            value: &value,
            second: Some(&second),
            frequency: Some(Frequency::Constant(10)),
            multi: None,
        };
        let mut out = vec![];
        let counts = cook_series(
            ty("PERF_COUNTER_COUNTER"),
            &cols,
            &CookOptions::default(),
            &mut out,
        )
        .unwrap();
        // i=1: 100/(10/10) = 100; i=2: 200/1 = 200; i=3: 400 > 50, negative; i=4: (150-50)/1 = 100
        assert!(out[0].is_nan() && out[3].is_nan());
        assert_eq!((out[1], out[2], out[4]), (100.0, 200.0, 100.0));
        assert_eq!(counts.get(Status::Ok), 3);
        assert_eq!(counts.get(Status::NeedsTwoSamples), 1);
        assert_eq!(counts.get(Status::NegativeValue), 1);
    }

    #[test]
    fn series_agrees_with_cook_pair_by_pair() {
        let value = [0u64, 7_500_000, 7_500_000, 20_000_000];
        let second = [0u64, 10_000_000, 10_000_000, 20_000_000];
        let cols = RawColumns {
            value: &value,
            second: Some(&second),
            frequency: None,
            multi: None,
        };
        let t = ty("PERF_100NSEC_TIMER_INV");
        let mut out = vec![];
        cook_series(t, &cols, &CookOptions::default(), &mut out).unwrap();
        for i in 1..value.len() {
            let o = RawSample::new(value[i - 1]).second(second[i - 1]);
            let n = RawSample::new(value[i]).second(second[i]);
            let c = cook(t, Some(&o), &n, &CookOptions::default()).unwrap();
            assert_eq!(
                c.value.unwrap_or(f64::NAN).to_bits(),
                out[i].to_bits(),
                "i={i}"
            );
        }
        // i=1: 100*(1-0.75) = 25; i=2: dD = 0, zero-denominator; i=3: 100*(1 - 12.5e6/10e6) = -25 -> cap 0
        assert_eq!(out[1], 25.0);
        assert!(out[2].is_nan());
        assert_eq!(out[3], 0.0);
    }

    #[test]
    fn one_sample_types_use_every_sample() {
        let value = [3u64, 1, 0];
        let second = [4u64, 8, 0];
        let cols = RawColumns {
            value: &value,
            second: Some(&second),
            frequency: None,
            multi: None,
        };
        let mut out = vec![];
        let counts = cook_series(
            ty("PERF_RAW_FRACTION"),
            &cols,
            &CookOptions::default(),
            &mut out,
        )
        .unwrap();
        // 100*3/4 = 75; 100*1/8 = 12.5; B = 0 -> zero-denominator
        assert_eq!(&out[..2], &[75.0, 12.5]);
        assert!(out[2].is_nan());
        assert_eq!(counts.get(Status::ZeroDenominator), 1);
    }

    #[test]
    fn column_errors_and_whole_series_statuses() {
        let value = [1u64, 2];
        let mut out = vec![];
        let cols = RawColumns {
            value: &value,
            second: Some(&[1]),
            frequency: Some(Frequency::Constant(1)),
            multi: None,
        };
        assert_eq!(
            cook_series(
                ty("PERF_COUNTER_COUNTER"),
                &cols,
                &CookOptions::default(),
                &mut out
            ),
            Err(CookError::ColumnLength {
                field: "second",
                expected: 2,
                got: 1
            })
        );
        let cols = RawColumns {
            value: &value,
            second: None,
            frequency: None,
            multi: None,
        };
        assert!(matches!(
            cook_series(
                ty("PERF_COUNTER_TIMER"),
                &cols,
                &CookOptions::default(),
                &mut out
            ),
            Err(CookError::MissingField {
                field: "second",
                ..
            })
        ));
        let counts = cook_series(
            ty("PERF_RAW_BASE"),
            &cols,
            &CookOptions::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!(counts.get(Status::NotDisplayable), 2);
        assert!(out.iter().all(|v| v.is_nan()));
        let counts = cook_series(ty("0x7"), &cols, &CookOptions::default(), &mut out).unwrap();
        assert_eq!(counts.get(Status::UnknownType), 2);
        let counts = cook_series(
            ty("PERF_COUNTER_DELTA"),
            &RawColumns { value: &[], ..cols },
            &CookOptions::default(),
            &mut out,
        )
        .unwrap();
        assert_eq!((out.len(), counts), (0, StatusCounts::default()));
    }

    #[test]
    fn stats_by_hand() {
        // values 1..=20 and two gaps. count 20, min 1, max 20, mean 210/20 = 10.5, last 20;
        // population variance = (n^2 - 1)/12 = 399/12 = 33.25, stddev = 5.766281...;
        // p95 nearest rank: ceil(0.95*20) = 19 -> 19.
        let mut v: Vec<f64> = (1..=20).map(f64::from).collect();
        v.insert(3, f64::NAN);
        v.push(f64::NAN);
        let s = stats(&v);
        assert_eq!(
            (s.count, s.min, s.max, s.mean, s.last, s.p95),
            (20, 1.0, 20.0, 10.5, 20.0, 19.0)
        );
        assert!((s.stddev - 33.25f64.sqrt()).abs() < 1e-12);
        // One value: p95 is that value (rank ceil(0.95) = 1), stddev 0.
        let s = stats(&[7.0]);
        assert_eq!((s.p95, s.stddev, s.mean), (7.0, 0.0, 7.0));
        let s = stats(&[f64::NAN]);
        assert_eq!(s.count, 0);
        assert!(s.min.is_nan() && s.p95.is_nan() && s.last.is_nan());
    }

    #[test]
    fn a_trend_by_hand() {
        // Samples at 0, 1, 2, 3 h (from 1.7e12 ms) of 5, 7, 6, 10: t mean 1.5 h, v mean 7;
        // Sxy = (-1.5)(-2) + (-0.5)(0) + (0.5)(-1) + (1.5)(3) = 3 - 0.5 + 4.5 = 7; Sxx = 2.25 + .25 + .25 + 2.25 = 5;
        // 7 / 5 = 1.4 per hour.
        let t: Vec<f64> = (0..4)
            .map(|h| 1.7e12 + f64::from(h) * MS_PER_HOUR)
            .collect();
        let trend = samples_trend_per_hour(&t, &[5.0, 7.0, 6.0, 10.0]);
        assert!((trend - 1.4).abs() < 1e-12, "{trend}");
        // Fewer than two values, or all at one time: no trend.
        assert!(samples_trend_per_hour(&t[..1], &[5.0]).is_nan());
        assert!(samples_trend_per_hour(&[t[0], t[0]], &[1.0, 2.0]).is_nan());
    }

    proptest::proptest! {
        /// The running fit is the two-pass least-squares slope (centred sums) of the same points, and
        /// adding a constant to every value or a multiple of the hour to every time changes nothing.
        #[test]
        fn the_running_fit_is_the_least_squares_slope(
            pts in proptest::collection::vec((0.0f64..1000.0, -1e9f64..1e9), 2..60),
            shift in -1e6f64..1e6,
        ) {
            let n = pts.len() as f64;
            let (mx, my) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
            let (sxy, sxx) = pts.iter().fold((0.0, 0.0), |(a, b), (x, y)| (a + (x - mx) * (y - my), b + (x - mx) * (x - mx)));
            let mut fit = TrendFit::default();
            let mut shifted = TrendFit::default();
            for &(x, y) in &pts {
                fit.push(x, y);
                shifted.push(x + 1e6, y + shift);
            }
            if sxx > 1e-6 {
                let want = sxy / sxx;
                let tol = 1e-7 * want.abs().max(1.0);
                proptest::prop_assert!((fit.slope() - want).abs() <= tol, "{} vs {}", fit.slope(), want);
                proptest::prop_assert!((shifted.slope() - want).abs() <= 1e-5 * want.abs().max(1.0), "{} vs {}", shifted.slope(), want);
            }
        }
    }
}
