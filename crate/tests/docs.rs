//! The documentation says what the code does: docs/counter-types.md lists every type with its value,
//! samples, formula and display exactly as `counterlens::types` has them.

#![cfg(not(target_arch = "wasm32"))]

#[test]
fn counter_types_doc_lists_every_row_as_the_code_has_it() {
    let doc = include_str!("../../docs/counter-types.md");
    for t in counterlens::counter_types() {
        let row = format!(
            "| {} | 0x{:08X} | {} | `{}` | {} |",
            t.name.unwrap(),
            t.value,
            t.samples,
            t.formula,
            t.display.as_str()
        );
        assert!(
            doc.lines().any(|l| l == row),
            "docs/counter-types.md lacks the row\n{row}"
        );
    }
}

#[test]
fn registration_doc_lists_every_code() {
    let doc = include_str!("../../docs/registration-rules.md");
    for code in counterlens::registration::DiagnosticCode::ALL {
        let code = code.as_str();
        assert!(
            doc.contains(&format!("`{code}`")),
            "docs/registration-rules.md does not document {code}"
        );
    }
}
