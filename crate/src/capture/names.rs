//! English names for localized counter paths: `\Procesador(_Total)\% de tiempo de procesador` is
//! `\Processor(_Total)\% Processor Time`.
//!
//! Windows names objects and counters in the language of the machine that logged them, so the same
//! counter has a different path on a Spanish, German or Polish machine. Paths are kept as written; this map
//! gives the English path beside them, so search, analysis rules and comparisons can work across
//! languages. The data (`crate/data/counter-names.tsv`, made by `scripts/counter-names.mjs`) comes from
//! PAL's CounterLang.xml (MIT licence) and, for the Russian names PAL lacks, from
//! `scripts/counter-names-more.tsv` (made by hand, each name with its source); docs/counter-names.md has
//! the notice, the languages and the limits.

use super::CounterPath;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `crate/data/counter-names.tsv` deflated (raw DEFLATE, RFC 1951) by `scripts/pack-counter-names.mjs`:
/// 51 KB of the wasm module instead of 213 KB. A test below checks that it inflates to the .tsv.
static PACKED: &[u8] = include_bytes!("../../data/counter-names.tsv.deflate");

/// The map's text, inflated once. Damaged data gives an empty map (no English names), never a panic.
fn data() -> &'static str {
    static DATA: OnceLock<String> = OnceLock::new();
    DATA.get_or_init(|| {
        miniz_oxide::inflate::decompress_to_vec_with_limit(PACKED, 4 << 20)
            .ok()
            .and_then(|bytes| String::from_utf8(bytes).ok())
            .unwrap_or_default()
    })
}

/// Latin letters U+00C0..=U+017F folded to their lower-case base letter (`*`: kept as it is). PAL's data
/// lost some letters outside Latin-1 (Czech `casu` for `času`, Polish `Bledy` for `Błędy`, Turkish
/// `Islemci` for `İşlemci`), so names are compared with their diacritics folded away on both sides.
/// A table rather than Unicode normalization: these 192 letters are all the 16 languages need, and a
/// normalization crate would add its tables to the wasm module for them.
const FOLD: &[u8; 192] = b"aaaaaa*ceeeeiiii*nooooo*ouuuuy**aaaaaa*ceeeeiiii*nooooo*ouuuuy*y\
aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii**jjkk*lllllll\
lllnnnnnn***oooooo**rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzz*";

/// A name as it is compared: lower case, Latin diacritics folded, typographic apostrophes as `'`, runs of
/// spaces as one.
pub fn fold(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut space = false;
    for c in name.trim().chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if space {
            out.push(' ');
            space = false;
        }
        match c {
            '\u{C0}'..='\u{17F}' => match FOLD[c as usize - 0xC0] {
                b'*' => out.extend(c.to_lowercase()),
                b => out.push(char::from(b)),
            },
            '\u{2019}' | '\u{2018}' => out.push('\''),
            c => out.extend(c.to_lowercase()),
        }
    }
    out
}

struct Object {
    english: &'static str,
    /// Folded localized or English counter name -> English counter name.
    counters: HashMap<String, &'static str>,
}

struct Map {
    /// Folded localized or English object name -> index in `objects`.
    objects: HashMap<String, usize>,
    list: Vec<Object>,
}

fn map() -> &'static Map {
    static MAP: OnceLock<Map> = OnceLock::new();
    MAP.get_or_init(|| {
        let mut m = Map {
            objects: HashMap::new(),
            list: Vec::new(),
        };
        for line in data().lines().filter(|l| !l.starts_with('#')) {
            let mut fields = line.split('\t');
            let (Some(kind), Some(english)) = (fields.next(), fields.next()) else {
                continue;
            };
            match kind {
                "O" => {
                    let i = m.list.len();
                    m.list.push(Object {
                        english,
                        counters: HashMap::new(),
                    });
                    for name in std::iter::once(english).chain(fields) {
                        m.objects.entry(fold(name)).or_insert(i);
                    }
                }
                "C" => {
                    if let Some(o) = m.list.last_mut() {
                        for name in std::iter::once(english).chain(fields) {
                            o.counters.entry(fold(name)).or_insert(english);
                        }
                    }
                }
                _ => {}
            }
        }
        m
    })
}

/// The English object name for a localized (or English) one, when the map knows it.
pub fn english_object(object: &str) -> Option<&'static str> {
    let m = map();
    m.objects.get(&fold(object)).map(|&i| m.list[i].english)
}

/// The English object and counter names of a path, when the map knows both and at least one of them is
/// not already written in English; None otherwise (an English path, in any case as Get-Counter writes it
/// in lower case, or names the map does not hold).
pub fn english_names(p: &CounterPath) -> Option<(&'static str, &'static str)> {
    let m = map();
    let (object, counter) = (fold(&p.object), fold(&p.counter));
    let o = &m.list[*m.objects.get(&object)?];
    let english = *o.counters.get(&counter)?;
    (fold(o.english) != object || fold(english) != counter).then_some((o.english, english))
}

/// The English object and counter names whenever the map holds them, English paths included (in the
/// map's spelling, so Get-Counter's `processor` is `Processor`); each None where the map has no entry
/// (the counter is looked up within its object). Columns such as the CLI's `object_en` use it.
pub fn english_parts(p: &CounterPath) -> (Option<&'static str>, Option<&'static str>) {
    let m = map();
    let Some(&i) = m.objects.get(&fold(&p.object)) else {
        return (None, None);
    };
    let o = &m.list[i];
    (Some(o.english), o.counters.get(&fold(&p.counter)).copied())
}

/// The path in English (`\\machine\Object(parent/instance)\Counter`, machine and instance as written),
/// when `english_names` has the names.
pub fn english_path(p: &CounterPath) -> Option<String> {
    let (object, counter) = english_names(p)?;
    let machine = if p.machine.is_empty() {
        String::new()
    } else {
        format!("\\\\{}", p.machine)
    };
    let instance = match (&p.parent, &p.instance) {
        (Some(parent), Some(i)) => format!("({parent}/{i})"),
        (None, Some(i)) => format!("({i})"),
        _ => String::new(),
    };
    Some(format!("{machine}\\{object}{instance}\\{counter}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::path::parse;

    fn english(path: &str) -> Option<String> {
        english_path(&parse(path).unwrap())
    }

    #[test]
    fn the_embedded_data_is_the_tsv() {
        // Fails after scripts/counter-names.mjs until scripts/pack-counter-names.mjs has run.
        assert_eq!(data(), include_str!("../../data/counter-names.tsv"));
    }

    #[test]
    fn folding_removes_case_diacritics_and_extra_spaces() {
        assert_eq!(fold("  Błędy   stron/s "), "bledy stron/s");
        assert_eq!(fold("İşlemci"), "islemci");
        assert_eq!(fold("% času procesoru"), "% casu procesoru");
        assert_eq!(fold("Mémoire"), "memoire");
        assert_eq!(fold("Größe"), "große");
        assert_eq!(fold("Nombre d’octets"), "nombre d'octets");
    }

    #[test]
    fn localized_paths_have_english_ones() {
        assert_eq!(
            english("\\\\SRV\\Procesador(_Total)\\% de tiempo de procesador").as_deref(),
            Some("\\\\SRV\\Processor(_Total)\\% Processor Time")
        );
        assert_eq!(
            english("\\Prozessor(0)\\Prozessorzeit (%)").as_deref(),
            Some("\\Processor(0)\\% Processor Time")
        );
        // Windows writes the Czech and Polish letters PAL's data lost; both read the same.
        assert_eq!(
            english("\\\\H\\Procesor(_Total)\\% času procesoru").as_deref(),
            Some("\\\\H\\Processor(_Total)\\% Processor Time")
        );
        assert_eq!(
            english("\\\\H\\Pamięć\\Błędy stron/s").as_deref(),
            Some("\\\\H\\Memory\\Page Faults/sec")
        );
        assert_eq!(
            english("\\\\H\\Mémoire\\Octets disponibles").as_deref(),
            Some("\\\\H\\Memory\\Available Bytes")
        );
        // Parent and instance kept as written.
        assert_eq!(
            english("\\\\H\\Thread(notepad/0)\\Cambios de contexto/s").as_deref(),
            Some("\\\\H\\Thread(notepad/0)\\Context Switches/sec")
        );
        // English paths (also in Get-Counter's lower case), unknown objects and unknown counters: none.
        assert_eq!(english("\\\\H\\Processor(_Total)\\% Processor Time"), None);
        assert_eq!(
            english("\\\\web01\\processor(_total)\\% processor time"),
            None
        );
        assert_eq!(english("\\\\H\\Mi objeto\\% de tiempo de procesador"), None);
        assert_eq!(
            english("\\\\H\\Procesador(_Total)\\Contador inventado"),
            None
        );
        assert_eq!(english_object("Arbeitsspeicher"), Some("Memory"));
        // Russian, which PAL's data lacks (scripts/counter-names-more.tsv): Cyrillic compared in lower
        // case as the rest, the counter looked up within its object.
        assert_eq!(
            english(r"\\СЕРВЕР\Процессор(_Total)\% загруженности процессора").as_deref(),
            Some(r"\\СЕРВЕР\Processor(_Total)\% Processor Time")
        );
        assert_eq!(
            english(r"\\H\Процесс(svchost#3)\I/O - чтение байт в сек").as_deref(),
            Some(r"\\H\Process(svchost#3)\IO Read Bytes/sec")
        );
        assert_eq!(
            english(r"\\H\ФИЗИЧЕСКИЙ ДИСК(0 C:)\Среднее время чтения с диска (с)").as_deref(),
            Some(r"\\H\PhysicalDisk(0 C:)\Avg. Disk sec/Read")
        );
        assert_eq!(
            english(r"\\H\Память\Доступно МБ").as_deref(),
            Some(r"\\H\Memory\Available MBytes")
        );
        // A Russian counter name in another object than its own: not translated.
        assert_eq!(english(r"\\H\Память\Рабочий набор"), None);
        // english_parts: English paths too, each part None where the map has no entry.
        let parts = |p: &str| english_parts(&parse(p).unwrap());
        assert_eq!(
            parts("\\\\H\\Procesador(_Total)\\% de tiempo de procesador"),
            (Some("Processor"), Some("% Processor Time"))
        );
        assert_eq!(
            parts("\\\\web01\\processor(_total)\\% processor time"),
            (Some("Processor"), Some("% Processor Time"))
        );
        assert_eq!(
            parts("\\\\H\\Procesador(_Total)\\Contador inventado"),
            (Some("Processor"), None)
        );
        assert_eq!(parts("\\\\H\\Mi objeto\\Algo"), (None, None));
    }
}
