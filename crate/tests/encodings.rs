//! Text captures in the encodings Windows writes them in, detected from the text around the first
//! non-ASCII byte however far into the file it is: a Data Collector Set's CSV whose header holds 753
//! ASCII counter paths (about 67,600 columns) and then the set's description in the machine's code page
//! (Japanese in Shift_JIS, Chinese in GBK and Big5, Korean in EUC-KR, Russian in windows-1251). Read whole
//! and streamed in chunks of any size, each must give the same capture, in the right encoding, with the
//! description quoted intact in the `dropped-column` note.

#![cfg(not(target_arch = "wasm32"))]

use counterlens::capture::{open_capture, Capture, CaptureReader, OpenOptions};
use proptest::prelude::*;

/// Windows' "System Performance" description, as a Data Collector Set of each language writes it.
const DESCRIPTIONS: [(&str, &str); 5] = [
    ("Shift_JIS", "ローカル ハードウェア リソース、システム応答時間、およびローカル コンピューター上のプロセスの状態に関するレポートを生成します。"),
    ("GBK", "生成有关本地硬件资源状态、系统响应时间和本地计算机上进程的报告。"),
    ("Big5", "產生關於本機硬體資源狀態、系統回應時間以及本機電腦上處理程序的報告。"),
    ("EUC-KR", "로컬 하드웨어 리소스의 상태, 시스템 응답 시간 및 로컬 컴퓨터의 프로세스에 대한 보고서를 생성합니다."),
    ("windows-1251", "Создание отчета о состоянии локальных аппаратных ресурсов, времени отклика системы и процессов на локальном компьютере."),
];

const PATHS: usize = 753;

/// The header's 753 ASCII paths of 87 characters: with quotes and commas 17 + 753 x 90 + 2 bytes before
/// the description, which starts at column 67,790 (the Japanese file the issue describes: 67,619).
fn path(k: usize) -> String {
    format!("\\\\JP-SQL-NODE01\\Process(sqlservr#{k:03})\\IO Other Operations/sec of SQL Server's DB engine")
}

/// The CSV as Windows writes it: the zone cell `(PDH-CSV 4.0) (` cut short (no bias: a
/// `no-time-zone` note), the paths, the description; three rows with `" "` under the description.
fn csv(description: &str) -> String {
    csv_rows(description, 3)
}

fn csv_rows(description: &str, rows: usize) -> String {
    let mut s = String::from("\"(PDH-CSV 4.0) (\"");
    for k in 0..PATHS {
        s.push_str(&format!(",\"{}\"", path(k)));
    }
    s.push_str(&format!(",\"{description}\"\r\n"));
    for row in 0..rows {
        s.push_str(&format!(
            "\"11/26/2026 09:{:02}:{:02}.000\"",
            row / 4,
            row % 4 * 15
        ));
        for k in 0..PATHS {
            s.push_str(&format!(",\"{}\"", (row * 1000 + k) as f64 / 4.0));
        }
        s.push_str(",\" \"\r\n");
    }
    s
}

fn encode(name: &str, text: &str) -> Vec<u8> {
    let enc = encoding_rs::Encoding::for_label(name.as_bytes()).unwrap();
    let (bytes, _, bad) = enc.encode(text);
    assert!(!bad, "{name} encodes the text");
    bytes.into_owned()
}

fn streamed(bytes: &[u8], cuts: &[usize]) -> Capture {
    let mut r = CaptureReader::new(&OpenOptions::default()).unwrap();
    let mut at = 0;
    for &c in cuts.iter().chain([&bytes.len()]) {
        let c = c.clamp(at, bytes.len());
        r.push(&bytes[at..c]).unwrap_or_else(|e| panic!("{e}"));
        at = c;
    }
    r.finish().unwrap_or_else(|e| panic!("{e}"))
}

/// What must hold of the capture of `csv(description)` in `name`.
fn check(c: &Capture, name: &str, description: &str) {
    assert_eq!(c.encoding_name(), name);
    assert_eq!((c.series.len(), c.timestamps.len()), (PATHS, 3));
    assert_eq!(c.series[752].path, path(752));
    // Row 2, path 752: (2000 + 752) / 4 = 688.
    assert_eq!(c.series[752].values[2], 688.0);
    let note = c
        .notes
        .iter()
        .find(|n| n.code == "dropped-column")
        .expect("the description is left out with a note");
    let quoted: String = description.chars().take(80).collect();
    assert!(
        note.message.contains(&quoted),
        "{name}: {} does not quote {quoted}",
        note.message
    );
    assert!(c.notes.iter().any(|n| n.code == "no-time-zone"));
}

#[test]
fn a_description_far_out_in_the_header_decides_the_encoding() {
    for (name, description) in DESCRIPTIONS {
        let text = csv(description);
        let first = text.find(description).unwrap();
        // The first non-ASCII byte is past the first 64 KiB that used to decide alone.
        assert!(first > 67_000 && first < 68_000, "{first}");
        let bytes = encode(name, &text);
        check(&open(&bytes), name, description);
        // Pushed in chunks of sizes that cut the header, the description and its characters anywhere.
        for size in [1usize, 2, 3, 5, 64, 4095, 65_536, 67_619, 100_000] {
            let cuts: Vec<usize> = (1..=bytes.len() / size).map(|k| k * size).collect();
            check(&streamed(&bytes, &cuts), name, description);
        }
    }
}

fn open(bytes: &[u8]) -> Capture {
    open_capture(bytes, &OpenOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn japanese_is_shift_jis_not_gbk_wherever_the_window_cuts_it() {
    // Every Shift_JIS double-byte pair is also a valid GBK one: only the letters tell them apart (kana in
    // Shift_JIS, rare Han characters in GBK). From the description's start, with the window cut after
    // each number of its characters, Shift_JIS wins once the text holds a few kana.
    let (_, description) = DESCRIPTIONS[0];
    for n in 4..=description.chars().count() {
        let part: String = description.chars().take(n).collect();
        let bytes = encode("Shift_JIS", &format!("\"(PDH-CSV 4.0) (\",\"\\\\PC\\Memory\\Available Bytes\",\"{part}\"\r\n\"11/26/2026 09:00:00.000\",\"1\",\" \"\r\n"));
        let c = open(&bytes);
        assert_eq!(c.encoding_name(), "Shift_JIS", "{part}");
    }
}

#[test]
fn ascii_for_64_kib_then_utf8_is_utf8_and_bad_bytes_name_their_place() {
    // UTF-8 after 67,000 ASCII columns: read as UTF-8, not refused.
    let text = csv("Générer un rapport détaillant l'état des ressources matérielles locales");
    let c = open(text.as_bytes());
    assert_eq!(c.encoding_name(), "UTF-8");
    // A file whose text near its first non-ASCII byte is UTF-8 and that later (past the 64 KiB that
    // decided) holds a byte UTF-8 does not have is refused at that byte's line and column.
    let text = csv_rows(
        "Générer un rapport détaillant l'état des ressources matérielles locales",
        40,
    );
    let mut bytes = text.into_bytes();
    let last_row = bytes.len() - 10;
    bytes[last_row] = 0xFF;
    let e = open_capture(&bytes, &OpenOptions::default()).unwrap_err();
    assert_eq!(e.code(), "bad-encoding");
    assert_eq!(e.line, Some(41), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Cut anywhere (up to six cuts, often near the description), each file reads as when whole.
    #[test]
    fn chunk_boundaries_anywhere_read_as_whole(
        which in 0usize..5,
        cuts in prop::collection::vec(0.0f64..1.0, 0..6),
        near in prop::collection::vec(0usize..400, 0..4),
    ) {
        let (name, description) = DESCRIPTIONS[which];
        let text = csv(description);
        let first = text.find(description).unwrap();
        let bytes = encode(name, &text);
        let mut at: Vec<usize> = cuts.iter().map(|f| (f * bytes.len() as f64) as usize).collect();
        at.extend(near.iter().map(|d| first - 200 + d));
        at.sort_unstable();
        let c = streamed(&bytes, &at);
        check(&c, name, description);
    }
}
