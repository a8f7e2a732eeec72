//! Where outputs go, so that no two collide and none is overwritten silently:
//! - each input is named by its path below the inputs' common folder, keeping at least its own folder
//!   (`perflogs/WEB01/fleet.blg` is `WEB01/fleet.blg` whether WEB01 is converted alone or with the whole
//!   fleet), which is also what the Parquet `source` column holds;
//! - `-o DIR/` (a trailing separator) or an existing directory means a directory: one output per input,
//!   at `DIR/<name>.<ext>`, or in hive-style folders (`machine=WEB01/date=2026-11-16/`) with `--partition`;
//! - every file is written under a temporary name beside it and renamed when complete, so a failed input
//!   leaves nothing behind, and an existing file is only replaced with `--overwrite`.

use crate::error::CliError;
use std::path::{Component, Path, PathBuf};

/// An absolute path with `.` and `..` resolved lexically (symbolic links are left as they are, so a
/// name never shows where a link points).
pub fn absolute(p: &Path) -> PathBuf {
    let abs = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut out = PathBuf::new();
    for c in abs.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// Each input's name: its path relative to the common folder of the inputs' folders' parents, with `/`
/// between the parts.
pub fn relative_names(files: &[PathBuf]) -> Vec<String> {
    let abs: Vec<Vec<String>> = files
        .iter()
        .map(|f| {
            absolute(f)
                .components()
                .filter_map(|c| match c {
                    Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    // The folder above each input's own folder, then the longest prefix they share.
    let mut base: Option<&[String]> = None;
    for parts in &abs {
        let above = &parts[..parts.len().saturating_sub(2)];
        base = Some(match base {
            None => above,
            Some(b) => {
                let n = b.iter().zip(above).take_while(|(x, y)| x == y).count();
                &b[..n]
            }
        });
    }
    let depth = base.map_or(0, <[String]>::len);
    abs.iter().map(|parts| parts[depth..].join("/")).collect()
}

/// The first name given twice (the same file named twice), if any.
pub fn repeated(names: &[String]) -> Option<&str> {
    let mut seen = std::collections::HashSet::new();
    names
        .iter()
        .find(|n| !seen.insert(n.to_lowercase()))
        .map(String::as_str)
}

/// Whether `-o` names a directory: one that exists, or a path ending in a separator.
pub fn is_dir_output(p: &Path) -> bool {
    let s = p.as_os_str().to_string_lossy();
    p.is_dir() || s.ends_with('/') || s.ends_with(std::path::MAIN_SEPARATOR)
}

/// `DIR/<name>.<ext>`.
pub fn per_input(dir: &Path, name: &str, ext: &str) -> PathBuf {
    dir.join(format!("{name}.{ext}"))
}

/// A hive partition value: bytes other than letters, digits, `-`, `_` and `.` percent-encoded as
/// Spark and Hive write them (a leading `.` too, so no folder is hidden or `..`); empty is Hive's
/// `__HIVE_DEFAULT_PARTITION__`, which DuckDB and Spark read as null.
pub fn hive_value(v: &str) -> String {
    if v.is_empty() {
        return "__HIVE_DEFAULT_PARTITION__".into();
    }
    let mut out = String::new();
    for (i, b) in v.bytes().enumerate() {
        if b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || (b == b'.' && i > 0) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A machine's name as a file name: letters (of any script) and digits, `-`, `_` and `.` kept (a
/// leading `.` replaced, so no file is hidden), anything else `_`; `unnamed` for a log that names none.
pub fn file_name_of(machine: &str) -> String {
    if machine.is_empty() {
        return "unnamed".into();
    }
    machine
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if c.is_alphanumeric() || c == '-' || c == '_' || (c == '.' && i > 0) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The file name of an input inside a partition folder: its name with `/` as `__` (a hive folder holds
/// files only, so Spark sees one level of folders per key).
pub fn flat(name: &str) -> String {
    name.replace('/', "__")
}

/// A file being written under a temporary name; `commit` renames it into place, dropping it removes it.
pub struct Staged {
    pub path: PathBuf,
    tmp: PathBuf,
    done: bool,
}

impl Staged {
    /// Refuses an existing file unless `overwrite`; creates the parent folders.
    pub fn create(path: &Path, overwrite: bool) -> Result<(Staged, std::fs::File), CliError> {
        if !overwrite && path.exists() {
            return Err(CliError::Exists(path.to_path_buf()));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(CliError::io(parent))?;
        }
        let name = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let tmp = path.with_file_name(format!(".{name}.{}.partial", std::process::id()));
        let file = std::fs::File::create(&tmp).map_err(CliError::io(path))?;
        Ok((
            Staged {
                path: path.to_path_buf(),
                tmp,
                done: false,
            },
            file,
        ))
    }

    pub fn commit(mut self) -> Result<(), CliError> {
        std::fs::rename(&self.tmp, &self.path).map_err(CliError::io(&self.path))?;
        self.done = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The outputs among `paths` that exist already (refused without `--overwrite`, before any input is read).
pub fn existing(paths: &[PathBuf]) -> Vec<PathBuf> {
    paths.iter().filter(|p| p.exists()).cloned().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(files: &[&str]) -> Vec<String> {
        relative_names(&files.iter().map(PathBuf::from).collect::<Vec<_>>())
    }

    #[test]
    fn names_keep_each_input_s_folder_and_what_differs_above_it() {
        // The fleet's layout: the same file name in every server's folder.
        assert_eq!(
            names(&["/s/perflogs/WEB01/fleet.blg", "/s/perflogs/WEB02/fleet.blg"]),
            ["WEB01/fleet.blg", "WEB02/fleet.blg"]
        );
        // One server alone: the same name as in the run over all.
        assert_eq!(names(&["/s/perflogs/WEB02/fleet.blg"]), ["WEB02/fleet.blg"]);
        // Inputs in one folder.
        assert_eq!(
            names(&["/s/logs/a.csv", "/s/logs/b.csv"]),
            ["logs/a.csv", "logs/b.csv"]
        );
        // Different depths: the common folder of the folders above each input's own.
        assert_eq!(
            names(&["/s/w47/WEB01/a.blg", "/s/w46/WEB01/a.blg", "/s/x.blg"]),
            ["s/w47/WEB01/a.blg", "s/w46/WEB01/a.blg", "s/x.blg"]
        );
        // `.` and `..` resolved.
        assert_eq!(
            names(&["/s/logs/../perflogs/./WEB01/a.blg"]),
            ["WEB01/a.blg"]
        );
        assert_eq!(
            repeated(&names(&["/a/b/c.csv", "/a/b/./c.csv"])),
            Some("b/c.csv")
        );
        assert_eq!(repeated(&names(&["/a/b/c.csv", "/a/d/c.csv"])), None);
    }

    #[test]
    fn machine_names_make_file_names_that_hide_nothing_and_keep_their_script() {
        assert_eq!(file_name_of("WEB01"), "WEB01");
        assert_eq!(file_name_of("СЕРВЕР-1"), "СЕРВЕР-1");
        assert_eq!(file_name_of("..\\x/y:z"), "_._x_y_z");
        assert_eq!(file_name_of(""), "unnamed");
    }

    #[test]
    fn hive_values_are_escaped() {
        assert_eq!(hive_value("WEB01"), "WEB01");
        assert_eq!(hive_value("2026-11-16"), "2026-11-16");
        assert_eq!(hive_value(""), "__HIVE_DEFAULT_PARTITION__");
        assert_eq!(hive_value(".."), "%2E.");
        assert_eq!(hive_value("a/b=c d"), "a%2Fb%3Dc%20d");
        assert_eq!(flat("WEB01/fleet.blg"), "WEB01__fleet.blg");
    }

    #[test]
    fn staged_files_appear_only_when_committed_and_never_over_an_existing_one() {
        let dir = std::env::temp_dir().join(format!("counterlens-staged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = dir.join("a/b/out.parquet");
        let (s, _) = Staged::create(&path, false).unwrap();
        assert!(!path.exists(), "not before the commit");
        drop(s);
        assert!(!path.exists() && std::fs::read_dir(path.parent().unwrap()).unwrap().count() == 0);
        let (s, _) = Staged::create(&path, false).unwrap();
        s.commit().unwrap();
        assert!(path.exists());
        assert!(matches!(
            Staged::create(&path, false),
            Err(CliError::Exists(p)) if p == path
        ));
        assert!(Staged::create(&path, true).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
