//! What can go wrong on the command line, each naming the file (and, through the core's messages, the
//! line and column or byte offset) it is about.

use std::path::PathBuf;

const PATTERN_HELP: &str = r"not a counter path pattern: expected \\MACHINE\Object(Instance)\Counter, \Object(*)\Counter or \Object\Counter (machine optional; * and ? allowed in each part)";

#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    /// The core's reader refused the capture; its message starts with the line and column or byte.
    #[error("{}: {source}", file.display())]
    Capture {
        file: PathBuf,
        source: counterlens::capture::CaptureError,
    },
    #[error("{}: {source}", file.display())]
    Parquet {
        file: PathBuf,
        source: parquet::errors::ParquetError,
    },
    #[error("{}: {source}", file.display())]
    Arrow {
        file: PathBuf,
        source: arrow_schema::ArrowError,
    },
    #[error("-c {0:?}: {help}", help = PATTERN_HELP)]
    Pattern(String),
    #[error("{}: line {line}: {pattern:?}: {help}", file.display(), help = PATTERN_HELP)]
    PatternFile {
        file: PathBuf,
        line: usize,
        pattern: String,
    },
    #[error("--{option} {value:?}: expected ISO 8601 (2026-11-21T12:00:00, with or without a zone such as Z or +01:00) or relog's M/d/yyyy H:mm:ss")]
    Time { option: &'static str, value: String },
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    pub fn io(file: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CliError {
        let file = file.into();
        move |source| CliError::Io { file, source }
    }
}
