//! What a tool call can get wrong, typed: each becomes a tool result with `isError: true` and this
//! message (a model reads it and tries again), never a crash or a JSON-RPC error.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// An argument missing, of the wrong type or out of its range.
    #[error("invalid arguments: {0}")]
    Argument(String),
    /// A path that leads out of the roots (by `..`, an absolute path or a symbolic link).
    #[error("{path} is outside the roots this server serves ({roots}); give a path relative to a root, as list_logs shows it")]
    Outside { path: String, roots: String },
    #[error("no log {path} under the roots ({roots}); call list_logs for the logs there")]
    NotFound { path: String, roots: String },
    #[error("{path} is not a file")]
    NotAFile { path: String },
    #[error("{}: {source}", file.display())]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    /// The core's reader refused the log (or a part of it asked for).
    #[error("{}: {source}", file.display())]
    Capture {
        file: PathBuf,
        source: counterlens::capture::CaptureError,
    },
    #[error("{}: {source}", file.display())]
    Analysis {
        file: PathBuf,
        source: counterlens::analysis::AnalysisError,
    },
    /// No series of the log matches the counter pattern given.
    #[error("no series of {log} matches {pattern}; call catalogue (with a wider pattern, such as \\Processor(*)\\*) for the log's series")]
    NoMatch { log: String, pattern: String },
    /// A whole read of a log bigger than the bound.
    #[error("{log} is {size} bytes, over the {bound}-byte bound for reading a whole log (analyze, summary, explain of a finding); read a part of it instead: statistics or values with a counters pattern and a time range (or start the server with a larger --max-log-bytes)")]
    TooLarge { log: String, size: u64, bound: u64 },
    /// The call ran past its time bound (checked between chunks read and between series).
    #[error("stopped: the call took longer than its time bound of {seconds} s ({what}); ask for less (a narrower counters pattern, a time range) or start the server with a larger --timeout")]
    TimeBound { seconds: u64, what: String },
}

impl McpError {
    pub fn argument(text: impl Into<String>) -> McpError {
        McpError::Argument(text.into())
    }
}
