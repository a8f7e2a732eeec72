//! Counter-set registration: one model (a counter set and its counters, with names where the input has
//! them and where each field came from), three readers into it, and the validator.
//!
//! | file | concept |
//! |---|---|
//! | `mod.rs` | the model, diagnostics, the report, and `validate_registration` (sniff, read, validate) |
//! | `code.rs` | `DiagnosticCode`: every diagnostic's stable code, one variant each |
//! | `rules.rs` | every rule of docs/registration-rules.md, each with its stable code |
//! | `binary.rs` | PERF_COUNTERSET_REG_INFO / PERF_COUNTER_REG_INFO blocks, as bytes or as hex text |
//! | `json.rs` | the JSON form (docs/registration-rules.md, "JSON form"), with line and column |
//! | `manifest.rs` | instrumentation manifests (`<counters>` of counterman.xsd), with line and column |
//!
//! Readers never fail: what they cannot read becomes a diagnostic (code `parse-error` and the like)
//! with the byte offset or line and column, and whatever they did read is still validated.

mod binary;
mod code;
mod json;
mod manifest;
mod rules;

pub use binary::{encode as encode_binary, parse_hex};
pub use code::DiagnosticCode;
pub use json::to_json;

use serde::Serialize;
use std::fmt;

/// "No counter" in BaseCounterId, PerfTimeId, PerfFreqId and MultiId (perflib.h).
pub const NO_COUNTER: u32 = 0xFFFF_FFFF;
/// Counters a set may hold (perflib.h).
pub const MAX_COUNTERS: usize = 64_000;

/// The counter-set instance types (perflib.h PERF_COUNTERSET_*): value, perflib name, and the
/// manifest's `instances` attribute for it (PERF_COUNTERSET_INSTANCE_AGGREGATE has none: it is
/// documented as not implemented).
pub const INSTANCE_TYPES: &[(u32, &str, Option<&str>)] = &[
    (0x00, "PERF_COUNTERSET_SINGLE_INSTANCE", Some("single")),
    (0x02, "PERF_COUNTERSET_MULTI_INSTANCES", Some("multiple")),
    (
        0x04,
        "PERF_COUNTERSET_SINGLE_AGGREGATE",
        Some("globalAggregate"),
    ),
    (
        0x06,
        "PERF_COUNTERSET_MULTI_AGGREGATE",
        Some("multipleAggregate"),
    ),
    (
        0x0C,
        "PERF_COUNTERSET_SINGLE_AGGREGATE_HISTORY",
        Some("globalAggregateHistory"),
    ),
    (0x16, "PERF_COUNTERSET_INSTANCE_AGGREGATE", None),
];
/// Counter sets one input may hold before reading stops (a bound on work, not a Windows rule).
pub const MAX_SETS: usize = 1024;

/// A counter-set GUID, stored as its 16 bytes in the binary (little-endian Data1..3) order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Guid(pub [u8; 16]);

impl Guid {
    pub fn is_zero(&self) -> bool {
        self.0 == [0; 16]
    }

    /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, with or without braces, any case.
    pub fn parse(text: &str) -> Option<Guid> {
        let t = text.trim();
        let t = t
            .strip_prefix('{')
            .and_then(|r| r.strip_suffix('}'))
            .unwrap_or(t);
        let parts: Vec<&str> = t.split('-').collect();
        let lens = [8, 4, 4, 4, 12];
        if parts.len() != 5
            || parts
                .iter()
                .zip(lens)
                .any(|(p, l)| p.len() != l || !p.bytes().all(|b| b.is_ascii_hexdigit()))
        {
            return None;
        }
        let d1 = u32::from_str_radix(parts[0], 16).ok()?;
        let d2 = u16::from_str_radix(parts[1], 16).ok()?;
        let d3 = u16::from_str_radix(parts[2], 16).ok()?;
        let tail = format!("{}{}", parts[3], parts[4]);
        let mut b = [0u8; 16];
        b[..4].copy_from_slice(&d1.to_le_bytes());
        b[4..6].copy_from_slice(&d2.to_le_bytes());
        b[6..8].copy_from_slice(&d3.to_le_bytes());
        for i in 0..8 {
            b[8 + i] = u8::from_str_radix(&tail[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(Guid(b))
    }
}

/// Registry form: lower case, no braces.
impl fmt::Display for Guid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = &self.0;
        let d1 = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let d2 = u16::from_le_bytes([b[4], b[5]]);
        let d3 = u16::from_le_bytes([b[6], b[7]]);
        write!(f, "{d1:08x}-{d2:04x}-{d3:04x}-{:02x}{:02x}-", b[8], b[9])?;
        for x in &b[10..] {
            write!(f, "{x:02x}")?;
        }
        Ok(())
    }
}

/// Where something is in the input: a byte offset always, line and column (1-based) for text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pos {
    pub offset: usize,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl Pos {
    pub fn at(offset: usize) -> Pos {
        Pos {
            offset,
            line: None,
            column: None,
        }
    }
    /// The position of byte `offset` of `text`, with line and column. For one position; many go
    /// through a [`LineIndex`].
    pub fn in_text(text: &str, offset: usize) -> Pos {
        LineIndex::new(text).pos(text, offset)
    }
}

/// Line starts of a text, so that any number of byte offsets become line and column in O(log n)
/// each. Columns count characters; on lines of pure ASCII (almost all) that is the byte difference.
pub struct LineIndex {
    starts: Vec<usize>,
    ascii: Vec<bool>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        let mut ascii = vec![];
        let mut all_ascii = true;
        for (i, b) in text.bytes().enumerate() {
            all_ascii &= b.is_ascii();
            if b == b'\n' {
                starts.push(i + 1);
                ascii.push(all_ascii);
                all_ascii = true;
            }
        }
        ascii.push(all_ascii);
        LineIndex { starts, ascii }
    }

    pub fn pos(&self, text: &str, offset: usize) -> Pos {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = if self.ascii[line] {
            offset - start
        } else {
            text.get(start..offset)
                .map_or(offset - start, |s| s.chars().count())
        };
        Pos {
            offset,
            line: Some(line as u32 + 1),
            column: Some(column as u32 + 1),
        }
    }
}

/// The struct fields, spelled as perflib.h and [MS-PCQ] spell them (the `field` of a diagnostic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    CounterSetGuid,
    CounterSetType,
    DetailLevel,
    NumCounters,
    InstanceType,
    CounterId,
    Type,
    Attrib,
    DefaultScale,
    BaseCounterId,
    PerfTimeId,
    PerfFreqId,
    MultiId,
    AggregateFunc,
    Reserved,
    /// Manifest attributes without a struct field (name, symbol, uri, struct, field, ...).
    Manifest(&'static str),
}

impl Field {
    pub fn as_str(&self) -> &'static str {
        match self {
            Field::CounterSetGuid => "CounterSetGuid",
            Field::CounterSetType => "CounterSetType",
            Field::DetailLevel => "DetailLevel",
            Field::NumCounters => "NumCounters",
            Field::InstanceType => "InstanceType",
            Field::CounterId => "CounterId",
            Field::Type => "Type",
            Field::Attrib => "Attrib",
            Field::DefaultScale => "DefaultScale",
            Field::BaseCounterId => "BaseCounterId",
            Field::PerfTimeId => "PerfTimeId",
            Field::PerfFreqId => "PerfFreqId",
            Field::MultiId => "MultiId",
            Field::AggregateFunc => "AggregateFunc",
            Field::Reserved => "Reserved",
            Field::Manifest(name) => name,
        }
    }
}

/// Where each field of a set or counter was read, for pointing diagnostics at it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans {
    /// The set's or counter's own start (its block, object or element).
    pub start: Pos,
    pub fields: Vec<(Field, Pos)>,
}

impl Spans {
    pub fn of(&self, field: Field) -> Pos {
        self.fields
            .iter()
            .find(|(f, _)| *f == field)
            .map_or(self.start, |(_, p)| *p)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counter {
    /// 0 as a placeholder when `unidentified` is set.
    pub counter_id: u32,
    /// Set when the input gives the counter no valid id (a manifest counter without `id`, or `id="abc"`):
    /// how diagnostics name it instead, e.g. `counter "Bytes/sec" (the 2nd in its set)`. Diagnostics about
    /// it then have no counter id (0 would name a real counter 0 that did nothing wrong).
    pub unidentified: Option<String>,
    pub ty: u32,
    pub attrib: u64,
    pub detail_level: u32,
    pub default_scale: i32,
    /// `None` is "no counter" (0xFFFFFFFF, null or absent).
    pub base_counter_id: Option<u32>,
    pub perf_time_id: Option<u32>,
    pub perf_freq_id: Option<u32>,
    pub multi_id: Option<u32>,
    pub aggregate_func: u32,
    pub reserved: u32,
    pub name: Option<String>,
    pub description: Option<String>,
    pub spans: Spans,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CounterSet {
    /// `None` when the input has no readable GUID (the reader has said why).
    pub guid: Option<Guid>,
    pub counter_set_type: u32,
    pub detail_level: u32,
    /// As declared; `None` when the input does not declare it (JSON may leave it out).
    pub num_counters: Option<u32>,
    pub instance_type: u32,
    pub name: Option<String>,
    pub description: Option<String>,
    pub counters: Vec<Counter>,
    pub spans: Spans,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

/// One finding. `code` is stable and documented in docs/registration-rules.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_set: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_id: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Byte offset in the input (for binary input, of the field itself).
    pub offset: usize,
    pub message: String,
    pub source: &'static str,
    /// How the message names a counter with no valid id (see `Counter::unidentified`); not serialised.
    #[serde(skip)]
    pub unidentified: Option<String>,
}

impl Diagnostic {
    pub fn new(
        code: DiagnosticCode,
        severity: Severity,
        pos: Pos,
        message: String,
        source: &'static str,
    ) -> Self {
        Diagnostic {
            code,
            severity,
            counter_set: None,
            counter_id: None,
            field: None,
            line: pos.line,
            column: pos.column,
            offset: pos.offset,
            message,
            source,
            unidentified: None,
        }
    }
    pub fn in_set(mut self, set: &CounterSet) -> Self {
        self.counter_set = set.guid.map(|g| g.to_string());
        self
    }
    /// About counter `c`: its id, or, when it has no valid one, its name and position in the message.
    pub fn counter(mut self, c: &Counter) -> Self {
        match &c.unidentified {
            None => self.counter_id = Some(c.counter_id),
            Some(label) => self.name_counter(label),
        }
        self
    }
    /// Starts the message with how an unidentified counter is named (once).
    pub fn name_counter(&mut self, label: &str) {
        self.counter_id = None;
        if self.unidentified.is_none() {
            self.message = format!("{label}: {}", self.message);
            self.unidentified = Some(label.to_string());
        }
    }

    pub fn field(mut self, f: Field) -> Self {
        self.field = Some(f.as_str());
        self
    }
}

/// How a diagnostic names a counter that has no valid id: by name when it has one, and by position
/// (`index` from 0 within its set).
pub fn counter_label(name: Option<&str>, index: usize) -> String {
    let n = index + 1;
    let ordinal = match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    };
    let shown: Option<String> = name.map(|s| s.chars().take(60).collect());
    match shown {
        Some(s) => format!("counter {s:?} (the {n}{ordinal} in its set, with no valid id)"),
        None => format!("the {n}{ordinal} counter of its set (no name, no valid id)"),
    }
}

/// The input forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Binary,
    Hex,
    Json,
    Manifest,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "binary" => Some(Format::Binary),
            "hex" => Some(Format::Hex),
            "json" => Some(Format::Json),
            "manifest" => Some(Format::Manifest),
            _ => None,
        }
    }
}

/// A counter of a set as the report summarises it, with references resolved to counter names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CounterSummary {
    /// None for a counter with no valid id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_id: Option<u32>,
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub ty: u32,
    pub type_name: Option<&'static str>,
    pub base: Option<String>,
    pub perf_time: Option<String>,
    pub perf_freq: Option<String>,
    pub multi: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SetSummary {
    pub guid: String,
    pub name: Option<String>,
    pub counters: usize,
    pub instance_type: u32,
    pub detail_level: u32,
    pub counter_list: Vec<CounterSummary>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// The form that was read ("binary", "hex", "json", "manifest").
    pub format: &'static str,
    pub counter_sets: Vec<SetSummary>,
    pub diagnostics: Vec<Diagnostic>,
    pub errors: usize,
    pub warnings: usize,
}

/// The input: bytes (binary blocks, or text in any of the forms) or text.
pub enum Input<'a> {
    Bytes(&'a [u8]),
    Text(&'a str),
}

/// Which form text is in: `<` manifest, `{`/`[` JSON, anything else hex.
fn sniff_text(t: &str) -> Format {
    match t
        .trim_start_matches('\u{feff}')
        .trim_start()
        .as_bytes()
        .first()
    {
        Some(b'<') => Format::Manifest,
        Some(b'{' | b'[') => Format::Json,
        _ => Format::Hex,
    }
}

/// Reads the input in its form (given, or sniffed), validates every counter set, and reports.
///
/// ```
/// use counterlens::registration::{validate_registration, DiagnosticCode, Input};
/// let json = r#"{"counterSets": [{"counterSetGuid": "00000000-0000-0000-0000-000000000000",
///   "name": "Demo", "instanceType": 0, "counters": [
///     {"counterId": 1, "type": "PERF_COUNTER_RAWCOUNT", "name": "Items"}]}]}"#;
/// let report = validate_registration(Input::Text(json), None);
/// assert_eq!(report.format, "json");
/// // An all-zero GUID is reported with its stable code and where it is in the text.
/// let d = report.diagnostics.iter().find(|d| d.code == DiagnosticCode::GuidZero).unwrap();
/// assert_eq!(d.code.as_str(), "guid-zero");
/// assert_eq!(d.line, Some(1));
/// ```
pub fn validate_registration(input: Input<'_>, format: Option<Format>) -> Report {
    read_registration(input, format).1
}

/// As `validate_registration`, and the counter sets read, for callers that go on to use them (the raw
/// capture reader cooks through their references).
pub fn read_registration(input: Input<'_>, format: Option<Format>) -> (Vec<CounterSet>, Report) {
    let mut diags = Vec::new();
    // The text of a JSON or manifest input, whose byte offsets become line and column at the end.
    let mut positioned: Option<&str> = None;
    let (format, sets) = match input {
        Input::Bytes(b) => {
            // Bytes that are UTF-8 text starting like a manifest or JSON are read as that text.
            let text = std::str::from_utf8(b).ok().filter(|t| {
                format.is_some_and(|f| f != Format::Binary) || sniff_text(t) != Format::Hex
            });
            match (format, text) {
                (Some(Format::Binary), _) | (None, None) => {
                    (Format::Binary, binary::read(b, &mut diags))
                }
                (Some(f), None) => {
                    diags.push(Diagnostic::new(
                        DiagnosticCode::ParseError,
                        Severity::Error,
                        Pos::at(0),
                        format!("the input is not UTF-8 text, so it cannot be read as {f:?}"),
                        "counterlens",
                    ));
                    (f, vec![])
                }
                (f, Some(t)) => {
                    let f = f.unwrap_or_else(|| sniff_text(t));
                    positioned = Some(t);
                    (f, read_text(t, f, &mut diags))
                }
            }
        }
        Input::Text(t) => {
            let f = match format.unwrap_or_else(|| sniff_text(t)) {
                Format::Binary => Format::Hex,
                f => f,
            };
            positioned = Some(t);
            (f, read_text(t, f, &mut diags))
        }
    };
    let text = positioned.filter(|_| matches!(format, Format::Json | Format::Manifest));
    let index = text.map(LineIndex::new);
    let place = |offset: usize| match (text, &index) {
        (Some(t), Some(ix)) => {
            let p = ix.pos(t, offset);
            format!(
                "line {}, column {}",
                p.line.unwrap_or(1),
                p.column.unwrap_or(1)
            )
        }
        _ => format!("byte {offset}"),
    };
    rules::validate(&sets, &mut diags, &place);
    if let (Some(t), Some(ix)) = (text, &index) {
        for d in &mut diags {
            let p = ix.pos(t, d.offset);
            (d.line, d.column) = (p.line, p.column);
        }
    }
    // Errors first, then by position, so the list reads top-down within each severity.
    diags.sort_by_key(|d| (d.severity, d.offset));
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags
        .iter()
        .filter(|d| d.severity == Severity::Warning)
        .count();
    let report = Report {
        format: match format {
            Format::Binary => "binary",
            Format::Hex => "hex",
            Format::Json => "json",
            Format::Manifest => "manifest",
        },
        counter_sets: sets.iter().map(summarise).collect(),
        diagnostics: diags,
        errors,
        warnings,
    };
    (sets, report)
}

fn read_text(t: &str, f: Format, diags: &mut Vec<Diagnostic>) -> Vec<CounterSet> {
    match f {
        Format::Json => json::read(t, diags),
        Format::Manifest => manifest::read(t, diags),
        Format::Hex | Format::Binary => match parse_hex(t) {
            Ok(bytes) => binary::read(&bytes, diags),
            Err(d) => {
                diags.push(d);
                vec![]
            }
        },
    }
}

fn summarise(set: &CounterSet) -> SetSummary {
    let name_of = |id: Option<u32>| -> Option<String> {
        let id = id?;
        Some(
            match set
                .counters
                .iter()
                .find(|c| c.counter_id == id && c.unidentified.is_none())
            {
                Some(c) => c.name.clone().unwrap_or_else(|| format!("counter {id}")),
                None => format!("counter {id} (not in the set)"),
            },
        )
    };
    SetSummary {
        guid: set.guid.map(|g| g.to_string()).unwrap_or_default(),
        name: set.name.clone(),
        counters: set.counters.len(),
        instance_type: set.instance_type,
        detail_level: set.detail_level,
        counter_list: set
            .counters
            .iter()
            .map(|c| CounterSummary {
                counter_id: c.unidentified.is_none().then_some(c.counter_id),
                name: c.name.clone(),
                ty: c.ty,
                type_name: crate::types::CounterType::from_value(c.ty).name(),
                base: name_of(c.base_counter_id),
                perf_time: name_of(c.perf_time_id),
                perf_freq: name_of(c.perf_freq_id),
                multi: name_of(c.multi_id),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guids_round_trip_in_registry_form() {
        let g = Guid::parse("{933F3BB3-943E-490D-9CED-3CBB14C14479}").unwrap();
        assert_eq!(g.to_string(), "933f3bb3-943e-490d-9ced-3cbb14c14479");
        // Data1 is little-endian in the 16 bytes: b3 3b 3f 93.
        assert_eq!(&g.0[..4], &[0xb3, 0x3b, 0x3f, 0x93]);
        assert_eq!(Guid::parse("933f3bb3-943e-490d-9ced-3cbb14c14479"), Some(g));
        for bad in [
            "",
            "{933f3bb3-943e-490d-9ced-3cbb14c1447}",
            "933f3bb3943e490d9ced3cbb14c14479",
            "{zzzzzzzz-943e-490d-9ced-3cbb14c14479}",
        ] {
            assert_eq!(Guid::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn positions_count_lines_and_characters() {
        let t = "ab\ncdé f\n";
        assert_eq!(
            Pos::in_text(t, 0),
            Pos {
                offset: 0,
                line: Some(1),
                column: Some(1)
            }
        );
        // 'f' is byte 8 (é takes two bytes) on line 2, the fifth character.
        assert_eq!(
            Pos::in_text(t, 8),
            Pos {
                offset: 8,
                line: Some(2),
                column: Some(5)
            }
        );
    }

    #[test]
    fn sniffing() {
        assert_eq!(sniff_text("  <?xml ..."), Format::Manifest);
        assert_eq!(sniff_text("\u{feff}{\"counterSets\": []}"), Format::Json);
        assert_eq!(sniff_text("[{}]"), Format::Json);
        assert_eq!(sniff_text("b3 3b 3f 93"), Format::Hex);
    }
}
