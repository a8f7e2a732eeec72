//! Reading a part of a log (`OpenOptions::series`, `from_ms`, `to_ms`, `every`) gives exactly the part of
//! the whole read: the same series (in order), the same times and values bit for bit, with a `part` note;
//! whether the input is whole, streamed, or (CSV) read in pieces and joined. And the column budget
//! (`max_column_bytes`): a log whose columns outgrow it is a `too-large` error saying what was read, what
//! fits, and how to read less.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::join::{assemble_part, pick_rows, plan, read_piece_of, PieceRows};
use counterlens::capture::{open_capture, Capture, CaptureReader, OpenOptions, PathPattern};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap()
}

fn open(b: &[u8], o: &OpenOptions) -> Capture {
    open_capture(b, o).unwrap_or_else(|e| panic!("{e}"))
}

fn patterns(p: &[&str]) -> Option<Vec<PathPattern>> {
    Some(p.iter().map(|p| PathPattern::parse(p).unwrap()).collect())
}

/// A PDH-CSV of `series` series (Processor, Memory and Process instances) and `rows` rows one second
/// apart from 2026-11-21 12:00:00 local (Pacific, bias 480: 20:00:00 UTC), value (row * 1000 + series) / 8
/// (exact in binary), with a blank every 7th cell.
fn csv(series: usize, rows: usize) -> String {
    let path = |k: usize| match k % 3 {
        0 => format!("\\\\WEB01\\Processor({})\\% Processor Time", k / 3),
        1 => format!("\\\\WEB01\\Process(w3wp#{})\\Working Set", k / 3),
        _ => format!("\\\\WEB01\\Memory\\Counter {k}"),
    };
    let mut s = String::from("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\"");
    for k in 0..series {
        s.push_str(&format!(",\"{}\"", path(k)));
    }
    s.push_str("\r\n");
    for r in 0..rows {
        s.push_str(&format!(
            "\"11/21/2026 {:02}:{:02}:{:02}.000\"",
            12 + r / 3600,
            r / 60 % 60,
            r % 60
        ));
        for k in 0..series {
            if (r + k) % 7 == 0 {
                s.push_str(",\" \"");
            } else {
                s.push_str(&format!(",\"{}\"", (r * 1000 + k) as f64 / 8.0));
            }
        }
        s.push_str("\r\n");
    }
    s
}

/// 2026-11-21 20:00:00 UTC in ms: day 20,778 since 1970 (56 years, 14 of them leap, + 324 days) x
/// 86,400,000 + 20 h.
const T0: f64 = 20_778.0 * 86_400_000.0 + 20.0 * 3_600_000.0;

/// The part of `whole` the options ask for, cut from the whole read: what every reader must give.
fn expected(whole: &Capture, o: &OpenOptions) -> (Vec<f64>, Vec<(String, Vec<u64>)>) {
    let mut n = 0;
    let rows: Vec<usize> = (0..whole.timestamps.len())
        .filter(|&k| {
            let t = whole.timestamps[k];
            if !o.wants_time(t) {
                return false;
            }
            n += 1;
            (n - 1) % o.every.unwrap_or(1) == 0
        })
        .collect();
    let series = whole
        .series
        .iter()
        .filter(|s| o.wants_series(&s.path))
        .map(|s| {
            (
                s.path.clone(),
                rows.iter().map(|&k| s.values[k].to_bits()).collect(),
            )
        })
        .collect();
    (rows.iter().map(|&k| whole.timestamps[k]).collect(), series)
}

fn got(c: &Capture) -> (Vec<f64>, Vec<(String, Vec<u64>)>) {
    let series = c
        .series
        .iter()
        .map(|s| {
            (
                s.path.clone(),
                s.values.iter().map(|v| v.to_bits()).collect(),
            )
        })
        .collect();
    (c.timestamps.clone(), series)
}

fn cases() -> Vec<OpenOptions> {
    let o =
        |series: Option<Vec<PathPattern>>, from: Option<f64>, to: Option<f64>, every| OpenOptions {
            series,
            from_ms: from,
            to_ms: to,
            every,
            ..OpenOptions::default()
        };
    vec![
        o(
            patterns(&["\\Processor(*)\\% Processor Time"]),
            None,
            None,
            None,
        ),
        o(
            patterns(&["\\\\web01\\process(w3wp#1*)\\*", "\\Memory\\Counter 2"]),
            None,
            None,
            None,
        ),
        o(None, Some(T0 + 10_000.0), Some(T0 + 20_000.0), None),
        o(None, Some(T0 + 10_500.0), None, Some(3)),
        o(None, None, Some(T0 + 5_000.0), None),
        o(None, None, None, Some(4)),
        o(
            patterns(&["\\*(*)\\Working Set"]),
            Some(T0 + 3_000.0),
            Some(T0 + 40_000.0),
            Some(2),
        ),
    ]
}

#[test]
fn a_part_of_a_csv_is_the_part_of_the_whole() {
    let text = csv(60, 50);
    let whole = open(text.as_bytes(), &OpenOptions::default());
    assert_eq!(whole.timestamps[0], T0);
    for o in cases() {
        let want = expected(&whole, &o);
        assert!(!want.0.is_empty() && !want.1.is_empty());
        let c = open(text.as_bytes(), &o);
        assert_eq!(got(&c), want, "{o:?}");
        let note = c
            .notes
            .iter()
            .find(|n| n.code == "part")
            .expect("a part note");
        assert!(
            note.message.ends_with(&format!(
                "{} of its 60 series, {} of its 50 samples",
                want.1.len(),
                want.0.len()
            )),
            "{}",
            note.message
        );
        // Streamed in chunks.
        for size in [1usize, 7, 100, 4096] {
            let mut r = CaptureReader::new(&o).unwrap();
            for chunk in text.as_bytes().chunks(size) {
                r.push(chunk).unwrap();
            }
            assert_eq!(got(&r.finish().unwrap()), want, "{o:?} in chunks of {size}");
        }
        // In pieces, as openCaptureParallel reads it: the series read by each piece, the rows picked
        // at the join.
        let b = text.as_bytes();
        let header_end = b.iter().position(|&x| x == b'\n').unwrap();
        let p = plan(&b[..b.len().min(70_000)], &o, true).unwrap();
        let body = &b[header_end + 1..];
        let cut = body[body.len() / 2..]
            .iter()
            .position(|&x| x == b'\n')
            .unwrap()
            + body.len() / 2
            + 1;
        let first = read_piece_of(&b[..header_end], &body[..cut], 2, false, &p, &o).unwrap();
        let lines = 2 + body[..cut].iter().filter(|&&x| x == b'\n').count() as u32;
        let second = read_piece_of(&b[..header_end], &body[cut..], lines, true, &p, &o).unwrap();
        let of_series = Some(first.of_series);
        let head = Capture {
            timestamps: vec![],
            notes: vec![],
            ..first.capture.clone()
        };
        let mut joined: Vec<Vec<f64>> = first
            .capture
            .series
            .iter()
            .map(|s| s.values.clone())
            .collect();
        for (j, s) in joined.iter_mut().zip(&second.capture.series) {
            j.extend_from_slice(&s.values);
        }
        let rows = [
            PieceRows {
                local: first.capture.timestamps.clone(),
                lines: first.lines.clone(),
                notes: first.capture.notes.clone(),
            },
            PieceRows {
                local: second.capture.timestamps.clone(),
                lines: second.lines.clone(),
                notes: second.capture.notes.clone(),
            },
        ];
        let c = assemble_part(head, &rows, &o, of_series, |keep| {
            joined.into_iter().map(|c| pick_rows(c, keep)).collect()
        })
        .unwrap();
        assert_eq!(got(&c), want, "{o:?} in pieces");
        assert_eq!(c.notes.iter().find(|n| n.code == "part"), Some(note));
    }
}

#[test]
fn a_part_of_a_blg_is_the_part_of_the_whole_cooked_as_in_the_whole() {
    // Each sample read is cooked against the sample just before it in the log, read or not, so every
    // value is the whole read's.
    for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
        let b = bytes(name);
        let whole = open(&b, &OpenOptions::default());
        let t = &whole.timestamps;
        let mid = t[t.len() / 2];
        let cases = [
            OpenOptions {
                series: patterns(&["\\Processor(*)\\*"]),
                ..OpenOptions::default()
            },
            OpenOptions {
                series: patterns(&[
                    "\\Process(*)\\% Processor Time",
                    "\\PhysicalDisk(*)\\Disk Reads/sec",
                ]),
                ..OpenOptions::default()
            },
            OpenOptions {
                from_ms: Some(t[3]),
                to_ms: Some(mid),
                ..OpenOptions::default()
            },
            OpenOptions {
                from_ms: Some(mid + 1.0),
                every: Some(3),
                ..OpenOptions::default()
            },
            OpenOptions {
                every: Some(2),
                series: patterns(&["\\*(*)\\*"]),
                ..OpenOptions::default()
            },
        ];
        for o in cases {
            let want = expected(&whole, &o);
            if want.1.is_empty() {
                continue; // the pattern names nothing of this log (checked for errors below)
            }
            let c = open(&b, &o);
            assert_eq!(got(&c), want, "{name}: {o:?}");
            assert!(c.notes.iter().any(|n| n.code == "part"), "{name}: {o:?}");
            for size in [4096usize, 65_537] {
                let mut r = CaptureReader::new(&o).unwrap();
                for chunk in b.chunks(size) {
                    r.push(chunk).unwrap();
                }
                assert_eq!(
                    got(&r.finish().unwrap()),
                    want,
                    "{name}: {o:?} in chunks of {size}"
                );
            }
        }
    }
}

#[test]
fn bad_options_name_the_option() {
    let text = csv(6, 5);
    let cases: [(OpenOptions, &str); 5] = [
        (
            OpenOptions {
                from_ms: Some(T0 + 1.0),
                to_ms: Some(T0),
                ..OpenOptions::default()
            },
            "to",
        ),
        (
            OpenOptions {
                from_ms: Some(f64::NAN),
                ..OpenOptions::default()
            },
            "from",
        ),
        (
            OpenOptions {
                every: Some(0),
                ..OpenOptions::default()
            },
            "every",
        ),
        (
            OpenOptions {
                series: patterns(&["\\Nothing(*)\\Here"]),
                ..OpenOptions::default()
            },
            "series",
        ),
        (
            OpenOptions {
                from_ms: Some(T0 + 3_600_000.0),
                ..OpenOptions::default()
            },
            "from",
        ),
    ];
    for (o, field) in cases {
        for b in [text.as_bytes().to_vec(), bytes("BasicPerfCounters.blg")] {
            let e = open_capture(&b, &o).unwrap_err();
            assert_eq!((e.code(), e.field), ("invalid-option", Some(field)), "{e}");
            assert!(e.message.starts_with(&format!("options.{field}: ")), "{e}");
        }
    }
}

#[test]
fn columns_past_the_budget_are_a_clear_error() {
    // 20 series and the timestamps: 21 x 8 = 168 bytes a row; a budget of 100,000 bytes holds 595 rows.
    let text = csv(20, 2_000);
    let o = OpenOptions {
        max_column_bytes: Some(100_000),
        ..OpenOptions::default()
    };
    for size in [usize::MAX, 65_536, 1000] {
        let mut r = CaptureReader::new(&o).unwrap();
        let mut e = None;
        for chunk in text.as_bytes().chunks(size.min(text.len())) {
            if let Err(x) = r.push(chunk) {
                e = Some(x);
                break;
            }
        }
        let e = e.or_else(|| r.finish().err()).expect("too large");
        assert_eq!(e.code(), "too-large");
        // It stops at the first row that does not fit: row 596 is line 597.
        assert_eq!(e.line, Some(597), "{e}");
        assert!(
            e.message.contains("20 series x 595 samples were read")
                && e.message.contains("at most 595 samples of 20 series fit")
                && e.message.contains("option series")
                && e.message.contains("from and to")
                && e.message.contains("every"),
            "{e}"
        );
        // Reading less fits: the same log, a tenth of its series.
        let less = OpenOptions {
            series: patterns(&["\\Processor(1)\\*", "\\Memory\\Counter 2"]),
            ..o.clone()
        };
        assert_eq!(open(text.as_bytes(), &less).series.len(), 2);
    }
    // A .blg: Basic's 10 series and timestamps take 88 bytes a sample; 20,000 bytes hold 227 of its 601.
    let b = bytes("BasicPerfCounters.blg");
    let o = OpenOptions {
        max_column_bytes: Some(20_000),
        ..OpenOptions::default()
    };
    let e = open_capture(&b, &o).unwrap_err();
    assert_eq!(e.code(), "too-large");
    assert!(
        e.message.contains("at most 227 samples of 10 series fit"),
        "{e}"
    );
    let part = OpenOptions {
        every: Some(3),
        ..o
    };
    assert_eq!(open(&b, &part).timestamps.len(), 201);
}
