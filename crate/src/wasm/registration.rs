//! `validateRegistration`: the input as bytes, text or a plain object, and the report back.

use super::convert::{get, named_error, to_js, ErrorClass};
use crate::registration::{validate_registration as validate, Format, Input};
use js_sys::{BigInt, Function, Uint8Array, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn bad(code: &str, message: &str, field: &str) -> JsValue {
    named_error(ErrorClass::Registration, code, message, Some(field))
}

/// Validates counter-set registration. `input`: a Uint8Array (binary blocks, or the text of a manifest
/// or JSON), a string (manifest XML, JSON text, or hex of the binary blocks), or a plain object in the
/// JSON form. `options.format` ("binary", "hex", "json", "manifest") overrides sniffing.
#[wasm_bindgen(js_name = validateRegistration)]
pub fn validate_registration(input: JsValue, options: JsValue) -> Result<JsValue, JsValue> {
    let format = match get(&options, "format") {
        f if f.is_undefined() || f.is_null() => None,
        f => Some(
            f.as_string()
                .as_deref()
                .and_then(Format::parse)
                .ok_or_else(|| {
                    bad(
                        "invalid-option",
                        "options.format must be \"binary\", \"hex\", \"json\" or \"manifest\"",
                        "format",
                    )
                })?,
        ),
    };
    if let Some(text) = input.as_string() {
        return to_js(&validate(Input::Text(&text), format));
    }
    if let Some(bytes) = input.dyn_ref::<Uint8Array>() {
        return to_js(&validate(Input::Bytes(&bytes.to_vec()), format));
    }
    if input.is_object() {
        // A plain object in the JSON form: written out as JSON (bigints as decimal strings, which the
        // JSON form accepts) and read like JSON text. Line and column would point into that text, not
        // into anything the caller has, so they are dropped.
        let replacer =
            Closure::<dyn Fn(JsValue, JsValue) -> JsValue>::new(|_key: JsValue, value: JsValue| {
                if value.is_bigint() {
                    BigInt::from(value)
                        .to_string(10)
                        .map(JsValue::from)
                        .unwrap_or(JsValue::NULL)
                } else {
                    value
                }
            });
        let text =
            JSON::stringify_with_replacer(&input, replacer.as_ref().unchecked_ref::<Function>())
                .map_err(|_| {
                    bad(
                        "invalid-argument",
                        "the object cannot be written as JSON (a cycle?)",
                        "input",
                    )
                })?;
        let text: String = text.into();
        let mut report = validate(Input::Text(&text), Some(Format::Json));
        for d in &mut report.diagnostics {
            (d.line, d.column) = (None, None);
        }
        return to_js(&report);
    }
    Err(bad(
        "invalid-argument",
        "input must be a Uint8Array, a string or an object",
        "input",
    ))
}
