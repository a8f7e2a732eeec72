//! A big PDH-CSV/TSV read in pieces side by side (JS workers), joined into the capture `open_capture`
//! gives for the whole file: same timestamps and values bit for bit, notes, format, encoding, and
//! errors at the same lines.
//!
//! `plan` decides once, from the file's start, what the whole-file reader would: the encoding and the
//! format, and whether the text can be cut at its 0x0A bytes (UTF-8 and the ASCII-compatible code pages,
//! where that byte is always a line end; not UTF-16 nor ISO-2022-JP; JSON is parsed whole, a .blg is
//! binary). `read_piece` reads the header line and one run of whole lines numbered as in the whole
//! file, keeping each row's local time and line. `join` appends the pieces: columns concatenated, the
//! header's notes once, the daylight-saving rule (`DstTracker`) run over every row in order so that a
//! change at a seam is seen as in one pass, and a cut last line noted with the whole file's row count.

use super::blg::looks_like_blg;
use super::limits::MAX_LINE;
use super::pdh_csv::{zone_is_daylight, CsvParser, DstTracker};
use super::reader::{too_long, utf8};
use super::text::{detect, detection_window, Encoding, TextDecoder, SNIFF_BYTES};
use super::{
    columns_too_large, part_note, sniff, Capture, CaptureError, CaptureErrorKind, Format, Note,
    OpenOptions, SampleFilter,
};

/// How a text capture is read in pieces: decided once from the whole file's start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan {
    pub encoding: Encoding,
    /// `Format::PdhCsv` or `Format::PdhTsv`.
    pub format: Format,
}

/// The plan for a file starting with `head` (its first 64 KiB or more; `complete` when that is the
/// whole file), or None when it is read whole: a .blg, JSON, UTF-16 or ISO-2022-JP text, or anything
/// the whole-file reader refuses at its start (it then gives the error).
pub fn plan(head: &[u8], options: &OpenOptions, complete: bool) -> Option<Plan> {
    let named = match options.format.as_deref() {
        None => None,
        Some(name) => Some(Format::parse(name)?),
    };
    if named == Some(Format::Blg) || (named.is_none() && looks_like_blg(head)) {
        return None;
    }
    let sniffed = &head[..head.len().min(SNIFF_BYTES)];
    let mut encoding = detect(sniffed, options.encoding.as_deref(), complete).ok()?;
    let has_bom = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .any(|m| head.starts_with(m));
    if options.encoding.is_none() && !has_bom {
        // As the one-pass reader decides (reader.rs, `Reading::undecided`): from the bytes around the
        // header's first non-ASCII byte (the caller gives the header line and 64 KiB more); a header all
        // ASCII makes the file UTF-8 (its rows are times and numbers).
        let header = memchr::memchr(b'\n', head).map_or(head.len(), |k| k + 1);
        encoding = match head[..header].iter().position(|b| !b.is_ascii()) {
            None => Encoding::UTF_8,
            Some(p) => {
                if !complete && head.len() < p + SNIFF_BYTES {
                    return None; // not enough of the text to decide as the one-pass reader does
                }
                let line = memchr::memrchr(b'\n', &head[..p]).map_or(0, |j| j + 1);
                let text = &head[line..];
                let w = detection_window(text, p - line);
                let whole = complete && head.len() < p + SNIFF_BYTES;
                detect(&text[w], None, whole).ok()?
            }
        };
    }
    if encoding.is_wide() || encoding.name() == "ISO-2022-JP" {
        return None;
    }
    let format = match named {
        Some(f) => f,
        None => {
            let mut sample = String::new();
            TextDecoder::new(encoding).ok()?.decode(
                &head[..head.len().min(4096)],
                &mut sample,
                complete && head.len() <= 4096,
            );
            sniff(&sample).ok()?
        }
    };
    matches!(format, Format::PdhCsv | Format::PdhTsv).then_some(Plan { encoding, format })
}

/// Line ends (0x0A bytes) in `bytes`: how many lines a piece holds, to number the next one's.
pub fn line_ends(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// One piece read on its own: the capture of its rows, whose `timestamps` are the rows' local times
/// (no bias, no daylight rule: `join` applies both), and the line of each row in the whole file.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub capture: Capture,
    pub lines: Vec<u32>,
    /// The series in the file's header (the capture's, unless `OpenOptions::series` left some out).
    pub of_series: usize,
}

/// Reads `header` (the file's first line, without its line end) and `body`: whole lines, the first of
/// them line `first_line` of the file; `last` for the piece that ends the file, whose last line may
/// have no line end (and may be cut short). Errors are the whole-file reader's, at the same lines.
pub fn read_piece(
    header: &[u8],
    body: &[u8],
    first_line: u32,
    last: bool,
    plan: &Plan,
) -> Result<Piece, CaptureError> {
    read_piece_of(
        header,
        body,
        first_line,
        last,
        plan,
        &OpenOptions::default(),
    )
}

/// `read_piece` keeping only the series `options.series` names (rows are all kept: the window and
/// every Nth sample are applied by `assemble_part`, over the whole file's UTC times).
pub fn read_piece_of(
    header: &[u8],
    body: &[u8],
    first_line: u32,
    last: bool,
    plan: &Plan,
    options: &OpenOptions,
) -> Result<Piece, CaptureError> {
    let mut p = CsvParser::new(plan.format == Format::PdhTsv);
    p.read_as_piece();
    p.select(&OpenOptions {
        series: options.series.clone(),
        ..OpenOptions::default()
    });
    p.expect_bytes(body.len());
    let mut n = first_line;
    let mut line = |p: &mut CsvParser, text: &str, is_last: bool| {
        let at = n;
        n += 1;
        if text.len() > MAX_LINE {
            return Err(too_long(at));
        }
        p.row(text, at, is_last)
    };
    if plan.encoding == Encoding::UTF_8 {
        // As the whole-file reader: the BOM skipped, text checked as it is split, a character cut at
        // the very end of the file dropped.
        let header = header.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(header);
        if header.len() > MAX_LINE {
            return Err(too_long(1));
        }
        p.header(utf8(header, 1)?, 1)?;
        let end = memchr::memrchr(b'\n', body).map_or(0, |k| k + 1);
        let text = utf8(&body[..end], first_line)?;
        for l in text[..text.len().saturating_sub(1)].split('\n') {
            if end > 0 {
                line(&mut p, l, false)?;
            }
        }
        let rest = &body[end..];
        if !rest.is_empty() {
            if rest.len() > MAX_LINE {
                return Err(too_long(first_line + line_ends(&body[..end]) as u32));
            }
            let whole = match std::str::from_utf8(rest) {
                Err(e) if e.error_len().is_none() && last => e.valid_up_to(),
                _ => rest.len(),
            };
            let at = first_line + line_ends(&body[..end]) as u32;
            let text = utf8(&rest[..whole], at)?;
            if !text.is_empty() {
                line(&mut p, text, last)?;
            }
        }
    } else {
        let mut text = String::new();
        TextDecoder::new(plan.encoding)?.decode(header, &mut text, true);
        if text.len() > MAX_LINE {
            return Err(too_long(1));
        }
        p.header(&text, 1)?;
        text.clear();
        TextDecoder::new(plan.encoding)?.decode(body, &mut text, true);
        let mut lines = text.split('\n');
        let mut next = lines.next();
        while let Some(l) = next {
            next = lines.next();
            // The text after the last line end is a line only when it is not empty.
            if next.is_none() && l.is_empty() {
                break;
            }
            line(&mut p, l, last && next.is_none())?;
        }
    }
    let (capture, lines, of_series) = p.finish_piece(plan.encoding)?;
    Ok(Piece {
        capture,
        lines,
        of_series,
    })
}

/// Pieces that cannot be joined: they do not come from one file's `read_piece`.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum JoinError {
    #[error("no pieces to join")]
    NoPieces,
    #[error("piece {piece} has {found} series where the first has {expected}")]
    SeriesCount {
        piece: usize,
        expected: usize,
        found: usize,
    },
    #[error("piece {piece} has {rows} rows but {lines} line numbers")]
    LineCount {
        piece: usize,
        rows: usize,
        lines: usize,
    },
    #[error("piece {piece}, series {series}: {values} values for {rows} rows")]
    ColumnLength {
        piece: usize,
        series: usize,
        values: usize,
        rows: usize,
    },
    /// The whole file's own refusal (no rows at all).
    #[error(transparent)]
    Capture(#[from] CaptureError),
}

/// The note codes a piece can carry (`read_piece` of PDH-CSV/TSV), as the static text `Note` holds:
/// for pieces that crossed to another thread as plain data.
pub fn note_code(code: &str) -> Option<&'static str> {
    ["no-time-zone", "dropped-column", "cut-short", "dst-change"]
        .into_iter()
        .find(|c| *c == code)
}

/// The rows of a piece without its value columns: local times, the line of each row, and its notes.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PieceRows {
    pub local: Vec<f64>,
    pub lines: Vec<u32>,
    pub notes: Vec<Note>,
}

/// The capture of the whole file from its pieces, in file order.
pub fn join(pieces: Vec<Piece>) -> Result<Capture, JoinError> {
    let first = pieces.first().ok_or(JoinError::NoPieces)?;
    let count = first.capture.series.len();
    for (i, p) in pieces.iter().enumerate() {
        if p.capture.series.len() != count {
            return Err(JoinError::SeriesCount {
                piece: i,
                expected: count,
                found: p.capture.series.len(),
            });
        }
        let rows = p.capture.timestamps.len();
        if let Some((k, s)) = p
            .capture
            .series
            .iter()
            .enumerate()
            .find(|(_, s)| s.values.len() != rows)
        {
            return Err(JoinError::ColumnLength {
                piece: i,
                series: k,
                values: s.values.len(),
                rows,
            });
        }
    }
    let total: usize = pieces.iter().map(|p| p.capture.timestamps.len()).sum();
    let mut pieces = pieces.into_iter();
    let Some(Piece {
        capture: mut head,
        lines,
        ..
    }) = pieces.next()
    else {
        return Err(JoinError::NoPieces);
    };
    let mut rows = vec![PieceRows {
        local: std::mem::take(&mut head.timestamps),
        lines,
        notes: std::mem::take(&mut head.notes),
    }];
    let mut columns: Vec<Vec<f64>> = head
        .series
        .iter_mut()
        .map(|s| {
            let mut v = std::mem::take(&mut s.values);
            v.reserve_exact(total - v.len());
            v
        })
        .collect();
    for p in pieces {
        for (v, s) in columns.iter_mut().zip(&p.capture.series) {
            v.extend_from_slice(&s.values);
        }
        rows.push(PieceRows {
            local: p.capture.timestamps,
            lines: p.lines,
            notes: p.capture.notes,
        });
    }
    assemble(head, &rows, columns)
}

/// The whole file's capture from the first piece's capture (format, encoding, zone, paths: its times,
/// values and notes are not read), every piece's rows in file order, and the value columns already
/// joined (one per series, each as long as all the rows): the daylight rule run over every row, the
/// notes in one-pass order.
pub fn assemble(
    head: Capture,
    pieces: &[PieceRows],
    columns: Vec<Vec<f64>>,
) -> Result<Capture, JoinError> {
    assemble_part(head, pieces, &OpenOptions::default(), None, |_| columns)
}

/// `assemble`, then only the rows `options` asks for (`from_ms`, `to_ms`, `every`, over the UTC times
/// in file order, as the one-pass reader picks them), with the `part` note; `of_series` is how many
/// series the file has when the pieces read some of them (`options.series`). `columns` makes the value
/// columns, one per series, given which rows are kept (`None`: all), once the budget
/// (`OpenOptions::max_column_bytes`) is known to hold them.
pub fn assemble_part(
    mut head: Capture,
    pieces: &[PieceRows],
    options: &OpenOptions,
    of_series: Option<usize>,
    columns: impl FnOnce(Option<&[bool]>) -> Vec<Vec<f64>>,
) -> Result<Capture, JoinError> {
    let mut total = 0;
    for (i, p) in pieces.iter().enumerate() {
        if p.lines.len() != p.local.len() {
            return Err(JoinError::LineCount {
                piece: i,
                rows: p.local.len(),
                lines: p.lines.len(),
            });
        }
        total += p.local.len();
    }
    if total == 0 {
        // The whole-file reader's refusal of a header without rows (pdh_csv's `finish`).
        return Err(CaptureError::at_line(
            CaptureErrorKind::NoRows,
            2,
            1,
            "expected data rows after the header; the file has only a header".into(),
        )
        .into());
    }
    // Local times to UTC exactly as the one-pass reader does (`CsvParser::header` sets the bias and the
    // tracker's start, `CsvParser::row` adds them in this order), over every row in file order.
    let zone = head.time_zone.clone();
    let bias_ms = zone
        .as_ref()
        .map_or(0.0, |z| f64::from(z.bias_minutes) * 60_000.0);
    let mut dst = DstTracker::default();
    dst.daylight = zone.as_ref().and_then(|z| zone_is_daylight(&z.name));
    let mut timestamps = Vec::with_capacity(total);
    let mut dst_notes = Vec::new();
    for p in pieces {
        for (&local, &n) in p.local.iter().zip(&p.lines) {
            timestamps.push(local + bias_ms + dst.step(local, n, &mut dst_notes, zone.as_ref()));
        }
    }
    let keep: Option<Vec<bool>> = options.skips_samples().then(|| {
        let mut filter = SampleFilter::default();
        timestamps
            .iter()
            .map(|&t| filter.keep(options, t))
            .collect()
    });
    if let Some(keep) = &keep {
        let mut k = 0;
        timestamps.retain(|_| {
            k += 1;
            keep[k - 1]
        });
        if timestamps.is_empty() {
            return Err(CaptureError::invalid_option(
                if options.from_ms.is_some() || options.to_ms.is_some() {
                    "from"
                } else {
                    "every"
                },
                format!("none of the log's {total} samples is in the window asked for"),
            )
            .into());
        }
    }
    let rows = timestamps.len();
    let budget = options.column_budget();
    let per_row = 8 * (head.series.len() + 1);
    if per_row.saturating_mul(rows) > budget {
        return Err(columns_too_large(head.series.len(), rows, per_row, budget, None).into());
    }
    let columns = columns(keep.as_deref());
    if columns.len() != head.series.len() {
        return Err(JoinError::SeriesCount {
            piece: 0,
            expected: head.series.len(),
            found: columns.len(),
        });
    }
    if let Some((k, v)) = columns.iter().enumerate().find(|(_, v)| v.len() != rows) {
        return Err(JoinError::ColumnLength {
            piece: 0,
            series: k,
            values: v.len(),
            rows,
        });
    }
    // Notes in the one-pass order: the header's (line 1, said by every piece, kept once), the
    // daylight-saving changes, then the rows' (a cut last line, whose count of rows is the file's).
    let mut notes: Vec<Note> = pieces
        .first()
        .map(|p| {
            p.notes
                .iter()
                .filter(|n| n.line == Some(1))
                .cloned()
                .collect()
        })
        .unwrap_or_default();
    notes.append(&mut dst_notes);
    let mut rows_before = 0;
    for p in pieces {
        let rows = p.local.len();
        for note in p.notes.iter().filter(|n| n.line != Some(1)) {
            let mut note = note.clone();
            let piece_count = format!("; the {rows} complete rows before it were");
            if note.code == "cut-short" {
                if let Some(head) = note.message.strip_suffix(&piece_count) {
                    note.message = format!(
                        "{head}; the {} complete rows before it were",
                        rows_before + rows
                    );
                }
            }
            notes.push(note);
        }
        rows_before += rows;
    }
    let all_series = of_series.unwrap_or(head.series.len());
    if rows < total || head.series.len() < all_series {
        notes.push(part_note(head.series.len(), Some(all_series), rows, total));
    }
    for (s, values) in head.series.iter_mut().zip(columns) {
        s.values = values;
    }
    head.timestamps = timestamps;
    head.notes = notes;
    Ok(head)
}

/// `column`'s values in the rows `keep` keeps (all of them for `None`).
pub fn pick_rows(column: Vec<f64>, keep: Option<&[bool]>) -> Vec<f64> {
    match keep {
        None => column,
        Some(keep) => column
            .into_iter()
            .zip(keep)
            .filter_map(|(v, &k)| k.then_some(v))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::open_capture;
    use super::*;

    /// Cuts `bytes` after its header into `n` pieces at line ends near equal byte counts, reads each as
    /// a worker would (numbered from the line after the previous piece's last), and joins them.
    fn in_pieces(bytes: &[u8], n: usize) -> Result<Capture, CaptureError> {
        let options = OpenOptions::default();
        let head = &bytes[..bytes.len().min(SNIFF_BYTES)];
        let plan = plan(head, &options, bytes.len() <= SNIFF_BYTES).expect("splittable");
        let header_end = memchr::memchr(b'\n', bytes).expect("a header line");
        let header = &bytes[..header_end];
        let body = &bytes[header_end + 1..];
        let mut cuts = vec![0];
        for k in 1..n {
            let target = (body.len() * k / n).max(*cuts.last().unwrap());
            let cut = memchr::memchr(b'\n', &body[target..]).map_or(body.len(), |i| target + i + 1);
            cuts.push(cut);
        }
        cuts.push(body.len());
        let mut first_line = 2;
        let mut pieces = Vec::new();
        for w in cuts.windows(2) {
            let piece = &body[w[0]..w[1]];
            // The piece that reaches the end of the file is the last (any after it are empty).
            pieces.push(read_piece(
                header,
                piece,
                first_line,
                w[1] == body.len(),
                &plan,
            )?);
            first_line += line_ends(piece) as u32;
        }
        join(pieces).map_err(|e| match e {
            JoinError::Capture(e) => e,
            e => panic!("{e}"),
        })
    }

    fn same(bytes: &[u8]) {
        let whole = open_capture(bytes, &OpenOptions::default());
        for n in [1, 2, 3, 4, 8] {
            let joined = in_pieces(bytes, n);
            match (&whole, &joined) {
                (Ok(a), Ok(b)) => {
                    let bits = |c: &Capture| -> Vec<Vec<u64>> {
                        std::iter::once(&c.timestamps)
                            .chain(c.series.iter().map(|s| &s.values))
                            .map(|v| v.iter().map(|x| x.to_bits()).collect())
                            .collect()
                    };
                    assert_eq!(bits(a), bits(b), "{n} pieces");
                    assert_eq!(a.notes, b.notes, "{n} pieces");
                    assert_eq!(
                        (a.format, a.encoding, &a.time_zone),
                        (b.format, b.encoding, &b.time_zone)
                    );
                    let paths =
                        |c: &Capture| c.series.iter().map(|s| s.path.clone()).collect::<Vec<_>>();
                    assert_eq!(paths(a), paths(b));
                }
                (a, b) => assert_eq!(a.as_ref().err(), b.as_ref().err(), "{n} pieces"),
            }
        }
    }

    const HEADER: &str = "\"(PDH-CSV 4.0) (Pacific Standard Time)(480)\",\"\\\\H\\Processor(_Total)\\% Processor Time\",\"\\\\H\\Memory\\Available Bytes\"\r\n";

    /// Rows every 15 s from 01:50:00 local on 11/01/2026 (the first Sunday of November: Pacific
    /// daylight time ends at 02:00, the clock goes back to 01:00).
    fn rows(count: usize, start_s: u32) -> String {
        let mut s = String::new();
        for r in 0..count as u32 {
            let t = start_s + 15 * r;
            s.push_str(&format!(
                "\"11/01/2026 {:02}:{:02}:{:02}.000\",\"{}.5\",\"{}\"\r\n",
                t / 3600,
                t / 60 % 60,
                t % 60,
                r,
                1000 + r
            ));
        }
        s
    }

    #[test]
    fn plain_rows_give_the_whole_file_capture() {
        same(format!("{HEADER}{}", rows(40, 3600)).as_bytes());
    }

    #[test]
    fn a_daylight_change_at_every_possible_seam() {
        // Daylight time ends: 01:59:45 is followed by 01:00:00 (the repeated hour). The header says
        // "Pacific Daylight Time" so the back step is read as the change; bias 420 then 480.
        let header = HEADER
            .replace("Standard", "Daylight")
            .replace("(480)", "(420)");
        let before = rows(4, 3600 + 59 * 60); // 01:59:00, :15, :30, :45
        let after = rows(4, 3600); // 01:00:00 ...
        let text = format!("{header}{before}{after}");
        let whole = open_capture(text.as_bytes(), &OpenOptions::default()).unwrap();
        // 01:59:45 PDT = 08:59:45 UTC; 01:00:00 PST = 09:00:00 UTC: 15 s later, times in order.
        assert_eq!(whole.timestamps[4] - whole.timestamps[3], 15_000.0);
        assert!(whole
            .notes
            .iter()
            .any(|n| n.code == "dst-change" && n.line == Some(6)));
        // Two pieces cut at each line end in turn: the change falls exactly at the seam once.
        let bytes = text.as_bytes();
        let header_end = memchr::memchr(b'\n', bytes).unwrap();
        let body = &bytes[header_end + 1..];
        let plan = plan(bytes, &OpenOptions::default(), true).unwrap();
        for cut in memchr::memchr_iter(b'\n', body).map(|k| k + 1) {
            let a = read_piece(&bytes[..header_end], &body[..cut], 2, false, &plan).unwrap();
            let b_line = 2 + line_ends(&body[..cut]) as u32;
            let b = read_piece(&bytes[..header_end], &body[cut..], b_line, true, &plan).unwrap();
            let joined = join(vec![a, b]).unwrap();
            assert_eq!(joined.timestamps, whole.timestamps, "cut at {cut}");
            assert_eq!(joined.notes, whole.notes, "cut at {cut}");
        }
    }

    #[test]
    fn a_spring_change_at_every_possible_seam() {
        // Daylight time starts: 01:59:45 PST is followed by 03:00:00 PDT (an hour and one 15 s interval
        // later on the clock): bias 480 then 420, so the rows stay 15 s apart in UTC.
        let text = format!("{HEADER}{}{}", rows(4, 3600 + 59 * 60), rows(4, 3 * 3600));
        let whole = open_capture(text.as_bytes(), &OpenOptions::default()).unwrap();
        // 01:59:45 + 8 h = 09:59:45 UTC; 03:00:00 + 7 h = 10:00:00 UTC.
        assert_eq!(whole.timestamps[4] - whole.timestamps[3], 15_000.0);
        assert!(whole
            .notes
            .iter()
            .any(|n| n.code == "dst-change" && n.message.contains("skips an hour")));
        for pieces in 1..=8 {
            assert_eq!(in_pieces(text.as_bytes(), pieces), Ok(whole.clone()));
        }
    }

    #[test]
    fn a_cut_last_row_and_gaps_and_blank_lines() {
        let mut text = format!("{HEADER}{}", rows(30, 3600)).replace(",\"7.5\",", ",\" \",");
        text.push_str("\r\n\r\n");
        text.push_str(&rows(5, 7200));
        text.push_str("\"11/01/2026 02:30:00.000\",\"1");
        same(text.as_bytes());
        let c = in_pieces(text.as_bytes(), 4).unwrap();
        // 30 + 5 complete rows; the cut one (line 1 + 30 + 2 blank + 5 + 1 = 39) noted with all 35.
        assert_eq!(c.timestamps.len(), 35);
        let cut = c.notes.iter().find(|n| n.code == "cut-short").unwrap();
        assert_eq!(cut.line, Some(39));
        assert!(
            cut.message.ends_with("the 35 complete rows before it were"),
            "{}",
            cut.message
        );
        assert!(c.series[0].values[7].is_nan());
    }

    #[test]
    fn an_error_in_a_later_piece_is_at_its_whole_file_line() {
        let mut text = format!("{HEADER}{}", rows(40, 3600));
        text = text.replacen("\"33.5\"", "\"3x3\"", 1); // row 33 is line 35
        let e = in_pieces(text.as_bytes(), 4).unwrap_err();
        assert_eq!((e.kind, e.line), (CaptureErrorKind::BadNumber, Some(35)));
        same(text.as_bytes());
    }

    #[test]
    fn tsv_a_description_column_and_no_zone() {
        let mut text =
            String::from("\"(PDH-TSV 4.0)\"\t\"\\\\H\\System\\Threads\"\t\"My set <script>\"\n");
        for r in 0..25 {
            text.push_str(&format!(
                "\"01/02/2026 03:04:{r:02}.000\"\t\"{r}\"\t\" \"\n"
            ));
        }
        same(text.as_bytes());
        let c = in_pieces(text.as_bytes(), 3).unwrap();
        let codes: Vec<&str> = c.notes.iter().map(|n| n.code).collect();
        assert_eq!(codes, ["no-time-zone", "dropped-column"]);
    }

    #[test]
    fn a_header_only_file_is_refused_as_a_whole() {
        let text = format!("{HEADER}\r\n\r\n\r\n");
        let e = in_pieces(text.as_bytes(), 3).unwrap_err();
        assert_eq!(
            e,
            open_capture(text.as_bytes(), &OpenOptions::default()).unwrap_err()
        );
    }

    #[test]
    fn invalid_utf8_is_at_the_same_line_and_column() {
        // Past the first 64 KiB, which decide the encoding (UTF-8 here): a 0xFF in the last row.
        let mut bytes = format!("{HEADER}{}", rows(3000, 0)).into_bytes();
        assert!(bytes.len() > SNIFF_BYTES);
        let at = bytes.len() - 20;
        bytes[at] = 0xFF;
        same(&bytes);
        // The bad byte's own line (the 3000th row, line 3001) and column (characters before it on its
        // line, plus one), not the start of the block of lines it was checked in.
        let line_start = bytes[..at].iter().rposition(|&b| b == b'\n').unwrap() + 1;
        let e = open_capture(&bytes, &OpenOptions::default()).unwrap_err();
        assert_eq!(
            (e.kind, e.line, e.column),
            (
                CaptureErrorKind::BadEncoding,
                Some(3001),
                Some((at - line_start) as u32 + 1)
            )
        );
    }

    #[test]
    fn what_is_read_whole() {
        let o = OpenOptions::default();
        assert!(plan(b"{\"CounterSamples\": []}", &o, true).is_none());
        assert!(plan(b"\xFF\xFE\"\0(\0P\0", &o, true).is_none());
        assert!(plan(b"hello", &o, true).is_none());
        let json = OpenOptions {
            format: Some("get-counter-json".into()),
            ..OpenOptions::default()
        };
        assert!(plan(HEADER.as_bytes(), &json, true).is_none());
        assert_eq!(
            plan(HEADER.as_bytes(), &o, true),
            Some(Plan {
                encoding: Encoding::UTF_8,
                format: Format::PdhCsv
            })
        );
    }

    #[test]
    fn pieces_that_do_not_match_are_refused() {
        assert_eq!(join(vec![]), Err(JoinError::NoPieces));
        let plan = plan(HEADER.as_bytes(), &OpenOptions::default(), true).unwrap();
        let header = HEADER.trim_end().as_bytes();
        let mut a = read_piece(header, rows(3, 0).as_bytes(), 2, false, &plan).unwrap();
        a.lines.pop();
        assert!(matches!(join(vec![a]), Err(JoinError::LineCount { .. })));
    }

    #[test]
    fn a_windows_1252_file() {
        // "Prozessorzeit" with an e acute (0xE9 in windows-1252, invalid as UTF-8): detected once from
        // the start, each piece decoded in it.
        let mut bytes = b"\"(PDH-CSV 4.0) (W. Europe Standard Time)(-60)\",\"\\\\H\\Caf\xE9\\Temps processeur\"\r\n".to_vec();
        for r in 0..20 {
            bytes.extend_from_slice(
                format!("\"03/04/2026 05:06:{r:02}.000\",\"{r}\"\r\n").as_bytes(),
            );
        }
        same(&bytes);
        let c = in_pieces(&bytes, 4).unwrap();
        assert_eq!(c.encoding_name(), "windows-1252");
        assert_eq!(c.series[0].path, "\\\\H\\Caf\u{e9}\\Temps processeur");
    }

    proptest::proptest! {
        /// Any cut into pieces (at line ends) of rows with gaps, blank lines, a daylight change and
        /// maybe a bad cell or a cut last line gives what the one-pass reader gives.
        #[test]
        fn any_cut_gives_the_one_pass_capture(
            before in 1usize..12, after in 1usize..12, gap in 0usize..30, bad in proptest::option::of(0usize..30),
            cut_tail in 0usize..30, pieces in 1usize..9, daylight in proptest::bool::ANY, spring in proptest::bool::ANY,
        ) {
            let header = if daylight { HEADER.replace("Standard", "Daylight").replace("(480)", "(420)") } else { HEADER.to_string() };
            // The clock goes back an hour (autumn) or skips one (spring: an hour and one interval later).
            let start = 3600 + 58 * 60;
            let after_start = if spring { start + 15 * before as u32 + 3600 } else { 3600 };
            let mut text = format!("{header}{}\r\n{}", rows(before, start), rows(after, after_start));
            text = text.replacen(&format!(",\"{gap}.5\","), ",\" \",", 1);
            if let Some(b) = bad {
                text = text.replacen(&format!(",\"{}\"", 1000 + b), ",\"x\"", 1);
            }
            text.truncate(text.len() - cut_tail);
            let whole = open_capture(text.as_bytes(), &OpenOptions::default());
            let joined = in_pieces(text.as_bytes(), pieces);
            match (whole, joined) {
                (Ok(a), Ok(b)) => {
                    proptest::prop_assert_eq!(a.timestamps.iter().map(|t| t.to_bits()).collect::<Vec<_>>(), b.timestamps.iter().map(|t| t.to_bits()).collect::<Vec<_>>());
                    for (x, y) in a.series.iter().zip(&b.series) {
                        proptest::prop_assert_eq!(x.values.iter().map(|t| t.to_bits()).collect::<Vec<_>>(), y.values.iter().map(|t| t.to_bits()).collect::<Vec<_>>());
                    }
                    proptest::prop_assert_eq!(a.notes, b.notes);
                }
                (a, b) => proptest::prop_assert_eq!(a.err(), b.err()),
            }
        }
    }
}
