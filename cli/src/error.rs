//! What can go wrong on the command line, each naming the file (and, through the core's messages, the
//! line and column or byte offset) it is about.

use std::path::PathBuf;

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
    /// A line of a `--cf` file that is not a counter path pattern (a usage error).
    #[error("--cf {}: line {line}: '{text}' is {}", file.display(), crate::args::NOT_A_PATTERN)]
    PatternFile {
        file: PathBuf,
        line: usize,
        text: String,
    },
    #[error("{}: the file exists; give --overwrite to replace it", .0.display())]
    Exists(PathBuf),
    #[error("{}: {source}", file.display())]
    Analysis {
        file: PathBuf,
        source: counterlens::analysis::AnalysisError,
    },
    /// A log and a baseline that do not go together (another machine's).
    #[error("{}: {source}", file.display())]
    Baseline {
        file: PathBuf,
        source: counterlens::analysis::baseline::BaselineError,
    },
    /// A usage error found after clap's parsing (a `--pack` file that is no pack, options that do not
    /// go together): exit code 2, as clap's own.
    #[error("{0}")]
    Usage(String),
}

impl CliError {
    /// The exit code: 2 for usage errors (the command as given cannot run), 1 for everything else.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Usage(_) | CliError::PatternFile { .. } => 2,
            _ => 1,
        }
    }

    /// The file the error is about, when it names one.
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            CliError::Io { file, .. }
            | CliError::Capture { file, .. }
            | CliError::Parquet { file, .. }
            | CliError::Arrow { file, .. }
            | CliError::Analysis { file, .. }
            | CliError::Baseline { file, .. } => Some(file),
            CliError::Exists(file) => Some(file),
            CliError::PatternFile { .. } | CliError::Usage(_) => None,
        }
    }

    pub fn io(file: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> CliError {
        let file = file.into();
        move |source| CliError::Io { file, source }
    }
}
