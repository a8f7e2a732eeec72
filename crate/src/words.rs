//! What users read, written one way (issue 41): the words the core gives a figure wherever it is shown,
//! the cards, the findings' messages, the report, the CLI, the MCP server and (through `wasm/`) the
//! viewer. So far durations, [`duration`]: the one rule, `formatDuration` in JavaScript. Values in a
//! counter's unit are `units::format_reading`; the rest of the issue's list (significant digits across
//! legend and statistics, clock text, series identity, the logical-processor count) is still written
//! where it is used. The cases are `tests/vectors/words.json`, read by the Rust and the package's tests.

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
