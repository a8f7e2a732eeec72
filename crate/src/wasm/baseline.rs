//! A machine's normal in JS: `BaselineBuilder` (its logs added one at a time, so a page can read a
//! machine's logs one after another and drop each), and the error a normal gives, which `analyze`'s
//! `baseline` option (read with the other options, in analysis.rs) gives too. Converts and delegates
//! to `crate::analysis::baseline`; `buildBaseline` over an array is js/core.js's loop over
//! this class (wasm-bindgen cannot take an array of Rust objects without moving them).

use super::capture::JsCapture;
use super::convert::{named_error, to_js, ErrorClass};
use crate::analysis::baseline::{BaselineError, Builder};
use crate::analysis::AnalysisError;
use wasm_bindgen::prelude::*;

/// An `AnalysisError` with code "baseline" and the core's message (`AnalysisError::Baseline`'s), `field`
/// the argument at fault: `baseline` (analyze's option) or `captures` (the builder's logs).
pub(super) fn baseline_error(e: &BaselineError, field: &str) -> JsValue {
    let e = AnalysisError::Baseline(e.to_string());
    named_error(ErrorClass::Analysis, e.code(), &e.to_string(), Some(field))
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
