//! Bytes to text. A byte-order mark decides (UTF-8, UTF-16LE, UTF-16BE); otherwise the text around the
//! first non-ASCII byte decides ([`detection_window`]: plain ASCII reads the same in every candidate):
//! valid UTF-8 is UTF-8, else the Windows code page is guessed from the bytes (cp1252, cp1251,
//! Shift_JIS, ...), as files written with a machine's ANSI code page carry non-ASCII machine and instance
//! names, or a Data Collector Set's description at the end of a long header. An explicit
//! encoding label (WHATWG Encoding Standard, "Names and labels") overrides all of it.
//!
//! UTF-8 and UTF-16 are decoded here. The legacy encodings (the Encoding Standard's single-byte and CJK
//! ones) are decoded by a [`LegacyText`] the embedder supplies, so the wasm module does not carry their
//! tables: the wasm binding layer installs the host's `TextDecoder`, which decodes every one of them;
//! native builds use encoding_rs (cargo feature `encoding_rs`, on by default). Detection is the same in
//! both: [`guess_legacy`] scores the text decoded in each likely Windows code page (a few hundred lines
//! of rules, no tables), so a file reads in the same encoding in the CLI and in the browser.

use super::{CaptureError, CaptureErrorKind};
use std::sync::OnceLock;

/// How many leading bytes detection looks at: the header line, where the names are, and more.
pub const SNIFF_BYTES: usize = 64 << 10;

/// How many ASCII bytes before the first non-ASCII one detection also looks at (the rest of its word).
pub const DETECTION_CONTEXT: usize = 256;

/// The bytes of `text` that decide its encoding when no byte-order mark or label does: around its first
/// non-ASCII byte, at `first` (ASCII reads the same in every candidate, so the bytes before say nothing):
/// `DETECTION_CONTEXT` bytes before it and `SNIFF_BYTES` from it, as far as `text` goes. `text` starts at
/// a line start at or before that byte: the one-pass reader and the parallel plan both hold the line.
pub fn detection_window(text: &[u8], first: usize) -> std::ops::Range<usize> {
    first.saturating_sub(DETECTION_CONTEXT)..text.len().min(first.saturating_add(SNIFF_BYTES))
}

/// A text encoding, by its name in the WHATWG Encoding Standard as encoding_rs spells it ("UTF-8",
/// "UTF-16LE", "windows-1251", "Shift_JIS").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoding(&'static str);

/// Every encoding of the WHATWG Encoding Standard ("Names and labels") but "replacement", which decodes
/// nothing.
const NAMES: [&str; 39] = [
    "UTF-8",
    "IBM866",
    "ISO-8859-2",
    "ISO-8859-3",
    "ISO-8859-4",
    "ISO-8859-5",
    "ISO-8859-6",
    "ISO-8859-7",
    "ISO-8859-8",
    "ISO-8859-8-I",
    "ISO-8859-10",
    "ISO-8859-13",
    "ISO-8859-14",
    "ISO-8859-15",
    "ISO-8859-16",
    "KOI8-R",
    "KOI8-U",
    "macintosh",
    "windows-874",
    "windows-1250",
    "windows-1251",
    "windows-1252",
    "windows-1253",
    "windows-1254",
    "windows-1255",
    "windows-1256",
    "windows-1257",
    "windows-1258",
    "x-mac-cyrillic",
    "GBK",
    "gb18030",
    "Big5",
    "EUC-JP",
    "ISO-2022-JP",
    "Shift_JIS",
    "EUC-KR",
    "UTF-16BE",
    "UTF-16LE",
    "x-user-defined",
];

impl Encoding {
    pub const UTF_8: Encoding = Encoding("UTF-8");
    pub const UTF_16LE: Encoding = Encoding("UTF-16LE");
    pub const UTF_16BE: Encoding = Encoding("UTF-16BE");

    /// Every encoding, by the names `name()` gives (the WHATWG Encoding Standard's but "replacement").
    pub fn all() -> impl Iterator<Item = Encoding> {
        NAMES.iter().map(|n| Encoding(n))
    }

    /// The encoding of a WHATWG name in any case ("windows-1251", "shift_jis"); `None` for other text.
    pub fn from_name(name: &str) -> Option<Encoding> {
        NAMES
            .iter()
            .find(|n| n.eq_ignore_ascii_case(name))
            .map(|n| Encoding(n))
    }

    /// The encoding a WHATWG label stands for ("latin1" is windows-1252); `None` when it is no label
    /// (or "replacement").
    pub fn for_label(label: &str) -> Option<Encoding> {
        let l = label.trim_matches(|c: char| c.is_ascii_whitespace());
        match l.to_ascii_lowercase().as_str() {
            "unicode-1-1-utf-8" | "unicode11utf8" | "unicode20utf8" | "utf-8" | "utf8"
            | "x-unicode20utf8" => Some(Encoding::UTF_8),
            "csunicode" | "iso-10646-ucs-2" | "ucs-2" | "unicode" | "unicodefeff" | "utf-16"
            | "utf-16le" => Some(Encoding::UTF_16LE),
            "unicodefffe" | "utf-16be" => Some(Encoding::UTF_16BE),
            _ => legacy()?.resolve(l).and_then(|n| Encoding::from_name(&n)),
        }
    }

    pub fn name(self) -> &'static str {
        self.0
    }

    fn is_utf16(self) -> bool {
        self == Encoding::UTF_16LE || self == Encoding::UTF_16BE
    }

    /// Two bytes per character (for sizing columns from an input size).
    pub fn is_wide(self) -> bool {
        self.is_utf16()
    }
}

/// Decodes the legacy encodings: everything but UTF-8 and UTF-16.
pub trait LegacyText: Sync {
    /// The WHATWG name (any case) that a label stands for; `None` when it is not a label.
    fn resolve(&self, label: &str) -> Option<String>;
    /// A streaming decoder for `encoding` (never UTF-8 or UTF-16, which this module decodes).
    fn decoder(&self, encoding: Encoding) -> Box<dyn ChunkDecoder>;
    /// The legacy encoding `head` is most likely in (it is not valid UTF-8); `complete` when `head` is
    /// the whole input. By default [`guess_legacy`].
    fn guess(&self, head: &[u8], complete: bool) -> Encoding {
        guess_legacy(self, head, complete)
    }
}

/// A streaming decoder to UTF-8.
pub trait ChunkDecoder {
    /// Appends the text of `bytes` to `out`; `last` on the final chunk. Malformed sequences become
    /// U+FFFD.
    fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool);
}

static LEGACY: OnceLock<&'static dyn LegacyText> = OnceLock::new();

/// Installs the decoder of legacy encodings (the wasm binding layer installs the host's `TextDecoder`).
/// The first one installed stays.
pub fn install_legacy_text(legacy: &'static dyn LegacyText) {
    let _ = LEGACY.set(legacy);
}

/// The installed decoder of legacy encodings, else encoding_rs when built in.
fn legacy() -> Option<&'static dyn LegacyText> {
    if let Some(l) = LEGACY.get() {
        return Some(*l);
    }
    #[cfg(feature = "encoding_rs")]
    {
        Some(&native::EncodingRs)
    }
    #[cfg(not(feature = "encoding_rs"))]
    {
        None
    }
}

fn no_decoder(name: &str) -> CaptureError {
    CaptureError::at_offset(
        CaptureErrorKind::BadEncoding,
        0,
        format!(
            "{name} text cannot be decoded here: this build has no decoder for legacy encodings"
        ),
    )
}

/// The encoding of a text that starts with `head` (the first bytes; all of them if shorter).
/// `complete` says whether `head` is the whole input.
pub fn detect(head: &[u8], label: Option<&str>, complete: bool) -> Result<Encoding, CaptureError> {
    if let Some(l) = label {
        return Encoding::for_label(l).ok_or_else(|| {
            CaptureError::at_offset(CaptureErrorKind::BadEncoding, 0, format!("{l:?} is not an encoding label (try \"utf-8\", \"utf-16le\", \"windows-1252\")"))
        });
    }
    if head.starts_with(b"\xEF\xBB\xBF") {
        return Ok(Encoding::UTF_8);
    }
    if head.starts_with(b"\xFF\xFE") {
        return Ok(Encoding::UTF_16LE);
    }
    if head.starts_with(b"\xFE\xFF") {
        return Ok(Encoding::UTF_16BE);
    }
    // UTF-8 when valid (a multi-byte character cut at the end of `head` is still valid UTF-8).
    match std::str::from_utf8(head) {
        Ok(_) => return Ok(Encoding::UTF_8),
        Err(e) if e.error_len().is_none() && !complete => return Ok(Encoding::UTF_8),
        Err(_) => {}
    }
    let l = legacy().ok_or_else(|| no_decoder("non-UTF-8"))?;
    Ok(l.guess(head, complete))
}

/// The Windows ANSI code pages and the CJK encodings a perf log is written in, in the order a tie goes.
const CANDIDATES: [&str; 14] = [
    "windows-1252",
    "windows-1250",
    "windows-1251",
    "windows-1253",
    "windows-1254",
    "windows-1257",
    "windows-1255",
    "windows-1256",
    "windows-1258",
    "windows-874",
    "Shift_JIS",
    "EUC-KR",
    "GBK",
    "Big5",
];

/// Detection without tables: `head` decoded in each of [`CANDIDATES`] and scored by how much the text
/// looks like words of one script. Decoding errors and C1 controls weigh heavily against; words of
/// one non-Latin script, or Latin words with a few accented letters, count for; words that mix scripts,
/// change case in the middle (`прОцессор`), or string accented Latin letters together without an
/// unaccented one (`Ïðîöåññîð`: Cyrillic read as cp1252) count against. The highest score wins.
pub fn guess_legacy<L: LegacyText + ?Sized>(legacy: &L, head: &[u8], complete: bool) -> Encoding {
    let mut best = (i64::MIN, Encoding("windows-1252"));
    for name in CANDIDATES {
        let enc = Encoding(name);
        let mut text = String::new();
        legacy.decoder(enc).decode(head, &mut text, complete);
        let s = score(&text);
        if s > best.0 {
            best = (s, enc);
        }
    }
    best.1
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Greek,
    Cyrillic,
    Hebrew,
    Arabic,
    Thai,
    /// Han and kana: one character from two bytes.
    Cjk,
    /// Hangul: one syllable from two bytes. Apart from Han, so that Chinese read as EUC-KR (Hangul and
    /// Hanja mixed in one word) loses to GBK.
    Hangul,
    Other,
}

fn script(c: char) -> Script {
    match c as u32 {
        0xC0..=0x24F | 0x1E00..=0x1EFF => Script::Latin,
        0x370..=0x3FF => Script::Greek,
        0x400..=0x52F => Script::Cyrillic,
        0x590..=0x5FF => Script::Hebrew,
        0x600..=0x6FF => Script::Arabic,
        0xE00..=0xE7F => Script::Thai,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF => Script::Cjk,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xAC00..=0xD7AF => Script::Hangul,
        _ => Script::Other,
    }
}

/// The plausibility of `text` as words (see [`guess_legacy`]).
fn score(text: &str) -> i64 {
    let mut total = 0i64;
    // The current word: ASCII letters, letters of one other script, accented Latin letters.
    let (mut ascii, mut other, mut latin, mut mixed, mut flips) = (0i64, 0i64, 0i64, false, 0i64);
    let mut word_script: Option<Script> = None;
    let mut prev_lower = false;
    // Runs of kana: Japanese writes words in them (Shift_JIS bytes read as GBK give rare Han characters
    // instead); other text read in the wrong code page gives a kana here and there at most (Korean read
    // as Big5: "ビ萄錚橫"), so each kana after a kana counts twice.
    let (mut kana, mut prev_kana) = (0i64, false);
    let end_word =
        |ascii: i64, other: i64, latin: i64, mixed: bool, flips: i64, s: Option<Script>| {
            let mut w = -3 * flips;
            if mixed {
                w -= 2 * (other + latin);
            } else if other > 0 {
                // Per byte, two-byte characters count as much as single-byte letters; little when inside a
                // word of ASCII letters (`B絜dy`: Polish cp1250 read as GBK).
                w += if matches!(s, Some(Script::Cjk | Script::Hangul)) {
                    if ascii > 0 {
                        other
                    } else {
                        4 * other
                    }
                } else {
                    2 * other
                };
            } else if latin > 0 {
                w += if ascii == 0 && latin >= 3 {
                    -latin
                } else {
                    2 * latin
                };
            }
            w
        };
    for c in text.chars() {
        let is_kana = ('\u{3041}'..='\u{30FA}').contains(&c) || c == '\u{30FC}';
        if is_kana && prev_kana {
            kana += 1;
        }
        prev_kana = is_kana;
        if c.is_alphabetic() {
            let lower = c.is_lowercase();
            if c.is_uppercase() && prev_lower {
                flips += 1;
            }
            prev_lower = lower;
            if c.is_ascii() {
                ascii += 1;
                if word_script.is_some_and(|s| !matches!(s, Script::Cjk | Script::Hangul))
                    && other > 0
                {
                    mixed = true;
                }
                continue;
            }
            match script(c) {
                // Icelandic letters: what Turkish (cp1254) text shows read as cp1252.
                Script::Latin if matches!(c, 'Ð' | 'ð' | 'Þ' | 'þ' | 'Ý' | 'ý') => {
                    ascii += 1;
                    mixed |= other > 0;
                }
                Script::Latin => {
                    latin += 1;
                    mixed |= other > 0;
                }
                Script::Other => {
                    other += 1;
                    mixed = true;
                }
                s => {
                    other += 1;
                    mixed |= latin > 0
                        || word_script.is_some_and(|w| w != s)
                        || (ascii > 0 && !matches!(s, Script::Cjk | Script::Hangul));
                    word_script = Some(s);
                }
            }
            continue;
        }
        if ascii + other + latin > 0 {
            total += end_word(ascii, other, latin, mixed, flips, word_script);
            (ascii, other, latin, mixed, flips, word_script) = (0, 0, 0, false, 0, None);
        }
        prev_lower = false;
        total -= match c as u32 {
            0..=0x7F => 0,
            // Decoding errors, C1 controls, private use: not text.
            0xFFFD | 0x80..=0x9F | 0xE000..=0xF8FF => 50,
            // Half-width katakana: single bytes read as Shift_JIS.
            0xFF61..=0xFF9F => 3,
            // Signs a counter name or value does hold.
            0xA0
            | 0xB0
            | 0xB5
            | 0xA7
            | 0xAB
            | 0xBB
            | 0x2013
            | 0x2014
            | 0x2018
            | 0x2019
            | 0x201C
            | 0x201D
            | 0x2026
            | 0x20AC
            | 0x3000..=0x303F
            | 0xFF01..=0xFF5E => 0,
            _ => 1,
        };
    }
    if ascii + other + latin > 0 {
        total += end_word(ascii, other, latin, mixed, flips, word_script);
    }
    total + 4 * kana
}

/// A streaming decoder to UTF-8 that strips a byte-order mark. For UTF-8 input nothing needs converting,
/// and the reader skips this decoder altogether.
pub struct TextDecoder {
    inner: Inner,
}

enum Inner {
    Utf8 {
        pending: Vec<u8>,
        start: bool,
    },
    Utf16 {
        be: bool,
        /// An odd byte, or a high surrogate waiting for its low one.
        odd: Option<u8>,
        high: Option<u16>,
        start: bool,
    },
    Legacy(Box<dyn ChunkDecoder>),
}

impl TextDecoder {
    pub fn new(enc: Encoding) -> Result<Self, CaptureError> {
        let inner = match enc {
            Encoding::UTF_8 => Inner::Utf8 {
                pending: Vec::new(),
                start: true,
            },
            e if e.is_utf16() => Inner::Utf16 {
                be: e == Encoding::UTF_16BE,
                odd: None,
                high: None,
                start: true,
            },
            e => Inner::Legacy(legacy().ok_or_else(|| no_decoder(e.name()))?.decoder(e)),
        };
        Ok(TextDecoder { inner })
    }

    /// Appends the text of `bytes` to `out`; `last` on the final chunk. Malformed sequences become
    /// U+FFFD, which a reader then reports where it matters (in a number, say).
    pub fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool) {
        match &mut self.inner {
            Inner::Utf8 { pending, start } => {
                let joined;
                let mut src = bytes;
                if !pending.is_empty() {
                    let mut buf = std::mem::take(pending);
                    buf.extend_from_slice(bytes);
                    joined = buf;
                    src = &joined;
                }
                if *start && (src.len() >= 3 || last || !b"\xEF\xBB\xBF".starts_with(src)) {
                    *start = false;
                    src = src.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(src);
                } else if *start {
                    pending.extend_from_slice(src);
                    return;
                }
                loop {
                    match std::str::from_utf8(src) {
                        Ok(s) => {
                            out.push_str(s);
                            break;
                        }
                        Err(e) => {
                            let (ok, rest) = src.split_at(e.valid_up_to());
                            // Valid by construction; `from_utf8_lossy` never fails either.
                            out.push_str(&String::from_utf8_lossy(ok));
                            match e.error_len() {
                                Some(n) => {
                                    out.push('\u{FFFD}');
                                    src = &rest[n..];
                                }
                                None if last => {
                                    out.push('\u{FFFD}');
                                    break;
                                }
                                None => {
                                    *pending = rest.to_vec();
                                    break;
                                }
                            }
                        }
                    }
                }
            }
            Inner::Utf16 {
                be,
                odd,
                high,
                start,
            } => {
                out.reserve(bytes.len() / 2 * 3 + 4);
                let mut unit = |u: u16, out: &mut String| {
                    if std::mem::take(start) && u == 0xFEFF {
                        return;
                    }
                    if let Some(h) = high.take() {
                        if (0xDC00..0xE000).contains(&u) {
                            let c =
                                0x10000 + ((u32::from(h) - 0xD800) << 10) + (u32::from(u) - 0xDC00);
                            out.push(char::from_u32(c).unwrap_or('\u{FFFD}'));
                            return;
                        }
                        out.push('\u{FFFD}');
                    }
                    match u {
                        0xD800..=0xDBFF => *high = Some(u),
                        0xDC00..=0xDFFF => out.push('\u{FFFD}'),
                        u => out.push(char::from_u32(u32::from(u)).unwrap_or('\u{FFFD}')),
                    }
                };
                let join = |a: u8, b: u8| {
                    if *be {
                        u16::from_be_bytes([a, b])
                    } else {
                        u16::from_le_bytes([a, b])
                    }
                };
                let mut src = bytes;
                if let (Some(a), Some(&b)) = (*odd, src.first()) {
                    *odd = None;
                    unit(join(a, b), out);
                    src = &src[1..];
                }
                let mut pairs = src.chunks_exact(2);
                for p in &mut pairs {
                    unit(join(p[0], p[1]), out);
                }
                if let [b] = pairs.remainder() {
                    *odd = Some(*b);
                }
                if last {
                    if high.take().is_some() {
                        out.push('\u{FFFD}');
                    }
                    if odd.take().is_some() {
                        out.push('\u{FFFD}');
                    }
                }
            }
            Inner::Legacy(d) => d.decode(bytes, out, last),
        }
    }
}

#[cfg(feature = "encoding_rs")]
mod native {
    //! encoding_rs decodes natively; detection is `guess_legacy`'s, as in wasm, so a file reads in the
    //! same encoding in the CLI and in the browser.
    use super::{ChunkDecoder, Encoding, LegacyText};

    pub struct EncodingRs;

    struct Decoder(encoding_rs::Decoder);

    impl ChunkDecoder for Decoder {
        fn decode(&mut self, bytes: &[u8], out: &mut String, last: bool) {
            let need = self
                .0
                .max_utf8_buffer_length(bytes.len())
                .unwrap_or(bytes.len() * 3 + 16);
            out.reserve(need);
            let (_, _, _) = self.0.decode_to_string(bytes, out, last);
        }
    }

    impl LegacyText for EncodingRs {
        fn resolve(&self, label: &str) -> Option<String> {
            encoding_rs::Encoding::for_label(label.as_bytes()).map(|e| e.name().to_string())
        }
        fn decoder(&self, encoding: Encoding) -> Box<dyn ChunkDecoder> {
            let e = encoding_rs::Encoding::for_label(encoding.name().as_bytes())
                .unwrap_or(encoding_rs::WINDOWS_1252);
            Box::new(Decoder(e.new_decoder_with_bom_removal()))
        }
    }
}

#[cfg(all(test, feature = "encoding_rs"))]
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
            detect(b"abc", Some(" UTF-16 "), true).unwrap().name(),
            "UTF-16LE"
        );
        assert_eq!(
            detect(b"abc", Some("klingon"), true).unwrap_err().kind,
            CaptureErrorKind::BadEncoding
        );
    }

    /// The table-free detector the wasm build uses, with encoding_rs decoding the candidates (as the
    /// host's TextDecoder does in wasm): each text encoded in its code page must come back as that one.
    #[test]
    fn the_light_detector_names_the_code_page() {
        let cases: [(&'static encoding_rs::Encoding, &str); 9] = [
            (encoding_rs::WINDOWS_1251, "\"\\\\СЕРВЕР\\Процессор(_Total)\\% загруженности процессора\""),
            (encoding_rs::WINDOWS_1252, "\"\\\\SERVEUR-ÉTÉ\\Processeur(_Total)\\% temps processeur\" réseau café"),
            (encoding_rs::WINDOWS_1250, "\"\\\\SERWER\\Interfejs sieciowy(*)\\Błędy odebranych pakietów\",\"\\\\SERWER\\Procesor(_Total)\\% czasu procesora\""),
            (encoding_rs::WINDOWS_1253, "\"\\\\ΔΙΑΚΟΜΙΣΤΗΣ\\Επεξεργαστής(_Total)\\% χρόνος επεξεργαστή\""),
            (encoding_rs::WINDOWS_1254, "\"\\\\SUNUCU\\İşlemci(_Total)\\% İşlemci Zamanı\",\"\\\\SUNUCU\\Bellek\\Kullanılabilir MBayt\""),
            (encoding_rs::SHIFT_JIS, "\"\\\\サーバー\\プロセッサ(_Total)\\% プロセッサ時間\",\"\\\\サーバー\\メモリ\\使用可能メモリ\""),
            (encoding_rs::GBK, "\"\\\\服务器\\处理器(_Total)\\% 处理器时间\",\"\\\\服务器\\内存\\可用字节\""),
            (encoding_rs::EUC_KR, "\"\\\\서버\\프로세서(_Total)\\% 프로세서 시간\",\"\\\\서버\\메모리\\사용 가능한 메모리\""),
            // Traditional Chinese (Taiwan): GBK's code space contains Big5's, so these bytes also read as
            // GBK without an error; the characters a wrong reading gives score lower.
            (encoding_rs::BIG5, "\"\\\\伺服器\\處理器(_Total)\\% 處理器時間\",\"\\\\伺服器\\記憶體\\可用位元組\""),
        ];
        let mut wrong = Vec::new();
        for (enc, text) in cases {
            let (bytes, _, _) = enc.encode(text);
            let got = guess_legacy(&native::EncodingRs, &bytes, true);
            if got.name() != enc.name() {
                wrong.push(format!("{text}: {} read as {}", enc.name(), got.name()));
            }
        }
        // The shared vector (a relog CSV written in cp1251).
        let vector = include_bytes!("../../../tests/vectors/captures/cp1251.csv");
        let got = guess_legacy(&native::EncodingRs, vector, true);
        if got.name() != "windows-1251" {
            wrong.push(format!("cp1251.csv read as {}", got.name()));
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    #[test]
    fn decoding_in_chunks_strips_the_bom_and_joins_split_characters() {
        // UTF-16LE with a BOM, cut every 3 bytes: characters and the BOM straddle chunk boundaries.
        let bytes: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("a€b😀".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        let mut d = TextDecoder::new(detect(&bytes, None, true).unwrap()).unwrap();
        let mut out = String::new();
        for chunk in bytes.chunks(3) {
            d.decode(chunk, &mut out, false);
        }
        d.decode(&[], &mut out, true);
        assert_eq!(out, "a€b😀");
        // UTF-8 with a BOM, cut every byte; then a lone byte 0xFF and a cut sequence at the end.
        let mut d = TextDecoder::new(Encoding::UTF_8).unwrap();
        let mut out = String::new();
        for b in b"\xEF\xBB\xBFa\xE2\x82\xACb\xFFc\xE2\x82" {
            d.decode(&[*b], &mut out, false);
        }
        d.decode(&[], &mut out, true);
        assert_eq!(out, "a€b\u{FFFD}c\u{FFFD}");
        // UTF-16BE: a lone low surrogate, a high one at the end, and an odd last byte.
        let mut d = TextDecoder::new(Encoding::UTF_16BE).unwrap();
        let mut out = String::new();
        d.decode(b"\x00a\xDC\x00\x00b\xD8\x3D", &mut out, false);
        d.decode(b"\x00", &mut out, true);
        assert_eq!(out, "a\u{FFFD}b\u{FFFD}\u{FFFD}");
    }
}
