//! The hand-written TypeScript contract (js/index.d.ts) names what the core names: its string-literal
//! unions of formats, encodings, units, statuses and every error code are the Rust lists, neither more
//! nor fewer. Error codes the binding layer writes as literals (`named_error(ErrorClass::Capture,
//! "invalid-option", ...)`, `error("invalid-type", ...)`) are read from crate/src/wasm/*.rs.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::AnalysisError;
use counterlens::capture::text::Encoding;
use counterlens::capture::{CaptureErrorKind, Format};
use counterlens::units::Unit;
use counterlens::Status;
use std::collections::BTreeSet;

const DTS: &str = include_str!("../../js/index.d.ts");
const WASM: [(&str, &str); 9] = [
    ("analysis.rs", include_str!("../src/wasm/analysis.rs")),
    ("capture.rs", include_str!("../src/wasm/capture.rs")),
    ("chart.rs", include_str!("../src/wasm/chart.rs")),
    ("convert.rs", include_str!("../src/wasm/convert.rs")),
    ("fleet.rs", include_str!("../src/wasm/fleet.rs")),
    ("mod.rs", include_str!("../src/wasm/mod.rs")),
    ("parallel.rs", include_str!("../src/wasm/parallel.rs")),
    (
        "registration.rs",
        include_str!("../src/wasm/registration.rs"),
    ),
    ("text.rs", include_str!("../src/wasm/text.rs")),
];

type Set = BTreeSet<String>;

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> Set {
    names.into_iter().map(String::from).collect()
}

/// The quoted strings of `export type NAME = ...;` in the .d.ts.
fn union(name: &str) -> Set {
    let head = format!("export type {name} =");
    let at = DTS
        .find(&head)
        .unwrap_or_else(|| panic!("js/index.d.ts declares no {name}"));
    let body = &DTS[at + head.len()..];
    let body = &body[..body.find(';').expect("a type ends with ';'")];
    let mut out = Set::new();
    for (k, part) in body.split(['"', '\'']).enumerate() {
        if k % 2 == 1 {
            out.insert(part.to_string());
        }
    }
    assert!(!out.is_empty(), "{name} is no union of strings: {body}");
    out
}

/// The string literal right after each `marker` in `source` (whitespace skipped); markers followed by
/// anything else (a variable) are not literals and are left out.
fn literals_after(source: &str, marker: &str) -> Set {
    let mut out = Set::new();
    for (at, _) in source.match_indices(marker) {
        // `error(` must not be the end of `named_error(`, `cook_error(` ...
        let before = source[..at].chars().next_back();
        if marker.starts_with(char::is_alphabetic)
            && before.is_some_and(|c| c.is_alphanumeric() || c == '_')
        {
            continue;
        }
        let rest = source[at + marker.len()..].trim_start();
        if let Some(rest) = rest.strip_prefix('"') {
            out.insert(rest[..rest.find('"').unwrap()].to_string());
        }
    }
    out
}

/// The codes the binding throws errors of `class` with, as literals.
fn binding_codes(class: &str) -> Set {
    let mut out = Set::new();
    for (file, source) in WASM {
        out.extend(literals_after(source, &format!("ErrorClass::{class},")));
        // convert::error: a CounterTypeError.
        if class == "CounterType" {
            out.extend(literals_after(source, "error("));
        }
        // registration.rs's `bad(code, ...)`: a RegistrationError.
        if class == "Registration" && file == "registration.rs" {
            out.extend(literals_after(source, "bad("));
        }
    }
    out
}

#[test]
fn the_reader_of_literals_reads_what_the_binding_writes() {
    let src = "named_error(\n    ErrorClass::Capture,\n    \"invalid-option\",\n    m)\n named_error(ErrorClass::Capture, e.code(), m)\n error(\"canvas\", m) cook_error(e) named_error(x)";
    assert_eq!(
        literals_after(src, "ErrorClass::Capture,"),
        set(["invalid-option"])
    );
    assert_eq!(literals_after(src, "error("), set(["canvas"]));
}

#[test]
fn capture_formats_and_encodings() {
    assert_eq!(union("CaptureFormat"), set(Format::ALL.map(Format::name)));
    let mut encodings = set(Encoding::all().map(Encoding::name));
    encodings.insert("binary".into()); // a .blg's
    assert_eq!(union("CaptureEncoding"), encodings);
}

#[test]
fn pal_untranslated_codes() {
    use counterlens::analysis::pal::ReasonCode;
    assert_eq!(
        union("PalUntranslatedCode"),
        set(ReasonCode::ALL.map(ReasonCode::code))
    );
    // The code the import serializes is the one the list gives.
    for c in ReasonCode::ALL {
        assert_eq!(serde_json::to_value(c).unwrap(), c.code());
    }
}

#[test]
fn chart_units_and_cook_statuses() {
    assert_eq!(union("ChartUnit"), set(Unit::ALL.map(Unit::key)));
    assert_eq!(union("CookStatus"), set(Status::ALL.map(Status::as_str)));
}

#[test]
fn every_error_code_of_every_class() {
    let mut capture = set(CaptureErrorKind::ALL.map(CaptureErrorKind::code));
    capture.extend(binding_codes("Capture"));
    // js/parallel.js throws one itself: options.workers out of range.
    capture.insert("invalid-option".into());
    assert_eq!(union("CaptureErrorCode"), capture);

    let mut analysis = set(AnalysisError::CODES);
    analysis.extend(binding_codes("Analysis"));
    assert_eq!(union("AnalysisErrorCode"), analysis);

    // cook_error's codes are literals passed to `error(` too.
    assert_eq!(union("CounterTypeErrorCode"), binding_codes("CounterType"));
    assert_eq!(
        union("RegistrationErrorCode"),
        binding_codes("Registration")
    );
}

#[test]
fn the_error_classes_carry_their_union() {
    for class in ["CounterType", "Registration", "Capture", "Analysis"] {
        let decl = format!("export class {class}Error extends Error {{");
        let at = DTS.find(&decl).unwrap_or_else(|| panic!("no {decl}"));
        let body = &DTS[at..at + DTS[at..].find('}').unwrap()];
        assert!(
            body.contains(&format!("code: {class}ErrorCode;")),
            "{class}Error's code is not its union"
        );
    }
}
