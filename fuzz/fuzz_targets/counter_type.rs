//! The counter-type parser on any text, and everything a parsed type answers.
#![no_main]
use counterlens::{describe, parse_type};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(t) = parse_type(&text) {
        let info = describe(t);
        assert_eq!(info.value, t.value);
        let _ = (t.fields(), t.display(), t.formula_text(), t.to_string());
    }
});
