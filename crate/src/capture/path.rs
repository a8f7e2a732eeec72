//! Counter paths: `\\MACHINE\Object(Parent/Instance#n)\Counter`, as PDH writes them in CSV headers and
//! Get-Counter in `Path`.
//!
//! Instance names may hold parentheses (`svchost (netsvcs)`), slashes and commas
//! (`Processor Information(0,_Total)`), so the instance is what lies between the object part's first
//! `(` and its last `)`; parent and instance split at the first `/`; a `#n` suffix stays on the instance.
//! The counter is everything after the last `\` that is outside the parentheses.
//!
//! [`PathPattern`] matches paths against Perfmon wildcard paths (`\Processor(*)\% Processor Time`):
//! `*` and `?` in any part, the machine optional, names compared case-insensitively (folded as
//! [`super::names::fold`] does), and a localized path matched through its English names.

use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct CounterPath {
    /// Without the leading `\\`; empty for a path without a machine (`\Object\Counter`).
    pub machine: String,
    pub object: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instance: Option<String>,
    pub counter: String,
}

/// Parses a counter path; `None` when it has no object and counter at all.
pub fn parse(path: &str) -> Option<CounterPath> {
    let (machine, rest) = match path.strip_prefix("\\\\") {
        Some(r) => {
            let end = r.find('\\')?;
            (&r[..end], &r[end + 1..])
        }
        None => ("", path.strip_prefix('\\').unwrap_or(path)),
    };
    // The counter starts after the last backslash outside parentheses.
    let mut depth = 0i32;
    let mut split = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '\\' if depth <= 0 => split = Some(i),
            _ => {}
        }
    }
    let split = split?;
    let (object_part, counter) = (&rest[..split], &rest[split + 1..]);
    if object_part.is_empty() || counter.is_empty() {
        return None;
    }
    let (object, parent, instance) = match (object_part.find('('), object_part.ends_with(')')) {
        (Some(open), true) => {
            let inside = &object_part[open + 1..object_part.len() - 1];
            let (parent, instance) = match inside.split_once('/') {
                Some((p, i)) => (Some(p.to_string()), i),
                None => (None, inside),
            };
            (&object_part[..open], parent, Some(instance.to_string()))
        }
        _ => (object_part, None, None),
    };
    Some(CounterPath {
        machine: machine.to_string(),
        object: object.to_string(),
        parent,
        instance,
        counter: counter.to_string(),
    })
}

/// A path with its names folded for comparison, and its English object and counter where it is localized:
/// computed once per series, matched against many patterns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FoldedPath {
    pub machine: String,
    pub object: String,
    /// `parent/instance` or `instance`, as written in the path.
    pub instance: Option<String>,
    pub counter: String,
    /// Folded English object and counter of a localized path.
    pub english: Option<(String, String)>,
}

impl FoldedPath {
    pub fn new(p: &CounterPath) -> FoldedPath {
        use super::names::{english_names, fold};
        FoldedPath {
            machine: fold(&p.machine),
            object: fold(&p.object),
            instance: full_instance(p).map(|i| fold(&i)),
            counter: fold(&p.counter),
            english: english_names(p).map(|(o, c)| (fold(o), fold(c))),
        }
    }
}

fn full_instance(p: &CounterPath) -> Option<String> {
    match (&p.parent, &p.instance) {
        (Some(parent), Some(i)) => Some(format!("{parent}/{i}")),
        (None, Some(i)) => Some(i.clone()),
        _ => None,
    }
}

/// A Perfmon wildcard path: `\\*\Process(sql*)\Private Bytes`, `\Memory\Available MBytes`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    /// None: any machine (the pattern has none, or `\\*`).
    machine: Option<String>,
    object: String,
    /// None: the pattern names no instance, so it matches only paths without one.
    instance: Option<String>,
    counter: String,
}

impl PathPattern {
    /// None when `pattern` is not a counter path.
    pub fn parse(pattern: &str) -> Option<PathPattern> {
        use super::names::fold;
        let p = parse(pattern)?;
        Some(PathPattern {
            machine: (!p.machine.is_empty() && p.machine != "*").then(|| fold(&p.machine)),
            object: fold(&p.object),
            instance: full_instance(&p).map(|i| fold(&i)),
            counter: fold(&p.counter),
        })
    }

    /// Whether the path matches, by its written names or by its English ones.
    pub fn matches(&self, p: &FoldedPath) -> bool {
        if let Some(m) = &self.machine {
            if !wildcard(m, &p.machine) {
                return false;
            }
        }
        match (&self.instance, &p.instance) {
            (None, None) => {}
            (Some(pat), Some(i)) if wildcard(pat, i) => {}
            _ => return false,
        }
        (wildcard(&self.object, &p.object) && wildcard(&self.counter, &p.counter))
            || p.english
                .as_ref()
                .is_some_and(|(o, c)| wildcard(&self.object, o) && wildcard(&self.counter, c))
    }
}

/// `*` (any run, also empty) and `?` (one character) against `text`; both already folded. Linear in
/// practice: the classic greedy match that backtracks only to the last `*`.
pub fn wildcard(pattern: &str, text: &str) -> bool {
    if pattern == "*" {
        return true;
    }
    if !pattern.contains(['*', '?']) {
        return pattern == text;
    }
    // Without `?`, bytes match as characters do (UTF-8 sequences compare whole), with no allocation.
    if !pattern.contains('?') {
        return matches_any(pattern.as_bytes(), text.as_bytes());
    }
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    matches_any(&p, &t)
}

/// The greedy match with backtracking to the last `*`, over characters or bytes.
fn matches_any<C: Copy + PartialEq + From<u8>>(p: &[C], t: &[C]) -> bool {
    let (star_c, any_c) = (C::from(b'*'), C::from(b'?'));
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == any_c || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == star_c {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == star_c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> CounterPath {
        parse(s).unwrap_or_else(|| panic!("{s}"))
    }

    #[test]
    fn machine_object_instance_counter() {
        let c = p(r"\\GEORGIS3\PhysicalDisk(0 C:)\Avg. Disk Bytes/Read");
        assert_eq!(
            (
                c.machine.as_str(),
                c.object.as_str(),
                c.instance.as_deref(),
                c.counter.as_str()
            ),
            (
                "GEORGIS3",
                "PhysicalDisk",
                Some("0 C:"),
                "Avg. Disk Bytes/Read"
            )
        );
        let c = p(r"\\HOST\Memory\Available Bytes");
        assert_eq!(
            (c.object.as_str(), c.instance, c.counter.as_str()),
            ("Memory", None, "Available Bytes")
        );
    }

    #[test]
    fn the_quirks_of_real_paths() {
        let c = p(r"\\H\Processor Information(0,_Total)\% Processor Time");
        assert_eq!(
            (c.object.as_str(), c.instance.as_deref()),
            ("Processor Information", Some("0,_Total"))
        );
        let c = p(r"\\H\Process(svchost (netsvcs)#2)\% Processor Time");
        assert_eq!(c.instance.as_deref(), Some("svchost (netsvcs)#2"));
        let c = p(r"\\H\Thread(chrome/12#3)\Context Switches/sec");
        assert_eq!(
            (
                c.parent.as_deref(),
                c.instance.as_deref(),
                c.counter.as_str()
            ),
            (Some("chrome"), Some("12#3"), "Context Switches/sec")
        );
        // A backslash inside the instance (a file share) does not end the object.
        let c = p(r"\\H\SMB Client Shares(\fs01\share)\Data Bytes/sec");
        assert_eq!(
            (c.instance.as_deref(), c.counter.as_str()),
            (Some(r"\fs01\share"), "Data Bytes/sec")
        );
        // Get-Counter writes lower case; no machine at all is possible too.
        let c = p(r"\\host\processor(_total)\% processor time");
        assert_eq!(
            (c.machine.as_str(), c.instance.as_deref()),
            ("host", Some("_total"))
        );
        let c = p(r"\Memory\Pages/sec");
        assert_eq!((c.machine.as_str(), c.object.as_str()), ("", "Memory"));
    }

    #[test]
    fn not_paths() {
        for s in ["", r"\\HOST", r"\\HOST\Memory", "Time", r"\\H\\x"] {
            assert_eq!(parse(s), None, "{s}");
        }
    }

    fn m(pattern: &str, path: &str) -> bool {
        PathPattern::parse(pattern)
            .unwrap()
            .matches(&FoldedPath::new(&p(path)))
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*", ""));
        assert!(wildcard("sql*", "sqlservr#1"));
        assert!(wildcard("a?c", "abc"));
        assert!(!wildcard("a?c", "ac"));
        assert!(wildcard("*b*d", "abcbd"));
        assert!(!wildcard("*b*d", "abcbe"));
        // Bytes and characters agree beyond ASCII: `?` is one character, `*` any run.
        assert!(wildcard("proc*", "procesador"));
        assert!(wildcard("pami?? *", "pamięć x"));
        assert!(wildcard("*ść", "wartość"));
        assert!(!wildcard("pami?", "pamięć"));
    }

    #[test]
    fn patterns_match_as_perfmon_does() {
        let cpu = r"\Processor(*)\% Processor Time";
        // Machine optional, names case-insensitive (Get-Counter writes lower case).
        assert!(m(cpu, r"\\SRV\Processor(_Total)\% Processor Time"));
        assert!(m(cpu, r"\\web01\processor(0)\% processor time"));
        assert!(!m(cpu, r"\\SRV\Processor(0)\% User Time"));
        // An instance pattern needs an instance, and no instance pattern needs none.
        assert!(!m(cpu, r"\\SRV\Processor\% Processor Time"));
        assert!(!m(
            r"\Memory\Available MBytes",
            r"\\S\Memory(x)\Available MBytes"
        ));
        assert!(m(
            r"\Memory\Available MBytes",
            r"\\S\MEMORY\available mbytes"
        ));
        // A machine in the pattern must match; `\\*` is any.
        assert!(m(r"\\SRV\Memory\Pages/sec", r"\\srv\Memory\Pages/sec"));
        assert!(!m(r"\\SRV\Memory\Pages/sec", r"\\OTHER\Memory\Pages/sec"));
        assert!(m(r"\\*\Memory\Pages/sec", r"\\OTHER\Memory\Pages/sec"));
        // Wildcards in object, instance (parent/instance as one text) and counter.
        assert!(m(
            r"\Thread(chrome*)\*",
            r"\\H\Thread(chrome/12#3)\Context Switches/sec"
        ));
        assert!(m(
            r"\Process(sql*)\Private Bytes",
            r"\\H\Process(sqlservr)\Private Bytes"
        ));
        assert!(m(
            r"\*Disk(*)\Avg. Disk sec/Read",
            r"\\H\LogicalDisk(C:)\Avg. Disk sec/Read"
        ));
        // A localized path matches through its English names; its instance stays as written.
        assert!(m(
            cpu,
            r"\\SRV\Procesador(_Total)\% de tiempo de procesador"
        ));
        assert!(m(
            r"\Memory\Available Bytes",
            r"\\H\Mémoire\Octets disponibles"
        ));
    }
}
