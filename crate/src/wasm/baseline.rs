//! A machine's normal in JS: `BaselineBuilder` (its logs added one at a time, so a page can read a
//! machine's logs one after another and drop each) and the `baseline` option `analyze` reads
//! (`options.baseline`: the object `finish` gives or a `.baseline.json` file's text). Converts and
//! delegates to `crate::analysis::baseline`; `buildBaseline` over an array is js/core.js's loop over
//! this class (wasm-bindgen cannot take an array of Rust objects without moving them).

use super::capture::JsCapture;
use super::convert::{named_error, to_js, ErrorClass};
use crate::analysis::baseline::{Baseline, BaselineError, Builder};
use js_sys::JSON;
use wasm_bindgen::prelude::*;

/// An `AnalysisError` with code "baseline", `field` the argument at fault.
pub(super) fn baseline_error(e: &BaselineError, field: &str) -> JsValue {
    named_error(
        ErrorClass::Analysis,
        "baseline",
        &format!("baseline: {e}"),
        Some(field),
    )
}

/// `options.baseline`: the object `BaselineBuilder.finish` gave, or a baseline file's JSON text.
pub(super) fn baseline_from_js(v: &JsValue) -> Result<Baseline, JsValue> {
    let text = match v.as_string() {
        Some(t) => t,
        None => JSON::stringify(v)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default(),
    };
    Baseline::from_json(&text).map_err(|e| baseline_error(&e, "baseline"))
}

/// A machine's normal, built from its logs one at a time.
#[wasm_bindgen(js_name = BaselineBuilder)]
pub struct JsBaselineBuilder {
    inner: Option<Builder>,
}

#[wasm_bindgen(js_class = BaselineBuilder)]
impl JsBaselineBuilder {
    #[wasm_bindgen(constructor)]
    pub fn new() -> JsBaselineBuilder {
        JsBaselineBuilder {
            inner: Some(Builder::new()),
        }
    }

    /// Adds the log `capture`, named `name` in the baseline's list of logs. An AnalysisError "baseline"
    /// when it is of another machine than the logs before it.
    pub fn add(&mut self, name: &str, capture: &JsCapture) -> Result<(), JsValue> {
        let b = self.inner.as_mut().ok_or_else(finished)?;
        b.add(name, &capture.inner)
            .map_err(|e| baseline_error(&e, "captures"))
    }

    /// The baseline (the object a `.baseline.json` file holds). An AnalysisError "baseline" when the
    /// logs held nothing to learn from.
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let b = self.inner.take().ok_or_else(finished)?;
        to_js(&b.finish().map_err(|e| baseline_error(&e, "captures"))?)
    }
}

impl Default for JsBaselineBuilder {
    fn default() -> Self {
        JsBaselineBuilder::new()
    }
}

fn finished() -> JsValue {
    named_error(
        ErrorClass::Analysis,
        "invalid-argument",
        "this BaselineBuilder has finished: make a new one",
        None,
    )
}
