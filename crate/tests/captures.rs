//! The golden captures of tests/vectors/captures/ against tests/vectors/captures.json, whole and in
//! chunks of every size; CSV written by `write_csv` reads back identically; property tests.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::{open_capture, write_csv, Capture, CaptureReader, OpenOptions};
use proptest::prelude::*;
use serde_json::Value;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");

fn expectations() -> Value {
    serde_json::from_str(include_str!("../../tests/vectors/captures.json")).unwrap()
}

fn same(a: f64, b: &Value) -> bool {
    match b.as_f64() {
        Some(w) => a == w,
        None => a.is_nan() && b.is_null(),
    }
}

fn check(name: &str, want: &Value, got: &Result<Capture, counterlens::capture::CaptureError>) {
    let why = want["why"].as_str().unwrap();
    if let Some(e) = want.get("error") {
        let err = got.as_ref().expect_err(name);
        assert_eq!(
            err.code(),
            e["code"].as_str().unwrap(),
            "{name}: {err} ({why})"
        );
        if let Some(l) = e.get("line") {
            assert_eq!(
                (err.line, err.column),
                (
                    l.as_u64().map(|v| v as u32),
                    e["column"].as_u64().map(|v| v as u32)
                ),
                "{name}: {err}"
            );
            assert!(
                err.message
                    .starts_with(&format!("line {}, column {}: expected", l, e["column"])),
                "{}",
                err.message
            );
        }
        return;
    }
    let c = got.as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(c.format_name(), want["format"].as_str().unwrap(), "{name}");
    assert_eq!(
        c.encoding_name(),
        want["encoding"].as_str().unwrap(),
        "{name}"
    );
    match &want["timeZone"] {
        Value::Null => assert!(c.time_zone.is_none(), "{name}"),
        z => {
            let tz = c.time_zone.as_ref().unwrap();
            assert_eq!(
                (tz.name.as_str(), i64::from(tz.bias_minutes)),
                (
                    z["name"].as_str().unwrap(),
                    z["biasMinutes"].as_i64().unwrap()
                ),
                "{name}"
            );
        }
    }
    let ts: Vec<f64> = want["timestamps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert_eq!(c.timestamps, ts, "{name}: {why}");
    let series = want["series"].as_array().unwrap();
    assert_eq!(c.series.len(), series.len(), "{name}");
    for (s, w) in c.series.iter().zip(series) {
        assert_eq!(s.path, w["path"].as_str().unwrap(), "{name}");
        assert_eq!(s.parsed.machine, w["machine"].as_str().unwrap());
        assert_eq!(s.parsed.object, w["object"].as_str().unwrap());
        assert_eq!(s.parsed.counter, w["counter"].as_str().unwrap());
        assert_eq!(
            counterlens::capture::english_path(&s.parsed).as_deref(),
            w["englishPath"].as_str(),
            "{name}"
        );
        assert_eq!(
            s.parsed.instance.as_deref(),
            w.get("instance").and_then(Value::as_str),
            "{name} {}",
            s.path
        );
        assert_eq!(
            s.parsed.parent.as_deref(),
            w.get("parent").and_then(Value::as_str)
        );
        let values = w["values"].as_array().unwrap();
        assert_eq!(s.values.len(), values.len(), "{name} {}", s.path);
        for (a, b) in s.values.iter().zip(values) {
            assert!(same(*a, b), "{name} {}: {a} != {b}", s.path);
        }
        assert_eq!(
            s.counter_type.map(u64::from),
            w.get("counterType").and_then(Value::as_u64),
            "{name} {}",
            s.path
        );
        assert_eq!(
            s.scale.map(i64::from),
            w.get("defaultScale").and_then(Value::as_i64),
            "{name} {}",
            s.path
        );
        match (w.get("reference"), &s.reference) {
            (None, None) => {}
            (Some(want), Some(got)) => {
                let want = want.as_array().unwrap();
                assert_eq!(got.len(), want.len());
                for (a, b) in got.iter().zip(want) {
                    assert!(same(*a, b), "{name} {} reference: {a} != {b}", s.path);
                }
            }
            (w, g) => panic!("{name} {}: reference {w:?} vs {g:?}", s.path),
        }
    }
    let notes: Vec<&str> = c.notes.iter().map(|n| n.code).collect();
    let want_notes: Vec<&str> = want["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(notes, want_notes, "{name}");
    if let Some(m) = want.get("noteMessage") {
        assert_eq!(c.notes[0].message, m.as_str().unwrap(), "{name}");
    }
    if let Some(l) = want.get("noteLine") {
        assert_eq!(c.notes[0].line, Some(l.as_u64().unwrap() as u32));
    }
}

#[test]
fn every_golden_file_whole() {
    let all = expectations();
    for (name, want) in all["files"].as_object().unwrap() {
        let bytes = std::fs::read(format!("{DIR}{name}")).unwrap();
        check(name, want, &open_capture(&bytes, &OpenOptions::default()));
    }
}

#[test]
fn every_golden_file_in_chunks_of_every_size() {
    let all = expectations();
    for (name, want) in all["files"].as_object().unwrap() {
        let bytes = std::fs::read(format!("{DIR}{name}")).unwrap();
        for size in [1, 2, 3, 5, 7, 64, 1000] {
            let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
            let mut result = Ok(());
            for chunk in bytes.chunks(size) {
                result = r.push(chunk);
                if result.is_err() {
                    break;
                }
            }
            let got = result.and_then(|()| r.finish());
            check(&format!("{name} in chunks of {size}"), want, &got);
        }
    }
}

#[test]
fn the_encoding_option_overrides_detection() {
    let bytes = std::fs::read(format!("{DIR}cp1251.csv")).unwrap();
    // Read as cp1252 the Cyrillic becomes Latin letters: wrong, but what the user asked for.
    let c = open_capture(
        &bytes,
        &OpenOptions {
            encoding: Some("windows-1252".into()),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(c.encoding_name(), "windows-1252");
    assert_eq!(c.series[0].parsed.machine, "ÑÅÐÂÅÐ");
    let e = open_capture(
        &bytes,
        &OpenOptions {
            encoding: Some("nope".into()),
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.code(), "bad-encoding");
}

#[test]
fn csv_written_reads_back_identically() {
    for name in [
        "relog-pst.csv",
        "relog.tsv",
        "utf16le.csv",
        "cp1251.csv",
        "quirky-paths.csv",
        "typeperf.csv",
    ] {
        let a = open_capture(
            &std::fs::read(format!("{DIR}{name}")).unwrap(),
            &OpenOptions::default(),
        )
        .unwrap();
        let csv = write_csv(&a, None);
        let b = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
        assert_eq!(b.format_name(), "pdh-csv");
        assert_eq!(a.timestamps, b.timestamps, "{name}");
        for (x, y) in a.series.iter().zip(&b.series) {
            assert_eq!(x.path, y.path);
            assert_eq!(
                x.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                y.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                "{name}"
            );
        }
    }
    // A subset, in the order asked.
    let a = open_capture(
        &std::fs::read(format!("{DIR}relog-pst.csv")).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    let csv = write_csv(&a, Some(&[2, 0]));
    assert!(csv.starts_with("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\WEB01\\PhysicalDisk(0 C:)\\Disk Reads/sec\",\"\\\\WEB01\\Processor(_Total)\\% Processor Time\"\r\n"), "{csv}");
    // 20:00 UTC written back as 12:00 local; the first Disk Reads/sec has no value.
    assert!(
        csv.contains("\r\n\"11/21/2026 12:00:00.000\",\" \",\"12.5\"\r\n"),
        "{csv}"
    );
}

#[test]
fn statistics_over_a_time_range() {
    let a = open_capture(
        &std::fs::read(format!("{DIR}relog-pst.csv")).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    // % Processor Time: 12.5, 100.00000000000003, 350. From the second sample on: count 2, min 100..., max 350.
    let s = a.stats(0, Some(1_795_291_201_000.0), None).unwrap();
    assert_eq!((s.count, s.max, s.last), (2, 350.0, 350.0));
    let s = a.stats(1, None, Some(1_795_291_201_000.0)).unwrap();
    assert_eq!(
        (s.count, s.min, s.max),
        (2, 8_589_930_000.0, 8_589_934_592.0)
    );
    assert!(a.stats(9, None, None).is_none());
}

#[test]
fn the_sample_nearest_a_time() {
    let a = open_capture(
        &std::fs::read(format!("{DIR}relog-pst.csv")).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    // Samples at t0, t0 + 1 s, t0 + 2.5 s: before the first is the first, after the last the last,
    // halfway between two the earlier (t0 + 500, t0 + 1750), just past halfway the later.
    let t0 = a.timestamps[0];
    assert_eq!(a.timestamps[1..], [t0 + 1000.0, t0 + 2500.0]);
    assert_eq!(a.sample_at(t0 - 5e6), Some(0));
    assert_eq!(a.sample_at(t0 + 500.0), Some(0));
    assert_eq!(a.sample_at(t0 + 501.0), Some(1));
    assert_eq!(a.sample_at(t0 + 1750.0), Some(1));
    assert_eq!(a.sample_at(t0 + 1751.0), Some(2));
    assert_eq!(a.sample_at(t0 + 9e9), Some(2));
    assert_eq!(a.sample_at(f64::NAN), None);
}

fn arb_capture() -> impl Strategy<Value = Capture> {
    let value = prop_oneof![
        any::<f64>().prop_filter("finite", |v| v.is_finite()),
        Just(f64::NAN),
        (0u32..1000).prop_map(f64::from)
    ];
    (
        1usize..6,
        1usize..20,
        -720i32..=720,
        1_000_000_000_000i64..2_000_000_000_000,
    )
        .prop_flat_map(move |(cols, rows, bias, t0)| {
            (
                prop::collection::vec(prop::collection::vec(value.clone(), rows), cols),
                prop::collection::vec(1i64..100_000, rows),
                Just(bias),
                Just(t0),
            )
        })
        .prop_map(|(columns, steps, bias, t0)| {
            let mut t = t0 as f64;
            let timestamps = steps
                .iter()
                .map(|s| {
                    t += *s as f64;
                    t
                })
                .collect();
            let series = columns
                .into_iter()
                .enumerate()
                .map(|(i, values)| {
                    let path =
                        format!("\\\\HOST\\Object {i}(inst,{i}/x#{i})\\Counter \"{i}\" %/sec");
                    counterlens::capture::Series {
                        parsed: counterlens::capture::path::parse(&path).unwrap(),
                        path,
                        counter_type: None,
                        scale: None,
                        values,
                        reference: None,
                        raw: None,
                    }
                })
                .collect();
            Capture {
                format: Some(counterlens::capture::Format::PdhCsv),
                encoding: Some(counterlens::capture::CaptureEncoding::Text(
                    counterlens::capture::text::Encoding::UTF_8,
                )),
                time_zone: Some(counterlens::capture::TimeZone {
                    name: "Somewhere Standard Time".into(),
                    bias_minutes: bias,
                }),
                timestamps,
                series,
                notes: vec![],
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_capture_written_as_csv_reads_back_identically(c in arb_capture(), chunk in 1usize..200) {
        let csv = write_csv(&c, None);
        let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
        for part in csv.as_bytes().chunks(chunk) {
            r.push(part).unwrap();
        }
        let b = r.finish().unwrap();
        prop_assert_eq!(&b.timestamps, &c.timestamps);
        prop_assert_eq!(&b.time_zone, &c.time_zone);
        for (x, y) in c.series.iter().zip(&b.series) {
            prop_assert_eq!(&x.path, &y.path);
            prop_assert_eq!(&x.parsed, &y.parsed);
            prop_assert_eq!(x.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(), y.values.iter().map(|v| if v.is_nan() { f64::NAN.to_bits() } else { v.to_bits() }).collect::<Vec<_>>());
        }
    }
}

#[test]
fn thousands_of_columns() {
    // 5,000 process-instance columns: the header line alone is far longer than the 64 KiB the reader
    // holds to detect the encoding, and it crosses chunk boundaries.
    let cols = 5000;
    let series: Vec<counterlens::capture::Series> = (0..cols)
        .map(|i| {
            let path = format!("\\\\HOST\\Process(w3wp#{i})\\% Processor Time");
            counterlens::capture::Series {
                parsed: counterlens::capture::path::parse(&path).unwrap(),
                path,
                counter_type: None,
                scale: None,
                values: vec![i as f64 / 7.0, f64::NAN, 1e-7 * i as f64],
                reference: None,
                raw: None,
            }
        })
        .collect();
    let c = Capture {
        format: Some(counterlens::capture::Format::PdhCsv),
        encoding: Some(counterlens::capture::CaptureEncoding::Text(
            counterlens::capture::text::Encoding::UTF_8,
        )),
        time_zone: None,
        timestamps: vec![1e12, 1e12 + 1000.0, 1e12 + 2000.0],
        series,
        notes: vec![],
    };
    let csv = write_csv(&c, None);
    assert!(
        csv.find("\r\n").unwrap() > 64 << 10,
        "the header is longer than the sniffing window"
    );
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    for chunk in csv.as_bytes().chunks(10_000) {
        r.push(chunk).unwrap();
    }
    let b = r.finish().unwrap();
    assert_eq!(b.series.len(), cols);
    assert_eq!(b.series[4321].parsed.instance.as_deref(), Some("w3wp#4321"));
    // 4321 / 7 = 617.2857142857143 (the same double, through the shortest text and back)
    assert_eq!(b.series[4321].values[0], 4321.0 / 7.0);
    assert!(b.series[4321].values[1].is_nan());
}

#[test]
fn limits_are_clear_errors() {
    use counterlens::capture::limits::{MAX_COLUMNS, MAX_LINE};
    // One column too many.
    let mut header = String::from("\"(PDH-CSV 4.0)\"");
    for i in 0..=MAX_COLUMNS {
        header += &format!(",\"\\\\H\\O\\C{i}\"");
    }
    let e = open_capture(format!("{header}\r\n").as_bytes(), &OpenOptions::default()).unwrap_err();
    assert_eq!((e.code(), e.line), ("too-large", Some(1)), "{e}");
    // A line that never ends, pushed whole or in pieces: refused at the limit, not held.
    let mut endless = b"\"(PDH-CSV 4.0)\",\"\\\\H\\O\\C\"\r\n\"".to_vec();
    endless.resize(endless.len() + MAX_LINE + 10, b'1');
    let e = open_capture(&endless, &OpenOptions::default()).unwrap_err();
    assert_eq!((e.code(), e.line), ("too-large", Some(2)), "{e}");
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    let e = endless
        .chunks(1 << 20)
        .find_map(|c| r.push(c).err())
        .expect("refused while pushing");
    assert_eq!((e.code(), e.line), ("too-large", Some(2)), "{e}");
}

#[test]
fn a_carried_line_completed_by_the_next_chunk_is_held_to_the_line_limit() {
    use counterlens::capture::limits::MAX_LINE;
    // A line grown to just under the limit in one chunk, then finished (past the limit) by the next.
    let head = b"\"(PDH-CSV 4.0)\",\"\\\\H\\O\\C\"\r\n\"".to_vec();
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    r.push(&head).unwrap();
    r.push(&vec![b'1'; MAX_LINE - 10]).unwrap();
    let e = r
        .push(
            &[b'1'; 100]
                .iter()
                .copied()
                .chain(*b"\"\r\n")
                .collect::<Vec<u8>>(),
        )
        .unwrap_err();
    assert_eq!((e.code(), e.line), ("too-large", Some(2)), "{e}");
}

#[test]
fn get_counter_points_explain_themselves_with_their_raw_numbers() {
    let c = open_capture(
        &std::fs::read(format!("{DIR}get-counter-ps51.json")).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    // _Total's % processor time (Timer100NsInverse) at set 2: N 1 170 381 757 812 -> 1 170 388 007 812
    // (dN = 6 250 000), D 134 082 303 090 000 000 -> 134 082 303 100 000 000 (dD = 10 000 000):
    // 100 * (1 - 6 250 000 / 10 000 000) = 37.5, written out with the file's own numbers.
    let e = c.explain_at(0, 2).unwrap().unwrap();
    assert_eq!(e.result.value, Some(37.5));
    assert!(e.formula.contains("dN / dD"), "{}", e.formula);
    assert!(e.substituted.starts_with("100 * (1 - (1170388007812 - 1170381757812) / (134082303100000000 - 134082303090000000))"), "{}", e.substituted);
    // The first set has no older sample: explained as such, not computed.
    assert_eq!(c.explain_at(0, 0).unwrap().unwrap().result.value, None);
    // Formats without raw samples have nothing to explain.
    let csv = open_capture(
        &std::fs::read(format!("{DIR}relog-pst.csv")).unwrap(),
        &OpenOptions::default(),
    )
    .unwrap();
    assert!(csv.explain_at(0, 1).is_none());
}

#[test]
fn a_csv_cut_anywhere_reads_its_complete_rows() {
    // Relog's dialect (every cell quoted, CRLF), 3 counters x 6 rows, in UTF-8 and UTF-16LE, cut at every
    // byte after the header: the complete rows before the cut, bit for bit those of the whole file, and a
    // note when the cut falls inside a row; before the first complete row, an error.
    let mut csv = String::from("\"(PDH-CSV 4.0) (Coordinated Universal Time)(0)\",\"\\\\H\\Memory\\Available Bytes\",\"\\\\H\\Memory\\Pages/sec\",\"\\\\H\\Processor(_Total)\\% Processor Time\"\r\n");
    let header = csv.len();
    for k in 0..6 {
        csv += &format!(
            "\"07/04/2026 00:00:0{k}.000\",\"{}\",\" \",\"{}\"\r\n",
            100 + 17 * k,
            12.5 / f64::from(k + 1)
        );
    }
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(csv.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    for (bytes, start, unit) in [
        (csv.as_bytes().to_vec(), header, 1),
        (utf16, 2 + 2 * header, 2),
    ] {
        let whole = open_capture(&bytes, &OpenOptions::default()).unwrap();
        assert_eq!(whole.timestamps.len(), 6);
        let mut last = 0;
        for at in start..bytes.len() {
            match open_capture(&bytes[..at], &OpenOptions::default()) {
                Ok(c) => {
                    let k = c.timestamps.len();
                    assert!(k >= last && k >= 1, "cut at {at}");
                    last = k;
                    assert_eq!(c.timestamps[..], whole.timestamps[..k]);
                    for (s, w) in c.series.iter().zip(&whole.series) {
                        assert_eq!(s.path, w.path);
                        assert!(
                            s.values
                                .iter()
                                .zip(&w.values)
                                .all(|(x, y)| x.to_bits() == y.to_bits()),
                            "cut at {at}: {:?} {:?}",
                            s.values,
                            w.values
                        );
                    }
                    // The cut is inside a row unless it falls on a row's end (before or after its CRLF).
                    let text = if unit == 1 {
                        csv[..at].to_string()
                    } else {
                        String::from_utf16_lossy(
                            &bytes[2..at - at % 2]
                                .chunks(2)
                                .map(|u| u16::from_le_bytes([u[0], u[1]]))
                                .collect::<Vec<_>>(),
                        )
                    };
                    let inside = !(text.ends_with('\n')
                        || text.ends_with("\"\r")
                        || text.ends_with('"')
                            && text
                                .lines()
                                .last()
                                .is_some_and(|l| l.matches('"').count() == 8));
                    let note = c.notes.iter().find(|n| n.code == "cut-short");
                    assert_eq!(
                        note.is_some(),
                        inside,
                        "cut at {at}: {:?} {:?}",
                        c.notes,
                        &text[text.len().saturating_sub(20)..]
                    );
                    if let Some(n) = note {
                        assert!(
                            n.message
                                .contains(&format!("the {k} complete rows before it were")),
                            "{}",
                            n.message
                        );
                    }
                }
                Err(e) => {
                    assert_eq!(last, 0, "cut at {at}: {e}");
                    assert!(matches!(e.code(), "no-rows"), "cut at {at}: {e}");
                }
            }
        }
        assert_eq!(last, 6);
    }
}

/// The description Windows 11's "System Performance" Data Collector Set writes as its CSV header's last cell.
const DCS_DESCRIPTION: &str = "Generate a report detailing the status of local hardware resources, system response times, and processes on the local computer. Use this information to identify possible causes of performance issues. Membership in the local Administrators group, or equivalent, is the minimum required to run this Data Collector Set.";

/// A Windows 11 Data Collector Set CSV: `paths` counter paths, then the description cell; every row
/// ends with a `" "` under it (or `last_cell`).
fn dcs_csv(paths: usize, last_cell: &str) -> String {
    let mut csv = String::from("\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\"");
    for i in 0..paths {
        csv += &format!(",\"\\\\WIN11\\Process(svchost#{i})\\% Processor Time\"");
    }
    csv += &format!(",\"{DCS_DESCRIPTION}\"\r\n");
    for k in 0..3 {
        csv += &format!("\"11/22/2026 09:00:0{k}.000\"");
        for i in 0..paths {
            csv += &format!(",\"{}\"", (i + k) % 100);
        }
        csv += &format!(",\"{last_cell}\"\r\n");
    }
    csv
}

#[test]
fn a_data_collector_set_description_cell_is_dropped_with_a_note() {
    let csv = dcs_csv(2631, " ");
    let c = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
    assert_eq!((c.series.len(), c.timestamps.len()), (2631, 3));
    assert_eq!(
        c.series[2630].path,
        "\\\\WIN11\\Process(svchost#2630)\\% Processor Time"
    );
    // Row 2 (k = 2), path 2630: (2630 + 2) % 100 = 32.
    assert_eq!(c.series[2630].values[2], 32.0);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dropped-column")
        .expect("a note");
    assert_eq!(note.line, Some(1));
    // Quoted, shortened to 80 characters.
    assert!(
        note.message.contains(
            "(\"Generate a report detailing the status of local hardware resources, system respo\"...)"
        ),
        "{}",
        note.message
    );
    // The same in chunks (the header crosses many of them).
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    for chunk in csv.as_bytes().chunks(4093) {
        r.push(chunk).unwrap();
    }
    assert_eq!(r.finish().unwrap(), c);
    // An empty cell under it is blank too.
    let c = open_capture(dcs_csv(3, "").as_bytes(), &OpenOptions::default()).unwrap();
    assert_eq!(c.series.len(), 3);
}

#[test]
fn anything_else_that_is_not_a_path_stays_an_error() {
    // A value under the description: the column has data but no counter path.
    let e = open_capture(dcs_csv(2, "7").as_bytes(), &OpenOptions::default()).unwrap_err();
    // Line 2: the quoted time (25 characters), `,"0"` and `,"1"` (4 each), `,`: the cell starts at 35.
    assert_eq!(
        (e.code(), e.line, e.column),
        ("bad-header", Some(2), Some(35)),
        "{e}"
    );
    assert!(
        e.message
            .contains("expected \" \" under the header's last cell \"Generate a report")
            && e.message.contains("found \"7\""),
        "{e}"
    );
    // A cell that is not a path before the last one.
    let csv = "\"(PDH-CSV 4.0) (UTC)(0)\",\"not a path\",\"\\\\H\\Memory\\Available Bytes\"\r\n\"11/22/2026 09:00:00.000\",\" \",\"1\"\r\n";
    let e = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap_err();
    assert_eq!((e.code(), e.column), ("bad-header", Some(26)), "{e}");
    // A header whose only cell after the first is not a path: there are no counters.
    let csv = "\"(PDH-CSV 4.0) (UTC)(0)\",\"Some text\"\r\n\"11/22/2026 09:00:00.000\",\" \"\r\n";
    let e = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap_err();
    assert_eq!(e.code(), "bad-header", "{e}");
}

#[test]
fn files_that_are_not_perfmon_logs_say_what_was_expected_and_found() {
    let open_err = |t: &[u8]| open_capture(t, &OpenOptions::default()).unwrap_err();
    let expected = "line 1, column 1: expected a perfmon log: a .blg, a CSV or TSV whose first cell starts \"(PDH-CSV 4.0)\" (relog, typeperf and Perfmon write it) or Get-Counter JSON; found ";
    // A CSV that lost its header line: the first line is a data row.
    let e = open_err(
        b"\"11/22/2026 09:00:00.000\",\"1\",\"2\"\r\n\"11/22/2026 09:00:01.000\",\"3\",\"4\"\r\n",
    );
    assert_eq!(e.code(), "not-a-capture");
    assert_eq!(e.message, format!("{expected}a data row (a time, then values) as the first line: the header line, \"(PDH-CSV 4.0) (zone)(bias)\" and the counter paths, is missing, so the columns cannot be named"));
    // A header whose first cell was replaced (a spreadsheet's "Time").
    let e = open_err(
        b"\"Time\",\"\\\\H\\Memory\\Available Bytes\"\r\n\"11/22/2026 09:00:00.000\",\"1\"\r\n",
    );
    assert_eq!(e.message, format!("{expected}a header with counter paths whose first cell is \"Time\", not \"(PDH-CSV 4.0) (zone)(bias)\""));
    // A ';'-separated re-save without the PDH cell.
    let e = open_err(b"Time;\\\\H\\Memory\\Available Bytes\r\n11/22/2026 09:00:00.000;1,5\r\n");
    assert!(e.message.starts_with(&format!("{expected}a header with counter paths with cells separated by ';' (a re-save by a spreadsheet")), "{e}");
    // A ';'-separated re-save that kept the PDH cell, quoted or not: the header is refused where the ';' is.
    // The quoted first cell is 42 characters and its two quotes: the ';' is the 45th character.
    let e = open_err(b"\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\";\"\\\\H\\Memory\\Available Bytes\"\r\n\"11/22/2026 09:00:00.000\";\"1,5\"\r\n");
    assert_eq!(
        (e.code(), e.line, e.column),
        ("bad-header", Some(1), Some(45)),
        "{e}"
    );
    assert!(e.message.contains("expected the header's cells separated by ',' as relog, typeperf and Perfmon write them, found ';'"), "{e}");
    let e = open_err(b"(PDH-CSV 4.0) (Pacific Standard Time)(480);\\\\H\\Memory\\Available Bytes\r\n11/22/2026 09:00:00.000;1,5\r\n");
    assert_eq!((e.code(), e.column), ("bad-header", Some(43)), "{e}");
    // Binary data: named, never shown.
    let bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    let e = open_err(&bytes);
    assert_eq!(e.code(), "not-a-capture");
    assert!(e.message.ends_with("found binary data that is not a .blg either (a .blg starts with an ETW buffer size and the logger's header at byte 72)"), "{e}");
    // Other text: a short quote of its first cell, escaped.
    let e = open_err(b"hello\x07world, this is not a log\n");
    assert!(
        e.message.ends_with(
            "found text whose first line starts \"hello\\u{7}world\" (cells separated by ',')"
        ),
        "{e}"
    );
}

/// A PDH-CSV with `zone` and `bias` in the header and one row per local time (one counter, value k).
fn csv_at(zone: &str, bias: i32, local_times: &[&str]) -> Capture {
    let mut csv =
        format!("\"(PDH-CSV 4.0) ({zone})({bias})\",\"\\\\H\\Memory\\Available Bytes\"\r\n");
    for (k, t) in local_times.iter().enumerate() {
        csv += &format!("\"{t}\",\"{k}\"\r\n");
    }
    let c = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
    // Streamed a byte at a time: the same.
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    for b in csv.as_bytes().chunks(1) {
        r.push(b).unwrap();
    }
    assert_eq!(r.finish().unwrap(), c);
    c
}

/// ms since the epoch of 2026-`month`-`day` `h`:`m` UTC (days from 1970-01-01 by hand in each test).
fn utc(days: f64, h: f64, m: f64) -> f64 {
    days * 86_400_000.0 + h * 3_600_000.0 + m * 60_000.0
}

#[test]
fn daylight_time_ending_mid_log_keeps_utc_in_order() {
    // US, 2026-11-01: at 02:00 EDT the clock goes back to 01:00 EST; the log started in daylight time, so
    // the header says "Eastern Daylight Time" with bias 240. 2026-01-01 is day 56 x 365 + 14 leap days
    // = 20454; 2026-11-01 is day 20454 + 304 (January to October) = 20758.
    let c = csv_at(
        "Eastern Daylight Time",
        240,
        &[
            "11/01/2026 01:15:00.000",
            "11/01/2026 01:30:00.000",
            "11/01/2026 01:45:00.000",
            "11/01/2026 01:00:00.000", // 01:00 EST = 06:00 UTC
            "11/01/2026 01:15:00.000",
        ],
    );
    // 01:15 EDT = 05:15 UTC ... 01:45 EDT = 05:45 UTC, then 01:00 EST = 06:00 UTC, 01:15 EST = 06:15 UTC.
    let want: Vec<f64> = [
        (5.0, 15.0),
        (5.0, 30.0),
        (5.0, 45.0),
        (6.0, 0.0),
        (6.0, 15.0),
    ]
    .iter()
    .map(|&(h, m)| utc(20758.0, h, m))
    .collect();
    assert_eq!(c.timestamps, want);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dst-change")
        .expect("a note");
    assert_eq!(note.line, Some(5));
    assert!(
        note.message.starts_with("the local clock goes back an hour at line 5 (11/01/2026 01:00:00.000 after 11/01/2026 01:45:00.000): daylight saving time ended, so the rows from there are read with bias 300"),
        "{}",
        note.message
    );
    // The zone is the header's, the bias in force when the log started.
    assert_eq!(c.time_zone.as_ref().map(|z| z.bias_minutes), Some(240));
    // Spain, 2026-10-25 (day 20751 = 20758 - 7): 03:00 CEST goes back to 02:00 CET; the header of a
    // Spanish Windows says "Hora de verano romance" with bias -120.
    let c = csv_at(
        "Hora de verano romance",
        -120,
        &[
            "10/25/2026 02:30:00.000",
            "10/25/2026 02:45:00.000",
            "10/25/2026 02:00:00.000",
            "10/25/2026 02:15:00.000",
        ],
    );
    // 02:30 CEST = 00:30 UTC, 02:45 = 00:45; 02:00 CET = 01:00 UTC, 02:15 CET = 01:15 UTC.
    let want: Vec<f64> = [(0.0, 30.0), (0.0, 45.0), (1.0, 0.0), (1.0, 15.0)]
        .iter()
        .map(|&(h, m)| utc(20751.0, h, m))
        .collect();
    assert_eq!(c.timestamps, want);
    assert!(c
        .notes
        .iter()
        .any(|n| n.code == "dst-change" && n.line == Some(4)));
}

#[test]
fn daylight_time_starting_mid_log_keeps_utc_in_order() {
    // Spain, 2026-03-29 (day 20541 = 20454 + 31 + 28 + 28): at 02:00 CET the clock skips to 03:00 CEST; the
    // log started in standard time: "Hora estándar romance", bias -60.
    let c = csv_at(
        "Hora estándar romance",
        -60,
        &[
            "03/29/2026 01:30:00.000",
            "03/29/2026 01:45:00.000",
            "03/29/2026 03:00:00.000",
            "03/29/2026 03:15:00.000",
        ],
    );
    // 01:30 CET = 00:30 UTC, 01:45 = 00:45; 03:00 CEST = 01:00 UTC, 03:15 CEST = 01:15 UTC.
    let want: Vec<f64> = [(0.0, 30.0), (0.0, 45.0), (1.0, 0.0), (1.0, 15.0)]
        .iter()
        .map(|&(h, m)| utc(20541.0, h, m))
        .collect();
    assert_eq!(c.timestamps, want);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dst-change")
        .expect("a note");
    assert!(note.message.starts_with("the local clock skips an hour at line 4 (03/29/2026 03:00:00.000 after 03/29/2026 01:45:00.000): daylight saving time started, so the rows from there are read with bias -120"), "{}", note.message);
}

#[test]
fn gaps_that_are_not_daylight_changes_are_left_alone() {
    let plain = |zone: &str, times: &[&str]| {
        let c = csv_at(zone, 300, times);
        assert!(
            !c.notes.iter().any(|n| n.code == "dst-change"),
            "{zone} {times:?}: {:?}",
            c.notes
        );
    };
    // A log that started in daylight time cannot skip into it: a one-hour pause stays a pause.
    plain(
        "Eastern Daylight Time",
        &[
            "03/08/2026 01:30:00.000",
            "03/08/2026 01:45:00.000",
            "03/08/2026 03:00:00.000",
        ],
    );
    // Nor can one in standard time go back out of it.
    plain(
        "Eastern Standard Time",
        &[
            "11/01/2026 01:30:00.000",
            "11/01/2026 01:45:00.000",
            "11/01/2026 01:00:00.000",
        ],
    );
    // A pause of two hours, or of one hour in the afternoon, is no change either.
    plain(
        "Eastern Standard Time",
        &[
            "03/08/2026 00:30:00.000",
            "03/08/2026 00:45:00.000",
            "03/08/2026 03:00:00.000",
        ],
    );
    plain(
        "Eastern Standard Time",
        &[
            "03/08/2026 14:30:00.000",
            "03/08/2026 14:45:00.000",
            "03/08/2026 16:00:00.000",
        ],
    );
}

#[test]
fn localized_paths_are_kept_as_written_with_their_english_beside() {
    // A Data Collector Set on a Spanish Windows: localized objects and counters, "_Total" as is.
    let csv = "\"(PDH-CSV 4.0) (Hora estándar romance)(-60)\",\"\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador\",\"\\\\SRV\\Memoria\\Bytes disponibles\",\"\\\\SRV\\Mi contador\\Algo\"\r\n\"11/22/2026 09:00:00.000\",\"12.5\",\"1000\",\"1\"\r\n";
    let c = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
    let paths: Vec<&str> = c.series.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador",
            "\\\\SRV\\Memoria\\Bytes disponibles",
            "\\\\SRV\\Mi contador\\Algo"
        ]
    );
    let english: Vec<Option<String>> = c
        .series
        .iter()
        .map(|s| counterlens::capture::english_path(&s.parsed))
        .collect();
    assert_eq!(
        english,
        [
            Some("\\\\SRV\\Processor(_Total)\\% Processor Time".to_string()),
            Some("\\\\SRV\\Memory\\Available Bytes".to_string()),
            None
        ]
    );
    // German, from a .blg-style path without a machine; and an English path has no other English.
    let p = counterlens::capture::path::parse(
        "\\Physikalischer Datenträger(0 C:)\\Durchschnittl. Warteschlangenlänge des Datenträgers",
    )
    .unwrap();
    assert_eq!(
        counterlens::capture::english_path(&p).as_deref(),
        Some("\\PhysicalDisk(0 C:)\\Avg. Disk Queue Length")
    );
    let p = counterlens::capture::path::parse("\\\\H\\PhysicalDisk(0 C:)\\Avg. Disk Queue Length")
        .unwrap();
    assert_eq!(counterlens::capture::english_path(&p), None);
}
