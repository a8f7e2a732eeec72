//! `CaptureReader`: a capture pushed in chunks of any size (a 500 MB file read in slices in a Worker)
//! gives the same capture as the whole file at once, and never holds a second copy of the input.
//!
//! The first 64 KiB (or everything, if less) decide the format, and the encoding when a byte-order mark
//! or a label says it. Otherwise text is read as UTF-8 while every byte is ASCII (which every candidate
//! encoding reads the same), and the encoding is detected at the header's first non-ASCII byte, from
//! the bytes around it (`text::detection_window`): a header of 67,000 ASCII columns ending in a Japanese
//! description is detected from the description. A header all ASCII makes the file UTF-8 (rows hold
//! times and numbers), as the parallel plan (`join::plan`) decides from the header too. UTF-8 text is split into lines in place; other
//! encodings are decoded chunk by chunk first. Only the incomplete last
//! line of a chunk is carried over to the next. A binary perfmon log (.blg) is recognised from its bytes
//! before any decoding and handed to its reader, which reads each buffer as it completes.

use super::blg::{looks_like_blg, BlgReader};
use super::limits::{MAX_JSON, MAX_LINE};
use super::pdh_csv::CsvParser;
use super::text::{
    detect, detection_window, Encoding, TextDecoder, DETECTION_CONTEXT, SNIFF_BYTES,
};
use super::{
    sniff, Capture, CaptureEncoding, CaptureError, CaptureErrorKind, Catalogue, Format, OpenOptions,
};

enum Parser {
    /// Line by line. Boxed: the CSV parser's state is large beside the JSON variant's.
    Csv(Box<CsvParser>),
    /// JSON is gathered whole (in `carry` or `decoded`) and parsed at the end.
    Json(Format),
}

impl Parser {
    /// Every line passes here, whichever way it was assembled, so the line limit is checked here once.
    fn line(&mut self, line: &str, n: u32, last: bool) -> Result<(), CaptureError> {
        if line.len() > MAX_LINE {
            return Err(too_long(n));
        }
        match self {
            Parser::Csv(p) if !p.has_header() => p.header(line, n),
            Parser::Csv(p) => p.row(line, n, last),
            Parser::Json(_) => Ok(()),
        }
    }
}

struct Reading {
    encoding: Encoding,
    /// `None` for UTF-8, read in place.
    decoder: Option<TextDecoder>,
    parser: Parser,
    /// The start of a line that the chunks so far have not finished.
    carry: Vec<u8>,
    /// Decoded text waiting to be split (non-UTF-8 input only).
    decoded: String,
    line: u32,
    /// No byte-order mark or label decided the encoding, and every byte so far was ASCII (read as UTF-8):
    /// the header's first non-ASCII byte decides it.
    undecided: bool,
    /// While undecided: the bytes from the start of the line holding the first non-ASCII byte, held until
    /// `SNIFF_BYTES` follow that byte (or the input ends), and where that byte is in them.
    held: Option<(Vec<u8>, usize)>,
}

pub struct CaptureReader {
    options: OpenOptions,
    /// Bytes held until there are enough to detect the encoding and format.
    head: Vec<u8>,
    reading: Option<Reading>,
    blg: Option<BlgReader>,
    bytes: usize,
    /// A catalogue pass (`CatalogueReader`): values are counted, never stored.
    counting: bool,
}

pub(super) fn too_long(line: u32) -> CaptureError {
    CaptureError::at_line(CaptureErrorKind::TooLarge, line, 1, format!("line {line} is longer than {MAX_LINE} bytes without a line end: this is not a capture counterlens reads"))
}

/// `bytes` (whole lines, the first of them line `line`) as text; an invalid byte is reported at its own
/// line and column, however the input was cut into chunks.
pub(super) fn utf8(bytes: &[u8], line: u32) -> Result<&str, CaptureError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let valid = &bytes[..e.valid_up_to()];
        let (line, start) = match memchr::memrchr(b'\n', valid) {
            Some(k) => (
                line + memchr::memchr_iter(b'\n', valid).count() as u32,
                k + 1,
            ),
            None => (line, 0),
        };
        let col = String::from_utf8_lossy(&valid[start..]).chars().count() as u32 + 1;
        CaptureError::at_line(
            CaptureErrorKind::BadEncoding,
            line,
            col,
            "expected UTF-8 text (the encoding detected from the file's start, or from the text around its first non-ASCII byte)".into(),
        )
    })
}

impl Reading {
    /// Hands every complete line of `text` to the parser; returns the byte length consumed.
    fn lines(parser: &mut Parser, line: &mut u32, text: &str) -> Result<usize, CaptureError> {
        let mut start = 0;
        while let Some(k) = memchr::memchr(b'\n', &text.as_bytes()[start..]) {
            *line += 1;
            parser.line(&text[start..start + k], *line, false)?;
            start += k + 1;
        }
        if text.len() - start > MAX_LINE {
            return Err(too_long(*line + 1));
        }
        Ok(start)
    }

    /// Text that was ASCII so far: read in place until a non-ASCII byte comes, whose surroundings then
    /// decide the encoding of the rest (the lines before it read the same in every candidate).
    fn push_undecided(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
        if let Some((held, first)) = &mut self.held {
            let want = *first + SNIFF_BYTES;
            let take = want.saturating_sub(held.len()).min(chunk.len());
            held.extend_from_slice(&chunk[..take]);
            if held.len() < want {
                return Ok(());
            }
            self.decide(false)?;
            return self.push(&chunk[take..]);
        }
        if self.header_read() {
            // The header was ASCII: so is the text (rows hold times and numbers); a byte that is not
            // is refused where it is, as not UTF-8.
            self.undecided = false;
            return self.push_decided(chunk);
        }
        if chunk.is_ascii() {
            return self.push_decided(chunk);
        }
        let k = chunk.iter().position(|b| !b.is_ascii()).unwrap_or(0);
        // The lines before the one holding byte k are read now; that line's start is then in `carry`
        // (when it began in an earlier chunk) and `chunk[line_start..]`.
        let line_start = memchr::memrchr(b'\n', &chunk[..k]).map_or(0, |j| j + 1);
        self.push_decided(&chunk[..line_start])?;
        if self.header_read() {
            self.undecided = false;
            return self.push_decided(&chunk[line_start..]);
        }
        let mut held = std::mem::take(&mut self.carry);
        let first = held.len() + (k - line_start);
        if first > MAX_LINE {
            return Err(too_long(self.line + 1));
        }
        if chunk.len() - k >= SNIFF_BYTES {
            // The bytes detection needs are all here: only those are copied, not the chunk.
            let before = first.min(DETECTION_CONTEXT);
            let in_chunk = (k - line_start).min(before);
            let mut window = held[held.len() - (before - in_chunk)..].to_vec();
            window.extend_from_slice(&chunk[k - in_chunk..k + SNIFF_BYTES]);
            let w = detection_window(&window, before);
            let encoding = detect(&window[w], None, false)?;
            self.switch(encoding, held)?;
            return self.push(&chunk[line_start..]);
        }
        held.extend_from_slice(&chunk[line_start..]);
        self.held = Some((held, first));
        Ok(())
    }

    /// Whether the header line has been read (the encoding is decided by then).
    fn header_read(&self) -> bool {
        matches!(&self.parser, Parser::Csv(p) if p.has_header())
    }

    /// Detects the encoding from the held bytes and reads them in it.
    fn decide(&mut self, complete: bool) -> Result<(), CaptureError> {
        let Some((held, first)) = self.held.take() else {
            return Ok(());
        };
        let w = detection_window(&held, first);
        let encoding = detect(&held[w], None, complete)?;
        self.switch(encoding, Vec::new())?;
        self.push(&held)
    }

    /// From here on the text is in `encoding`; `line_start` is the ASCII start of the current line, which
    /// is read again in it.
    fn switch(&mut self, encoding: Encoding, line_start: Vec<u8>) -> Result<(), CaptureError> {
        self.undecided = false;
        self.encoding = encoding;
        if encoding == Encoding::UTF_8 {
            self.carry = line_start;
        } else {
            let mut d = TextDecoder::new(encoding)?;
            d.decode(&line_start, &mut self.decoded, false);
            self.decoder = Some(d);
        }
        Ok(())
    }

    fn push(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
        if self.undecided {
            return self.push_undecided(chunk);
        }
        self.push_decided(chunk)
    }

    fn push_decided(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
        if matches!(self.parser, Parser::Json(_)) {
            if self.carry.len() + self.decoded.len() + chunk.len() > MAX_JSON {
                return Err(CaptureError::at_offset(CaptureErrorKind::TooLarge, MAX_JSON, format!("a JSON capture of more than {MAX_JSON} bytes is not read (it is parsed whole)")));
            }
            match &mut self.decoder {
                Some(d) => d.decode(chunk, &mut self.decoded, false),
                None => self.carry.extend_from_slice(chunk),
            }
            return Ok(());
        }
        if let Some(d) = &mut self.decoder {
            d.decode(chunk, &mut self.decoded, false);
            let used = Self::lines(&mut self.parser, &mut self.line, &self.decoded)?;
            self.decoded.drain(..used);
            return Ok(());
        }
        // UTF-8: finish the carried line with the chunk's first line end, then read the chunk in place.
        let mut rest = chunk;
        if !self.carry.is_empty() {
            match memchr::memchr(b'\n', chunk) {
                None => {
                    if self.carry.len() + chunk.len() > MAX_LINE {
                        return Err(too_long(self.line + 1));
                    }
                    self.carry.extend_from_slice(chunk);
                    return Ok(());
                }
                Some(k) => {
                    self.carry.extend_from_slice(&chunk[..k]);
                    self.line += 1;
                    let carried = std::mem::take(&mut self.carry);
                    self.parser
                        .line(utf8(&carried, self.line)?, self.line, false)?;
                    rest = &chunk[k + 1..];
                }
            }
        }
        let end = memchr::memrchr(b'\n', rest).map_or(0, |k| k + 1);
        let text = utf8(&rest[..end], self.line + 1)?;
        Self::lines(&mut self.parser, &mut self.line, text)?;
        if rest.len() - end > MAX_LINE {
            return Err(too_long(self.line + 1));
        }
        self.carry.extend_from_slice(&rest[end..]);
        Ok(())
    }

    /// The gathered JSON text, parsed by its format's reader.
    fn finish_json(
        mut self,
        format: Format,
        options: &OpenOptions,
    ) -> Result<Capture, CaptureError> {
        let text = match &mut self.decoder {
            Some(d) => {
                d.decode(&[], &mut self.decoded, true);
                std::mem::take(&mut self.decoded)
            }
            None => String::from_utf8(std::mem::take(&mut self.carry)).map_err(|e| {
                CaptureError::at_offset(
                    CaptureErrorKind::BadEncoding,
                    e.utf8_error().valid_up_to(),
                    "expected UTF-8 text".into(),
                )
            })?,
        };
        let mut c = if format == Format::CounterlensJson {
            super::raw_json::read(&text)?
        } else {
            super::get_counter::read(&text)?
        };
        c.encoding = Some(CaptureEncoding::Text(self.encoding));
        options.cut(c)
    }

    fn finish(self, options: &OpenOptions) -> Result<Capture, CaptureError> {
        match self.end(options)? {
            Ended::Csv(p, encoding) => p.finish(encoding),
            Ended::Json(c) => Ok(c),
        }
    }

    /// Reads what is left (the last line, or the gathered JSON): the CSV parser to finish, or the JSON
    /// capture.
    fn end(mut self, options: &OpenOptions) -> Result<Ended, CaptureError> {
        self.decide(true)?;
        if let Parser::Json(format) = self.parser {
            return self.finish_json(format, options).map(Ended::Json);
        }
        let last = match &mut self.decoder {
            Some(d) => {
                d.decode(&[], &mut self.decoded, true);
                let used = Self::lines(&mut self.parser, &mut self.line, &self.decoded)?;
                self.decoded.split_off(used)
            }
            None => {
                // A file cut inside a character: the incomplete sequence at the very end is dropped (the
                // line it ends is cut short anyway, and is noted as such).
                let c = &self.carry;
                let whole = match std::str::from_utf8(c) {
                    Err(e) if e.error_len().is_none() => e.valid_up_to(),
                    _ => c.len(),
                };
                utf8(&c[..whole], self.line + 1)?.to_string()
            }
        };
        if !last.is_empty() {
            self.line += 1;
            self.parser.line(&last, self.line, true)?;
        }
        match self.parser {
            Parser::Csv(p) => Ok(Ended::Csv(p, self.encoding)),
            Parser::Json(format) => self.finish_json(format, options).map(Ended::Json), // returned above; correct all the same
        }
    }
}

/// A reading at its end: a CSV/TSV parser to finish (into a capture or a catalogue), or a JSON capture.
enum Ended {
    Csv(Box<CsvParser>, Encoding),
    Json(Capture),
}

impl CaptureReader {
    pub fn new(options: &OpenOptions) -> Result<CaptureReader, CaptureError> {
        options.check()?;
        if let Some(l) = &options.encoding {
            detect(b"", Some(l), true)?; // an unknown label fails now, not at the first chunk
        }
        Ok(CaptureReader {
            options: options.clone(),
            head: Vec::new(),
            reading: None,
            blg: None,
            bytes: 0,
            counting: false,
        })
    }

    /// A reader for a catalogue pass (`CatalogueReader`): it counts each series' values and the rows
    /// instead of storing them; `finish_catalogue` gives the result.
    pub(crate) fn counting(options: &OpenOptions) -> Result<CaptureReader, CaptureError> {
        let mut r = CaptureReader::new(options)?;
        r.counting = true;
        Ok(r)
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// The format, once the bytes so far decided it (after the first 64 KiB, or at `finish`).
    pub fn format(&self) -> Option<Format> {
        if self.blg.is_some() {
            return Some(Format::Blg);
        }
        match &self.reading.as_ref()?.parser {
            Parser::Csv(p) => Some(p.format()),
            Parser::Json(f) => Some(*f),
        }
    }

    fn start(&mut self, complete: bool) -> Result<(), CaptureError> {
        let head = std::mem::take(&mut self.head);
        let named = match self.options.format.as_deref() {
            None => None,
            Some(name) => Some(Format::parse(name).ok_or_else(|| {
                let names: Vec<String> = Format::ALL
                    .iter()
                    .map(|f| format!("{:?}", f.name()))
                    .collect();
                CaptureError::at_offset(
                    CaptureErrorKind::Unsupported,
                    0,
                    format!(
                        "{name:?} is not a format counterlens reads ({})",
                        names.join(", ")
                    ),
                )
            })?),
        };
        if named == Some(Format::Blg) || (named.is_none() && looks_like_blg(&head)) {
            let mut blg = BlgReader::new();
            blg.options(&self.options);
            if self.counting {
                blg.count_only();
            }
            blg.push(&head)?;
            self.blg = Some(blg);
            return Ok(());
        }
        let encoding = detect(
            &head[..head.len().min(SNIFF_BYTES)],
            self.options.encoding.as_deref(),
            complete,
        )?;
        let has_bom = [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
            .iter()
            .any(|m| head.starts_with(m));
        // The start (without a mark or a label) decides the format only: see `Reading::undecided`.
        // Decode a sample of the start to see the format; the whole head is then read normally.
        let mut sample = String::new();
        TextDecoder::new(encoding)?.decode(
            &head[..head.len().min(4096)],
            &mut sample,
            complete && head.len() <= 4096,
        );
        let format = match named {
            Some(f) => f,
            None => sniff(&sample)?,
        };
        let mut parser = match format {
            f @ (Format::GetCounterJson | Format::CounterlensJson) => Parser::Json(f),
            f => Parser::Csv(Box::new(CsvParser::new(f == Format::PdhTsv))),
        };
        if let Parser::Csv(p) = &mut parser {
            p.select(&self.options);
            if self.counting {
                p.count_only();
            }
            // Columns are reserved for the whole file's rows, unless only some rows are read.
            if let Some(size) = self
                .options
                .size_hint
                .filter(|_| !self.options.skips_samples())
            {
                // Rows are measured in UTF-8 bytes: UTF-16 input holds about two bytes per character.
                p.expect_bytes(if encoding.is_wide() { size / 2 } else { size });
            }
        }
        // A CSV/TSV without a byte-order mark or a label: ASCII is read as UTF-8 until a byte that is
        // not says more (JSON, parsed whole, keeps what its start says).
        let undecided = self.options.encoding.is_none()
            && !has_bom
            && !matches!(format, Format::GetCounterJson | Format::CounterlensJson);
        let encoding = if undecided { Encoding::UTF_8 } else { encoding };
        let mut reading = Reading {
            encoding,
            // UTF-8 is read in place; its BOM is skipped here.
            decoder: if encoding == Encoding::UTF_8 {
                None
            } else {
                Some(TextDecoder::new(encoding)?)
            },
            parser,
            carry: Vec::new(),
            decoded: String::new(),
            line: 0,
            undecided,
            held: None,
        };
        let body = if encoding == Encoding::UTF_8 {
            head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head)
        } else {
            &head
        };
        reading.push(body)?;
        self.reading = Some(reading);
        Ok(())
    }

    /// Reads a chunk. Errors carry the line and column (or byte offset) of what was wrong.
    pub fn push(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
        self.bytes += chunk.len();
        if let Some(b) = &mut self.blg {
            return b.push(chunk);
        }
        if let Some(r) = &mut self.reading {
            return r.push(chunk);
        }
        // Only the first SNIFF_BYTES are held to decide; the rest of the chunk is read in place (a whole
        // file pushed at once is never copied).
        let take = SNIFF_BYTES.saturating_sub(self.head.len()).min(chunk.len());
        self.head.extend_from_slice(&chunk[..take]);
        if self.head.len() < SNIFF_BYTES {
            return Ok(());
        }
        self.start(false)?;
        let rest = &chunk[take..];
        match (&mut self.blg, &mut self.reading) {
            (Some(b), _) => b.push(rest),
            (None, Some(r)) => r.push(rest),
            (None, None) => Ok(()),
        }
    }

    /// For a caller that writes rows out as it reads (the CLI's `convert` of a log bigger than memory):
    /// the rows read since the last take, taken out of the reader, as a capture of those rows (their
    /// times; every series read so far, each with its values at those rows, in the order first met: a
    /// series keeps its index from one take to the next, and later takes may add series at the end; the
    /// format, encoding and time zone; no notes). None before the rows start (the header or the .blg's
    /// definitions not read yet) and for JSON, which is parsed whole at `finish`. `finish` then gives the
    /// rows read after the last take (and the notes, which count every row read), its series in the
    /// capture's order (`series_order`). Taking leaves the values as a whole read gives them (a .blg's
    /// next sample is cooked against the last one taken); what is held is the rows since the last take.
    pub fn take_rows(&mut self) -> Option<Capture> {
        if let Some(b) = &mut self.blg {
            return b.take_rows();
        }
        let r = self.reading.as_mut()?;
        match &mut r.parser {
            Parser::Csv(p) if !r.undecided && r.held.is_none() => p.take_rows(r.encoding),
            _ => None,
        }
    }

    /// The series `take_rows` has met so far, in the order the finished capture lists them (indices into
    /// the series of a take): the header's order in a CSV/TSV; a .blg's by definition, counter, then
    /// instance in the order first seen. Empty before any take.
    pub fn series_order(&self) -> Vec<usize> {
        if let Some(b) = &self.blg {
            return b.series_order();
        }
        match self.reading.as_ref().map(|r| &r.parser) {
            Some(Parser::Csv(p)) => (0..p.series_read()).collect(),
            _ => Vec::new(),
        }
    }

    /// `finish` for a caller that took rows (`take_rows`): the rows read after the last take, their
    /// series in the order first met (as a take gives them, including any met in the last rows), the
    /// capture's notes (counting every row read, taken or not), and the order the whole capture lists
    /// the series in (`series_order`). JSON, parsed whole, gives its whole capture here.
    pub fn finish_rows(mut self) -> Result<(Capture, Vec<usize>), CaptureError> {
        if self.reading.is_some() {
            let c = self.finish()?;
            let order = (0..c.series.len()).collect();
            return Ok((c, order));
        }
        match self.blg.take() {
            Some(b) => b.finish_rows(false),
            None => {
                let c = self.finish()?;
                let order = (0..c.series.len()).collect();
                Ok((c, order))
            }
        }
    }

    /// The catalogue, once every chunk has been pushed (a reader made by `counting`).
    pub(crate) fn finish_catalogue(mut self) -> Result<Catalogue, CaptureError> {
        let bytes = self.bytes;
        self.start_if_short()?;
        if let Some(b) = self.blg.take() {
            return b.finish_catalogue(bytes);
        }
        match self.reading.take() {
            None => Err(nothing_read()),
            Some(r) => match r.end(&self.options)? {
                Ended::Csv(p, encoding) => p.finish_catalogue(encoding, bytes),
                Ended::Json(c) => Ok(Catalogue::of_capture(c, bytes)),
            },
        }
    }

    /// Starts reading an input shorter than what the format is decided from (at its end).
    fn start_if_short(&mut self) -> Result<(), CaptureError> {
        if self.reading.is_none() && self.blg.is_none() {
            if self.head.is_empty() {
                return Err(CaptureError::at_offset(
                    CaptureErrorKind::Empty,
                    0,
                    "the input is empty: expected a PDH-CSV or PDH-TSV capture".into(),
                ));
            }
            self.start(true)?;
        }
        Ok(())
    }

    /// The capture, once every chunk has been pushed.
    pub fn finish(mut self) -> Result<Capture, CaptureError> {
        if self.reading.is_none() && self.blg.is_none() {
            if self.head.is_empty() {
                return Err(CaptureError::at_offset(
                    CaptureErrorKind::Empty,
                    0,
                    "the input is empty: expected a PDH-CSV or PDH-TSV capture".into(),
                ));
            }
            self.start(true)?;
        }
        if let Some(b) = self.blg.take() {
            return b.finish();
        }
        self.reading.take().map_or_else(
            || {
                Err(CaptureError::at_offset(
                    CaptureErrorKind::Empty,
                    0,
                    "nothing was read".into(),
                ))
            },
            |r| r.finish(&self.options),
        )
    }
}

fn nothing_read() -> CaptureError {
    CaptureError::at_offset(CaptureErrorKind::Empty, 0, "nothing was read".into())
}
