//! The built-in rule packs, as JSON compiled into the library.
//!
//! The pack files under `crate/data/packs/` (docs/rule-packs.md lists them and their rules) are joined
//! and deflated by `crate/build.rs` and inflated here on first use: 84 KB of JSON take about 10 KB of the
//! wasm module. Every entry must read with [`super::pack::RulePack::from_json`] (a test checks it), and
//! tests/node/rule-packs.test.mjs validates the same files against `js/rule-pack.schema.json`.

/// The `source` of every built-in pack.
pub const SOURCE: &str = "counterlens built-in";

/// The pack files joined by NUL, raw DEFLATE (RFC 1951), written by `crate/build.rs`.
static PACKED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/packs.deflate"));

/// The JSON text of every built-in pack, in the order `rulePacks()` lists them. Damaged data gives no
/// packs (and fails the tests below), never a panic.
pub fn builtin_json() -> Vec<String> {
    miniz_oxide::inflate::decompress_to_vec_with_limit(PACKED, 4 << 20)
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
        .map(|all| all.split('\0').map(str::to_owned).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::super::pack::{RuleKind, RulePack, Severity, Threshold};
    use super::builtin_json;

    /// What `crate/build.rs` packs: the files themselves, in order.
    #[test]
    fn the_packed_data_inflates_to_the_pack_files() {
        let files = [
            include_str!("../../data/packs/system-overview.json"),
            include_str!("../../data/packs/sql-server.json"),
            include_str!("../../data/packs/iis-aspnet.json"),
            include_str!("../../data/packs/dotnet-clr.json"),
            include_str!("../../data/packs/hyper-v.json"),
        ];
        assert_eq!(builtin_json(), files);
    }

    /// A pack file added to `crate/data/packs/` but not to `crate/build.rs`'s list fails here.
    #[test]
    fn every_pack_file_is_packed() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/packs");
        let files = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "json"))
            })
            .count();
        assert_eq!(files, builtin_json().len());
    }

    fn packs() -> Vec<RulePack> {
        builtin_json()
            .iter()
            .map(|t| RulePack::from_json(t).unwrap_or_else(|e| panic!("{e}")))
            .collect()
    }

    #[test]
    fn the_five_packs_in_order_with_their_rule_counts() {
        let got: Vec<(String, usize)> = packs()
            .iter()
            .map(|p| (p.id.clone(), p.rules.len()))
            .collect();
        // The counts docs/rule-packs.md states.
        let want = [
            ("system-overview", 48),
            ("sql-server", 10),
            ("iis-aspnet", 10),
            ("dotnet-clr", 7),
            ("hyper-v", 10),
        ];
        let want: Vec<(String, usize)> = want.iter().map(|(i, n)| (i.to_string(), *n)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn every_rule_is_written_for_a_user() {
        for p in packs() {
            assert_eq!(p.source, "counterlens built-in", "{}", p.id);
            for r in &p.rules {
                assert!(!r.category.is_empty(), "{}/{}", p.id, r.id);
                assert!(r.description.len() >= 80, "{}/{}", p.id, r.id);
                assert!(!r.references.is_empty(), "{}/{}", p.id, r.id);
                assert!(r.counter.starts_with('\\'), "{}/{}", p.id, r.id);
                if r.kind == RuleKind::Trend {
                    assert!(r.stats.is_none(), "{}/{}", p.id, r.id);
                }
            }
        }
    }

    /// Cards and the printed report show the packs' texts as plain text: Markdown or HTML written in them
    /// would show as-is (a backtick around `for`, `**bold**`, `[title](url)`, `<b>`).
    #[test]
    fn texts_are_plain_prose_without_markup() {
        for (file, json) in builtin_json().iter().enumerate() {
            let value: serde_json::Value = serde_json::from_str(json).unwrap();
            let mut texts = Vec::new();
            fn strings<'a>(v: &'a serde_json::Value, out: &mut Vec<&'a str>) {
                match v {
                    serde_json::Value::String(s) => out.push(s),
                    serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
                    serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
                    _ => {}
                }
            }
            strings(&value, &mut texts);
            assert!(texts.len() > 50, "pack {file}");
            for t in texts {
                for artefact in ["`", "**", "](", "<", "&nbsp;", "&amp;"] {
                    assert!(!t.contains(artefact), "pack {file}: {artefact:?} in {t:?}");
                }
                assert!(!t.trim_start().starts_with('#'), "pack {file}: {t:?}");
            }
        }
    }

    #[test]
    fn the_field_thresholds_the_issue_names() {
        let packs = packs();
        let so = packs.iter().find(|p| p.id == "system-overview").unwrap();
        let rule = |id: &str| so.rules.iter().find(|r| r.id == id).unwrap();
        // Disk latency in seconds (the counter's unit): 15 ms warning, 25 ms critical (PAL).
        assert_eq!(
            rule("disk-read-latency-warning").threshold,
            Threshold::Number(0.015)
        );
        assert_eq!(
            rule("disk-write-latency-critical").threshold,
            Threshold::Number(0.025)
        );
        assert_eq!(
            rule("disk-write-latency-critical").severity,
            Severity::Critical
        );
        assert_eq!(
            rule("processor-time-warning").threshold,
            Threshold::Number(80.0)
        );
        assert_eq!(
            rule("processor-time-critical").threshold,
            Threshold::Number(95.0)
        );
        // Episodes: 95% for most of 5 minutes, 80% for most of 15, 80% for 3/4 of two hours on _Total
        // (critical by how long, for three quarters of the window), saturated a tenth of every two hours (bursts); disk latency on
        // PhysicalDisk too.
        let window = |id: &str| rule(id).episode.as_ref().map(|e| (e.window, e.share));
        assert_eq!(window("processor-time-critical"), Some((300.0, None)));
        assert_eq!(window("processor-time-warning"), Some((900.0, None)));
        assert_eq!(
            window("processor-time-long-critical"),
            Some((7200.0, Some(0.75)))
        );
        assert_eq!(
            window("processor-bursts-warning"),
            Some((7200.0, Some(0.1)))
        );
        assert_eq!(rule("processor-time-critical").stats, None);
        let phys = rule("physical-disk-read-latency-critical");
        assert_eq!(phys.counter, "\\PhysicalDisk(*)\\Avg. Disk sec/Read");
        assert_eq!(
            (
                phys.threshold.clone(),
                phys.episode.as_ref().map(|e| e.window)
            ),
            (Threshold::Number(0.025), Some(300.0))
        );
        // Every static rule of every built-in pack judges episodes: no slice of a few seconds decides
        // a built-in verdict (trend rules read slopes per hour, over an hour at least).
        for p in &packs {
            for r in &p.rules {
                assert_eq!(
                    r.episode.is_some(),
                    r.kind == RuleKind::Static,
                    "{}/{}",
                    p.id,
                    r.id
                );
                assert!(r.for_seconds.is_none() && r.min_duration_percent.is_none());
            }
        }
        // The paging file (its _Total too), 70% and 90% as PAL.
        let pf = rule("paging-file-usage-critical");
        assert_eq!(
            (
                pf.counter.as_str(),
                pf.threshold.clone(),
                pf.instances.is_none()
            ),
            ("\\Paging File(*)\\% Usage", Threshold::Number(90.0), true)
        );
        for id in [
            "available-memory-critical",
            "committed-memory-critical",
            "processor-queue-critical",
            "disk-read-latency-critical",
            "disk-write-latency-critical",
            "disk-queue-critical",
            "physical-disk-write-latency-critical",
            "physical-disk-queue-critical",
        ] {
            assert_eq!(
                rule(id).episode.as_ref().map(|e| e.window),
                Some(300.0),
                "{id}"
            );
        }
        // Per logical processor, derived from the capture.
        assert_eq!(
            rule("processor-queue-warning").threshold,
            Threshold::Expression("logicalProcessors * 10".into())
        );
        // PAL: less than 5% of RAM but never below 64 MB.
        let crit = rule("available-memory-critical");
        assert_eq!(
            crit.threshold,
            Threshold::Expression("PhysicalMemoryGB * 1024 * 0.05".into())
        );
        assert_eq!(crit.threshold_min, Some(64.0));
        // Leak trends per process.
        for c in [
            "\\Process(*)\\Handle Count",
            "\\Process(*)\\Thread Count",
            "\\Process(*)\\Private Bytes",
        ] {
            assert!(
                so.rules
                    .iter()
                    .any(|r| r.counter == c && r.kind == RuleKind::Trend),
                "{c}"
            );
        }
    }
}
