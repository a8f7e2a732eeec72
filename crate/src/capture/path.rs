//! Counter paths: `\\MACHINE\Object(Parent/Instance#n)\Counter`, as PDH writes them in CSV headers and
//! Get-Counter in `Path`.
//!
//! Instance names may hold parentheses (`svchost (netsvcs)`), slashes and commas
//! (`Processor Information(0,_Total)`), so the instance is what lies between the object part's first
//! `(` and its last `)`; parent and instance split at the first `/`; a `#n` suffix stays on the instance.
//! The counter is everything after the last `\` that is outside the parentheses.
//!
//! [`PathPattern`] is a Perfmon wildcard path, as relog's `-c` and PAL's threshold files write them
//! (see PdhExpandWildCardPath in the Windows SDK's pdh.h documentation): `*` and `?` in the machine,
//! object, instance or counter, `(*)` for every instance; names compared case-insensitively (folded as
//! [`super::names::fold`] does), and a localized path matched through its English names too. The one
//! matcher serves the command line's `-c` filters and the analysis rules alike.

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
    /// The folded English object and counter: the path's own names unless it is localized.
    pub fn english_or_own(&self) -> (&str, &str) {
        self.english
            .as_ref()
            .map_or((self.object.as_str(), self.counter.as_str()), |(o, c)| {
                (o.as_str(), c.as_str())
            })
    }

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

/// A counter path pattern that is not one: `\\MACHINE\Object(Instance)\Counter` was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    #[error(r"{0:?} is not a counter path pattern: expected \\MACHINE\Object(Instance)\Counter, \Object(*)\Counter or \Object\Counter (machine optional, * allowed in each part)")]
    NotAPath(String),
}

/// A Perfmon wildcard path: `\\MACHINE\Object(Parent/Instance#n)\Counter` with the machine optional
/// and `*` (any run of characters, none included) or `?` (one character) allowed in every part.
///
/// Matching rules (each pinned by a test below):
/// - case-insensitive, as PDH compares names (and blind to accents and repeated spaces, as
///   [`super::names::fold`] folds them); a localized path also matches by its English object and counter;
/// - no machine in the pattern: every machine; a machine (or `\\*`): the path's machine must match;
/// - the instance part is compared as written, `parent/instance#n` whole (`(chrome/*)`, `(*/12)`,
///   `(svchost#1)`); `(svchost)` is index 0 only, as in PDH, and does not match `svchost#1`;
/// - `(*)` matches every instance, and paths without one (so `\*(*)\*` selects everything; PDH would
///   refuse `(*)` on an object without instances, a filter has no reason to);
/// - no instance part (`\Memory\Available Bytes`): only paths without an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    text: String,
    /// `None`: any machine (the pattern names none).
    machine: Option<String>,
    object: String,
    /// `None`: no parentheses in the pattern.
    instance: Option<String>,
    counter: String,
}

impl PathPattern {
    /// Parses a pattern; the machine is optional and so is the leading `\`.
    pub fn parse(text: &str) -> Result<PathPattern, PatternError> {
        use super::names::fold;
        let t = text.trim();
        let has_machine = t.starts_with("\\\\");
        let c = parse(t).ok_or_else(|| PatternError::NotAPath(text.to_string()))?;
        if has_machine && c.machine.is_empty() {
            return Err(PatternError::NotAPath(text.to_string()));
        }
        Ok(PathPattern {
            text: t.to_string(),
            machine: has_machine.then(|| fold(&c.machine)),
            object: fold(&c.object),
            instance: full_instance(&c).map(|i| fold(&i)),
            counter: fold(&c.counter),
        })
    }

    /// The pattern as given (trimmed).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether a path, folded once for many patterns, matches by its written names or its English ones.
    pub fn matches_folded(&self, p: &FoldedPath) -> bool {
        if let Some(m) = &self.machine {
            if !wildcard(m, &p.machine) {
                return false;
            }
        }
        match (&self.instance, &p.instance) {
            (None, None) => {}
            (Some(pat), None) if pat == "*" => {}
            (Some(pat), Some(i)) if wildcard(pat, i) => {}
            _ => return false,
        }
        (wildcard(&self.object, &p.object) && wildcard(&self.counter, &p.counter))
            || p.english
                .as_ref()
                .is_some_and(|(o, c)| wildcard(&self.object, o) && wildcard(&self.counter, c))
    }

    /// Whether some path of this machine's object could match (by its written object name or its English
    /// one), whatever its instance and counter: a reader skips an object no pattern can match.
    pub fn may_match_object(&self, machine: &str, object: &str) -> bool {
        use super::names::{english_object, fold};
        if let Some(m) = &self.machine {
            if !wildcard(m, &fold(machine)) {
                return false;
            }
        }
        wildcard(&self.object, &fold(object))
            || english_object(object).is_some_and(|e| wildcard(&self.object, &fold(e)))
    }

    /// Whether a parsed path matches.
    pub fn matches(&self, path: &CounterPath) -> bool {
        self.matches_folded(&FoldedPath::new(path))
    }

    /// Whether a path as written matches (false when it is not a counter path).
    pub fn matches_path(&self, path: &str) -> bool {
        parse(path).is_some_and(|c| self.matches(&c))
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
    // Without `?`, bytes match as characters do (UTF-8 sequences compare whole), with no allocation:
    // the analysis matches every rule against every series.
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
            .unwrap_or_else(|e| panic!("{e}"))
            .matches_path(path)
    }

    #[test]
    fn wildcards_in_each_part() {
        let cpu = r"\\WEB01\Processor(_Total)\% Processor Time";
        for yes in [
            r"\Processor(*)\% Processor Time",
            r"\Processor(_Total)\% Processor Time",
            r"\\WEB01\Processor(*)\*",
            r"\\web*\processor(_total)\% processor time",
            r"\\*\*(*)\*",
            r"\Proc*(*)\% * Time",
            r"Processor(*)\% Processor Time",
            r"\*(_tot*)\*Time",
        ] {
            assert!(m(yes, cpu), "{yes} should match {cpu}");
        }
        for no in [
            r"\Processor\% Processor Time", // no instance part: only instance-less paths
            r"\Processor(0)\% Processor Time",
            r"\\WEB02\Processor(*)\*",
            r"\Processor(*)\% User Time",
            r"\Process(*)\% Processor Time",
            r"\Processor(*)\% Processor Time*x",
        ] {
            assert!(!m(no, cpu), "{no} should not match {cpu}");
        }
    }

    #[test]
    fn instances_parents_and_indexes() {
        let thread = r"\\H\Thread(chrome/12#3)\Context Switches/sec";
        assert!(m(r"\Thread(*)\Context Switches/sec", thread));
        assert!(m(r"\Thread(chrome/*)\Context Switches/sec", thread));
        assert!(m(r"\Thread(*/12#3)\*", thread));
        assert!(m(r"\Thread(CHROME/12#3)\*", thread));
        assert!(!m(r"\Thread(12#3)\*", thread)); // the parent is part of the instance as written
        assert!(!m(r"\Thread(firefox/*)\*", thread));
        let svc = r"\\H\Process(svchost#1)\% Processor Time";
        assert!(m(r"\Process(svchost#1)\*", svc));
        assert!(m(r"\Process(svchost*)\*", svc));
        assert!(!m(r"\Process(svchost)\*", svc)); // index 0 only, as PDH counts instances
                                                  // Parentheses and backslashes inside the instance.
        assert!(m(
            r"\Process(svchost (netsvcs)*)\*",
            r"\\H\Process(svchost (netsvcs)#2)\% Processor Time"
        ));
        assert!(m(
            r"\SMB Client Shares(\fs01\*)\Data Bytes/sec",
            r"\\H\SMB Client Shares(\fs01\share)\Data Bytes/sec"
        ));
    }

    #[test]
    fn objects_without_instances_and_machines() {
        let mem = r"\\H\Memory\Available MBytes";
        assert!(m(r"\Memory\Available MBytes", mem));
        assert!(m(r"\memory\available *", mem));
        assert!(m(r"\Memory(*)\Available MBytes", mem)); // (*) also selects instance-less paths
        assert!(!m(r"\Memory(_Total)\Available MBytes", mem));
        // A path without a machine: matched by patterns without one, or with \\*.
        assert!(m(r"\Memory\*", r"\Memory\Pages/sec"));
        assert!(m(r"\\*\Memory\*", r"\Memory\Pages/sec"));
        assert!(!m(r"\\H\Memory\*", r"\Memory\Pages/sec"));
        // Not a path at all never matches.
        assert!(!m(r"\*(*)\*", "Time"));
    }

    #[test]
    fn bad_patterns_are_errors() {
        for bad in ["", "*", r"\\HOST", r"\Memory", r"\\\Memory\x"] {
            assert!(
                matches!(PathPattern::parse(bad), Err(PatternError::NotAPath(_))),
                "{bad}"
            );
        }
        let e = PathPattern::parse("<script>").unwrap_err().to_string();
        assert!(e.contains("\"<script>\"") && e.contains("expected"), "{e}");
    }

    #[test]
    fn wildcard_backtracks_and_stays_linear_in_practice() {
        assert!(wildcard("a*b*c", "axxbyybzc"));
        assert!(wildcard("*", ""));
        assert!(wildcard("**", "abc"));
        assert!(!wildcard("a*b", "axxc"));
        assert!(wildcard("*.*", "a.b.c"));
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
        // A hostile pattern over a long text finishes (O(pattern x text), not exponential).
        let p = "*a".repeat(50) + "b";
        assert!(!wildcard(&p, &"a".repeat(5000)));
    }

    fn mf(pattern: &str, path: &str) -> bool {
        PathPattern::parse(pattern)
            .unwrap()
            .matches_folded(&FoldedPath::new(&p(path)))
    }

    #[test]
    fn patterns_match_as_perfmon_does() {
        let cpu = r"\Processor(*)\% Processor Time";
        // Machine optional, names case-insensitive (Get-Counter writes lower case).
        assert!(mf(cpu, r"\\SRV\Processor(_Total)\% Processor Time"));
        assert!(mf(cpu, r"\\web01\processor(0)\% processor time"));
        assert!(!mf(cpu, r"\\SRV\Processor(0)\% User Time"));
        // No instance pattern needs no instance.
        assert!(!mf(
            r"\Memory\Available MBytes",
            r"\\S\Memory(x)\Available MBytes"
        ));
        assert!(mf(
            r"\Memory\Available MBytes",
            r"\\S\MEMORY\available mbytes"
        ));
        // A machine in the pattern must match; `\\*` is any.
        assert!(mf(r"\\SRV\Memory\Pages/sec", r"\\srv\Memory\Pages/sec"));
        assert!(!mf(r"\\SRV\Memory\Pages/sec", r"\\OTHER\Memory\Pages/sec"));
        assert!(mf(r"\\*\Memory\Pages/sec", r"\\OTHER\Memory\Pages/sec"));
        // Wildcards in object, instance (parent/instance as one text) and counter.
        assert!(mf(
            r"\Thread(chrome*)\*",
            r"\\H\Thread(chrome/12#3)\Context Switches/sec"
        ));
        assert!(mf(
            r"\Process(sql*)\Private Bytes",
            r"\\H\Process(sqlservr)\Private Bytes"
        ));
        assert!(mf(
            r"\*Disk(*)\Avg. Disk sec/Read",
            r"\\H\LogicalDisk(C:)\Avg. Disk sec/Read"
        ));
        // A localized path matches through its English names; its instance stays as written.
        assert!(mf(
            cpu,
            r"\\SRV\Procesador(_Total)\% de tiempo de procesador"
        ));
        assert!(mf(
            r"\Memory\Available Bytes",
            r"\\H\Mémoire\Octets disponibles"
        ));
    }

    proptest::proptest! {
        /// Every parsable path matches itself as a pattern (it has no `*`), in any case, and `\\*\*(*)\*`.
        #[test]
        fn a_path_matches_itself(
            machine in "[A-Za-z0-9]{0,6}",
            object in "[A-Za-z ]{1,8}",
            instance in proptest::option::of("[A-Za-z0-9_#/ ]{1,8}"),
            counter in "[A-Za-z%][A-Za-z%/ ]{0,6}[A-Za-z]",
        ) {
            let inst = instance.map(|i| format!("({i})")).unwrap_or_default();
            let head = if machine.is_empty() { String::new() } else { format!("\\\\{machine}") };
            let path = format!("{head}\\{object}{inst}\\{counter}");
            if let Some(c) = parse(&path) {
                let own = PathPattern::parse(&path).unwrap();
                proptest::prop_assert!(own.matches(&c));
                proptest::prop_assert!(PathPattern::parse(&path.to_uppercase()).unwrap().matches(&c));
                proptest::prop_assert!(PathPattern::parse(r"\\*\*(*)\*").unwrap().matches(&c));
            }
        }
    }
}
