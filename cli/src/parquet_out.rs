//! The Parquet long layout (docs/fleet.md, the CLI contract): one row per value that exists, so every
//! engine counts what PDH counts. Columns: `time` TIMESTAMP(MICROS, UTC) not null; `machine`, `object`,
//! `instance` (null without one), `counter`, `source` dictionary-encoded strings; `value` DOUBLE; then
//! `object_en` and `counter_en`, the English names from the core's map (`capture::names`), null where
//! the map has no entry, so one query covers logs written in every language.
//! Written with the arrow and parquet crates, zstd-compressed, in row groups of about a million rows,
//! under a temporary name renamed into place when complete (`naming::Staged`).
//!
//! Rows go series by series within each input (a series' name columns are one long run, which the
//! dictionary and RLE encodings store in a few bytes), in time order within a series.

use crate::error::CliError;
use crate::naming::Staged;
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
        Field::new("object_en", dict(), true),
        Field::new("counter_en", dict(), true),
    ]))
}

pub struct LongWriter {
    writer: ArrowWriter<std::io::BufWriter<std::fs::File>>,
    schema: SchemaRef,
    path: PathBuf,
    staged: Staged,
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
    object_en: Vec<Option<i32>>,
    counter_en: Vec<Option<i32>>,
}

/// Which part of a capture to write: some series and some samples (None: all).
#[derive(Clone, Copy, Default)]
pub struct Part<'a> {
    pub series: Option<&'a [usize]>,
    pub samples: Option<&'a [usize]>,
}

impl LongWriter {
    /// A new file at `path` (refused when it exists, unless `overwrite`); parent folders are created.
    pub fn create(path: &Path, overwrite: bool) -> Result<LongWriter, CliError> {
        let (staged, file) = Staged::create(path, overwrite)?;
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
            staged,
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
        dicts: &[Dict; 6],
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
        let nullable =
            |keys: Vec<Option<i32>>, dict: &Dict| -> Result<ArrayRef, arrow_schema::ArrowError> {
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
            nullable(std::mem::take(&mut b.instance), &dicts[2]).map_err(arrow)?,
            d(std::mem::take(&mut b.counter), &dicts[3]).map_err(arrow)?,
            Arc::new(Float64Array::from(std::mem::take(&mut b.value))),
            Arc::new(
                DictionaryArray::<Int32Type>::try_new(Int32Array::from(vec![0; n]), source.clone())
                    .map_err(arrow)?,
            ),
            nullable(std::mem::take(&mut b.object_en), &dicts[4]).map_err(arrow)?,
            nullable(std::mem::take(&mut b.counter_en), &dicts[5]).map_err(arrow)?,
        ];
        let batch = RecordBatch::try_new(self.schema.clone(), columns).map_err(arrow)?;
        self.writer.write(&batch).map_err(self.perr())?;
        self.rows += n as u64;
        Ok(())
    }

    /// Writes every value of `part` of the capture that exists, with `source` in the source column;
    /// `on_rows(done, total)` is told as rows go out.
    pub fn write(
        &mut self,
        source: &str,
        c: &Capture,
        part: Part<'_>,
        on_rows: &mut dyn FnMut(u64, u64),
    ) -> Result<u64, CliError> {
        use counterlens::capture::names::english_parts;
        let before = self.rows;
        let all_series: Vec<usize>;
        let series = match part.series {
            Some(s) => s,
            None => {
                all_series = (0..c.series.len()).collect();
                &all_series
            }
        };
        let all_samples: Vec<usize>;
        let samples = match part.samples {
            Some(s) => s,
            None => {
                all_samples = (0..c.timestamps.len()).collect();
                &all_samples
            }
        };
        let total: u64 = series
            .iter()
            .map(|&i| {
                let v = &c.series[i].values;
                samples.iter().filter(|&&k| !v[k].is_nan()).count() as u64
            })
            .sum();
        let mut dicts: [Dict; 6] = Default::default();
        let source = Arc::new(StringArray::from(vec![source]));
        let times: Vec<i64> = c
            .timestamps
            .iter()
            .map(|t| (t * 1000.0).round() as i64)
            .collect();
        let mut b = Batch::default();
        for &i in series {
            let s = &c.series[i];
            let p = &s.parsed;
            let machine = dicts[0].key(&p.machine);
            let object = dicts[1].key(&p.object);
            let instance = p.instance.as_ref().map(|i| match &p.parent {
                Some(parent) => dicts[2].key(&format!("{parent}/{i}")),
                None => dicts[2].key(i),
            });
            let counter = dicts[3].key(&p.counter);
            let (o_en, c_en) = english_parts(p);
            let object_en = o_en.map(|o| dicts[4].key(o));
            let counter_en = c_en.map(|c| dicts[5].key(c));
            for &k in samples {
                let v = s.values[k];
                if v.is_nan() {
                    continue;
                }
                b.time.push(times[k]);
                b.value.push(v);
                b.machine.push(machine);
                b.object.push(object);
                b.instance.push(instance);
                b.counter.push(counter);
                b.object_en.push(object_en);
                b.counter_en.push(counter_en);
                if b.time.len() == BATCH {
                    self.flush(&mut b, &dicts, &source)?;
                    on_rows(self.rows - before, total);
                }
            }
        }
        self.flush(&mut b, &dicts, &source)?;
        on_rows(self.rows - before, total);
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
        self.staged.commit()?;
        Ok(rows)
    }
}
