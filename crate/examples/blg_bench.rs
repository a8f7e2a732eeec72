//! Native timing of the .blg reader beside the PDH-CSV reader on the same data, in the same run: the
//! log is read, exported as relog-style CSV (`write_csv`), and both are opened `runs` times.
//! `cargo run --release --example blg_bench -- log.blg [runs] [blg|csv]` (bench/blg.mjs writes a
//! synthetic log with `BLG_OUT=file`; this is its native counterpart, for profiling with `perf record`).
//! With `blg` or `csv` only that reader is timed, so that `perf stat` can count one reader's work (its
//! instructions do not change with the machine's load, unlike its time).
use counterlens::capture::{open_capture, write_csv};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: blg_bench <file.blg> [runs]");
        std::process::exit(2);
    };
    let runs: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let only = args.next();
    let blg = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let opts = Default::default();
    let probe = match open_capture(&blg, &opts) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let values = probe.timestamps.len() * probe.series.len();
    let csv = write_csv(&probe, None).into_bytes();
    drop(probe);
    println!(
        "{path}: {:.1} MB, {values} values; as CSV {:.1} MB",
        blg.len() as f64 / 1e6,
        csv.len() as f64 / 1e6
    );
    let time = |name: &str, bytes: &[u8]| {
        let mut best = f64::INFINITY;
        let mut all = Vec::new();
        for _ in 0..runs {
            let t = Instant::now();
            let c = open_capture(bytes, &opts);
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert!(c.is_ok());
            drop(c);
            best = best.min(ms);
            all.push(format!("{ms:.0}"));
        }
        println!(
            "{name}: best {best:.1} ms ({:.1} M values/s), runs {} ms",
            values as f64 / best / 1e3,
            all.join(" / ")
        );
        best
    };
    match only.as_deref() {
        Some("blg") => {
            time(".blg", &blg);
        }
        Some("csv") => {
            time("the same as PDH-CSV", &csv);
        }
        _ => {
            let a = time(".blg", &blg);
            let b = time("the same as PDH-CSV", &csv);
            println!("the .blg reads {:.2}x the CSV's values per second", b / a);
        }
    }
}
