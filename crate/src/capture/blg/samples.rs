//! One sample event: a "BL" container holding one block per definition (a PDH_RAW_COUNTER, an array of
//! PDH_RAW_COUNTER_ITEMs, or a PERF_DATA_BLOCK; pdh.h, winperf.h), turned into one value per series,
//! handed to its series (`column`), which cooks them a block at a time ("Calculating Counter Values").
//! The block layout is described in `docs/blg.md`.

use super::bytes::{get, u32_at, u64_at, utf16_text, utf16z_bytes, MAX_NAME_UNITS};
use super::column::{Column, RAW_RECORD};
use super::definitions::{Definition, Shape};
use super::perf_data::PerfDataBlock;
use super::{BlgReader, SKIPPED};
use crate::capture::limits::MAX_COLUMNS;
use crate::capture::{columns_too_large, grown_capacity, CaptureError, CaptureErrorKind};
use crate::cook::RawSample;
use std::collections::HashMap;

#[cfg(test)]
thread_local! {
    /// Whether every sample's instances are laid out afresh, each looked up by its key, and every series
    /// looked for (set only by the tests that compare this with the cached layouts).
    static UNCACHED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn uncached() -> bool {
    #[cfg(test)]
    return UNCACHED.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// FILETIME of 1970-01-01 (100 ns units since 1601).
const UNIX_EPOCH_FILETIME: i64 = 116_444_736_000_000_000;

/// A "BL" block's kind and size (the size includes the 8-byte header), checked against `b`.
fn block_header(b: &[u8], at: usize) -> Result<(u8, usize), String> {
    let h = get::<8>(b, at, "a BL block header")?;
    if &h[..3] != b"BL\x03" {
        return Err(format!(
            "expected a block header \"BL\" 3 at +{at:#x}, found {:02x?}",
            &h[..4]
        ));
    }
    let size = u32::from_le_bytes([h[4], h[5], h[6], h[7]]) as usize;
    if size < 8 || size > b.len() - at {
        return Err(format!(
            "expected a block size from 8 to {} at +{at:#x}, found {size}",
            b.len() - at
        ));
    }
    Ok((h[3], size))
}

impl BlgReader {
    pub(super) fn read_sample(
        &mut self,
        defs: &[Definition],
        timestamp: u64,
        b: &[u8],
    ) -> Result<(), (CaptureErrorKind, String)> {
        let bad = |w: String| (CaptureErrorKind::BadBlg, w);
        let (kind, size) = block_header(b, 0).map_err(bad)?;
        if kind != 0 || size != b.len() {
            return Err(bad(format!(
                "expected a BL container (kind 0) of {} bytes, found kind {kind} of {size} bytes",
                b.len()
            )));
        }
        // The sample's place in the columns (samples taken out before are not there).
        let k = self.next_sample();
        match self.samples_read() {
            0 => {
                self.first_sample_at = self.record_at;
                self.guess(b.len());
            }
            16 => self.reserve(),
            _ => {}
        }
        // In i128: a hostile u64 time stamp must not overflow the subtraction.
        let local_ms = (i128::from(timestamp) - i128::from(UNIX_EPOCH_FILETIME)) as f64 / 10_000.0;
        let bias = self.bias_at(local_ms);
        self.first_local_ms.get_or_insert(local_ms);
        let t = local_ms + f64::from(bias) * 60_000.0;
        self.samples_seen += 1;
        // A sample not read is still cooked (the next one read is cooked against it, as in the whole
        // log), then taken back.
        let kept = self.samples_kept.keep(&self.options, t);
        if self.counting.is_some() {
            // A catalogue pass: the sample is counted, its values only counted per series.
            let result = self.read_blocks(defs, k, b);
            match &result {
                Ok(()) => self.counting.iter_mut().for_each(|tally| tally.add(t)),
                Err(_) => self.columns.iter_mut().for_each(|c| c.uncount(k)),
            }
            return result;
        }
        if k == self.timestamps.capacity() {
            self.grow(k).map_err(|e| (e.kind, e.message))?;
        }
        self.timestamps.push(t);
        let result = self.read_blocks(defs, k, b);
        if !kept || result.is_err() {
            self.timestamps.truncate(k);
            for c in &mut self.columns {
                c.retract(k);
            }
        }
        result
    }

    /// Room for more samples in every column, within the budget (`OpenOptions::max_column_bytes`):
    /// half as many again as `k`, all columns at once, so no column doubles on its own.
    fn grow(&mut self, k: usize) -> Result<(), CaptureError> {
        let budget = self.options.column_budget();
        let Some(cap) = grown_capacity(k, self.per_sample, budget) else {
            return Err(columns_too_large(
                self.columns.len(),
                k,
                self.per_sample,
                budget,
                None,
            ));
        };
        self.timestamps.reserve_exact(cap - k);
        for c in &mut self.columns {
            c.reserve_to(cap);
        }
        Ok(())
    }

    /// The blocks of sample `k`, one per definition, in order.
    fn read_blocks(
        &mut self,
        defs: &[Definition],
        k: usize,
        b: &[u8],
    ) -> Result<(), (CaptureErrorKind, String)> {
        let bad = |w: String| (CaptureErrorKind::BadBlg, w);
        let mut at = 8;
        for (d, def) in defs.iter().enumerate() {
            let (kind, size) =
                block_header(b, at).map_err(|w| bad(format!("definition {d}: {w}")))?;
            let body = &b[at + 8..at + size];
            let want = match def.shape {
                Shape::Single => 1,
                Shape::Instances => 2,
                Shape::Object => 5,
            };
            if kind != want {
                return Err(bad(format!("definition {d} ({}, flags {:#x}): expected a kind {want} block, found kind {kind} at +{at:#x}", def.path(def.parent.as_deref(), def.instance.as_deref(), &def.counter), def.flags)));
            }
            if !self.wanted.get(d).copied().unwrap_or(true) {
                at += size; // no series of this object is read (`OpenOptions::series`)
                continue;
            }
            let result = match def.shape {
                Shape::Single => self.single(d, def, k, body),
                Shape::Instances => self.instances(d, def, k, body),
                Shape::Object => self.object(d, def, k, body),
            };
            result
                .map_err(|(code, w)| (code, format!("definition {d}, block at +{at:#x}: {w}")))?;
            at += size;
        }
        if at != b.len() {
            return Err(bad(format!("expected {} blocks, one per definition, filling the container; {} bytes are left at +{at:#x}", defs.len(), b.len() - at)));
        }
        Ok(())
    }

    /// The column of (definition, counter, instance key), made on first sight.
    fn column(
        &mut self,
        d: usize,
        counter: usize,
        key: &str,
        make: impl FnOnce() -> (String, u32, i32),
    ) -> Result<usize, (CaptureErrorKind, String)> {
        let known = self.keys.get(d).and_then(|k| k.get(key));
        if let Some(c) = known.and_then(|v| v.get(counter).copied().flatten()) {
            return Ok(c);
        }
        let (path, type_value, scale) = make();
        let c = if self.options.wants_series(&path) {
            if self.columns.len() >= MAX_COLUMNS {
                return Err((
                    CaptureErrorKind::TooLarge,
                    format!("a log of more than {MAX_COLUMNS} series is not read"),
                ));
            }
            let order = (d, counter, self.seen[d]);
            self.seen[d] += 1;
            let keep = self.keep_raw.keeps(&path);
            // Every column holds as many samples as the timestamps: a new one takes that room at once.
            let capacity = self.timestamps.capacity();
            let per_sample = self.per_sample + if keep { 8 + RAW_RECORD } else { 8 };
            let budget = self.options.column_budget();
            if per_sample.saturating_mul(capacity) > budget {
                let samples = self.timestamps.len().saturating_sub(1);
                return Err((
                    CaptureErrorKind::TooLarge,
                    columns_too_large(self.columns.len() + 1, samples, per_sample, budget, None)
                        .message,
                ));
            }
            self.per_sample = per_sample;
            let mut column = Column::new(order, path, type_value, scale, capacity);
            if keep {
                column.keep_raw();
            }
            self.columns.push(column);
            self.columns.len() - 1
        } else {
            self.series_skipped += 1;
            SKIPPED
        };
        if let Some(keys) = self.keys.get_mut(d) {
            let v = keys.entry(key.to_string()).or_default();
            if v.len() <= counter {
                v.resize(counter + 1, None);
            }
            v[counter] = Some(c);
        }
        Ok(c)
    }

    /// Sample `k` of column `c` (cooked later, a block at a time).
    #[inline]
    fn put(&mut self, c: usize, k: usize, raw: Option<RawSample>) {
        let counting = self.counting.is_some();
        if let Some(column) = self.columns.get_mut(c) {
            // not for `SKIPPED`
            if counting {
                column.count(k, raw.is_some());
            } else {
                column.put(k, raw);
            }
        }
    }

    fn single(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (CaptureErrorKind, String)> {
        let bad = |w: String| (CaptureErrorKind::BadBlg, w);
        let status = u32_at(b, 0, "CStatus").map_err(bad)?;
        let first = u64_at(b, 0x10, "FirstValue").map_err(bad)?;
        let second = u64_at(b, 0x18, "SecondValue").map_err(bad)?;
        let multi = u32_at(b, 0x20, "MultiCount").map_err(bad)?;
        let instance = def.instance.as_ref().map(|i| {
            if def.instance_index > 0 {
                format!("{i}#{}", def.instance_index)
            } else {
                i.clone()
            }
        });
        let c = self.column(d, 0, "", || {
            (
                def.path(def.parent.as_deref(), instance.as_deref(), &def.counter),
                def.counter_type,
                def.scale,
            )
        })?;
        let raw = RawSample {
            value: first,
            second: Some(second),
            frequency: Some(def.frequency),
            multi: Some(u64::from(multi)),
        };
        // PDH_CSTATUS_VALID_DATA 0 and NEW_DATA 1 carry a value; the error statuses set the top bit.
        let raw = if status & 0x8000_0000 != 0 {
            self.bad_status += 1;
            None
        } else {
            Some(raw)
        };
        self.put(c, k, raw);
        Ok(())
    }

    pub(super) fn instances(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (CaptureErrorKind, String)> {
        let bad = |w: String| (CaptureErrorKind::BadBlg, w);
        let count = u32_at(b, 4, "the instance count").map_err(bad)? as usize;
        if count > (b.len().saturating_sub(0x18)) / 24 {
            return Err(bad(format!("expected {count} instance entries of 24 bytes after +0x18, but the block has {} bytes", b.len())));
        }
        // The names' bytes, compared with the last sample's: decoded only when the instances change.
        let mut signature = std::mem::take(&mut self.signature);
        signature.clear();
        let mut raws = Vec::with_capacity(count);
        let mut names: Vec<&[u8]> = Vec::with_capacity(count);
        for i in 0..count {
            let e = 0x18 + 24 * i;
            let name_at = u32_at(b, e, "an instance name offset").map_err(bad)? as usize;
            let name = utf16z_bytes(b, name_at, "an instance name", MAX_NAME_UNITS).map_err(bad)?;
            signature.extend_from_slice(name);
            signature.extend_from_slice(&[0, 0]);
            names.push(name);
            let first = u64_at(b, e + 8, "FirstValue").map_err(bad)?;
            let second = u64_at(b, e + 16, "SecondValue").map_err(bad)?;
            // The entries carry no MultiCount (the u32 after the name offset is 0 in both samples, where
            // a PDH_RAW_COUNTER's MultiCount is 1): MULTI timers in instance arrays get no value, and a
            // note says why, rather than a guessed count.
            raws.push(RawSample {
                value: first,
                second: Some(second),
                frequency: Some(def.frequency),
                multi: None,
            });
        }
        self.relayout(d, &signature, 1, || {
            number_instances(names.iter().map(|n| utf16_text(n)).collect())
        });
        self.signature = signature;
        for (i, raw) in raws.into_iter().enumerate() {
            let c = self.cached_column(d, 0, i, |key| {
                (
                    def.path(None, Some(key), &def.counter),
                    def.counter_type,
                    def.scale,
                )
            })?;
            self.put(c, k, Some(raw));
        }
        Ok(())
    }

    /// Starts a new instance layout for definition `d` when the instances (`signature`: their names'
    /// bytes) differ from the last sample's; `keys` names them then.
    fn relayout(
        &mut self,
        d: usize,
        signature: &[u8],
        counters: usize,
        keys: impl FnOnce() -> Vec<String>,
    ) {
        let Some(layout) = self.layouts.get_mut(d) else {
            return;
        };
        let fresh = uncached();
        if !fresh && layout.signature == signature && layout.counters == counters {
            return;
        }
        // Each instance's columns: those of the instance of the same key in the last layout (a layout's
        // columns are always those `keys` holds for its instances), found by walking both lists in
        // step (processes come and go between most samples of a busy server, the rest keep their
        // order); else one lookup of its key (not one per counter and instance).
        let names = keys();
        let n = names.len();
        let old = std::mem::take(&mut layout.names);
        let old_columns = std::mem::take(&mut layout.columns);
        let same_counters = layout.counters == counters;
        let mut columns = vec![None; counters * n];
        let known = self.keys.get(d);
        let mut p = 0;
        for (i, name) in names.iter().enumerate() {
            let at = if fresh || !same_counters {
                None
            } else if old.get(p) == Some(name) {
                p += 1;
                Some(p - 1)
            } else if old.get(p + 1) == Some(name) {
                p += 2; // the instance at p has gone
                Some(p - 1)
            } else {
                None
            };
            match at {
                Some(was) => {
                    for j in 0..counters {
                        columns[j * n + i] =
                            old_columns.get(j * old.len() + was).copied().flatten();
                    }
                }
                None => {
                    if let Some(v) = known.and_then(|k| k.get(name.as_str())) {
                        for j in 0..counters {
                            columns[j * n + i] = v.get(j).copied().flatten();
                        }
                    }
                }
            }
        }
        let layout = &mut self.layouts[d];
        layout.columns = columns;
        layout.counters = counters;
        layout.names = names;
        layout.complete = None;
        layout.signature.clear();
        layout.signature.extend_from_slice(signature);
    }

    /// The column of counter `j`, instance `i` of the current layout of definition `d`.
    fn cached_column(
        &mut self,
        d: usize,
        j: usize,
        i: usize,
        make: impl FnOnce(&str) -> (String, u32, i32),
    ) -> Result<usize, (CaptureErrorKind, String)> {
        let layout = &self.layouts[d];
        if let Some(c) = layout.column(j, i) {
            return Ok(c);
        }
        let at = j * layout.names.len() + i;
        let key = layout.names.get(i).cloned().unwrap_or_default();
        let c = self.column(d, j, &key, || make(&key))?;
        if let Some(slot) = self.layouts[d].columns.get_mut(at) {
            *slot = Some(c);
        }
        Ok(c)
    }

    pub(super) fn object(
        &mut self,
        d: usize,
        def: &Definition,
        k: usize,
        b: &[u8],
    ) -> Result<(), (CaptureErrorKind, String)> {
        let block = PerfDataBlock::read(b, std::mem::take(&mut self.objects)).map_err(|w| {
            (
                CaptureErrorKind::BadBlg,
                format!("the PERF_DATA_BLOCK: {w}"),
            )
        })?;
        let object = block.object_for(def, &self.names).map_err(|w| {
            (
                CaptureErrorKind::BadBlg,
                format!("the PERF_DATA_BLOCK: {w}"),
            )
        })?;
        let mut signature = std::mem::take(&mut self.signature);
        block.signature(object, &mut signature);
        self.relayout(d, &signature, object.counters.len(), || {
            match object.instances() {
                None => vec![String::new()],
                Some(_) => number_instances(block.instance_names(object)),
            }
        });
        self.signature = signature;
        let has_instances = object.instances().is_some();
        let n = self.layouts[d].names.len();
        // Series first seen in this sample are made first, so the loop below only reads and cooks; once
        // every counter's series of this layout exist (for these counter types), none is looked for.
        let complete = !uncached()
            && self.layouts[d].complete.as_deref().is_some_and(|types| {
                types.len() == object.counters.len()
                    && types
                        .iter()
                        .zip(&object.counters)
                        .all(|(t, c)| *t == c.counter_type)
            });
        if !complete {
            for (j, counter) in object.counters.iter().enumerate() {
                if block.plan(object, j).is_none() {
                    continue;
                }
                let mut name: Option<String> = None;
                for i in 0..n {
                    if self.layouts[d].column(j, i).is_none() {
                        let name: &str = name.get_or_insert_with(|| {
                            self.names
                                .get(&counter.name_index)
                                .cloned()
                                .unwrap_or_else(|| {
                                    self.unnamed.push(counter.name_index);
                                    format!("Counter {}", counter.name_index)
                                })
                        });
                        self.cached_column(d, j, i, |key| {
                            let (parent, inst) = match key.split_once('/') {
                                Some((p, i)) if has_instances => (Some(p), Some(i)),
                                _ => (None, has_instances.then_some(key)),
                            };
                            (
                                def.path(parent, inst, name),
                                counter.counter_type,
                                counter.scale,
                            )
                        })?;
                    }
                }
            }
            self.layouts[d].complete =
                Some(object.counters.iter().map(|c| c.counter_type).collect());
        }
        let counting = self.counting.is_some();
        for j in 0..object.counters.len() {
            let Some(plan) = block.plan(object, j) else {
                continue;
            };
            let layout = &self.layouts[d];
            let here = layout.columns.get(j * n..(j + 1) * n).unwrap_or_default();
            for (i, c) in here.iter().enumerate() {
                if let Some(column) = c.and_then(|c| self.columns.get_mut(c)) {
                    if counting {
                        column.count(k, block.raw(object, &plan, i).is_some());
                    } else {
                        column.put(k, block.raw(object, &plan, i));
                    }
                }
            }
        }
        self.objects = block.into_objects();
        Ok(())
    }
}

/// Instance names made unique as PDH does: the second "svchost" is "svchost#1", the third "svchost#2".
#[cfg(test)]
fn instance_keys(names: &[String]) -> Vec<String> {
    number_instances(names.to_vec())
}

/// `instance_keys` on names the caller gives up: each is numbered in place, none is copied. (Finding equal
/// names by sorting instead, with no hash per name, added 13 KB of wasm for the sort's code.)
fn number_instances(mut names: Vec<String>) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    let before: Vec<usize> = names
        .iter()
        .map(|n| {
            let c = count.entry(n.as_str()).or_insert(0);
            *c += 1;
            *c - 1
        })
        .collect();
    for (n, c) in names.iter_mut().zip(before) {
        if c > 0 {
            n.push('#');
            n.push_str(&c.to_string());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicate_instances_are_numbered() {
        let names: Vec<String> = ["svchost", "csrss", "svchost", "svchost"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            instance_keys(&names),
            vec!["svchost", "csrss", "svchost#1", "svchost#2"]
        );
    }

    #[test]
    fn a_name_that_looks_numbered_is_numbered_as_itself() {
        // "a#1" is a name of its own: the second "a" is also "a#1" (PDH's numbering; the two share a key,
        // and the first one's values stand).
        let names: Vec<String> = ["a", "a#1", "a", "a#1", "a"].map(String::from).to_vec();
        assert_eq!(
            instance_keys(&names),
            vec!["a", "a#1", "a#1", "a#1#1", "a#2"]
        );
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn log(name: &str) -> Vec<u8> {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");
        std::fs::read(format!("{dir}{name}")).unwrap()
    }

    /// The capture, or the error, as values' bits and texts (NaN payloads kept), to compare two reads.
    #[cfg(not(target_arch = "wasm32"))]
    fn read_print(b: &[u8], fresh: bool) -> String {
        use crate::capture::{open_capture, OpenOptions};
        UNCACHED.with(|u| u.set(fresh));
        let c = open_capture(b, &OpenOptions::default());
        UNCACHED.with(|u| u.set(false));
        match c {
            Err(e) => format!("{e:?}"),
            Ok(c) => {
                let mut out = format!(
                    "{:?}\n{:?}\n",
                    c.timestamps.iter().map(|t| t.to_bits()).collect::<Vec<_>>(),
                    c.notes
                );
                for s in &c.series {
                    let bits: Vec<u64> = s.values.iter().map(|v| v.to_bits()).collect();
                    out.push_str(&format!(
                        "{} {:?} {:?} {bits:?}\n",
                        s.path, s.counter_type, s.scale
                    ));
                }
                out
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn cached_layouts_read_the_sample_logs_as_fresh_ones() {
        // PAL_SampleLog's Process instances change on 8 of its 11 samples.
        for name in ["BasicPerfCounters.blg", "PAL_SampleLog.blg"] {
            let b = log(name);
            assert_eq!(read_print(&b, false), read_print(&b, true), "{name}");
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// A log cut anywhere in its second half, with up to three bytes past its header changed
        /// (instance names, counter types, offsets and sizes, instance counts, values): the cached layouts
        /// (instances matched with the last sample's in step, series not looked for while the layout and
        /// the counter types stay) read what laying out every sample afresh reads, bit for bit, or fail
        /// the same way.
        #[test]
        fn cached_layouts_read_a_broken_log_as_fresh_ones(
            which in 0usize..2,
            cut in 0.5f64..1.0,
            flips in proptest::collection::vec((0.0f64..1.0, proptest::prelude::any::<u8>()), 0..4),
        ) {
            let name = ["BasicPerfCounters.blg", "PAL_SampleLog.blg"][which];
            let mut b = log(name);
            b.truncate((b.len() as f64 * cut) as usize);
            // Past buffer 0 (the log header): mostly samples.
            let start = 0x1_0000.min(b.len());
            for (at, value) in flips {
                let at = start + ((b.len() - start) as f64 * at) as usize;
                if at < b.len() {
                    b[at] = value;
                }
            }
            proptest::prop_assert_eq!(read_print(&b, false), read_print(&b, true));
        }
    }

    #[test]
    fn more_series_than_the_limit_is_an_error() {
        let mut r = BlgReader::new();
        r.seen = vec![0];
        for j in 0..MAX_COLUMNS {
            r.column(0, j, "", || (String::new(), 0x10000, 0)).unwrap();
        }
        let e = r
            .column(0, MAX_COLUMNS, "", || (String::new(), 0x10000, 0))
            .unwrap_err();
        assert_eq!(e.0, CaptureErrorKind::TooLarge);
    }
}
