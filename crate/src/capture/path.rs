//! Counter paths: `\\MACHINE\Object(Parent/Instance#n)\Counter`, as PDH writes them in CSV headers and
//! Get-Counter in `Path`.
//!
//! Instance names may hold parentheses (`svchost (netsvcs)`), slashes and commas
//! (`Processor Information(0,_Total)`), so the instance is what lies between the object part's first
//! `(` and its last `)`; parent and instance split at the first `/`; a `#n` suffix stays on the instance.
//! The counter is everything after the last `\` that is outside the parentheses.

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
}
