//! What users read, written one way (issue 41): the words the core gives a figure wherever it is shown,
//! the cards, the findings' messages, the report, the CLI, the MCP server and (through `wasm/`) the
//! viewer's legend, crosshair, statistics table, comparison and catalogue. One rule each:
//!
//! - **values** ([`value`], [`number`]; `formatInUnit` in JavaScript): three significant digits, but the
//!   integer digits are never dropped (1638.4 reads `1638`, 44.4082 `44.4`, 0.015342 `0.0153`), trailing
//!   zeros trimmed, no group separators. By the counter's unit (`units::Measure`): percent with `%`, rates
//!   with `/s`, sizes with a binary prefix (`286 MB`, `7.81 GB`; a value a hair under the next prefix that
//!   would read `1024` reads in the next one: `1 GB`), seconds in µs, ms or s (`25 ms`, `1.5 s`). The one
//!   exception is a chart axis's labels (`units::format_in_unit`): their decimals follow the step between
//!   labels and large counts take k/M/G, so that the labels of one axis line up. A counter type's own
//!   display (perflib's three decimals, `/sec`, hex: `crate::format`, `formatValue`) is the API's, not
//!   what the viewer or the analysis writes;
//! - **durations** ([`duration`], `formatDuration`);
//! - **clock text** ([`clock`], `formatClock`): `10:40`, seconds when they are not zero, the date
//!   before it when asked, in the log's zone (an offset from UTC), to the nearest second;
//! - **series identity** ([`machine`], [`without_machine`], [`matching`]; `pathWithoutMachine`,
//!   `PathMatcher`): the machine of a path, the path without it, and which paths a Perfmon wildcard
//!   pattern selects, `*` and `?` as `capture::PathPattern` matches them for the CLI's `-c`;
//! - **the logical-processor count** ([`logical_processors`], `Capture.logicalProcessors()`): per
//!   machine, by written or English (localized) names, the largest machine's count.
//!
//! The cases are `tests/vectors/words.json`, read by the Rust and the package's tests.

use crate::capture::path::{parse, CounterPath, FoldedPath, PathPattern};
use crate::units::{byte_prefix, Measure, Unit};
use std::collections::{BTreeMap, BTreeSet};

/// A number as users read it: three significant digits, but never fewer than its integer digits;
/// trailing zeros trimmed; `-0` is `0`. Not finite: `NaN`, `inf`, `-inf`.
///
/// ```
/// use counterlens::words::number;
/// // 44.4082 to three significant digits: 44.4; 1638.4 keeps its four integer digits: 1638.
/// assert_eq!(number(44.4082), "44.4");
/// assert_eq!(number(1638.4), "1638");
/// assert_eq!(number(0.015342), "0.0153");
/// assert_eq!(number(80.0), "80");
/// ```
pub fn number(v: f64) -> String {
    if !v.is_finite() {
        return v.to_string();
    }
    let a = v.abs();
    let decimals = if a == 0.0 || a >= 100.0 {
        0
    } else {
        (2 - a.log10().floor() as i32).clamp(0, 15) as usize
    };
    crate::units::short(v, decimals)
}

/// `v` over `divisor` with `name`, unless the number would read as `step` or more (a hair under the
/// next prefix: 1023.9996 MB reads `1024`), then over `divisor * step` with `next`.
fn scaled(v: f64, divisor: f64, name: &str, next: Option<(f64, &str)>) -> String {
    let text = number(v / divisor);
    if let Some((step, next)) = next {
        if text.parse::<f64>().is_ok_and(|n| n.abs() >= step) {
            return format!("{} {next}", number(v / (divisor * step)));
        }
    }
    format!("{text} {name}")
}

/// A value of a counter measured by `measure` (its values times `measure.multiplier` are the unit's
/// base: bytes, seconds) as users read it, the one rule of the module doc: `97.3%`, `1638`, `25000/s`,
/// `286 MB`, `3 MB/s`, `25 ms`. No value (NaN) is the empty string, as Perfmon leaves the cell empty.
///
/// ```
/// use counterlens::units::{Measure, Unit};
/// use counterlens::words::value;
/// let m = |unit, multiplier| Measure { unit, multiplier };
/// assert_eq!(value(12.5, m(Unit::Percent, 1.0)), "12.5%");
/// // 300,000,000 B / 1024^2 = 286.1 MB: three significant digits, 286 MB.
/// assert_eq!(value(300_000_000.0, m(Unit::Bytes, 1.0)), "286 MB");
/// // 0.025 s: 25 ms.
/// assert_eq!(value(0.025, m(Unit::Seconds, 1.0)), "25 ms");
/// ```
pub fn value(v: f64, measure: Measure) -> String {
    if v.is_nan() {
        return String::new();
    }
    if v.is_infinite() {
        return if v > 0.0 { "∞".into() } else { "-∞".into() };
    }
    let base = v * measure.multiplier;
    match measure.unit {
        Unit::Percent => format!("{}%", number(v)),
        Unit::PerSecond => format!("{}/s", number(base)),
        Unit::Count => number(base),
        Unit::Bytes | Unit::BytesPerSecond => {
            let (d, name) = byte_prefix(base);
            let next = match name {
                "B" => Some("KB"),
                "KB" => Some("MB"),
                "MB" => Some("GB"),
                "GB" => Some("TB"),
                "TB" => Some("PB"),
                _ => None,
            };
            let text = scaled(base, d, name, next.map(|n| (1024.0, n)));
            if measure.unit == Unit::BytesPerSecond {
                text + "/s"
            } else {
                text
            }
        }
        Unit::Seconds => {
            let a = base.abs();
            if a > 0.0 && a < 1e-3 {
                scaled(base, 1e-6, "µs", Some((1000.0, "ms")))
            } else if a > 0.0 && a < 1.0 {
                scaled(base, 1e-3, "ms", Some((1000.0, "s")))
            } else {
                format!("{} s", number(base))
            }
        }
    }
}

/// A time as users read it, in a zone `offset_ms` ahead of UTC (local = UTC + offset): `10:40`, with
/// seconds when they are not zero (`10:40:05`), after the date when `with_date` (`2026-11-20 10:40`). To
/// the nearest second, rounded before the day is split off: 23:59:59.5 is the next day's `00:00`. `?`
/// for what is not a time.
///
/// ```
/// use counterlens::words::clock;
/// // 1 795 305 600 000 ms = 20 779 days after 1970-01-01: 2026-11-22 00:00 UTC; an hour ahead, 01:00.
/// assert_eq!(clock(1_795_305_600_000.0, 3_600_000.0, true), "2026-11-22 01:00");
/// assert_eq!(clock(1_795_305_605_000.0, 0.0, false), "00:00:05");
/// ```
pub fn clock(ms: f64, offset_ms: f64, with_date: bool) -> String {
    if !ms.is_finite() || !offset_ms.is_finite() {
        return "?".into();
    }
    let local_s = ((ms + offset_ms) / 1000.0).round();
    let days = (local_s / 86_400.0).floor();
    let secs = (local_s - days * 86_400.0) as i64;
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    let time = if s == 0 {
        format!("{h:02}:{m:02}")
    } else {
        format!("{h:02}:{m:02}:{s:02}")
    };
    if with_date {
        let (y, mo, d) = crate::civil::civil_from_days(days as i64);
        format!("{y:04}-{mo:02}-{d:02} {time}")
    } else {
        time
    }
}

/// The machine of a counter path as written, without its backslashes (`\\WEB01\Memory\...` -> `WEB01`);
/// empty for a path without one.
pub fn machine(path: &str) -> &str {
    path.strip_prefix("\\\\")
        .map_or("", |rest| rest.split('\\').next().unwrap_or(""))
}

/// A counter path without its machine (`\\WEB01\Memory\Available MBytes` -> `\Memory\Available MBytes`);
/// a path without one as it is.
pub fn without_machine(path: &str) -> &str {
    match path.strip_prefix("\\\\") {
        Some(rest) => rest.find('\\').map_or("", |k| &rest[k..]),
        None => path,
    }
}

/// The indices of the paths `pattern` selects (`PathPattern`'s rules: `*`, `?`, case-insensitive, a
/// localized path by its English names too), in their order: the CLI's `-c` and the viewer's filter.
pub fn matching<'a>(
    pattern: &PathPattern,
    paths: impl IntoIterator<Item = &'a CounterPath>,
) -> Vec<usize> {
    paths
        .into_iter()
        .enumerate()
        .filter(|(_, p)| pattern.matches(p))
        .map(|(i, _)| i)
        .collect()
}

/// Logical processors: distinct `Processor(*)` instances other than `_Total` (written or English object
/// name), counted per machine; the largest machine's count where a capture holds several. None when the
/// capture has no such instance.
pub fn logical_processors(paths: &[FoldedPath]) -> Option<usize> {
    let mut per_machine: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for p in paths {
        if p.english_or_own().0 != "processor" {
            continue;
        }
        if let Some(i) = p.instance.as_deref().filter(|i| *i != "_total") {
            per_machine.entry(&p.machine).or_default().insert(i);
        }
    }
    per_machine.values().map(|s| s.len()).max()
}

/// [`logical_processors`] of paths as written (those that are no counter path are left out).
pub fn logical_processors_of<'a>(paths: impl IntoIterator<Item = &'a str>) -> Option<usize> {
    let folded: Vec<FoldedPath> = paths
        .into_iter()
        .filter_map(parse)
        .map(|p| FoldedPath::new(&p))
        .collect();
    logical_processors(&folded)
}

/// A duration in words: `82 s` below two minutes, `20 min` below two hours (rounded to the minute),
/// `2 h 5 min` below two days, `2 d 3 h` beyond (rounded to the hour); `?` for what is not a duration
/// (negative, NaN, infinite).
///
/// ```
/// use counterlens::words::duration;
/// assert_eq!(duration(82_000.0), "82 s");
/// // 1 185 s = 19.75 min, to the nearest minute: 20 min.
/// assert_eq!(duration(1_185_000.0), "20 min");
/// // 7 500 s = 125 min = 2 h 5 min.
/// assert_eq!(duration(7_500_000.0), "2 h 5 min");
/// assert_eq!(duration(f64::NAN), "?");
/// ```
pub fn duration(ms: f64) -> String {
    if !ms.is_finite() || ms < 0.0 {
        return "?".into();
    }
    let s = (ms / 1000.0).round() as u64;
    match s {
        0..=119 => format!("{s} s"),
        120..=7_199 => format!("{} min", (s + 30) / 60),
        7_200..=172_799 => {
            let m = (s + 30) / 60;
            match m % 60 {
                0 => format!("{} h", m / 60),
                r => format!("{} h {r} min", m / 60),
            }
        }
        _ => {
            let h = (s + 1800) / 3600;
            match h % 24 {
                0 => format!("{} d", h / 24),
                r => format!("{} d {r} h", h / 24),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// A value reads to three significant digits (within half a unit of the third: 0.5% of it)
        /// and never loses an integer digit: the text's whole part has as many digits as the value's
        /// (or one more, where rounding carries: 999.6 reads 1000).
        #[test]
        fn numbers_keep_three_digits_and_every_integer_digit(v in -1e12f64..1e12) {
            let text = number(v);
            let read: f64 = text.parse().unwrap();
            prop_assert!((read - v).abs() <= 0.005 * v.abs() + 1e-12, "{v} {text}");
            let digits = |x: f64| x.abs().trunc().to_string().len();
            if v.abs() >= 1.0 {
                let (a, b) = (digits(v), digits(read));
                prop_assert!(b == a || b == a + 1, "{v} {text}");
            }
            prop_assert!(!text.contains('.') || !text.ends_with('0'), "{text}");
        }

        /// A size reads under 1024 of its prefix, and reads back to within 0.5% of the value.
        #[test]
        fn sizes_read_under_1024_of_their_prefix(v in 0.0f64..1e15) {
            let text = value(v, Measure { unit: Unit::Bytes, multiplier: 1.0 });
            let (n, prefix) = text.split_once(' ').unwrap();
            let n: f64 = n.parse().unwrap();
            prop_assert!(n < 1024.0, "{v} {text}");
            let k = ["B", "KB", "MB", "GB", "TB", "PB"].iter().position(|p| *p == prefix).unwrap();
            let back = n * 1024f64.powi(k as i32);
            prop_assert!((back - v).abs() <= 0.005 * v + 1e-9, "{v} {text}");
        }

        /// A longer duration never reads shorter: the number of seconds the words stand for does not
        /// go down as the duration grows.
        #[test]
        fn words_grow_with_the_duration(a in 0u64..10_000_000, b in 0u64..10_000_000) {
            let seconds = |t: &str| -> u64 {
                let mut total = 0;
                let parts: Vec<&str> = t.split(' ').collect();
                for w in parts.chunks(2) {
                    let n: u64 = w[0].parse().unwrap();
                    total += n * match w[1] { "s" => 1, "min" => 60, "h" => 3600, "d" => 86_400, u => panic!("{u}") };
                }
                total
            };
            let (lo, hi) = (a.min(b) as f64 * 1000.0, a.max(b) as f64 * 1000.0);
            prop_assert!(seconds(&duration(lo)) <= seconds(&duration(hi)), "{} {}", duration(lo), duration(hi));
        }
    }
}
