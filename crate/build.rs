//! Build script: the built-in rule packs (`data/packs/*.json`, in the order `rulePacks()` lists them)
//! joined by NUL and deflated (raw DEFLATE, RFC 1951) into `$OUT_DIR/packs.deflate`, which
//! `analysis::builtin` embeds and inflates once: 84 KB of JSON take about 10 KB of the wasm module.
//! The JSON files stay the source of truth; nothing generated is committed.

use std::{env, fs, path::Path};

/// The built-in packs, in the order `rulePacks()` lists them.
const PACKS: &[&str] = &[
    "system-overview",
    "sql-server",
    "iis-aspnet",
    "dotnet-clr",
    "hyper-v",
];

fn main() {
    let mut joined = Vec::new();
    for (i, id) in PACKS.iter().enumerate() {
        let file = format!("data/packs/{id}.json");
        println!("cargo:rerun-if-changed={file}");
        let text = fs::read(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(!text.contains(&0), "{file} holds a NUL byte");
        if i > 0 {
            joined.push(0);
        }
        joined.extend_from_slice(&text);
    }
    println!("cargo:rerun-if-changed=build.rs");
    let packed = miniz_oxide::deflate::compress_to_vec(&joined, 10);
    let out = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    fs::write(Path::new(&out).join("packs.deflate"), packed).expect("writing packs.deflate");
}
