//! The Parquet long layout (docs/fleet.md, the CLI contract): one row per value that exists, so every
//! engine counts what PDH counts. Columns: `time` TIMESTAMP(MICROS, UTC) not null; `machine`, `object`,
//! `instance` (null without one), `counter`, `source` dictionary-encoded strings; `value` DOUBLE.
//! Written with the arrow and parquet crates, zstd-compressed, in row groups of about a million rows.
//!
//! Rows go series by series within each input (a series' name columns are one long run, which the
//! dictionary and RLE encodings store in a few bytes), in time order within a series.

use crate::error::CliError;
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Float64Array, Int32Array, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use counterlens::capture::Capture;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::schema::types::ColumnPath;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per record batch handed to the writer.
const BATCH: usize = 1 << 18;
/// Rows per row group: 1 Mi rows, parquet-rs's default and a size DuckDB and Spark read in parallel.
const ROW_GROUP: usize = 1 << 20;

fn dict() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int32), Box::new(DataType::Utf8))
}

pub fn schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new(
            "time",
            DataType::Timestamp(TimeUnit::Microsecond, Some("UTC".into())),
            false,
        ),
        Field::new("machine", dict(), false),
        Field::new("object", dict(), false),
        Field::new("instance", dict(), true),
        Field::new("counter", dict(), false),
        Field::new("value", DataType::Float64, false),
        Field::new("source", dict(), false),
    ]))
}

pub struct LongWriter {
    writer: ArrowWriter<std::io::BufWriter<std::fs::File>>,
    schema: SchemaRef,
    path: PathBuf,
    pub rows: u64,
}

/// Distinct strings, each with its key.
#[derive(Default)]
struct Dict {
    keys: HashMap<String, i32>,
    values: Vec<String>,
}

impl Dict {
    fn key(&mut self, s: &str) -> i32 {
        if let Some(&k) = self.keys.get(s) {
            return k;
        }
        let k = self.values.len() as i32;
        self.values.push(s.to_string());
        self.keys.insert(s.to_string(), k);
        k
    }
    fn array(&self) -> Arc<StringArray> {
        Arc::new(StringArray::from_iter_values(self.values.iter()))
    }
}

/// One batch being filled.
#[derive(Default)]
struct Batch {
    time: Vec<i64>,
    value: Vec<f64>,
    machine: Vec<i32>,
    object: Vec<i32>,
    instance: Vec<Option<i32>>,
    counter: Vec<i32>,
}

impl LongWriter {
    pub fn create(path: &Path) -> Result<LongWriter, CliError> {
        let file = std::fs::File::create(path).map_err(CliError::io(path))?;
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            .set_max_row_group_row_count(Some(ROW_GROUP))
            // Doubles rarely repeat: a dictionary for them only costs time.
            .set_column_dictionary_enabled(ColumnPath::from("value"), false)
            .build();
        let schema = schema();
        let writer = ArrowWriter::try_new(
            std::io::BufWriter::with_capacity(1 << 20, file),
            schema.clone(),
            Some(props),
        )
        .map_err(|source| CliError::Parquet {
            file: path.to_path_buf(),
            source,
        })?;
        Ok(LongWriter {
            writer,
            schema,
            path: path.to_path_buf(),
            rows: 0,
        })
    }

    fn perr(&self) -> impl Fn(parquet::errors::ParquetError) -> CliError + '_ {
        move |source| CliError::Parquet {
            file: self.path.clone(),
            source,
        }
    }

    fn flush(
        &mut self,
        b: &mut Batch,
        dicts: &[Dict; 4],
        source: &Arc<StringArray>,
    ) -> Result<(), CliError> {
        if b.time.is_empty() {
            return Ok(());
        }
        let n = b.time.len();
        let d = |keys: Vec<i32>, dict: &Dict| -> Result<ArrayRef, arrow_schema::ArrowError> {
            Ok(Arc::new(DictionaryArray::<Int32Type>::try_new(
                Int32Array::from(keys),
                dict.array(),
            )?))
        };
        let arrow = |source| CliError::Arrow {
            file: self.path.clone(),
            source,
        };
        let columns: Vec<ArrayRef> = vec![
            Arc::new(
                TimestampMicrosecondArray::from(std::mem::take(&mut b.time)).with_timezone("UTC"),
            ),
            d(std::mem::take(&mut b.machine), &dicts[0]).map_err(arrow)?,
            d(std::mem::take(&mut b.object), &dicts[1]).map_err(arrow)?,
            Arc::new(
                DictionaryArray::<Int32Type>::try_new(
                    Int32Array::from(std::mem::take(&mut b.instance)),
                    dicts[2].array(),
                )
                .map_err(arrow)?,
            ),
            d(std::mem::take(&mut b.counter), &dicts[3]).map_err(arrow)?,
            Arc::new(Float64Array::from(std::mem::take(&mut b.value))),
            Arc::new(
                DictionaryArray::<Int32Type>::try_new(Int32Array::from(vec![0; n]), source.clone())
                    .map_err(arrow)?,
            ),
        ];
        let batch = RecordBatch::try_new(self.schema.clone(), columns).map_err(arrow)?;
        self.writer.write(&batch).map_err(self.perr())?;
        self.rows += n as u64;
        Ok(())
    }

    /// Writes every value of the capture that exists, with `source` in the source column.
    pub fn write(&mut self, source: &str, c: &Capture) -> Result<u64, CliError> {
        let before = self.rows;
        let mut dicts: [Dict; 4] = Default::default();
        let source = Arc::new(StringArray::from(vec![source]));
        let times: Vec<i64> = c
            .timestamps
            .iter()
            .map(|t| (t * 1000.0).round() as i64)
            .collect();
        let mut b = Batch::default();
        for s in &c.series {
            let p = &s.parsed;
            let machine = dicts[0].key(&p.machine);
            let object = dicts[1].key(&p.object);
            let instance = p.instance.as_ref().map(|i| match &p.parent {
                Some(parent) => dicts[2].key(&format!("{parent}/{i}")),
                None => dicts[2].key(i),
            });
            let counter = dicts[3].key(&p.counter);
            for (k, &v) in s.values.iter().enumerate() {
                if v.is_nan() {
                    continue;
                }
                b.time.push(times[k]);
                b.value.push(v);
                b.machine.push(machine);
                b.object.push(object);
                b.instance.push(instance);
                b.counter.push(counter);
                if b.time.len() == BATCH {
                    self.flush(&mut b, &dicts, &source)?;
                }
            }
        }
        self.flush(&mut b, &dicts, &source)?;
        Ok(self.rows - before)
    }

    pub fn close(self) -> Result<u64, CliError> {
        let rows = self.rows;
        let path = self.path.clone();
        let inner = self
            .writer
            .into_inner()
            .map_err(|source| CliError::Parquet {
                file: path.clone(),
                source,
            })?;
        inner
            .into_inner()
            .map_err(|e| CliError::Io {
                file: path.clone(),
                source: e.into_error(),
            })?
            .sync_all()
            .map_err(CliError::io(&path))?;
        Ok(rows)
    }
}
