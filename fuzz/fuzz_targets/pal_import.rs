//! PAL threshold XML: imported, then the pack run over a small capture. Every THRESHOLD is either
//! translated or listed with its reason (translated + untranslated == total), and the pack it makes
//! reads back from its own JSON and analyses without panicking.
#![no_main]
use counterlens::analysis::pal::import_pal;
use counterlens::analysis::{analyze, AnalyzeOptions, PackRef, RulePack};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let Ok(imp) = import_pal(&[("Fuzz.xml".into(), text)]) else { return };
    assert_eq!(imp.translated + imp.untranslated.len(), imp.total);
    let pack = RulePack::from_json(&imp.pack.to_json()).expect("the imported pack reads back");
    assert_eq!(pack, imp.pack);
    let cap = counterlens_fuzz_capture();
    let _ = analyze(&cap, &AnalyzeOptions { packs: Some(vec![PackRef::Pack(pack)]), ..Default::default() });
});

/// Two machines' processor, memory, disk and SQL Server counters over 20 samples.
fn counterlens_fuzz_capture() -> counterlens::capture::Capture {
    let paths = [
        "\\\\A\\Processor(_Total)\\% Processor Time",
        "\\\\A\\Processor(0)\\% Processor Time",
        "\\\\A\\Memory\\Available MBytes",
        "\\\\A\\LogicalDisk(C:)\\Avg. Disk sec/Read",
        "\\\\A\\LogicalDisk(C:)\\Avg. Disk Queue Length",
        "\\\\A\\MSSQL$X:SQL Statistics\\Batch Requests/sec",
        "\\\\A\\MSSQL$X:SQL Statistics\\SQL Compilations/sec",
        "\\\\B\\SQLServer:Memory Manager\\Target Server Memory (KB)",
        "\\\\B\\SQLServer:Memory Manager\\Total Server Memory (KB)",
    ];
    counterlens::capture::Capture {
        format: None,
        encoding: None,
        time_zone: None,
        timestamps: (0..20).map(|i| i as f64 * 600_000.0).collect(),
        series: paths
            .iter()
            .enumerate()
            .map(|(k, p)| {
                counterlens::capture::Series::new(
                    p.to_string(),
                    (0..20).map(|i| if i == 7 { f64::NAN } else { ((i * 37 + k * 11) % 101) as f64 }).collect(),
                )
            })
            .collect(),
        notes: Vec::new(),
    }
}
