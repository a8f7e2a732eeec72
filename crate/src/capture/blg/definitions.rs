//! The PDH logger's own records: the counter name table (index, name pairs) and the counter
//! definitions, one per logged path, with its shape (one counter, an instance array `(*)` or a whole
//! object `(*)\*`), counter type (winperf.h) and scale. Microsoft does not document these records;
//! `docs/blg.md` gives their layout and what each field was checked against.

use super::bytes::{i32_at, u32_at, u64_at, utf16z};
use super::BlgReader;

/// Definition flag: the path is an instance wildcard `Object(*)\Counter`, logged as an instance array.
pub(super) const FLAG_INSTANCES: u32 = 0x1;
/// Definition flag: the path is a whole object `Object(*)\*`, logged as a PERF_DATA_BLOCK.
pub(super) const FLAG_OBJECT: u32 = 0x10;

/// A definition's shape: one raw counter, an instance array `(*)`, or a whole object `(*)\*`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Single,
    Instances,
    Object,
}

/// One logged path (a record of the definitions event).
#[derive(Clone, Debug)]
pub(super) struct Definition {
    pub(super) shape: Shape,
    /// The flags word as written: 0x1 and 0x10 set the shape; any other bit is unknown, kept for a note.
    pub(super) flags: u32,
    pub(super) counter_type: u32,
    pub(super) frequency: u64,
    pub(super) scale: i32,
    machine: String,
    pub(super) object: String,
    pub(super) instance: Option<String>,
    pub(super) parent: Option<String>,
    pub(super) instance_index: u32,
    pub(super) counter: String,
}

impl Definition {
    /// The machine, without its leading `\\`.
    pub(super) fn machine(&self) -> &str {
        self.machine.trim_start_matches('\\')
    }

    /// The path of one series of this definition.
    pub(super) fn path(
        &self,
        parent: Option<&str>,
        instance: Option<&str>,
        counter: &str,
    ) -> String {
        let machine = if self.machine.is_empty() {
            String::new()
        } else if self.machine.starts_with("\\\\") {
            self.machine.clone()
        } else {
            format!("\\\\{}", self.machine)
        };
        match instance {
            Some(i) => match parent {
                Some(p) => format!("{machine}\\{}({p}/{i})\\{counter}", self.object),
                None => format!("{machine}\\{}({i})\\{counter}", self.object),
            },
            None => format!("{machine}\\{}\\{counter}", self.object),
        }
    }
}

/// The definitions event: two u32 of unknown meaning, then one record per logged path.
pub(super) fn read_definitions(b: &[u8]) -> Result<Vec<Definition>, String> {
    let mut defs = Vec::new();
    let mut at = 8;
    while at < b.len() {
        let size = u32_at(b, at, "a definition's size")? as usize;
        if size == 0 && b[at..].iter().all(|&x| x == 0) {
            break; // padding
        }
        if size < 0x34 || size > b.len() - at {
            return Err(format!(
                "expected a definition of 52 to {} bytes at +{at:#x}, found {size}",
                b.len() - at
            ));
        }
        let r = &b[at..at + size];
        // A bit set: 0x10 a whole object `(*)\*`, else 0x1 an instance array `(*)`, else one counter.
        // Other bits are kept for a note (PowerShell's Export-Counter sets 0x20000000; docs/blg.md).
        let flags = u32_at(r, 4, "the definition's flags")?;
        let shape = if flags & FLAG_OBJECT != 0 {
            Shape::Object
        } else if flags & FLAG_INSTANCES != 0 {
            Shape::Instances
        } else {
            Shape::Single
        };
        let strings = &r[0x34..];
        let text = |field: usize, what: &str| -> Result<Option<String>, String> {
            let off = u32_at(r, field, what)?;
            if off == u32::MAX {
                return Ok(None);
            }
            utf16z(strings, off as usize, what)
                .map(|(s, _)| Some(s))
                .map_err(|e| format!("definition {} at +{at:#x}: {e}", defs.len()))
        };
        let object = text(0x20, "the object name")?.ok_or_else(|| {
            format!(
                "definition {} at +{at:#x}: expected an object name",
                defs.len()
            )
        })?;
        let counter = text(0x30, "the counter name")?.ok_or_else(|| {
            format!(
                "definition {} at +{at:#x}: expected a counter name",
                defs.len()
            )
        })?;
        defs.push(Definition {
            shape,
            flags,
            counter_type: u32_at(r, 0xC, "the counter type")?,
            frequency: u64_at(r, 0x10, "the time base")?,
            scale: i32_at(r, 0x18, "the default scale")?.clamp(-10, 10),
            machine: text(0x1C, "the machine name")?.unwrap_or_default(),
            object,
            instance: text(0x24, "the instance name")?,
            parent: text(0x28, "the parent name")?,
            instance_index: u32_at(r, 0x2C, "the instance index")?,
            counter,
        });
        at += size;
    }
    if defs.is_empty() {
        return Err("expected at least one counter definition".into());
    }
    Ok(defs)
}

impl BlgReader {
    /// A name table event: the machine, then pairs of strings "index", "name".
    pub(super) fn read_names(&mut self, b: &[u8]) -> Result<(), String> {
        let (_machine, mut at) = utf16z(b, 0, "the machine name")?;
        while at + 2 <= b.len() && !(b[at] == 0 && b[at + 1] == 0) {
            let (index, next) = utf16z(b, at, "a counter index")?;
            let (name, next) = utf16z(b, next, "a counter name")?;
            let index: u32 = index.trim().parse().map_err(|_| {
                format!("expected a counter index (digits) at +{at:#x}, found {index:?}")
            })?;
            self.names.insert(index, name);
            at = next;
        }
        Ok(())
    }
}
