//! tests/vectors/words.json, the cases of what users read (crate/src/words.rs), in Rust; the package's
//! tests read the same file through `formatDuration`, `formatInUnit`, `formatClock`, `pathMachine`,
//! `pathWithoutMachine`, the viewer's filter and `Capture.logicalProcessors` (tests/node/words.test.mjs).

use counterlens::capture::{open_capture, OpenOptions, PathPattern};
use counterlens::units::{Measure, Unit};
use counterlens::words::{
    clock, duration, logical_processors_of, machine, matching, value, without_machine,
};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("../../tests/vectors/words.json")).unwrap()
}

#[test]
fn durations_read_as_the_vectors_say() {
    let v = vectors();
    let cases = v["durations"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for c in cases {
        let ms = c["ms"].as_f64().unwrap_or(f64::NAN);
        assert_eq!(duration(ms), c["text"].as_str().unwrap(), "{c}");
    }
}

#[test]
fn values_read_as_the_vectors_say() {
    let v = vectors();
    let cases = v["values"].as_array().unwrap();
    assert!(cases.len() >= 20);
    for c in cases {
        let measure = Measure {
            unit: Unit::parse(c["unit"].as_str().unwrap()).unwrap(),
            multiplier: c["multiplier"].as_f64().unwrap_or(1.0),
        };
        let x = c["value"].as_f64().unwrap_or(f64::NAN);
        assert_eq!(value(x, measure), c["text"].as_str().unwrap(), "{c}");
    }
}

#[test]
fn times_read_as_the_vectors_say() {
    let v = vectors();
    let cases = v["clock"].as_array().unwrap();
    assert!(cases.len() >= 6);
    for c in cases {
        let ms = c["ms"].as_f64().unwrap_or(f64::NAN);
        let offset = c["offsetMinutes"].as_f64().unwrap() * 60_000.0;
        let with_date = c["withDate"].as_bool().unwrap();
        assert_eq!(
            clock(ms, offset, with_date),
            c["text"].as_str().unwrap(),
            "{c}"
        );
    }
}

#[test]
fn machines_and_paths_without_them_as_the_vectors_say() {
    let v = vectors();
    for c in v["identity"].as_array().unwrap() {
        let path = c["path"].as_str().unwrap();
        assert_eq!(machine(path), c["machine"].as_str().unwrap(), "{c}");
        assert_eq!(
            without_machine(path),
            c["withoutMachine"].as_str().unwrap(),
            "{c}"
        );
    }
}

/// The series the vectors' patterns select in the Russian log, by the core's `words::matching`; the
/// CLI's `-c` (cli/tests/cli.rs) and the viewer's filter (tests/node/words.test.mjs) keep the same ones.
#[test]
fn patterns_select_the_vectors_series_of_a_localized_log() {
    let v = vectors();
    let m = &v["matching"];
    let path = format!(
        "{}/../tests/vectors/captures/{}",
        env!("CARGO_MANIFEST_DIR"),
        m["capture"].as_str().unwrap()
    );
    let capture = open_capture(&std::fs::read(path).unwrap(), &OpenOptions::default()).unwrap();
    assert_eq!(capture.series.len(), 5);
    let cases = m["cases"].as_array().unwrap();
    assert!(cases
        .iter()
        .any(|c| c["pattern"].as_str().unwrap().contains('?')));
    for c in cases {
        let want: Vec<usize> = c["series"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i.as_u64().unwrap() as usize)
            .collect();
        let got = match PathPattern::parse(c["pattern"].as_str().unwrap()) {
            Ok(p) => matching(&p, capture.series.iter().map(|s| &s.parsed)),
            Err(_) => Vec::new(),
        };
        assert_eq!(got, want, "{c}");
    }
}

#[test]
fn processors_counted_as_the_vectors_say() {
    let v = vectors();
    for c in v["processors"].as_array().unwrap() {
        let paths: Vec<&str> = c["paths"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap())
            .collect();
        let want = c["count"].as_u64().map(|n| n as usize);
        assert_eq!(logical_processors_of(paths), want, "{c}");
    }
}
