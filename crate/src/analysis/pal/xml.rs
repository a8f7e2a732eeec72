//! The XML layer of the PAL import: the files in inheritance order (`<INHERITANCE FILEPATH>`, each
//! once, a missing one noted), the QUESTIONs as pack variables (one name and unit for the answers the
//! built-in packs ask too), each ANALYSIS's DATASOURCEs (counters, EXCLUDEd instances, Generated
//! series), THRESHOLDs and CHART bands read through `lowering.rs` into the pack's rules (an `impl
//! Importer` block, as `lowering.rs` is; the type is declared in `importer.rs`), and the
//! DESCRIPTION as rich text with its links.

use super::description::{self, collapse_ws, references_in};
use super::fold::{split_clamps, to_threshold};
use super::importer::{Command, DataSource, Importer, Question};
use super::lexer::parse_number;
use super::names::slug;
use super::{
    ChartBand, PalImport, PalQuestion, Reason, ReasonCode, Untranslated, LOGICAL_PROCESSORS,
    NETWORK_BANDWIDTH, PHYSICAL_MEMORY_GB,
};
use crate::analysis::error::AnalysisError;
use crate::analysis::pack::{
    Derive, Instances, Reference, Rule, RuleKind, RulePack, Severity, Text, Value, Variable,
    VariableType,
};
use std::collections::{HashMap, HashSet};

/// The built-in system overview's question for `PhysicalMemoryGB`, word for word, so a viewer that
/// shows both packs asks once.
const PHYSICAL_MEMORY_QUESTION: &str = "How much physical memory (RAM) does the server have, in GB? (PowerShell: (Get-CimInstance Win32_ComputerSystem).TotalPhysicalMemory / 1GB)";

const PAL_URL: &str = "https://github.com/clinthuffman/PAL";

/// [`super::import_pal`]: the files read, in inheritance order, into the pack. Files inherited by another given file
/// (`<INHERITANCE FILEPATH>`, matched on the file name, case-insensitively) are read through it; an
/// analysis defined in the inheriting file wins over one of the same ID in the inherited file, as in PAL.
/// XML that is not well formed is an error with its line and column; everything else is reported.
pub(super) fn import(files: &[(String, String)]) -> Result<PalImport, AnalysisError> {
    if files.is_empty() {
        return Err(AnalysisError::Options(
            "no PAL threshold file was given".into(),
        ));
    }
    // Parse every file first: a file that is not XML is an error whether it is inherited or not.
    let mut docs: Vec<(String, roxmltree::Document<'_>)> = Vec::with_capacity(files.len());
    for (name, text) in files {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let doc = roxmltree::Document::parse(text).map_err(|e| {
            let pos = e.pos();
            AnalysisError::PalXml {
                file: name.clone(),
                line: pos.row,
                column: pos.col,
                message: e.to_string(),
            }
        })?;
        let root = doc.root_element();
        if !root.tag_name().name().eq_ignore_ascii_case("PAL") {
            let pos = doc.text_pos_at(root.range().start);
            return Err(AnalysisError::PalXml {
                file: name.clone(),
                line: pos.row,
                column: pos.col,
                message: format!(
                    "expected a PAL threshold file (root element <PAL>), found <{}>",
                    root.tag_name().name()
                ),
            });
        }
        docs.push((name.clone(), doc));
    }
    let key = |n: &str| base_name(n).to_ascii_lowercase();
    let by_name: HashMap<String, usize> = docs
        .iter()
        .enumerate()
        .map(|(i, (n, _))| (key(n), i))
        .collect();
    // Roots: the files no other given file inherits (all of them if they inherit each other in a ring).
    let mut inherited = HashSet::new();
    for (_, doc) in &docs {
        for path in inheritance(doc) {
            if let Some(&i) = by_name.get(&key(&path)) {
                inherited.insert(i);
            }
        }
    }
    let mut roots: Vec<usize> = (0..docs.len()).filter(|i| !inherited.contains(i)).collect();
    if roots.is_empty() {
        roots.push(0);
    }
    // The reading order: each root, then what it inherits, depth first; each file once.
    let mut order = Vec::new();
    let mut seen = HashSet::new();
    let mut missing_files = Vec::new();
    let mut notes = Vec::new();
    for &r in &roots {
        visit(
            r,
            &docs,
            &by_name,
            &mut seen,
            &mut order,
            &mut missing_files,
            &mut notes,
        );
    }
    for i in 0..docs.len() {
        if !seen.contains(&i) {
            visit(
                i,
                &docs,
                &by_name,
                &mut seen,
                &mut order,
                &mut missing_files,
                &mut notes,
            );
        }
    }

    let mut imp = Importer {
        missing: missing_files.clone(),
        ..Importer::default()
    };
    // Questions first (an inheriting file's question wins), so thresholds of every file can use them.
    for &i in &order {
        imp.read_questions(&docs[i].1);
    }
    for &i in &order {
        imp.read_file(&docs[i].0, &docs[i].1, &mut notes);
    }

    let first = &docs[roots[0]];
    let root = first.1.root_element();
    let stem = base_name(&first.0);
    let stem = stem.rsplit_once('.').map_or(stem, |(s, e)| {
        if e.eq_ignore_ascii_case("xml") {
            s
        } else {
            stem
        }
    });
    let mut variables: Vec<Variable> = imp
        .questions
        .iter()
        .filter(|q| q.used)
        .map(|q| q.variable.clone())
        .collect();
    // Questions nobody's threshold uses are still the file's questions: keep them, after the used ones.
    variables.extend(
        imp.questions
            .iter()
            .filter(|q| !q.used)
            .map(|q| q.variable.clone()),
    );
    if imp.uses_logical_processors {
        variables.push(Variable {
            name: LOGICAL_PROCESSORS.into(),
            // The built-in system overview's question word for word: asked once when both run.
            question: "How many logical processors does the server have? (Derived from the capture's Processor(*) instances other than _Total when it has them.)".into(),
            kind: VariableType::Number,
            default: Value::Number(4.0),
            derive: Some(Derive::LogicalProcessors),
            choices: Vec::new(),
        });
    }
    if imp.uses_bandwidth {
        variables.push(Variable {
            name: NETWORK_BANDWIDTH.into(),
            question:
                "What is the speed of the server's network links, in Mbit/s? (1 Gbit/s = 1000)"
                    .into(),
            kind: VariableType::Number,
            default: Value::Number(1000.0),
            derive: None,
            choices: Vec::new(),
        });
    }
    let file_names: Vec<&str> = order.iter().map(|&i| base_name(&docs[i].0)).collect();
    let pack = RulePack {
        // "pal-quicksystemoverview", also for a file already named "PAL-..." or "PAL_...".
        id: {
            let s = slug(stem);
            if s == "pal" || s.starts_with("pal-") {
                s
            } else {
                format!("pal-{s}")
            }
        },
        title: format!(
            "{} (PAL)",
            root.attribute("NAME")
                .filter(|s| !s.is_empty())
                .unwrap_or(stem)
        ),
        version: root.attribute("VERSION").unwrap_or("").to_string(),
        source: format!("PAL: {}", file_names.join(", ")),
        description: root.attribute("DESCRIPTION").unwrap_or("").into(),
        variables,
        derived: imp.derived,
        rules: imp.rules,
    };
    Ok(PalImport {
        pack,
        translated: imp.translated,
        total: imp.total,
        untranslated: imp.untranslated,
        variables: imp
            .questions
            .iter()
            .map(|q| PalQuestion {
                name: q.variable.name.clone(),
                default: q.pal_default.clone(),
                question: q.variable.question.clone(),
            })
            .collect(),
        missing_files,
        bands: imp.bands,
        notes,
    })
}

fn visit(
    i: usize,
    docs: &[(String, roxmltree::Document<'_>)],
    by_name: &HashMap<String, usize>,
    seen: &mut HashSet<usize>,
    order: &mut Vec<usize>,
    missing: &mut Vec<String>,
    notes: &mut Vec<String>,
) {
    if !seen.insert(i) {
        return;
    }
    order.push(i);
    for path in inheritance(&docs[i].1) {
        match by_name.get(&base_name(&path).to_ascii_lowercase()) {
            Some(&j) => visit(j, docs, by_name, seen, order, missing, notes),
            None => {
                let name = base_name(&path).to_string();
                notes.push(format!(
                    "{} inherits {name}, which was not given: its analyses are not imported (give it too)",
                    base_name(&docs[i].0)
                ));
                if !missing.contains(&name) {
                    missing.push(name);
                }
            }
        }
    }
}

fn inheritance(doc: &roxmltree::Document<'_>) -> Vec<String> {
    doc.root_element()
        .children()
        .filter(|n| n.is_element() && n.tag_name().name().eq_ignore_ascii_case("INHERITANCE"))
        .filter_map(|n| attr(n, "FILEPATH"))
        .filter(|p| !p.trim().is_empty())
        .map(|p| p.trim().to_string())
        .collect()
}

/// The file name of a path written with `\` or `/`.
fn base_name(path: &str) -> &str {
    path.rsplit(['\\', '/']).next().unwrap_or(path)
}

/// An attribute, its name matched case-insensitively (PAL's files are consistent, hand-written ones not).
fn attr<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.attributes()
        .find(|a| a.name().eq_ignore_ascii_case(name))
        .map(|a| a.value())
}

fn children<'a, 'i>(
    node: roxmltree::Node<'a, 'i>,
    tag: &'static str,
) -> impl Iterator<Item = roxmltree::Node<'a, 'i>> {
    node.children()
        .filter(move |n| n.is_element() && n.tag_name().name().eq_ignore_ascii_case(tag))
}

/// The text of an element (CDATA included).
fn text_of(node: roxmltree::Node<'_, '_>) -> String {
    node.descendants()
        .filter(|n| n.is_text())
        .filter_map(|n| n.text())
        .collect()
}

impl Importer {
    pub(super) fn read_questions(&mut self, doc: &roxmltree::Document<'_>) {
        for q in children(doc.root_element(), "QUESTION") {
            let Some(name) = attr(q, "QUESTIONVARNAME").map(str::trim) else {
                continue;
            };
            if !valid_name(name)
                || self
                    .questions
                    .iter()
                    .any(|x| x.pal_name.eq_ignore_ascii_case(name))
            {
                continue;
            }
            let default = attr(q, "DEFAULTVALUE").unwrap_or("").to_string();
            let mut question = collapse_ws(&text_of(q));
            // PAL's options (the OS) are a choice list, not prose.
            let choices: Vec<String> = attr(q, "OPTIONS")
                .unwrap_or("")
                .split(',')
                .map(str::trim)
                .filter(|o| !o.is_empty())
                .map(str::to_string)
                .collect();
            let (kind, value) = match parse_number(default.trim()) {
                Some(n) if choices.is_empty() => (VariableType::Number, Value::Number(n)),
                _ => (VariableType::String, Value::Text(default.clone())),
            };
            // The answers the built-in packs ask too: one name, one unit, one question.
            let mut pack_name = name.to_string();
            if name.eq_ignore_ascii_case("PhysicalMemory") && kind == VariableType::Number {
                pack_name = PHYSICAL_MEMORY_GB.into();
                question = PHYSICAL_MEMORY_QUESTION.into();
            }
            if question.is_empty() && !choices.is_empty() {
                question = format!("{name}?");
            }
            self.questions.push(Question {
                pal_name: name.to_string(),
                variable: Variable {
                    name: pack_name,
                    question,
                    kind,
                    default: value,
                    derive: None,
                    choices,
                },
                pal_default: default,
                used: false,
            });
        }
    }

    pub(super) fn read_file(
        &mut self,
        file: &str,
        doc: &roxmltree::Document<'_>,
        notes: &mut Vec<String>,
    ) {
        let file = base_name(file);
        // Every data source of the file: PAL resolves collection variables across analyses.
        let mut global: HashMap<String, DataSource> = HashMap::new();
        for a in children(doc.root_element(), "ANALYSIS") {
            for (k, v) in data_sources(a) {
                global.entry(k).or_insert(v);
            }
        }
        for a in children(doc.root_element(), "ANALYSIS") {
            let name = attr(a, "NAME").unwrap_or("").trim().to_string();
            let thresholds: Vec<_> = children(a, "THRESHOLD").collect();
            let id_key = attr(a, "ID")
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().to_ascii_lowercase())
                .unwrap_or_else(|| format!("name:{}", name.to_ascii_lowercase()));
            if let Some(by) = self.analysis_ids.get(&id_key) {
                notes.push(format!(
                    "{file}: analysis {name:?} is defined again in {by}, whose definition is used"
                ));
                continue;
            }
            self.analysis_ids.insert(id_key, file.to_string());
            let enabled =
                attr(a, "ENABLED").is_none_or(|e| !e.trim().eq_ignore_ascii_case("false"));
            let mut sources = global.clone();
            sources.extend(data_sources(a));
            for d in children(a, "DATASOURCE") {
                if let (Some(written), Some(primary)) = (written_path(d), primary_spelling(a, d)) {
                    notes.push(format!(
                        "{file}: analysis {name:?} reads DATASOURCE {written} as {primary}, its \
                         PRIMARYDATASOURCE, the same name but for white space (PAL matches the \
                         DATASOURCE as written and finds no values in a log whose counter is spelled \
                         {primary})"
                    ));
                }
            }
            let category = category(
                attr(a, "CATEGORY")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .unwrap_or("PAL"),
            );
            let desc_node = children(a, "DESCRIPTION").next();
            let desc_html = desc_node.map(text_of).unwrap_or_default();
            let mut references = references_in(&desc_html);
            references.push(Reference {
                title: format!("PAL threshold file {file}, analysis {name:?}"),
                url: PAL_URL.into(),
            });
            let description = description::blocks(&desc_html);
            let group = slug(&name);
            for (n, t) in thresholds.iter().enumerate() {
                self.total += 1;
                let t_name = attr(*t, "NAME").unwrap_or("").trim().to_string();
                let fail = |reason: Reason| Untranslated {
                    analysis: name.clone(),
                    threshold: t_name.clone(),
                    code: reason.code,
                    reason: reason.message,
                };
                if !enabled {
                    self.untranslated.push(fail(Reason::new(
                        ReasonCode::Disabled,
                        "the analysis is disabled in the PAL file (ENABLED=\"False\")",
                    )));
                    continue;
                }
                let severity = match attr(*t, "CONDITION").map(str::trim) {
                    Some(c) if c.eq_ignore_ascii_case("warning") => Severity::Warning,
                    Some(c) if c.eq_ignore_ascii_case("critical") => Severity::Critical,
                    other => {
                        self.untranslated.push(fail(Reason::new(
                            ReasonCode::Condition,
                            format!(
                                "CONDITION {:?} is neither Warning nor Critical",
                                other.unwrap_or("")
                            ),
                        )));
                        continue;
                    }
                };
                let code = children(*t, "CODE").next().map(text_of).unwrap_or_default();
                let calls = match self.run(&code, &sources) {
                    Ok(calls) => calls,
                    Err(reason) => {
                        self.untranslated.push(fail(reason));
                        continue;
                    }
                };
                match self.rules_of(&calls, &sources, Command::Static) {
                    Err(reason) => self.untranslated.push(fail(reason)),
                    Ok(parts) => {
                        // The threshold's own DESCRIPTION (rare), then the analysis'.
                        let mut blocks = children(*t, "DESCRIPTION")
                            .next()
                            .map(|d| description::blocks(&text_of(d)))
                            .unwrap_or_default();
                        blocks.extend(description.iter().cloned());
                        let rule_desc = if blocks.is_empty() {
                            Text::default()
                        } else {
                            Text::Rich(blocks)
                        };
                        let base = format!("{group}-{}", n + 1);
                        for (k, p) in parts.into_iter().enumerate() {
                            let mut id = if k == 0 {
                                base.clone()
                            } else {
                                format!("{base}-{}", k + 1)
                            };
                            while !self.rule_ids.insert(id.clone()) {
                                id.push_str("-x");
                            }
                            let (threshold, tmin, tmax) = split_clamps(p.threshold);
                            self.rules.push(Rule {
                                id,
                                group: Some(group.clone()),
                                title: if t_name.is_empty() {
                                    name.clone()
                                } else {
                                    t_name.clone()
                                },
                                category: category.clone(),
                                description: rule_desc.clone(),
                                references: references.clone(),
                                counter: p.source.path.clone(),
                                instances: if p.source.exclude.is_empty() {
                                    None
                                } else {
                                    Some(Instances {
                                        include: Vec::new(),
                                        exclude: p.source.exclude.clone(),
                                    })
                                },
                                kind: if p.trend {
                                    RuleKind::Trend
                                } else {
                                    RuleKind::Static
                                },
                                stats: None,
                                severity,
                                operator: p.operator,
                                threshold: to_threshold(&threshold),
                                threshold_min: tmin,
                                threshold_max: tmax,
                                min_duration_percent: None,
                                for_seconds: None,
                                episode: None,
                                growth: None,
                            });
                        }
                        self.translated += 1;
                    }
                }
            }
            // Chart bands.
            for chart in children(a, "CHART") {
                for series in children(chart, "SERIES") {
                    let sname = attr(series, "NAME").unwrap_or("").trim();
                    let severity = if sname.eq_ignore_ascii_case("warning") {
                        Severity::Warning
                    } else if sname.eq_ignore_ascii_case("critical") {
                        Severity::Critical
                    } else {
                        notes.push(format!(
                            "{file}: chart series {sname:?} of {name:?} is neither Warning nor Critical"
                        ));
                        continue;
                    };
                    let code = children(series, "CODE")
                        .next()
                        .map(text_of)
                        .unwrap_or_default();
                    let res = self
                        .run(&code, &sources)
                        .and_then(|c| self.rules_of(&c, &sources, Command::Chart));
                    match res {
                        Ok(parts) => {
                            for p in parts {
                                self.bands.push(ChartBand {
                                    analysis: name.clone(),
                                    counter: p.source.path.clone(),
                                    severity,
                                    min: to_threshold(&p.band_min),
                                    max: to_threshold(&p.threshold),
                                });
                            }
                        }
                        Err(reason) => notes.push(format!(
                            "{file}: {sname} band of {name:?} not translated: {reason}"
                        )),
                    }
                }
            }
        }
    }
}

fn data_sources(a: roxmltree::Node<'_, '_>) -> Vec<(String, DataSource)> {
    let mut list = plain_data_sources(a);
    // Derived series PAL generates the same way in every file that has them: % Network Utilization
    // (Sent, Received) = Bytes Total/sec (Sent/sec, Received/sec) * 8 / Current Bandwidth * 100.
    for d in children(a, "DATASOURCE") {
        let Some(var) = attr(d, "COLLECTIONVARNAME").map(|v| v.trim().to_ascii_lowercase()) else {
            continue;
        };
        let code: String = children(d, "CODE")
            .next()
            .map(text_of)
            .unwrap_or_default()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect::<String>()
            .to_ascii_lowercase();
        if code.is_empty() || !code.contains("*8)") || !code.contains("*100") {
            continue;
        }
        let mentioned = |suffixes: &[&str]| {
            list.iter()
                .filter(|(k, src)| {
                    !src.generated
                        && code.contains(&format!("${k}["))
                        && suffixes
                            .iter()
                            .any(|suf| src.path.to_ascii_lowercase().ends_with(suf))
                })
                .map(|(_, src)| src.path.clone())
                .collect::<Vec<_>>()
        };
        let bandwidth = mentioned(&["\\current bandwidth"]);
        let bytes = mentioned(&[
            "\\bytes total/sec",
            "\\bytes sent/sec",
            "\\bytes received/sec",
        ]);
        if let ([_], [b]) = (bandwidth.as_slice(), bytes.as_slice()) {
            let b = b.clone();
            if let Some((_, src)) = list.iter_mut().find(|(k, _)| *k == var) {
                src.utilization_of = Some(b);
            }
        }
    }
    list
}

fn plain_data_sources(a: roxmltree::Node<'_, '_>) -> Vec<(String, DataSource)> {
    children(a, "DATASOURCE")
        .filter_map(|d| {
            let var = attr(d, "COLLECTIONVARNAME")?.trim();
            let written = written_path(d)?;
            let generated = is_generated(d);
            let path = primary_spelling(a, d).unwrap_or(written).to_string();
            // ISCOUNTEROBJECTREGULAREXPRESSION: PAL matches the object with a regular expression,
            // `(MSSQL|SQLServer).*:Access Methods`, so that named SQL Server instances (MSSQL$NAME:)
            // count too. The Perfmon wildcard `*:Access Methods` says the same.
            let object_regex = attr(d, "ISCOUNTEROBJECTREGULAREXPRESSION")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("true"));
            let path = if object_regex {
                wildcard_object_prefix(&path)
            } else {
                path
            };
            let exclude = children(d, "EXCLUDE")
                .filter_map(|e| attr(e, "INSTANCE"))
                .map(|s| s.to_string())
                .collect();
            let code =
                generated.then(|| children(d, "CODE").next().map(text_of).unwrap_or_default());
            Some((
                var.to_ascii_lowercase(),
                DataSource {
                    generated,
                    path,
                    exclude,
                    utilization_of: None,
                    code,
                },
            ))
        })
        .collect()
}

/// A DATASOURCE that PAL computes (TYPE="Generated") rather than reads from the log.
fn is_generated(d: roxmltree::Node<'_, '_>) -> bool {
    attr(d, "TYPE").is_some_and(|t| t.trim().eq_ignore_ascii_case("generated"))
}

/// A DATASOURCE's counter path: its EXPRESSIONPATH, or its NAME.
fn written_path<'a>(d: roxmltree::Node<'a, '_>) -> Option<&'a str> {
    Some(
        attr(d, "EXPRESSIONPATH")
            .filter(|s| !s.trim().is_empty())
            .or_else(|| attr(d, "NAME"))?
            .trim(),
    )
}

/// The ANALYSIS's PRIMARYDATASOURCE, for a counter DATASOURCE of it written the same but for white space:
/// SQLServer.xml (and the 2008 R2, 2012 and 2014 files) read `\SQLServer:Memory Manager\Target Server
/// Memory(KB)`, their PRIMARYDATASOURCE `...\Target Server Memory (KB)`, SQL Server's counter name. PAL
/// matches the DATASOURCE as written, which no log has, so its Target - Total Server Memory analysis
/// never has values; the import reads the counter the file's author meant, and says so in a note.
fn primary_spelling<'a>(a: roxmltree::Node<'a, '_>, d: roxmltree::Node<'a, '_>) -> Option<&'a str> {
    if is_generated(d) {
        return None;
    }
    let written = written_path(d)?;
    let primary = attr(a, "PRIMARYDATASOURCE")?.trim();
    // ASCII folding, as every other name comparison of the importer (PAL's paths are ASCII).
    let squashed = |s: &str| -> Vec<u8> {
        s.bytes()
            .filter(|b| !b.is_ascii_whitespace())
            .map(|b| b.to_ascii_lowercase())
            .collect()
    };
    (!primary.eq_ignore_ascii_case(written) && squashed(primary) == squashed(written))
        .then_some(primary)
}

/// `\SQLServer:Access Methods\Full Scans/sec` -> `\*:Access Methods\Full Scans/sec`; a path whose
/// object has no `:`, or that names a machine, is kept.
fn wildcard_object_prefix(path: &str) -> String {
    let Some(rest) = path.strip_prefix('\\').filter(|r| !r.starts_with('\\')) else {
        return path.to_string();
    };
    let (object, tail) = rest.split_once('\\').unwrap_or((rest, ""));
    match object.split_once(':') {
        Some((_, name)) if !tail.is_empty() => format!("\\*:{name}\\{tail}"),
        _ => path.to_string(),
    }
}

pub(super) fn valid_name(s: &str) -> bool {
    let mut b = s.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// PAL's CATEGORY as the built-in packs name it, so that findings of both group together: every disk
/// object is Disk, Processor Information is Processor, SQL Server's objects are SQL Server, and so on;
/// a category with no counterpart is kept as PAL writes it.
fn category(pal: &str) -> String {
    let l = pal.to_ascii_lowercase();
    let has = |p: &str| l.contains(p);
    // Products first: "Hyper-V Hypervisor Logical Processor" is Hyper-V, not Processor.
    let c = if has("sqlserver") || has("mssql") || has("sql server") {
        "SQL Server"
    } else if has("hyper-v") {
        "Hyper-V"
    } else if has("asp.net")
        || has("w3svc")
        || has("w3wp")
        || has("web service")
        || has("http service")
        || has("app_pool")
        || l == "iis"
    {
        "IIS and ASP.NET"
    } else if has(".net clr") || l == ".net" {
        ".NET CLR"
    } else if has("msexchange") || has("exchange") {
        return pal.to_string();
    } else if has("disk") || l == "storage" {
        "Disk"
    } else if has("processor") || l == "cpu" {
        "Processor"
    } else if l == "memory" || l == "cache" || has("paging file") {
        "Memory"
    } else if has("network") || has("tcp") || has("ipv4") || has("ipv6") || l == "udp" {
        "Network"
    } else if l == "process" || l == "thread" {
        "Process"
    } else if l == "system" || l == "server" || l == "objects" || l == "server work queues" {
        "System"
    } else {
        return pal.to_string();
    };
    c.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_and_object_prefixes() {
        assert_eq!(
            base_name("C:\\PAL\\QuickSystemOverview.xml"),
            "QuickSystemOverview.xml"
        );
        assert_eq!(
            wildcard_object_prefix("\\SQLServer:Access Methods\\Full Scans/sec"),
            "\\*:Access Methods\\Full Scans/sec"
        );
        assert_eq!(
            wildcard_object_prefix("\\Memory\\Pages/sec"),
            "\\Memory\\Pages/sec"
        );
        // With a machine the path is kept (PAL's files name none).
        assert_eq!(
            wildcard_object_prefix("\\\\SRV\\SQLServer:Locks(*)\\x"),
            "\\\\SRV\\SQLServer:Locks(*)\\x"
        );
    }
}
