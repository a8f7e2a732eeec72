//! `explain`: the formula of a counter type, the same formula with the sample's numbers in it, and the
//! result with every option step, so a user can see why a value is what it is.

use crate::cook::{
    apply_options, compute, prepare, CookError, CookOptions, Cooked, Pair, Prepared, RawSample,
    Status,
};
use crate::types::{CounterType, Formula};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Explanation {
    /// The formula as the documentation writes it, e.g. `100 * (1 - dN / dD)`.
    pub formula: String,
    /// The formula with the raw numbers, each intermediate step, the options applied and the result.
    pub substituted: String,
    pub result: Cooked,
}

/// The formula with this pair's numbers in it: the formula's written form (`Formula::spec`) with each
/// field's name replaced by its number.
fn substitute(formula: Formula, p: &Pair) -> String {
    let numbers = [
        ("{n0}", p.n0),
        ("{n1}", p.n1),
        ("{d0}", p.d0),
        ("{d1}", p.d1),
        ("{f}", p.f),
        ("{m1}", p.m1),
    ];
    let mut out = String::new();
    let mut rest = formula.spec().substituted;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        match numbers.iter().find(|(name, _)| rest.starts_with(name)) {
            Some((name, n)) => {
                out.push_str(&n.to_string());
                rest = &rest[name.len()..];
            }
            None => {
                out.push('{');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn why(status: Status, formula: Formula) -> &'static str {
    match (status, formula) {
        (Status::NegativeValue, Formula::Elapsed) => "D1 < N1: the start time is after the sample time",
        (Status::NegativeValue, _) => "N0 > N1: the older sample is larger (a restart, a wrap or a reused instance name); drop it",
        (Status::NegativeDenominator, _) => "the time stamp or base went backwards between the samples",
        (Status::ZeroDenominator, Formula::MultiTimerTick | Formula::MultiTimer100Ns | Formula::MultiTimerInv) => {
            "a divisor is 0 (no time elapsed, F = 0, or M1 = 0: no instances)"
        }
        (Status::ZeroDenominator, Formula::RawFraction) => "the base B1 is 0",
        (Status::ZeroDenominator, _) => "a divisor is 0 (no time elapsed, no operations, or F = 0)",
        _ => "",
    }
}

/// The calculation of `newer` (against `older`) written out: the formula, the same with the numbers in,
/// each option applied, and the result, which is `cook`'s.
///
/// ```
/// use counterlens::cook::{CookOptions, RawSample};
/// use counterlens::explain::explain;
/// use counterlens::types::parse_type;
/// let timer = parse_type("PERF_COUNTER_TIMER").unwrap();
/// let e = explain(timer, Some(&RawSample::new(0).second(0)), &RawSample::new(15).second(10),
///                 &CookOptions::default()).unwrap();
/// assert_eq!(e.formula, "100 * dN / dD");
/// // 100 * 15 / 10 = 150, capped at 100 for a percent (cap100 is on by default).
/// assert_eq!(e.substituted, "100 * (15 - 0) / (10 - 0) = 150; cap100: 100 = 100");
/// assert_eq!(e.result.value, Some(100.0));
/// ```
pub fn explain(
    ty: CounterType,
    older: Option<&RawSample>,
    newer: &RawSample,
    opts: &CookOptions,
) -> Result<Explanation, CookError> {
    let formula = ty.formula_text().to_string();
    let (substituted, result) = match prepare(ty, older, newer, opts)? {
        Prepared::Done(s) => {
            let text = match s {
                Status::UnknownType => format!("{ty} is not in the table: no formula"),
                Status::NotDisplayable => format!("{ty} is not displayable"),
                Status::NeedsTwoSamples => format!("{ty} needs an older sample"),
                _ => s.as_str().to_string(),
            };
            (text, Cooked::status(s))
        }
        Prepared::Ready {
            formula: f,
            pair,
            wrap,
            percent,
        } => {
            let mut text = substitute(f, &pair);
            if wrap && pair.n0 > pair.n1 {
                text.push_str(&format!(
                    " [wrap32: N1 + 2^32 = {}]",
                    pair.n1 as u128 + (1u128 << 32)
                ));
            }
            match compute(f, &pair, wrap) {
                Ok(raw) => {
                    text.push_str(&format!(" = {raw}"));
                    let cooked = apply_options(raw, percent, opts);
                    if opts.cap100 && percent && raw != raw.clamp(0.0, 100.0) {
                        text.push_str(&format!("; cap100: {}", raw.clamp(0.0, 100.0)));
                    }
                    if let Some(k) = opts.scale {
                        text.push_str(&format!("; scale x 10^{k}"));
                    }
                    if opts.x1000 {
                        text.push_str("; x1000");
                    }
                    if cooked != raw {
                        text.push_str(&format!(" = {cooked}"));
                    }
                    (text, Cooked::ok(cooked))
                }
                Err(s) => {
                    text.push_str(&format!(": {} ({})", s.as_str(), why(s, f)));
                    (text, Cooked::status(s))
                }
            }
        }
    };
    Ok(Explanation {
        formula,
        substituted,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_type;

    fn ty(s: &str) -> CounterType {
        parse_type(s).unwrap()
    }

    #[test]
    fn rate_shows_numbers_and_result() {
        let older = RawSample::new(1000)
            .second(10_000_000)
            .frequency(10_000_000);
        let newer = RawSample::new(1500)
            .second(30_000_000)
            .frequency(10_000_000);
        let e = explain(
            ty("PERF_COUNTER_COUNTER"),
            Some(&older),
            &newer,
            &CookOptions::default(),
        )
        .unwrap();
        assert_eq!(e.formula, "dN / (dD / F)");
        // 500 / (20e6 / 1e7) = 500 / 2 = 250
        assert_eq!(
            e.substituted,
            "(1500 - 1000) / ((30000000 - 10000000) / 10000000) = 250"
        );
        assert_eq!(e.result, Cooked::ok(250.0));
    }

    #[test]
    fn options_are_listed_in_order() {
        let older = RawSample::new(0).second(0);
        let newer = RawSample::new(15).second(10);
        let opts = CookOptions {
            scale: Some(1),
            x1000: true,
            ..Default::default()
        };
        let e = explain(ty("PERF_COUNTER_TIMER"), Some(&older), &newer, &opts).unwrap();
        // 100 * 15 / 10 = 150 -> cap 100 -> x10 -> x1000 = 1,000,000
        assert_eq!(
            e.substituted,
            "100 * (15 - 0) / (10 - 0) = 150; cap100: 100; scale x 10^1; x1000 = 1000000"
        );
        assert_eq!(e.result.value, Some(1_000_000.0));
    }

    #[test]
    fn statuses_say_why() {
        let older = RawSample::new(9).second(1);
        let newer = RawSample::new(8).second(2);
        let e = explain(
            ty("PERF_AVERAGE_BULK"),
            Some(&older),
            &newer,
            &CookOptions::default(),
        )
        .unwrap();
        assert!(
            e.substituted
                .starts_with("(8 - 9) / (2 - 1): negative-value (N0 > N1"),
            "{}",
            e.substituted
        );
        assert_eq!(e.result, Cooked::status(Status::NegativeValue));
        let e = explain(
            ty("0x12345678"),
            None,
            &RawSample::new(1),
            &CookOptions::default(),
        )
        .unwrap();
        assert_eq!(
            e.substituted,
            "unknown type 0x12345678 is not in the table: no formula"
        );
        let e = explain(
            ty("PERF_COUNTER_COUNTER"),
            None,
            &newer.frequency(1),
            &CookOptions::default(),
        )
        .unwrap();
        assert_eq!(e.result.status, Status::NeedsTwoSamples);
    }

    #[test]
    fn wrap_is_shown() {
        let older = RawSample::new(4_294_967_000).second(0).frequency(1);
        let newer = RawSample::new(200).second(1).frequency(1);
        let opts = CookOptions {
            wrap32: true,
            ..Default::default()
        };
        let e = explain(ty("PERF_COUNTER_COUNTER"), Some(&older), &newer, &opts).unwrap();
        // 200 + 4294967296 - 4294967000 = 496
        assert_eq!(
            e.substituted,
            "(200 - 4294967000) / ((1 - 0) / 1) [wrap32: N1 + 2^32 = 4294967496] = 496"
        );
    }
}
