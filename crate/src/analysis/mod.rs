//! Analysis: say what was wrong in a capture, when, and how badly, with PAL-compatible rules.
//!
//! Rule packs ([`pack`]) select series by Perfmon wildcard paths and compare per-slice statistics with
//! thresholds; consecutive broken slices become findings. docs/analysis.md describes the semantics.

mod builtin;
pub mod error;
pub mod pack;
pub mod pal;

pub use error::AnalysisError;
pub use pack::{
    Derive, Instances, Operator, Reference, Rule, RuleKind, RulePack, Severity, Stat, Threshold,
    Value, Variable, VariableType,
};

use std::sync::OnceLock;

/// The built-in rule packs (parsed once). A pack that does not read is left out here and fails the
/// test `builtin_packs_all_read`.
pub fn builtin_packs() -> &'static [RulePack] {
    static PACKS: OnceLock<Vec<RulePack>> = OnceLock::new();
    PACKS.get_or_init(|| {
        builtin::BUILTIN_JSON
            .iter()
            .filter_map(|t| RulePack::from_json(t).ok())
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_packs_all_read() {
        for t in builtin::BUILTIN_JSON {
            if let Err(e) = RulePack::from_json(t) {
                panic!("a built-in pack does not read: {e}");
            }
        }
        assert_eq!(builtin_packs().len(), builtin::BUILTIN_JSON.len());
        let mut ids: Vec<_> = builtin_packs().iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), builtin_packs().len(), "pack ids are unique");
    }
}
