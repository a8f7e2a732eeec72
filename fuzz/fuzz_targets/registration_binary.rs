//! PERF_COUNTERSET_REG_INFO blocks as bytes: every diagnostic's byte offset lies within the input.
#![no_main]
use counterlens::registration::{validate_registration, Format, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let report = validate_registration(Input::Bytes(data), Some(Format::Binary));
    for d in &report.diagnostics {
        assert!(d.offset <= data.len(), "{} at byte {} of {}", d.code, d.offset, data.len());
    }
});
