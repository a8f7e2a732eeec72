//! Prints what counterlens reads from a capture file (any format): format, zone, notes, and per series
//! its path, type, scale, count of values and the first few. A tool for looking at real logs:
//! `cargo run --example capture_dump -- tests/vectors/captures/PAL_SampleLog.blg`
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: capture_dump <file>");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match counterlens::capture::open_capture(&bytes, &Default::default()) {
        Err(e) => {
            eprintln!("{path}: {} ({})", e, e.code());
            std::process::exit(1);
        }
        Ok(c) => {
            println!(
                "{}: {} {}, {} samples, {} series, zone {:?}",
                path,
                c.format_name(),
                c.encoding_name(),
                c.timestamps.len(),
                c.series.len(),
                c.time_zone
            );
            for n in &c.notes {
                println!("note {}: {}", n.code, n.message);
            }
            for s in &c.series {
                let count = s.values.iter().filter(|v| !v.is_nan()).count();
                let first: Vec<f64> = s.values.iter().take(4).copied().collect();
                println!(
                    "{}  type={:#x} scale={:?} values={count} first={first:?}",
                    s.path,
                    s.counter_type.unwrap_or(0),
                    s.scale
                );
            }
        }
    }
}
