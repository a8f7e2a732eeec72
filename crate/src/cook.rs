//! The calculation: the displayed ("cooked") value of a counter from one or two raw samples, with PDH's
//! statuses and options. `docs/counter-types.md` is the contract this file implements, row by row.
//!
//! Raw values are `u64`. Differences are taken in integers and only the difference is converted to
//! `f64`, so time stamps near 1.3e17 (beyond 2^53) lose nothing before the subtraction.

use crate::types::{is_dword_size, CounterType, Display, Formula};
use serde::Serialize;

/// One raw sample, as PDH's PDH_RAW_COUNTER carries it.
/// `value` is N (FirstValue / RawValue), `second` is D or B (SecondValue), `frequency` is F
/// (time base / PerfFreq), `multi` is M (MultiCount / the MultiId counter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RawSample {
    pub value: u64,
    pub second: Option<u64>,
    pub frequency: Option<u64>,
    pub multi: Option<u64>,
}

impl RawSample {
    pub fn new(value: u64) -> Self {
        RawSample {
            value,
            ..Default::default()
        }
    }
    pub fn second(mut self, d: u64) -> Self {
        self.second = Some(d);
        self
    }
    pub fn frequency(mut self, f: u64) -> Self {
        self.frequency = Some(f);
        self
    }
    pub fn multi(mut self, m: u64) -> Self {
        self.multi = Some(m);
        self
    }
}

/// PDH's format flags, by their effect. Applied in the order cap100, scale, x1000.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CookOptions {
    /// Clamp percent results to [0, 100] (PDH without PDH_FMT_NOCAP100). Default on.
    pub cap100: bool,
    /// Multiply by 10^scale (the counter's DefaultScale, -10..=10). Default none, as Get-Counter.
    pub scale: Option<i32>,
    /// Multiply by 1000 (PDH_FMT_1000).
    pub x1000: bool,
    /// For two-sample DWORD types, read a decrease as one 2^32 wrap instead of a negative value.
    pub wrap32: bool,
}

impl Default for CookOptions {
    fn default() -> Self {
        CookOptions {
            cap100: true,
            scale: None,
            x1000: false,
            wrap32: false,
        }
    }
}

/// Why a calculation gave no number. Every status but `Ok` comes with value `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    Ok,
    NeedsTwoSamples,
    NegativeValue,
    NegativeDenominator,
    ZeroDenominator,
    NotDisplayable,
    UnknownType,
}

impl Status {
    pub const ALL: [Status; 7] = [
        Status::Ok,
        Status::NeedsTwoSamples,
        Status::NegativeValue,
        Status::NegativeDenominator,
        Status::ZeroDenominator,
        Status::NotDisplayable,
        Status::UnknownType,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::NeedsTwoSamples => "needs-two-samples",
            Status::NegativeValue => "negative-value",
            Status::NegativeDenominator => "negative-denominator",
            Status::ZeroDenominator => "zero-denominator",
            Status::NotDisplayable => "not-displayable",
            Status::UnknownType => "unknown-type",
        }
    }
}

/// The outcome of one calculation.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Cooked {
    pub value: Option<f64>,
    pub status: Status,
}

impl Cooked {
    pub fn ok(value: f64) -> Self {
        Cooked {
            value: Some(value),
            status: Status::Ok,
        }
    }
    pub fn status(status: Status) -> Self {
        Cooked {
            value: None,
            status,
        }
    }
}

/// Input the calculation cannot work with at all (as opposed to a status, which describes data).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CookError {
    #[error("{ty} needs `{field}` ({meaning}) on the {sample} sample")]
    MissingField {
        ty: String,
        sample: &'static str,
        field: &'static str,
        meaning: &'static str,
    },
    #[error("scale {0} is outside the DefaultScale range -10..=10")]
    ScaleOutOfRange(i32),
    #[error("column `{field}` has {got} values but `value` has {expected}")]
    ColumnLength {
        field: &'static str,
        expected: usize,
        got: usize,
    },
}

/// The numbers one calculation reads, with fields a formula does not need left at 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pair {
    pub n0: u64,
    pub n1: u64,
    pub d0: u64,
    pub d1: u64,
    pub f: u64,
    pub m1: u64,
}

/// `N1 - N0` exactly, or the negative-value status. With `wrap`, a decrease is one 2^32 wrap of a
/// 32-bit counter; a decrease larger than that is still negative.
#[inline(always)]
fn delta_n(p: &Pair, wrap: bool) -> Result<u64, Status> {
    if p.n1 >= p.n0 {
        Ok(p.n1 - p.n0)
    } else if wrap {
        (p.n1 as u128 + (1u128 << 32))
            .checked_sub(p.n0 as u128)
            .map(|d| d as u64)
            .ok_or(Status::NegativeValue)
    } else {
        Err(Status::NegativeValue)
    }
}

/// `D1 - D0` (or `B1 - B0`), which divides: it must be positive.
#[inline(always)]
fn delta_d(p: &Pair) -> Result<f64, Status> {
    if p.d1 > p.d0 {
        Ok((p.d1 - p.d0) as f64)
    } else if p.d1 == p.d0 {
        Err(Status::ZeroDenominator)
    } else {
        Err(Status::NegativeDenominator)
    }
}

#[inline(always)]
fn nonzero(x: u64) -> Result<f64, Status> {
    if x == 0 {
        Err(Status::ZeroDenominator)
    } else {
        Ok(x as f64)
    }
}

/// The formula of the table, before options. `wrap` is `wrap32` already restricted to DWORD types.
#[inline(always)]
pub(crate) fn compute(formula: Formula, p: &Pair, wrap: bool) -> Result<f64, Status> {
    Ok(match formula {
        Formula::Rate => {
            let dn = delta_n(p, wrap)? as f64;
            let dd = delta_d(p)?;
            let f = nonzero(p.f)?;
            dn / (dd / f)
        }
        Formula::Queue | Formula::AverageBulk => {
            let dn = delta_n(p, wrap)? as f64;
            dn / delta_d(p)?
        }
        Formula::Timer => {
            let dn = delta_n(p, wrap)? as f64;
            100.0 * dn / delta_d(p)?
        }
        Formula::TimerInv => {
            let dn = delta_n(p, wrap)? as f64;
            100.0 * (1.0 - dn / delta_d(p)?)
        }
        Formula::MultiTimerTick => {
            let dn = delta_n(p, wrap)? as f64;
            let dd = delta_d(p)?;
            let f = nonzero(p.f)?;
            let m = nonzero(p.m1)?;
            100.0 * (dn / (dd / f)) / m
        }
        Formula::MultiTimer100Ns => {
            let dn = delta_n(p, wrap)? as f64;
            let dd = delta_d(p)?;
            let m = nonzero(p.m1)?;
            100.0 * (dn / dd) / m
        }
        Formula::MultiTimerInv => {
            let dn = delta_n(p, wrap)? as f64;
            let dd = delta_d(p)?;
            // M1 = 0 means "no instances": the contract reports it as zero-denominator.
            let m = nonzero(p.m1)?;
            100.0 * (m - dn / dd)
        }
        Formula::AverageTimer => {
            let dn = delta_n(p, wrap)? as f64;
            let db = delta_d(p)?;
            let f = nonzero(p.f)?;
            (dn / f) / db
        }
        Formula::Delta => delta_n(p, wrap)? as f64,
        Formula::Raw => p.n1 as f64,
        Formula::RawFraction => 100.0 * p.n1 as f64 / nonzero(p.d1)?,
        Formula::Elapsed => {
            if p.d1 < p.n1 {
                return Err(Status::NegativeValue);
            }
            (p.d1 - p.n1) as f64 / nonzero(p.f)?
        }
        Formula::NotDisplayable | Formula::Text => return Err(Status::NotDisplayable),
    })
}

/// 10^k for the DefaultScale range. Negative powers divide by the exact 10^-k rather than multiplying
/// by an inexact 0.1^-k.
#[inline(always)]
pub(crate) fn scale10(v: f64, k: i32) -> f64 {
    if k >= 0 {
        v * 10f64.powi(k)
    } else {
        v / 10f64.powi(-k)
    }
}

/// The options, in the contract's order: cap100, then scale, then x1000.
#[inline(always)]
pub(crate) fn apply_options(v: f64, percent: bool, o: &CookOptions) -> f64 {
    let mut v = v;
    if o.cap100 && percent {
        v = v.clamp(0.0, 100.0);
    }
    if let Some(k) = o.scale {
        v = scale10(v, k);
    }
    if o.x1000 {
        v *= 1000.0;
    }
    v
}

pub(crate) fn check_options(o: &CookOptions) -> Result<(), CookError> {
    match o.scale {
        Some(k) if !(-10..=10).contains(&k) => Err(CookError::ScaleOutOfRange(k)),
        _ => Ok(()),
    }
}

/// What the formula calls each field, for messages.
pub(crate) fn field_meaning(formula: Formula, field: &str) -> &'static str {
    match (field, formula) {
        (
            "second",
            Formula::Timer | Formula::AverageTimer | Formula::AverageBulk | Formula::RawFraction,
        ) => "the base or time stamp, D or B",
        ("second", _) => "the time stamp D",
        ("frequency", _) => "the frequency F",
        ("multi", _) => "the multi count M",
        _ => "the raw value N",
    }
}

/// Everything `cook` settles before computing: statuses that need no numbers, and the fields.
pub(crate) enum Prepared {
    Done(Status),
    Ready {
        formula: Formula,
        pair: Pair,
        wrap: bool,
        percent: bool,
    },
}

pub(crate) fn prepare(
    ty: CounterType,
    older: Option<&RawSample>,
    newer: &RawSample,
    opts: &CookOptions,
) -> Result<Prepared, CookError> {
    check_options(opts)?;
    let Some(formula) = ty.formula() else {
        return Ok(Prepared::Done(Status::UnknownType));
    };
    if matches!(formula, Formula::NotDisplayable | Formula::Text) {
        return Ok(Prepared::Done(Status::NotDisplayable));
    }
    let need = formula.spec();
    let missing = |sample: &'static str, field: &'static str| CookError::MissingField {
        ty: ty.to_string(),
        sample,
        field,
        meaning: field_meaning(formula, field),
    };
    // The newer sample is checked first: a malformed sample is an error even when no older one exists.
    let d1 = if need.second {
        newer.second.ok_or_else(|| missing("newer", "second"))?
    } else {
        0
    };
    let f = if need.frequency {
        newer
            .frequency
            .ok_or_else(|| missing("newer", "frequency"))?
    } else {
        0
    };
    let m1 = if need.multi {
        newer.multi.ok_or_else(|| missing("newer", "multi"))?
    } else {
        0
    };
    let (n0, d0) = if formula.samples() == 2 {
        let Some(o) = older else {
            return Ok(Prepared::Done(Status::NeedsTwoSamples));
        };
        (
            o.value,
            if need.second {
                o.second.ok_or_else(|| missing("older", "second"))?
            } else {
                0
            },
        )
    } else {
        (0, 0)
    };
    Ok(Prepared::Ready {
        formula,
        pair: Pair {
            n0,
            n1: newer.value,
            d0,
            d1,
            f,
            m1,
        },
        wrap: opts.wrap32 && is_dword_size(ty.value),
        percent: ty.display() == Display::Percent,
    })
}

/// The cooked value of `newer` (against `older` for two-sample types).
///
/// Statuses describe the data (a negative difference, a zero denominator, ...); errors describe input
/// that cannot be calculated at all (a field the formula needs is missing, a scale out of range).
///
/// ```
/// use counterlens::cook::{cook, CookOptions, RawSample, Status};
/// use counterlens::types::parse_type;
/// let rate = parse_type("PERF_COUNTER_COUNTER").unwrap();
/// // 500 more events over 2 s (20,000,000 ticks at 10 MHz): 500 / 2 = 250 per second.
/// let older = RawSample::new(1000).second(10_000_000).frequency(10_000_000);
/// let newer = RawSample::new(1500).second(30_000_000).frequency(10_000_000);
/// let c = cook(rate, Some(&older), &newer, &CookOptions::default()).unwrap();
/// assert_eq!(c.value, Some(250.0));
/// // One sample is not enough for a rate: a status, not an error.
/// let c = cook(rate, None, &newer, &CookOptions::default()).unwrap();
/// assert_eq!((c.value, c.status), (None, Status::NeedsTwoSamples));
/// // A missing field the formula needs is an error.
/// assert!(cook(rate, Some(&RawSample::new(1)), &RawSample::new(2), &CookOptions::default()).is_err());
/// ```
pub fn cook(
    ty: CounterType,
    older: Option<&RawSample>,
    newer: &RawSample,
    opts: &CookOptions,
) -> Result<Cooked, CookError> {
    Ok(match prepare(ty, older, newer, opts)? {
        Prepared::Done(s) => Cooked::status(s),
        Prepared::Ready {
            formula,
            pair,
            wrap,
            percent,
        } => match compute(formula, &pair, wrap) {
            Ok(v) => Cooked::ok(apply_options(v, percent, opts)),
            Err(s) => Cooked::status(s),
        },
    })
}
