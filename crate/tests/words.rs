//! tests/vectors/words.json, the cases of what users read (crate/src/words.rs), in Rust; the package's
//! tests read the same file through `formatDuration` (tests/node/words.test.mjs).

use counterlens::words::duration;
use serde_json::Value;

#[test]
fn durations_read_as_the_vectors_say() {
    let v: Value = serde_json::from_str(include_str!("../../tests/vectors/words.json")).unwrap();
    let cases = v["durations"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for c in cases {
        let ms = c["ms"].as_f64().unwrap_or(f64::NAN);
        assert_eq!(duration(ms), c["text"].as_str().unwrap(), "{c}");
    }
}
