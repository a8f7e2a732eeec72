//! Registration input: the manifest-only and JSON-only rules, and bad input of every kind. Bad input
//! gives diagnostics with a position, in bounded time and memory, never a panic.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::registration::{
    encode_binary, validate_registration, Counter, CounterSet, Format, Guid, Input, Report,
    Severity,
};

fn codes(r: &Report) -> Vec<&'static str> {
    r.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

fn text(t: &str) -> Report {
    validate_registration(Input::Text(t), None)
}

const HEAD: &str = r#"<instrumentationManifest xmlns="http://schemas.microsoft.com/win/2004/08/events"><instrumentation>
<counters xmlns="http://schemas.microsoft.com/win/2005/12/counters" schemaVersion="1.1">
<provider providerName="P" providerGuid="{11111111-2222-3333-4444-555555555555}" symbol="P" applicationIdentity="p.exe">
"#;
const TAIL: &str = "\n</provider></counters></instrumentation></instrumentationManifest>";
const SET: &str = r#"<counterSet guid="{ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}" uri="U" name="N" description="D" symbol="S" instances="single">"#;
const COUNTER: &str = r#"<counter id="1" uri="U.1" type="perf_counter_rawcount" detailLevel="standard" struct="S" field="f"/>"#;

fn manifest(set_open: &str, counters: &str) -> String {
    format!("{HEAD}{set_open}\n{counters}\n</counterSet>{TAIL}")
}

#[test]
fn a_minimal_manifest_is_valid() {
    let r = text(&manifest(SET, COUNTER));
    assert_eq!(codes(&r), Vec::<&str>::new(), "{:#?}", r.diagnostics);
    assert_eq!(r.format, "manifest");
}

#[test]
fn manifest_only_rules() {
    let cases: &[(String, &str, &str, u32)] = &[
        // (manifest, expected code, field, line of the diagnostic)
        (manifest(&SET.replace(r#" symbol="S""#, ""), COUNTER), "missing-attribute", "symbol", 4),
        (manifest(&SET.replace(r#" uri="U""#, ""), COUNTER), "missing-attribute", "uri", 4),
        (manifest(&SET.replace(r#" description="D""#, ""), COUNTER), "missing-attribute", "description", 4),
        (manifest(&SET.replace(r#" name="N""#, ""), COUNTER), "missing-attribute", "name", 4),
        (manifest(&SET.replace("{ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab}", "ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab"), COUNTER), "invalid-value", "CounterSetGuid", 4),
        (manifest(&SET.replace(r#"name="N""#, &format!("name=\"{}\"", "n".repeat(1024))), COUNTER), "invalid-value", "name", 4),
        (manifest(&SET.replace("single", "several"), COUNTER), "invalid-value", "InstanceType", 4),
        (manifest(&SET.replace(r#"symbol="S""#, r#"symbol="9S""#), COUNTER), "invalid-value", "symbol", 4),
        (manifest(SET, &COUNTER.replace(r#" uri="U.1""#, "")), "missing-attribute", "uri", 5),
        (manifest(SET, &COUNTER.replace("perf_counter_rawcount", "PERF_COUNTER_RAWCOUNT")), "invalid-value", "Type", 5),
        (manifest(SET, &COUNTER.replace("standard", "novice")), "invalid-value", "DetailLevel", 5),
        (manifest(SET, &COUNTER.replace(r#"id="1""#, r#"id="one""#)), "invalid-value", "CounterId", 5),
        (manifest(SET, &COUNTER.replace(r#"id="1""#, r#"id="1" aggregate="total""#)), "invalid-value", "AggregateFunc", 5),
        (manifest(SET, &COUNTER.replace(r#"id="1""#, r#"id="1" baseID="two""#)), "invalid-value", "BaseCounterId", 5),
        (manifest(SET, &COUNTER.replace(r#" struct="S""#, "")), "missing-attribute", "struct", 5),
        (manifest(SET, &COUNTER.replace(r#" field="f""#, "")), "missing-attribute", "field", 5),
        (manifest(SET, &COUNTER.replace("/>", "><counterAttributes><counterAttribute name=\"bold\"/></counterAttributes></counter>")), "invalid-value", "Attrib", 5),
        (manifest(SET, &COUNTER.replace("/>", "><counterAttributes><counterAttribute name=\"reference\"/><counterAttribute name=\"reference\"/></counterAttributes></counter>")), "duplicate-attribute", "Attrib", 5),
    ];
    for (m, code, field, line) in cases {
        let r = text(m);
        let d: Vec<_> = r
            .diagnostics
            .iter()
            .map(|d| (d.code.as_str(), d.field, d.line))
            .collect();
        assert_eq!(d, vec![(*code, Some(*field), Some(*line))], "{m}");
        assert_eq!(r.diagnostics[0].severity, Severity::Error);
    }
}

#[test]
fn kernel_mode_providers_need_no_struct_or_field() {
    let m = manifest(SET, &COUNTER.replace(r#" struct="S" field="f""#, "")).replace(
        r#"applicationIdentity="p.exe""#,
        r#"providerType="kernelMode""#,
    );
    assert_eq!(codes(&text(&m)), Vec::<&str>::new());
}

#[test]
fn six_counter_attributes_are_too_many() {
    let attrs: String = [
        "reference",
        "noDisplay",
        "noDigitGrouping",
        "displayAsReal",
        "displayAsHex",
        "reference",
    ]
    .iter()
    .map(|a| format!("<counterAttribute name=\"{a}\"/>"))
    .collect();
    let m = manifest(
        SET,
        &COUNTER.replace(
            "/>",
            &format!("><counterAttributes>{attrs}</counterAttributes></counter>"),
        ),
    );
    let r = text(&m);
    assert!(codes(&r).contains(&"invalid-value"), "{:?}", codes(&r));
    assert!(codes(&r).contains(&"duplicate-attribute"));
}

#[test]
fn not_xml_and_other_schemas() {
    let r = validate_registration(Input::Text("<counters><counterSet"), Some(Format::Manifest));
    assert_eq!(codes(&r), vec!["parse-error"]);
    assert_eq!(r.diagnostics[0].line, Some(1));
    let r = text("<html><body><p>hello</p></body></html>");
    assert_eq!(codes(&r), vec!["not-a-manifest"]);
    assert!(r.diagnostics[0].message.contains("<html>"));
    // The right element names in the wrong namespace are not counters either.
    let r = text("<counters><provider><counterSet/></provider></counters>");
    assert_eq!(codes(&r), vec!["not-a-manifest"]);
    // A DTD (the door to entity expansion) is refused, not expanded.
    let r = text("<!DOCTYPE x [<!ENTITY a \"aaaa\">]><x>&a;</x>");
    assert_eq!(codes(&r), vec!["parse-error"]);
    let r = text(&format!("{HEAD}{TAIL}"));
    assert_eq!(codes(&r), vec!["no-counter-sets"]);
}

#[test]
fn json_errors_say_where() {
    let r = text("{\"counterSetGuid\": \"ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab\",\n  \"instanceType\": 0,\n  \"detailLevel\": 100,\n  \"counters\": [ {\"counterId\": 1 \"type\": 65536} ]}");
    assert_eq!(codes(&r), vec!["parse-error"]);
    // Line 4 is `  "counters": [ {"counterId": 1 "type": 65536} ]}`: the comma is missing after the 1
    // (column 31); the parser reports the column just after it.
    assert_eq!(
        (r.diagnostics[0].line, r.diagnostics[0].column),
        (Some(4), Some(32))
    );

    let r = text(
        r#"{"counterSetGuid": "ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab", "instanceType": "two", "detailLevel": 100,
                    "counters": [{"counterId": -1, "type": "PERF_NOPE", "detailLevel": 100, "bogus": 1}, 5]}"#,
    );
    let mut got = codes(&r);
    got.sort_unstable();
    // instanceType "two", counterId -1, type PERF_NOPE (said once, not again by the type rule), the
    // bogus key, the 5 that is not a counter.
    assert_eq!(
        got,
        vec![
            "invalid-value",
            "invalid-value",
            "invalid-value",
            "invalid-value",
            "unknown-field"
        ]
    );
    assert!(r.diagnostics.iter().all(|d| d.line.is_some()));
    let r = text(r#"{"counters": []}"#);
    let mut got = codes(&r);
    got.sort_unstable();
    // No GUID, instanceType, detailLevel: each missing once (an absent GUID is not an all-zero one).
    assert_eq!(
        got,
        vec![
            "missing-field",
            "missing-field",
            "missing-field",
            "no-counters"
        ]
    );
    assert_eq!(
        codes(&text("[1, 2]")),
        vec!["invalid-value", "invalid-value"]
    );
    assert_eq!(codes(&text("{")), vec!["parse-error"]);
    let deep = "[".repeat(100_000);
    assert_eq!(codes(&text(&deep)), vec!["nesting-too-deep"]);
}

#[test]
fn pascal_case_keys_references_as_null_and_guid_braces() {
    let r = text(
        r#"{"CounterSetGuid": "{AB8E2B2B-1E5A-4C2A-9D1F-0123456789AB}", "InstanceType": 0, "DetailLevel": 100,
        "Counters": [{"CounterId": 1, "Type": "NumberOfItems32", "DetailLevel": 100, "BaseCounterId": null, "MultiId": 4294967295}]}"#,
    );
    assert_eq!(codes(&r), Vec::<&str>::new(), "{:#?}", r.diagnostics);
    assert_eq!(
        r.counter_sets[0].guid,
        "ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab"
    );
}

fn one_set(n: usize) -> CounterSet {
    CounterSet {
        guid: Guid::parse("ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab"),
        detail_level: 100,
        counters: (0..n as u32)
            .map(|i| Counter {
                counter_id: i,
                ty: 0x10000,
                detail_level: 100,
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

#[test]
fn truncated_and_oversized_binary_blocks() {
    let bytes = encode_binary(&[one_set(3)]); // 32 + 3 * 48 = 176 bytes
    assert_eq!(bytes.len(), 176);
    // Cut inside the header.
    let r = validate_registration(Input::Bytes(&bytes[..20]), None);
    assert_eq!(codes(&r), vec!["parse-error"]);
    assert!(
        r.diagnostics[0].message.contains("20 bytes at byte 0"),
        "{}",
        r.diagnostics[0].message
    );
    // Cut inside the second counter: NumCounters 3 needs 144 bytes after byte 32, 100 follow.
    let r = validate_registration(Input::Bytes(&bytes[..132]), None);
    assert_eq!(codes(&r), vec!["parse-error"]);
    assert_eq!(r.diagnostics[0].offset, 24);
    assert_eq!(r.diagnostics[0].field, Some("NumCounters"));
    assert!(
        r.diagnostics[0].message.contains("needs 144 bytes")
            && r.diagnostics[0].message.contains("only 100 follow"),
        "{}",
        r.diagnostics[0].message
    );
    assert_eq!(
        r.counter_sets[0].counters, 2,
        "the complete counters are still read"
    );
    // NumCounters of 4 billion on 176 bytes: no allocation beyond what the bytes hold.
    let mut huge = bytes.clone();
    huge[24..28].copy_from_slice(&u32::MAX.to_le_bytes());
    let r = validate_registration(Input::Bytes(&huge), None);
    assert_eq!(codes(&r), vec!["parse-error"]);
    // Trailing bytes after a complete set.
    let mut trailing = bytes.clone();
    trailing.extend_from_slice(&[1, 2, 3]);
    let r = validate_registration(Input::Bytes(&trailing), None);
    assert_eq!(codes(&r), vec!["parse-error"]);
    assert_eq!(r.diagnostics[0].offset, 176);
    assert_eq!(
        codes(&validate_registration(Input::Bytes(&[]), None)),
        vec!["parse-error"]
    );
    // Text that is not UTF-8 cannot be read as a manifest.
    assert_eq!(
        codes(&validate_registration(
            Input::Bytes(&[0xff, 0xfe, 0x3c]),
            Some(Format::Manifest)
        )),
        vec!["parse-error"]
    );
}

#[test]
fn a_million_counters_in_binary_is_one_error_in_bounded_time() {
    let bytes = encode_binary(&[one_set(1_000_000)]); // 48 MB
    let t = std::time::Instant::now();
    let r = validate_registration(Input::Bytes(&bytes), None);
    assert_eq!(codes(&r), vec!["too-many-counters"]);
    // Not a timing assertion of performance, a guard against a quadratic rule: seconds, not minutes.
    assert!(t.elapsed().as_secs() < 30);
}

#[test]
fn many_counters_as_json_and_manifest() {
    // 70,000 counters in JSON text (about 4 MB): read, and one error for the count.
    let counters: Vec<String> = (0..70_000)
        .map(|i| format!("{{\"counterId\":{i},\"type\":65536,\"detailLevel\":100}}"))
        .collect();
    let json = format!("{{\"counterSetGuid\":\"ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab\",\"instanceType\":0,\"detailLevel\":100,\"counters\":[{}]}}", counters.join(","));
    assert_eq!(codes(&text(&json)), vec!["too-many-counters"]);
    // A million counter objects (about 40 MB) are refused before the tree is built.
    let million = format!(
        "{{\"counterSetGuid\":\"ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab\",\"instanceType\":0,\"detailLevel\":100,\"counters\":[{}]}}",
        vec!["{\"counterId\":1,\"type\":65536}"; 1_000_000].join(",")
    );
    assert_eq!(codes(&text(&million)), vec!["input-too-large"]);
    let counters: String = (0..70_000)
        .map(|i| COUNTER.replace(r#"id="1""#, &format!("id=\"{i}\"")))
        .collect();
    let r = text(&manifest(SET, &counters));
    assert_eq!(codes(&r), vec!["too-many-counters"]);
}

#[test]
fn more_sets_or_xml_nodes_than_the_limits_are_clear_errors() {
    // 1,025 one-counter sets in one buffer: reading stops at the 1,025th with one error.
    let sets: Vec<CounterSet> = (0..1025).map(|_| one_set(1)).collect();
    let r = validate_registration(Input::Bytes(&encode_binary(&sets)), None);
    assert!(codes(&r).contains(&"input-too-large"), "{:?}", codes(&r));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.message.contains("more than 1024 counter sets")));
    // A manifest of more than 4 million XML nodes is refused by the parser's node limit, not built.
    let body = "<x/>".repeat(4_000_001);
    let r = text(&format!(
        "<instrumentationManifest>{body}</instrumentationManifest>"
    ));
    assert_eq!(codes(&r), vec!["parse-error"]);
    assert!(
        r.diagnostics[0].message.contains("not well-formed XML")
            && r.diagnostics[0].message.to_lowercase().contains("nodes"),
        "{}",
        r.diagnostics[0].message
    );
}

#[test]
fn a_counter_without_a_valid_id_has_no_counter_id_and_is_named() {
    // Counter 0 is real and valid; the second counter has id="abc", the third no id and no name.
    let zero = COUNTER
        .replace(r#"id="1""#, r#"id="0" name="Zero""#)
        .replace("U.1", "U.0");
    let abc = COUNTER
        .replace(r#"id="1""#, r#"id="abc" name="Bytes/sec""#)
        .replace("U.1", "U.2");
    let none = COUNTER
        .replace(r#"id="1" "#, "")
        .replace("U.1", "U.3")
        .replace("perf_counter_rawcount", "perf_counter_large_rawcount");
    let r = text(&manifest(SET, &format!("{zero}\n{abc}\n{none}")));
    let d: Vec<_> = r
        .diagnostics
        .iter()
        .map(|d| (d.code.as_str(), d.field, d.counter_id, d.line))
        .collect();
    assert_eq!(
        d,
        vec![
            ("invalid-value", Some("CounterId"), None, Some(6)),
            ("missing-attribute", Some("CounterId"), None, Some(7)),
        ],
        "{:#?}",
        r.diagnostics
    );
    assert_eq!(
        r.diagnostics[0].message,
        "counter \"Bytes/sec\" (the 2nd in its set, with no valid id): id=\"abc\" is not valid: expected a counter id: a decimal or 0x hex integer below 2^32"
    );
    assert!(r.diagnostics[1].message.starts_with(
        "the 3rd counter of its set (no name, no valid id): <counter> needs the attribute id"
    ));
    // Neither is taken for counter 0: no duplicate-counter-id with the real counter 0, and the summary
    // gives them no id either.
    let list = &r.counter_sets[0].counter_list;
    assert_eq!(
        list.iter().map(|c| c.counter_id).collect::<Vec<_>>(),
        [Some(0), None, None]
    );
    // A rule about an id-less counter (a NODATA type here) is named the same way, without an id.
    let bad_type = none.replace("perf_counter_large_rawcount", "perf_counter_nodata");
    let r = text(&manifest(SET, &format!("{zero}\n{bad_type}")));
    let rule = r
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "counter-type-invalid")
        .expect("the type rule");
    assert_eq!(rule.counter_id, None);
    assert!(
        rule.message
            .starts_with("the 2nd counter of its set (no name, no valid id): Type:"),
        "{}",
        rule.message
    );
}

#[test]
fn a_json_counter_without_a_valid_id_has_no_counter_id() {
    let json = r#"{"counterSets":[{"counterSetGuid":"ab8e2b2b-1e5a-4c2a-9d1f-0123456789ab","instanceType":0,"detailLevel":100,
      "counters":[{"counterId":0,"type":"PERF_COUNTER_RAWCOUNT","detailLevel":100,"name":"Zero"},
                  {"counterId":"abc","type":"PERF_COUNTER_RAWCOUNT","detailLevel":100,"name":"Named"},
                  {"type":"PERF_COUNTER_RAWCOUNT","detailLevel":100}]}]}"#;
    let r = text(json);
    let ids: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.field == Some("CounterId"))
        .map(|d| (d.counter_id, d.message.split(':').next().unwrap_or("")))
        .collect();
    assert_eq!(
        ids,
        [
            (
                None,
                "counter \"Named\" (the 2nd in its set, with no valid id)"
            ),
            (None, "the 3rd counter of its set (no name, no valid id)")
        ],
        "{:#?}",
        r.diagnostics
    );
    assert!(!r
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "duplicate-counter-id"));
}
