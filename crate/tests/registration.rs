//! Registration validation: every rule, in every input form that can express it. Each case starts
//! from a minimal valid counter set, breaks one thing, and expects exactly one diagnostic with the
//! code, severity, field and counter id the rule promises.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::registration::{
    encode_binary, to_json, validate_registration, Counter, CounterSet, Format, Guid, Input,
    Report, Severity,
};
use counterlens::types::{parse_type, CounterType};

const GUID: &str = "ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab";

fn counter(id: u32, ty: &str) -> Counter {
    Counter {
        counter_id: id,
        ty: parse_type(ty).unwrap().value,
        detail_level: 100,
        name: Some(format!("Counter {id}")),
        ..Default::default()
    }
}

fn set(counters: Vec<Counter>) -> CounterSet {
    CounterSet {
        guid: Guid::parse(GUID),
        detail_level: 100,
        num_counters: Some(counters.len() as u32),
        instance_type: 0,
        name: Some("Test Set".into()),
        counters,
        ..Default::default()
    }
}

/// An instrumentation manifest for `sets`, user-mode, every required attribute present. Values a
/// manifest cannot spell (an instance type or aggregate outside its lists) are written as numbers,
/// which the manifest reader itself rejects; cases that need them are not run in this form.
fn manifest(sets: &[CounterSet]) -> String {
    let mut x = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<instrumentationManifest xmlns=\"http://schemas.microsoft.com/win/2004/08/events\">\n \
         <instrumentation>\n  <counters xmlns=\"http://schemas.microsoft.com/win/2005/12/counters\" schemaVersion=\"1.1\">\n   \
         <provider providerName=\"TestProvider\" providerGuid=\"{11111111-2222-3333-4444-555555555555}\" symbol=\"TestProvider\" applicationIdentity=\"test.exe\">\n",
    );
    for s in sets {
        let instances = match s.instance_type {
            0 => "single".to_string(),
            2 => "multiple".into(),
            4 => "globalAggregate".into(),
            6 => "multipleAggregate".into(),
            0xC => "globalAggregateHistory".into(),
            v => v.to_string(),
        };
        x += &format!(
            "    <counterSet guid=\"{{{}}}\" uri=\"Test.Set\" name=\"{}\" description=\"A test set\" symbol=\"TestSet\" instances=\"{instances}\">\n",
            s.guid.unwrap_or_default(),
            s.name.as_deref().unwrap_or("Set")
        );
        for c in &s.counters {
            let ty = CounterType::from_value(c.ty)
                .name()
                .map_or(format!("{:#x}", c.ty), str::to_ascii_lowercase);
            let detail = match c.detail_level {
                100 => "standard".to_string(),
                200 => "advanced".into(),
                v => v.to_string(),
            };
            let aggregate = ["undefined", "sum", "avg", "min", "max"]
                .get(c.aggregate_func as usize)
                .map_or(c.aggregate_func.to_string(), |a| a.to_string());
            x += &format!(
                "     <counter id=\"{}\" uri=\"Test.Set.C{}\" name=\"{}\" description=\"d\" type=\"{ty}\" detailLevel=\"{detail}\" defaultScale=\"{}\" aggregate=\"{aggregate}\" struct=\"S\" field=\"f{}\"",
                c.counter_id, c.counter_id, c.name.as_deref().unwrap_or("c"), c.default_scale, c.counter_id
            );
            for (attr, r) in [
                ("baseID", c.base_counter_id),
                ("perfTimeID", c.perf_time_id),
                ("perfFreqID", c.perf_freq_id),
                ("multiCounterID", c.multi_id),
            ] {
                if let Some(id) = r {
                    x += &format!(" {attr}=\"{id}\"");
                }
            }
            let attrs: Vec<&str> = [
                (0x1, "reference"),
                (0x2, "noDisplay"),
                (0x4, "noDigitGrouping"),
                (0x8, "displayAsReal"),
                (0x10, "displayAsHex"),
            ]
            .iter()
            .filter(|(b, _)| c.attrib & b != 0)
            .map(|(_, n)| *n)
            .collect();
            if attrs.is_empty() {
                x += "/>\n";
            } else {
                x += ">\n      <counterAttributes>";
                for a in attrs {
                    x += &format!("<counterAttribute name=\"{a}\"/>");
                }
                x += "</counterAttributes>\n     </counter>\n";
            }
        }
        x += "    </counterSet>\n";
    }
    x + "   </provider>\n  </counters>\n </instrumentation>\n</instrumentationManifest>\n"
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Form {
    Binary,
    Json,
    Manifest,
}
use Form::*;

fn report(form: Form, sets: &[CounterSet]) -> Report {
    match form {
        Binary => validate_registration(Input::Bytes(&encode_binary(sets)), None),
        Json => validate_registration(Input::Text(&to_json(sets)), None),
        Manifest => validate_registration(Input::Text(&manifest(sets)), None),
    }
}

fn summary(r: &Report) -> Vec<(&'static str, Severity, Option<&'static str>, Option<u32>)> {
    r.diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.severity, d.field, d.counter_id))
        .collect()
}

/// A valid set with one counter of every reference kind and the counters they name.
fn rich() -> CounterSet {
    let mut s = set(vec![
        counter(1, "PERF_COUNTER_COUNTER"),
        counter(2, "PERF_100NSEC_TIMER_INV"),
        {
            let mut c = counter(3, "PERF_AVERAGE_TIMER");
            c.base_counter_id = Some(4);
            c
        },
        counter(4, "PERF_AVERAGE_BASE"),
        {
            let mut c = counter(5, "PERF_RAW_FRACTION");
            c.base_counter_id = Some(6);
            c.attrib = 0x8;
            c
        },
        counter(6, "PERF_RAW_BASE"),
        {
            let mut c = counter(7, "PERF_OBJ_TIME_TIMER");
            c.perf_time_id = Some(8);
            c.perf_freq_id = Some(9);
            c
        },
        counter(8, "PERF_COUNTER_LARGE_RAWCOUNT"),
        counter(9, "PERF_COUNTER_LARGE_RAWCOUNT"),
        {
            let mut c = counter(10, "PERF_100NSEC_MULTI_TIMER");
            c.multi_id = Some(11);
            c
        },
        counter(11, "PERF_COUNTER_RAWCOUNT"),
        {
            let mut c = counter(12, "PERF_PRECISION_100NS_TIMER");
            c.base_counter_id = Some(13);
            c
        },
        counter(13, "PERF_LARGE_RAW_BASE"),
        {
            let mut c = counter(14, "PERF_SAMPLE_FRACTION");
            c.base_counter_id = Some(15);
            c.default_scale = -2;
            c.detail_level = 200;
            c
        },
        counter(15, "PERF_SAMPLE_BASE"),
        {
            let mut c = counter(16, "PERF_ELAPSED_TIME");
            c.perf_time_id = Some(8);
            c.perf_freq_id = Some(9);
            c
        },
        {
            let mut c = counter(17, "PERF_COUNTER_RAWCOUNT_HEX");
            c.attrib = 0x10 | 0x1;
            c
        },
    ]);
    // Multi-instance and aggregating: every displayable counter says how its instances combine.
    s.instance_type = 6;
    for c in &mut s.counters {
        if CounterType::from_value(c.ty).samples() > 0 {
            c.aggregate_func = 1 + c.counter_id % 4;
        }
    }
    s
}

#[test]
fn a_rich_valid_set_has_no_diagnostics_in_any_form() {
    let s = rich();
    for form in [Binary, Json, Manifest] {
        let r = report(form, std::slice::from_ref(&s));
        assert_eq!(summary(&r), vec![], "{form:?}: {:#?}", r.diagnostics);
        assert_eq!((r.errors, r.warnings), (0, 0));
        assert_eq!(r.counter_sets.len(), 1);
        assert_eq!(r.counter_sets[0].guid, GUID);
        assert_eq!(r.counter_sets[0].counters, 17);
        // References resolve to names in the summary (the binary form carries no names).
        let avg = &r.counter_sets[0].counter_list[2];
        let want = if form == Binary {
            "counter 4"
        } else {
            "Counter 4"
        };
        assert_eq!(avg.base.as_deref(), Some(want), "{form:?}");
        assert_eq!(avg.type_name, Some("PERF_AVERAGE_TIMER"));
    }
}

#[test]
fn minimal_valid_set_passes() {
    for form in [Binary, Json, Manifest] {
        assert_eq!(
            summary(&report(
                form,
                &[set(vec![counter(1, "PERF_COUNTER_RAWCOUNT")])]
            )),
            vec![],
            "{form:?}"
        );
    }
}

type Case = (
    &'static str,
    fn() -> CounterSet,
    (&'static str, Severity, Option<&'static str>, Option<u32>),
    &'static [Form],
);

fn one(ty: &str) -> CounterSet {
    set(vec![counter(1, ty)])
}

const ALL: &[Form] = &[Binary, Json, Manifest];
const STRUCTS: &[Form] = &[Binary, Json];
use Severity::{Error, Info, Warning};

/// One case per rule: the broken input, and exactly the diagnostic it must give.
const CASES: &[Case] = &[
    (
        "guid-zero",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.guid = Some(Guid::default());
            s
        },
        ("guid-zero", Error, Some("CounterSetGuid"), None),
        ALL,
    ),
    (
        "instance-type-invalid",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.instance_type = 3;
            s
        },
        ("instance-type-invalid", Error, Some("InstanceType"), None),
        STRUCTS,
    ),
    (
        "instance-type-not-implemented",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.instance_type = 0x16;
            s
        },
        (
            "instance-type-not-implemented",
            Warning,
            Some("InstanceType"),
            None,
        ),
        STRUCTS,
    ),
    (
        "set detail level",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.detail_level = 300;
            s
        },
        ("detail-level-invalid", Error, Some("DetailLevel"), None),
        STRUCTS,
    ),
    (
        "counterset-type-reserved",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counter_set_type = 1;
            s
        },
        (
            "counterset-type-reserved",
            Warning,
            Some("CounterSetType"),
            None,
        ),
        STRUCTS,
    ),
    (
        "no-counters",
        || set(vec![]),
        ("no-counters", Error, Some("NumCounters"), None),
        STRUCTS,
    ),
    (
        "duplicate-counter-id",
        || {
            set(vec![
                counter(1, "PERF_COUNTER_RAWCOUNT"),
                counter(1, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ])
        },
        ("duplicate-counter-id", Error, Some("CounterId"), Some(1)),
        ALL,
    ),
    (
        "counter-type-invalid: unknown",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].ty = 0x1234_5678;
            s
        },
        ("counter-type-invalid", Error, Some("Type"), Some(1)),
        STRUCTS,
    ),
    (
        "counter-type-invalid: NODATA",
        || one("PERF_COUNTER_NODATA"),
        ("counter-type-invalid", Error, Some("Type"), Some(1)),
        STRUCTS,
    ),
    (
        "counter-type-invalid: HISTOGRAM",
        || one("PERF_COUNTER_HISTOGRAM_TYPE"),
        ("counter-type-invalid", Error, Some("Type"), Some(1)),
        STRUCTS,
    ),
    (
        "attrib-unknown-bits",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].attrib = 0x1_0000_0020;
            s
        },
        ("attrib-unknown-bits", Error, Some("Attrib"), Some(1)),
        STRUCTS,
    ),
    (
        "attrib-conflict: no-display + real",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].attrib = 0x2 | 0x8;
            s
        },
        ("attrib-conflict", Error, Some("Attrib"), Some(1)),
        ALL,
    ),
    (
        "attrib-conflict: hex + no-group-separator",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].attrib = 0x10 | 0x4;
            s
        },
        ("attrib-conflict", Error, Some("Attrib"), Some(1)),
        ALL,
    ),
    (
        "counter detail level",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].detail_level = 150;
            s
        },
        ("detail-level-invalid", Error, Some("DetailLevel"), Some(1)),
        STRUCTS,
    ),
    (
        "default-scale-out-of-range",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].default_scale = 11;
            s
        },
        (
            "default-scale-out-of-range",
            Error,
            Some("DefaultScale"),
            Some(1),
        ),
        ALL,
    ),
    (
        "base-counter-required",
        || one("PERF_AVERAGE_BULK"),
        (
            "base-counter-required",
            Error,
            Some("BaseCounterId"),
            Some(1),
        ),
        ALL,
    ),
    (
        "base-counter-wrong-type",
        || {
            let mut s = set(vec![
                counter(1, "PERF_RAW_FRACTION"),
                counter(2, "PERF_AVERAGE_BASE"),
            ]);
            s.counters[0].base_counter_id = Some(2);
            s
        },
        (
            "base-counter-wrong-type",
            Error,
            Some("BaseCounterId"),
            Some(1),
        ),
        ALL,
    ),
    (
        "perf-time-required",
        || {
            let mut s = set(vec![
                counter(1, "PERF_ELAPSED_TIME"),
                counter(2, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ]);
            s.counters[0].perf_freq_id = Some(2);
            s
        },
        ("perf-time-required", Error, Some("PerfTimeId"), Some(1)),
        ALL,
    ),
    (
        "perf-freq-required",
        || {
            let mut s = set(vec![
                counter(1, "PERF_PRECISION_OBJECT_TIMER"),
                counter(2, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ]);
            s.counters[0].perf_time_id = Some(2);
            s
        },
        ("perf-freq-required", Error, Some("PerfFreqId"), Some(1)),
        ALL,
    ),
    (
        "perf-time-wrong-type",
        || {
            let mut s = set(vec![
                counter(1, "PERF_OBJ_TIME_TIMER"),
                counter(2, "PERF_COUNTER_RAWCOUNT"),
                counter(3, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ]);
            s.counters[0].perf_time_id = Some(2);
            s.counters[0].perf_freq_id = Some(3);
            s
        },
        ("perf-time-wrong-type", Error, Some("PerfTimeId"), Some(1)),
        ALL,
    ),
    (
        "perf-freq-wrong-type",
        || {
            let mut s = set(vec![
                counter(1, "PERF_COUNTER_OBJ_TIME_QUEUELEN_TYPE"),
                counter(2, "PERF_COUNTER_LARGE_RAWCOUNT"),
                counter(3, "PERF_COUNTER_COUNTER"),
            ]);
            s.counters[0].perf_time_id = Some(2);
            s.counters[0].perf_freq_id = Some(3);
            s
        },
        ("perf-freq-wrong-type", Error, Some("PerfFreqId"), Some(1)),
        ALL,
    ),
    (
        "multi-required",
        || one("PERF_COUNTER_MULTI_TIMER_INV"),
        ("multi-required", Error, Some("MultiId"), Some(1)),
        ALL,
    ),
    (
        "multi-wrong-type",
        || {
            let mut s = set(vec![
                counter(1, "PERF_100NSEC_MULTI_TIMER_INV"),
                counter(2, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ]);
            s.counters[0].multi_id = Some(2);
            s
        },
        ("multi-wrong-type", Error, Some("MultiId"), Some(1)),
        ALL,
    ),
    (
        "reference-to-self",
        || {
            let mut s = one("PERF_AVERAGE_TIMER");
            s.counters[0].base_counter_id = Some(1);
            s
        },
        ("reference-to-self", Error, Some("BaseCounterId"), Some(1)),
        ALL,
    ),
    (
        "reference-missing",
        || {
            let mut s = one("PERF_COUNTER_MULTI_TIMER");
            s.counters[0].multi_id = Some(99);
            s
        },
        ("reference-missing", Error, Some("MultiId"), Some(1)),
        ALL,
    ),
    (
        "reference-unused",
        || {
            let mut s = set(vec![
                counter(1, "PERF_COUNTER_COUNTER"),
                counter(2, "PERF_COUNTER_LARGE_RAWCOUNT"),
            ]);
            s.counters[0].perf_time_id = Some(2);
            s
        },
        ("reference-unused", Warning, Some("PerfTimeId"), Some(1)),
        ALL,
    ),
    (
        "aggregate-func-invalid",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].aggregate_func = 5;
            s
        },
        (
            "aggregate-func-invalid",
            Error,
            Some("AggregateFunc"),
            Some(1),
        ),
        STRUCTS,
    ),
    (
        "aggregate-undefined",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.instance_type = 4;
            s
        },
        (
            "aggregate-undefined",
            Warning,
            Some("AggregateFunc"),
            Some(1),
        ),
        ALL,
    ),
    (
        "aggregate-ignored",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].aggregate_func = 2;
            s
        },
        ("aggregate-ignored", Info, Some("AggregateFunc"), Some(1)),
        ALL,
    ),
    (
        "reserved-nonzero",
        || {
            let mut s = one("PERF_COUNTER_RAWCOUNT");
            s.counters[0].reserved = 7;
            s
        },
        ("reserved-nonzero", Warning, Some("Reserved"), Some(1)),
        STRUCTS,
    ),
];

#[test]
fn every_rule_in_every_form_that_can_express_it() {
    for (name, make, want, forms) in CASES {
        for &form in *forms {
            let r = report(form, &[make()]);
            assert_eq!(
                summary(&r),
                vec![*want],
                "{name} as {form:?}: {:#?}",
                r.diagnostics
            );
            let d = &r.diagnostics[0];
            assert!(!d.message.is_empty() && !d.source.is_empty());
            if d.code.as_str() != "guid-zero" {
                assert_eq!(d.counter_set.as_deref(), Some(GUID), "{name} as {form:?}");
            }
            match form {
                Binary => assert!(d.line.is_none()),
                _ => assert!(
                    d.line.is_some() && d.column.is_some(),
                    "{name} as {form:?} has no line"
                ),
            }
        }
    }
}

#[test]
fn binary_diagnostics_point_at_the_field_bytes() {
    // Counter 1 starts at byte 32; its DefaultScale is at +20 = byte 52.
    let r = report(
        Binary,
        &[CASES
            .iter()
            .find(|c| c.0 == "default-scale-out-of-range")
            .unwrap()
            .1()],
    );
    assert_eq!(r.diagnostics[0].offset, 52);
}

#[test]
fn manifest_diagnostics_point_at_the_attribute() {
    let text = manifest(&[CASES
        .iter()
        .find(|c| c.0 == "default-scale-out-of-range")
        .unwrap()
        .1()]);
    let r = validate_registration(Input::Text(&text), None);
    let d = &r.diagnostics[0];
    let line = text.lines().nth(d.line.unwrap() as usize - 1).unwrap();
    let col = d.column.unwrap() as usize - 1;
    assert!(
        line[col..].starts_with("11\""),
        "points at {:?}",
        &line[col..]
    );
}

#[test]
fn num_counters_mismatch_in_json() {
    let text = to_json(&[one("PERF_COUNTER_RAWCOUNT")])
        .replace("\"numCounters\": 1", "\"numCounters\": 2");
    let r = validate_registration(Input::Text(&text), None);
    assert_eq!(
        summary(&r),
        vec![("num-counters-mismatch", Error, Some("NumCounters"), None)]
    );
    // It points at the value 2.
    let d = &r.diagnostics[0];
    let line = text.lines().nth(d.line.unwrap() as usize - 1).unwrap();
    assert!(
        line.contains("\"numCounters\": ")
            && line[d.column.unwrap() as usize - 1..].starts_with('2'),
        "{line}"
    );
}

#[test]
fn too_many_counters_is_bounded() {
    // 64,001 counters: one too many. The binary form is 32 + 64,001 * 48 bytes.
    let counters: Vec<Counter> = (0..64_001)
        .map(|i| counter(i, "PERF_COUNTER_RAWCOUNT"))
        .collect();
    let r = report(Binary, &[set(counters)]);
    assert_eq!(
        summary(&r),
        vec![("too-many-counters", Error, Some("NumCounters"), None)]
    );
}

#[test]
fn round_trip_binary_model_json_model() {
    let bytes = encode_binary(&[rich(), one("PERF_COUNTER_DELTA")]);
    let a = validate_registration(Input::Bytes(&bytes), None);
    let json = to_json(&[rich(), one("PERF_COUNTER_DELTA")]);
    let b = validate_registration(Input::Text(&json), Some(Format::Json));
    assert_eq!(a.counter_sets.len(), 2);
    // The same sets, counters, types and references; names only where the form carries them.
    for (x, y) in a.counter_sets.iter().zip(&b.counter_sets) {
        assert_eq!(
            (x.guid.as_str(), x.counters, x.instance_type),
            (y.guid.as_str(), y.counters, y.instance_type)
        );
        for (p, q) in x.counter_list.iter().zip(&y.counter_list) {
            assert_eq!(
                (p.counter_id, p.ty, p.base.is_some(), p.multi.is_some()),
                (q.counter_id, q.ty, q.base.is_some(), q.multi.is_some())
            );
        }
    }
    // And JSON written from what the JSON reader read is the same JSON.
    assert_eq!(summary(&a), summary(&b));
}

#[test]
fn hex_text_is_read_as_binary() {
    let bytes = encode_binary(&[rich()]);
    let hex: String = bytes
        .chunks(16)
        .map(|l| {
            l.iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let r = validate_registration(Input::Text(&hex), None);
    assert_eq!(r.format, "hex");
    assert_eq!(
        (r.errors, r.warnings, r.counter_sets[0].counters),
        (0, 0, 17)
    );
}

/// The fixtures the Node and Chromium layers use (tests/vectors/registration/) are the rich set in its
/// three forms: they must stay clean. `WRITE_FIXTURES=1 cargo test --test registration fixtures` writes them.
#[test]
fn fixtures_are_the_rich_set_and_clean() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/vectors/registration/"
    );
    let s = rich();
    let hex: String = encode_binary(std::slice::from_ref(&s))
        .chunks(16)
        .map(|l| {
            l.iter()
                .map(|b| format!("{b:02x}"))
                .collect::<Vec<_>>()
                .join(" ")
                + "\n"
        })
        .collect();
    let forms = [
        ("rich.man", manifest(std::slice::from_ref(&s))),
        ("rich.json", to_json(std::slice::from_ref(&s))),
        ("rich.hex", hex),
    ];
    for (file, text) in forms {
        if std::env::var_os("WRITE_FIXTURES").is_some() {
            std::fs::write(format!("{dir}{file}"), &text).unwrap();
        }
        let committed = std::fs::read_to_string(format!("{dir}{file}")).unwrap();
        assert_eq!(
            committed, text,
            "{file} differs from the rich set; regenerate with WRITE_FIXTURES=1"
        );
        let r = validate_registration(Input::Text(&committed), None);
        assert_eq!(
            (r.errors, r.warnings, r.counter_sets[0].counters),
            (0, 0, 17),
            "{file}"
        );
    }
}
