//! The built-in rule packs, as JSON compiled into the library.
//!
//! The analysis-packs work fills `BUILTIN_JSON` with one `include_str!("../../data/packs/NAME.json")`
//! per pack file under `crate/data/packs/`; every entry must read with [`super::pack::RulePack::from_json`]
//! (a test checks it).

/// The JSON text of every built-in pack, in the order `rulePacks()` lists them.
pub const BUILTIN_JSON: &[&str] = &[];
