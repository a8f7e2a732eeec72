//! Every rule of docs/registration-rules.md. Each diagnostic's code is stable; the docs list them all
//! with their severity, source and an example that triggers it.

use super::{
    Counter, CounterSet, Diagnostic, DiagnosticCode, Field, Severity, INSTANCE_TYPES, MAX_COUNTERS,
};
use crate::format::{
    ATTRIB_DISPLAY_AS_HEX as DISPLAY_AS_HEX, ATTRIB_DISPLAY_AS_REAL as DISPLAY_AS_REAL,
    ATTRIB_KNOWN, ATTRIB_NO_DISPLAY as NO_DISPLAY, ATTRIB_NO_GROUP_SEPARATOR as NO_GROUP_SEPARATOR,
};
use crate::types::{required_base, CounterType, Formula, PERF_OBJECT_TIMER, TIMER_MASK};
use std::collections::{HashMap, HashSet};

const PCQ: &str = "MS-PCQ 2.2.4.2";
const PERFLIB_SET: &str = "perflib.h PERF_COUNTERSET_REG_INFO";
const PERFLIB_COUNTER: &str = "perflib.h PERF_COUNTER_REG_INFO";

// The values the checks compare with, by name.
const RAWCOUNT: u32 = 0x0001_0000;
const LARGE_RAWCOUNT: u32 = 0x0001_0100;
const NODATA: u32 = 0x4000_0200;
const HISTOGRAM: u32 = 0x8000_0000;

/// Types that need PerfTimeId and PerfFreqId ([MS-PCQ] 2.2.4.2): those timed by the object's own clock
/// (OBJ_TIME_QUEUELEN, ELAPSED_TIME, OBJ_TIME_TIMER, PRECISION_OBJECT_TIMER).
fn needs_time_and_freq(ty: u32) -> bool {
    ty & TIMER_MASK == PERF_OBJECT_TIMER
}

/// Types that need MultiId ([MS-PCQ] 2.2.4.2): the MULTI timers, whose formula reads M.
fn needs_multi(ty: u32) -> bool {
    CounterType::from_value(ty)
        .formula()
        .is_some_and(|f| f.spec().multi)
}

fn type_name(ty: u32) -> String {
    CounterType::from_value(ty).to_string()
}

fn instance_type_name(v: u32) -> Option<&'static str> {
    INSTANCE_TYPES
        .iter()
        .find(|(value, _, _)| *value == v)
        .map(|&(_, name, _)| name)
}

/// Validates every set, adding to `out` (which holds the reader's diagnostics). A field the reader
/// already reported (unreadable, missing, not in the manifest's list) is not reported again by a rule
/// looking at the placeholder the reader left: one fault, one diagnostic.
/// `place` describes a byte offset in the input's own terms ("line 3, column 7" or "byte 80").
pub fn validate(sets: &[CounterSet], out: &mut Vec<Diagnostic>, place: &dyn Fn(usize) -> String) {
    type Key = (Option<String>, Option<u32>, Option<String>, &'static str);
    let key = |d: &Diagnostic| -> Option<Key> {
        Some((
            d.counter_set.clone(),
            d.counter_id,
            d.unidentified.clone(),
            d.field?,
        ))
    };
    let reported: HashSet<Key> = out.iter().filter_map(key).collect();
    let mut found = Vec::new();
    for set in sets {
        validate_set(set, &mut found, place);
    }
    let fresh: Vec<Diagnostic> = found
        .into_iter()
        .filter(|d| key(d).is_none_or(|k| !reported.contains(&k)))
        .collect();
    out.extend(fresh);
}

fn validate_set(set: &CounterSet, out: &mut Vec<Diagnostic>, place: &dyn Fn(usize) -> String) {
    let at = |f: Field| set.spans.of(f);
    let mut push = |code, sev, f: Field, msg: String, src| {
        out.push(
            Diagnostic::new(code, sev, at(f), msg, src)
                .in_set(set)
                .field(f),
        );
    };
    if set.guid.is_some_and(|g| g.is_zero()) {
        push(DiagnosticCode::GuidZero, Severity::Error, Field::CounterSetGuid,
            "CounterSetGuid is all zeros: every counter set needs its own GUID (generate one with uuidgen)".into(), PERFLIB_SET);
    }
    match set.instance_type {
        0x16 => push(DiagnosticCode::InstanceTypeNotImplemented, Severity::Warning, Field::InstanceType,
            "InstanceType 0x16 (PERF_COUNTERSET_INSTANCE_AGGREGATE) is documented as not implemented: use PERF_COUNTERSET_MULTI_AGGREGATE (6)".into(), PERFLIB_SET),
        v if instance_type_name(v).is_none() => push(DiagnosticCode::InstanceTypeInvalid, Severity::Error, Field::InstanceType,
            format!("InstanceType {v:#x} is not one of 0 (single), 2 (multiple), 4 (single aggregate), 6 (multiple aggregate), 0xC (single aggregate history)"), PERFLIB_SET),
        _ => {}
    }
    if !matches!(set.detail_level, 100 | 200) {
        push(DiagnosticCode::DetailLevelInvalid, Severity::Error, Field::DetailLevel,
            format!("the counter set's DetailLevel {} is neither PERF_DETAIL_NOVICE (100) nor PERF_DETAIL_ADVANCED (200)", set.detail_level), PERFLIB_SET);
    }
    if set.counter_set_type != 0 {
        push(
            DiagnosticCode::CountersetTypeReserved,
            Severity::Warning,
            Field::CounterSetType,
            format!(
                "CounterSetType is reserved and should be 0, not {:#x} (consumers ignore it)",
                set.counter_set_type
            ),
            PERFLIB_SET,
        );
    }
    if let Some(n) = set.num_counters {
        if n as usize != set.counters.len() {
            push(
                DiagnosticCode::NumCountersMismatch,
                Severity::Error,
                Field::NumCounters,
                format!(
                    "NumCounters says {n} but {} PERF_COUNTER_REG_INFO blocks follow",
                    set.counters.len()
                ),
                PERFLIB_SET,
            );
        }
    }
    if set.counters.is_empty() {
        push(
            DiagnosticCode::NoCounters,
            Severity::Error,
            Field::NumCounters,
            "the counter set has no counters: it needs at least one".into(),
            PERFLIB_SET,
        );
    }
    if set.counters.len() > MAX_COUNTERS {
        push(
            DiagnosticCode::TooManyCounters,
            Severity::Error,
            Field::NumCounters,
            format!(
                "the counter set has {} counters; a set may hold at most {MAX_COUNTERS}",
                set.counters.len()
            ),
            PERFLIB_COUNTER,
        );
    }

    // Counters by id; the first of a duplicated id is the one references resolve to.
    let mut by_id: HashMap<u32, &Counter> = HashMap::with_capacity(set.counters.len());
    // A counter with no valid id (already reported) takes part in no id rule: its placeholder 0 is no id.
    for c in set.counters.iter().filter(|c| c.unidentified.is_none()) {
        if let Some(first) = by_id.get(&c.counter_id) {
            let where_first = place(first.spans.of(Field::CounterId).offset);
            out.push(
                Diagnostic::new(DiagnosticCode::DuplicateCounterId, Severity::Error, c.spans.of(Field::CounterId),
                    format!("CounterId {} is used twice in this set (first at {where_first}): ids must be unique within a counter set", c.counter_id), PCQ)
                    .in_set(set).counter(c).field(Field::CounterId),
            );
        } else {
            by_id.insert(c.counter_id, c);
        }
    }
    let aggregate_set = matches!(set.instance_type, 4 | 6 | 0x0C);
    for c in &set.counters {
        validate_counter(set, c, &by_id, aggregate_set, out);
    }
}

/// The diagnostics of one counter, each placed at the field it is about.
struct CounterReport<'a> {
    set: &'a CounterSet,
    c: &'a Counter,
    out: &'a mut Vec<Diagnostic>,
}

impl CounterReport<'_> {
    fn push(
        &mut self,
        code: DiagnosticCode,
        sev: Severity,
        f: Field,
        msg: String,
        src: &'static str,
    ) {
        self.out.push(
            Diagnostic::new(code, sev, self.c.spans.of(f), msg, src)
                .in_set(self.set)
                .counter(self.c)
                .field(f),
        );
    }
}

/// The rules about one counter, in the order they are reported: its type, attributes, levels,
/// references and aggregation.
fn validate_counter(
    set: &CounterSet,
    c: &Counter,
    by_id: &HashMap<u32, &Counter>,
    aggregate_set: bool,
    out: &mut Vec<Diagnostic>,
) {
    let mut r = CounterReport { set, c, out };
    let known = check_type(&mut r);
    check_attributes(&mut r);
    check_levels(&mut r);
    check_references(&mut r, by_id, known);
    check_aggregation(&mut r, aggregate_set, known);
    check_reserved(&mut r);
}

/// Type: a predefined counter type that can be registered. Returns whether it is one (the rules that
/// depend on the type's needs only apply to a known type).
fn check_type(r: &mut CounterReport<'_>) -> bool {
    let c = r.c;
    let known = CounterType::from_value(c.ty).row.is_some() && c.ty != NODATA && c.ty != HISTOGRAM;
    if !known {
        let why = match c.ty {
            NODATA => "PERF_COUNTER_NODATA carries no data".to_string(),
            HISTOGRAM => "PERF_COUNTER_HISTOGRAM_TYPE cannot be registered".to_string(),
            v => format!("{v:#010x} is not a counter type"),
        };
        r.push(
            DiagnosticCode::CounterTypeInvalid,
            Severity::Error,
            Field::Type,
            format!("Type: {why}; use one of the predefined types (docs/counter-types.md)"),
            PCQ,
        );
    }
    known
}

/// Attributes: only defined bits, and no combination MS-PCQ forbids.
fn check_attributes(r: &mut CounterReport<'_>) {
    let c = r.c;
    let a = c.attrib;
    if a & !ATTRIB_KNOWN != 0 {
        r.push(DiagnosticCode::AttribUnknownBits, Severity::Error, Field::Attrib,
            format!("Attrib {a:#x} sets bits {:#x} that no attribute defines (known: 0x1 reference, 0x2 no-display, 0x4 no-group-separator, 0x8 display-as-real, 0x10 display-as-hex)", a & !ATTRIB_KNOWN), PCQ);
    }
    if a & NO_DISPLAY != 0 && a & (NO_GROUP_SEPARATOR | DISPLAY_AS_REAL | DISPLAY_AS_HEX) != 0 {
        r.push(DiagnosticCode::AttribConflict, Severity::Error, Field::Attrib,
            format!("Attrib {a:#x} combines no-display (0x2) with a display format (0x4, 0x8 or 0x10): MS-PCQ forbids it; the counter is not shown either way, so drop the format bits"), PCQ);
    }
    if a & (NO_GROUP_SEPARATOR | DISPLAY_AS_REAL) != 0 && a & DISPLAY_AS_HEX != 0 {
        let winner = if a & NO_GROUP_SEPARATOR != 0 {
            "no-group-separator (0x4)"
        } else {
            "display-as-real (0x8)"
        };
        r.push(DiagnosticCode::AttribConflict, Severity::Error, Field::Attrib,
            format!("Attrib {a:#x} combines display-as-hex (0x10) with no-group-separator (0x4) or display-as-real (0x8): MS-PCQ forbids it. perflib.h instead ranks them, and Windows would let {winner} win, so the value would not show as hex"), PCQ);
    }
}

/// DetailLevel and DefaultScale within their ranges.
fn check_levels(r: &mut CounterReport<'_>) {
    let c = r.c;
    if !matches!(c.detail_level, 100 | 200) {
        r.push(
            DiagnosticCode::DetailLevelInvalid,
            Severity::Error,
            Field::DetailLevel,
            format!(
                "DetailLevel {} is neither PERF_DETAIL_NOVICE (100) nor PERF_DETAIL_ADVANCED (200)",
                c.detail_level
            ),
            PCQ,
        );
    }
    if !(-10..=10).contains(&c.default_scale) {
        r.push(
            DiagnosticCode::DefaultScaleOutOfRange,
            Severity::Error,
            Field::DefaultScale,
            format!(
                "DefaultScale {} is outside -10..10 (the value is multiplied by 10^DefaultScale)",
                c.default_scale
            ),
            PCQ,
        );
    }
}

/// References (base, time, frequency, multi): required, well-typed, present, not self; or unused.
fn check_references(r: &mut CounterReport<'_>, by_id: &HashMap<u32, &Counter>, known: bool) {
    let c = r.c;
    let refs: [(Field, Option<u32>, Option<u32>, &str); 4] = [
        (
            Field::BaseCounterId,
            c.base_counter_id,
            if known { required_base(c.ty) } else { None },
            "BaseCounterId",
        ),
        (
            Field::PerfTimeId,
            c.perf_time_id,
            (known && needs_time_and_freq(c.ty)).then_some(LARGE_RAWCOUNT),
            "PerfTimeId",
        ),
        (
            Field::PerfFreqId,
            c.perf_freq_id,
            (known && needs_time_and_freq(c.ty)).then_some(LARGE_RAWCOUNT),
            "PerfFreqId",
        ),
        (
            Field::MultiId,
            c.multi_id,
            (known && needs_multi(c.ty)).then_some(RAWCOUNT),
            "MultiId",
        ),
    ];
    for (field, id, want, label) in refs {
        match (id, want) {
            (None, Some(w)) => r.push(
                match field {
                    Field::BaseCounterId => DiagnosticCode::BaseCounterRequired,
                    Field::PerfTimeId => DiagnosticCode::PerfTimeRequired,
                    Field::PerfFreqId => DiagnosticCode::PerfFreqRequired,
                    _ => DiagnosticCode::MultiRequired,
                },
                Severity::Error,
                field,
                format!(
                    "{} needs {label}: the id of a {} counter in this set",
                    type_name(c.ty),
                    type_name(w)
                ),
                PCQ,
            ),
            (Some(id), want) => {
                if id == c.counter_id && c.unidentified.is_none() {
                    r.push(
                        DiagnosticCode::ReferenceToSelf,
                        Severity::Error,
                        field,
                        format!("{label} {id} is this counter itself"),
                        PCQ,
                    );
                    continue;
                }
                let Some(target) = by_id.get(&id) else {
                    r.push(
                        DiagnosticCode::ReferenceMissing,
                        Severity::Error,
                        field,
                        format!("{label} {id} names no counter of this set"),
                        PCQ,
                    );
                    continue;
                };
                match want {
                    Some(w) if target.ty != w => r.push(match field {
                            Field::BaseCounterId => DiagnosticCode::BaseCounterWrongType,
                            Field::PerfTimeId => DiagnosticCode::PerfTimeWrongType,
                            Field::PerfFreqId => DiagnosticCode::PerfFreqWrongType,
                            _ => DiagnosticCode::MultiWrongType,
                        }, Severity::Error, field,
                        format!("{label} {id} names a {} counter; {} needs a {} one", type_name(target.ty), type_name(c.ty), type_name(w)), PCQ),
                    Some(_) => {}
                    None if known => r.push(DiagnosticCode::ReferenceUnused, Severity::Warning, field,
                        format!("{label} {id} is set, but {} does not use it (consumers ignore it); set it to 0xFFFFFFFF", type_name(c.ty)), PCQ),
                    None => {}
                }
            }
            (None, None) => {}
        }
    }
}

/// AggregateFunc: a defined value, set where the set aggregates and unused where it does not.
fn check_aggregation(r: &mut CounterReport<'_>, aggregate_set: bool, known: bool) {
    let (set, c) = (r.set, r.c);
    let ty = CounterType::from_value(c.ty);
    if c.aggregate_func > 4 {
        r.push(DiagnosticCode::AggregateFuncInvalid, Severity::Error, Field::AggregateFunc,
            format!("AggregateFunc {} is not 0 (undefined), 1 (total), 2 (average), 3 (minimum) or 4 (maximum)", c.aggregate_func), PCQ);
    } else if aggregate_set
        && c.aggregate_func == 0
        && known
        && ty.samples() > 0
        && ty.formula() != Some(Formula::Text)
    {
        r.push(DiagnosticCode::AggregateUndefined, Severity::Warning, Field::AggregateFunc,
            format!("the set aggregates (InstanceType {:#x}) but this displayable counter's AggregateFunc is undefined (0): say how its instances combine", set.instance_type), PCQ);
    } else if !aggregate_set && c.aggregate_func != 0 {
        r.push(
            DiagnosticCode::AggregateIgnored,
            Severity::Info,
            Field::AggregateFunc,
            format!(
                "AggregateFunc {} is ignored: the set's InstanceType {:#x} does not aggregate",
                c.aggregate_func, set.instance_type
            ),
            PCQ,
        );
    }
}

/// Reserved: 0.
fn check_reserved(r: &mut CounterReport<'_>) {
    let c = r.c;
    if c.reserved != 0 {
        r.push(
            DiagnosticCode::ReservedNonzero,
            Severity::Warning,
            Field::Reserved,
            format!(
                "Reserved is {:#x}: it MUST be 0 (and is ignored on receipt)",
                c.reserved
            ),
            PCQ,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::TYPES;

    #[test]
    fn the_types_that_need_time_frequency_or_multi_ids() {
        let names = |f: fn(u32) -> bool| -> Vec<&str> {
            TYPES
                .iter()
                .filter(|r| f(r.value))
                .map(|r| r.name)
                .collect()
        };
        assert_eq!(
            names(needs_time_and_freq),
            [
                "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE",
                "PERF_OBJ_TIME_TIMER",
                "PERF_PRECISION_OBJECT_TIMER",
                "PERF_ELAPSED_TIME"
            ]
        );
        assert_eq!(
            names(needs_multi),
            [
                "PERF_COUNTER_MULTI_TIMER",
                "PERF_100NSEC_MULTI_TIMER",
                "PERF_COUNTER_MULTI_TIMER_INV",
                "PERF_100NSEC_MULTI_TIMER_INV"
            ]
        );
    }
}
