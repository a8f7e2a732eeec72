//! Counter paths: `\\MACHINE\Object(Parent/Instance#n)\Counter`, as PDH writes them in CSV headers and
//! Get-Counter in `Path`.
//!
//! Instance names may hold parentheses (`svchost (netsvcs)`), slashes and commas
//! (`Processor Information(0,_Total)`), so the instance is what lies between the object part's first
//! `(` and its last `)`; parent and instance split at the first `/`; a `#n` suffix stays on the instance.
//! The counter is everything after the last `\` that is outside the parentheses.
//!
//! [`PathPattern`] is a Perfmon wildcard path, as relog's `-c` and PAL's threshold files write them
//! (see PdhExpandWildCardPath in the Windows SDK's pdh.h documentation): `*` in the machine, object,
//! instance or counter, `(*)` for every instance; matched without regard to case.

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

/// A counter path pattern that is not one: `\\MACHINE\Object(Instance)\Counter` was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    #[error(r"{0:?} is not a counter path pattern: expected \\MACHINE\Object(Instance)\Counter, \Object(*)\Counter or \Object\Counter (machine optional, * allowed in each part)")]
    NotAPath(String),
}

/// A Perfmon wildcard path: `\\MACHINE\Object(Parent/Instance#n)\Counter` with the machine optional
/// and `*` (any run of characters, none included) allowed in every part.
///
/// Matching rules (each pinned by a test below):
/// - case-insensitive, as PDH compares names;
/// - no machine in the pattern: every machine; a machine (or `\\*`): the path's machine must match;
/// - the instance part is compared as written, `parent/instance#n` whole (`(chrome/*)`, `(*/12)`,
///   `(svchost#1)`); `(svchost)` is index 0 only, as in PDH, and does not match `svchost#1`;
/// - `(*)` matches every instance, and paths without one (so `\*(*)\*` selects everything; PDH would
///   refuse `(*)` on an object without instances, a filter has no reason to);
/// - no instance part (`\Memory\Available Bytes`): only paths without an instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathPattern {
    text: String,
    machine: Option<Vec<char>>,
    object: Vec<char>,
    /// `None`: no parentheses in the pattern.
    instance: Option<Vec<char>>,
    counter: Vec<char>,
}

/// Lower case, as a char vector the matcher walks.
fn folded(s: &str) -> Vec<char> {
    s.chars().flat_map(char::to_lowercase).collect()
}

/// `*` matches any run of characters (none included); every other character itself. `text` is folded.
/// Iterative with one backtrack point (the last `*`), so a hostile pattern costs O(pattern x text).
fn glob(pattern: &[char], text: &[char]) -> bool {
    let (mut p, mut t) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while t < text.len() {
        if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, t));
            p += 1;
        } else if p < pattern.len() && pattern[p] == text[t] {
            p += 1;
            t += 1;
        } else if let Some((sp, st)) = star {
            p = sp + 1;
            t = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

fn glob_str(pattern: &[char], text: &str) -> bool {
    if pattern == ['*'] {
        return true;
    }
    glob(pattern, &folded(text))
}

impl PathPattern {
    /// Parses a pattern; the machine is optional and so is the leading `\`.
    pub fn parse(text: &str) -> Result<PathPattern, PatternError> {
        let t = text.trim();
        let has_machine = t.starts_with("\\\\");
        let c = parse(t).ok_or_else(|| PatternError::NotAPath(text.to_string()))?;
        if has_machine && c.machine.is_empty() {
            return Err(PatternError::NotAPath(text.to_string()));
        }
        let instance = c.instance.as_ref().map(|i| match &c.parent {
            Some(p) => folded(&format!("{p}/{i}")),
            None => folded(i),
        });
        Ok(PathPattern {
            text: t.to_string(),
            machine: has_machine.then(|| folded(&c.machine)),
            object: folded(&c.object),
            instance,
            counter: folded(&c.counter),
        })
    }

    /// The pattern as given (trimmed).
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether a parsed path matches.
    pub fn matches(&self, path: &CounterPath) -> bool {
        if let Some(m) = &self.machine {
            if !glob_str(m, &path.machine) {
                return false;
            }
        }
        if !glob_str(&self.object, &path.object) || !glob_str(&self.counter, &path.counter) {
            return false;
        }
        match (&self.instance, &path.instance) {
            (None, None) => true,
            (None, Some(_)) => false,
            (Some(p), None) => p.as_slice() == ['*'],
            (Some(p), Some(i)) => match &path.parent {
                Some(parent) => glob_str(p, &format!("{parent}/{i}")),
                None => glob_str(p, i),
            },
        }
    }

    /// Whether a path as written matches (false when it is not a counter path).
    pub fn matches_path(&self, path: &str) -> bool {
        parse(path).is_some_and(|c| self.matches(&c))
    }
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
    fn glob_backtracks_and_stays_linear_in_practice() {
        let g = |p: &str, t: &str| glob(&folded(p), &folded(t));
        assert!(g("a*b*c", "aXXbYYbZc"));
        assert!(g("*", ""));
        assert!(g("**", "abc"));
        assert!(!g("a*b", "aXXc"));
        assert!(g("*.*", "a.b.c"));
        // A hostile pattern over a long text finishes (O(pattern x text), not exponential).
        let p = "*a".repeat(50) + "b";
        assert!(!g(&p, &"a".repeat(5000)));
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
