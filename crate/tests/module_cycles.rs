//! No import cycle between the core's modules, as tests/node/imports.test.mjs checks for the package's
//! JavaScript: read from crate/src, so a new module or `use` is checked without listing it here.
//!
//! A module is a file (`analysis/pal/xml.rs` is `analysis::pal::xml`, a `mod.rs` its folder's module).
//! It depends on each module a path of its code names (`use crate::...`, `use super::...`, groups in
//! braces expanded, and paths written inline such as `super::generated::translate`), resolved to the
//! deepest module the path reaches. A module naming one of its ancestors is not a dependency in this sense
//! (Rust's nesting: a child uses the types its parent declares), so a cycle is between modules that are not
//! each other's ancestors: `lowering` using `parser` that uses `lowering`. Code after `#[cfg(test)]` is
//! a module's tests and is left out.

#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

/// Every module of crate/src: its path (["analysis", "pal", "xml"]; [] for lib.rs) -> its source.
fn modules() -> BTreeMap<Vec<String>, String> {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                let mut next = prefix.to_vec();
                next.push(name);
                walk(&p, &next, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut m = prefix.to_vec();
                if stem != "mod" && stem != "lib" {
                    m.push(stem.to_string());
                }
                out.insert(m, std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(Path::new(SRC), &[], &mut out);
    out
}

/// The code of a module without comments and without its tests.
fn code(source: &str) -> String {
    let body = source.split("#[cfg(test)]").next().unwrap_or("");
    body.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `prefix::{a, b::{c, d}, e}` expanded: ["prefix::a", "prefix::b::c", "prefix::b::d", "prefix::e"].
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let (prefix, rest) = (
        &tree[..open],
        &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())],
    );
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in rest.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&rest[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&rest[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| expand(&format!("{prefix}{p}")))
        .collect()
}

/// The paths starting with `crate::`, `super::` or `self::` that a module's code names.
fn paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    // `use` declarations, one or several lines, groups expanded; the rest of the code kept for below.
    let mut others = String::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        others.push_str(&rest[..i]);
        rest = &rest[i + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            others.push_str("use ");
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        out.extend(expand(&rest[..end]));
        rest = &rest[end..];
    }
    others.push_str(rest);
    let code = others.as_str();
    // Paths written inline.
    let bytes = code.as_bytes();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_string());
        }
    }
    out
}

/// The module `path` reaches from module `from`: the deepest known module along it.
fn resolve(
    from: &[String],
    path: &str,
    known: &BTreeSet<Vec<String>>,
    is_dir: bool,
) -> Option<Vec<String>> {
    let mut segs = path.split("::").filter(|s| !s.is_empty());
    let mut at: Vec<String> = match segs.next()? {
        "crate" => Vec::new(),
        // `super` of a file module is its folder's module; of a folder module (mod.rs), its parent.
        "super" => {
            let mut m = from.to_vec();
            m.pop();
            m
        }
        "self" => from.to_vec(),
        _ => return None,
    };
    let _ = is_dir;
    for s in segs {
        if s == "super" {
            at.pop();
            continue;
        }
        let mut next = at.clone();
        next.push(s.to_string());
        if known.contains(&next) {
            at = next;
        } else {
            break;
        }
    }
    Some(at)
}

/// module -> the modules it depends on (not itself, not its ancestors).
fn graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mods = modules();
    let known: BTreeSet<Vec<String>> = mods.keys().cloned().collect();
    mods.iter()
        .map(|(m, src)| {
            let deps = paths(&code(src))
                .iter()
                .filter_map(|p| resolve(m, p, &known, false))
                .filter(|t| t != m && !m.starts_with(t))
                .collect();
            (m.clone(), deps)
        })
        .collect()
}

/// A cycle of the graph, as the modules along it, if there is one.
fn a_cycle(g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<String>> {
    fn visit(
        m: &Vec<String>,
        g: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<String>> {
        state.insert(m.clone(), 1);
        stack.push(m.clone());
        for d in g.get(m).into_iter().flatten() {
            match state.get(d) {
                Some(1) => {
                    let from = stack.iter().position(|x| x == d).unwrap();
                    let mut cycle: Vec<String> =
                        stack[from..].iter().map(|x| x.join("::")).collect();
                    cycle.push(d.join("::"));
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(d, g, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(m.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for m in g.keys() {
        if !state.contains_key(m) {
            if let Some(c) = visit(m, g, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn the_reader_of_paths_expands_groups_and_resolves_to_modules() {
    assert_eq!(
        expand("super::{lexer::{lex, Tok}, Reason}"),
        ["super::lexer::lex", "super::lexer::Tok", "super::Reason"]
    );
    let p = paths("use super::lexer::{lex, Tok};\nfn f() { super::generated::translate(x) }\n");
    assert_eq!(
        p,
        [
            "super::lexer::lex",
            "super::lexer::Tok",
            "super::generated::translate"
        ]
    );
    let known: BTreeSet<Vec<String>> = [
        vec![],
        vec!["analysis".into()],
        vec!["analysis".into(), "pal".into()],
        vec!["analysis".into(), "pal".into(), "xml".into()],
        vec!["analysis".into(), "pal".into(), "lexer".into()],
    ]
    .into_iter()
    .collect();
    let xml = vec!["analysis".to_string(), "pal".into(), "xml".into()];
    assert_eq!(
        resolve(&xml, "super::lexer::lex", &known, false),
        Some(vec!["analysis".into(), "pal".into(), "lexer".into()])
    );
    assert_eq!(
        resolve(&xml, "crate::analysis::pal::Reason", &known, false),
        Some(vec!["analysis".into(), "pal".into()])
    );
    // A cycle is found and named.
    let g: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = [
        (
            vec!["a".into()],
            [vec!["b".to_string()]].into_iter().collect(),
        ),
        (
            vec!["b".into()],
            [vec!["a".to_string()]].into_iter().collect(),
        ),
    ]
    .into_iter()
    .collect();
    assert_eq!(a_cycle(&g), Some(vec!["a".into(), "b".into(), "a".into()]));
}

#[test]
fn no_module_of_the_core_imports_itself_through_others() {
    let g = graph();
    // The reader sees the modules and their dependencies: pal's xml reads the lexer.
    assert!(g.len() > 40, "{} modules", g.len());
    let pal = |m: &str| vec!["analysis".to_string(), "pal".into(), m.into()];
    assert!(
        g[&pal("xml")].contains(&pal("lexer")),
        "{:?}",
        g[&pal("xml")]
    );
    assert_eq!(a_cycle(&g), None, "an import cycle");
}
