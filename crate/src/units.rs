//! Units of counters, and values written in them: the one place that classifies a counter (percent, per
//! second, bytes per second, bytes, seconds, plain count) and formats a value by its unit, for the charts
//! (an axis per unit and its labels) and the analysis (which unit a message's value is in).
//!
//! A counter's unit comes from its counter type's display (perflib.h's PERF_DISPLAY_* bits: per second,
//! percent, seconds) where the capture has the type, and from its name otherwise ("% ...", ".../sec",
//! "...MBytes", "Avg. Disk sec/Read"), as Perfmon's users read them. A value as users read it (legend,
//! readouts, tables, messages, the report) is `crate::words::value`, the one rule; an axis's labels are
//! `format_in_unit` (decimals by the step between labels, k/M/G: the exception `words` names). A counter
//! type's own display text (PDH's suffixes, hex, grouping) is `crate::format`.

use crate::types::{CounterType, Display};
use serde::Serialize;

/// What a counter's values measure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Unit {
    Percent,
    PerSecond,
    BytesPerSecond,
    Bytes,
    Seconds,
    #[default]
    Count,
}

impl Unit {
    /// Every unit (the JS `ChartUnit` union lists their keys: crate/tests/js_types.rs).
    pub const ALL: [Unit; 6] = [
        Unit::Percent,
        Unit::PerSecond,
        Unit::BytesPerSecond,
        Unit::Bytes,
        Unit::Seconds,
        Unit::Count,
    ];

    /// The unit named as `title` or the serialized (kebab-case) name gives it; None for any other text.
    pub fn parse(text: &str) -> Option<Unit> {
        Unit::ALL
            .into_iter()
            .find(|u| u.title() == text || u.key() == text)
    }

    /// The name the layout and the JS API use.
    pub fn key(self) -> &'static str {
        match self {
            Unit::Percent => "percent",
            Unit::PerSecond => "per-second",
            Unit::BytesPerSecond => "bytes-per-second",
            Unit::Bytes => "bytes",
            Unit::Seconds => "seconds",
            Unit::Count => "count",
        }
    }

    /// The axis title of this unit.
    pub fn title(self) -> &'static str {
        match self {
            Unit::Percent => "percent",
            Unit::PerSecond => "per second",
            Unit::BytesPerSecond => "bytes/s",
            Unit::Bytes => "bytes",
            Unit::Seconds => "seconds",
            Unit::Count => "count",
        }
    }
}

/// A counter's unit and the factor from its values to the unit's base: `Available MBytes` counts
/// mebibytes, so its values times 1 048 576 are bytes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Measure {
    pub unit: Unit,
    pub multiplier: f64,
}

impl Default for Measure {
    fn default() -> Self {
        Measure {
            unit: Unit::Count,
            multiplier: 1.0,
        }
    }
}

/// The unit of a counter named `counter` (the last part of its path) with type `counter_type` when known.
pub fn measure_of(counter_type: Option<u32>, counter: &str) -> Measure {
    let name = counter.to_lowercase();
    let display = counter_type.map(|t| CounterType::from_value(t).display());
    let m = |unit, multiplier| Measure { unit, multiplier };
    // "% Committed Bytes In Use" is a percentage of bytes: the percent sign wins.
    if name.starts_with('%') || display == Some(Display::Percent) {
        return m(Unit::Percent, 1.0);
    }
    let bytes = if name.contains("gbytes") || name.contains("gigabytes") {
        Some(1024.0 * 1024.0 * 1024.0)
    } else if name.contains("mbytes") || name.contains("megabytes") {
        Some(1024.0 * 1024.0)
    } else if name.contains("kbytes") || name.contains("kilobytes") {
        Some(1024.0)
    } else if name.contains("bytes") {
        Some(1.0)
    } else {
        None
    };
    let per_second = name.contains("/sec")
        || name.contains("per sec")
        || name.contains("/s ")
        || name.ends_with("/s")
        || display == Some(Display::PerSecond);
    match (bytes, per_second) {
        (Some(b), true) => return m(Unit::BytesPerSecond, b),
        (Some(b), false) => return m(Unit::Bytes, b),
        (None, true) => return m(Unit::PerSecond, 1.0),
        _ => {}
    }
    if display == Some(Display::Seconds)
        || name.contains("sec/")
        || name.contains("seconds")
        || name.contains("elapsed time")
    {
        return m(Unit::Seconds, 1.0);
    }
    m(Unit::Count, 1.0)
}

/// A number short and without trailing zeros, at most `decimals` after the point (`-0` is `0`).
pub(crate) fn short(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    let text = if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        &text
    };
    if text == "-0" {
        "0".into()
    } else {
        text.into()
    }
}

/// Decimals that show a value of about `span` to three significant digits.
fn decimals_for(span: f64) -> usize {
    if !(span.is_finite()) || span <= 0.0 {
        return 2;
    }
    (2.0 - span.log10().floor()).clamp(0.0, 9.0) as usize
}

/// The binary prefix (power of 1024) that shows `magnitude` bytes as a number under 1024.
pub fn byte_prefix(magnitude: f64) -> (f64, &'static str) {
    const NAMES: [&str; 6] = ["B", "KB", "MB", "GB", "TB", "PB"];
    let mut k = 0;
    let mut d = 1.0;
    while k + 1 < NAMES.len() && magnitude.abs() >= d * 1024.0 {
        d *= 1024.0;
        k += 1;
    }
    (d, NAMES[k])
}

/// A value in the unit's base (bytes, seconds, ...) as text, with `magnitude` (the largest value on the
/// axis, or the value itself) choosing the prefix and `span` the decimals, so an axis's labels agree.
pub fn format_in_unit(unit: Unit, v: f64, magnitude: f64, span: f64) -> String {
    if v.is_nan() {
        return String::new();
    }
    let count = |v: f64, span: f64| {
        let a = magnitude.abs();
        let (d, suffix) = match a {
            a if a >= 1e10 => (1e9, "G"),
            a if a >= 1e7 => (1e6, "M"),
            a if a >= 1e4 => (1e3, "k"),
            _ => (1.0, ""),
        };
        format!("{}{suffix}", short(v / d, decimals_for(span / d)))
    };
    match unit {
        Unit::Percent => format!("{}%", short(v, decimals_for(span))),
        Unit::PerSecond => format!("{}/s", count(v, span)),
        Unit::Count => count(v, span),
        Unit::Bytes | Unit::BytesPerSecond => {
            let (d, name) = byte_prefix(magnitude);
            let per = if unit == Unit::BytesPerSecond {
                "/s"
            } else {
                ""
            };
            format!("{} {name}{per}", short(v / d, decimals_for(span / d)))
        }
        Unit::Seconds => {
            let a = magnitude.abs();
            let (d, name) = if a > 0.0 && a < 1e-3 {
                (1e-6, "µs")
            } else if a > 0.0 && a < 1.0 {
                (1e-3, "ms")
            } else {
                (1.0, "s")
            };
            format!("{} {name}", short(v / d, decimals_for(span / d)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_from_types_and_names() {
        // PERF_100NSEC_TIMER_INV (0x21510500) displays as percent.
        assert_eq!(
            measure_of(Some(0x2151_0500), "% Processor Time").unit,
            Unit::Percent
        );
        assert_eq!(measure_of(None, "% Processor Time").unit, Unit::Percent);
        assert_eq!(
            measure_of(None, "% Committed Bytes In Use").unit,
            Unit::Percent
        );
        // 1 MiB = 1024 * 1024 = 1 048 576 bytes.
        assert_eq!(
            measure_of(None, "Available MBytes"),
            Measure {
                unit: Unit::Bytes,
                multiplier: 1_048_576.0
            }
        );
        assert_eq!(measure_of(None, "Available KBytes").multiplier, 1024.0);
        assert_eq!(
            measure_of(None, "Disk Bytes/sec").unit,
            Unit::BytesPerSecond
        );
        assert_eq!(measure_of(None, "Pages/sec").unit, Unit::PerSecond);
        // PERF_COUNTER_COUNTER (0x10410400) displays per second whatever its name.
        assert_eq!(
            measure_of(Some(0x1041_0400), "Interrupts").unit,
            Unit::PerSecond
        );
        assert_eq!(measure_of(None, "Avg. Disk sec/Read").unit, Unit::Seconds);
        // PERF_ELAPSED_TIME (0x30240500) displays as seconds.
        assert_eq!(measure_of(Some(0x3024_0500), "Uptime").unit, Unit::Seconds);
        assert_eq!(measure_of(None, "Processor Queue Length").unit, Unit::Count);
    }

    #[test]
    fn unit_names_round_trip() {
        for u in Unit::ALL {
            assert_eq!(Unit::parse(u.key()), Some(u));
            assert_eq!(Unit::parse(u.title()), Some(u));
        }
        assert_eq!(Unit::parse("<script>"), None);
    }

    #[test]
    fn axis_labels_by_unit() {
        // On an axis with steps of 20 the labels have no decimals.
        assert_eq!(format_in_unit(Unit::Percent, 40.0, 100.0, 20.0), "40%");
        // 8000 MiB = 8000 * 1 048 576 = 8 388 608 000 bytes = 7.8125 GiB: shown as 7.81 GB.
        assert_eq!(
            format_in_unit(
                Unit::Bytes,
                8_388_608_000.0,
                8_388_608_000.0,
                8_388_608_000.0
            ),
            "7.81 GB"
        );
        assert_eq!(format_in_unit(Unit::Bytes, 512.0, 512.0, 512.0), "512 B");
        assert_eq!(
            format_in_unit(Unit::BytesPerSecond, 2048.0, 2048.0, 2048.0),
            "2 KB/s"
        );
        assert_eq!(
            format_in_unit(Unit::Seconds, 0.0123, 0.0123, 0.0123),
            "12.3 ms"
        );
        assert_eq!(format_in_unit(Unit::Seconds, 2.5, 2.5, 2.5), "2.5 s");
        assert_eq!(
            format_in_unit(Unit::PerSecond, 25_000.0, 25_000.0, 25_000.0),
            "25k/s"
        );
        assert_eq!(format_in_unit(Unit::Count, 7.0, 7.0, 7.0), "7");
        assert_eq!(format_in_unit(Unit::Count, f64::NAN, 1.0, 1.0), "");
    }
}
