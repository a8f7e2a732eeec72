//! Bytes to text. A byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE); otherwise valid UTF-8 is
//! UTF-8; otherwise chardetng guesses the Windows code page from the bytes (cp1252, cp1251, ...), as
//! files written with a machine's ANSI code page carry non-ASCII machine and instance names. An
//! explicit encoding label overrides all of it. encoding_rs decodes, chunk by chunk.

use super::{CaptureError, CaptureErrorKind};
use encoding_rs::{Decoder, Encoding, UTF_8};

/// How many leading bytes detection looks at: the header line, where the names are, and more.
pub const SNIFF_BYTES: usize = 64 << 10;

/// The encoding of a text that starts with `head` (the first bytes; all of them if shorter).
/// `complete` says whether `head` is the whole input.
pub fn detect(
    head: &[u8],
    label: Option<&str>,
    complete: bool,
) -> Result<&'static Encoding, CaptureError> {
    if let Some(l) = label {
        return Encoding::for_label(l.trim().as_bytes()).ok_or_else(|| {
            CaptureError::at_offset(CaptureErrorKind::BadEncoding, 0, format!("{l:?} is not an encoding label (try \"utf-8\", \"utf-16le\", \"windows-1252\")"))
        });
    }
    if let Some((enc, _)) = Encoding::for_bom(head) {
        return Ok(enc);
    }
    // UTF-8 when valid (a multi-byte character cut at the end of `head` is still valid UTF-8).
    match std::str::from_utf8(head) {
        Ok(_) => return Ok(UTF_8),
        Err(e) if e.error_len().is_none() && !complete => return Ok(UTF_8),
        Err(_) => {}
    }
    // Perf logs are Windows text: no ISO-2022-JP; UTF-8 was ruled out above.
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(head, complete);
    Ok(detector.guess(None, chardetng::Utf8Detection::Deny))
}

/// A streaming decoder to UTF-8 that strips a BOM. For UTF-8 input nothing needs converting, and the
/// reader skips this decoder altogether.
pub struct TextDecoder {
    decoder: Decoder,
}

impl TextDecoder {
    pub fn new(enc: &'static Encoding) -> Self {
        TextDecoder {
            decoder: enc.new_decoder_with_bom_removal(),
        }
    }

    /// Appends the text of `bytes` to `out`; `last` on the final chunk. Malformed sequences become
    /// U+FFFD, which a reader then reports where it matters (in a number, say).
    pub fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        let need = self
            .decoder
            .max_utf8_buffer_length(bytes.len())
            .unwrap_or(bytes.len() * 3 + 16);
        out.reserve(need);
        let (_, _, _) = self.decoder.decode_to_string(bytes, out, last);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boms_utf8_and_code_pages() {
        assert_eq!(
            detect(b"\xEF\xBB\xBF\"(PDH-CSV", None, true)
                .unwrap()
                .name(),
            "UTF-8"
        );
        assert_eq!(
            detect(b"\xFF\xFE\"\x00(\x00", None, true).unwrap().name(),
            "UTF-16LE"
        );
        assert_eq!(
            detect(b"\xFE\xFF\x00\"\x00(", None, true).unwrap().name(),
            "UTF-16BE"
        );
        assert_eq!(
            detect("\"\\\\SERVEUR-ÉTÉ\"".as_bytes(), None, true)
                .unwrap()
                .name(),
            "UTF-8"
        );
        // "\\СЕРВЕР\Процессор" in cp1251: not UTF-8; chardetng names the Cyrillic code page.
        let (cp1251, _, _) = encoding_rs::WINDOWS_1251
            .encode("\"\\\\СЕРВЕР\\Процессор(_Total)\\% загруженности процессора\"");
        assert_eq!(detect(&cp1251, None, true).unwrap().name(), "windows-1251");
        let (cp1252, _, _) = encoding_rs::WINDOWS_1252
            .encode("\"\\\\SERVEUR-ÉTÉ\\Processeur(_Total)\\% temps processeur\" réseau café");
        assert_eq!(detect(&cp1252, None, true).unwrap().name(), "windows-1252");
        assert_eq!(
            detect(b"abc", Some("latin1"), true).unwrap().name(),
            "windows-1252"
        );
        assert_eq!(
            detect(b"abc", Some("klingon"), true).unwrap_err().kind,
            CaptureErrorKind::BadEncoding
        );
    }

    #[test]
    fn decoding_in_chunks_strips_the_bom_and_joins_split_characters() {
        // UTF-16LE with a BOM, cut every 3 bytes: characters and the BOM straddle chunk boundaries.
        let bytes: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("a€b".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let mut d = TextDecoder::new(detect(&bytes, None, true).unwrap());
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            d.decode(chunk, &mut out, false);
        }
        d.decode(&[], &mut out, true);
        assert_eq!(out, "a€b");
    }
}
