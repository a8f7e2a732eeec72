//! The JSON form: `{"counterSets": [set, ...]}`, a bare set, or an array of sets. Keys are the struct
//! fields in camelCase (PascalCase too: keys match without regard to case). jsonc-parser keeps the
//! position of every value, so each diagnostic points at the line and column of what it is about.

use super::{
    counter_label, Counter, CounterSet, Diagnostic, DiagnosticCode, Field, Guid, Pos, Severity,
    Spans, MAX_SETS, NO_COUNTER,
};
use crate::types::{parse_type, CounterType};
use jsonc_parser::ast::{Object, Value};
use jsonc_parser::{parse_to_ast, CollectOptions, CommentCollectionStrategy, ParseOptions};

const SRC: &str = "counterlens JSON form";
/// Largest JSON text read (about 200 000 counters' worth): larger input is refused before parsing.
pub const MAX_TEXT: usize = 64 << 20;
/// Deepest nesting of arrays and objects: the form needs 4; the parser recurses per level.
pub const MAX_DEPTH: usize = 64;
/// Most JSON objects read: three sets of 64,000 counters and change. The position-keeping tree costs
/// about 900 bytes per counter object (measured: 880 MB for a million), so this bounds it near 200 MB.
pub const MAX_OBJECTS: usize = 200_000;

struct Reader<'t> {
    text: &'t str,
    diags: &'t mut Vec<Diagnostic>,
}

/// What a scan outside strings finds before parsing: where nesting first passes `limit` (bounding the
/// parser's recursion), and how many objects there are (bounding the tree it builds).
struct Scan {
    too_deep_at: Option<usize>,
    objects: usize,
}

fn scan(text: &str, limit: usize) -> Scan {
    let (mut depth, mut in_str, mut escaped, mut objects) = (0usize, false, false, 0usize);
    for (i, b) in text.bytes().enumerate() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => {
                depth += 1;
                objects += usize::from(b == b'{');
                if depth > limit {
                    return Scan {
                        too_deep_at: Some(i),
                        objects,
                    };
                }
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Scan {
        too_deep_at: None,
        objects,
    }
}

pub fn read(text: &str, diags: &mut Vec<Diagnostic>) -> Vec<CounterSet> {
    if text.len() > MAX_TEXT {
        diags.push(Diagnostic::new(
            DiagnosticCode::InputTooLarge,
            Severity::Error,
            Pos::at(0),
            format!(
                "the JSON text is {} bytes; at most {MAX_TEXT} are read",
                text.len()
            ),
            SRC,
        ));
        return vec![];
    }
    let found = scan(text, MAX_DEPTH);
    if let Some(at) = found.too_deep_at {
        diags.push(Diagnostic::new(DiagnosticCode::NestingTooDeep, Severity::Error, Pos::at(at),
            format!("arrays and objects nest more than {MAX_DEPTH} deep here; the registration form needs 4"), SRC));
        return vec![];
    }
    if found.objects > MAX_OBJECTS {
        diags.push(Diagnostic::new(DiagnosticCode::InputTooLarge, Severity::Error, Pos::at(0),
            format!("the JSON holds {} objects; at most {MAX_OBJECTS} are read (a counter set holds at most 64,000 counters)", found.objects), SRC));
        return vec![];
    }
    let options = ParseOptions {
        allow_comments: true,
        allow_loose_object_property_names: false,
        allow_trailing_commas: true,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let skipped = text.len() - body.len();
    let value = match parse_to_ast(body, &collect, &options) {
        Ok(r) => r.value,
        Err(e) => {
            let pos = Pos::in_text(text, e.range().start + skipped);
            diags.push(Diagnostic::new(
                DiagnosticCode::ParseError,
                Severity::Error,
                pos,
                format!(
                    "not valid JSON at line {} column {}: {}",
                    pos.line.unwrap_or(1),
                    pos.column.unwrap_or(1),
                    e.kind()
                ),
                SRC,
            ));
            return vec![];
        }
    };
    let mut r = Reader { text, diags };
    let Some(value) = value else {
        r.error(
            DiagnosticCode::ParseError,
            0,
            "the JSON text is empty: expected a counter set or {\"counterSets\": [...]}".into(),
        );
        return vec![];
    };
    // Positions from the parser are in `body`; shift them back to `text`.
    let shift = |v: usize| v + skipped;
    let sets: Vec<&Object<'_>> = match &value {
        Value::Object(o) if key(o, "counterSets").is_some() => match key(o, "counterSets") {
            Some(Value::Array(a)) => a
                .elements
                .iter()
                .filter_map(|e| r.object(e, "a counter set", &shift))
                .collect(),
            Some(other) => {
                r.error(
                    DiagnosticCode::InvalidValue,
                    shift(range(other).0),
                    "counterSets must be an array of counter sets".into(),
                );
                vec![]
            }
            None => vec![],
        },
        Value::Object(o) => vec![o],
        Value::Array(a) => a
            .elements
            .iter()
            .filter_map(|e| r.object(e, "a counter set", &shift))
            .collect(),
        other => {
            r.error(
                DiagnosticCode::InvalidValue,
                shift(range(other).0),
                "expected a counter set object, an array of them, or {\"counterSets\": [...]}"
                    .into(),
            );
            vec![]
        }
    };
    if sets.len() > MAX_SETS {
        r.error(
            DiagnosticCode::InputTooLarge,
            0,
            format!("{} counter sets; at most {MAX_SETS} are read", sets.len()),
        );
    }
    sets.into_iter()
        .take(MAX_SETS)
        .map(|o| r.set(o, &shift))
        .collect()
}

/// A property by key, matched without regard to case (camelCase and PascalCase alike).
fn key<'a, 'b>(o: &'b Object<'a>, name: &str) -> Option<&'b Value<'a>> {
    o.properties
        .iter()
        .find(|p| p.name.as_str().eq_ignore_ascii_case(name))
        .map(|p| &p.value)
}

fn range(v: &Value<'_>) -> (usize, usize) {
    let r = match v {
        Value::StringLit(x) => x.range,
        Value::NumberLit(x) => x.range,
        Value::BooleanLit(x) => x.range,
        Value::Object(x) => x.range,
        Value::Array(x) => x.range,
        Value::NullKeyword(x) => x.range,
    };
    (r.start, r.end)
}

/// The struct field a JSON key holds.
fn field_of(name: &str) -> Option<Field> {
    Some(match name {
        "counterSetGuid" => Field::CounterSetGuid,
        "counterSetType" => Field::CounterSetType,
        "detailLevel" => Field::DetailLevel,
        "numCounters" => Field::NumCounters,
        "instanceType" => Field::InstanceType,
        "counterId" => Field::CounterId,
        "type" => Field::Type,
        "attrib" => Field::Attrib,
        "defaultScale" => Field::DefaultScale,
        "baseCounterId" => Field::BaseCounterId,
        "perfTimeId" => Field::PerfTimeId,
        "perfFreqId" => Field::PerfFreqId,
        "multiId" => Field::MultiId,
        "aggregateFunc" => Field::AggregateFunc,
        "reserved" => Field::Reserved,
        _ => return None,
    })
}

const SET_KEYS: &[&str] = &[
    "counterSetGuid",
    "counterSetType",
    "detailLevel",
    "numCounters",
    "instanceType",
    "counters",
    "name",
    "description",
];
const COUNTER_KEYS: &[&str] = &[
    "counterId",
    "type",
    "attrib",
    "detailLevel",
    "defaultScale",
    "baseCounterId",
    "perfTimeId",
    "perfFreqId",
    "multiId",
    "aggregateFunc",
    "reserved",
    "name",
    "description",
];

impl Reader<'_> {
    fn error(&mut self, code: DiagnosticCode, offset: usize, message: String) {
        let pos = Pos::at(offset);
        self.diags
            .push(Diagnostic::new(code, Severity::Error, pos, message, SRC));
    }

    /// An unreadable value of the key `name`: an error on that struct field.
    fn value_error(&mut self, offset: usize, name: &str, message: String) {
        let mut d = Diagnostic::new(
            DiagnosticCode::InvalidValue,
            Severity::Error,
            Pos::at(offset),
            message,
            SRC,
        );
        if let Some(f) = field_of(name) {
            d = d.field(f);
        }
        self.diags.push(d);
    }

    fn object<'a, 'b>(
        &mut self,
        v: &'b Value<'a>,
        what: &str,
        shift: &dyn Fn(usize) -> usize,
    ) -> Option<&'b Object<'a>> {
        match v {
            Value::Object(o) => Some(o),
            other => {
                self.error(
                    DiagnosticCode::InvalidValue,
                    shift(range(other).0),
                    format!("expected {what} (an object)"),
                );
                None
            }
        }
    }

    fn unknown_keys(
        &mut self,
        o: &Object<'_>,
        known: &[&str],
        shift: &dyn Fn(usize) -> usize,
        owner: &str,
    ) {
        for p in &o.properties {
            let name = p.name.as_str();
            if !known.iter().any(|k| k.eq_ignore_ascii_case(name)) {
                let pos = Pos::at(shift(p.range.start));
                self.diags.push(Diagnostic::new(
                    DiagnosticCode::UnknownField,
                    Severity::Warning,
                    pos,
                    format!("{owner} has no field {name:?}: it is ignored (a typo?)"),
                    SRC,
                ));
            }
        }
    }

    /// An unsigned integer from a number literal or a decimal / 0x-hex string; `None` and a
    /// diagnostic if it is anything else or above `max`.
    fn uint(
        &mut self,
        v: &Value<'_>,
        field: &str,
        max: u64,
        shift: &dyn Fn(usize) -> usize,
    ) -> Option<u64> {
        let text: Option<&str> = match v {
            Value::NumberLit(n) => Some(n.value),
            Value::StringLit(s) => Some(s.value.as_ref()),
            _ => None,
        };
        let parsed = text.and_then(|t| {
            let t = t.trim();
            match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16).ok(),
                None => t.parse::<u64>().ok(),
            }
        });
        match parsed {
            Some(n) if n <= max => Some(n),
            _ => {
                let shown: String = self
                    .text
                    .get(shift(range(v).0)..shift(range(v).1))
                    .unwrap_or("")
                    .chars()
                    .take(40)
                    .collect();
                self.value_error(
                    shift(range(v).0),
                    field,
                    format!("{field} must be an integer from 0 to {max}, not {shown}"),
                );
                None
            }
        }
    }

    fn int(&mut self, v: &Value<'_>, field: &str, shift: &dyn Fn(usize) -> usize) -> Option<i64> {
        if let Value::NumberLit(n) = v {
            if let Ok(i) = n.value.parse::<i64>() {
                return Some(i);
            }
        }
        if let Value::StringLit(s) = v {
            if let Ok(i) = s.value.trim().parse::<i64>() {
                return Some(i);
            }
        }
        self.value_error(
            shift(range(v).0),
            field,
            format!("{field} must be an integer"),
        );
        None
    }

    fn string(
        &mut self,
        v: &Value<'_>,
        field: &str,
        shift: &dyn Fn(usize) -> usize,
    ) -> Option<String> {
        match v {
            Value::StringLit(s) => Some(s.value.to_string()),
            Value::NullKeyword(_) => None,
            other => {
                self.value_error(
                    shift(range(other).0),
                    field,
                    format!("{field} must be a string"),
                );
                None
            }
        }
    }

    fn set(&mut self, o: &Object<'_>, shift: &dyn Fn(usize) -> usize) -> CounterSet {
        self.unknown_keys(o, SET_KEYS, shift, "a counter set");
        let start = Pos::at(shift(o.range.start));
        let mut set = CounterSet {
            spans: Spans {
                start,
                fields: vec![],
            },
            ..Default::default()
        };
        let mut fields = Vec::new();
        let field_pos = |fields: &mut Vec<(Field, Pos)>, f: Field, v: &Value<'_>| {
            fields.push((f, Pos::at(shift(range(v).0))))
        };
        let missing = |r: &mut Self, name: &str, f: Field| {
            r.diags.push(
                Diagnostic::new(
                    DiagnosticCode::MissingField,
                    Severity::Error,
                    start,
                    format!("the counter set has no {name}"),
                    SRC,
                )
                .field(f),
            );
        };
        match key(o, "counterSetGuid") {
            Some(v) => {
                field_pos(&mut fields, Field::CounterSetGuid, v);
                if let Some(s) = self.string(v, "counterSetGuid", shift) {
                    match Guid::parse(&s) {
                        Some(g) => set.guid = Some(g),
                        None => self.value_error(shift(range(v).0), "counterSetGuid",
                            format!("counterSetGuid {s:?} is not a GUID (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx, braces optional)")),
                    }
                }
            }
            None => missing(self, "counterSetGuid", Field::CounterSetGuid),
        }
        for (name, f, required) in [
            ("counterSetType", Field::CounterSetType, false),
            ("detailLevel", Field::DetailLevel, true),
            ("numCounters", Field::NumCounters, false),
            ("instanceType", Field::InstanceType, true),
        ] {
            match key(o, name) {
                Some(v) => {
                    field_pos(&mut fields, f, v);
                    let n = self.uint(v, name, u32::MAX as u64, shift).map(|n| n as u32);
                    match f {
                        Field::CounterSetType => set.counter_set_type = n.unwrap_or(0),
                        Field::DetailLevel => set.detail_level = n.unwrap_or(100),
                        Field::NumCounters => set.num_counters = n,
                        _ => set.instance_type = n.unwrap_or(0),
                    }
                }
                None if required => missing(self, name, f),
                None => {}
            }
        }
        if let Some(v) = key(o, "name") {
            set.name = self.string(v, "name", shift);
        }
        if let Some(v) = key(o, "description") {
            set.description = self.string(v, "description", shift);
        }
        set.spans.fields = fields;
        let guid = set.guid;
        match key(o, "counters") {
            Some(Value::Array(a)) => {
                for (index, e) in a.elements.iter().enumerate() {
                    if let Some(c) = self.object(e, "a counter", shift) {
                        let counter = self.counter(c, shift, index);
                        set.counters.push(counter);
                    }
                }
            }
            Some(other) => self.error(
                DiagnosticCode::InvalidValue,
                shift(range(other).0),
                "counters must be an array of counters".into(),
            ),
            None => missing(self, "counters", Field::NumCounters),
        }
        // Diagnostics made while reading the set's own fields belong to it.
        for d in self.diags.iter_mut().filter(|d| {
            d.counter_set.is_none() && d.offset >= start.offset && d.offset <= shift(o.range.end)
        }) {
            d.counter_set = guid.map(|g| g.to_string());
        }
        set
    }

    /// Counter object `o`, element `index` (from 0) of its set's `counters`.
    fn counter(&mut self, o: &Object<'_>, shift: &dyn Fn(usize) -> usize, index: usize) -> Counter {
        self.unknown_keys(o, COUNTER_KEYS, shift, "a counter");
        let start = Pos::at(shift(o.range.start));
        let first_diag = self.diags.len();
        let mut c = Counter {
            detail_level: 100,
            spans: Spans {
                start,
                fields: vec![],
            },
            ..Default::default()
        };
        let mut fields = Vec::new();
        let seen = |fields: &mut Vec<(Field, Pos)>, f: Field, v: &Value<'_>| {
            fields.push((f, Pos::at(shift(range(v).0))))
        };
        let mut no_id = false;
        match key(o, "counterId") {
            Some(v) => {
                seen(&mut fields, Field::CounterId, v);
                match self.uint(v, "counterId", u32::MAX as u64, shift) {
                    Some(id) => c.counter_id = id as u32,
                    None => no_id = true,
                }
            }
            None => {
                no_id = true;
                self.diags.push(
                    Diagnostic::new(
                        DiagnosticCode::MissingField,
                        Severity::Error,
                        start,
                        "the counter has no counterId".into(),
                        SRC,
                    )
                    .field(Field::CounterId),
                )
            }
        }
        match key(o, "type") {
            Some(v) => {
                seen(&mut fields, Field::Type, v);
                c.ty = match v {
                    Value::StringLit(s) => match parse_type(&s.value) {
                        Ok(t) => t.value,
                        Err(e) => {
                            self.value_error(shift(range(v).0), "type", format!("type: {e}"));
                            CounterType::from_value(0x4000_0200).value // NODATA: reported as invalid by the rules too
                        }
                    },
                    other => self
                        .uint(other, "type", u32::MAX as u64, shift)
                        .unwrap_or(0x4000_0200) as u32,
                };
            }
            None => self.diags.push(
                Diagnostic::new(
                    DiagnosticCode::MissingField,
                    Severity::Error,
                    start,
                    "the counter has no type".into(),
                    SRC,
                )
                .field(Field::Type),
            ),
        }
        for (name, f) in [
            ("attrib", Field::Attrib),
            ("detailLevel", Field::DetailLevel),
            ("aggregateFunc", Field::AggregateFunc),
            ("reserved", Field::Reserved),
        ] {
            if let Some(v) = key(o, name) {
                seen(&mut fields, f, v);
                let max = if f == Field::Attrib {
                    u64::MAX
                } else {
                    u32::MAX as u64
                };
                let n = self.uint(v, name, max, shift);
                match f {
                    Field::Attrib => c.attrib = n.unwrap_or(0),
                    Field::DetailLevel => c.detail_level = n.unwrap_or(100) as u32,
                    Field::AggregateFunc => c.aggregate_func = n.unwrap_or(0) as u32,
                    _ => c.reserved = n.unwrap_or(0) as u32,
                }
            }
        }
        if let Some(v) = key(o, "defaultScale") {
            seen(&mut fields, Field::DefaultScale, v);
            c.default_scale = self
                .int(v, "defaultScale", shift)
                .map_or(0, |i| i.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
        }
        for (name, f) in [
            ("baseCounterId", Field::BaseCounterId),
            ("perfTimeId", Field::PerfTimeId),
            ("perfFreqId", Field::PerfFreqId),
            ("multiId", Field::MultiId),
        ] {
            let Some(v) = key(o, name) else { continue };
            seen(&mut fields, f, v);
            let id = match v {
                Value::NullKeyword(_) => None,
                other => self
                    .uint(other, name, u32::MAX as u64, shift)
                    .map(|n| n as u32)
                    .filter(|&n| n != NO_COUNTER),
            };
            match f {
                Field::BaseCounterId => c.base_counter_id = id,
                Field::PerfTimeId => c.perf_time_id = id,
                Field::PerfFreqId => c.perf_freq_id = id,
                _ => c.multi_id = id,
            }
        }
        if let Some(v) = key(o, "name") {
            c.name = self.string(v, "name", shift);
        }
        if let Some(v) = key(o, "description") {
            c.description = self.string(v, "description", shift);
        }
        c.spans.fields = fields;
        if no_id {
            c.unidentified = Some(counter_label(c.name.as_deref(), index));
        }
        for d in &mut self.diags[first_diag..] {
            match &c.unidentified {
                None => {
                    d.counter_id.get_or_insert(c.counter_id);
                }
                Some(label) => d.name_counter(label),
            }
        }
        c
    }
}

/// The JSON form of `sets` (types by name where they have one), for round trips and for users who
/// start from a binary dump and want something to edit.
pub fn to_json(sets: &[CounterSet]) -> String {
    use serde_json::{json, Map, Value as J};
    let reference = |r: Option<u32>| r.map_or(J::Null, J::from);
    let sets: Vec<J> = sets
        .iter()
        .map(|s| {
            let counters: Vec<J> = s
                .counters
                .iter()
                .map(|c| {
                    let mut m = Map::new();
                    if let Some(n) = &c.name {
                        m.insert("name".into(), J::from(n.clone()));
                    }
                    m.insert("counterId".into(), J::from(c.counter_id));
                    m.insert(
                        "type".into(),
                        CounterType::from_value(c.ty)
                            .name()
                            .map_or(J::from(c.ty), J::from),
                    );
                    m.insert("attrib".into(), J::from(c.attrib));
                    m.insert("detailLevel".into(), J::from(c.detail_level));
                    m.insert("defaultScale".into(), J::from(c.default_scale));
                    m.insert("baseCounterId".into(), reference(c.base_counter_id));
                    m.insert("perfTimeId".into(), reference(c.perf_time_id));
                    m.insert("perfFreqId".into(), reference(c.perf_freq_id));
                    m.insert("multiId".into(), reference(c.multi_id));
                    m.insert("aggregateFunc".into(), J::from(c.aggregate_func));
                    m.insert("reserved".into(), J::from(c.reserved));
                    if let Some(d) = &c.description {
                        m.insert("description".into(), J::from(d.clone()));
                    }
                    J::Object(m)
                })
                .collect();
            let mut m = Map::new();
            if let Some(n) = &s.name {
                m.insert("name".into(), J::from(n.clone()));
            }
            m.insert(
                "counterSetGuid".into(),
                s.guid.map_or(J::Null, |g| J::from(g.to_string())),
            );
            m.insert("counterSetType".into(), J::from(s.counter_set_type));
            m.insert("detailLevel".into(), J::from(s.detail_level));
            m.insert("numCounters".into(), J::from(s.counters.len()));
            m.insert("instanceType".into(), J::from(s.instance_type));
            if let Some(d) = &s.description {
                m.insert("description".into(), J::from(d.clone()));
            }
            m.insert("counters".into(), J::Array(counters));
            J::Object(m)
        })
        .collect();
    serde_json::to_string_pretty(&json!({ "counterSets": sets })).unwrap_or_default()
}
