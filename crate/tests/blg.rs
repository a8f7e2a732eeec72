//! The .blg reader against the two public sample logs (tests/vectors/captures/*.blg, see
//! tests/vectors/captures/README.md): what Windows PDH reads from them (the microsoft/Tx assertions),
//! the identities between counters that hold whatever the data, hand-computed values, streaming,
//! the relog-style CSV, and broken files (truncated, flipped bytes, wrong buffer sizes).

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::{
    open_capture, write_csv, Capture, CaptureReader, KeepRaw, OpenOptions, Series,
};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap()
}

fn open(b: &[u8]) -> Capture {
    open_capture(b, &OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn series<'a>(c: &'a Capture, path: &str) -> &'a [f64] {
    &c.series
        .iter()
        .find(|s| s.path == path)
        .unwrap_or_else(|| panic!("no series {path}"))
        .values
}

fn finite(v: &[f64]) -> usize {
    v.iter().filter(|x| x.is_finite()).count()
}

#[test]
fn basic_reads_what_windows_pdh_reads() {
    let c = open(&bytes("BasicPerfCounters.blg"));
    assert_eq!(c.format_name(), "blg");
    // Tx (through PDH): 601 samples, the first gives no value: 600 per counter, 6000 in all.
    assert_eq!(c.timestamps.len(), 601);
    assert_eq!(c.series.len(), 10);
    assert!(
        c.series
            .iter()
            .all(|s| s.values[0].is_nan() && finite(&s.values) == 600),
        "600 values each"
    );
    let disk = c
        .series
        .iter()
        .filter(|s| s.parsed.object == "PhysicalDisk")
        .map(|s| finite(&s.values))
        .sum::<usize>();
    let cpu = c
        .series
        .iter()
        .filter(|s| s.parsed.object == "Processor")
        .map(|s| finite(&s.values))
        .sum::<usize>();
    assert_eq!((disk, cpu), (3000, 3000));
    assert_eq!(
        c.series[0].path,
        "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read"
    );
    assert_eq!(c.series[0].counter_type, Some(0x4002_0500)); // PERF_AVERAGE_BULK
    assert_eq!(c.series[0].scale, Some(-2));
    // The first value's time: 2013-02-20 02:50:18.844 UTC = day 15756 * 86 400 000 + 10 218 844 ms
    //   = 1 361 318 400 000 + 10 218 844 = 1 361 328 618 844 (local 18:50:18.844 PST, bias 480).
    assert_eq!(c.timestamps[1], 1_361_328_618_844.0);
    let tz = c.time_zone.as_ref().unwrap();
    assert_eq!((tz.name.as_str(), tz.bias_minutes), ("UTC-08:00", 480));
    // One sample a second.
    assert!(c
        .timestamps
        .windows(2)
        .all(|w| (w[1] - w[0] - 1000.0).abs() < 50.0));
    // No trailer: the log was not closed, and the reader says so.
    assert!(c.notes.iter().any(|n| n.code == "not-closed"));
}

#[test]
fn basic_hand_computed_values() {
    let c = open(&bytes("BasicPerfCounters.blg"));
    // % Processor Time of _Total at sample 1 (PERF_100NSEC_TIMER_INV): N 1 170 374 257 812 -> 1 170 383 320 312,
    // D 130 058 022 178 447 225 -> 130 058 022 188 447 585: dN = 9 062 500, dD = 10 000 360,
    // 100 * (1 - 9 062 500 / 10 000 360) = 9.37826...
    let total = series(&c, "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time");
    assert!(
        (total[1] - 100.0 * (1.0 - 9_062_500.0 / 10_000_360.0)).abs() < 1e-12,
        "{}",
        total[1]
    );
    // Avg. Disk Bytes/Read (AVERAGE_BULK): bytes per read, whole pages and sectors: 4096, 16384, 1024 ...
    let per_read = series(&c, "\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read");
    let reads: Vec<f64> = per_read
        .iter()
        .copied()
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    assert_eq!(reads[..3], [4096.0, 16384.0, 4096.0]);
    assert!(reads.contains(&1024.0));
    // An idle interval (no reads: dB = 0) shows 0, as Perfmon and relog show it.
    assert!(per_read.iter().filter(|v| **v == 0.0).count() > 300);
    // % Processor Time over the log: 1.6 to 53.9 %, mean 11.5 % (decoded by hand from the log's raw
    // values when the layout was established, docs/blg.md).
    let v: Vec<f64> = total[1..].to_vec();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    assert!((mean - 11.5).abs() < 0.05, "{mean}");
    let (lo, hi) = v
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(
        (lo - 1.6).abs() < 0.05 && (hi - 53.9).abs() < 0.05,
        "{lo} {hi}"
    );
}

#[test]
fn basic_total_is_the_mean_of_the_four_cpus() {
    let c = open(&bytes("BasicPerfCounters.blg"));
    let cpu: Vec<&[f64]> = (0..4)
        .map(|i| {
            series(
                &c,
                &format!("\\\\GEORGIS3\\Processor({i})\\% Processor Time"),
            )
        })
        .collect();
    let total = series(&c, "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time");
    let mut clamped = 0;
    for k in 1..601 {
        let mean = cpu.iter().map(|s| s[k]).sum::<f64>() / 4.0;
        if cpu.iter().any(|s| s[k] == 0.0) {
            // One CPU read -1.5625 % (one 15.625 ms clock tick of jitter in a 1 s interval), which cap100
            // shows as 0, as PDH does: the mean is then one tick / 4 = 0.390625 points above _Total.
            clamped += 1;
            assert!(
                (mean - total[k] - 1.5625 / 4.0).abs() < 0.01,
                "sample {k}: {mean} vs {}",
                total[k]
            );
        } else {
            // Each CPU's counter is read at its own instant: the mean and _Total differ by up to 5.1e-6 points.
            assert!(
                (mean - total[k]).abs() < 1e-5,
                "sample {k}: {mean} vs {}",
                total[k]
            );
        }
    }
    assert_eq!(clamped, 1);
}

#[test]
fn basic_queue_length_is_read_plus_write() {
    let c = open(&bytes("BasicPerfCounters.blg"));
    let q = |n: &str| {
        series(
            &c,
            &format!("\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk {n}Queue Length"),
        )
        .to_vec()
    };
    let (all, read, write) = (q(""), q("Read "), q("Write "));
    for k in 1..601 {
        assert!(
            (all[k] - read[k] - write[k]).abs() <= 1e-12 * all[k].abs().max(1.0),
            "sample {k}"
        );
    }
}

#[test]
fn pal_reads_every_object_and_instance() {
    let c = open(&bytes("PAL_SampleLog.blg"));
    assert_eq!(c.timestamps.len(), 11);
    // 60 s apart, as logged (the logger's timer drifts by tens of milliseconds).
    assert!(
        c.timestamps
            .windows(2)
            .all(|w| (w[1] - w[0] - 60_000.0).abs() < 100.0),
        "{:?}",
        c.timestamps
    );
    // The first sample: SystemTime 2007-08-14 15:40:38.659 local, EDT (bias 300 - 60 daylight = 240):
    // 19:40:38.659 UTC = day 13739 * 86 400 000 + 70 838 659 = 1 187 049 600 000 + 70 838 659.
    assert_eq!(c.timestamps[0], 1_187_120_438_659.0);
    assert_eq!(c.time_zone.as_ref().map(|z| z.bias_minutes), Some(240));
    let mut objects: Vec<&str> = c.series.iter().map(|s| s.parsed.object.as_str()).collect();
    objects.dedup();
    assert_eq!(
        objects,
        [
            "LogicalDisk",
            "TCPv4",
            "Memory",
            "Network Interface",
            "PhysicalDisk",
            "Process",
            "Processor",
            "System"
        ]
    );
    // 51 process instances in the first sample, duplicates numbered as PDH numbers them.
    let first: std::collections::BTreeSet<&str> = c
        .series
        .iter()
        .filter(|s| s.parsed.object == "Process" && s.values[0].is_finite())
        .filter_map(|s| s.parsed.instance.as_deref())
        .collect();
    assert_eq!(first.len(), 51);
    assert!(first.contains("svchost#12") && first.contains("csrss#1") && first.contains("_Total"));
    // Counter names come from the log's own name table; bases are not series.
    assert!(c
        .series
        .iter()
        .any(|s| s.path == "\\\\ZACH-PC\\LogicalDisk(C:)\\% Free Space"));
    assert!(!c.series.iter().any(|s| s
        .counter_type
        .is_some_and(|t| t & 0x000F_0C00 == 0x0003_0400)));
    // The trailer counts the 11 samples: no note about it.
    assert!(
        !c.notes
            .iter()
            .any(|n| n.code == "not-closed" || n.code == "sample-count"),
        "{:?}",
        c.notes
    );
    let avail = series(&c, "\\\\ZACH-PC\\Memory\\Available Bytes");
    // 84 to 223 MB (decimal): 83 587 072 to 222 715 904 bytes.
    assert!(
        avail.iter().all(|v| (83.5e6..223e6).contains(v)),
        "{avail:?}"
    );
    // System Up Time (ELAPSED_TIME, object time in 100 ns): about 2002 s at the first sample, growing
    // with the clock: one minute later it reads one minute more.
    let up = series(&c, "\\\\ZACH-PC\\System\\System Up Time");
    assert!(
        (up[0] - 2002.16).abs() < 0.01
            && ((up[1] - up[0]) - (c.timestamps[1] - c.timestamps[0]) / 1000.0).abs() < 0.01,
        "{up:?}"
    );
}

#[test]
fn pal_user_plus_privileged_is_processor_time() {
    let c = open(&bytes("PAL_SampleLog.blg"));
    let p = |n: &str| series(&c, &format!("\\\\ZACH-PC\\Processor(_Total)\\% {n} Time")).to_vec();
    let (all, user, privileged) = (p("Processor"), p("User"), p("Privileged"));
    // 82.1, 86.9, 48.3 ... (decoded by hand from the log's raw values, docs/blg.md)
    assert!(
        (all[1] - 82.148).abs() < 0.001
            && (all[2] - 86.898).abs() < 0.001
            && (all[3] - 48.307).abs() < 0.001,
        "{all:?}"
    );
    for k in 1..11 {
        assert!(
            (user[k] + privileged[k] - all[k]).abs() < 0.05,
            "sample {k}"
        );
    }
}

#[test]
fn pal_disk_reads_plus_writes_are_transfers() {
    let c = open(&bytes("PAL_SampleLog.blg"));
    let d = |n: &str| {
        series(
            &c,
            &format!("\\\\ZACH-PC\\PhysicalDisk(_Total)\\Disk {n}/sec"),
        )
        .to_vec()
    };
    let (t, r, w) = (d("Transfers"), d("Reads"), d("Writes"));
    for k in 1..11 {
        assert!(
            (r[k] + w[k] - t[k]).abs() <= 1e-9 * t[k],
            "sample {k}: {} + {} vs {}",
            r[k],
            w[k],
            t[k]
        );
    }
}

#[test]
fn streaming_in_any_chunks_gives_the_same_capture() {
    for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
        let b = bytes(name);
        let whole = open(&b);
        for size in [1usize, 7, 4096, 65_535, 65_537, 300_000] {
            let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
            for chunk in b.chunks(size) {
                r.push(chunk).unwrap();
            }
            let c = r.finish().unwrap();
            assert_eq!(c.timestamps, whole.timestamps, "{name} in chunks of {size}");
            assert_eq!(c.series.len(), whole.series.len());
            for (a, b) in c.series.iter().zip(&whole.series) {
                assert_eq!(a.path, b.path);
                assert!(a
                    .values
                    .iter()
                    .zip(&b.values)
                    .all(|(x, y)| x == y || (x.is_nan() && y.is_nan())));
            }
        }
    }
}

#[test]
fn relog_style_csv_reads_back() {
    let c = open(&bytes("BasicPerfCounters.blg"));
    let csv = write_csv(&c, None);
    assert!(csv.starts_with("\"(PDH-CSV 4.0) (UTC-08:00)(480)\",\"\\\\GEORGIS3\\PhysicalDisk(0 C:)\\Avg. Disk Bytes/Read\""));
    // The second row is local 02/19/2013 18:50:18.844 (UTC 02:50:18.844 on the 20th, minus 8 h).
    assert!(csv
        .lines()
        .nth(2)
        .unwrap()
        .starts_with("\"02/19/2013 18:50:18.844\""));
    let back = open(csv.as_bytes());
    assert_eq!(back.timestamps, c.timestamps);
    for (a, b) in back.series.iter().zip(&c.series) {
        assert_eq!(a.path, b.path);
        assert!(a
            .values
            .iter()
            .zip(&b.values)
            .all(|(x, y)| x == y || (x.is_nan() && y.is_nan())));
    }
}

fn error(b: &[u8]) -> counterlens::capture::CaptureError {
    match open_capture(b, &OpenOptions::default()) {
        Ok(c) => panic!("expected an error, read {} series", c.series.len()),
        Err(e) => e,
    }
}

#[test]
fn a_file_cut_inside_a_buffer_reads_every_complete_sample_with_a_note() {
    let b = bytes("BasicPerfCounters.blg");
    let whole = open(&b);
    let c = open(&b[..0x2_1234]);
    let k = c.timestamps.len();
    assert!(k > 100 && k < 601, "{k}");
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "truncated")
        .expect("a note");
    assert_eq!(
        note.message,
        format!("the file is truncated at byte 135732 (4660 bytes into buffer 2 of 65536 bytes: a copy that stopped, or a log still being written); the {k} complete samples before it were read")
    );
    // 0x2_1234 = 2 x 65536 + 0x1234 (4660): byte 135 732.
    assert_eq!(c.timestamps[..], whole.timestamps[..k]);
    // Cut at a buffer boundary: the header's BuffersWritten (6: the file is 6 x 64 KiB) says more
    // buffers were written than the 3 the file holds (0x3_0000 = 196 608 bytes).
    let c = open(&b[..0x3_0000]);
    let k = c.timestamps.len();
    assert!(k > 100 && k < 601);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "truncated")
        .expect("a note");
    assert_eq!(
        note.message,
        format!("the file is truncated at byte 196608 (a buffer boundary): its header says 6 buffers of 65536 bytes were written, the file holds 3; the {k} complete samples before the cut were read")
    );
    // The whole file: as many buffers as its header says, no note.
    assert!(!whole.notes.iter().any(|n| n.code == "truncated"));
}

/// What a log cut short says: the cut first, with where and how much was read, never "nothing was
/// logged"; and a log only not closed says it lost nothing.
#[test]
fn a_log_cut_before_its_definitions_says_it_is_cut_short() {
    let b = bytes("BasicPerfCounters.blg");
    // The first buffer only (65 536 bytes of the 6 x 65 536 = 393 216 the header says were written): the
    // counter definitions are not in it.
    let e = error(&b[..0x1_0000]);
    assert_eq!(e.code(), "no-rows");
    assert_eq!(e.offset, Some(65_536));
    assert!(
        e.message.starts_with("byte 65536: the file is cut short: it is truncated at byte 65536 (a buffer boundary: its header says 6 buffers of 65536 bytes were written, the file holds 1) before the log's counter definitions"),
        "{e}"
    );
    assert!(!e.message.contains("nothing was logged"), "{e}");
    // Two buffers of PAL_SampleLog (7 written): the error names byte 131 072 = 2 x 65 536, not the first
    // buffer's end.
    let p = bytes("PAL_SampleLog.blg");
    let e = error(&p[..0x2_0000]);
    assert!(
        e.message.starts_with("byte 131072: the file is cut short: it is truncated at byte 131072 (a buffer boundary: its header says 7 buffers"),
        "{e}"
    );
    // Inside a buffer: the same lead, with the bytes into it.
    let e = error(&b[..0x1_0000 + 100]);
    assert!(
        e.message.contains(
            "the file is cut short: it is truncated at byte 65636 (100 bytes into buffer 1)"
        ),
        "{e}"
    );
    // The whole file: no trailer, every buffer whole: "not closed (all 601 samples read)", no loss.
    let whole = open(&b);
    let note = whole.notes.iter().find(|n| n.code == "not-closed").unwrap();
    assert!(
        note.message
            .starts_with("not closed (all 601 samples read): ")
            && note.message.contains("no value is lost"),
        "{}",
        note.message
    );
    // Cut at half (3 of 6 buffers): still not closed, but the cut is said and no loss is denied.
    let half = open(&b[..0x3_0000]);
    let note = half.notes.iter().find(|n| n.code == "not-closed").unwrap();
    assert!(
        !note.message.contains("no value is lost"),
        "{}",
        note.message
    );
    assert!(half.notes.iter().any(|n| n.code == "truncated"));
}

/// `cut` is `whole` read from a prefix of its file: the same series in the same order (a series whose
/// instance has not appeared yet may be missing), each a prefix of the whole file's, bit for bit.
fn assert_prefix(cut: &Capture, whole: &Capture, at: usize) {
    let k = cut.timestamps.len();
    assert_eq!(cut.timestamps[..], whole.timestamps[..k], "cut at {at}");
    for (from, s) in cut.series.iter().enumerate() {
        let w = whole.series[from..]
            .iter()
            .position(|w| w.path == s.path)
            .unwrap_or_else(|| panic!("cut at {at}: {} not in the whole log", s.path));
        let w = &whole.series[from + w];
        assert_eq!((s.counter_type, s.scale), (w.counter_type, w.scale));
        assert!(
            s.values
                .iter()
                .zip(&w.values[..k])
                .all(|(x, y)| x.to_bits() == y.to_bits()),
            "cut at {at}: {}",
            s.path
        );
    }
}

#[test]
fn a_log_cut_anywhere_reads_a_prefix_of_the_whole_log() {
    // Every 1,531st byte (a prime: cuts land at every offset within events and buffers) of both logs,
    // and the bytes around each buffer boundary. Each cut reads the complete samples before it, equal
    // to the whole log's, with a note giving the byte; or, before the first complete sample, an error
    // that says the file is truncated there. More bytes never read fewer samples.
    for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
        let b = bytes(name);
        let whole = open(&b);
        let mut cuts: Vec<usize> = (0x4C..b.len()).step_by(1531).collect();
        for boundary in (0x1_0000..b.len()).step_by(0x1_0000) {
            cuts.extend([boundary - 1, boundary + 1, boundary + 0x48, boundary + 0x78]);
        }
        cuts.sort_unstable();
        let mut last = 0;
        for at in cuts {
            match open_capture(&b[..at], &OpenOptions::default()) {
                Ok(c) => {
                    assert_prefix(&c, &whole, at);
                    assert!(c.timestamps.len() >= last, "cut at {at}");
                    last = c.timestamps.len();
                    let note = c.notes.iter().find(|n| n.code == "truncated");
                    if at % 0x1_0000 == 0 {
                        let m = &note.expect("a truncation note").message;
                        assert!(
                            m.contains(&format!("truncated at byte {at} (a buffer boundary)")),
                            "{m}"
                        );
                    } else {
                        let m = &note.expect("a truncation note").message;
                        assert!(
                            m.contains(&format!("truncated at byte {at} ("))
                                && m.contains(&format!("the {last} complete samples")),
                            "{m}"
                        );
                    }
                }
                Err(e) => {
                    assert_eq!(last, 0, "cut at {at}: {e}");
                    assert!(matches!(e.code(), "no-rows" | "empty"), "{e}");
                    assert!(
                        e.message.contains(&format!("truncated at byte {at} ")),
                        "{e}"
                    );
                }
            }
        }
        assert!(last > 0, "{name}: some cut reads samples");
    }
}

#[test]
fn a_cut_log_streamed_in_chunks_reads_as_when_whole() {
    let b = bytes("PAL_SampleLog.blg");
    for at in [0x4_1234, 0x5_0100, b.len() - 3] {
        let once = open(&b[..at]);
        for chunk in [1000, 7777, 0x1_0000] {
            let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
            for part in b[..at].chunks(chunk) {
                r.push(part).unwrap();
            }
            let streamed = r.finish().unwrap();
            assert_eq!(streamed.notes, once.notes);
            assert_prefix(&streamed, &once, at);
            assert_eq!(streamed.series.len(), once.series.len());
        }
    }
}

#[test]
fn a_record_cut_between_fragments_is_left_out_with_a_note() {
    // PAL's buffer 3 ends with fragment 1 of the fourth sample, whose fragments 2 and 3 open buffer 4.
    let b = bytes("PAL_SampleLog.blg");
    let c = open(&b[..0x4_0000]);
    assert_eq!(c.timestamps.len(), 3);
    assert!(
        c.notes
            .iter()
            .any(|n| n.code == "cut-short" && n.message.contains("1 of its 3 fragments")),
        "{:?}",
        c.notes
    );
    // Cut before any sample is complete: nothing to show, and the error says why.
    let e = error(&b[..0x3_0000]);
    assert_eq!(e.code(), "no-rows");
}

#[test]
fn wrong_buffer_sizes_are_errors() {
    let mut b = bytes("BasicPerfCounters.blg");
    // Buffer 3 claims 32 KiB where buffer 0 set 64 KiB.
    b[0x3_0000..0x3_0004].copy_from_slice(&0x8000u32.to_le_bytes());
    let e = error(&b);
    assert_eq!((e.code(), e.offset), ("bad-blg", Some(0x3_0000)));
    assert!(
        e.message.contains("buffer 3") && e.message.contains("65536"),
        "{e}"
    );
    // A first buffer size that is no ETW buffer size is refused before anything else.
    let mut b = bytes("BasicPerfCounters.blg");
    b[0..4].copy_from_slice(&0x1234u32.to_le_bytes());
    assert!(open_capture(&b, &OpenOptions::default()).is_err());
    // Every buffer's end-of-data beyond the buffer.
    let mut b = bytes("BasicPerfCounters.blg");
    b[0x1_0030..0x1_0034].copy_from_slice(&0x2_0000u32.to_le_bytes());
    let e = error(&b);
    assert!(
        e.message.contains("buffer 1") && e.message.contains("end of the buffer's data"),
        "{e}"
    );
}

#[test]
fn broken_blocks_name_the_buffer_and_event() {
    let mut b = bytes("BasicPerfCounters.blg");
    // The first sample event is at +0x448 of buffer 1; its container "BL" header at payload +0 (+0x490).
    assert_eq!(&b[0x1_0490..0x1_0492], b"BL");
    b[0x1_0490] = b'X';
    let e = error(&b);
    assert_eq!(e.code(), "bad-blg");
    assert!(
        e.message.contains("buffer 1, event at +0x448") && e.message.contains("\"BL\""),
        "{e}"
    );
    // A single-counter definition whose flags say instance array (0x1 in 7): its sample blocks do not
    // match, and the error says which definition, its flags and the block found.
    let mut b = bytes("BasicPerfCounters.blg");
    b[0x1_009C] = 7;
    let e = error(&b);
    assert!(
        e.message.contains("definition 0 (")
            && e.message.contains("flags 0x7")
            && e.message.contains("expected a kind 2 block, found kind 1"),
        "{e}"
    );
    // An event of another provider: not a perfmon log.
    let mut b = bytes("BasicPerfCounters.blg");
    b[0x1_0060] ^= 0xFF;
    assert_eq!(error(&b).code(), "unsupported");
}

#[test]
fn flipped_bytes_never_panic() {
    // The first buffers of both logs (header, name table, definitions, the first samples; a whole log
    // takes 10-40 ms to read in a debug build), every 61st byte of the first 68 KiB and every 997th byte
    // after, each set to 0x00, 0xFF and its complement: the reader returns a capture or an error.
    // cargo-fuzz covers the rest (fuzz/, docs/robustness.md).
    for (name, keep) in [
        ("BasicPerfCounters.blg", 0x2_0000),
        ("PAL_SampleLog.blg", 0x4_0000),
    ] {
        let original = bytes(name)[..keep].to_vec();
        let positions = (0..0x1_1000)
            .step_by(61)
            .chain((0x1_1000..keep).step_by(997));
        for at in positions {
            for value in [0x00, 0xFF, !original[at]] {
                let mut b = original.clone();
                b[at] = value;
                let _ = open_capture(&b, &OpenOptions::default());
            }
        }
    }
}

#[test]
fn an_error_status_is_a_gap_and_the_next_sample_has_no_older_one() {
    let original = open(&bytes("BasicPerfCounters.blg"));
    let mut b = bytes("BasicPerfCounters.blg");
    // Sample 2 is the event at +0x858 of buffer 1; its container's first block (Avg. Disk Bytes/Read)
    // starts at +0x8a8 and its CStatus at +0x8b0. PDH_CSTATUS_NO_COUNTER is 0xC0000BB9.
    assert_eq!(&b[0x1_08a8..0x1_08ac], b"BL\x03\x01");
    b[0x1_08b0..0x1_08b4].copy_from_slice(&0xC000_0BB9u32.to_le_bytes());
    let c = open(&b);
    let (was, now) = (&original.series[0].values, &c.series[0].values);
    assert!(was[2].is_finite() && was[3].is_finite());
    assert!(now[2].is_nan() && now[3].is_nan(), "{:?}", &now[..5]);
    assert!(now[4..] == was[4..] && now[1] == was[1]);
    assert!(
        c.notes
            .iter()
            .any(|n| n.code == "bad-status" && n.message.starts_with("1 raw values")),
        "{:?}",
        c.notes
    );
}

#[test]
fn instances_that_appear_mid_log_are_gaps_before() {
    let c = open(&bytes("PAL_SampleLog.blg"));
    // Some process starts after the first sample: its series has no value until it appears, and every
    // series still has one value slot per sample.
    assert!(c.series.iter().all(|s| s.values.len() == 11));
    let late = c
        .series
        .iter()
        .filter(|s| s.parsed.object == "Process" && s.counter_type == Some(0x10000))
        .find(|s| s.values[0].is_nan() && s.values.iter().any(|v| v.is_finite()))
        .expect("a process that appears after the first sample");
    let first = late.values.iter().position(|v| v.is_finite()).unwrap();
    assert!(
        first > 0 && late.values[..first].iter().all(|v| v.is_nan()),
        "{}: {:?}",
        late.path,
        late.values
    );
}

#[test]
fn multi_timers_in_instance_arrays_have_no_values_rather_than_guessed_ones() {
    // Basic's Processor(*) definition is at +0x3c0 of buffer 1 (size 0x88, flags 1), its counter type at +0x3cc
    // (0x21510500, 100NSEC_TIMER_INV). Made a 100NSEC_MULTI_TIMER (0x22510500), whose M the array's
    // entries do not carry.
    let mut b = bytes("BasicPerfCounters.blg");
    assert_eq!(b[0x1_03cc..0x1_03d0], 0x2151_0500u32.to_le_bytes());
    b[0x1_03cc..0x1_03d0].copy_from_slice(&0x2251_0500u32.to_le_bytes());
    let c = open(&b);
    let cpu: Vec<_> = c
        .series
        .iter()
        .filter(|s| s.parsed.object == "Processor")
        .collect();
    assert_eq!(cpu.len(), 5);
    assert!(cpu.iter().all(|s| s.values.iter().all(|v| v.is_nan())));
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "multi-unknown")
        .expect("a note");
    assert!(
        note.message
            .starts_with("Processor(*)\\% Processor Time are MULTI timers"),
        "{}",
        note.message
    );
}

#[test]
fn a_time_zone_bias_of_i32_min_is_an_error_not_an_overflow() {
    // Found by the `capture` fuzz target: Bias = -2^31 made `abs()` overflow (a panic in a debug build,
    // a wrapped, meaningless bias in a release one). Basic's TIME_ZONE_INFORMATION is at 0x68 + 0x38 + 2 x 8.
    let mut b = bytes("BasicPerfCounters.blg");
    assert_eq!(b[0xB0..0xB4], 480i32.to_le_bytes());
    b[0xB0..0xB4].copy_from_slice(&i32::MIN.to_le_bytes());
    let e = error(&b);
    assert_eq!(e.code(), "bad-blg");
    assert!(e.message.contains("time zone biases within a day"), "{e}");
    // The fuzzer's own input, as it found it.
    let found = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/fuzz/capture-bias-i32-min.blg"
    ))
    .unwrap();
    let e = open_capture(&found, &OpenOptions::default()).unwrap_err();
    assert!(
        e.code() == "bad-blg" && e.message.contains("time zone biases within a day"),
        "{e}"
    );
}

/// The byte offsets of the flags word of every definition record in Basic's definitions event (buffer
/// 1, event at +0x48, one fragment: payload at +0x90, two u32 of preamble, then records of
/// {u32 size, u32 flags, ...}).
fn basic_definition_flags(b: &[u8]) -> Vec<usize> {
    let event = 0x1_0048;
    assert_eq!(b[event + 4], 0x20, "the definitions event");
    assert_eq!(
        b[event + 0x40..event + 0x48],
        [1, 0, 0, 0, 1, 0, 0, 0],
        "fragment 1 of 1"
    );
    let end = event + usize::from(u16::from_le_bytes([b[event], b[event + 1]]));
    let mut at = event + 0x30 + 0x18 + 8;
    let mut flags = Vec::new();
    while at + 8 <= end {
        let size = u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize;
        if size == 0 {
            break;
        }
        flags.push(at + 4);
        at += size;
    }
    flags
}

#[test]
fn export_counter_flags_are_a_bit_set_and_read_the_same() {
    // PowerShell's Export-Counter (Windows 10 build 14393) writes definition flags 0x20000000 (one
    // counter) and 0x20000001 (instances "(*)"). Basic's definitions patched that way, byte for byte:
    // PhysicalDisk(0 C:) counters one by one (0) and Processor(*) (1).
    let original = bytes("BasicPerfCounters.blg");
    let mut b = original.clone();
    let at = basic_definition_flags(&b);
    let before: Vec<u32> = at
        .iter()
        .map(|&f| u32::from_le_bytes(b[f..f + 4].try_into().unwrap()))
        .collect();
    assert!(before.contains(&0) && before.contains(&1), "{before:?}");
    for &f in &at {
        b[f + 3] |= 0x20; // 0x20000000
    }
    let (was, now) = (open(&original), open(&b));
    assert_eq!(now.timestamps, was.timestamps);
    assert_eq!(now.series.len(), 10);
    assert_eq!(now.time_zone, was.time_zone);
    for (x, y) in now.series.iter().zip(&was.series) {
        assert_eq!(
            (&x.path, x.counter_type, x.scale),
            (&y.path, y.counter_type, y.scale)
        );
        assert!(x
            .values
            .iter()
            .zip(&y.values)
            .all(|(p, q)| p.to_bits() == q.to_bits()));
    }
    // The unknown bit is recorded, not refused: one note naming it and how many definitions carry it.
    let note = now
        .notes
        .iter()
        .find(|n| n.code == "definition-flags")
        .expect("a note");
    assert!(
        note.message.starts_with(&format!(
            "{} of the {} counter definitions carry flag bits 0x20000000",
            at.len(),
            at.len()
        )),
        "{}",
        note.message
    );
    assert!(!was.notes.iter().any(|n| n.code == "definition-flags"));
    // Other unknown bits are tolerated the same way, and 0x10 wins over 0x1 only where both are set.
    let mut b = original.clone();
    for &f in &at {
        b[f + 1] |= 0x01; // 0x100
        b[f + 2] |= 0x80; // 0x800000
    }
    let c = open(&b);
    assert_eq!(c.series.len(), 10);
    assert!(c
        .notes
        .iter()
        .any(|n| n.code == "definition-flags" && n.message.contains("flag bits 0x800100")));
}

/// Adds `delta` (100 ns units) to the time stamp of every sample event (type 0x22) of a log whose local
/// time stamp is at or after `from`, as a logger's clock does across a daylight saving change.
fn shift_samples(b: &mut [u8], from: u64, delta: i64) -> usize {
    let n = 0x1_0000;
    let mut shifted = 0;
    for buffer in 0..b.len() / n {
        let base = buffer * n;
        if b[base..base + 0x48].iter().all(|&x| x == 0 || x == 0xFF) {
            continue;
        }
        let end = u32::from_le_bytes(b[base + 0x30..base + 0x34].try_into().unwrap()) as usize;
        let mut at = 0x48;
        if buffer == 0 {
            // The logger's system header event: its size at +4.
            at += (usize::from(u16::from_le_bytes([b[base + 0x4C], b[base + 0x4D]])) + 7) & !7;
        }
        while at + 0x30 <= end {
            let ev = base + at;
            let size = usize::from(u16::from_le_bytes([b[ev], b[ev + 1]]));
            let stamp = u64::from_le_bytes(b[ev + 0x10..ev + 0x18].try_into().unwrap());
            if b[ev + 4] == 0x22 && stamp >= from {
                let new = stamp.checked_add_signed(delta).unwrap();
                b[ev + 0x10..ev + 0x18].copy_from_slice(&new.to_le_bytes());
                shifted += 1;
            }
            at += (size + 7) & !7;
        }
    }
    shifted
}

/// Writes a SYSTEMTIME (year, month, day of week, day, hour, minute, 0, 0) at `at`.
fn put_systemtime(b: &mut [u8], at: usize, fields: [u16; 6]) {
    for (i, f) in fields.iter().chain(&[0, 0]).enumerate() {
        b[at + 2 * i..at + 2 * i + 2].copy_from_slice(&f.to_le_bytes());
    }
}

/// Basic's TIME_ZONE_INFORMATION is at 0xB0: Bias 480 (Pacific), StandardDate at +68 (0xF4),
/// StandardBias at +84 (0x104, 0), DaylightDate at +152 (0x148), DaylightBias at +168 (0x158, -60).
/// The log's samples run from 18:50:17.844 to 19:00:17 local on 2013-02-19 (02:50 UTC on the 20th); each
/// change below is put at 18:55 that day (a SYSTEMTIME with a year is a date). 2013-02-19 18:55 local as
/// a FILETIME: (1 361 300 100 000 ms since 1970 = day 15755 x 86 400 000 + 68 100 000) x 10 000
/// + 116 444 736 000 000 000 (1970 in 100 ns units since 1601).
const CHANGE: u64 = 1_361_300_100_000 * 10_000 + 116_444_736_000_000_000;
const HOUR: i64 = 36_000_000_000;

#[test]
fn a_log_crossing_the_start_of_daylight_time_keeps_utc_in_order() {
    let original = bytes("BasicPerfCounters.blg");
    assert_eq!(original[0x104..0x108], 0i32.to_le_bytes());
    assert_eq!(original[0x158..0x15C], (-60i32).to_le_bytes());
    let whole = open(&original);
    // Daylight time starts at 18:55: the logger's clock skips from 18:54:59 to 19:55, so every sample
    // from then on is stamped an hour later; in UTC nothing moved.
    let mut b = original.clone();
    put_systemtime(&mut b, 0x148, [2013, 2, 0, 19, 18, 55]);
    let moved = shift_samples(&mut b, CHANGE, HOUR);
    assert!(moved > 250 && moved < 350, "{moved}");
    let c = open(&b);
    assert_eq!(c.timestamps, whole.timestamps);
    assert!(c.timestamps.windows(2).all(|w| w[1] > w[0]));
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dst-change")
        .expect("a note");
    assert!(
        note.message
            .contains("the bias goes from 480 to 420 minutes"),
        "{}",
        note.message
    );
    assert_eq!(c.time_zone.as_ref().map(|z| z.bias_minutes), Some(480));
}

#[test]
fn a_log_crossing_the_end_of_daylight_time_keeps_utc_in_order() {
    let original = bytes("BasicPerfCounters.blg");
    let whole = open(&original);
    // Daylight time from January 1st to 18:55 (a log that started in daylight time, bias 480 - 60 = 420),
    // when the clock goes back to 17:55: every sample from then is stamped an hour earlier, and the
    // hour from 17:55 to 18:55 is shown twice. Every UTC time is the original's minus an hour
    // (daylight: local + 420; after the change: (local - 60) + 480), in order.
    let mut b = original.clone();
    put_systemtime(&mut b, 0x148, [2013, 1, 0, 1, 0, 0]);
    put_systemtime(&mut b, 0xF4, [2013, 2, 0, 19, 18, 55]);
    let moved = shift_samples(&mut b, CHANGE, -HOUR);
    assert!(moved > 250 && moved < 350, "{moved}");
    let c = open(&b);
    let want: Vec<f64> = whole.timestamps.iter().map(|t| t - 3_600_000.0).collect();
    assert_eq!(c.timestamps, want);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dst-change")
        .expect("a note");
    assert!(
        note.message
            .contains("the bias goes from 420 to 480 minutes"),
        "{}",
        note.message
    );
    assert_eq!(c.time_zone.as_ref().map(|z| z.bias_minutes), Some(420));
    // Values do not depend on the stamps: the same, bit for bit.
    for (x, y) in c.series.iter().zip(&whole.series) {
        assert!(x
            .values
            .iter()
            .zip(&y.values)
            .all(|(p, q)| p.to_bits() == q.to_bits()));
    }
}

// ---- Raw samples kept on request (`OpenOptions::keep_raw`), so a point can be explained ----

fn open_keeping(
    b: &[u8],
    keep_raw: KeepRaw,
) -> Result<Capture, counterlens::capture::CaptureError> {
    open_capture(
        b,
        &OpenOptions {
            keep_raw,
            ..OpenOptions::default()
        },
    )
}

/// The capture without its raw samples.
fn strip(c: &Capture) -> Capture {
    Capture {
        series: c
            .series
            .iter()
            .map(|s| Series {
                raw: None,
                ..s.clone()
            })
            .collect(),
        ..c.clone()
    }
}

/// The same values bit for bit (NaN as NaN), the same paths, types and notes: keeping raw samples
/// changes nothing else in the capture.
fn assert_same_values(kept: &Capture, plain: &Capture, what: &str) {
    assert_eq!(kept.timestamps, plain.timestamps, "{what}");
    assert_eq!(kept.notes, plain.notes, "{what}");
    assert_eq!(kept.series.len(), plain.series.len(), "{what}");
    for (k, p) in kept.series.iter().zip(&plain.series) {
        assert_eq!(
            (&k.path, k.counter_type, k.scale),
            (&p.path, p.counter_type, p.scale),
            "{what}"
        );
        assert!(p.raw.is_none(), "{what}: {} keeps raw unasked", p.path);
        assert_eq!(k.values.len(), p.values.len(), "{what}");
        for (j, (a, b)) in k.values.iter().zip(&p.values).enumerate() {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                "{what}: {} at {j}: {a} != {b}",
                k.path
            );
        }
    }
}

/// With every series' raw samples kept: for every sample k, `cook()` of the samples k-1 and k the column
/// holds, with its options, gives exactly the value the reader gave; a sample without a value has no raw
/// sample. The one difference is the reader's rule for averages: an interval with no operations (dB = 0)
/// shows 0 as Perfmon and relog show it, where `cook()` says "zero denominator" (docs/blg.md).
#[test]
fn every_value_is_cook_of_the_raw_samples_kept() {
    use counterlens::cook::{cook, Cooked, Status};
    use counterlens::types::{CounterType, Formula};
    for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
        let b = bytes(name);
        let c = open_keeping(&b, KeepRaw::All).unwrap();
        assert_same_values(&c, &open(&b), name);
        let mut cooked = 0;
        for s in &c.series {
            let raw = s
                .raw
                .as_ref()
                .unwrap_or_else(|| panic!("{}: no raw", s.path));
            assert_eq!(raw.present.len(), c.timestamps.len(), "{}", s.path);
            let ty = CounterType::from_value(s.counter_type.unwrap());
            let average = matches!(
                ty.formula(),
                Some(Formula::AverageTimer | Formula::AverageBulk)
            );
            for (k, &v) in s.values.iter().enumerate() {
                let Some(newer) = raw.get(k) else {
                    assert!(
                        v.is_nan(),
                        "{} at {k}: a value without a raw sample",
                        s.path
                    );
                    continue;
                };
                let older = k.checked_sub(1).and_then(|j| raw.get(j));
                let want = match cook(ty, older.as_ref(), &newer, &raw.options) {
                    Ok(Cooked { value: Some(x), .. }) => x,
                    Ok(Cooked {
                        status: Status::ZeroDenominator,
                        ..
                    }) if average => 0.0,
                    _ => f64::NAN,
                };
                assert!(
                    v.to_bits() == want.to_bits() || (v.is_nan() && want.is_nan()),
                    "{name} {} at {k}: {v} != {want}",
                    s.path
                );
                cooked += usize::from(v.is_finite());
            }
        }
        // BasicPerfCounters: 10 series x 600 values; PAL_SampleLog: 1,832 series over 11 samples.
        assert!(cooked > 5000, "{name}: {cooked} values checked");
    }
}

#[test]
fn a_list_keeps_raw_samples_for_the_matching_series_only() {
    let b = bytes("PAL_SampleLog.blg");
    let plain = open(&b);
    // A wildcard (every processor's % Processor Time, any machine) and one path as written, in
    // another case (PDH compares names case-insensitively).
    let disk = plain
        .series
        .iter()
        .find(|s| s.parsed.object == "PhysicalDisk")
        .unwrap()
        .path
        .clone();
    let keep = KeepRaw::matching(&[
        r"\\*\Processor(*)\% Processor Time".to_string(),
        disk.to_uppercase(),
    ])
    .unwrap();
    let c = open_keeping(&b, keep.clone()).unwrap();
    assert_same_values(&strip(&c), &plain, "list");
    let kept: Vec<&str> = c
        .series
        .iter()
        .filter(|s| s.raw.is_some())
        .map(|s| s.path.as_str())
        .collect();
    let want: Vec<&str> = c
        .series
        .iter()
        .filter(|s| {
            s.path == disk
                || (s.parsed.object == "Processor" && s.parsed.counter == "% Processor Time")
        })
        .map(|s| s.path.as_str())
        .collect();
    assert_eq!(kept, want);
    assert!(
        want.len() >= 2 && want.len() < c.series.len() / 10,
        "{want:?}"
    );
    // What is kept is what the whole log's raw samples are, for those series.
    let all = open_keeping(&b, KeepRaw::All).unwrap();
    for (s, a) in c.series.iter().zip(&all.series) {
        if s.raw.is_some() {
            assert_eq!(s.raw, a.raw, "{}", s.path);
        }
    }
    // Streaming in chunks keeps the same.
    let mut r = CaptureReader::new(&OpenOptions {
        keep_raw: keep,
        ..OpenOptions::default()
    })
    .unwrap();
    for part in b.chunks(7777) {
        r.push(part).unwrap();
    }
    let streamed = r.finish().unwrap();
    assert_same_values(&strip(&streamed), &plain, "streamed");
    for (s, a) in streamed.series.iter().zip(&c.series) {
        assert_eq!(s.raw, a.raw, "{}", s.path);
    }
    // No pattern, or none that matches: nothing kept.
    for keep in [
        KeepRaw::None,
        KeepRaw::matching(&[r"\Nothing\Here"]).unwrap(),
    ] {
        let c = open_keeping(&b, keep).unwrap();
        assert!(c.series.iter().all(|s| s.raw.is_none()));
    }
    // A pattern that is not a counter path is refused, quoting it.
    let e = KeepRaw::matching(&["<script>"]).unwrap_err().to_string();
    assert!(
        e.contains("\"<script>\" is not a counter path pattern"),
        "{e}"
    );
}

#[test]
fn a_blg_point_explains_itself_with_its_raw_numbers() {
    let path = "\\\\GEORGIS3\\Processor(_Total)\\% Processor Time";
    let b = bytes("BasicPerfCounters.blg");
    // Without raw samples asked for, nothing to explain.
    let plain = open(&b);
    let i = plain.series.iter().position(|s| s.path == path).unwrap();
    assert!(plain.explain_at(i, 1).is_none());
    let c = open_keeping(&b, KeepRaw::matching(&[path]).unwrap()).unwrap();
    // PERF_100NSEC_TIMER_INV, "Calculating Counter Values": 100 * (1 - (N1 - N0) / (D1 - D0)).
    // Read from the log at samples 0 and 1: N0 = 1 170 374 257 812, N1 = 1 170 383 320 312 (idle time,
    // 100 ns), D0 = 130 058 022 178 447 225, D1 = 130 058 022 188 447 585 (the sample times, 100 ns);
    // dN = 9 062 500, dD = 10 000 360: 100 * (1 - 9 062 500 / 10 000 360) = 9.378 266 ...
    let raw = c.series[i].raw.as_ref().unwrap();
    let (s0, s1) = (raw.get(0).unwrap(), raw.get(1).unwrap());
    assert_eq!(
        (s0.value, s1.value, s0.second, s1.second),
        (
            1_170_374_257_812,
            1_170_383_320_312,
            Some(130_058_022_178_447_225),
            Some(130_058_022_188_447_585)
        )
    );
    let e = c.explain_at(i, 1).unwrap().unwrap();
    let want = 100.0 * (1.0 - 9_062_500.0 / 10_000_360.0);
    assert!((e.result.value.unwrap() - want).abs() < 1e-12, "{e:?}");
    assert_eq!(e.result.value, Some(c.series[i].values[1]));
    assert!(
        e.substituted.starts_with(
            "100 * (1 - (1170383320312 - 1170374257812) / (130058022188447585 - 130058022178447225)"
        ),
        "{}",
        e.substituted
    );
    // The first sample has no older one: explained as such, no value.
    let first = c.explain_at(i, 0).unwrap().unwrap();
    assert_eq!(first.result.value, None);
    // The other series kept none.
    assert!(c.explain_at((i + 1) % c.series.len(), 1).is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
    /// A log cut anywhere, with one byte changed anywhere in what is left: keeping every series' raw
    /// samples gives the same result (the same error, or the same capture value for value), and each
    /// series' raw column is as long as the timestamps.
    #[test]
    fn keeping_raw_samples_changes_no_value_of_a_broken_log(
        which in 0usize..2,
        cut in 0.0f64..1.0,
        flip in 0.0f64..1.0,
        value in proptest::prelude::any::<u8>(),
    ) {
        let name = ["BasicPerfCounters.blg", "PAL_SampleLog.blg"][which];
        let mut b = bytes(name);
        b.truncate(0x4C + ((b.len() - 0x4C) as f64 * cut) as usize);
        let at = (b.len() as f64 * flip) as usize;
        if at < b.len() {
            b[at] = value;
        }
        match (open_keeping(&b, KeepRaw::All), open_capture(&b, &OpenOptions::default())) {
            (Ok(kept), Ok(plain)) => {
                for s in &kept.series {
                    let raw = s.raw.as_ref().expect("raw kept");
                    proptest::prop_assert_eq!(raw.present.len(), kept.timestamps.len());
                }
                assert_same_values(&strip(&kept), &plain, name);
            }
            (Err(a), Err(b)) => proptest::prop_assert_eq!(a, b),
            (a, b) => proptest::prop_assert!(false, "{:?} / {:?}", a.err(), b.err()),
        }
    }
}

/// A Windows Server 2019 (build 17763) Data Collector Set log, built byte for byte as such logs are laid
/// out, around Basic's definitions and samples: in buffer 0, the logger's system header event of 536
/// bytes at +0x48 (Basic's 482 bytes and zeros for the longer names), then at +0x260 an 80-byte system
/// event (version 0, header type 0x02, marker 0xC0, size 80, hook 0x0002) that repeats the buffer's size
/// fields and the start time, then 0xFF fill to the end of the buffer; the counter definitions and the
/// samples in the later buffers (Basic's, unchanged). `data_end` is buffer 0's +0x30 (end of data):
/// 0x2B0 where the 80-byte event ends, or 0x10000 where the logger counts the fill as data.
/// `extra` are more events put after the 80-byte one (each already a multiple of 8 bytes).
fn server_2019(data_end: u32, extra: &[Vec<u8>]) -> Vec<u8> {
    let basic = bytes("BasicPerfCounters.blg");
    let mut b = basic.clone();
    let n = 0x1_0000;
    assert_eq!(
        u16::from_le_bytes([b[0x4C], b[0x4D]]),
        482,
        "Basic's header"
    );
    assert!(b[0x230..n].iter().all(|&x| x == 0xFF), "Basic's fill");
    b[0x4C..0x4E].copy_from_slice(&536u16.to_le_bytes());
    b[0x48 + 482..0x260].fill(0);
    // TRACE_LOGFILE_HEADER at 0x68: version 10.0 at +4, +5, build at +8.
    b[0x6C] = 10;
    b[0x6D] = 0;
    b[0x70..0x74].copy_from_slice(&17763u32.to_le_bytes());
    let mut ev = vec![0u8; 80];
    ev[..8].copy_from_slice(&[0x00, 0x00, 0x02, 0xC0, 80, 0, 0x02, 0x00]);
    ev[8..12].copy_from_slice(&0x0b18u32.to_le_bytes()); // thread
    ev[12..16].copy_from_slice(&0x0dfcu32.to_le_bytes()); // process
    ev[16..24].copy_from_slice(&b[0x10..0x18]); // the buffer's time stamp
    ev[32..36].copy_from_slice(&(n as u32).to_le_bytes()); // BufferSize
    ev[36..40].copy_from_slice(&(n as u32).to_le_bytes()); // the buffer size again
    ev[40..48].copy_from_slice(&b[0x68 + 0x18..0x68 + 0x20]); // StartTime
    let mut at = 0x260;
    for e in std::iter::once(&ev).chain(extra) {
        assert_eq!(e.len() % 8, 0);
        b[at..at + e.len()].copy_from_slice(e);
        at += e.len();
    }
    b[0x30..0x34].copy_from_slice(&data_end.max(at as u32).to_le_bytes());
    b
}

/// The values of `c` as relog writes them to CSV, with the columns in another order (relog orders a
/// log's columns differently from the log's definitions): every second column first, then the others.
fn relog_csv_reordered(c: &Capture) -> String {
    let order: Vec<usize> = (0..c.series.len())
        .step_by(2)
        .chain((1..c.series.len()).step_by(2))
        .collect();
    write_csv(c, Some(&order))
}

fn assert_same_as_csv(log: &Capture, csv: &Capture) {
    assert_eq!(log.timestamps, csv.timestamps);
    assert_eq!(log.series.len(), csv.series.len());
    for s in &log.series {
        let other = series(csv, &s.path);
        assert!(
            s.values
                .iter()
                .zip(other)
                .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())),
            "{}",
            s.path
        );
    }
}

#[test]
fn a_windows_server_2019_log_reads_whole() {
    // The relog CSV of the same samples: Basic's values (checked against Windows PDH above), written
    // as relog writes them and read back.
    let basic = open(&bytes("BasicPerfCounters.blg"));
    let csv = open(relog_csv_reordered(&basic).as_bytes());
    assert_ne!(csv.series[1].path, basic.series[1].path, "reordered");
    for data_end in [0x2B0, 0x1_0000] {
        let b = server_2019(data_end, &[]);
        let c = open(&b);
        // 10 counters, 601 samples (600 values each), every value the CSV's.
        assert_eq!((c.series.len(), c.timestamps.len()), (10, 601));
        assert_same_as_csv(&c, &csv);
        let blg = c.notes.iter().find(|n| n.code == "blg").unwrap();
        assert!(
            blg.message
                .starts_with("binary perfmon log from Windows 10.0 build 17763 (64-bit logger)"),
            "{}",
            blg.message
        );
        // The skipped event is named once, at its byte: buffer 0, +0x260 = 608.
        let note = c.notes.iter().find(|n| n.code == "logger-events").unwrap();
        assert!(
            note.message
                .contains("1 x header type 0x02 hook 0x0002 (first at byte 608)"),
            "{}",
            note.message
        );
        // Streamed in chunks, across the event and the fill, the same.
        for size in [1usize, 13, 0x260, 0x2B0, 65_535, 65_537] {
            let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
            for chunk in b.chunks(size) {
                r.push(chunk).unwrap();
            }
            assert_same_as_csv(&r.finish().unwrap(), &csv);
        }
    }
}

#[test]
fn every_kind_of_logger_event_is_skipped_by_its_size() {
    // Besides the system event (header type 0x02) of the log above: a COMPACT64 system event (0x04,
    // u16 size at +4: 24 bytes of header and 8 of data), a 32-bit system event (0x01, 40 bytes, hook
    // 0x0005), a PERFINFO64 one (0x11, 16 bytes... rounded to the 24 of its header) and a manifest
    // event (EVENT_HEADER64, 0x13, u16 size at +0: 80 bytes of header and 16 of data).
    let sys = |t: u8, size: u16, hook: u16| {
        let mut e = vec![0u8; (usize::from(size) + 7) & !7];
        e[2] = t;
        e[3] = 0xC0;
        e[4..6].copy_from_slice(&size.to_le_bytes());
        e[6..8].copy_from_slice(&hook.to_le_bytes());
        e
    };
    let mut manifest = vec![0x5Au8; 96];
    manifest[..4].copy_from_slice(&[96, 0, 0x13, 0xC0]);
    let extra = [
        sys(0x04, 32, 0x0040),
        sys(0x01, 40, 0x0005),
        sys(0x11, 24, 0x0524),
        manifest,
        sys(0x02, 80, 0x0002),
    ];
    let b = server_2019(0x2B0, &extra);
    let c = open(&b);
    let basic = open(&bytes("BasicPerfCounters.blg"));
    assert_same_as_csv(&c, &basic);
    let note = c.notes.iter().find(|n| n.code == "logger-events").unwrap();
    // Byte of each first: 0x260 + 80 = 688, + 32 = 720, + 40 = 760, + 24 = 784, then the manifest event.
    assert_eq!(
        note.message,
        "events of the trace's logger that hold no counter data were skipped: 2 x header type 0x02 hook 0x0002 (first at byte 608), 1 x header type 0x04 hook 0x0040 (first at byte 688), 1 x header type 0x01 hook 0x0005 (first at byte 720), 1 x header type 0x11 hook 0x0524 (first at byte 760), 1 x header type 0x13 (first at byte 784) (Windows Server 2019 writes one after the log header)"
    );
    // An unknown header type stays an error naming it and its place; so does a size the buffer
    // cannot hold, and a size below a system header's 24 bytes.
    let mut bad = server_2019(0x2B0, &[]);
    bad[0x262] = 0x0F;
    let e = error(&bad);
    assert_eq!((e.code(), e.offset), ("bad-blg", Some(0x260)));
    assert!(e.message.contains("found type 0x0f marker 0xc0"), "{e}");
    for size in [8u16, 0x4000] {
        let mut bad = server_2019(0x2B0, &[]);
        bad[0x264..0x266].copy_from_slice(&size.to_le_bytes());
        let e = error(&bad);
        assert_eq!((e.code(), e.offset), ("bad-blg", Some(0x260)), "{e}");
        assert!(e.message.contains(&format!("found size {size}")), "{e}");
    }
}
