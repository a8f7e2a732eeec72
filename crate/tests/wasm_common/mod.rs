//! Checks shared by the wasm test binaries (Node: wasm_node.rs, Chromium: wasm_browser.rs). They call
//! the binding layer with JS values, as the npm package's users do.

use counterlens::wasm;
use js_sys::{Array, BigInt, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

fn get(v: &JsValue, key: &str) -> JsValue {
    Reflect::get(v, &key.into()).unwrap()
}

fn err_field(e: &JsValue) -> String {
    get(e, "field").as_string().unwrap_or_default()
}

/// Every case of tests/vectors/cook.json through `cook`; returns how many ran.
pub fn cook_vectors() -> usize {
    let all = JSON::parse(include_str!("../../../tests/vectors/cook.json")).unwrap();
    let mut n = 0;
    for group in ["rows", "statuses", "options", "errors"] {
        let cases: Array = get(&all, group).into();
        for case in cases.iter() {
            let why = get(&case, "why").as_string().unwrap();
            let r = wasm::cook(
                get(&case, "type"),
                get(&case, "older"),
                get(&case, "newer"),
                get(&case, "options"),
            );
            n += 1;
            if let Some(field) = get(&case, "error").as_string() {
                let e = r.expect_err(&why);
                assert!(
                    err_field(&e).ends_with(&field),
                    "{why}: field {}",
                    err_field(&e)
                );
                assert_eq!(get(&e, "name").as_string().unwrap(), "CounterTypeError");
                continue;
            }
            let r = r.unwrap_or_else(|e| panic!("{why}: {:?}", e));
            assert_eq!(get(&r, "status"), get(&case, "status"), "{why}");
            let (got, want) = (get(&r, "value"), get(&case, "value"));
            match want.as_f64() {
                Some(w) => {
                    let g = got.as_f64().unwrap_or_else(|| panic!("{why}: no value"));
                    assert!(
                        (g - w).abs() <= 1e-12 * w.abs().max(1.0),
                        "{why}: {g} != {w}"
                    );
                }
                // null, never undefined, when there is no value
                None => assert!(got.is_null(), "{why}: value {:?}", got),
            }
        }
    }
    n
}

fn sample(value: JsValue, second: JsValue, frequency: JsValue) -> JsValue {
    let o = js_sys::Object::new();
    Reflect::set(&o, &"value".into(), &value).unwrap();
    Reflect::set(&o, &"second".into(), &second).unwrap();
    Reflect::set(&o, &"frequency".into(), &frequency).unwrap();
    o.into()
}

/// Raw values as bigint, number and string give the same result; bad ones throw naming the field.
pub fn raw_value_forms() {
    let t: JsValue = "PERF_COUNTER_BULK_COUNT".into();
    // dN = 2 over dD/F = 1 s, with N and D beyond 2^53 (see cook.json)
    let forms = [
        (
            JsValue::from(BigInt::from(9_007_199_254_740_993u64)),
            JsValue::from(BigInt::from(9_007_199_254_740_995u64)),
        ),
        (
            JsValue::from_str("9007199254740993"),
            JsValue::from_str("9007199254740995"),
        ),
    ];
    for (n0, n1) in forms {
        let older = sample(n0, "130058022178447225".into(), 10_000_000.into());
        let newer = sample(
            n1,
            BigInt::from(130_058_022_188_447_225u64).into(),
            "10000000".into(),
        );
        let r = wasm::cook(t.clone(), older, newer, JsValue::UNDEFINED).unwrap();
        assert_eq!(get(&r, "value").as_f64(), Some(2.0));
    }
    let raw: JsValue = "PERF_COUNTER_RAWCOUNT".into();
    let ok = wasm::cook(
        raw.clone(),
        JsValue::NULL,
        sample(42.into(), JsValue::UNDEFINED, JsValue::UNDEFINED),
        JsValue::NULL,
    )
    .unwrap();
    assert_eq!(get(&ok, "value").as_f64(), Some(42.0));
    for bad in [
        JsValue::from(-1),
        JsValue::from(1.5),
        JsValue::from_str("12a"),
        JsValue::from(f64::NAN),
        JsValue::from_str(""),
        JsValue::from(BigInt::from(-1)),
        JsValue::from_str("18446744073709551616"),
        JsValue::TRUE,
    ] {
        let e = wasm::cook(
            raw.clone(),
            JsValue::NULL,
            sample(bad, JsValue::UNDEFINED, JsValue::UNDEFINED),
            JsValue::NULL,
        )
        .unwrap_err();
        assert_eq!(get(&e, "code").as_string().unwrap(), "invalid-raw-value");
        assert_eq!(err_field(&e), "newer.value");
    }
    // Not a sample at all, an unknown type name, a type beyond 32 bits, a bad option.
    assert!(wasm::cook(raw.clone(), JsValue::NULL, 5.into(), JsValue::NULL).is_err());
    let e = wasm::cook(
        "PERF_NOPE".into(),
        JsValue::NULL,
        sample(1.into(), JsValue::UNDEFINED, JsValue::UNDEFINED),
        JsValue::NULL,
    )
    .unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "invalid-type");
    assert!(wasm::describe_counter_type(4_294_967_296i64.into()).is_err());
    assert!(wasm::describe_counter_type((-1).into()).is_err());
    let opts = JSON::parse(r#"{"cap100": "yes"}"#).unwrap();
    let e = wasm::cook(
        raw,
        JsValue::NULL,
        sample(1.into(), JsValue::UNDEFINED, JsValue::UNDEFINED),
        opts,
    )
    .unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "invalid-option");
}

/// The type table through the binding: 39 rows, every spelling, unknown values decoded.
pub fn describe() {
    let all: Array = wasm::counter_types().unwrap().into();
    assert_eq!(all.length(), 39);
    for spelling in [
        "0x10410400",
        "PERF_COUNTER_COUNTER",
        "perf_counter_counter",
        "RateOfCountsPerSecond32",
    ] {
        let d = wasm::describe_counter_type(spelling.into()).unwrap();
        assert_eq!(get(&d, "value").as_f64(), Some(272_696_320.0), "{spelling}");
        assert_eq!(get(&d, "display").as_string().unwrap(), "per-second");
        assert_eq!(get(&get(&d, "fields"), "deltaBase"), JsValue::FALSE);
    }
    let d = wasm::describe_counter_type(0x1234_5678.into()).unwrap();
    assert!(get(&d, "name").is_null());
    assert_eq!(get(&d, "samples").as_f64(), Some(0.0));
}

/// One call cooks a whole series, and agrees with cook.
pub fn series() {
    let cols = js_sys::Object::new();
    Reflect::set(
        &cols,
        &"value".into(),
        &js_sys::BigUint64Array::from(&[100u64, 200, 400, 50, 150][..]),
    )
    .unwrap();
    Reflect::set(
        &cols,
        &"second".into(),
        &js_sys::BigUint64Array::from(&[0u64, 10, 20, 30, 40][..]),
    )
    .unwrap();
    Reflect::set(&cols, &"frequency".into(), &BigInt::from(10u64)).unwrap();
    let out = wasm::cook_series(
        "PERF_COUNTER_COUNTER".into(),
        cols.into(),
        JsValue::UNDEFINED,
    )
    .unwrap()
    .to_vec();
    // first: NaN; 100/(10/10) = 100; 200; 400 > 50: NaN; (150-50)/1 = 100
    assert!(out[0].is_nan() && out[3].is_nan());
    assert_eq!((out[1], out[2], out[4]), (100.0, 200.0, 100.0));
    let e = wasm::cook_series(
        "PERF_COUNTER_COUNTER".into(),
        js_sys::Object::new().into(),
        JsValue::UNDEFINED,
    )
    .unwrap_err();
    assert_eq!(err_field(&e), "columns.value");
    let s = wasm::series_stats(&[1.0, f64::NAN, 3.0], None, None).unwrap();
    assert_eq!(get(&s, "mean").as_f64(), Some(2.0));
}

fn fixture(name: &str) -> &'static str {
    match name {
        "rich.man" => include_str!("../../../tests/vectors/registration/rich.man"),
        "rich.json" => include_str!("../../../tests/vectors/registration/rich.json"),
        "rich.hex" => include_str!("../../../tests/vectors/registration/rich.hex"),
        other => panic!("no fixture {other}"),
    }
}

/// tests/vectors/registration.json through validateRegistration; returns how many cases ran.
pub fn registration_cases() -> usize {
    let all = JSON::parse(include_str!("../../../tests/vectors/registration.json")).unwrap();
    let cases: Array = get(&all, "cases").into();
    for case in cases.iter() {
        let name = get(&case, "name").as_string().unwrap();
        let mut text = match get(&case, "base").as_string() {
            Some(base) => fixture(&base).to_string(),
            None => get(&case, "text").as_string().unwrap(),
        };
        if let Some(r) = get(&case, "replace").dyn_ref::<Array>() {
            let (from, to) = (r.get(0).as_string().unwrap(), r.get(1).as_string().unwrap());
            assert!(text.contains(&from), "{name}: {from} not in the fixture");
            text = text.replacen(&from, &to, 1);
        }
        if let Some(n) = get(&case, "lines").as_f64() {
            text = text
                .lines()
                .take(n as usize)
                .map(|l| format!("{l}\n"))
                .collect();
        }
        let report = wasm::validate_registration(text.into(), JsValue::UNDEFINED).unwrap();
        let diags: Array = get(&report, "diagnostics").into();
        let got: Vec<String> = diags
            .iter()
            .map(|d| {
                format!(
                    "{:?}",
                    [
                        get(&d, "code"),
                        get(&d, "severity"),
                        get(&d, "field"),
                        get(&d, "counterId")
                    ]
                    .map(|v| v.as_string().or(v.as_f64().map(|n| n.to_string())))
                )
            })
            .collect();
        let want: Vec<String> = Array::from(&get(&case, "expect"))
            .iter()
            .map(|e| {
                let e = Array::from(&e);
                format!(
                    "{:?}",
                    [e.get(0), e.get(1), e.get(2), e.get(3)]
                        .map(|v| v.as_string().or(v.as_f64().map(|n| n.to_string())))
                )
            })
            .collect();
        assert_eq!(got, want, "{name}");
        if let Some(line) = get(&case, "line").as_f64() {
            assert_eq!(get(&diags.get(0), "line").as_f64(), Some(line), "{name}");
        }
        if let Some(set_name) = get(&case, "setName").as_string() {
            let sets: Array = get(&report, "counterSets").into();
            assert_eq!(
                get(&sets.get(0), "name").as_string(),
                Some(set_name),
                "{name}"
            );
        }
    }
    // Binary bytes and a plain object (with a bigint) are inputs too; a number is not.
    let bytes = js_sys::Uint8Array::from(&[0u8; 10][..]);
    let r = wasm::validate_registration(bytes.into(), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&r, "format").as_string().unwrap(), "binary");
    assert_eq!(get(&r, "errors").as_f64(), Some(1.0));
    let obj = JSON::parse(fixture("rich.json")).unwrap();
    Reflect::set(
        &get(&obj, "counterSets").dyn_into::<Array>().unwrap().get(0),
        &"counterSetType".into(),
        &BigInt::from(0u64),
    )
    .unwrap();
    let r = wasm::validate_registration(obj, JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&r, "errors").as_f64(), Some(0.0));
    let e = wasm::validate_registration(5.into(), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&e, "name").as_string().unwrap(), "RegistrationError");
    let e = wasm::validate_registration("x".into(), JSON::parse(r#"{"format": "yaml"}"#).unwrap())
        .unwrap_err();
    assert_eq!(get(&e, "code").as_string().unwrap(), "invalid-option");
    cases.length() as usize
}

fn capture_file(name: &str) -> &'static [u8] {
    match name {
        "relog-pst.csv" => include_bytes!("../../../tests/vectors/captures/relog-pst.csv"),
        "typeperf.csv" => include_bytes!("../../../tests/vectors/captures/typeperf.csv"),
        "relog.tsv" => include_bytes!("../../../tests/vectors/captures/relog.tsv"),
        "utf16le.csv" => include_bytes!("../../../tests/vectors/captures/utf16le.csv"),
        "cp1251.csv" => include_bytes!("../../../tests/vectors/captures/cp1251.csv"),
        "quirky-paths.csv" => include_bytes!("../../../tests/vectors/captures/quirky-paths.csv"),
        "cut-short.csv" => include_bytes!("../../../tests/vectors/captures/cut-short.csv"),
        "header-only.csv" => include_bytes!("../../../tests/vectors/captures/header-only.csv"),
        "wrong-cells.csv" => include_bytes!("../../../tests/vectors/captures/wrong-cells.csv"),
        "bad-number.csv" => include_bytes!("../../../tests/vectors/captures/bad-number.csv"),
        "binary.bin" => include_bytes!("../../../tests/vectors/captures/binary.bin"),
        "get-counter-ps51.json" => {
            include_bytes!("../../../tests/vectors/captures/get-counter-ps51.json")
        }
        "get-counter-ps7.json" => {
            include_bytes!("../../../tests/vectors/captures/get-counter-ps7.json")
        }
        "get-counter-bad.json" => {
            include_bytes!("../../../tests/vectors/captures/get-counter-bad.json")
        }
        "raw-tiny.json" => include_bytes!("../../../tests/vectors/captures/raw-tiny.json"),
        "raw-bad-registration.json" => {
            include_bytes!("../../../tests/vectors/captures/raw-bad-registration.json")
        }
        other => panic!("no golden capture {other}"),
    }
}

fn nan_to_null(v: f64) -> JsValue {
    if v.is_nan() {
        JsValue::NULL
    } else {
        JsValue::from(v)
    }
}

/// tests/vectors/captures.json through openCapture; returns how many files were checked.
pub fn capture_files() -> usize {
    let all = JSON::parse(include_str!("../../../tests/vectors/captures.json")).unwrap();
    let files = js_sys::Object::entries(&get(&all, "files").into());
    for entry in files.iter() {
        let entry = Array::from(&entry);
        let name = entry.get(0).as_string().unwrap();
        let want = entry.get(1);
        let bytes = js_sys::Uint8Array::from(capture_file(&name));
        let result = wasm::open_capture(bytes.into(), JsValue::UNDEFINED);
        let err = get(&want, "error");
        if !err.is_undefined() {
            let e = result
                .err()
                .unwrap_or_else(|| panic!("{name} should not read"));
            assert_eq!(
                get(&e, "name").as_string().unwrap(),
                "CaptureError",
                "{name}"
            );
            assert_eq!(get(&e, "code"), get(&err, "code"), "{name}");
            if !get(&err, "line").is_undefined() {
                assert_eq!(
                    (get(&e, "line").as_f64(), get(&e, "column").as_f64()),
                    (get(&err, "line").as_f64(), get(&err, "column").as_f64()),
                    "{name}"
                );
            }
            continue;
        }
        let c = result.unwrap_or_else(|e| panic!("{name}: {:?}", get(&e, "message")));
        assert_eq!(JsValue::from(c.format()), get(&want, "format"), "{name}");
        assert_eq!(
            JsValue::from(c.encoding()),
            get(&want, "encoding"),
            "{name}"
        );
        let got_ts: Vec<f64> = c.timestamps().to_vec();
        let want_ts: Vec<f64> = Array::from(&get(&want, "timestamps"))
            .iter()
            .map(|v| v.as_f64().unwrap())
            .collect();
        assert_eq!(got_ts, want_ts, "{name}");
        let series = Array::from(&get(&want, "series"));
        assert_eq!(c.series_count(), series.length() as usize, "{name}");
        let infos = Array::from(&c.series().unwrap());
        for (i, w) in series.iter().enumerate() {
            assert_eq!(get(&infos.get(i as u32), "path"), get(&w, "path"), "{name}");
            let got: Vec<JsValue> = c
                .values(i)
                .unwrap()
                .to_vec()
                .into_iter()
                .map(nan_to_null)
                .collect();
            let want_values = Array::from(&get(&w, "values"));
            assert_eq!(got.len(), want_values.length() as usize, "{name}");
            for (a, b) in got.iter().zip(want_values.iter()) {
                assert_eq!(a.as_f64(), b.as_f64(), "{name} series {i}");
                assert_eq!(a.is_null(), b.is_null(), "{name} series {i}");
            }
        }
    }
    files.length() as usize
}
