//! The errors of the analysis: a pack that does not read, a threshold that does not evaluate, a variable
//! that is unknown or not a number, a request the capture cannot answer. Each names the place and what
//! was expected; nothing in the analysis panics on bad input.

use thiserror::Error;

#[derive(Clone, Debug, PartialEq, Error)]
pub enum AnalysisError {
    /// A rule pack that is not valid JSON or breaks the pack format (docs/analysis.md).
    #[error("rule pack, at {pointer} (line {line}, column {column}): {message}")]
    Pack {
        /// JSON pointer of the value at fault (`/rules/3/operator`); empty for the whole document.
        pointer: String,
        line: usize,
        column: usize,
        /// What was found and what was expected, in serde_json's words.
        message: String,
    },
    /// A pack whose content is well formed but inconsistent (a duplicate rule id, a bad id, ...).
    #[error("rule pack {pack}, at {pointer}: {message}")]
    PackContent {
        pack: String,
        pointer: String,
        message: String,
    },
    /// `packs` named a built-in pack that does not exist.
    #[error("no built-in rule pack is called {0:?}")]
    UnknownPack(String),
    /// A threshold expression that does not parse.
    #[error("threshold {expression:?}, at byte {offset}: {message}")]
    Expression {
        expression: String,
        offset: usize,
        message: String,
    },
    /// A threshold names a variable that neither the user, the capture nor the pack gives.
    #[error("threshold {expression:?} of rule {rule}: unknown variable {name:?}")]
    UnknownVariable {
        name: String,
        rule: String,
        expression: String,
    },
    /// A variable used in a threshold whose value is not a number.
    #[error("variable {name:?} is {value:?}, not a number")]
    NonNumericVariable { name: String, value: String },
    /// A number given for a variable a threshold tests as text (`is(OS, 'Windows Server')`).
    #[error("threshold {expression:?} of rule {rule}: variable {name:?} (at byte {offset}) is the number {value}, but is(), startsWith() and at() test text")]
    NonTextVariable {
        name: String,
        value: f64,
        offset: usize,
        rule: String,
        expression: String,
    },
    /// A slice length or a time range that cannot cut the capture.
    #[error("{0}")]
    Options(String),
    /// A machine's normal that cannot judge the log (another machine's, a log with nothing to learn
    /// from, a file that is no baseline): a `BaselineError`'s message (its `From` is in baseline.rs).
    #[error("baseline: {0}")]
    Baseline(String),
    /// PAL threshold XML that is not well formed (the PAL importer).
    #[error("PAL file {file}, line {line}, column {column}: {message}")]
    PalXml {
        file: String,
        line: u32,
        column: u32,
        message: String,
    },
}

impl AnalysisError {
    /// Every code `code()` gives, once each (the JS `AnalysisErrorCode` union lists them:
    /// crate/tests/js_types.rs).
    pub const CODES: [&'static str; 9] = [
        "bad-pack",
        "unknown-pack",
        "bad-expression",
        "unknown-variable",
        "non-numeric-variable",
        "non-text-variable",
        "invalid-option",
        "bad-pal-xml",
        "baseline",
    ];

    /// The stable code the JS `AnalysisError` carries (`err.code`), one per kind.
    pub fn code(&self) -> &'static str {
        match self {
            AnalysisError::Pack { .. } | AnalysisError::PackContent { .. } => "bad-pack",
            AnalysisError::UnknownPack(_) => "unknown-pack",
            AnalysisError::Expression { .. } => "bad-expression",
            AnalysisError::UnknownVariable { .. } => "unknown-variable",
            AnalysisError::NonNumericVariable { .. } => "non-numeric-variable",
            AnalysisError::NonTextVariable { .. } => "non-text-variable",
            AnalysisError::Options(_) => "invalid-option",
            AnalysisError::PalXml { .. } => "bad-pal-xml",
            AnalysisError::Baseline(_) => "baseline",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::AnalysisError;

    #[test]
    fn codes_lists_the_code_of_every_kind_once() {
        let s = String::new;
        let every = [
            AnalysisError::Pack {
                pointer: s(),
                line: 1,
                column: 1,
                message: s(),
            },
            AnalysisError::PackContent {
                pack: s(),
                pointer: s(),
                message: s(),
            },
            AnalysisError::UnknownPack(s()),
            AnalysisError::Expression {
                expression: s(),
                offset: 0,
                message: s(),
            },
            AnalysisError::UnknownVariable {
                name: s(),
                rule: s(),
                expression: s(),
            },
            AnalysisError::NonNumericVariable {
                name: s(),
                value: s(),
            },
            AnalysisError::NonTextVariable {
                name: s(),
                value: 0.0,
                offset: 0,
                rule: s(),
                expression: s(),
            },
            AnalysisError::Options(s()),
            AnalysisError::PalXml {
                file: s(),
                line: 1,
                column: 1,
                message: s(),
            },
            AnalysisError::Baseline(s()),
        ];
        let mut codes: Vec<&str> = every.iter().map(AnalysisError::code).collect();
        codes.dedup(); // Pack and PackContent share "bad-pack", side by side
        assert_eq!(codes, AnalysisError::CODES);
    }
}
