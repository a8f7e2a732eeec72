//! PDH-CSV and PDH-TSV (the first byte picks which), the format forced so every input reaches the parser;
//! a capture read must have one value per timestamp in every series.
#![no_main]
use counterlens::capture::{open_capture, OpenOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let format = if pick & 1 == 0 { "pdh-csv" } else { "pdh-tsv" };
    if let Ok(c) = open_capture(rest, &OpenOptions { format: Some(format.into()), ..Default::default() }) {
        assert!(c.series.iter().all(|s| s.values.len() == c.timestamps.len()));
    }
});
