//! Get-Counter JSON, the format forced so every input reaches its reader; a capture read must have one value per
//! timestamp in every series.
#![no_main]
use counterlens::capture::{open_capture, OpenOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = open_capture(data, &OpenOptions { format: Some("get-counter-json".into()), ..Default::default() }) {
        assert!(c.series.iter().all(|s| s.values.len() == c.timestamps.len()));
    }
});
