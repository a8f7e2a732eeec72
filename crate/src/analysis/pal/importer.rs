//! The importer's state, declared in one place: what one import of PAL threshold files gathers (the
//! QUESTIONs asked, the rules, derived series and refusals so far) and the data sources and calls it
//! reads them from. Its work is implemented by layer: `xml.rs` walks the files' elements, `lowering.rs`
//! runs a THRESHOLD's CODE through `parser.rs` into rules; both are `impl Importer` blocks on this type.

use super::{ChartBand, Untranslated};
use crate::analysis::expr::Expr;
use crate::analysis::pack::{Derived, Operator, Rule, Variable};
use std::collections::{HashMap, HashSet};

pub(super) struct Question {
    /// The name PAL's CODE uses (`$PhysicalMemory`); `variable.name` is the pack's
    /// (`PhysicalMemoryGB`, the built-in packs' name for the same answer).
    pub(super) pal_name: String,
    pub(super) variable: Variable,
    pub(super) pal_default: String,
    pub(super) used: bool,
}

#[derive(Clone)]
pub(super) struct DataSource {
    pub(super) generated: bool,
    pub(super) path: String,
    pub(super) exclude: Vec<String>,
    /// A Generated "% Network Utilization" PAL computes as bytes/sec * 8 / Current Bandwidth * 100:
    /// the bytes/sec counter it divides (the rule compares it with the `NetworkBandwidth` variable).
    pub(super) utilization_of: Option<String>,
    /// A Generated data source's CODE (read by `generated::translate` when a rule uses it).
    pub(super) code: Option<String>,
}

#[derive(Default)]
pub(super) struct Importer {
    pub(super) questions: Vec<Question>,
    pub(super) uses_logical_processors: bool,
    /// A % Network Utilization series was derived: the pack asks for `NetworkBandwidth`.
    pub(super) uses_bandwidth: bool,
    pub(super) rules: Vec<Rule>,
    /// The Generated data sources translated into derived series.
    pub(super) derived: Vec<Derived>,
    pub(super) rule_ids: HashSet<String>,
    pub(super) analysis_ids: HashMap<String, String>,
    pub(super) translated: usize,
    pub(super) total: usize,
    pub(super) untranslated: Vec<Untranslated>,
    pub(super) bands: Vec<ChartBand>,
    /// Inherited files that were not given.
    pub(super) missing: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Command {
    Static,
    Chart,
}

#[derive(Clone, Debug)]
pub(super) struct Call {
    pub(super) command: Command,
    pub(super) collection: String,
    pub(super) operator: Operator,
    /// StaticThreshold: -Threshold; StaticChartThreshold: -MaxThreshold.
    pub(super) threshold: Expr,
    /// StaticChartThreshold: -MinThreshold.
    pub(super) band_min: Expr,
    pub(super) trend: bool,
}

pub(super) struct Part {
    pub(super) source: DataSource,
    pub(super) operator: Operator,
    pub(super) threshold: Expr,
    pub(super) band_min: Expr,
    pub(super) trend: bool,
}
