//! The Parquet long layout (docs/fleet.md, the CLI contract): one row per value that exists, so every
//! engine counts what PDH counts. Columns: `time` TIMESTAMP(MICROS, UTC) not null; `machine`, `object`,
//! `instance` (null without one), `counter`, `source` dictionary-encoded strings; `value` DOUBLE; then
//! `object_en` and `counter_en`, the English names from the core's map (`capture::names`), null where
//! the map has no entry, so one query covers logs written in every language.
//! Written with the arrow and parquet crates, zstd-compressed, under a temporary name renamed into place
//! when complete (`naming::Staged`).
//!
//! Written as the log is read (`convert` streams): rows wait in a `Block` until it holds about a million
//! values (1 Mi, `ROW_GROUP`: at the first sample that brings it there), then go out as one row group,
//! series by series (a series' name columns are one long run, which the dictionary and RLE encodings
//! store in a few bytes), in time order within a series; so memory holds one row group, not the log.
//! Where a block ends depends only on the rows, never on how the input was cut into chunks, so a log
//! read whole and one read in pieces give the same file.

use crate::error::CliError;
use crate::naming::Staged;
use arrow_array::types::Int32Type;
use arrow_array::{
    ArrayRef, DictionaryArray, Float64Array, Int32Array, RecordBatch, StringArray,
    TimestampMicrosecondArray,
};
use arrow_schema::{DataType, Field, Schema, SchemaRef, TimeUnit};
use counterlens::capture::{limits, Capture};
use parquet::arrow::arrow_writer::{
    compute_leaves, ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory,
};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, ZstdLevel};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Rows per record batch handed to the writer.
const BATCH: usize = 1 << 18;
/// Values per row group: 1 Mi, parquet-rs's default row count and a size DuckDB and Spark read in
/// parallel.
const ROW_GROUP: usize = 1 << 20;

/// The values a row group holds: `ROW_GROUP`, or `COUNTERLENS_ROW_GROUP` (a test's knob: a small log
/// then spans several row groups).
pub fn row_group() -> usize {
    std::env::var("COUNTERLENS_ROW_GROUP")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(ROW_GROUP)
}

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

/// One input's rows waiting to go out as the next row group of its file: their times and, per series
/// (by its index in the input's pieces, `select::Piece`), its values at those rows (NaN: none).
#[derive(Default)]
pub struct Block {
    times: Vec<f64>,
    columns: Vec<Vec<f64>>,
    /// Values (not NaN) in the block.
    values: usize,
}

/// The rows of one input going to one file: the block being filled, the names of each series met,
/// and the order the capture lists them in.
pub struct Stream {
    source: String,
    block: Block,
    names: Vec<Option<counterlens::capture::CounterPath>>,
    order: Vec<usize>,
    limit: usize,
}

impl Stream {
    pub fn new(source: &str) -> Stream {
        Stream {
            source: source.to_string(),
            block: Block::default(),
            names: Vec::new(),
            order: Vec::new(),
            limit: row_group(),
        }
    }

    /// Adds the rows `rows` of `piece` (its series `ids`, in increasing order; `None`: all), writing a
    /// row group to `w` each time the block reaches the row group's size; returns the rows written.
    pub fn add<S: Sink>(
        &mut self,
        w: &mut S,
        piece: &crate::select::Piece,
        rows: std::ops::Range<usize>,
        ids: Option<&[usize]>,
    ) -> Result<u64, CliError> {
        let series: Vec<(usize, &[f64])> = piece
            .series
            .iter()
            .filter(|(id, _)| ids.is_none_or(|ids| ids.binary_search(id).is_ok()))
            .map(|(id, s)| (*id, &s.values[..]))
            .collect();
        for (id, s) in &piece.series {
            if ids.is_none_or(|ids| ids.binary_search(id).is_ok()) {
                if self.names.len() <= *id {
                    self.names.resize(*id + 1, None);
                }
                if self.names[*id].is_none() {
                    self.names[*id] = Some(s.parsed.clone());
                }
            }
        }
        self.order = piece.order.clone();
        let mut written = 0;
        let mut start = rows.start;
        for k in rows.clone() {
            self.block.values += series.iter().filter(|(_, v)| !v[k].is_nan()).count();
            if self.block.values >= self.limit {
                self.append(&piece.times, &series, start..k + 1);
                written += self.flush(w)?;
                start = k + 1;
            }
        }
        self.append(&piece.times, &series, start..rows.end);
        Ok(written)
    }

    fn append(&mut self, times: &[f64], series: &[(usize, &[f64])], rows: std::ops::Range<usize>) {
        let b = &mut self.block;
        let before = b.times.len();
        b.times.extend_from_slice(&times[rows.clone()]);
        for (id, v) in series {
            if b.columns.len() <= *id {
                b.columns.resize_with(*id + 1, Vec::new);
            }
            let col = &mut b.columns[*id];
            col.resize(before, f64::NAN); // a series met after the block began
            col.extend_from_slice(&v[rows.clone()]);
        }
    }

    /// Writes the block as one row group (nothing when it holds no value); returns the rows written.
    pub fn flush<S: Sink>(&mut self, w: &mut S) -> Result<u64, CliError> {
        let b = std::mem::take(&mut self.block);
        if b.values == 0 {
            return Ok(0);
        }
        let n = write_block(w, &self.source, &b, &self.order, &self.names)?;
        w.end_row_group()?;
        Ok(n)
    }
}

impl LongWriter {
    /// A new file at `path` (refused when it exists, unless `overwrite`); parent folders are created.
    pub fn create(path: &Path, overwrite: bool) -> Result<LongWriter, CliError> {
        let (staged, file) = Staged::create(path, overwrite)?;
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(ZstdLevel::default()))
            // Row groups end where a block ends (`Stream`); a block holds at most ROW_GROUP values and
            // one sample's values more, under this.
            .set_max_row_group_row_count(Some(2 * row_group().max(ROW_GROUP) + limits::MAX_COLUMNS))
            // Doubles rarely repeat: a dictionary for them only costs time.
            .set_column_dictionary_enabled(ColumnPath::from("value"), false)
            .build();
        let writer = ArrowWriter::try_new(
            std::io::BufWriter::with_capacity(1 << 20, file),
            schema(),
            Some(props),
        )
        .map_err(|source| CliError::Parquet {
            file: path.to_path_buf(),
            source,
        })?;
        Ok(LongWriter {
            writer,
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

/// Where a block's record batches go, and where its row groups end: the file's own writer
/// (`LongWriter`), or an encoder on another thread (`RowGroups`) whose row groups the file appends later.
pub trait Sink {
    fn batch(&mut self, batch: RecordBatch) -> Result<(), CliError>;
    fn end_row_group(&mut self) -> Result<(), CliError>;
    /// The output file, for errors.
    fn path(&self) -> &Path;
}

impl Sink for LongWriter {
    fn batch(&mut self, batch: RecordBatch) -> Result<(), CliError> {
        self.writer.write(&batch).map_err(self.perr())?;
        self.rows += batch.num_rows() as u64;
        Ok(())
    }
    fn end_row_group(&mut self) -> Result<(), CliError> {
        self.writer.flush().map_err(self.perr())
    }
    fn path(&self) -> &Path {
        &self.path
    }
}

/// A batch of the rows in `b` (emptied), its strings keyed in `dicts`.
fn record_batch(
    path: &Path,
    b: &mut Batch,
    dicts: &[Dict; 6],
    source: &Arc<StringArray>,
) -> Result<RecordBatch, CliError> {
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
        file: path.to_path_buf(),
        source,
    };
    let columns: Vec<ArrayRef> = vec![
        Arc::new(TimestampMicrosecondArray::from(std::mem::take(&mut b.time)).with_timezone("UTC")),
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
    RecordBatch::try_new(schema(), columns).map_err(arrow)
}

/// Writes every value of a block to `sink`, series by series in `order` (the ids of the input's series
/// in the capture's order), with `source` in the source column; returns the rows written.
fn write_block<S: Sink>(
    sink: &mut S,
    source: &str,
    block: &Block,
    order: &[usize],
    names: &[Option<counterlens::capture::CounterPath>],
) -> Result<u64, CliError> {
    use counterlens::capture::names::english_parts;
    let mut rows = 0u64;
    let mut dicts: [Dict; 6] = Default::default();
    let source = Arc::new(StringArray::from(vec![source]));
    let times: Vec<i64> = block
        .times
        .iter()
        .map(|t| (t * 1000.0).round() as i64)
        .collect();
    let mut b = Batch::default();
    let mut emit = |sink: &mut S, b: &mut Batch, dicts: &[Dict; 6]| -> Result<(), CliError> {
        if b.time.is_empty() {
            return Ok(());
        }
        rows += b.time.len() as u64;
        let batch = record_batch(sink.path(), b, dicts, &source)?;
        sink.batch(batch)
    };
    for &i in order {
        let (Some(values), Some(Some(p))) = (block.columns.get(i), names.get(i)) else {
            continue;
        };
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
        for (k, &v) in values.iter().enumerate() {
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
                emit(sink, &mut b, &dicts)?;
            }
        }
    }
    emit(sink, &mut b, &dicts)?;
    Ok(rows)
}

/// One row group encoded (compressed, in memory), waiting to be appended to its file.
pub struct Encoded {
    chunks: Vec<ArrowColumnChunk>,
    rows: u64,
}

/// Encodes row groups on the calling thread for a `ParallelFile`: the work of writing Parquet
/// (dictionaries, encodings, zstd) done where the input is read, so inputs encode side by side and the
/// file only appends their bytes, in order.
pub struct RowGroups {
    factory: Arc<ArrowRowGroupWriterFactory>,
    path: PathBuf,
    writers: Option<Vec<ArrowColumnWriter>>,
    rows: u64,
    /// The row groups encoded, in order.
    pub groups: Vec<Encoded>,
}

impl RowGroups {
    fn perr(&self) -> impl Fn(parquet::errors::ParquetError) -> CliError + '_ {
        move |source| CliError::Parquet {
            file: self.path.clone(),
            source,
        }
    }
}

impl Sink for RowGroups {
    fn batch(&mut self, batch: RecordBatch) -> Result<(), CliError> {
        if self.writers.is_none() {
            // The index only matters to encrypted files, which these are not.
            self.writers = Some(self.factory.create_column_writers(0).map_err(self.perr())?);
        }
        let schema = batch.schema();
        let mut leaves = Vec::new();
        for (field, column) in schema.fields().iter().zip(batch.columns()) {
            leaves.extend(compute_leaves(field, column).map_err(self.perr())?);
        }
        let writers = self.writers.as_mut().expect("made above");
        for (w, leaf) in writers.iter_mut().zip(&leaves) {
            w.write(leaf).map_err(|source| CliError::Parquet {
                file: self.path.clone(),
                source,
            })?;
        }
        self.rows += batch.num_rows() as u64;
        Ok(())
    }
    fn end_row_group(&mut self) -> Result<(), CliError> {
        let Some(writers) = self.writers.take() else {
            return Ok(());
        };
        let chunks = writers
            .into_iter()
            .map(ArrowColumnWriter::close)
            .collect::<Result<Vec<_>, _>>()
            .map_err(self.perr())?;
        self.groups.push(Encoded {
            chunks,
            rows: std::mem::take(&mut self.rows),
        });
        Ok(())
    }
    fn path(&self) -> &Path {
        &self.path
    }
}

/// One Parquet file whose row groups are encoded elsewhere (`RowGroups`) and appended here in the order
/// given, under a temporary name until `close`.
pub struct ParallelFile {
    writer: SerializedFileWriter<std::io::BufWriter<std::fs::File>>,
    factory: Arc<ArrowRowGroupWriterFactory>,
    path: PathBuf,
    staged: Staged,
    pub rows: u64,
}

impl ParallelFile {
    pub fn create(path: &Path, overwrite: bool) -> Result<ParallelFile, CliError> {
        let LongWriter {
            writer,
            path,
            staged,
            ..
        } = LongWriter::create(path, overwrite)?;
        let (writer, factory) =
            writer
                .into_serialized_writer()
                .map_err(|source| CliError::Parquet {
                    file: path.clone(),
                    source,
                })?;
        Ok(ParallelFile {
            writer,
            factory: Arc::new(factory),
            path,
            staged,
            rows: 0,
        })
    }

    /// An encoder for one input's row groups, for any thread.
    pub fn encoder(&self) -> RowGroups {
        RowGroups {
            factory: self.factory.clone(),
            path: self.path.clone(),
            writers: None,
            rows: 0,
            groups: Vec::new(),
        }
    }

    /// Appends encoded row groups, in order.
    pub fn append(&mut self, groups: Vec<Encoded>) -> Result<(), CliError> {
        let perr = |source| CliError::Parquet {
            file: self.path.clone(),
            source,
        };
        for g in groups {
            let mut rg = self.writer.next_row_group().map_err(perr)?;
            for c in g.chunks {
                c.append_to_row_group(&mut rg).map_err(perr)?;
            }
            rg.close().map_err(perr)?;
            self.rows += g.rows;
        }
        Ok(())
    }

    pub fn close(self) -> Result<u64, CliError> {
        let path = self.path.clone();
        self.writer
            .into_inner()
            .map_err(|source| CliError::Parquet {
                file: path.clone(),
                source,
            })?
            .into_inner()
            .map_err(|e| CliError::Io {
                file: path.clone(),
                source: e.into_error(),
            })?
            .sync_all()
            .map_err(CliError::io(&path))?;
        self.staged.commit()?;
        Ok(self.rows)
    }
}

/// A sink that keeps the record batches (`capture_batches`).
struct Collect {
    batches: Vec<RecordBatch>,
    path: PathBuf,
}

impl Sink for Collect {
    fn batch(&mut self, batch: RecordBatch) -> Result<(), CliError> {
        self.batches.push(batch);
        Ok(())
    }
    fn end_row_group(&mut self) -> Result<(), CliError> {
        Ok(())
    }
    fn path(&self) -> &Path {
        &self.path
    }
}

/// A whole capture in the long layout, as record batches of `schema()` (what `convert` writes of it
/// as one input named `source`, row for row), for callers that hand the table on instead of writing it
/// (the Python binding).
pub fn capture_batches(c: &Capture, source: &str) -> Result<Vec<RecordBatch>, CliError> {
    let block = Block {
        times: c.timestamps.clone(),
        columns: c.series.iter().map(|s| s.values.clone()).collect(),
        values: 0,
    };
    let names: Vec<_> = c.series.iter().map(|s| Some(s.parsed.clone())).collect();
    let order: Vec<usize> = (0..c.series.len()).collect();
    let mut sink = Collect {
        batches: Vec::new(),
        path: PathBuf::from(source),
    };
    write_block(&mut sink, source, &block, &order, &names)?;
    Ok(sink.batches)
}
