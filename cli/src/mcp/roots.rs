//! The roots the server serves and the only way a path becomes a file to open: every path is
//! canonicalized (symbolic links resolved) and must start with a canonical root, so nothing outside the
//! roots is ever opened or listed. Also the walk that finds the logs under the roots, and the
//! `counterlens://log/<root-index>/<relative path>` URIs of the resources.

use super::error::McpError;
use crate::input::{looks_like_log, MAX_DEPTH};
use std::collections::HashSet;
use std::path::{Component, Path, PathBuf};

/// The scheme and prefix of a log's resource URI.
pub const URI_PREFIX: &str = "counterlens://log/";

/// Directory entries looked at per walk (a root of a million files lists a part, and says so).
const MAX_ENTRIES: usize = 50_000;

/// A log found under a root.
#[derive(Clone, Debug)]
pub struct LogFile {
    pub root: usize,
    /// Relative to its root, with '/' separators.
    pub rel: String,
    /// Canonical.
    pub path: PathBuf,
    pub size: u64,
}

impl LogFile {
    pub fn uri(&self) -> String {
        format!("{URI_PREFIX}{}/{}", self.root, self.rel)
    }
}

/// What a walk found: the logs, and what it left out.
#[derive(Debug, Default)]
pub struct Walk {
    pub logs: Vec<LogFile>,
    /// Symbolic links that lead out of the roots (not followed).
    pub links_outside: usize,
    /// Whether the walk stopped at `MAX_ENTRIES` or `MAX_DEPTH`.
    pub cut: bool,
}

#[derive(Clone, Debug)]
pub struct Roots {
    /// Canonical.
    roots: Vec<PathBuf>,
}

impl Roots {
    /// The roots, each canonicalized; one that does not exist or is no directory is refused.
    pub fn new(dirs: &[PathBuf]) -> Result<Roots, String> {
        let mut roots = Vec::new();
        for d in dirs {
            let c = d
                .canonicalize()
                .map_err(|e| format!("--root {}: {e}", d.display()))?;
            if !c.is_dir() {
                return Err(format!("--root {}: not a directory", d.display()));
            }
            roots.push(c);
        }
        Ok(Roots { roots })
    }

    pub fn len(&self) -> usize {
        self.roots.len()
    }

    pub fn get(&self, i: usize) -> Option<&Path> {
        self.roots.get(i).map(PathBuf::as_path)
    }

    /// The roots as a message lists them.
    pub fn describe(&self) -> String {
        self.roots
            .iter()
            .enumerate()
            .map(|(i, r)| format!("root {i}: {}", r.display()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The root a canonical path is inside, if any.
    pub fn root_of(&self, canonical: &Path) -> Option<usize> {
        self.roots.iter().position(|r| canonical.starts_with(r))
    }

    fn outside(&self, path: &str) -> McpError {
        McpError::Outside {
            path: path.to_string(),
            roots: self.describe(),
        }
    }

    fn not_found(&self, path: &str) -> McpError {
        McpError::NotFound {
            path: path.to_string(),
            roots: self.describe(),
        }
    }

    /// The log a tool's `log` argument names: a path relative to a root (each root tried in order), a
    /// resource URI, or an absolute path inside a root. `..` that climbs out of the root is refused
    /// before the file system is asked anything; then the path is canonicalized and must still be
    /// inside a root (a symbolic link out of the roots is refused the same way).
    pub fn resolve(&self, log: &str) -> Result<LogFile, McpError> {
        let text = log.trim();
        if text.is_empty() {
            return Err(McpError::argument(
                "log: empty; give a path as list_logs shows it",
            ));
        }
        if text.contains('\0') {
            return Err(McpError::argument("log: contains a NUL character"));
        }
        let candidates: Vec<PathBuf> = if let Some(rest) = text.strip_prefix(URI_PREFIX) {
            let (i, rel) = rest.split_once('/').unwrap_or((rest, ""));
            let root = i
                .parse::<usize>()
                .ok()
                .and_then(|i| self.roots.get(i))
                .ok_or_else(|| {
                    McpError::argument(format!(
                        "log: {text}: no root {i} (the server has {} roots, numbered from 0)",
                        self.roots.len()
                    ))
                })?;
            vec![self.lexical(root, rel, text)?]
        } else if Path::new(text).is_absolute() {
            let p = PathBuf::from(text);
            if !self.roots.iter().any(|r| normalize(&p).starts_with(r)) {
                // The path as given may still reach a root through a symbolic link: decided below.
                if p.canonicalize()
                    .ok()
                    .and_then(|c| self.root_of(&c))
                    .is_none()
                {
                    return Err(self.outside(text));
                }
            }
            vec![p]
        } else {
            self.roots
                .iter()
                .map(|r| self.lexical(r, text, text))
                .collect::<Result<_, _>>()?
        };
        for c in &candidates {
            let canonical = match c.canonicalize() {
                Ok(p) => p,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(source) => {
                    return Err(McpError::Io {
                        file: PathBuf::from(text),
                        source,
                    })
                }
            };
            let Some(root) = self.root_of(&canonical) else {
                return Err(self.outside(text));
            };
            if !canonical.is_file() {
                return Err(McpError::NotAFile {
                    path: text.to_string(),
                });
            }
            let size = std::fs::metadata(&canonical).map_or(0, |m| m.len());
            let rel = rel_text(&canonical, &self.roots[root]);
            return Ok(LogFile {
                root,
                rel,
                path: canonical,
                size,
            });
        }
        Err(self.not_found(text))
    }

    /// `rel` joined to `root`, refused when its `..` climb out of the root or it is absolute.
    fn lexical(&self, root: &Path, rel: &str, text: &str) -> Result<PathBuf, McpError> {
        let rel = rel.replace('\\', "/");
        let rel = Path::new(&rel);
        let mut depth = 0i32;
        for c in rel.components() {
            match c {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir => {
                    depth -= 1;
                    if depth < 0 {
                        return Err(self.outside(text));
                    }
                }
                Component::RootDir | Component::Prefix(_) => return Err(self.outside(text)),
            }
        }
        Ok(root.join(rel))
    }

    /// The logs under every root (files whose names say log, `looks_like_log`), in a stable order; a
    /// symbolic link is followed only when its target is inside a root, and each directory once.
    pub fn walk(&self) -> Walk {
        let mut w = Walk::default();
        let mut seen_dirs = HashSet::new();
        let mut entries = 0usize;
        for (i, root) in self.roots.iter().enumerate() {
            self.walk_dir(i, root, root, 0, &mut seen_dirs, &mut entries, &mut w);
        }
        w
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_dir(
        &self,
        i: usize,
        root: &Path,
        dir: &Path,
        depth: usize,
        seen: &mut HashSet<PathBuf>,
        entries: &mut usize,
        w: &mut Walk,
    ) {
        let Ok(canonical) = dir.canonicalize() else {
            return;
        };
        if self.root_of(&canonical).is_none() {
            w.links_outside += 1;
            return;
        }
        if !seen.insert(canonical) {
            return;
        }
        if depth > MAX_DEPTH {
            w.cut = true;
            return;
        }
        let Ok(read) = std::fs::read_dir(dir) else {
            return;
        };
        let mut list: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
        list.sort();
        for p in list {
            *entries += 1;
            if *entries > MAX_ENTRIES {
                w.cut = true;
                return;
            }
            let Ok(meta) = std::fs::symlink_metadata(&p) else {
                continue;
            };
            let target = if meta.file_type().is_symlink() {
                match p.canonicalize() {
                    Ok(c) if self.root_of(&c).is_some() => c,
                    _ => {
                        w.links_outside += 1;
                        continue;
                    }
                }
            } else {
                p.clone()
            };
            if target.is_dir() {
                self.walk_dir(i, root, &p, depth + 1, seen, entries, w);
            } else if target.is_file()
                && p.file_name()
                    .is_some_and(|n| looks_like_log(&n.to_string_lossy()))
            {
                let Ok(path) = target.canonicalize() else {
                    continue;
                };
                w.logs.push(LogFile {
                    root: i,
                    rel: rel_text(&p, root),
                    size: std::fs::metadata(&path).map_or(0, |m| m.len()),
                    path,
                });
            }
        }
    }
}

/// `path` below `root` with '/' separators (the path itself when it is not below).
fn rel_text(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// `.` and `..` folded without asking the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_say_log() {
        for n in ["a.blg", "A.CSV", "x.tsv.gz", "g.json", "t.txt"] {
            assert!(looks_like_log(n), "{n}");
        }
        for n in ["a.exe", "readme.md", "x.gz"] {
            assert!(!looks_like_log(n), "{n}");
        }
    }

    #[test]
    fn climbing_out_is_refused_before_the_file_system_is_asked() {
        let dir = std::env::temp_dir();
        let roots = Roots::new(&[dir]).unwrap();
        for bad in [
            "../etc/passwd",
            "a/../../b",
            "/etc/passwd",
            "counterlens://log/0/../x",
        ] {
            assert!(
                matches!(roots.resolve(bad), Err(McpError::Outside { .. })),
                "{bad}"
            );
        }
        assert!(matches!(
            roots.resolve("counterlens://log/7/x.blg"),
            Err(McpError::Argument(_))
        ));
        assert!(matches!(
            roots.resolve("surely-no-such-log-here.blg"),
            Err(McpError::NotFound { .. })
        ));
    }
}
