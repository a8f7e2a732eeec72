//! `CaptureReader`: a capture pushed in chunks of any size (a 500 MB file read in slices in a Worker)
//! gives the same capture as the whole file at once, and never holds a second copy of the input.
//!
//! The first 64 KiB (or everything, if less) decide the encoding and the format. UTF-8 text is split
//! into lines in place; other encodings are decoded chunk by chunk first. Only the incomplete last
//! line of a chunk is carried over to the next. A binary perfmon log (.blg) is recognised from its bytes
//! before any decoding and handed to its reader, which reads each buffer as it completes.

use super::blg::{looks_like_blg, BlgReader};
use super::limits::{MAX_JSON, MAX_LINE};
use super::pdh_csv::CsvParser;
use super::text::{detect, Encoding, TextDecoder, SNIFF_BYTES};
use super::{sniff, Capture, CaptureEncoding, CaptureError, CaptureErrorKind, Format, OpenOptions};

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
}

pub struct CaptureReader {
    options: OpenOptions,
    /// Bytes held until there are enough to detect the encoding and format.
    head: Vec<u8>,
    reading: Option<Reading>,
    blg: Option<BlgReader>,
    bytes: usize,
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
            "expected UTF-8 text (the encoding detected from the start of the file)".into(),
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

    fn push(&mut self, chunk: &[u8]) -> Result<(), CaptureError> {
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
    fn finish_json(mut self, format: Format) -> Result<Capture, CaptureError> {
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
        Ok(c)
    }

    fn finish(mut self) -> Result<Capture, CaptureError> {
        if let Parser::Json(format) = self.parser {
            return self.finish_json(format);
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
            Parser::Csv(p) => p.finish(self.encoding),
            Parser::Json(format) => self.finish_json(format), // returned above; correct all the same
        }
    }
}

impl CaptureReader {
    pub fn new(options: &OpenOptions) -> Result<CaptureReader, CaptureError> {
        if let Some(l) = &options.encoding {
            detect(b"", Some(l), true)?; // an unknown label fails now, not at the first chunk
        }
        Ok(CaptureReader {
            options: options.clone(),
            head: Vec::new(),
            reading: None,
            blg: None,
            bytes: 0,
        })
    }

    /// Bytes pushed so far.
    pub fn bytes(&self) -> usize {
        self.bytes
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
            if let Some(size) = self.options.size_hint {
                blg.expect_bytes(size);
            }
            blg.keep_raw(self.options.keep_raw.clone());
            blg.push(&head)?;
            self.blg = Some(blg);
            return Ok(());
        }
        let encoding = detect(
            &head[..head.len().min(SNIFF_BYTES)],
            self.options.encoding.as_deref(),
            complete,
        )?;
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
        if let (Parser::Csv(p), Some(size)) = (&mut parser, self.options.size_hint) {
            // Rows are measured in UTF-8 bytes: UTF-16 input holds about two bytes per character.
            p.expect_bytes(if encoding.is_wide() { size / 2 } else { size });
        }
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
            Reading::finish,
        )
    }
}
