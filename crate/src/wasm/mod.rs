//! The wasm-bindgen binding layer: the only place JS values exist. Each export converts its arguments
//! (checking them, since JS callers can pass anything), calls the core, and converts the result.
//! No calculation lives here. The TypeScript contract is the hand-written `js/index.d.ts`.
//!
//! Errors are thrown as JS `Error`s of one of the package's four classes (`convert::ErrorClass`:
//! CounterTypeError, RegistrationError, CaptureError, AnalysisError), with a stable `code` (for core
//! errors, the one their kind maps to: `CaptureErrorKind::code`, `AnalysisError::code`, `cook_error`) and,
//! where one applies, the `field` at fault. js/index.d.ts lists every code of each class
//! (crate/tests/js_types.rs checks the lists against this layer's and the core's).

mod analysis;
mod baseline;
mod capture;
mod chart;
mod convert;
mod fleet;
mod parallel;
mod registration;
mod text;
mod words;

pub use analysis::{analysis_report, analyze, import_pal_thresholds, rule_pack, rule_packs};
pub use baseline::JsBaselineBuilder;
pub use capture::{open_capture, JsCapture, JsCaptureReader};
pub use chart::{render_chart, render_series_chart, series_color};
pub use fleet::{fleet_heatmap_svg, fleet_runs, rank_fleet, sparkline};
pub use registration::validate_registration;

use crate::cook::Status;
use crate::series::{Frequency, RawColumns};
use convert::{
    cook_error, error, get, raw_column, to_js, u64_from_js, CounterTypeArg, FromJs, OptionsArg,
    SampleArg,
};
use js_sys::Float64Array;
use wasm_bindgen::prelude::*;

/// The package version (the crate's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Every named counter type, in table order.
#[wasm_bindgen(js_name = counterTypes)]
pub fn counter_types() -> Result<JsValue, JsValue> {
    to_js(&crate::types::counter_types())
}

/// The description of one type: any spelling, or any 32-bit value (unknown ones decode by bit fields).
#[wasm_bindgen(js_name = describeCounterType)]
pub fn describe_counter_type(ty: JsValue) -> Result<JsValue, JsValue> {
    let ty = CounterTypeArg::from_js(&ty, "type")?.0;
    to_js(&crate::types::describe(ty))
}

struct CookArgs {
    ty: crate::types::CounterType,
    older: Option<crate::cook::RawSample>,
    newer: crate::cook::RawSample,
    options: crate::cook::CookOptions,
}

fn cook_args(
    ty: &JsValue,
    older: &JsValue,
    newer: &JsValue,
    options: &JsValue,
) -> Result<CookArgs, JsValue> {
    Ok(CookArgs {
        ty: CounterTypeArg::from_js(ty, "type")?.0,
        older: if older.is_null() || older.is_undefined() {
            None
        } else {
            Some(SampleArg::from_js(older, "older")?.0)
        },
        newer: SampleArg::from_js(newer, "newer")?.0,
        options: OptionsArg::from_js(options, "options")?.0,
    })
}

/// The cooked value of `newer` against `older` (null for one-sample types).
#[wasm_bindgen]
pub fn cook(
    ty: JsValue,
    older: JsValue,
    newer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let a = cook_args(&ty, &older, &newer, &options)?;
    let r = crate::cook::cook(a.ty, a.older.as_ref(), &a.newer, &a.options).map_err(cook_error)?;
    to_js(&r)
}

/// The formula, the formula with the numbers, and the result.
#[wasm_bindgen]
pub fn explain(
    ty: JsValue,
    older: JsValue,
    newer: JsValue,
    options: JsValue,
) -> Result<JsValue, JsValue> {
    let a = cook_args(&ty, &older, &newer, &options)?;
    let r = crate::explain::explain(a.ty, a.older.as_ref(), &a.newer, &a.options)
        .map_err(cook_error)?;
    to_js(&r)
}

/// The text a user sees for `value` of this type with these PERF_COUNTER_REG_INFO attributes.
#[wasm_bindgen(js_name = formatValue)]
pub fn format_value(value: JsValue, ty: JsValue, attrib: JsValue) -> Result<String, JsValue> {
    let v = value.as_f64().ok_or_else(|| {
        error(
            "invalid-argument",
            "value must be a number (NaN for no value)",
            Some("value"),
        )
    })?;
    let ty = CounterTypeArg::from_js(&ty, "type")?.0;
    let attrib = if attrib.is_undefined() || attrib.is_null() {
        0
    } else {
        u64_from_js(&attrib, "attrib")?
    };
    Ok(crate::format::format_value(v, ty, attrib))
}

/// Cooks a whole series in one call. `columns` holds `value` (BigUint64Array), and as the type needs
/// them `second` and `multi` (BigUint64Array) and `frequency` (one integer, or a BigUint64Array).
/// Returns one value per sample, NaN where there is none (the first sample of a two-sample type, and
/// every pair whose status is not ok).
#[wasm_bindgen(js_name = cookSeries)]
pub fn cook_series(
    ty: JsValue,
    columns: JsValue,
    options: JsValue,
) -> Result<Float64Array, JsValue> {
    let ty = CounterTypeArg::from_js(&ty, "type")?.0;
    if !columns.is_object() {
        return Err(error(
            "invalid-argument",
            "columns must be an object { value, second?, frequency?, multi? }",
            Some("columns"),
        ));
    }
    let options = OptionsArg::from_js(&options, "options")?.0;
    let value = raw_column(&get(&columns, "value"), "columns.value")?.ok_or_else(|| {
        error(
            "missing-field",
            "columns.value (a BigUint64Array) is required",
            Some("columns.value"),
        )
    })?;
    let second = raw_column(&get(&columns, "second"), "columns.second")?;
    let multi = raw_column(&get(&columns, "multi"), "columns.multi")?;
    let f = get(&columns, "frequency");
    let freq_column = if f.is_object() {
        raw_column(&f, "columns.frequency")?
    } else {
        None
    };
    let frequency = match (&freq_column, f.is_undefined() || f.is_null()) {
        (Some(c), _) => Some(Frequency::Column(c)),
        (None, true) => None,
        (None, false) => Some(Frequency::Constant(u64_from_js(&f, "columns.frequency")?)),
    };
    let cols = RawColumns {
        value: &value,
        second: second.as_deref(),
        frequency,
        multi: multi.as_deref(),
    };
    let mut out = Vec::new();
    crate::series::cook_series(ty, &cols, &options, &mut out).map_err(cook_error)?;
    Ok(Float64Array::from(&out[..]))
}

/// Statistics of `values[start..end]` (NaN excluded): count, min, max, mean, last, stddev, p95.
#[wasm_bindgen(js_name = seriesStats)]
pub fn series_stats(
    values: &[f64],
    start: Option<u32>,
    end: Option<u32>,
) -> Result<JsValue, JsValue> {
    let n = values.len();
    let s = (start.unwrap_or(0) as usize).min(n);
    let e = (end.map_or(n, |e| e as usize)).clamp(s, n);
    to_js(&crate::series::stats(&values[s..e]))
}

/// The names of the statuses, in the order `Status` numbers them (for callers that tabulate them).
#[wasm_bindgen(js_name = statusNames)]
pub fn status_names() -> Vec<String> {
    Status::ALL.iter().map(|s| s.as_str().to_string()).collect()
}
