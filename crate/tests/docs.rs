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

/// The files of `dir` (relative to the repository) with extension `ext`, recursively, as paths relative
/// to `dir` with '/' separators.
fn files(dir: &str, ext: &str) -> Vec<String> {
    fn walk(root: &std::path::Path, at: &std::path::Path, ext: &str, out: &mut Vec<String>) {
        for e in std::fs::read_dir(at).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, ext, out);
            } else if p.extension().is_some_and(|x| x == ext) {
                let rel = p.strip_prefix(root).unwrap().components();
                out.push(
                    rel.map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/"),
                );
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(dir);
    let mut out = Vec::new();
    walk(&root, &root, ext, &mut out);
    out.sort();
    out
}

/// Whether the page names `name` as code: `name`, or a path ending in it (`js/viewer/index.js`).
fn names(doc: &str, name: &str) -> bool {
    doc.contains(&format!("`{name}`")) || doc.contains(&format!("/{name}`"))
}

#[test]
fn the_architecture_map_names_every_module() {
    let doc = include_str!("../../docs/architecture.md");
    let mut missing = Vec::new();
    // Rust: each file by its module name (`column`) or file name (`column.rs`); mod.rs, lib.rs and the
    // analysis' test modules are their directory's (or the crate's), named by it.
    for (dir, skip) in [
        (
            "crate/src",
            &["lib.rs", "analysis/tests.rs", "analysis/verdict_tests.rs"][..],
        ),
        ("cli/src", &[][..]),
    ] {
        for f in files(dir, "rs") {
            if skip.contains(&f.as_str()) || f.ends_with("mod.rs") {
                continue;
            }
            let file = f.rsplit('/').next().unwrap();
            let module = file.trim_end_matches(".rs");
            if !names(doc, module) && !names(doc, file) {
                missing.push(format!("{dir}/{f}"));
            }
        }
    }
    // JS: each module of the package and the viewer by its file name.
    for f in files("js", "js") {
        let file = f.rsplit('/').next().unwrap();
        if !names(doc, file) {
            missing.push(format!("js/{f}"));
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md does not name {missing:?}"
    );
}

#[test]
fn the_architecture_tables_name_only_modules_that_exist() {
    let doc = include_str!("../../docs/architecture.md");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    // The first cell of each row of the core's table (`types`) and the viewer's (`layout.js`).
    let mut rows = 0;
    for line in doc.lines() {
        let Some(cell) = line.strip_prefix("| `").and_then(|l| l.split('`').next()) else {
            continue;
        };
        let path = if cell.ends_with(".js") {
            root.join("js/viewer").join(cell)
        } else {
            root.join("crate/src").join(cell)
        };
        assert!(
            path.exists() || path.with_extension("rs").exists(),
            "docs/architecture.md has a row for {cell}, which is not a module"
        );
        rows += 1;
    }
    assert!(rows > 20, "the tables were not read ({rows} rows)");
}
