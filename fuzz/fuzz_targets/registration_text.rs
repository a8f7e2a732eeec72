//! Registration text: hex dumps, JSON and instrumentation manifests (the first byte picks the form; the
//! rest, as UTF-8 with replacement, is the text). Every diagnostic's line lies within the text.
#![no_main]
use counterlens::registration::{validate_registration, Format, Input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    let format = match pick % 4 {
        0 => Some(Format::Hex),
        1 => Some(Format::Json),
        2 => Some(Format::Manifest),
        _ => None,
    };
    let report = validate_registration(Input::Text(&text), format);
    let lines = text.split('\n').count() as u32;
    for d in &report.diagnostics {
        if let Some(l) = d.line {
            assert!(l >= 1 && l <= lines, "{} at line {l} of {lines}", d.code);
        }
    }
});
