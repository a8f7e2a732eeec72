//! Rows taken out of the reader as it reads (`CaptureReader::take_rows`, `finish_rows`, `series_order`:
//! how the CLI converts a log bigger than memory) put back together give exactly the whole read: the same
//! times, series (in the capture's order), values bit for bit, raw samples and notes, whatever the chunk
//! size, with or without a part (`series`, `from_ms`, `to_ms`, `every`); and the reader holds only the
//! rows since the last take.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::{
    open_capture, Capture, CaptureReader, KeepRaw, OpenOptions, PathPattern, RawColumn, Series,
};

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DIR}{name}")).unwrap()
}

/// The takes of one read, put back together: series by their index in the takes (a series met late has
/// no value at the rows before it), then put in the capture's order. Returns the capture and the most
/// rows one take held.
fn streamed(b: &[u8], o: &OpenOptions, chunk: usize) -> Result<(Capture, usize), String> {
    let mut r = CaptureReader::new(o).map_err(|e| e.to_string())?;
    let mut times: Vec<f64> = Vec::new();
    let mut series: Vec<Series> = Vec::new();
    let mut most = 0;
    let mut add = |c: Capture, times: &mut Vec<f64>, series: &mut Vec<Series>| {
        most = most.max(c.timestamps.len());
        for (i, s) in c.series.into_iter().enumerate() {
            if i == series.len() {
                series.push(Series {
                    values: vec![f64::NAN; times.len()],
                    raw: s.raw.as_ref().map(|_| RawColumn::default()),
                    ..s.clone()
                });
                if let Some(raw) = &mut series[i].raw {
                    for _ in 0..times.len() {
                        raw.push(None);
                    }
                }
            }
            assert_eq!(series[i].path, s.path, "a series keeps its index");
            assert_eq!(s.values.len(), c.timestamps.len());
            series[i].values.extend_from_slice(&s.values);
            if let (Some(all), Some(raw)) = (&mut series[i].raw, &s.raw) {
                for k in 0..c.timestamps.len() {
                    all.push(raw.get(k).as_ref());
                }
            }
        }
        // Series not in this take (none: every series met so far is in every take) would be short.
        times.extend_from_slice(&c.timestamps);
        for s in series.iter_mut() {
            s.values.resize(times.len(), f64::NAN);
        }
    };
    for piece in b.chunks(chunk.max(1)) {
        r.push(piece).map_err(|e| e.to_string())?;
        if let Some(c) = r.take_rows() {
            add(c, &mut times, &mut series);
        }
    }
    let (last, order) = r.finish_rows().map_err(|e| e.to_string())?;
    let (format, encoding, zone, notes) = (
        last.format,
        last.encoding,
        last.time_zone.clone(),
        last.notes.clone(),
    );
    add(last, &mut times, &mut series);
    assert_eq!(order.len(), series.len());
    let series = order.iter().map(|&i| series[i].clone()).collect();
    Ok((
        Capture {
            format,
            encoding,
            time_zone: zone,
            timestamps: times,
            series,
            notes,
        },
        most,
    ))
}

/// Equal bit for bit (NaN included): times, series, values, raw samples, notes.
fn same(a: &Capture, b: &Capture, what: &str) {
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&a.timestamps), bits(&b.timestamps), "{what}: times");
    assert_eq!(a.series.len(), b.series.len(), "{what}: series");
    for (x, y) in a.series.iter().zip(&b.series) {
        assert_eq!(x.path, y.path, "{what}");
        assert_eq!(
            (x.counter_type, x.scale),
            (y.counter_type, y.scale),
            "{what}"
        );
        assert_eq!(bits(&x.values), bits(&y.values), "{what}: {}", x.path);
        assert_eq!(
            x.raw.as_ref().map(|r| (&r.value, &r.second, &r.present)),
            y.raw.as_ref().map(|r| (&r.value, &r.second, &r.present)),
            "{what}: raw {}",
            x.path
        );
    }
    assert_eq!(a.notes, b.notes, "{what}: notes");
    assert_eq!(
        (a.format, a.encoding, &a.time_zone),
        (b.format, b.encoding, &b.time_zone),
        "{what}"
    );
}

fn check(name: &str, b: &[u8], o: &OpenOptions, chunks: &[usize]) {
    let whole = open_capture(b, o);
    for &chunk in chunks {
        let got = streamed(b, o, chunk);
        match (&whole, got) {
            (Ok(w), Ok((s, _))) => same(&s, w, &format!("{name}, chunks of {chunk}")),
            (Err(w), Err(s)) => assert_eq!(s, w.to_string(), "{name}, chunks of {chunk}"),
            (w, s) => panic!(
                "{name}, chunks of {chunk}: whole {:?}, streamed {:?}",
                w.as_ref().map(|_| ()),
                s.map(|_| ())
            ),
        }
    }
}

fn patterns(p: &[&str]) -> Option<Vec<PathPattern>> {
    Some(p.iter().map(|p| PathPattern::parse(p).unwrap()).collect())
}

#[test]
fn every_vector_streamed_in_takes_is_the_whole_read() {
    let mut names: Vec<String> = std::fs::read_dir(DIR)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "README.md")
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    for name in &names {
        let b = bytes(name);
        // Chunks smaller than a .blg buffer, a line, and the sniffing window, and the whole file.
        check(
            name,
            &b,
            &OpenOptions::default(),
            &[1 << 20, 65_537, 4096, 777],
        );
    }
}

#[test]
fn blg_takes_keep_cooking_across_takes_with_parts_and_raw_samples() {
    for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
        let b = bytes(name);
        let whole = open_capture(&b, &OpenOptions::default()).unwrap();
        // A .blg whose takes each hold a sample or a few: every two-sample counter's value after a take
        // is cooked against the last sample taken.
        let first = whole.series[0].path.clone();
        let t = &whole.timestamps;
        let options = [
            OpenOptions::default(),
            OpenOptions {
                keep_raw: KeepRaw::All,
                ..OpenOptions::default()
            },
            OpenOptions {
                series: patterns(&[r"\Processor(*)\*", &first]),
                every: Some(3),
                ..OpenOptions::default()
            },
            OpenOptions {
                from_ms: Some(t[t.len() / 4]),
                to_ms: Some(t[t.len() / 2]),
                keep_raw: KeepRaw::All,
                ..OpenOptions::default()
            },
        ];
        for o in &options {
            check(name, &b, o, &[4096, 8192 + 17, 100_000]);
        }
    }
}

#[test]
fn a_late_instance_takes_its_place_in_the_capture_order() {
    // PAL's sample log has Process instances that come and go: in the takes they are met after series of
    // later definitions; put in `series_order`, they are where the whole read lists them.
    let b = bytes("PAL_SampleLog.blg");
    let whole = open_capture(&b, &OpenOptions::default()).unwrap();
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    let mut met: Vec<String> = Vec::new();
    for piece in b.chunks(4096) {
        r.push(piece).unwrap();
        if let Some(c) = r.take_rows() {
            for s in &c.series[met.len()..] {
                met.push(s.path.clone());
            }
        }
    }
    let (last, order) = r.finish_rows().unwrap();
    for s in &last.series[met.len()..] {
        met.push(s.path.clone());
    }
    // Some series are met out of the capture's order (else this test would prove nothing).
    assert!(order.windows(2).any(|w| w[0] > w[1]), "{order:?}");
    let ordered: Vec<&String> = order.iter().map(|&i| &met[i]).collect();
    let want: Vec<&String> = whole.series.iter().map(|s| &s.path).collect();
    assert_eq!(ordered, want);
}

/// A PDH-CSV of `series` series and `rows` rows one second apart, value (row * 1000 + series) / 8 (exact
/// in binary), a blank every 7th cell; the clock goes back an hour at 01:59:59 local (daylight time ends)
/// when `dst`.
fn csv(series: usize, rows: usize, dst: bool) -> String {
    let mut s = String::from("\"(PDH-CSV 4.0) (Eastern Daylight Time)(240)\"");
    for k in 0..series {
        s.push_str(&format!(",\"\\\\WEB01\\Process(w{k})\\Working Set\""));
    }
    s.push_str("\r\n");
    for r in 0..rows {
        // From 01:59:00 local on 2026-11-01; with `dst`, 02:00:00 is written 01:00:00 (the repeated hour).
        let sec = 59 * 60 + r;
        let h = 1 + sec / 3600 - usize::from(dst && sec >= 3600);
        s.push_str(&format!(
            "\"11/01/2026 {h:02}:{:02}:{:02}.000\"",
            sec / 60 % 60,
            sec % 60
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

#[test]
fn csv_takes_are_the_whole_read_with_parts_daylight_time_and_a_cut_last_line() {
    let text = csv(12, 200, true);
    let b = text.as_bytes();
    let whole = open_capture(b, &OpenOptions::default()).unwrap();
    assert!(whole.notes.iter().any(|n| n.code == "dst-change"));
    let t = &whole.timestamps;
    let options = [
        OpenOptions::default(),
        OpenOptions {
            series: patterns(&[r"\Process(w1*)\*"]),
            from_ms: Some(t[30]),
            to_ms: Some(t[150]),
            every: Some(4),
            ..OpenOptions::default()
        },
        OpenOptions {
            size_hint: Some(b.len()),
            ..OpenOptions::default()
        },
    ];
    for o in &options {
        check("generated", b, o, &[1, 13, 1000, 4096, 1 << 20]);
    }
    // A last line cut short: the note counts every row read, taken or not.
    let cut = &b[..b.len() - 40];
    check("cut", cut, &OpenOptions::default(), &[97, 5000]);
    let (c, _) = streamed(cut, &OpenOptions::default(), 97).unwrap();
    let note = c.notes.iter().find(|n| n.code == "cut-short").unwrap();
    assert!(
        note.message.contains("the 199 complete rows before it"),
        "{}",
        note.message
    );
}

#[test]
fn the_reader_holds_only_the_rows_since_the_last_take() {
    // 40 series x 5,000 rows, taken after every 64 KiB: each take holds the rows of about 64 KiB of text
    // (a row is 24 + 40 x ~11 bytes, ~470 bytes: ~140 rows), never the file's 5,000.
    let text = csv(40, 5000, false);
    let (c, most) = streamed(text.as_bytes(), &OpenOptions::default(), 64 << 10).unwrap();
    assert_eq!(c.timestamps.len(), 5000);
    assert!((100..=400).contains(&most), "{most}");
}
