//! The catalogue pass (`read_catalogue`, `CatalogueReader`): a log's series, sample counts, rows and
//! time range without its values. Hand-computed cases (gaps, a cut file, both real .blg logs), and
//! properties: on generated CSV logs and on .blg logs cut and damaged anywhere, the catalogue says
//! exactly what a whole read gives (the same series in the same order, the same rows and time range,
//! each series' values counted; the same error where the log is refused), for any cutting into chunks.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::{
    open_capture, read_catalogue, write_csv, Capture, Catalogue, CatalogueReader, KeepRaw,
    OpenOptions,
};
use proptest::prelude::*;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap()
}

fn catalogue(b: &[u8]) -> Catalogue {
    read_catalogue(b, &OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn in_chunks(b: &[u8], size: usize) -> Result<Catalogue, counterlens::capture::CaptureError> {
    let mut r = CatalogueReader::new(&OpenOptions::default())?;
    for part in b.chunks(size.max(1)) {
        r.push(part)?;
    }
    r.finish()
}

/// Per series (path, counter type, samples), then the rows, the first and the last time.
type Listing = (
    Vec<(String, Option<u32>, usize)>,
    usize,
    Option<f64>,
    Option<f64>,
);

/// What a catalogue should say of a log, from a whole read that kept every raw sample: the series, the
/// rows, the time range, the notes, and per series its raw values (a .blg, JSON) or its values that are
/// not NaN (CSV/TSV).
fn expected(c: &Capture) -> Listing {
    let series = c
        .series
        .iter()
        .map(|s| {
            let n = match &s.raw {
                Some(raw) => raw.present.iter().filter(|&&p| p & 1 != 0).count(),
                None => s.values.iter().filter(|v| !v.is_nan()).count(),
            };
            (s.path.clone(), s.counter_type, n)
        })
        .collect();
    let first = c.timestamps.iter().copied().reduce(f64::min);
    let last = c.timestamps.iter().copied().reduce(f64::max);
    (series, c.timestamps.len(), first, last)
}

fn got(c: &Catalogue) -> Listing {
    let series = c
        .series
        .iter()
        .map(|s| (s.path.clone(), s.counter_type, s.samples))
        .collect();
    (series, c.rows, c.first_ms, c.last_ms)
}

fn whole_keeping_raw(b: &[u8]) -> Result<Capture, counterlens::capture::CaptureError> {
    open_capture(
        b,
        &OpenOptions {
            keep_raw: KeepRaw::All,
            ..OpenOptions::default()
        },
    )
}

#[test]
fn a_csv_with_gaps_hand_computed() {
    // Three series, four rows at 15 s; blanks (" " and an empty cell) are gaps. Pacific time, bias 480.
    let csv = "\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\WEB1\\Processor(_Total)\\% Processor Time\",\"\\\\WEB1\\Memory\\Available MBytes\",\"\\\\WEB1\\Process(w3wp#1)\\Handle Count\"\r\n\
        \"03/01/2026 10:00:00.000\",\"12.5\",\"2048\",\" \"\r\n\
        \"03/01/2026 10:00:15.000\",\"13\",\" \",\" \"\r\n\
        \"03/01/2026 10:00:30.000\",\"\",\"2040\",\"812\"\r\n\
        \"03/01/2026 10:00:45.000\",\"9.25\",\"2036\",\"815\"\r\n";
    let c = catalogue(csv.as_bytes());
    assert_eq!((c.format_name(), c.rows, c.series.len()), ("pdh-csv", 4, 3));
    // Values per series: CPU rows 1, 2, 4 (row 3 empty) = 3; memory rows 1, 3, 4 = 3; handles 3, 4 = 2.
    let counts: Vec<usize> = c.series.iter().map(|s| s.samples).collect();
    assert_eq!(counts, [3, 3, 2]);
    let s = &c.series[2];
    assert_eq!(
        (
            s.parsed.machine.as_str(),
            s.parsed.object.as_str(),
            s.parsed.instance.as_deref(),
            s.parsed.counter.as_str()
        ),
        ("WEB1", "Process", Some("w3wp#1"), "Handle Count")
    );
    // 2026-03-01 is day 20513 since 1970 (56 years: 56 x 365 + 14 leap days = 20454; + Jan 31 + Feb 28
    // = 59 -> 20513); 10:00 local + 480 min = 18:00 UTC:
    // 20513 x 86 400 000 + 18 x 3 600 000 = 1 772 323 200 000 + 64 800 000 = 1 772 388 000 000.
    assert_eq!(c.first_ms, Some(1_772_388_000_000.0));
    assert_eq!(c.last_ms, Some(1_772_388_000_000.0 + 45_000.0));
    let tz = c.time_zone.as_ref().unwrap();
    assert_eq!(
        (tz.name.as_str(), tz.bias_minutes),
        ("Pacific Standard Time", 480)
    );
    // 4 rows x (1 + 3) columns x 8 bytes = 128.
    assert_eq!(c.column_bytes(), 128);
    assert_eq!(c.bytes, csv.len());
    assert!(c.notes.is_empty(), "{:?}", c.notes);
}

#[test]
fn a_csv_cut_mid_row_counts_its_complete_rows_with_the_note() {
    let csv = "\"(PDH-CSV 4.0)\",\"\\\\H\\A\\x\",\"\\\\H\\A\\y\"\n\
        \"01/02/2026 00:00:00.000\",\"1\",\"2\"\n\
        \"01/02/2026 00:00:01.000\",\" \",\"2\"\n\
        \"01/02/2026 00:00:02.000\",\"1\",\"2";
    let c = catalogue(csv.as_bytes());
    // The third row is cut inside its last cell: two rows, x 1 value, y 2.
    assert_eq!(c.rows, 2);
    assert_eq!(
        c.series.iter().map(|s| s.samples).collect::<Vec<_>>(),
        [1, 2]
    );
    // No zone: times read as UTC; 2026-01-02 is day 20455 (20454 + 1): 1 767 312 000 000 ms.
    assert_eq!(c.first_ms, Some(1_767_312_000_000.0));
    assert_eq!(c.last_ms, Some(1_767_312_001_000.0));
    let codes: Vec<&str> = c.notes.iter().map(|n| n.code).collect();
    assert_eq!(codes, ["no-time-zone", "cut-short"]);
    assert!(c.notes[1]
        .message
        .contains("the 2 complete rows before it were"));
    // A whole read notes the same.
    let whole = open_capture(csv.as_bytes(), &OpenOptions::default()).unwrap();
    assert_eq!(whole.notes, c.notes);
}

#[test]
fn logs_a_whole_read_refuses_are_refused_alike() {
    for name in [
        "header-only.csv",
        "bad-number.csv",
        "wrong-cells.csv",
        "binary.bin",
        "get-counter-bad.json",
    ] {
        let b = bytes(name);
        let whole = open_capture(&b, &OpenOptions::default()).map(|_| ());
        let cat = read_catalogue(&b, &OpenOptions::default()).map(|_| ());
        assert_eq!(whole, cat, "{name}");
        assert!(cat.is_err(), "{name}");
    }
    let e = read_catalogue(b"", &OpenOptions::default()).unwrap_err();
    assert_eq!(e.code(), "empty");
}

#[test]
fn basic_blg_hand_checked() {
    let c = catalogue(&bytes("BasicPerfCounters.blg"));
    assert_eq!(c.format_name(), "blg");
    // 601 samples (Tx through PDH), 10 counters; every counter has a raw value in each of the 601 (the
    // first gives no cooked value, as it needs two samples: a whole read shows 600 values).
    assert_eq!((c.rows, c.series.len()), (601, 10));
    assert!(c.series.iter().all(|s| s.samples == 601));
    assert_eq!(
        c.series[0].path,
        "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read"
    );
    assert_eq!(c.series[0].counter_type, Some(0x4002_0500)); // PERF_AVERAGE_BULK
                                                             // One sample a second: 600 intervals of about 1 s.
    let span = c.last_ms.unwrap() - c.first_ms.unwrap();
    assert!((span - 600_000.0).abs() < 600.0 * 50.0, "{span}");
    // The second sample is at 1 361 328 618 844 ms (blg.rs), the first a second before.
    assert!((c.first_ms.unwrap() - (1_361_328_618_844.0 - 1000.0)).abs() < 50.0);
    assert!(c.notes.iter().any(|n| n.code == "not-closed"));
    assert_eq!(
        got(&c),
        expected(&whole_keeping_raw(&bytes("BasicPerfCounters.blg")).unwrap())
    );
}

#[test]
fn a_blg_cut_inside_a_buffer_counts_the_complete_samples_with_the_note() {
    let b = bytes("BasicPerfCounters.blg");
    let cut = &b[..0x2_1234];
    let c = catalogue(cut);
    let whole = whole_keeping_raw(cut).unwrap();
    let k = whole.timestamps.len();
    assert!(k > 100 && k < 601, "{k}");
    assert_eq!(c.rows, k);
    assert!(c.series.iter().all(|s| s.samples == k));
    let note = c.notes.iter().find(|n| n.code == "truncated").unwrap();
    assert_eq!(
        note.message,
        format!("the file is truncated at byte 135732 (4660 bytes into buffer 2 of 65536 bytes: a copy that stopped, or a log still being written); the {k} complete samples before it were read")
    );
    assert_eq!(c.notes, whole.notes);
}

#[test]
fn pal_blg_matches_a_whole_read() {
    let b = bytes("PAL_SampleLog.blg");
    let c = catalogue(&b);
    let whole = whole_keeping_raw(&b).unwrap();
    assert_eq!(got(&c), expected(&whole));
    assert_eq!(c.notes, whole.notes);
    // Instances that appear mid-log have fewer samples than the log's rows.
    assert!(c.series.iter().all(|s| s.samples <= c.rows));
}

#[test]
fn every_golden_file_matches_a_whole_read_in_chunks_of_several_sizes() {
    for name in [
        "relog-pst.csv",
        "relog.tsv",
        "typeperf.csv",
        "utf16le.csv",
        "cp1251.csv",
        "cut-short.csv",
        "quirky-paths.csv",
        "get-counter-ps51.json",
        "get-counter-ps7.json",
        "raw-tiny.json",
        "BasicPerfCounters.blg",
    ] {
        let b = bytes(name);
        let whole = whole_keeping_raw(&b).unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = expected(&whole);
        for size in [1, 7, 4096, 65_536, usize::MAX] {
            let c = in_chunks(&b, size).unwrap_or_else(|e| panic!("{name}, {size}: {e}"));
            assert_eq!(got(&c), want, "{name} in chunks of {size}");
            assert_eq!(c.notes, whole.notes, "{name}");
            assert_eq!(c.time_zone, whole.time_zone, "{name}");
            assert_eq!(c.encoding, whole.encoding.unwrap(), "{name}");
            assert_eq!(c.bytes, b.len());
        }
    }
}

/// A generated PDH-CSV capture: 1 to 8 series, 1 to 40 rows, gaps anywhere, any bias.
fn arb_capture() -> impl Strategy<Value = Capture> {
    let value = prop_oneof![
        3 => (0u32..100_000).prop_map(|v| f64::from(v) / 8.0),
        1 => Just(f64::NAN),
    ];
    (1usize..8, 1usize..40, -720i32..=720)
        .prop_flat_map(move |(cols, rows, bias)| {
            (
                prop::collection::vec(prop::collection::vec(value.clone(), rows), cols),
                prop::collection::vec(1i64..100_000, rows),
                Just(bias),
            )
        })
        .prop_map(|(columns, steps, bias)| {
            let mut t = 1_700_000_000_000.0;
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
                    counterlens::capture::Series::new(
                        format!("\\\\HOST{}\\Object {i}(inst {i})\\Counter {i}", i % 2),
                        values,
                    )
                })
                .collect();
            Capture {
                format: Some(counterlens::capture::Format::PdhCsv),
                encoding: None,
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
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On generated CSV logs (cut anywhere, or whole), pushed in chunks of any size: the catalogue is
    /// what a whole read gives.
    #[test]
    fn a_generated_csv_catalogue_is_what_a_whole_read_gives(
        c in arb_capture(),
        chunk in 1usize..300,
        cut in 0.5f64..=1.0,
    ) {
        let csv = write_csv(&c, None);
        let b = &csv.as_bytes()[..(csv.len() as f64 * cut) as usize];
        let whole = open_capture(b, &OpenOptions::default());
        let cat = in_chunks(b, chunk);
        match (whole, cat) {
            (Ok(w), Ok(k)) => {
                prop_assert_eq!(got(&k), expected(&w));
                prop_assert_eq!(&k.notes, &w.notes);
                if cut == 1.0 {
                    // The whole log: every value written that is not NaN is counted.
                    let written: Vec<usize> = c.series.iter().map(|s| s.values.iter().filter(|v| !v.is_nan()).count()).collect();
                    prop_assert_eq!(k.series.iter().map(|s| s.samples).collect::<Vec<_>>(), written);
                    prop_assert_eq!(k.rows, c.timestamps.len());
                }
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} / {:?}", a.err(), b.err()),
        }
    }

    /// Both real .blg logs cut anywhere with one byte changed anywhere: the catalogue is what a whole
    /// read keeping every raw sample gives (or the same error).
    #[test]
    fn a_damaged_blg_catalogue_is_what_a_whole_read_gives(
        which in 0usize..2,
        cut in 0.0f64..1.0,
        flip in 0.0f64..1.0,
        value in any::<u8>(),
        chunk in prop_oneof![Just(usize::MAX), 1000usize..100_000],
    ) {
        let name = ["BasicPerfCounters.blg", "PAL_SampleLog.blg"][which];
        let mut b = bytes(name);
        b.truncate(0x4C + ((b.len() - 0x4C) as f64 * cut) as usize);
        let at = (b.len() as f64 * flip) as usize;
        if at < b.len() {
            b[at] = value;
        }
        match (whole_keeping_raw(&b), in_chunks(&b, chunk)) {
            (Ok(w), Ok(k)) => {
                prop_assert_eq!(got(&k), expected(&w));
                prop_assert_eq!(&k.notes, &w.notes);
            }
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} / {:?}", a.err(), b.err()),
        }
    }
}

#[test]
fn options_other_than_encoding_and_format_are_ignored() {
    // The catalogue lists the whole log whatever part a read would ask for.
    let b = bytes("relog-pst.csv");
    let all = catalogue(&b);
    let c = read_catalogue(
        &b,
        &OpenOptions {
            series: Some(vec![counterlens::capture::PathPattern::parse(
                "\\\\*\\Nothing\\x",
            )
            .unwrap()]),
            from_ms: Some(0.0),
            to_ms: Some(1.0),
            max_column_bytes: Some(1),
            ..OpenOptions::default()
        },
    )
    .unwrap();
    assert_eq!(c, all);
    // A format named is used: a CSV read as a .blg is refused as one.
    let e = read_catalogue(
        &b,
        &OpenOptions {
            format: Some("blg".into()),
            ..OpenOptions::default()
        },
    )
    .unwrap_err();
    assert_eq!(e.code(), "bad-blg");
}
