//! Native timing of the PDH-CSV reader on the data of bench/captures.mjs (500 counters, every value
//! quoted): relog-shaped (values with 20 significant digits, integers for counts and bytes: the rule of
//! bench/data.mjs), clean (13 decimals) and gapped (13 decimals, 1 % `" "`), generated here the same way,
//! so the hot loop can be profiled outside wasm:
//! `cargo run --release --example csv_ingest -- [relog rows] [clean rows] [gapped rows]`, or under
//! `perf record` or `valgrind --tool=callgrind`.
use std::time::Instant;

const COLS: usize = 500;

/// A value as relog writes it (bench/data.mjs): the double's decimal expansion rounded to 20 significant
/// digits, trailing zeros dropped; integers as integers.
fn relog(v: f64) -> String {
    if v == v.trunc() {
        return format!("{v}");
    }
    let decimals = (19 - v.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The benchmark's generator: `rows` rows, a time and `COLS` quoted values; with `gaps`, the first row and
/// about 1 % of the other cells are `" "`. The same linear congruential generator as bench/captures.mjs.
/// `shaped`: the relog-shaped file's ten kinds of counter (bench/data.mjs), else 13 decimals.
fn make_csv(rows: usize, gaps: bool, shaped: bool) -> Vec<u8> {
    let mut seed: u64 = 7;
    let mut rand = move || {
        seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
        seed as f64 / 2_147_483_648.0
    };
    let mut out = String::from("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\"");
    for c in 0..COLS {
        out.push_str(&format!(
            ",\"\\\\SQL01\\Process(w3wp#{c})\\% Processor Time\""
        ));
    }
    out.push_str("\r\n");
    for r in 0..rows {
        let s = 9 * 3600 + r;
        out.push_str(&format!(
            "\"11/22/2026 {:02}:{:02}:{:02}.000\"",
            s / 3600 % 24,
            s / 60 % 60,
            s % 60
        ));
        for c in 0..COLS {
            if gaps && (r == 0 || rand() < 0.01) {
                out.push_str(",\" \"");
            } else if shaped {
                let mut full = || rand() + rand() / 2_147_483_648.0;
                let v = match c % 10 {
                    0..=2 => relog(full() * 100.0),
                    3 => relog(full() * 20_000.0),
                    4 => relog(full() * 5e7),
                    5 => relog((rand() * 500_000.0).round() / 1e7),
                    6 | 7 => relog((rand() * 8e9 / 4096.0).round() * 4096.0),
                    _ => relog((rand() * 5000.0).round()),
                };
                out.push_str(&format!(",\"{v}\""));
            } else {
                out.push_str(&format!(",\"{:.13}\"", rand() * 100.0));
            }
        }
        out.push_str("\r\n");
    }
    out.into_bytes()
}

/// Nanoseconds this thread has run on a CPU (Linux's /proc/thread-self/schedstat), 0 elsewhere: on a
/// shared machine the wall clock also counts the time other processes had the CPU.
fn cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn run(label: &str, bytes: &[u8]) {
    let (mut wall, mut cpu) = (Vec::new(), Vec::new());
    let mut values = 0;
    for _ in 0..5 {
        let (t, c0) = (Instant::now(), cpu_ns());
        let c = counterlens::capture::open_capture(bytes, &Default::default()).expect("reads");
        wall.push(t.elapsed().as_secs_f64());
        cpu.push((cpu_ns() - c0) as f64 / 1e9);
        values = c.series.len() * c.timestamps.len();
    }
    wall.sort_by(f64::total_cmp);
    cpu.sort_by(f64::total_cmp);
    let mbs = |s: f64| bytes.len() as f64 / 1e6 / s;
    println!(
        "{label}: {:.1} MB, {values} values, best of 5: {:.0} ms wall = {:.0} MB/s, {:.0} ms on the CPU = {:.0} MB/s",
        bytes.len() as f64 / 1e6,
        wall[0] * 1e3,
        mbs(wall[0]),
        cpu[0] * 1e3,
        mbs(cpu[0])
    );
}

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().ok());
    let shaped = args.next().flatten().unwrap_or(10_000);
    let clean = args.next().flatten().unwrap_or(10_000);
    let gapped = args.next().flatten().unwrap_or(0);
    if shaped > 0 {
        run("relog ", &make_csv(shaped, false, true));
    }
    if clean > 0 {
        run("clean ", &make_csv(clean, false, false));
    }
    if gapped > 0 {
        run("gapped", &make_csv(gapped, true, false));
    }
}
