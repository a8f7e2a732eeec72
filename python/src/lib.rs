//! The PyO3 binding layer: the only place Python objects exist. Each function converts its arguments
//! (checking them: Python callers can pass anything), calls the core (or the CLI's library for files,
//! gzip and the Parquet long layout), and converts the result. No calculation lives here, as in
//! `crate/src/wasm/`; the Python half (`counterlens/__init__.py`) only wraps results in classes and
//! DataFrames, and `counterlens/_counterlens.pyi` is the typed contract.
//!
//! | module | what it holds |
//! |---|---|
//! | `errors` | the exception classes and the core's errors as exceptions carrying `code` and positions |
//! | `capture` | `open_capture` and the `Capture` class: columns as NumPy arrays, the long table as Arrow |
//! | `analysis` | `analyze`, `rule_packs`, `rule_pack`, `import_pal_thresholds`, `analysis_report` |
//! | `convert` | `convert`: a capture to Parquet (the CLI's writer), CSV, TSV or JSON |

mod analysis;
mod capture;
mod convert;
mod errors;

use pyo3::prelude::*;

/// The package version (the crate's).
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _counterlens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(version, m)?)?;
    errors::register(m)?;
    capture::register(m)?;
    analysis::register(m)?;
    convert::register(m)?;
    Ok(())
}
