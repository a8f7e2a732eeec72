//! Logs written in another display language are analysed as their English twins: a Russian Data
//! Collector Set (tests/vectors/captures/ru-cpu-busy.csv, made for this test; and, where
//! ../shared/data/real/ is present, the real Russian log waflia_DataCollector01.csv, read in place)
//! gets the English path of every series the map knows, the same findings as the same log written in
//! English, and the report names each series as written with its English beside.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::analysis::{analysis_report, analyze, AnalyzeOptions};
use counterlens::capture::{english_path, open_capture, Capture, OpenOptions};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/vectors/captures/");
const REAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/data/real/");

fn open(bytes: &[u8]) -> Capture {
    open_capture(bytes, &OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

/// The Russian names of the vector and the real log, with the English ones Windows writes.
const RU_EN: [(&str, &str); 12] = [
    ("Процессор(", "Processor("),
    ("% загруженности процессора", "% Processor Time"),
    ("Память\\", "Memory\\"),
    ("Доступно МБ", "Available MBytes"),
    ("Система\\", "System\\"),
    ("Длина очереди процессора", "Processor Queue Length"),
    ("Процесс(", "Process("),
    ("Файл подкачки(", "Paging File("),
    ("% использования", "% Usage"),
    ("Рабочий набор", "Working Set"),
    ("I/O - чтение байт в сек", "IO Read Bytes/sec"),
    ("I/O - запись байт в сек", "IO Write Bytes/sec"),
];

fn to_english(text: &str) -> String {
    RU_EN
        .iter()
        .fold(text.to_string(), |t, (ru, en)| t.replace(ru, en))
}

/// Each finding as (pack, rule, severity, start, end, worst), the series by its English path.
fn findings(c: &Capture) -> Vec<(String, String, String, i64, i64, String)> {
    let a = analyze(c, &AnalyzeOptions::default()).unwrap();
    a.findings
        .iter()
        .map(|f| {
            let s = &c.series[f.series_index];
            let path = english_path(&s.parsed).unwrap_or_else(|| s.path.clone());
            (
                f.pack.clone(),
                f.rule.clone(),
                format!("{:?} {path}", f.severity),
                f.start as i64,
                f.end as i64,
                format!("{:.3}", f.worst),
            )
        })
        .collect()
}

#[test]
fn a_russian_log_is_analysed_as_its_english_twin() {
    let bytes = std::fs::read(format!("{VECTORS}ru-cpu-busy.csv")).unwrap();
    let ru = open(&bytes);
    assert_eq!(ru.encoding_name(), "windows-1251");
    // Every series has its English path: machine and instance as written.
    let english: Vec<String> = ru
        .series
        .iter()
        .map(|s| english_path(&s.parsed).unwrap_or_else(|| panic!("{}", s.path)))
        .collect();
    assert_eq!(
        english,
        [
            "\\\\СЕРВЕР-1\\Processor(_Total)\\% Processor Time",
            "\\\\СЕРВЕР-1\\Memory\\Available MBytes",
            "\\\\СЕРВЕР-1\\System\\Processor Queue Length",
            "\\\\СЕРВЕР-1\\Process(sqlservr)\\% Processor Time",
            "\\\\СЕРВЕР-1\\Paging File(_Total)\\% Usage",
        ]
    );
    // The same log written in English (the names replaced, the values as they are).
    let text: String = ru
        .series
        .iter()
        .map(|s| s.path.as_str())
        .collect::<Vec<_>>()
        .join("|");
    assert!(text.contains("Процессор"), "{text}");
    let en_text = to_english(&encoding_rs::WINDOWS_1251.decode(&bytes).0);
    let en = open(en_text.as_bytes());
    let (got, want) = (findings(&ru), findings(&en));
    assert_eq!(got, want);
    // CPU at 97.5% from 10:10 to 10:35 local (UTC+3): the built-in rules find it, on the _Total series.
    // 10:10 local = 07:10 UTC on 2026-04-15 = day 20558 * 86 400 000 + 7 h 10 min
    //   = 1 776 211 200 000 + 25 800 000 = 1 776 237 000 000.
    let cpu: Vec<_> = got
        .iter()
        .filter(|f| f.2.ends_with("Processor(_Total)\\% Processor Time"))
        .collect();
    assert!(!cpu.is_empty(), "{got:?}");
    assert!(
        cpu.iter()
            .all(|f| f.3 >= 1_776_237_000_000 && f.4 <= 1_776_237_000_000 + 26 * 60_000),
        "{cpu:?}"
    );
    assert!(cpu.iter().all(|f| f.5 == "97.500"), "{cpu:?}");
    // The report names the series as written, its English beside.
    let a = analyze(&ru, &AnalyzeOptions::default()).unwrap();
    let html = analysis_report(&ru, &a, None);
    let named = "\\\\СЕРВЕР-1\\Процессор(_Total)\\% загруженности процессора — \\\\СЕРВЕР-1\\Processor(_Total)\\% Processor Time";
    assert!(html.contains(named), "{named}");
}

#[test]
fn the_real_russian_log_has_english_paths_and_reads_as_its_english_twin() {
    let path = format!("{REAL}waflia_DataCollector01.csv");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {path} is absent (the real logs are read from ../shared/data/real/ in place, never copied)");
        return;
    };
    let ru = open(&bytes);
    // 276 processes x 4 counters (% Processor Time, IO Write and Read Bytes/sec, Working Set) = 1104.
    assert_eq!(ru.series.len(), 1104);
    let english: Vec<String> = ru
        .series
        .iter()
        .map(|s| english_path(&s.parsed).unwrap_or_else(|| panic!("no English for {}", s.path)))
        .collect();
    assert_eq!(
        english[0],
        "\\\\DESKTOP-LRPVSK4\\Process(Idle)\\% Processor Time"
    );
    for counter in [
        "% Processor Time",
        "IO Read Bytes/sec",
        "IO Write Bytes/sec",
        "Working Set",
    ] {
        assert_eq!(
            english
                .iter()
                .filter(|p| p.ends_with(&format!("\\{counter}")))
                .count(),
            276,
            "{counter}"
        );
    }
    // The analysis of the Russian log is the English twin's: the same packs and rules run and skip.
    let en = open(to_english(&encoding_rs::WINDOWS_1251.decode(&bytes).0).as_bytes());
    let runs = |c: &Capture| {
        let a = analyze(c, &AnalyzeOptions::default()).unwrap();
        (
            a.packs.iter().map(|p| p.id.clone()).collect::<Vec<_>>(),
            a.rules
                .iter()
                .map(|r| (r.rule.clone(), r.skipped.is_some()))
                .collect::<Vec<_>>(),
            findings(c),
        )
    };
    assert_eq!(runs(&ru), runs(&en));
}
