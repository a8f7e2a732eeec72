//! The hand-computed vectors of tests/vectors/cook.json through the native core. The same file runs
//! through the wasm build (wasm_node.rs, wasm_browser.rs) and the npm package (tests/node).

#![cfg(not(target_arch = "wasm32"))]

use counterlens::{cook, parse_type, CookError, CookOptions, RawSample, Status};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../tests/vectors/cook.json")).unwrap()
}

fn int(v: &Value) -> Option<u64> {
    v.as_str().map(|s| s.parse().unwrap())
}

fn sample(v: &Value) -> Option<RawSample> {
    if v.is_null() {
        return None;
    }
    Some(RawSample {
        value: int(&v["value"]).unwrap(),
        second: int(&v["second"]),
        frequency: int(&v["frequency"]),
        multi: int(&v["multi"]),
    })
}

fn options(v: &Value) -> CookOptions {
    let d = CookOptions::default();
    CookOptions {
        cap100: v["cap100"].as_bool().unwrap_or(d.cap100),
        scale: v["scale"].as_i64().map(|k| k as i32),
        x1000: v["x1000"].as_bool().unwrap_or(d.x1000),
        wrap32: v["wrap32"].as_bool().unwrap_or(d.wrap32),
    }
}

fn status(s: &str) -> Status {
    *Status::ALL
        .iter()
        .find(|x| x.as_str() == s)
        .unwrap_or_else(|| panic!("unknown status {s}"))
}

fn run(group: &str) -> usize {
    let all = vectors();
    let cases = all[group].as_array().unwrap();
    for case in cases {
        let ty = parse_type(case["type"].as_str().unwrap()).unwrap();
        let got = cook(
            ty,
            sample(&case["older"]).as_ref(),
            &sample(&case["newer"]).unwrap(),
            &options(&case["options"]),
        );
        let why = case["why"].as_str().unwrap();
        if let Some(field) = case["error"].as_str() {
            match got {
                Err(CookError::MissingField { field: f, .. }) => assert_eq!(f, field, "{why}"),
                Err(CookError::ScaleOutOfRange(_)) => assert_eq!("scale", field, "{why}"),
                other => panic!(
                    "{}: expected an error on {field}, got {other:?} ({why})",
                    case["type"]
                ),
            }
            continue;
        }
        let got = got.unwrap_or_else(|e| panic!("{}: {e} ({why})", case["type"]));
        assert_eq!(
            got.status,
            status(case["status"].as_str().unwrap()),
            "{}: {why}",
            case["type"]
        );
        match case["value"].as_f64() {
            Some(want) => {
                let v = got
                    .value
                    .unwrap_or_else(|| panic!("{}: no value ({why})", case["type"]));
                assert!(
                    (v - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "{}: {v} != {want} ({why})",
                    case["type"]
                );
            }
            None => assert_eq!(got.value, None, "{}: {why}", case["type"]),
        }
    }
    cases.len()
}

#[test]
fn every_row_of_the_table() {
    assert_eq!(run("rows"), 40);
    // Every named type has at least one row vector.
    let all = vectors();
    for t in counterlens::types::TYPES {
        assert!(
            all["rows"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["type"] == t.name),
            "no vector for {}",
            t.name
        );
    }
}

#[test]
fn every_status() {
    run("statuses");
    let all = vectors();
    for s in Status::ALL {
        let seen = ["rows", "statuses", "options"]
            .iter()
            .flat_map(|g| all[*g].as_array().unwrap())
            .any(|c| c["status"] == s.as_str());
        assert!(seen, "no vector yields {}", s.as_str());
    }
}

#[test]
fn every_option() {
    run("options");
}

#[test]
fn every_input_error() {
    run("errors");
}
