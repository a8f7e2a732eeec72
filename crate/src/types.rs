//! The counter type model: every named Windows counter type, its bit-field decoding, and the parsing
//! of a type from any of the spellings users have (number, hex text, `PERF_` name, the lower-case
//! manifest name, the .NET `PerformanceCounterType` name).
//!
//! Sources: the table is `docs/counter-types.md` (derived from [MS-PCQ] 2.2.4.2, the SDK's
//! "Calculating Counter Values" sample and the NT Resource Kit's tables 12.3/12.4). The bit-field values
//! are those of the public header winperf.h, which the Resource Kit's table 12.3 names without numbers.

use serde::Serialize;
use std::fmt;

/// How a cooked value is shown (the `display` of the public API).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Display {
    PerSecond,
    Percent,
    Seconds,
    None,
    Decimal,
    Hex,
    Text,
    Hidden,
}

impl Display {
    pub fn as_str(self) -> &'static str {
        match self {
            Display::PerSecond => "per-second",
            Display::Percent => "percent",
            Display::Seconds => "seconds",
            Display::None => "none",
            Display::Decimal => "decimal",
            Display::Hex => "hex",
            Display::Text => "text",
            Display::Hidden => "hidden",
        }
    }
}

/// The calculation a type performs; one variant per distinct formula of the table.
/// `N` raw value, `D` time stamp or base (`B` for fraction types), `F` frequency, `M` multi count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Formula {
    /// `dN / (dD / F)`: COUNTER_COUNTER, SAMPLE_COUNTER, BULK_COUNT.
    Rate,
    /// `dN / dD`: the four QUEUELEN types.
    Queue,
    /// `100 * dN / dD` (or `dB`): timers, precision timers, SAMPLE_FRACTION.
    Timer,
    /// `100 * (1 - dN / dD)`.
    TimerInv,
    /// `100 * (dN / (dD / F)) / M1`: COUNTER_MULTI_TIMER.
    MultiTimerTick,
    /// `100 * (dN / dD) / M1`: 100NSEC_MULTI_TIMER.
    MultiTimer100Ns,
    /// `100 * (M1 - dN / dD)`: both MULTI_TIMER_INV types.
    MultiTimerInv,
    /// `(dN / F) / dB`: AVERAGE_TIMER.
    AverageTimer,
    /// `dN / dB`: AVERAGE_BULK.
    AverageBulk,
    /// `dN`: COUNTER_DELTA, COUNTER_LARGE_DELTA.
    Delta,
    /// `N1`: the four RAWCOUNT types.
    Raw,
    /// `100 * N1 / B1`: RAW_FRACTION, LARGE_RAW_FRACTION.
    RawFraction,
    /// `(D1 - N1) / F`: ELAPSED_TIME.
    Elapsed,
    /// Bases, NODATA, HISTOGRAM: no number to show.
    NotDisplayable,
    /// PERF_COUNTER_TEXT: text, not a number.
    Text,
}

/// Everything about a formula except its arithmetic (`cook::compute`): which fields it reads beyond N,
/// and how `explain` writes it with the sample's numbers. `second` is read from both samples of a
/// two-sample type; `frequency` and `multi` from the newer sample only ("Calculating Counter Values").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FormulaSpec {
    pub second: bool,
    pub frequency: bool,
    pub multi: bool,
    /// The formula over the raw fields, `{n0}` `{n1}` `{d0}` `{d1}` `{f}` `{m1}` standing for the
    /// numbers (older and newer N and D, F, newer M), written in the order of the table's formula text.
    pub substituted: &'static str,
}

impl FormulaSpec {
    const fn new(reads: (bool, bool, bool), substituted: &'static str) -> Self {
        FormulaSpec {
            second: reads.0,
            frequency: reads.1,
            multi: reads.2,
            substituted,
        }
    }
}

impl Formula {
    /// The formula's inputs and its written form: the one table `cook`, `series` and `explain` read.
    ///
    /// ```
    /// use counterlens::types::Formula;
    /// let s = Formula::Rate.spec();
    /// assert!(s.second && s.frequency && !s.multi);
    /// assert_eq!(s.substituted, "({n1} - {n0}) / (({d1} - {d0}) / {f})");
    /// ```
    pub const fn spec(self) -> FormulaSpec {
        // (second, frequency, multi)
        const D: (bool, bool, bool) = (true, false, false);
        const DF: (bool, bool, bool) = (true, true, false);
        const DM: (bool, bool, bool) = (true, false, true);
        const DFM: (bool, bool, bool) = (true, true, true);
        const NONE: (bool, bool, bool) = (false, false, false);
        match self {
            Formula::Rate => FormulaSpec::new(DF, "({n1} - {n0}) / (({d1} - {d0}) / {f})"),
            Formula::Queue | Formula::AverageBulk => {
                FormulaSpec::new(D, "({n1} - {n0}) / ({d1} - {d0})")
            }
            Formula::Timer => FormulaSpec::new(D, "100 * ({n1} - {n0}) / ({d1} - {d0})"),
            Formula::TimerInv => FormulaSpec::new(D, "100 * (1 - ({n1} - {n0}) / ({d1} - {d0}))"),
            Formula::MultiTimerTick => {
                FormulaSpec::new(DFM, "100 * (({n1} - {n0}) / (({d1} - {d0}) / {f})) / {m1}")
            }
            Formula::MultiTimer100Ns => {
                FormulaSpec::new(DM, "100 * (({n1} - {n0}) / ({d1} - {d0})) / {m1}")
            }
            Formula::MultiTimerInv => {
                FormulaSpec::new(DM, "100 * ({m1} - ({n1} - {n0}) / ({d1} - {d0}))")
            }
            Formula::AverageTimer => FormulaSpec::new(DF, "(({n1} - {n0}) / {f}) / ({d1} - {d0})"),
            Formula::Delta => FormulaSpec::new(NONE, "{n1} - {n0}"),
            Formula::Raw => FormulaSpec::new(NONE, "{n1}"),
            Formula::RawFraction => FormulaSpec::new(D, "100 * {n1} / {d1}"),
            Formula::Elapsed => FormulaSpec::new(DF, "({d1} - {n1}) / {f}"),
            Formula::NotDisplayable | Formula::Text => FormulaSpec::new(NONE, ""),
        }
    }

    /// How many samples the calculation needs (0: not displayable).
    pub fn samples(self) -> u8 {
        match self {
            Formula::NotDisplayable => 0,
            // The contract lists TEXT with one sample: it is read from one sample, just not as a number.
            Formula::Raw | Formula::RawFraction | Formula::Elapsed | Formula::Text => 1,
            _ => 2,
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypeRow {
    pub value: u32,
    pub name: &'static str,
    pub formula: Formula,
    /// The formula as the documentation writes it.
    pub formula_text: &'static str,
    pub display: Display,
    /// The .NET `System.Diagnostics.PerformanceCounterType` member with this value, if any.
    pub dotnet: Option<&'static str>,
}

macro_rules! rows {
    ($( $value:literal $name:literal $formula:ident $text:literal $display:ident $dotnet:expr ;)*) => {
        /// Every named counter type, in the order of `docs/counter-types.md`.
        pub const TYPES: &[TypeRow] = &[
            $( TypeRow { value: $value, name: $name, formula: Formula::$formula, formula_text: $text,
                         display: Display::$display, dotnet: $dotnet }, )*
        ];
    };
}

rows! {
    0x10410400 "PERF_COUNTER_COUNTER" Rate "dN / (dD / F)" PerSecond Some("RateOfCountsPerSecond32");
    0x00410400 "PERF_SAMPLE_COUNTER" Rate "dN / (dD / F)" None Some("SampleCounter");
    0x10410500 "PERF_COUNTER_BULK_COUNT" Rate "dN / (dD / F)" PerSecond Some("RateOfCountsPerSecond64");
    0x00450400 "PERF_COUNTER_QUEUELEN_TYPE" Queue "dN / dD" None Some("CountPerTimeInterval32");
    0x00450500 "PERF_COUNTER_LARGE_QUEUELEN_TYPE" Queue "dN / dD" None Some("CountPerTimeInterval64");
    0x00550500 "PERF_COUNTER_100NS_QUEUELEN_TYPE" Queue "dN / dD (D in 100 ns)" None None;
    0x00650500 "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE" Queue "dN / dD (D = object time)" None None;
    0x20410500 "PERF_COUNTER_TIMER" Timer "100 * dN / dD" Percent Some("CounterTimer");
    0x20610500 "PERF_OBJ_TIME_TIMER" Timer "100 * dN / dD (D = object time)" Percent None;
    0x20510500 "PERF_100NSEC_TIMER" Timer "100 * dN / dD" Percent Some("Timer100Ns");
    0x20470500 "PERF_PRECISION_SYSTEM_TIMER" Timer "100 * dN / dB" Percent None;
    0x20570500 "PERF_PRECISION_100NS_TIMER" Timer "100 * dN / dB" Percent None;
    0x20670500 "PERF_PRECISION_OBJECT_TIMER" Timer "100 * dN / dD (D = object time)" Percent None;
    0x20C20400 "PERF_SAMPLE_FRACTION" Timer "100 * dN / dB" Percent Some("SampleFraction");
    0x21410500 "PERF_COUNTER_TIMER_INV" TimerInv "100 * (1 - dN / dD)" Percent Some("CounterTimerInverse");
    0x21510500 "PERF_100NSEC_TIMER_INV" TimerInv "100 * (1 - dN / dD)" Percent Some("Timer100NsInverse");
    0x22410500 "PERF_COUNTER_MULTI_TIMER" MultiTimerTick "100 * (dN / (dD / F)) / M1" Percent Some("CounterMultiTimer");
    0x22510500 "PERF_100NSEC_MULTI_TIMER" MultiTimer100Ns "100 * (dN / dD) / M1" Percent Some("CounterMultiTimer100Ns");
    0x23410500 "PERF_COUNTER_MULTI_TIMER_INV" MultiTimerInv "100 * (M1 - dN / dD)" Percent Some("CounterMultiTimerInverse");
    0x23510500 "PERF_100NSEC_MULTI_TIMER_INV" MultiTimerInv "100 * (M1 - dN / dD)" Percent Some("CounterMultiTimer100NsInverse");
    0x30020400 "PERF_AVERAGE_TIMER" AverageTimer "(dN / F) / dB" Seconds Some("AverageTimer32");
    0x40020500 "PERF_AVERAGE_BULK" AverageBulk "dN / dB" Hidden Some("AverageCount64");
    0x00400400 "PERF_COUNTER_DELTA" Delta "dN" None Some("CounterDelta32");
    0x00400500 "PERF_COUNTER_LARGE_DELTA" Delta "dN" None Some("CounterDelta64");
    0x00010000 "PERF_COUNTER_RAWCOUNT" Raw "N1" Decimal Some("NumberOfItems32");
    0x00010100 "PERF_COUNTER_LARGE_RAWCOUNT" Raw "N1" Decimal Some("NumberOfItems64");
    0x00000000 "PERF_COUNTER_RAWCOUNT_HEX" Raw "N1" Hex Some("NumberOfItemsHEX32");
    0x00000100 "PERF_COUNTER_LARGE_RAWCOUNT_HEX" Raw "N1" Hex Some("NumberOfItemsHEX64");
    0x20020400 "PERF_RAW_FRACTION" RawFraction "100 * N1 / B1" Percent Some("RawFraction");
    0x20020500 "PERF_LARGE_RAW_FRACTION" RawFraction "100 * N1 / B1" Percent None;
    0x30240500 "PERF_ELAPSED_TIME" Elapsed "(D1 - N1) / F (D, F = object time and frequency)" Seconds Some("ElapsedTime");
    0x40030401 "PERF_SAMPLE_BASE" NotDisplayable "not displayable (base of SAMPLE_FRACTION)" Hidden Some("SampleBase");
    0x40030402 "PERF_AVERAGE_BASE" NotDisplayable "not displayable (base of AVERAGE_TIMER and AVERAGE_BULK)" Hidden Some("AverageBase");
    0x40030403 "PERF_RAW_BASE" NotDisplayable "not displayable (base of RAW_FRACTION)" Hidden Some("RawBase");
    0x40030500 "PERF_LARGE_RAW_BASE" NotDisplayable "not displayable (base of LARGE_RAW_FRACTION and the PRECISION timers)" Hidden None;
    0x42030500 "PERF_COUNTER_MULTI_BASE" NotDisplayable "not displayable (base of the MULTI timers)" Hidden Some("CounterMultiBase");
    0x40000200 "PERF_COUNTER_NODATA" NotDisplayable "not displayable (no data)" Hidden None;
    0x00000B00 "PERF_COUNTER_TEXT" Text "text, not numeric" Text None;
    0x80000000 "PERF_COUNTER_HISTOGRAM_TYPE" NotDisplayable "not displayable (histogram)" Hidden None;
}

/// Names accepted on input that are not the canonical name of their value.
const ALIASES: &[(&str, u32)] = &[("PERF_PRECISION_TIMESTAMP", 0x40030500)];

/// The bit fields of a counter type (NT Resource Kit table 12.3; values from winperf.h).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TypeFields {
    pub size: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub subtype: String,
    pub timer: String,
    pub delta: bool,
    pub delta_base: bool,
    pub inverse: bool,
    pub multi: bool,
    pub suffix: String,
}

pub const PERF_DELTA_COUNTER: u32 = 0x0040_0000;
pub const PERF_DELTA_BASE: u32 = 0x0080_0000;
pub const PERF_INVERSE_COUNTER: u32 = 0x0100_0000;
pub const PERF_MULTI_COUNTER: u32 = 0x0200_0000;

// The base types ([MS-PCQ] 2.2.4.2, winperf.h): a fraction or an average reads its denominator from a
// counter of one of these types (the next counter, in a PERF_OBJECT_TYPE).
pub const PERF_SAMPLE_BASE: u32 = 0x4003_0401;
pub const PERF_AVERAGE_BASE: u32 = 0x4003_0402;
pub const PERF_RAW_BASE: u32 = 0x4003_0403;
pub const PERF_LARGE_RAW_BASE: u32 = 0x4003_0500;

/// The base type a counter of type `value` must name as its BaseCounterId ([MS-PCQ] 2.2.4.2), if it
/// needs one. The MULTI timers' base (PERF_COUNTER_MULTI_BASE) is their MultiId, not a BaseCounterId.
///
/// ```
/// use counterlens::types::{required_base, PERF_AVERAGE_BASE};
/// assert_eq!(required_base(0x4002_0500), Some(PERF_AVERAGE_BASE)); // PERF_AVERAGE_BULK
/// assert_eq!(required_base(0x1041_0400), None); // PERF_COUNTER_COUNTER
/// ```
pub fn required_base(value: u32) -> Option<u32> {
    match value {
        0x3002_0400 | 0x4002_0500 => Some(PERF_AVERAGE_BASE), // AVERAGE_TIMER, AVERAGE_BULK
        // LARGE_RAW_FRACTION, PRECISION_SYSTEM_TIMER, PRECISION_100NS_TIMER
        0x2002_0500 | 0x2047_0500 | 0x2057_0500 => Some(PERF_LARGE_RAW_BASE),
        0x2002_0400 => Some(PERF_RAW_BASE),    // RAW_FRACTION
        0x20C2_0400 => Some(PERF_SAMPLE_BASE), // SAMPLE_FRACTION
        _ => None,
    }
}
const SIZE_MASK: u32 = 0x0000_0300;
const TYPE_MASK: u32 = 0x0000_0C00;
const SUBTYPE_MASK: u32 = 0x000F_0000;
/// The timer base field: PERF_TIMER_TICK (0), PERF_TIMER_100NS or PERF_OBJECT_TIMER.
pub const TIMER_MASK: u32 = 0x0030_0000;
pub const PERF_TIMER_100NS: u32 = 0x0010_0000;
pub const PERF_OBJECT_TIMER: u32 = 0x0020_0000;
const DISPLAY_MASK: u32 = 0xF000_0000;

/// Size field value of a 32-bit (DWORD) counter: the `wrap32` option applies only to these.
pub fn is_dword_size(value: u32) -> bool {
    value & SIZE_MASK == 0
}

fn unknown(bits: u32) -> String {
    format!("unknown (0x{bits:08X})")
}

/// Decodes any 32-bit value into its fields; values no field defines are spelled `unknown (0x…)`.
pub fn decode_fields(value: u32) -> TypeFields {
    let size = match value & SIZE_MASK {
        0x000 => "PERF_SIZE_DWORD",
        0x100 => "PERF_SIZE_LARGE",
        0x200 => "PERF_SIZE_ZERO",
        _ => "PERF_SIZE_VARIABLE_LEN",
    };
    let kind_bits = value & TYPE_MASK;
    let kind = match kind_bits {
        0x000 => "PERF_TYPE_NUMBER",
        0x400 => "PERF_TYPE_COUNTER",
        0x800 => "PERF_TYPE_TEXT",
        _ => "PERF_TYPE_ZERO",
    };
    let sub = value & SUBTYPE_MASK;
    let subtype = match (kind_bits, sub) {
        (0x000, 0x0_0000) => Some("PERF_NUMBER_HEX"),
        (0x000, 0x1_0000) => Some("PERF_NUMBER_DECIMAL"),
        (0x000, 0x2_0000) => Some("PERF_NUMBER_DEC_1000"),
        (0x400, 0x0_0000) => Some("PERF_COUNTER_VALUE"),
        (0x400, 0x1_0000) => Some("PERF_COUNTER_RATE"),
        (0x400, 0x2_0000) => Some("PERF_COUNTER_FRACTION"),
        (0x400, 0x3_0000) => Some("PERF_COUNTER_BASE"),
        (0x400, 0x4_0000) => Some("PERF_COUNTER_ELAPSED"),
        (0x400, 0x5_0000) => Some("PERF_COUNTER_QUEUELEN"),
        (0x400, 0x6_0000) => Some("PERF_COUNTER_HISTOGRAM"),
        // Not in the Resource Kit's table; winperf.h defines it and the PRECISION types use it.
        (0x400, 0x7_0000) => Some("PERF_COUNTER_PRECISION"),
        (0x800, 0x0_0000) => Some("PERF_TEXT_UNICODE"),
        (0x800, 0x1_0000) => Some("PERF_TEXT_ASCII"),
        (0xC00, 0x0_0000) => Some("none"),
        _ => None,
    };
    let timer = match value & TIMER_MASK {
        0x00_0000 => "PERF_TIMER_TICK".to_string(),
        PERF_TIMER_100NS => "PERF_TIMER_100NS".to_string(),
        PERF_OBJECT_TIMER => "PERF_OBJECT_TIMER".to_string(),
        bits => unknown(bits),
    };
    let suffix = match value & DISPLAY_MASK {
        0x0000_0000 => "PERF_DISPLAY_NO_SUFFIX".to_string(),
        0x1000_0000 => "PERF_DISPLAY_PER_SEC".to_string(),
        0x2000_0000 => "PERF_DISPLAY_PERCENT".to_string(),
        0x3000_0000 => "PERF_DISPLAY_SECONDS".to_string(),
        0x4000_0000 => "PERF_DISPLAY_NOSHOW".to_string(),
        bits => unknown(bits),
    };
    TypeFields {
        size: size.to_string(),
        kind: kind.to_string(),
        subtype: subtype.map(str::to_string).unwrap_or_else(|| unknown(sub)),
        timer,
        delta: value & PERF_DELTA_COUNTER != 0,
        delta_base: value & PERF_DELTA_BASE != 0,
        inverse: value & PERF_INVERSE_COUNTER != 0,
        multi: value & PERF_MULTI_COUNTER != 0,
        suffix,
    }
}

/// A counter type: a named row of the table, or an unknown value known only by its bit fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CounterType {
    pub value: u32,
    pub row: Option<&'static TypeRow>,
}

impl CounterType {
    pub fn from_value(value: u32) -> CounterType {
        CounterType {
            value,
            row: TYPES.iter().find(|r| r.value == value),
        }
    }

    pub fn name(&self) -> Option<&'static str> {
        self.row.map(|r| r.name)
    }

    /// The calculation, or `None` for a value the table does not know.
    pub fn formula(&self) -> Option<Formula> {
        self.row.map(|r| r.formula)
    }

    pub fn samples(&self) -> u8 {
        self.row.map_or(0, |r| r.formula.samples())
    }

    pub fn display(&self) -> Display {
        match self.row {
            Some(r) => r.display,
            None => display_from_bits(self.value),
        }
    }

    pub fn formula_text(&self) -> &'static str {
        self.row.map_or(
            "unknown type: no formula (decoded from its bit fields only)",
            |r| r.formula_text,
        )
    }

    pub fn fields(&self) -> TypeFields {
        decode_fields(self.value)
    }
}

impl fmt::Display for CounterType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(n) => write!(f, "{n} (0x{:08X})", self.value),
            None => write!(f, "unknown type 0x{:08X}", self.value),
        }
    }
}

/// Everything known about a type, in the shape of the public API's `CounterTypeInfo`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeInfo {
    pub value: u32,
    pub name: Option<&'static str>,
    pub samples: u8,
    pub display: Display,
    pub formula: &'static str,
    pub fields: TypeFields,
}

/// Everything known about a type: its name, how many samples it needs, how it is displayed, its
/// formula and its bit fields.
///
/// ```
/// use counterlens::types::{describe, parse_type, Display};
/// let info = describe(parse_type("PERF_100NSEC_TIMER_INV").unwrap());
/// assert_eq!(info.value, 0x2151_0500);
/// assert_eq!((info.samples, info.display), (2, Display::Percent));
/// assert_eq!(info.formula, "100 * (1 - dN / dD)");
/// // An unknown value is still decoded by its bit fields.
/// let unknown = describe(parse_type("0x12345678").unwrap());
/// assert_eq!(unknown.name, None);
/// ```
pub fn describe(ty: CounterType) -> TypeInfo {
    TypeInfo {
        value: ty.value,
        name: ty.name(),
        samples: ty.samples(),
        display: ty.display(),
        formula: ty.formula_text(),
        fields: ty.fields(),
    }
}

/// Every named type, in table order.
pub fn counter_types() -> Vec<TypeInfo> {
    TYPES
        .iter()
        .map(|r| describe(CounterType::from_value(r.value)))
        .collect()
}

/// What the display bits say about a value the table does not name.
fn display_from_bits(value: u32) -> Display {
    match value & DISPLAY_MASK {
        0x1000_0000 => Display::PerSecond,
        0x2000_0000 => Display::Percent,
        0x3000_0000 => Display::Seconds,
        0x0000_0000 => match (value & TYPE_MASK, value & SUBTYPE_MASK) {
            (0x000, 0x0_0000) => Display::Hex,
            (0x000, _) => Display::Decimal,
            (0x800, _) => Display::Text,
            _ => Display::None,
        },
        _ => Display::Hidden,
    }
}

/// Why a type spelling could not be understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TypeParseError {
    #[error("counter type {0:?} is not a number, a PERF_ name, a manifest name or a .NET PerformanceCounterType name")]
    UnknownName(String),
    #[error("counter type {0} is outside 0..=0xFFFFFFFF")]
    OutOfRange(String),
    #[error("counter type is empty")]
    Empty,
}

/// Parses a type from text: decimal, `0x` hex, a `PERF_` name (any case, so the manifest's
/// `perf_counter_counter` too), the alias `PERF_PRECISION_TIMESTAMP`, or a .NET enum name (any case).
/// Unknown numeric values are accepted (they decode by bit fields); unknown names are an error.
pub fn parse_type(text: &str) -> Result<CounterType, TypeParseError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(TypeParseError::Empty);
    }
    let number = if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(u64::from_str_radix(hex, 16).map_err(|_| TypeParseError::UnknownName(t.to_string()))?)
    } else if t.bytes().all(|b| b.is_ascii_digit()) {
        // All digits: a number that does not fit u64 is certainly out of range.
        Some(t.parse::<u64>().unwrap_or(u64::MAX))
    } else {
        None
    };
    if let Some(n) = number {
        return u32::try_from(n)
            .map(CounterType::from_value)
            .map_err(|_| TypeParseError::OutOfRange(t.to_string()));
    }
    let by_name = TYPES
        .iter()
        .find(|r| {
            r.name.eq_ignore_ascii_case(t) || r.dotnet.is_some_and(|d| d.eq_ignore_ascii_case(t))
        })
        .map(|r| r.value)
        .or_else(|| {
            ALIASES
                .iter()
                .find(|(a, _)| a.eq_ignore_ascii_case(t))
                .map(|&(_, v)| v)
        });
    by_name
        .map(CounterType::from_value)
        .ok_or_else(|| TypeParseError::UnknownName(t.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_formula_writes_the_fields_it_reads() {
        // A written formula names D, F or M exactly when the formula reads that field.
        for row in TYPES {
            let s = row.formula.spec();
            let t = s.substituted;
            assert_eq!(t.contains("{d"), s.second, "{}: {t}", row.name);
            assert_eq!(t.contains("{f}"), s.frequency, "{}: {t}", row.name);
            assert_eq!(t.contains("{m1}"), s.multi, "{}: {t}", row.name);
            let no_number = matches!(row.formula, Formula::NotDisplayable | Formula::Text);
            assert_eq!(t.is_empty(), no_number, "{}", row.name);
        }
    }

    #[test]
    fn required_bases_are_the_tables_base_types() {
        let name = |v: u32| CounterType::from_value(v).name();
        assert_eq!(name(PERF_SAMPLE_BASE), Some("PERF_SAMPLE_BASE"));
        assert_eq!(name(PERF_AVERAGE_BASE), Some("PERF_AVERAGE_BASE"));
        assert_eq!(name(PERF_RAW_BASE), Some("PERF_RAW_BASE"));
        assert_eq!(name(PERF_LARGE_RAW_BASE), Some("PERF_LARGE_RAW_BASE"));
        // Every type that needs a base reads a second field, and only those with a base in B do.
        for row in TYPES {
            if let Some(base) = required_base(row.value) {
                assert!(row.formula.spec().second, "{}", row.name);
                assert_eq!(
                    CounterType::from_value(base).formula(),
                    Some(Formula::NotDisplayable)
                );
            }
        }
    }

    #[test]
    fn table_has_every_row_of_the_contract_once() {
        // counter-types.md lists 39 named types.
        assert_eq!(TYPES.len(), 39);
        for (i, a) in TYPES.iter().enumerate() {
            for b in &TYPES[i + 1..] {
                assert_ne!(a.value, b.value, "{} and {} share a value", a.name, b.name);
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn named_values_agree_with_their_bit_composition() {
        // PERF_COUNTER_COUNTER = SIZE_DWORD 0 | TYPE_COUNTER 0x400 | COUNTER_RATE 0x10000 | TIMER_TICK 0
        //   | DELTA_COUNTER 0x400000 | DISPLAY_PER_SEC 0x10000000 = 0x10410400
        assert_eq!(0x400 | 0x1_0000 | 0x40_0000 | 0x1000_0000, 0x1041_0400);
        let f = decode_fields(0x1041_0400);
        assert_eq!(
            (
                f.size.as_str(),
                f.kind.as_str(),
                f.subtype.as_str(),
                f.timer.as_str(),
                f.suffix.as_str()
            ),
            (
                "PERF_SIZE_DWORD",
                "PERF_TYPE_COUNTER",
                "PERF_COUNTER_RATE",
                "PERF_TIMER_TICK",
                "PERF_DISPLAY_PER_SEC"
            )
        );
        assert!(f.delta && !f.delta_base && !f.inverse && !f.multi);
        // PERF_LARGE_RAW_BASE = SIZE_LARGE 0x100 | TYPE_COUNTER 0x400 | COUNTER_BASE 0x30000 | NOSHOW 0x40000000
        assert_eq!(0x100 | 0x400 | 0x3_0000 | 0x4000_0000, 0x4003_0500);
        // PERF_100NSEC_MULTI_TIMER_INV = LARGE 0x100 | COUNTER 0x400 | RATE 0x10000 | TIMER_100NS 0x100000
        //   | DELTA 0x400000 | INVERSE 0x1000000 | MULTI 0x2000000 | PERCENT 0x20000000 = 0x23510500
        assert_eq!(
            0x100
                | 0x400
                | 0x1_0000
                | 0x10_0000
                | 0x40_0000
                | 0x100_0000
                | 0x200_0000
                | 0x2000_0000,
            0x2351_0500
        );
        let f = decode_fields(0x2351_0500);
        assert!(f.delta && f.inverse && f.multi && !f.delta_base);
        assert_eq!(f.timer, "PERF_TIMER_100NS");
        // PERF_SAMPLE_FRACTION = DWORD | COUNTER 0x400 | FRACTION 0x20000 | DELTA 0x400000 | DELTA_BASE 0x800000
        //   | PERCENT 0x20000000 = 0x20C20400
        let f = decode_fields(0x20C2_0400);
        assert!(f.delta && f.delta_base);
        assert_eq!(f.subtype, "PERF_COUNTER_FRACTION");
        // PERF_COUNTER_TEXT = VARIABLE_LEN 0x300 | TYPE_TEXT 0x800 | TEXT_UNICODE 0 | NO_SUFFIX = 0xB00
        let f = decode_fields(0x0B00);
        assert_eq!(
            (f.size.as_str(), f.kind.as_str(), f.subtype.as_str()),
            (
                "PERF_SIZE_VARIABLE_LEN",
                "PERF_TYPE_TEXT",
                "PERF_TEXT_UNICODE"
            )
        );
        // PERF_ELAPSED_TIME = LARGE | COUNTER | ELAPSED 0x40000 | OBJECT_TIMER 0x200000 | SECONDS 0x30000000
        assert_eq!(
            0x100 | 0x400 | 0x4_0000 | 0x20_0000 | 0x3000_0000,
            0x3024_0500
        );
        assert_eq!(decode_fields(0x3024_0500).timer, "PERF_OBJECT_TIMER");
    }

    #[test]
    fn every_two_sample_row_except_the_averages_has_the_delta_bit() {
        for r in TYPES {
            let fields = decode_fields(r.value);
            if r.formula.samples() == 2
                && !matches!(r.formula, Formula::AverageTimer | Formula::AverageBulk)
            {
                assert!(
                    fields.delta,
                    "{} needs two samples but has no PERF_DELTA_COUNTER bit",
                    r.name
                );
            }
            if r.formula.samples() == 1 && r.formula != Formula::Text {
                assert!(!fields.delta, "{}", r.name);
            }
        }
    }

    #[test]
    fn unknown_values_decode_without_a_name() {
        // 0x20C20500: a LARGE sample fraction nobody defined. Its suffix bits say percent.
        let t = CounterType::from_value(0x20C2_0500);
        assert_eq!(t.name(), None);
        assert_eq!(t.samples(), 0);
        assert_eq!(t.display(), Display::Percent);
        assert_eq!(t.fields().size, "PERF_SIZE_LARGE");
        // 0xFFFFFFFF: every field set; undefined field values are spelled out, never a panic.
        let f = decode_fields(u32::MAX);
        assert_eq!(f.timer, "unknown (0x00300000)");
        assert_eq!(f.suffix, "unknown (0xF0000000)");
        assert_eq!(f.subtype, "unknown (0x000F0000)");
        assert_eq!(CounterType::from_value(u32::MAX).display(), Display::Hidden);
    }

    #[test]
    fn parses_every_spelling() {
        let want = 0x1041_0400;
        for s in [
            "0x10410400",
            "0X10410400",
            "272696320",
            "PERF_COUNTER_COUNTER",
            "perf_counter_counter",
            "RateOfCountsPerSecond32",
            "rateofcountspersecond32",
            "  PERF_COUNTER_COUNTER  ",
        ] {
            assert_eq!(parse_type(s).unwrap().value, want, "{s}");
        }
        // 0x21510500 = 558957824 = 2*16^7 + 1*16^6 + 5*16^5 + 1*16^4 + 5*16^2
        //            = 536870912 + 16777216 + 5242880 + 65536 + 1280 = 558957824
        assert_eq!(parse_type("Timer100NsInverse").unwrap().value, 558_957_824);
        assert_eq!(
            parse_type("PERF_PRECISION_TIMESTAMP").unwrap().name(),
            Some("PERF_LARGE_RAW_BASE")
        );
        assert_eq!(
            parse_type("perf_counter_multi_base").unwrap().value,
            0x4203_0500
        );
        assert_eq!(parse_type("0x12345678").unwrap().name(), None);
        assert!(matches!(
            parse_type("0x100000000"),
            Err(TypeParseError::OutOfRange(_))
        ));
        assert!(matches!(
            parse_type("99999999999999999999999"),
            Err(TypeParseError::OutOfRange(_))
        ));
        assert!(matches!(
            parse_type("PERF_NOT_A_TYPE"),
            Err(TypeParseError::UnknownName(_))
        ));
        assert!(matches!(
            parse_type("0xZZ"),
            Err(TypeParseError::UnknownName(_))
        ));
        assert!(matches!(
            parse_type("-5"),
            Err(TypeParseError::UnknownName(_))
        ));
        assert_eq!(parse_type(""), Err(TypeParseError::Empty));
    }

    #[test]
    fn every_dotnet_name_maps_to_its_documented_value() {
        // System.Diagnostics.PerformanceCounterType member values, as the .NET reference documents them.
        let expected: &[(&str, u32)] = &[
            ("NumberOfItemsHEX32", 0),
            ("NumberOfItemsHEX64", 256),
            ("NumberOfItems32", 65536),
            ("NumberOfItems64", 65792),
            ("CounterDelta32", 4195328),
            ("CounterDelta64", 4195584),
            ("SampleCounter", 4260864),
            ("CountPerTimeInterval32", 4523008),
            ("CountPerTimeInterval64", 4523264),
            ("RateOfCountsPerSecond32", 272696320),
            ("RateOfCountsPerSecond64", 272696576),
            ("RawFraction", 537003008),
            ("CounterTimer", 541132032),
            ("Timer100Ns", 542180608),
            ("SampleFraction", 549585920),
            ("CounterTimerInverse", 557909248),
            ("Timer100NsInverse", 558957824),
            ("CounterMultiTimer", 574686464),
            ("CounterMultiTimer100Ns", 575735040),
            ("CounterMultiTimerInverse", 591463680),
            ("CounterMultiTimer100NsInverse", 592512256),
            ("AverageTimer32", 805438464),
            ("ElapsedTime", 807666944),
            ("AverageCount64", 1073874176),
            ("SampleBase", 1073939457),
            ("AverageBase", 1073939458),
            ("RawBase", 1073939459),
            ("CounterMultiBase", 1107494144),
        ];
        for &(name, value) in expected {
            assert_eq!(parse_type(name).unwrap().value, value, "{name}");
        }
        assert_eq!(
            TYPES.iter().filter(|r| r.dotnet.is_some()).count(),
            expected.len()
        );
    }

    #[test]
    fn display_of_base_like_types_is_hidden() {
        for r in TYPES.iter().filter(|r| r.formula.samples() == 0) {
            assert_eq!(r.display, Display::Hidden, "{}", r.name);
        }
        assert_eq!(
            CounterType::from_value(0x4002_0500).display(),
            Display::Hidden
        );
        assert_eq!(CounterType::from_value(0x4002_0500).samples(), 2);
    }
}
