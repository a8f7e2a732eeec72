//! `convert`: a capture to a file in the CLI's formats, with the CLI's own writers: Parquet in the
//! long layout (`counterlens_cli::parquet_out`, the file `counterlens convert` writes for one input),
//! and CSV, TSV or JSON (`cmd::convert::write_table`). A file that exists is refused unless
//! `overwrite`; a file appears only once complete.

use crate::capture::capture_arg;
use crate::errors::{cli_error, invalid_capture_argument};
use counterlens_cli::cmd::convert::{write_table, OutFormat};
use counterlens_cli::parquet_out::{LongWriter, Stream};
use counterlens_cli::select::Piece;
use pyo3::prelude::*;
use std::path::PathBuf;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(convert, m)?)?;
    Ok(())
}

/// Writes `capture` (a `Capture`, or a log's bytes or path) to `output` as `to` (parquet, csv, tsv,
/// json; default: from the output's extension, else csv, as the CLI). Returns the rows written
/// (Parquet: values; the others: samples).
#[pyfunction]
#[pyo3(signature = (capture, output, *, to=None, overwrite=false, source=None))]
fn convert(
    py: Python<'_>,
    capture: &Bound<'_, PyAny>,
    output: PathBuf,
    to: Option<&str>,
    overwrite: bool,
    source: Option<String>,
) -> PyResult<u64> {
    let format = match to.map(str::to_ascii_lowercase).as_deref().or_else(|| {
        output
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| match e.to_ascii_lowercase().as_str() {
                "parquet" => "parquet",
                "tsv" => "tsv",
                "json" => "json",
                _ => "csv",
            })
    }) {
        None | Some("csv") => OutFormat::Csv,
        Some("tsv") => OutFormat::Tsv,
        Some("json") => OutFormat::Json,
        Some("parquet") => OutFormat::Parquet,
        Some(other) => {
            return Err(invalid_capture_argument(
                format!("to must be parquet, csv, tsv or json, not {other:?}"),
                "to",
            ))
        }
    };
    let c = capture_arg(py, capture)?;
    let c = c.get();
    let source = source.unwrap_or_else(|| c.source.clone());
    py.detach(|| match format {
        OutFormat::Parquet => {
            let mut w = LongWriter::create(&output, overwrite)?;
            let mut stream = Stream::new(&source);
            let piece = Piece::whole(c.inner.clone());
            let n = piece.times.len();
            stream.add(&mut w, &piece, 0..n, None)?;
            stream.flush(&mut w)?;
            w.close()
        }
        f => {
            write_table(&c.inner, f, &output, overwrite)?;
            Ok(c.inner.timestamps.len() as u64)
        }
    })
    .map_err(cli_error)
}
