//! What users read, for JavaScript: `crate::words`'s rules (values in their unit, durations, clock text,
//! series identity) as the viewer calls them, so the viewer writes a figure, a time or a path's machine
//! as the core's cards, messages and report do.

use super::capture::JsCapture;
use super::convert::{named_error, ErrorClass};
use crate::capture::path::FoldedPath;
use crate::capture::PathPattern;
use crate::units::{Measure, Unit};
use wasm_bindgen::prelude::*;

/// A value as users read it (legend, crosshair, statistics, cards), in a unit of the chart's
/// (`percent`, `per-second`, `bytes-per-second`, `bytes`, `seconds`, `count`), its value in the unit's
/// base (bytes, seconds): `formatInUnit(8388608000, 'bytes')` is `7.81 GB`, `formatInUnit(1638.4,
/// 'count')` `1638`. An unknown unit formats as a count; NaN is the empty string.
#[wasm_bindgen(js_name = formatInUnit)]
pub fn format_in_unit(value: f64, unit: &str) -> String {
    let unit = Unit::parse(unit).unwrap_or_default();
    crate::words::value(
        value,
        Measure {
            unit,
            multiplier: 1.0,
        },
    )
}

/// A duration in the analysis' words, the one rule for every duration a user reads (cards, messages,
/// the report, the verdict): `formatDuration(82000)` is `82 s`, 1185 s `20 min`, 13485 s `3 h 45 min`.
#[wasm_bindgen(js_name = formatDuration)]
pub fn format_duration(ms: f64) -> String {
    crate::words::duration(ms)
}

/// A time (ms since the epoch, UTC) in a zone `offsetMinutes` ahead of UTC, as the core writes times in
/// messages and the report: `10:40`, seconds when not zero (`10:40:05`), after the date when `withDate`.
#[wasm_bindgen(js_name = formatClock)]
pub fn format_clock(ms: f64, offset_minutes: f64, with_date: Option<bool>) -> String {
    crate::words::clock(ms, offset_minutes * 60_000.0, with_date.unwrap_or(false))
}

/// The machine of a counter path as written, without its backslashes (`\\WEB01\...` -> `WEB01`); empty
/// for a path without one.
#[wasm_bindgen(js_name = pathMachine)]
pub fn path_machine(path: &str) -> String {
    crate::words::machine(path).to_string()
}

/// A counter path without its machine: `\\WEB01\Memory\Available MBytes` -> `\Memory\Available MBytes`.
#[wasm_bindgen(js_name = pathWithoutMachine)]
pub fn path_without_machine(path: &str) -> String {
    crate::words::without_machine(path).to_string()
}

/// A Perfmon wildcard path pattern (`\\*\Processor(?)\% Processor Time`, `\Memory\*`), matched as the
/// CLI's `-c` matches: `*` any run, `?` one character, case-insensitive, a localized path also by its
/// English names; no machine in the pattern matches every machine.
#[wasm_bindgen(js_name = PathMatcher)]
pub struct JsPathMatcher {
    pattern: PathPattern,
}

#[wasm_bindgen(js_class = PathMatcher)]
impl JsPathMatcher {
    /// Throws a CaptureError (`invalid-argument`, field `pattern`) for text that is no path pattern.
    #[wasm_bindgen(constructor)]
    pub fn new(pattern: &str) -> Result<JsPathMatcher, JsValue> {
        PathPattern::parse(pattern)
            .map(|pattern| JsPathMatcher { pattern })
            .map_err(|e| {
                named_error(
                    ErrorClass::Capture,
                    "invalid-argument",
                    &e.to_string(),
                    Some("pattern"),
                )
            })
    }
    /// Whether a path as written matches (false for text that is no counter path).
    pub fn matches(&self, path: &str) -> bool {
        self.pattern.matches_path(path)
    }
}

#[wasm_bindgen(js_class = Capture)]
impl JsCapture {
    /// The indices of the series `matcher` selects, in file order: the series the CLI's `-c` keeps.
    pub fn matching(&self, matcher: &JsPathMatcher) -> Vec<u32> {
        crate::words::matching(
            &matcher.pattern,
            self.inner.series.iter().map(|s| &s.parsed),
        )
        .into_iter()
        .map(|i| i as u32)
        .collect()
    }
    /// The logical processors the capture shows (`Processor(*)` instances but `_Total`, per machine,
    /// by written or English names; the largest machine's count), or undefined when it has none.
    #[wasm_bindgen(js_name = logicalProcessors)]
    pub fn logical_processors(&self) -> Option<u32> {
        let folded: Vec<FoldedPath> = self
            .inner
            .series
            .iter()
            .map(|s| FoldedPath::new(&s.parsed))
            .collect();
        crate::words::logical_processors(&folded).map(|n| n as u32)
    }
}
