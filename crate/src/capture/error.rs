//! A capture reader's refusal: its kind (one stable code per kind, the `code` JS errors carry), what
//! was expected, and where (line and column in text, or byte offset in a binary log).

use serde::{Serialize, Serializer};

/// What kind of input a reader refused. `code()` is the stable text the JS `CaptureError.code` carries
/// (documented in docs/captures.md); the enum is the one place each is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CaptureErrorKind {
    /// Not a perfmon log of any known format.
    NotACapture,
    /// A CSV/TSV header that is not PDH's.
    BadHeader,
    /// A row with another number of cells than the header.
    WrongCellCount,
    /// A cell that should be a number and is not.
    BadNumber,
    /// A time stamp that cannot be read.
    BadTime,
    /// A quoted cell that is not closed or is followed by text.
    BadQuote,
    /// A format or a feature of one that is known but not read.
    Unsupported,
    /// Bytes not valid in the encoding, or an unknown encoding label.
    BadEncoding,
    /// No input at all, or not even a header.
    Empty,
    /// A header (or definitions) but no sample.
    NoRows,
    /// Beyond one of the reader's limits (`capture::limits`).
    TooLarge,
    /// JSON that does not parse, or not in the expected shape.
    BadJson,
    /// A counterlens raw capture that does not follow its schema.
    BadRawCapture,
    /// A raw capture whose registration has errors.
    RegistrationInvalid,
    /// A .blg whose layout is broken: the message names the buffer and event offset.
    BadBlg,
    /// An option of `OpenOptions` that cannot be used (`CaptureError::field` names it).
    InvalidOption,
}

impl CaptureErrorKind {
    /// Every kind, in declaration order.
    pub const ALL: [CaptureErrorKind; 16] = [
        Self::NotACapture,
        Self::BadHeader,
        Self::WrongCellCount,
        Self::BadNumber,
        Self::BadTime,
        Self::BadQuote,
        Self::Unsupported,
        Self::BadEncoding,
        Self::Empty,
        Self::NoRows,
        Self::TooLarge,
        Self::BadJson,
        Self::BadRawCapture,
        Self::RegistrationInvalid,
        Self::BadBlg,
        Self::InvalidOption,
    ];

    /// The stable code of the kind, as JS sees it in `CaptureError.code`.
    ///
    /// ```
    /// use counterlens::capture::CaptureErrorKind;
    /// assert_eq!(CaptureErrorKind::BadBlg.code(), "bad-blg");
    /// assert_eq!(CaptureErrorKind::NotACapture.code(), "not-a-capture");
    /// ```
    pub const fn code(self) -> &'static str {
        match self {
            Self::NotACapture => "not-a-capture",
            Self::BadHeader => "bad-header",
            Self::WrongCellCount => "wrong-cell-count",
            Self::BadNumber => "bad-number",
            Self::BadTime => "bad-time",
            Self::BadQuote => "bad-quote",
            Self::Unsupported => "unsupported",
            Self::BadEncoding => "bad-encoding",
            Self::Empty => "empty",
            Self::NoRows => "no-rows",
            Self::TooLarge => "too-large",
            Self::BadJson => "bad-json",
            Self::BadRawCapture => "bad-raw-capture",
            Self::RegistrationInvalid => "registration-invalid",
            Self::BadBlg => "bad-blg",
            Self::InvalidOption => "invalid-option",
        }
    }
}

impl std::fmt::Display for CaptureErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for CaptureErrorKind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// A reader's refusal: what was expected, and where (line and column in text, or byte offset).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[error("{message}")]
pub struct CaptureError {
    /// Serialised as its stable `code`.
    #[serde(rename = "code")]
    pub kind: CaptureErrorKind,
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub offset: Option<usize>,
    /// The option at fault (`invalid-option`: "series", "from", "to", ...), as JS names it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
}

impl CaptureError {
    /// An error at a line and column of a text capture; the message is prefixed with both.
    pub fn at_line(kind: CaptureErrorKind, line: u32, column: u32, message: String) -> Self {
        CaptureError {
            kind,
            message: format!("line {line}, column {column}: {message}"),
            line: Some(line),
            column: Some(column),
            offset: None,
            field: None,
        }
    }
    /// An error at a byte offset; the message is prefixed with it.
    pub fn at_offset(kind: CaptureErrorKind, offset: usize, message: String) -> Self {
        CaptureError {
            kind,
            message: format!("byte {offset}: {message}"),
            line: None,
            column: None,
            offset: Some(offset),
            field: None,
        }
    }
    /// An option that cannot be used: `field` as JS names it (`options.<field>`), and why.
    pub fn invalid_option(field: &'static str, message: String) -> Self {
        CaptureError {
            kind: CaptureErrorKind::InvalidOption,
            message: format!("options.{field}: {message}"),
            line: None,
            column: None,
            offset: None,
            field: Some(field),
        }
    }
    /// The stable code of the error's kind (`self.kind.code()`).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_in_kebab_case() {
        let codes: Vec<&str> = CaptureErrorKind::ALL.iter().map(|k| k.code()).collect();
        let mut sorted = codes.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), codes.len(), "{codes:?}");
        assert!(codes
            .iter()
            .all(|c| c.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')));
    }

    #[test]
    fn an_error_serialises_its_code() {
        let e = CaptureError::at_offset(CaptureErrorKind::TooLarge, 7, "x".into());
        let json = serde_json::to_string(&e).unwrap();
        assert!(
            json.starts_with(r#"{"code":"too-large","message":"byte 7: x""#),
            "{json}"
        );
    }
}
