//! `format_value`: the text a user sees for a cooked value, following the counter's display type and
//! its PERF_COUNTER_REG_INFO attributes (display-as-hex, display-as-real, no-group-separator).
//!
//! Rules (docs/counter-types.md, "Formatting"):
//! - no value (NaN) is the empty string, as Perfmon leaves the cell empty; the no-display attribute too;
//! - hex: hex display types and the display-as-hex attribute print `0x` and lower-case digits of the
//!   integer value. Where display-as-hex is combined with no-group-separator or display-as-real (which
//!   MS-PCQ forbids), the SDK's precedence order lets those win (perflib.h);
//! - integers: raw counts and deltas print as integers with group separators, unless display-as-real;
//! - reals: three decimals, more for values below 1 so that three significant digits remain;
//! - suffixes: `/sec`, `%`, ` s` by display type.

use crate::types::{CounterType, Display, Formula};

// A counter's Attrib bits (perflib.h PERF_ATTRIB_*, [MS-PCQ] 2.2.4.2): the one definition, read by the
// display rules here and by the registration rules.
pub const ATTRIB_REFERENCE: u64 = 0x1;
pub const ATTRIB_NO_DISPLAY: u64 = 0x2;
pub const ATTRIB_NO_GROUP_SEPARATOR: u64 = 0x4;
pub const ATTRIB_DISPLAY_AS_REAL: u64 = 0x8;
pub const ATTRIB_DISPLAY_AS_HEX: u64 = 0x10;
/// Every bit an attribute defines.
pub const ATTRIB_KNOWN: u64 = ATTRIB_REFERENCE
    | ATTRIB_NO_DISPLAY
    | ATTRIB_NO_GROUP_SEPARATOR
    | ATTRIB_DISPLAY_AS_REAL
    | ATTRIB_DISPLAY_AS_HEX;

/// Inserts `,` every three digits of the integer part of a plain decimal number text.
fn group(text: &str) -> String {
    let (sign, rest) = text.strip_prefix('-').map_or(("", text), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::with_capacity(text.len() + int.len() / 3);
    out.push_str(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

/// Decimals for a real: 3, or enough that three significant digits show for |v| < 1.
fn decimals(v: f64) -> usize {
    let a = v.abs();
    if a == 0.0 || a >= 1.0 {
        3
    } else {
        (2 - a.log10().floor() as i32).clamp(3, 17) as usize
    }
}

pub fn format_value(value: f64, ty: CounterType, attrib: u64) -> String {
    if value.is_nan() || attrib & ATTRIB_NO_DISPLAY != 0 {
        return String::new();
    }
    if value.is_infinite() {
        return if value > 0.0 {
            "∞".into()
        } else {
            "-∞".into()
        };
    }
    let display = ty.display();
    let real_attr = attrib & ATTRIB_DISPLAY_AS_REAL != 0;
    let no_group = attrib & ATTRIB_NO_GROUP_SEPARATOR != 0;
    let hex =
        (display == Display::Hex || attrib & ATTRIB_DISPLAY_AS_HEX != 0) && !real_attr && !no_group;
    // Hex of a non-negative integer that fits u64; anything else cannot be hex and prints as a number.
    if hex && (0.0..18_446_744_073_709_551_616.0).contains(&value) && value.fract() == 0.0 {
        return format!("0x{:x}", value as u64);
    }
    let integer_type = matches!(ty.formula(), Some(Formula::Raw | Formula::Delta));
    let text = if integer_type && !real_attr && value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value:.*}", decimals(value))
    };
    let text = if no_group { text } else { group(&text) };
    let suffix = match display {
        Display::PerSecond => "/sec",
        Display::Percent => "%",
        Display::Seconds => " s",
        _ => "",
    };
    text + suffix
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::parse_type;

    fn f(v: f64, t: &str, a: u64) -> String {
        format_value(v, parse_type(t).unwrap(), a)
    }

    #[test]
    fn suffixes_by_display() {
        assert_eq!(f(250.0, "PERF_COUNTER_COUNTER", 0), "250.000/sec");
        assert_eq!(f(12.5, "PERF_100NSEC_TIMER", 0), "12.500%");
        assert_eq!(f(0.5, "PERF_AVERAGE_TIMER", 0), "0.500 s");
        assert_eq!(f(2.5, "PERF_COUNTER_100NS_QUEUELEN_TYPE", 0), "2.500");
    }

    #[test]
    fn integers_group_and_reals_keep_three_decimals() {
        // 1234567 -> "1,234,567": groups of three from the right.
        assert_eq!(f(1_234_567.0, "PERF_COUNTER_RAWCOUNT", 0), "1,234,567");
        assert_eq!(
            f(
                1_234_567.0,
                "PERF_COUNTER_RAWCOUNT",
                ATTRIB_NO_GROUP_SEPARATOR
            ),
            "1234567"
        );
        assert_eq!(
            f(1_234_567.0, "PERF_COUNTER_RAWCOUNT", ATTRIB_DISPLAY_AS_REAL),
            "1,234,567.000"
        );
        assert_eq!(f(-1234.5, "PERF_COUNTER_COUNTER", 0), "-1,234.500/sec");
        assert_eq!(f(123.0, "PERF_COUNTER_DELTA", 0), "123");
        // A scaled raw count is no longer an integer: it prints as a real.
        assert_eq!(f(40.96, "PERF_COUNTER_RAWCOUNT", 0), "40.960");
    }

    #[test]
    fn small_values_keep_three_significant_digits() {
        // 0.000123: log10 = -3.91, floor -4, decimals = 2 + 4 = 6 -> "0.000123"
        assert_eq!(f(0.000123, "PERF_AVERAGE_TIMER", 0), "0.000123 s");
        // 0.0123: floor(log10) = -2 -> 4 decimals
        assert_eq!(f(0.0123, "PERF_COUNTER_COUNTER", 0), "0.0123/sec");
        assert_eq!(f(0.0, "PERF_COUNTER_COUNTER", 0), "0.000/sec");
    }

    #[test]
    fn hex_by_type_and_attribute_with_precedence() {
        assert_eq!(f(255.0, "PERF_COUNTER_RAWCOUNT_HEX", 0), "0xff");
        assert_eq!(
            f(4294967297.0, "PERF_COUNTER_LARGE_RAWCOUNT_HEX", 0),
            "0x100000001"
        );
        assert_eq!(
            f(255.0, "PERF_COUNTER_RAWCOUNT", ATTRIB_DISPLAY_AS_HEX),
            "0xff"
        );
        // MS-PCQ forbids hex with no-group-separator or display-as-real; perflib.h ranks those first.
        assert_eq!(
            f(
                255.0,
                "PERF_COUNTER_RAWCOUNT",
                ATTRIB_DISPLAY_AS_HEX | ATTRIB_NO_GROUP_SEPARATOR
            ),
            "255"
        );
        assert_eq!(
            f(
                255.0,
                "PERF_COUNTER_RAWCOUNT",
                ATTRIB_DISPLAY_AS_HEX | ATTRIB_DISPLAY_AS_REAL
            ),
            "255.000"
        );
        // A value that cannot be hex (negative or fractional) prints as a number rather than lie.
        assert_eq!(f(-3.0, "PERF_COUNTER_RAWCOUNT_HEX", 0), "-3");
        assert_eq!(f(2.5, "PERF_COUNTER_RAWCOUNT_HEX", 0), "2.500");
        // The reference attribute changes nothing about the text.
        assert_eq!(
            f(255.0, "PERF_COUNTER_RAWCOUNT_HEX", ATTRIB_REFERENCE),
            "0xff"
        );
    }

    #[test]
    fn no_value_and_no_display_are_empty() {
        assert_eq!(f(f64::NAN, "PERF_COUNTER_COUNTER", 0), "");
        assert_eq!(f(5.0, "PERF_COUNTER_COUNTER", ATTRIB_NO_DISPLAY), "");
        assert_eq!(f(f64::INFINITY, "PERF_COUNTER_COUNTER", 0), "∞");
        // Unknown types format by their bit fields: 0x20C20500 has the percent suffix bits.
        assert_eq!(f(5.0, "0x20C20500", 0), "5.000%");
    }
}
