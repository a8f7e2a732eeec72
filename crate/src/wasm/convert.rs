//! Conversions between JS values and core types, with the checks a JS caller needs: raw values are
//! `bigint`, integral `number` or decimal `string`, and anything else is an error that names the field.

use crate::cook::{CookError, CookOptions, RawSample};
use crate::types::{parse_type, CounterType};
use js_sys::{BigUint64Array, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// The package's error classes (js/errors.js); every error the binding throws is an instance of one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClass {
    /// The counter-type and calculation functions (and charts' argument checks).
    CounterType,
    /// `validateRegistration`'s argument checks (findings in the data are a report, never thrown).
    Registration,
    /// The capture readers and the `Capture` class.
    Capture,
    /// Rule packs, PAL import and the analysis.
    Analysis,
}

impl ErrorClass {
    const ALL: [ErrorClass; 4] = [
        ErrorClass::CounterType,
        ErrorClass::Registration,
        ErrorClass::Capture,
        ErrorClass::Analysis,
    ];

    /// The class's name, as the JS `name` property and the JS class give it.
    pub const fn name(self) -> &'static str {
        match self {
            ErrorClass::CounterType => "CounterTypeError",
            ErrorClass::Registration => "RegistrationError",
            ErrorClass::Capture => "CaptureError",
            ErrorClass::Analysis => "AnalysisError",
        }
    }
}

/// A JS `Error` with `name` CounterTypeError, a stable `code`, and the `field` at fault if any.
pub fn error(code: &str, message: &str, field: Option<&str>) -> JsValue {
    named_error(ErrorClass::CounterType, code, message, field)
}

/// A calculation's error as a CounterTypeError, each kind with its code and the field at fault.
pub fn cook_error(e: CookError) -> JsValue {
    match &e {
        CookError::MissingField { sample, field, .. } => error(
            "missing-field",
            &e.to_string(),
            Some(&format!("{sample}.{field}")),
        ),
        CookError::ScaleOutOfRange(_) => error("invalid-option", &e.to_string(), Some("scale")),
        CookError::ColumnLength { field, .. } => {
            error("column-length", &e.to_string(), Some(field))
        }
    }
}

thread_local! {
    /// The package's Error subclasses by name, registered by its JS entry after the module starts
    /// (`registerErrorClasses`), so thrown errors are `instanceof CaptureError` etc. Without them (the
    /// bare wasm-bindgen output, as wasm-bindgen-test loads it) errors are plain Errors with the name.
    static ERROR_CLASSES: std::cell::RefCell<Vec<(String, JsValue)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Registers the Error subclasses: `{ CounterTypeError, RegistrationError, CaptureError, AnalysisError }` (classes
/// whose prototypes thrown errors take). Called once by js/node.js and js/browser.js.
#[wasm_bindgen(js_name = registerErrorClasses)]
pub fn register_error_classes(classes: &JsValue) {
    let found: Vec<(String, JsValue)> = ErrorClass::ALL
        .iter()
        .map(|c| c.name())
        .filter_map(|n| {
            let class = get(classes, n);
            // A class is a function, which `get` (objects only) would not look into.
            let proto = if class.is_function() {
                Reflect::get(&class, &"prototype".into()).unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            };
            proto.is_object().then(|| (n.to_string(), proto))
        })
        .collect();
    ERROR_CLASSES.with(|c| *c.borrow_mut() = found);
}

/// A JS `Error` of the class `class` with `code` and `field`: an instance of the registered subclass.
pub fn named_error(class: ErrorClass, code: &str, message: &str, field: Option<&str>) -> JsValue {
    let name = class.name();
    let e = js_sys::Error::new(message);
    ERROR_CLASSES.with(|c| {
        if let Some((_, proto)) = c.borrow().iter().find(|(n, _)| n == name) {
            js_sys::Object::set_prototype_of(&e, &js_sys::Object::from(proto.clone()));
        }
    });
    e.set_name(name);
    let _ = Reflect::set(&e, &"code".into(), &code.into());
    if let Some(f) = field {
        let _ = Reflect::set(&e, &"field".into(), &f.into());
    }
    e.into()
}

/// Core results to JS: `None` becomes `null` (never `undefined`), structs become plain objects.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let s = serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true);
    value.serialize(&s).map_err(|e| {
        error(
            "internal",
            &format!("could not convert the result: {e}"),
            None,
        )
    })
}

/// `obj[key]`, or undefined when `obj` is not an object.
pub fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn describe(v: &JsValue) -> String {
    if let Some(s) = v.as_string() {
        let short: String = s.chars().take(40).collect();
        format!("the string {short:?}")
    } else if v.is_bigint() {
        "a negative or too large bigint".to_string()
    } else if let Some(n) = v.as_f64() {
        format!("{n}")
    } else if v.is_null() {
        "null".to_string()
    } else if v.is_undefined() {
        "undefined".to_string()
    } else {
        "an object".to_string()
    }
}

/// An unsigned 64-bit integer from a bigint, an integral number, or a decimal string.
pub fn u64_from_js(v: &JsValue, field: &str) -> Result<u64, JsValue> {
    let bad = || {
        error(
            "invalid-raw-value",
            &format!("{field} must be an integer from 0 to 2^64-1 (bigint, number or decimal string), not {}", describe(v)),
            Some(field),
        )
    };
    if v.is_bigint() {
        return u64::try_from(v.clone()).map_err(|_| bad());
    }
    if let Some(n) = v.as_f64() {
        // Every number at or above 2^53 is an integer, but only below 2^64 does it fit.
        return if n.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&n) {
            Ok(n as u64)
        } else {
            Err(bad())
        };
    }
    if let Some(s) = v.as_string() {
        if !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit()) {
            return s.parse::<u64>().map_err(|_| bad());
        }
    }
    Err(bad())
}

fn optional_u64(obj: &JsValue, key: &str, prefix: &str) -> Result<Option<u64>, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        Ok(None)
    } else {
        u64_from_js(&v, &format!("{prefix}.{key}")).map(Some)
    }
}

/// A BigUint64Array column copied into wasm memory; absent (undefined/null) is `None`.
pub fn raw_column(v: &JsValue, field: &str) -> Result<Option<Vec<u64>>, JsValue> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    match v.dyn_ref::<BigUint64Array>() {
        Some(a) => Ok(Some(a.to_vec())),
        None => Err(error(
            "invalid-argument",
            &format!("{field} must be a BigUint64Array"),
            Some(field),
        )),
    }
}

/// Conversion from a JS argument, naming the argument in errors.
pub trait FromJs: Sized {
    fn from_js(v: &JsValue, field: &str) -> Result<Self, JsValue>;
}

pub struct CounterTypeArg(pub CounterType);

impl FromJs for CounterTypeArg {
    fn from_js(v: &JsValue, field: &str) -> Result<Self, JsValue> {
        if let Some(s) = v.as_string() {
            return parse_type(&s)
                .map(CounterTypeArg)
                .map_err(|e| error("invalid-type", &e.to_string(), Some(field)));
        }
        if let Some(n) = v.as_f64() {
            if n.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&n) {
                return Ok(CounterTypeArg(CounterType::from_value(n as u32)));
            }
        }
        Err(error(
            "invalid-type",
            &format!(
                "{field} must be a 32-bit unsigned integer or a type name, not {}",
                describe(v)
            ),
            Some(field),
        ))
    }
}

pub struct SampleArg(pub RawSample);

impl FromJs for SampleArg {
    fn from_js(v: &JsValue, field: &str) -> Result<Self, JsValue> {
        if !v.is_object() {
            return Err(error(
                "invalid-argument",
                &format!("{field} must be a raw sample object {{ value, second?, frequency?, multi? }}, not {}", describe(v)),
                Some(field),
            ));
        }
        let value = get(v, "value");
        if value.is_undefined() || value.is_null() {
            return Err(error(
                "missing-field",
                &format!("{field}.value is required"),
                Some(&format!("{field}.value")),
            ));
        }
        Ok(SampleArg(RawSample {
            value: u64_from_js(&value, &format!("{field}.value"))?,
            second: optional_u64(v, "second", field)?,
            frequency: optional_u64(v, "frequency", field)?,
            multi: optional_u64(v, "multi", field)?,
        }))
    }
}

pub struct OptionsArg(pub CookOptions);

fn optional_bool(obj: &JsValue, key: &str, default: bool) -> Result<bool, JsValue> {
    let v = get(obj, key);
    if v.is_undefined() || v.is_null() {
        return Ok(default);
    }
    v.as_bool().ok_or_else(|| {
        error(
            "invalid-option",
            &format!("options.{key} must be a boolean, not {}", describe(&v)),
            Some(key),
        )
    })
}

impl FromJs for OptionsArg {
    fn from_js(v: &JsValue, field: &str) -> Result<Self, JsValue> {
        let mut o = CookOptions::default();
        if v.is_undefined() || v.is_null() {
            return Ok(OptionsArg(o));
        }
        if !v.is_object() {
            return Err(error(
                "invalid-option",
                &format!("{field} must be an object"),
                Some(field),
            ));
        }
        o.cap100 = optional_bool(v, "cap100", true)?;
        o.x1000 = optional_bool(v, "x1000", false)?;
        o.wrap32 = optional_bool(v, "wrap32", false)?;
        let scale = get(v, "scale");
        o.scale = if scale.is_undefined() || scale.is_null() || scale.as_bool() == Some(false) {
            None
        } else {
            match scale.as_f64() {
                Some(k) if k.fract() == 0.0 && (-10.0..=10.0).contains(&k) => Some(k as i32),
                _ => {
                    return Err(error(
                        "invalid-option",
                        &format!(
                            "options.scale must be an integer from -10 to 10 or null, not {}",
                            describe(&scale)
                        ),
                        Some("scale"),
                    ))
                }
            }
        };
        Ok(OptionsArg(o))
    }
}
