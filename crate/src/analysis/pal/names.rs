//! Names PAL's files give counters: the object and counter parts of a data source's path, and the
//! `[a-z0-9-]+` slug rule ids are made of. A leaf: the XML driver, the parser and the lowering all read it.

/// `[a-z0-9-]+` from any text: "Process % Processor Time" -> "process-processor-time".
pub(super) fn slug(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("pal");
    }
    out
}

/// `\Processor(*)\% Processor Time` -> `Processor`; `\\SRV\Memory\...` -> `Memory`.
pub(super) fn counter_object(path: &str) -> &str {
    let p = path
        .strip_prefix("\\\\")
        .map_or(path.trim_start_matches('\\'), |rest| {
            rest.split_once('\\').map_or(rest, |(_, r)| r)
        });
    let obj = p.split('\\').next().unwrap_or(p);
    obj.split('(').next().unwrap_or(obj).trim()
}

/// The counter part of a path: `\\PAL Generated(*)\\Ratio` is `Ratio`.
pub(super) fn counter_name(path: &str) -> &str {
    path.rsplit('\\').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_objects_and_counters() {
        assert_eq!(slug("Process % Processor Time"), "process-processor-time");
        assert_eq!(slug("***"), "pal");
        assert_eq!(
            counter_object("\\Processor(*)\\% Processor Time"),
            "Processor"
        );
        assert_eq!(
            counter_object("\\\\SRV\\Processor(_Total)\\% Idle Time"),
            "Processor"
        );
        assert_eq!(counter_name("\\PAL Generated(*)\\Ratio"), "Ratio");
    }
}
