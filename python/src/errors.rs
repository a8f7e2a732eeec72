//! Errors as Python exceptions: `CounterlensError` and its classes `CaptureError`, `AnalysisError` and
//! `ConvertError` (the npm package's classes, in Python's spelling), each with the core's stable `code`
//! and, where one applies, the place: `line`/`column` or `offset` in the log, the pack's JSON `pointer`,
//! the PAL `file`, the `variable`, or the argument (`field`) at fault. Attributes that do not apply are
//! None, so `e.code` and `e.line` can always be read.

use counterlens::analysis::AnalysisError as CoreAnalysisError;
use counterlens::capture::CaptureError as CoreCaptureError;
use counterlens_cli::error::CliError;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

pyo3::create_exception!(
    counterlens,
    CounterlensError,
    PyException,
    "An error of counterlens: `code` says which, `message` what; the place, where one applies."
);
pyo3::create_exception!(
    counterlens,
    CaptureError,
    CounterlensError,
    "A log that does not read, or a reading option that is wrong."
);
pyo3::create_exception!(
    counterlens,
    AnalysisError,
    CounterlensError,
    "A rule pack, PAL file, variable or analysis option that is wrong."
);
pyo3::create_exception!(
    counterlens,
    ConvertError,
    CounterlensError,
    "An output that cannot be written (it exists, a folder is missing, the disk is full)."
);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("CounterlensError", py.get_type::<CounterlensError>())?;
    m.add("CaptureError", py.get_type::<CaptureError>())?;
    m.add("AnalysisError", py.get_type::<AnalysisError>())?;
    m.add("ConvertError", py.get_type::<ConvertError>())?;
    Ok(())
}

/// The place of an error, each part where it applies.
#[derive(Default)]
pub struct Place {
    pub line: Option<u64>,
    pub column: Option<u64>,
    pub offset: Option<u64>,
    pub field: Option<String>,
    pub pointer: Option<String>,
    pub file: Option<String>,
    pub variable: Option<String>,
}

/// An exception of class `E` with `message`, `code` and every attribute of `place` (None where absent).
fn raise<E: pyo3::PyTypeInfo>(code: &str, message: String, place: Place) -> PyErr {
    Python::attach(|py| {
        let err = PyErr::new::<E, _>(message.clone());
        let v = err.value(py);
        let numbers = [
            ("line", place.line),
            ("column", place.column),
            ("offset", place.offset),
        ];
        let texts = [
            ("code", Some(code.to_string())),
            ("message", Some(message)),
            ("field", place.field),
            ("pointer", place.pointer),
            ("file", place.file),
            ("variable", place.variable),
        ];
        // Setting an attribute of a fresh exception instance does not fail; if it did, the exception
        // would still be raised, without that attribute.
        for (k, n) in numbers {
            let _ = v.setattr(k, n);
        }
        for (k, t) in texts {
            let _ = v.setattr(k, t);
        }
        err
    })
}

/// An argument the binding refuses before the core sees it (the npm package's `invalid-argument`).
pub fn invalid_capture_argument(message: impl Into<String>, field: &str) -> PyErr {
    raise::<CaptureError>(
        "invalid-argument",
        message.into(),
        Place {
            field: Some(field.to_string()),
            ..Place::default()
        },
    )
}

pub fn invalid_analysis_argument(message: impl Into<String>, field: &str) -> PyErr {
    raise::<AnalysisError>(
        "invalid-argument",
        message.into(),
        Place {
            field: Some(field.to_string()),
            ..Place::default()
        },
    )
}

/// An option as `open_capture` spells it (the core names it as the npm package does).
fn python_option(field: &str) -> String {
    match field {
        "from" => "from_ms",
        "to" => "to_ms",
        "keepRaw" => "keep_raw",
        "maxColumnBytes" => "max_column_bytes",
        f => f,
    }
    .to_string()
}

/// The core's capture error: its code, line and column (text logs) or byte offset (binary logs).
pub fn capture_error(e: CoreCaptureError) -> PyErr {
    let code = e.code();
    raise::<CaptureError>(
        code,
        e.message,
        Place {
            line: e.line.map(u64::from),
            column: e.column.map(u64::from),
            offset: e.offset.map(|o| o as u64),
            field: e.field.map(python_option),
            ..Place::default()
        },
    )
}

/// The core's analysis error: its code, and the pack's JSON pointer (with line and column), the PAL
/// file's line and column, or the variable.
pub fn analysis_error(e: CoreAnalysisError) -> PyErr {
    let message = e.to_string();
    let code = e.code();
    let field = match &e {
        CoreAnalysisError::UnknownPack(_) => Some("packs"),
        CoreAnalysisError::UnknownVariable { .. }
        | CoreAnalysisError::NonNumericVariable { .. }
        | CoreAnalysisError::NonTextVariable { .. } => Some("variables"),
        CoreAnalysisError::PalXml { .. } => Some("files"),
        _ => None,
    };
    let mut place = Place {
        field: field.map(str::to_string),
        ..Place::default()
    };
    match e {
        CoreAnalysisError::Pack {
            pointer,
            line,
            column,
            ..
        } => {
            place.pointer = Some(pointer);
            place.line = Some(line as u64);
            place.column = Some(column as u64);
        }
        CoreAnalysisError::PackContent { pointer, .. } => place.pointer = Some(pointer),
        CoreAnalysisError::UnknownVariable { name, .. }
        | CoreAnalysisError::NonNumericVariable { name, .. }
        | CoreAnalysisError::NonTextVariable { name, .. } => place.variable = Some(name),
        CoreAnalysisError::PalXml {
            file, line, column, ..
        } => {
            place.file = Some(file);
            place.line = Some(u64::from(line));
            place.column = Some(u64::from(column));
        }
        _ => {}
    }
    raise::<AnalysisError>(code, message, place)
}

/// An error of the CLI's library: a capture's error keeps its class and code (the file named in the
/// message); writing errors are `ConvertError`s: `exists` (no overwrite), `io`, `parquet`.
pub fn cli_error(e: CliError) -> PyErr {
    let file = e.file().map(|f| f.display().to_string());
    let message = e.to_string();
    match e {
        CliError::Capture { source, .. } => {
            let code = source.code();
            raise::<CaptureError>(
                code,
                message,
                Place {
                    line: source.line.map(u64::from),
                    column: source.column.map(u64::from),
                    offset: source.offset.map(|o| o as u64),
                    field: source.field.map(python_option),
                    file,
                    ..Place::default()
                },
            )
        }
        CliError::Analysis { source, .. } => analysis_error(source),
        other => {
            let code = match other {
                CliError::Exists(_) => "exists",
                CliError::Io { .. } => "io",
                CliError::Parquet { .. } | CliError::Arrow { .. } => "parquet",
                _ => "invalid-argument",
            };
            raise::<ConvertError>(
                code,
                message,
                Place {
                    file,
                    ..Place::default()
                },
            )
        }
    }
}
