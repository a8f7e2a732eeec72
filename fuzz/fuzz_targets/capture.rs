//! Any bytes through `open_capture` with sniffing (every format), and the same bytes streamed through
//! `CaptureReader` in chunks whose size the input's first byte picks: both must agree (same error code,
//! or the same capture).
#![no_main]
use counterlens::capture::{open_capture, CaptureReader, OpenOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let whole = open_capture(data, &OpenOptions::default());
    let chunk = 1 + usize::from(data.first().copied().unwrap_or(0)) * 61;
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    let streamed = data.chunks(chunk).try_for_each(|c| r.push(c)).and_then(|()| r.finish());
    match (&whole, &streamed) {
        (Ok(a), Ok(b)) => {
            assert_eq!(a.timestamps.len(), b.timestamps.len());
            assert_eq!(a.series.len(), b.series.len());
        }
        (Err(a), Err(b)) => assert_eq!(a.kind, b.kind),
        _ => panic!("whole and streamed disagree: {:?} vs {:?}", whole.as_ref().err(), streamed.as_ref().err()),
    }
});
