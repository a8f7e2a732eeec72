//! PAL import: PAL (Performance Analysis of Logs, clinthuffman/PAL, MIT) threshold XML files into a
//! [`RulePack`], without ever evaluating PowerShell.
//!
//! A PAL file holds QUESTIONs (variables), ANALYSIS elements with DATASOURCEs (counter paths with
//! EXCLUDEd instances, or "Generated" series PAL computes in PowerShell), THRESHOLDs whose CODE is a
//! PowerShell snippet calling `StaticThreshold`, CHART bands (`StaticChartThreshold`) and
//! `<INHERITANCE FILEPATH="..."/>`. The snippet is read symbolically: literal one-liners, sizes (`100MB`),
//! `-IsTrendOnly $True`, assignments from QUESTION variables, `If ($v -lt 64) { $v = 64 }` clamps,
//! `$CollectionOfProcessor... .Count - 1` (logical processors), `[Math]::Round`, If/Else (on a
//! string answer, `$OS.substring(0,2) -eq '32'`, or on numbers, `$UserVa -gt 2048`) and `switch` with
//! literal cases become threshold expressions (`is(OS, '...')`, `gt(UserVa, 2048)`: the answer itself
//! drives the branch); collection names are matched as PAL substitutes them
//! (`$CollectionOf...==>...`); anything else is reported untranslated with the reason. docs/rule-packs.md
//! lists the forms and the rates measured on PAL's own files (tests/vectors/pal).
//!
//! The layers, one file each, with no import cycle between them: [`importer`] declares the import's
//! state; [`xml`] reads the files (inheritance, QUESTIONs, ANALYSIS, DATASOURCE, THRESHOLD and CHART
//! elements) and writes the pack's rules; [`lexer`] cuts a CODE snippet into tokens; [`grammar`] is
//! the one PowerShell grammar (cursor, arithmetic, casts, comparisons) both readers use; [`parser`]
//! reads a threshold snippet's statements symbolically; [`fold`] builds the threshold expressions as
//! [`super::expr::Expr`] trees (the one expression model of the crate, printed into the pack by its
//! `Display`); [`lowering`] turns the calls into rules; [`names`] reads a data source path's names;
//! [`generated`] reads Generated data sources' loops into derived series; [`description`] turns a
//! DESCRIPTION's HTML into rich text and links. Every refusal is a [`Reason`] with its [`ReasonCode`].

use super::error::AnalysisError;
use super::pack::{RulePack, Severity, Threshold};
use serde::Serialize;

mod description;
mod fold;
mod generated;
mod grammar;
mod importer;
mod lexer;
mod lowering;
mod names;
mod parser;
mod xml;

/// What `importPalThresholds` returns: the pack, how much of the files it holds, and why the rest not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PalImport {
    pub pack: RulePack,
    /// THRESHOLD elements translated into rules.
    pub translated: usize,
    /// THRESHOLD elements read (of the files given and the inherited files found).
    pub total: usize,
    /// Every THRESHOLD left out, with the reason: `translated + untranslated.len() == total`.
    pub untranslated: Vec<Untranslated>,
    /// PAL's QUESTIONs, as the files ask them.
    pub variables: Vec<PalQuestion>,
    /// Inherited files (`<INHERITANCE FILEPATH>`) that were not given; the rest imported.
    pub missing_files: Vec<String>,
    /// CHART warning/critical bands (`StaticChartThreshold`), translated like thresholds.
    pub bands: Vec<ChartBand>,
    /// What else the reader noticed (a missing inherited file, an analysis overridden by another file,
    /// a band it could not translate).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Untranslated {
    /// The ANALYSIS NAME.
    pub analysis: String,
    /// The THRESHOLD NAME.
    pub threshold: String,
    /// What kind of reason, for programs (`js/index.d.ts`: `PalUntranslatedCode`).
    pub code: ReasonCode,
    /// The reason, for people: what the snippet does that is not translated, with its words.
    pub reason: String,
}

/// Why a THRESHOLD (or a chart band) was not translated: the kind, a stable machine-readable code, and
/// the message a person reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    pub code: ReasonCode,
    pub message: String,
}

/// The kinds of untranslated thresholds; [`ReasonCode::code`] is what `importPalThresholds` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReasonCode {
    /// The analysis is disabled in the file (`ENABLED="False"`).
    Disabled,
    /// The THRESHOLD's CONDITION is neither Warning nor Critical.
    Condition,
    /// A hand-written rule that loops over instances, values or time slices.
    Loop,
    /// A rule that raises its own alerts (`CreateAlert`).
    Alert,
    /// The snippet makes no StaticThreshold (or StaticChartThreshold) call.
    NoThresholdCall,
    /// A collection that is not a DATASOURCE of the file.
    Collection,
    /// A Generated data source in a form not translated.
    Generated,
    /// A variable that is no QUESTION of the files read, or an answer used where it does not fit.
    Question,
    /// The snippet is not PowerShell the reader can follow (a token or a statement out of place).
    Syntax,
    /// A PowerShell form the reader does not translate (a cast, a method, a parameter, a condition).
    Form,
    /// Branches of an If/Else or switch that make different threshold calls.
    Branches,
    /// Beyond the bounds (nesting depth, If statements and switch cases, expression size).
    TooLarge,
}

impl ReasonCode {
    pub const ALL: [ReasonCode; 12] = [
        ReasonCode::Disabled,
        ReasonCode::Condition,
        ReasonCode::Loop,
        ReasonCode::Alert,
        ReasonCode::NoThresholdCall,
        ReasonCode::Collection,
        ReasonCode::Generated,
        ReasonCode::Question,
        ReasonCode::Syntax,
        ReasonCode::Form,
        ReasonCode::Branches,
        ReasonCode::TooLarge,
    ];

    /// The code as `importPalThresholds` reports it: `"no-threshold-call"`.
    pub fn code(self) -> &'static str {
        match self {
            ReasonCode::Disabled => "disabled",
            ReasonCode::Condition => "condition",
            ReasonCode::Loop => "loop",
            ReasonCode::Alert => "alert",
            ReasonCode::NoThresholdCall => "no-threshold-call",
            ReasonCode::Collection => "collection",
            ReasonCode::Generated => "generated",
            ReasonCode::Question => "question",
            ReasonCode::Syntax => "syntax",
            ReasonCode::Form => "form",
            ReasonCode::Branches => "branches",
            ReasonCode::TooLarge => "too-large",
        }
    }
}

impl Reason {
    pub fn new(code: ReasonCode, message: impl Into<String>) -> Reason {
        Reason {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// A form not translated: the reason most of the snippet reader's refusals give.
impl From<String> for Reason {
    fn from(message: String) -> Reason {
        Reason::new(ReasonCode::Form, message)
    }
}

impl From<&str> for Reason {
    fn from(message: &str) -> Reason {
        Reason::new(ReasonCode::Form, message)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PalQuestion {
    pub name: String,
    pub default: String,
    pub question: String,
}

/// A chart band of an analysis: values between `min` and `max` are drawn in the severity's colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartBand {
    pub analysis: String,
    pub counter: String,
    pub severity: Severity,
    pub min: Threshold,
    pub max: Threshold,
}

/// The pack variable logical processors are read into (derived from the capture): the analysis' own,
/// defined once in [`super::variables`].
pub use super::variables::LOGICAL_PROCESSORS;

/// The pack variable a derived % Network Utilization compares bytes/sec with: the links' speed in
/// Mbit/s, the built-in system overview's own question (one question, one unit, when both run).
pub const NETWORK_BANDWIDTH: &str = "LinkSpeedMbps";

/// PAL's `PhysicalMemory` answer (GB) under the built-in packs' name for it.
pub const PHYSICAL_MEMORY_GB: &str = "PhysicalMemoryGB";

/// Imports PAL threshold files given as (file name, XML text). Files inherited by another given file
/// (`<INHERITANCE FILEPATH>`, matched on the file name, case-insensitively) are read through it; an
/// analysis defined in the inheriting file wins over one of the same ID in the inherited file, as in PAL.
/// XML that is not well formed is an error with its line and column; everything else is reported.
pub fn import_pal(files: &[(String, String)]) -> Result<PalImport, AnalysisError> {
    xml::import(files)
}
