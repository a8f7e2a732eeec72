//! A whole object's raw data as the logger stores it: a PERF_DATA_BLOCK with its PERF_OBJECT_TYPEs,
//! PERF_COUNTER_DEFINITIONs, PERF_INSTANCE_DEFINITIONs and PERF_COUNTER_BLOCKs (winperf.h), and the
//! inputs each counter type needs to be cooked (base counters, time and frequency, as "Calculating
//! Counter Values" lists them).

use super::bytes::{before_nul, i32_at, u32_at, u64_at, utf16_text};
use super::definitions::Definition;
use crate::cook::RawSample;
use crate::types::{CounterType, Formula, PERF_MULTI_COUNTER};
use std::collections::HashMap;

/// A counter of a PERF_OBJECT_TYPE (PERF_COUNTER_DEFINITION).
#[derive(Debug, Default)]
pub(super) struct PerfCounter {
    pub(super) name_index: u32,
    pub(super) scale: i32,
    pub(super) counter_type: u32,
    size: usize,
    offset: usize,
}

#[derive(Debug, Default)]
pub(super) struct PerfInstance {
    /// The name's bytes (UTF-16LE, no NUL) in the data block.
    name: (usize, usize),
    /// PERF_INSTANCE_DEFINITION's (ParentObjectTitleIndex, ParentObjectInstance) when the title is not 0.
    parent: Option<(u32, u32)>,
    /// Offset of its PERF_COUNTER_BLOCK in the data block.
    block: usize,
    block_len: usize,
}

/// Its vectors are kept from sample to sample (`PerfDataBlock::read` refills them), so reading a sample
/// allocates nothing once the first few are read.
#[derive(Debug, Default)]
pub(super) struct PerfObject {
    name_index: u32,
    perf_time: u64,
    perf_freq: u64,
    pub(super) counters: Vec<PerfCounter>,
    /// False for an object without instances (PERF_NO_INSTANCES), whose one counter block is `block`.
    has_instances: bool,
    instances: Vec<PerfInstance>,
    block: usize,
    block_len: usize,
}

impl PerfObject {
    /// The instances, or None for an object without instances.
    pub(super) fn instances(&self) -> Option<&[PerfInstance]> {
        self.has_instances.then_some(&self.instances[..])
    }
}

/// A PERF_DATA_BLOCK (winperf.h) as the logger stores it for a whole-object record.
pub(super) struct PerfDataBlock<'a> {
    b: &'a [u8],
    perf_time: u64,
    perf_freq: u64,
    perf_time_100ns: u64,
    objects: Vec<PerfObject>,
}

impl<'a> PerfDataBlock<'a> {
    /// Reads the block into `objects` (those of an earlier sample, whose vectors are reused).
    pub(super) fn read(
        b: &'a [u8],
        mut objects: Vec<PerfObject>,
    ) -> Result<PerfDataBlock<'a>, String> {
        if b.get(..8) != Some(b"P\0E\0R\0F\0") {
            return Err("expected the signature \"PERF\" in UTF-16".into());
        }
        if u32_at(b, 8, "LittleEndian")? != 1 {
            return Err("expected a little-endian block (LittleEndian = 1)".into());
        }
        let total = u32_at(b, 0x14, "TotalByteLength")? as usize;
        if total > b.len() {
            return Err(format!(
                "TotalByteLength {total} is more than the block's {} bytes",
                b.len()
            ));
        }
        let b = &b[..total];
        let header = u32_at(b, 0x18, "HeaderLength")? as usize;
        let count = u32_at(b, 0x1C, "NumObjectTypes")? as usize;
        let (perf_time, perf_freq, perf_time_100ns) = (
            u64_at(b, 0x38, "PerfTime")?,
            u64_at(b, 0x40, "PerfFreq")?,
            u64_at(b, 0x48, "PerfTime100nSec")?,
        );
        let mut at = header;
        for i in 0..count {
            if objects.len() == i {
                objects.push(PerfObject::default());
            }
            read_object(b, at, &mut objects[i])
                .map_err(|w| format!("object {i} at +{at:#x}: {w}"))?;
            let len = u32_at(b, at, "the object's TotalByteLength")? as usize;
            at += len;
        }
        objects.truncate(count);
        Ok(PerfDataBlock {
            b,
            perf_time,
            perf_freq,
            perf_time_100ns,
            objects,
        })
    }

    /// The objects, to be given to the next `read`.
    pub(super) fn into_objects(self) -> Vec<PerfObject> {
        self.objects
    }

    fn name(&self, i: &PerfInstance) -> String {
        utf16_text(&self.b[i.name.0..i.name.1])
    }

    /// What identifies the object's instances in this sample (names and parents), to compare with the last.
    pub(super) fn signature(&self, o: &PerfObject, out: &mut Vec<u8>) {
        out.clear();
        if !o.has_instances {
            out.extend_from_slice(&[0xFF, 0xFF]); // no instances, unlike an instance list that is empty
        }
        for i in o.instances().into_iter().flatten() {
            out.extend_from_slice(&self.b[i.name.0..i.name.1]);
            let (t, n) = i.parent.unwrap_or((0, 0));
            out.extend_from_slice(&[0, 0]);
            out.extend_from_slice(&t.to_le_bytes());
            out.extend_from_slice(&n.to_le_bytes());
        }
    }

    /// Instance names, "parent/instance" where the parent object is in the block to name the parent.
    pub(super) fn instance_names(&self, o: &PerfObject) -> Vec<String> {
        o.instances()
            .into_iter()
            .flatten()
            .map(|i| {
                let parent = i.parent.and_then(|(title, n)| {
                    let p = self.objects.iter().find(|x| x.name_index == title)?;
                    p.instances()?.get(n as usize).map(|pi| self.name(pi))
                });
                match parent {
                    Some(p) => format!("{p}/{}", self.name(i)),
                    None => self.name(i),
                }
            })
            .collect()
    }

    /// The object a whole-object definition logs: the only one, or the one the name table names so.
    pub(super) fn object_for(
        &self,
        def: &Definition,
        names: &HashMap<u32, String>,
    ) -> Result<&PerfObject, String> {
        match self.objects.as_slice() {
            [one] => Ok(one),
            [] => Err("expected an object, found none".into()),
            many => many
                .iter()
                .find(|o| {
                    names
                        .get(&o.name_index)
                        .is_some_and(|n| n.eq_ignore_ascii_case(&def.object))
                })
                .ok_or_else(|| {
                    format!(
                        "expected the object {:?} among its {} objects",
                        def.object,
                        many.len()
                    )
                }),
        }
    }

    /// Where instance `i`'s counter block is (or the object's one block), and its length.
    #[inline]
    fn counter_block(&self, o: &PerfObject, i: usize) -> Option<(usize, usize)> {
        if o.has_instances {
            o.instances.get(i).map(|x| (x.block, x.block_len))
        } else {
            Some((o.block, o.block_len))
        }
    }

    /// Counter `c`'s raw value in the counter block at `block` of `len` bytes.
    #[inline(always)]
    fn value_in(&self, c: &PerfCounter, (block, len): (usize, usize)) -> Option<u64> {
        if c.counter_type & 0x300 == 0x200 {
            return Some(0); // PERF_SIZE_ZERO
        }
        // Checked: on wasm32 usize is 32 bits, and two u32 fields can add past it.
        if c.offset.checked_add(c.size).is_none_or(|end| end > len) {
            return None;
        }
        // Read in place (no error text to carry: a value that is not there is a gap).
        let at = block + c.offset;
        match c.size {
            4 => self
                .b
                .get(at..at + 4)
                .and_then(|s| s.try_into().ok())
                .map(|s| u64::from(u32::from_le_bytes(s))),
            8 => self
                .b
                .get(at..at + 8)
                .and_then(|s| s.try_into().ok())
                .map(u64::from_le_bytes),
            _ => None,
        }
    }

    /// Where counter `j`'s D, F and M come from (the data block's times for system and 100 ns timers, the
    /// object's for object timers and ELAPSED_TIME, the next counter, which must be a base, for fractions,
    /// averages, precision timers and MULTI timers): worked out once per counter and sample, then
    /// applied to every instance. None for a counter that is not a series (bases, text, histograms).
    pub(super) fn plan<'o>(&self, o: &'o PerfObject, j: usize) -> Option<Plan<'o>> {
        let c = o.counters.get(j)?;
        let ty = CounterType::from_value(c.counter_type);
        let formula = ty.formula()?;
        if ty.samples() == 0 || formula == Formula::Text {
            return None;
        }
        // PERF_TYPE_COUNTER | PERF_COUNTER_BASE
        let base = o
            .counters
            .get(j + 1)
            .filter(|n| n.counter_type & 0xC00 == 0x400 && n.counter_type & 0xF_0000 == 0x3_0000);
        let (object_time, object_freq) = if o.perf_freq != 0 {
            (o.perf_time, o.perf_freq)
        } else {
            (self.perf_time, self.perf_freq)
        };
        let timer = c.counter_type & 0x0030_0000;
        let subtype = c.counter_type & 0x000F_0000;
        let from_base = Source::Base(base);
        let (second, frequency) = match formula {
            Formula::Elapsed => (Source::Fixed(object_time), Some(object_freq)),
            Formula::AverageTimer => (from_base, Some(self.perf_freq)),
            Formula::AverageBulk | Formula::RawFraction => (from_base, None),
            _ if timer == 0x0020_0000 => (Source::Fixed(object_time), Some(object_freq)),
            _ if subtype == 0x0002_0000 || subtype == 0x0007_0000 => (from_base, None),
            _ if timer == 0x0010_0000 => (Source::Fixed(self.perf_time_100ns), Some(10_000_000)),
            _ => (Source::Fixed(self.perf_time), Some(self.perf_freq)),
        };
        let multi = (c.counter_type & PERF_MULTI_COUNTER != 0).then_some(from_base);
        Some(Plan {
            value: c,
            second,
            frequency,
            multi,
        })
    }

    /// The raw sample of the plan's counter in instance `i`; None where a value is missing.
    #[inline(always)]
    pub(super) fn raw(&self, o: &PerfObject, plan: &Plan<'_>, i: usize) -> Option<RawSample> {
        let block = self.counter_block(o, i)?;
        let get = |s: Source<'_>| match s {
            Source::Fixed(v) => Some(v),
            Source::Base(b) => self.value_in(b?, block),
        };
        Some(RawSample {
            value: self.value_in(plan.value, block)?,
            second: Some(get(plan.second)?),
            frequency: plan.frequency,
            multi: match plan.multi {
                Some(m) => Some(get(m)?),
                None => None,
            },
        })
    }
}

/// Where a raw sample's D (or M) comes from: a value of the whole sample, or the base counter (None
/// where the counter after it is not a base).
#[derive(Clone, Copy, Debug)]
enum Source<'o> {
    Fixed(u64),
    Base(Option<&'o PerfCounter>),
}

/// How a whole-object counter's raw samples are assembled (see `PerfDataBlock::plan`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Plan<'o> {
    value: &'o PerfCounter,
    second: Source<'o>,
    frequency: Option<u64>,
    multi: Option<Source<'o>>,
}

/// A PERF_OBJECT_TYPE at `at`: its counter definitions and its instances or one counter block, read
/// into `object` (whose vectors are reused).
fn read_object(b: &[u8], at: usize, object: &mut PerfObject) -> Result<(), String> {
    let total = u32_at(b, at, "TotalByteLength")? as usize;
    if total < 0x40 || total > b.len() - at {
        return Err(format!(
            "expected TotalByteLength from 64 to {}, found {total}",
            b.len() - at
        ));
    }
    let o = &b[at..at + total];
    let definition = u32_at(o, 4, "DefinitionLength")? as usize;
    let header = u32_at(o, 8, "HeaderLength")? as usize;
    let counters_n = u32_at(o, 0x20, "NumCounters")? as usize;
    let instances_n = i32_at(o, 0x28, "NumInstances")?;
    if definition > total || header > definition {
        return Err(format!("expected HeaderLength {header} <= DefinitionLength {definition} <= TotalByteLength {total}"));
    }
    let counters = &mut object.counters;
    counters.clear();
    counters.reserve(counters_n.min(4096));
    let mut c = header;
    for k in 0..counters_n {
        let len = u32_at(o, c, "a counter definition's ByteLength")? as usize;
        if len < 0x28 || len > definition - c {
            return Err(format!(
                "counter definition {k} at +{c:#x}: expected ByteLength from 40 to {}, found {len}",
                definition - c
            ));
        }
        let counter_type = u32_at(o, c + 0x1C, "CounterType")?;
        counters.push(PerfCounter {
            name_index: u32_at(o, c + 4, "CounterNameTitleIndex")?,
            scale: i32_at(o, c + 0x14, "DefaultScale")?.clamp(-10, 10),
            counter_type,
            size: u32_at(o, c + 0x20, "CounterSize")? as usize,
            offset: u32_at(o, c + 0x24, "CounterOffset")? as usize,
        });
        c += len;
    }
    let counter_block = |p: usize| -> Result<(usize, usize), String> {
        let len = u32_at(o, p, "a PERF_COUNTER_BLOCK's ByteLength")? as usize;
        if len < 4 || len > total - p {
            return Err(format!(
                "expected a counter block of 4 to {} bytes at +{p:#x}, found {len}",
                total - p
            ));
        }
        Ok((at + p, len))
    };
    object.name_index = u32_at(o, 0xC, "ObjectNameTitleIndex")?;
    object.perf_time = u64_at(o, 0x30, "PerfTime")?;
    object.perf_freq = u64_at(o, 0x38, "PerfFreq")?;
    object.has_instances = instances_n >= 0;
    object.instances.clear();
    (object.block, object.block_len) = (0, 0);
    if instances_n < 0 {
        (object.block, object.block_len) = counter_block(definition)?;
        return Ok(());
    }
    let list = &mut object.instances;
    list.reserve((instances_n as usize).min(65_536));
    let mut p = definition;
    for k in 0..instances_n as usize {
        let len = u32_at(o, p, "a PERF_INSTANCE_DEFINITION's ByteLength")? as usize;
        if len < 0x18 || len > total - p {
            return Err(format!(
                "instance {k} at +{p:#x}: expected ByteLength from 24 to {}, found {len}",
                total - p
            ));
        }
        let parent_title = u32_at(o, p + 4, "ParentObjectTitleIndex")?;
        let parent_instance = u32_at(o, p + 8, "ParentObjectInstance")?;
        let name_offset = u32_at(o, p + 0x10, "NameOffset")? as usize;
        let name_length = u32_at(o, p + 0x14, "NameLength")? as usize;
        if name_offset
            .checked_add(name_length)
            .is_none_or(|end| end > len)
        {
            return Err(format!("instance {k} at +{p:#x}: its name ({name_length} bytes at +{name_offset:#x}) runs past its {len} bytes"));
        }
        // NameLength counts the terminating NUL; the name ends at the first NUL in any case.
        let units = before_nul(&o[p + name_offset..p + name_offset + name_length]).len() / 2;
        let (block, block_len) =
            counter_block(p + len).map_err(|w| format!("instance {k}: {w}"))?;
        list.push(PerfInstance {
            name: (at + p + name_offset, at + p + name_offset + 2 * units),
            parent: (parent_title != 0).then_some((parent_title, parent_instance)),
            block,
            block_len,
        });
        p += len + block_len;
    }
    Ok(())
}
