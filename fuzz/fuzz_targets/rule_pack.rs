//! Rule-pack JSON: a pack that reads writes JSON that reads back as the same pack, and analyses a small
//! capture (derived series, sustained rules and all) without panicking; an error names a line within
//! the text.
#![no_main]
use counterlens::analysis::{analyze, AnalysisError, AnalyzeOptions, PackRef, RulePack};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match RulePack::from_json(text) {
        Ok(pack) => {
            assert_eq!(RulePack::from_json(&pack.to_json()).as_ref(), Ok(&pack));
            let cap = counterlens::capture::Capture {
                format: None,
                encoding: None,
                time_zone: None,
                timestamps: (0..30).map(|i| i as f64 * 15_000.0).collect(),
                series: ["\\\\A\\Processor(_Total)\\% Processor Time", "\\\\A\\Processor(0)\\% Processor Time", "\\\\A\\Memory\\Available MBytes"]
                    .iter()
                    .map(|p| counterlens::capture::Series::new(p.to_string(), (0..30).map(|i| (i * 7 % 100) as f64).collect()))
                    .collect(),
                notes: Vec::new(),
            };
            let _ = analyze(&cap, &AnalyzeOptions { packs: Some(vec![PackRef::Pack(pack)]), ..Default::default() });
        }
        Err(AnalysisError::Pack { line, .. }) => assert!(line <= text.lines().count() + 1),
        Err(_) => {}
    }
});
