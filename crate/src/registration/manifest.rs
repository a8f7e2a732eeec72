//! Instrumentation manifests: the `<counters>` section (namespace
//! `http://schemas.microsoft.com/win/2005/12/counters`, schema counterman.xsd) read with roxmltree into
//! the model, with the manifest-only rules checked on the way (required attributes, value lists,
//! symbols, counter attributes). Every diagnostic points at the element's or attribute's line and column.

use super::{
    counter_label, Counter, CounterSet, Diagnostic, DiagnosticCode, Field, Guid, Pos, Severity,
    Spans, INSTANCE_TYPES, MAX_COUNTERS, MAX_SETS,
};
use crate::format::{
    ATTRIB_DISPLAY_AS_HEX, ATTRIB_DISPLAY_AS_REAL, ATTRIB_NO_DISPLAY, ATTRIB_NO_GROUP_SEPARATOR,
    ATTRIB_REFERENCE,
};
use crate::types::TYPES;
use roxmltree::{Document, Node, ParsingOptions};

pub const NS: &str = "http://schemas.microsoft.com/win/2005/12/counters";
const SRC: &str = "counterman.xsd";
/// Nodes roxmltree may build: a 64,000-counter set with attributes fits with room to spare.
const NODES_LIMIT: u32 = 4_000_000;

struct Reader<'t> {
    diags: &'t mut Vec<Diagnostic>,
}

fn c_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

fn braced_guid(s: &str) -> bool {
    s.len() == 38 && s.starts_with('{') && s.ends_with('}') && Guid::parse(s).is_some()
}

/// A numeric id or number attribute: decimal or 0x hex.
fn number(s: &str) -> Option<u64> {
    let t = s.trim();
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => t.parse().ok(),
    }
}

impl Reader<'_> {
    fn at_node(&self, n: Node<'_, '_>) -> Pos {
        Pos::at(n.range().start)
    }

    /// The position of an attribute's value, or of its element when absent.
    fn at_attr(&self, n: Node<'_, '_>, name: &str) -> Pos {
        n.attribute_node(name)
            .map_or_else(|| self.at_node(n), |a| Pos::at(a.range_value().start))
    }

    fn diag(&mut self, code: DiagnosticCode, pos: Pos, field: Field, message: String) {
        self.diags
            .push(Diagnostic::new(code, Severity::Error, pos, message, SRC).field(field));
    }

    fn required<'a>(
        &mut self,
        n: Node<'a, '_>,
        name: &'static str,
        field: Field,
    ) -> Option<&'a str> {
        let v = n.attribute(name);
        if v.is_none() {
            let pos = self.at_node(n);
            self.diag(
                DiagnosticCode::MissingAttribute,
                pos,
                field,
                format!("<{}> needs the attribute {name}", n.tag_name().name()),
            );
        }
        v
    }

    fn invalid(&mut self, n: Node<'_, '_>, name: &'static str, field: Field, expected: &str) {
        let pos = self.at_attr(n, name);
        let shown: String = n.attribute(name).unwrap_or("").chars().take(60).collect();
        self.diag(
            DiagnosticCode::InvalidValue,
            pos,
            field,
            format!("{name}=\"{shown}\" is not valid: expected {expected}"),
        );
    }

    /// The number `table` gives the text of attribute `name`, or an invalid-value diagnostic saying what
    /// was `expected`: the manifest's value lists (instances, detailLevel, aggregate).
    fn one_of(
        &mut self,
        n: Node<'_, '_>,
        name: &'static str,
        field: Field,
        text: &str,
        table: &[(&str, u32)],
        expected: &str,
    ) -> Option<u32> {
        let v = table.iter().find(|(t, _)| *t == text).map(|&(_, v)| v);
        if v.is_none() {
            self.invalid(n, name, field, expected);
        }
        v
    }

    fn symbol(&mut self, n: Node<'_, '_>, name: &'static str) {
        if let Some(s) = n.attribute(name) {
            if !c_identifier(s) {
                self.invalid(
                    n,
                    name,
                    Field::Manifest(name),
                    "a C identifier (letters, digits and _, not starting with a digit)",
                );
            }
        }
    }

    fn counter_set(&mut self, n: Node<'_, '_>, user_mode: bool) -> CounterSet {
        let start = self.at_node(n);
        let mut set = CounterSet {
            detail_level: 100,
            spans: Spans {
                start,
                fields: vec![],
            },
            ..Default::default()
        };
        let first_diag = self.diags.len();
        self.required(n, "symbol", Field::Manifest("symbol"));
        self.symbol(n, "symbol");
        self.required(n, "uri", Field::Manifest("uri"));
        self.required(n, "description", Field::Manifest("description"));
        if let Some(name) = self.required(n, "name", Field::Manifest("name")) {
            if name.chars().count() > 1023 {
                let pos = self.at_attr(n, "name");
                self.diag(
                    DiagnosticCode::InvalidValue,
                    pos,
                    Field::Manifest("name"),
                    format!(
                        "name is {} characters long; at most 1023 are allowed",
                        name.chars().count()
                    ),
                );
            }
            set.name = Some(name.to_string());
        }
        set.description = n.attribute("description").map(str::to_string);
        set.spans
            .fields
            .push((Field::CounterSetGuid, self.at_attr(n, "guid")));
        if let Some(g) = self.required(n, "guid", Field::CounterSetGuid) {
            match Guid::parse(g) {
                Some(guid) if braced_guid(g) => set.guid = Some(guid),
                _ => self.invalid(
                    n,
                    "guid",
                    Field::CounterSetGuid,
                    "a braced GUID such as {ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}",
                ),
            }
        }
        set.spans
            .fields
            .push((Field::InstanceType, self.at_attr(n, "instances")));
        if let Some(i) = self.required(n, "instances", Field::InstanceType) {
            let table: Vec<(&str, u32)> = INSTANCE_TYPES
                .iter()
                .filter_map(|&(value, _, attribute)| Some((attribute?, value)))
                .collect();
            if let Some(v) = self.one_of(
                n,
                "instances",
                Field::InstanceType,
                i,
                &table,
                "single, multiple, globalAggregate, multipleAggregate or globalAggregateHistory",
            ) {
                set.instance_type = v;
            }
        }
        for c in n.children().filter(|c| c.has_tag_name((NS, "counter"))) {
            if set.counters.len() > MAX_COUNTERS {
                // Past the limit the rules report too-many-counters; reading further only costs memory.
                break;
            }
            let counter = self.counter(c, user_mode, set.counters.len());
            set.counters.push(counter);
        }
        if let Some(guid) = set.guid.map(|g| g.to_string()) {
            for d in &mut self.diags[first_diag..] {
                d.counter_set.get_or_insert_with(|| guid.clone());
            }
        }
        set
    }

    /// A counter's `<counterAttributes>`: the Attrib bits they set, each name checked; Attrib's
    /// position (pushed onto `fields`) is the first `<counterAttribute>`'s, or the counter's.
    fn counter_attributes(
        &mut self,
        n: Node<'_, '_>,
        start: Pos,
        fields: &mut Vec<(Field, Pos)>,
    ) -> u64 {
        let mut attrib = 0;
        // <counterAttributes><counterAttribute name="..."/></counterAttributes>
        let mut names: Vec<&str> = vec![];
        // Attrib's position: the element's until the first <counterAttribute>.
        let attrib_at = fields.len();
        fields.push((Field::Attrib, start));
        for a in n
            .children()
            .filter(|x| x.has_tag_name((NS, "counterAttributes")))
            .flat_map(|x| x.children())
            .filter(|x| x.has_tag_name((NS, "counterAttribute")))
        {
            let pos = self.at_node(a);
            let Some(name) = a.attribute("name") else {
                self.diag(
                    DiagnosticCode::MissingAttribute,
                    pos,
                    Field::Attrib,
                    "<counterAttribute> needs the attribute name".into(),
                );
                continue;
            };
            if names.is_empty() {
                fields[attrib_at].1 = pos;
            }
            let bit = match name {
                "reference" => ATTRIB_REFERENCE,
                "noDisplay" => ATTRIB_NO_DISPLAY,
                "noDigitGrouping" => ATTRIB_NO_GROUP_SEPARATOR,
                "displayAsReal" => ATTRIB_DISPLAY_AS_REAL,
                "displayAsHex" => ATTRIB_DISPLAY_AS_HEX,
                _ => {
                    self.invalid(
                        a,
                        "name",
                        Field::Attrib,
                        "reference, noDisplay, noDigitGrouping, displayAsHex or displayAsReal",
                    );
                    continue;
                }
            };
            if names.contains(&name) {
                self.diag(
                    DiagnosticCode::DuplicateAttribute,
                    pos,
                    Field::Attrib,
                    format!("counterAttribute {name} is listed twice"),
                );
            }
            names.push(name);
            attrib |= bit;
        }
        if names.len() > 5 {
            self.diag(
                DiagnosticCode::InvalidValue,
                start,
                Field::Attrib,
                format!(
                    "{} counterAttribute elements; at most five are allowed",
                    names.len()
                ),
            );
        }
        attrib
    }

    /// Counter element `n`, the `index`-th of its set (from 0).
    fn counter(&mut self, n: Node<'_, '_>, user_mode: bool, index: usize) -> Counter {
        let start = self.at_node(n);
        let first_diag = self.diags.len();
        let mut c = Counter {
            detail_level: 100,
            spans: Spans {
                start,
                fields: vec![],
            },
            ..Default::default()
        };
        let mut fields = vec![];
        for (attr, field) in [
            ("id", Field::CounterId),
            ("type", Field::Type),
            ("detailLevel", Field::DetailLevel),
            ("defaultScale", Field::DefaultScale),
            ("aggregate", Field::AggregateFunc),
            ("baseID", Field::BaseCounterId),
            ("perfTimeID", Field::PerfTimeId),
            ("perfFreqID", Field::PerfFreqId),
            ("multiCounterID", Field::MultiId),
        ] {
            fields.push((field, self.at_attr(n, attr)));
        }
        let label = counter_label(n.attribute("name"), index);
        c.unidentified = Some(label.clone());
        if let Some(id) = self.required(n, "id", Field::CounterId) {
            match number(id).and_then(|v| u32::try_from(v).ok()) {
                Some(v) => {
                    c.counter_id = v;
                    c.unidentified = None;
                }
                None => self.invalid(
                    n,
                    "id",
                    Field::CounterId,
                    "a counter id: a decimal or 0x hex integer below 2^32",
                ),
            }
        }
        self.required(n, "uri", Field::Manifest("uri"));
        self.symbol(n, "symbol");
        c.name = n.attribute("name").map(str::to_string);
        c.description = n.attribute("description").map(str::to_string);
        if let Some(t) = self.required(n, "type", Field::Type) {
            match TYPES.iter().find(|r| r.name.to_ascii_lowercase() == t) {
                Some(r) => c.ty = r.value,
                None => {
                    self.invalid(
                        n,
                        "type",
                        Field::Type,
                        "a counter type in lower case, such as perf_counter_counter",
                    );
                    c.ty = 0x4000_0200; // NODATA, which the rules report as not registrable too
                }
            }
        }
        if let Some(d) = self.required(n, "detailLevel", Field::DetailLevel) {
            if let Some(v) = self.one_of(
                n,
                "detailLevel",
                Field::DetailLevel,
                d,
                &[("standard", 100), ("advanced", 200)],
                "standard or advanced",
            ) {
                c.detail_level = v;
            }
        }
        if let Some(s) = n.attribute("defaultScale") {
            match s.trim().parse::<i32>() {
                Ok(v) => c.default_scale = v,
                Err(_) => self.invalid(
                    n,
                    "defaultScale",
                    Field::DefaultScale,
                    "an integer from -10 to 10",
                ),
            }
        }
        if let Some(a) = n.attribute("aggregate") {
            let table = [
                ("undefined", 0),
                ("sum", 1),
                ("avg", 2),
                ("min", 3),
                ("max", 4),
            ];
            if let Some(v) = self.one_of(
                n,
                "aggregate",
                Field::AggregateFunc,
                a,
                &table,
                "sum, avg, min, max or undefined",
            ) {
                c.aggregate_func = v;
            }
        }
        for (attr, field) in [
            ("baseID", Field::BaseCounterId),
            ("perfTimeID", Field::PerfTimeId),
            ("perfFreqID", Field::PerfFreqId),
            ("multiCounterID", Field::MultiId),
        ] {
            let Some(v) = n.attribute(attr) else { continue };
            match number(v).and_then(|v| u32::try_from(v).ok()) {
                Some(id) => match field {
                    Field::BaseCounterId => c.base_counter_id = Some(id),
                    Field::PerfTimeId => c.perf_time_id = Some(id),
                    Field::PerfFreqId => c.perf_freq_id = Some(id),
                    _ => c.multi_id = Some(id),
                },
                None => self.invalid(n, attr, field, "a counter id: a decimal or 0x hex integer"),
            }
        }
        if user_mode {
            for attr in ["struct", "field"] {
                if n.attribute(attr).is_none() {
                    let pos = self.at_node(n);
                    self.diag(DiagnosticCode::MissingAttribute, pos, Field::Manifest(attr),
                        format!("a user-mode provider's counter needs {attr}=\"...\": the {} its value is read from", if attr == "struct" { "structure" } else { "structure field" }));
                }
            }
        }
        c.attrib = self.counter_attributes(n, start, &mut fields);
        c.spans.fields = fields;
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

pub fn read(text: &str, diags: &mut Vec<Diagnostic>) -> Vec<CounterSet> {
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: NODES_LIMIT,
        ..ParsingOptions::default()
    };
    let doc = match Document::parse_with_options(text, options) {
        Ok(d) => d,
        Err(e) => {
            let p = e.pos();
            let offset = text
                .split_inclusive('\n')
                .take(p.row.saturating_sub(1) as usize)
                .map(str::len)
                .sum::<usize>();
            let pos = Pos {
                offset,
                line: Some(p.row),
                column: Some(p.col),
            };
            diags.push(Diagnostic::new(
                DiagnosticCode::ParseError,
                Severity::Error,
                pos,
                format!("not well-formed XML: {e}"),
                "XML 1.0",
            ));
            return vec![];
        }
    };
    let mut r = Reader { diags };
    let sections: Vec<Node<'_, '_>> = doc
        .descendants()
        .filter(|n| n.has_tag_name((NS, "counters")))
        .collect();
    if sections.is_empty() {
        let root = doc.root_element();
        let ns = root.tag_name().namespace().unwrap_or("no namespace");
        let pos = r.at_node(root);
        r.diags.push(Diagnostic::new(DiagnosticCode::NotAManifest, Severity::Error, pos,
            format!("no <counters> element in the namespace {NS}: the root is <{}> in {ns}, so this is not an instrumentation manifest with counters", root.tag_name().name()), SRC));
        return vec![];
    }
    let mut sets = vec![];
    for section in sections {
        for provider in section
            .children()
            .filter(|n| n.has_tag_name((NS, "provider")))
        {
            let user_mode = provider
                .attribute("providerType")
                .is_none_or(|t| t == "userMode");
            for set in provider
                .children()
                .filter(|n| n.has_tag_name((NS, "counterSet")))
            {
                if sets.len() == MAX_SETS {
                    let pos = r.at_node(set);
                    r.diags.push(Diagnostic::new(
                        DiagnosticCode::InputTooLarge,
                        Severity::Error,
                        pos,
                        format!("more than {MAX_SETS} counter sets: reading stopped here"),
                        SRC,
                    ));
                    return sets;
                }
                sets.push(r.counter_set(set, user_mode));
            }
        }
    }
    if sets.is_empty() {
        r.diags.push(Diagnostic::new(
            DiagnosticCode::NoCounterSets,
            Severity::Warning,
            Pos::in_text(text, 0),
            "the manifest's <counters> section declares no <counterSet>".into(),
            SRC,
        ));
    }
    sets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_and_guids() {
        assert!(
            c_identifier("Counter_1")
                && c_identifier("_x")
                && !c_identifier("1x")
                && !c_identifier("a-b")
                && !c_identifier("")
        );
        assert!(braced_guid("{ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}"));
        assert!(!braced_guid("ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab"));
        assert_eq!(number("0x1F"), Some(31));
        assert_eq!(number(" 12 "), Some(12));
        assert_eq!(number("x"), None);
    }
}
