//! PAL import: PAL (Performance Analysis of Logs, clinthuffman/PAL, MIT) threshold XML files into a
//! [`RulePack`], without ever evaluating PowerShell.
//!
//! A PAL file holds QUESTIONs (variables), ANALYSIS elements with DATASOURCEs (counter paths with
//! EXCLUDEd instances, or "Generated" series PAL computes in PowerShell), THRESHOLDs whose CODE is a
//! PowerShell snippet calling `StaticThreshold`, CHART bands (`StaticChartThreshold`) and
//! `<INHERITANCE FILEPATH="..."/>`. The snippet is read symbolically: literal one-liners, sizes (`100MB`),
//! `-IsTrendOnly $True`, assignments from QUESTION variables, `If ($v -lt 64) { $v = 64 }` clamps,
//! `$CollectionOfProcessor... .Count - 1` (logical processors), `[Math]::Round`, If/Else (on a
//! string answer, `$OS.substring(0,2) -eq '32'`, or on numbers, `$UserVa -gt 2048`) and `switch` with
//! literal cases become threshold expressions (`is(OS, '...')`, `gt(UserVa, 2048)`: the answer itself
//! drives the branch); collection names are matched as PAL substitutes them
//! (`$CollectionOf...==>...`); anything else is reported untranslated with the reason. docs/rule-packs.md
//! lists the forms and the rates measured on PAL's own files (tests/vectors/pal).

use super::error::AnalysisError;
use super::expr::{Cmp, TextTest};

mod description;
mod generated;
use super::pack::{
    Derive, Instances, Operator, Reference, Rule, RuleKind, RulePack, Severity, Text, Threshold,
    Value, Variable, VariableType,
};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// What `importPalThresholds` returns: the pack, how much of the files it holds, and why the rest not.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PalImport {
    pub pack: RulePack,
    /// THRESHOLD elements translated into rules.
    pub translated: usize,
    /// THRESHOLD elements read (of the files given and the inherited files found).
    pub total: usize,
    /// Every THRESHOLD left out, with the reason: `translated + untranslated.len() == total`.
    pub untranslated: Vec<Untranslated>,
    /// PAL's QUESTIONs, as the files ask them.
    pub variables: Vec<PalQuestion>,
    /// Inherited files (`<INHERITANCE FILEPATH>`) that were not given; the rest imported.
    pub missing_files: Vec<String>,
    /// CHART warning/critical bands (`StaticChartThreshold`), translated like thresholds.
    pub bands: Vec<ChartBand>,
    /// What else the reader noticed (a missing inherited file, an analysis overridden by another file,
    /// a band it could not translate).
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Untranslated {
    /// The ANALYSIS NAME.
    pub analysis: String,
    /// The THRESHOLD NAME.
    pub threshold: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PalQuestion {
    pub name: String,
    pub default: String,
    pub question: String,
}

/// A chart band of an analysis: values between `min` and `max` are drawn in the severity's colour.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChartBand {
    pub analysis: String,
    pub counter: String,
    pub severity: Severity,
    pub min: Threshold,
    pub max: Threshold,
}

/// How deep a snippet may nest (parentheses, unary operators, If blocks) and how deep an expression it
/// builds may be: far beyond PAL's files, and bounded so that hostile input cannot exhaust the stack
/// (a panic in wasm kills the page). The core's threshold parser allows 64 levels.
const MAX_DEPTH: usize = 32;
/// If statements and switch cases per snippet. Each branch can duplicate an expression (an If/Else
/// repeats its condition; a switch its subject, once per case), so they are bounded; MAX_NODES bounds
/// what they build. QuickSystemOverview.xml's Pool Paged snippets need the most: 13 If statements (the
/// guard, the clamps and the /3GB tests of the 32-bit OS cases) and 13 + 2 * 33 switch cases (the OS
/// cases with default, and in the 64-bit XP and 2003 cases a switch on the RAM with 32 cases and a
/// default): 92. 128 leaves room for a file a little larger, not for an exponential one.
const MAX_BRANCHES: usize = 128;
/// Nodes of an expression the importer builds (those Pool Paged thresholds have about 600: 3,882
/// characters printed).
const MAX_NODES: usize = 4096;

/// The pack variable logical processors are read into (derived from the capture).
pub const LOGICAL_PROCESSORS: &str = "logicalProcessors";

/// The pack variable a derived % Network Utilization compares bytes/sec with: the links' speed in
/// Mbit/s, the built-in system overview's own question (one question, one unit, when both run).
pub const NETWORK_BANDWIDTH: &str = "LinkSpeedMbps";

/// PAL's `PhysicalMemory` answer (GB) under the built-in packs' name for it.
pub const PHYSICAL_MEMORY_GB: &str = "PhysicalMemoryGB";

/// The built-in system overview's question for `PhysicalMemoryGB`, word for word, so a viewer that
/// shows both packs asks once.
const PHYSICAL_MEMORY_QUESTION: &str = "How much physical memory (RAM) does the server have, in GB? (PowerShell: (Get-CimInstance Win32_ComputerSystem).TotalPhysicalMemory / 1GB)";

const PAL_URL: &str = "https://github.com/clinthuffman/PAL";

/// Imports PAL threshold files given as (file name, XML text). Files inherited by another given file
/// (`<INHERITANCE FILEPATH>`, matched on the file name, case-insensitively) are read through it; an
/// analysis defined in the inheriting file wins over one of the same ID in the inherited file, as in PAL.
/// XML that is not well formed is an error with its line and column; everything else is reported.
pub fn import_pal(files: &[(String, String)]) -> Result<PalImport, AnalysisError> {
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

/// `[a-z0-9-]+` from any text: "Process % Processor Time" -> "process-processor-time".
fn slug(s: &str) -> String {
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

struct Question {
    /// The name PAL's CODE uses (`$PhysicalMemory`); `variable.name` is the pack's
    /// (`PhysicalMemoryGB`, the built-in packs' name for the same answer).
    pal_name: String,
    variable: Variable,
    pal_default: String,
    used: bool,
}

#[derive(Clone)]
struct DataSource {
    generated: bool,
    path: String,
    exclude: Vec<String>,
    /// A Generated "% Network Utilization" PAL computes as bytes/sec * 8 / Current Bandwidth * 100:
    /// the bytes/sec counter it divides (the rule compares it with the `NetworkBandwidth` variable).
    utilization_of: Option<String>,
    /// A Generated data source's CODE (read by `generated::translate` when a rule uses it).
    code: Option<String>,
}

#[derive(Default)]
struct Importer {
    questions: Vec<Question>,
    uses_logical_processors: bool,
    /// A % Network Utilization series was derived: the pack asks for `NetworkBandwidth`.
    uses_bandwidth: bool,
    rules: Vec<Rule>,
    /// The Generated data sources translated into derived series.
    derived: Vec<super::pack::Derived>,
    rule_ids: HashSet<String>,
    analysis_ids: HashMap<String, String>,
    translated: usize,
    total: usize,
    untranslated: Vec<Untranslated>,
    bands: Vec<ChartBand>,
    /// Inherited files that were not given.
    missing: Vec<String>,
}

impl Importer {
    fn read_questions(&mut self, doc: &roxmltree::Document<'_>) {
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

    fn read_file(&mut self, file: &str, doc: &roxmltree::Document<'_>, notes: &mut Vec<String>) {
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
                let fail = |reason: String| Untranslated {
                    analysis: name.clone(),
                    threshold: t_name.clone(),
                    reason,
                };
                if !enabled {
                    self.untranslated.push(fail(
                        "the analysis is disabled in the PAL file (ENABLED=\"False\")".into(),
                    ));
                    continue;
                }
                let severity = match attr(*t, "CONDITION").map(str::trim) {
                    Some(c) if c.eq_ignore_ascii_case("warning") => Severity::Warning,
                    Some(c) if c.eq_ignore_ascii_case("critical") => Severity::Critical,
                    other => {
                        self.untranslated.push(fail(format!(
                            "CONDITION {:?} is neither Warning nor Critical",
                            other.unwrap_or("")
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

    /// Runs a CODE snippet symbolically; the StaticThreshold / StaticChartThreshold calls it makes.
    fn run(
        &mut self,
        code: &str,
        sources: &HashMap<String, DataSource>,
    ) -> Result<Vec<Call>, String> {
        let toks = lex(code)?;
        // Hand-written rules that walk the instances and time slices themselves say so first.
        for t in &toks {
            if let Tok::Word(w) = t {
                let lw = w.to_ascii_lowercase();
                if matches!(lw.as_str(), "for" | "foreach" | "while" | "foreach-object") {
                    return Err(format!(
                        "loops over instances or time slices (`{w}`): a hand-written rule that PAL runs as PowerShell"
                    ));
                }
                if lw == "createalert" {
                    return Err("raises its own alerts (CreateAlert) from several counters".into());
                }
            }
        }
        let mut st = State::default();
        let mut p = Parser {
            toks: &toks,
            i: 0,
            depth: 0,
            branches: 0,
            imp: self,
            sources,
        };
        p.block(&mut st, false)?;
        if p.i < toks.len() {
            return Err(format!("unexpected {} in the snippet", toks[p.i].show()));
        }
        Ok(st.calls)
    }

    fn rules_of(
        &mut self,
        calls: &[Call],
        sources: &HashMap<String, DataSource>,
        want: Command,
    ) -> Result<Vec<Part>, String> {
        let calls: Vec<&Call> = calls.iter().filter(|c| c.command == want).collect();
        if calls.is_empty() {
            return Err(match want {
                Command::Static => "the snippet makes no StaticThreshold call".into(),
                Command::Chart => "the snippet makes no StaticChartThreshold call".into(),
            });
        }
        let mut out = Vec::new();
        for c in calls {
            let Some(src) = sources.get(&c.collection.to_ascii_lowercase()) else {
                return Err(format!(
                    "${} is not a DATASOURCE collection of the file",
                    c.collection
                ));
            };
            if let (true, Some(bytes)) = (src.generated, &src.utilization_of) {
                // utilization% = bytes/s * 8 / bandwidth * 100 > T  <=>  bytes/s > T * bandwidth / 800,
                // with the bandwidth in bit/s = LinkSpeedMbps * 1e6: bytes/s > T * LinkSpeedMbps * 1250.
                self.uses_bandwidth = true;
                let scale = |e: &Expr| {
                    Expr::bin(
                        '*',
                        e.clone(),
                        Expr::bin('*', Expr::Var(NETWORK_BANDWIDTH.into()), Expr::Num(1250.0)),
                    )
                };
                out.push(Part {
                    source: DataSource {
                        generated: false,
                        path: bytes.clone(),
                        exclude: src.exclude.clone(),
                        utilization_of: None,
                        code: None,
                    },
                    operator: c.operator,
                    threshold: scale(&c.threshold),
                    band_min: scale(&c.band_min),
                    trend: c.trend,
                });
                continue;
            }
            if src.generated {
                let source = self.derive(src, sources).map_err(|why| {
                    format!(
                        "Generated data source {}: PAL computes it in PowerShell, in a form not translated: {why}",
                        src.path
                    )
                })?;
                out.push(Part {
                    source,
                    operator: c.operator,
                    threshold: c.threshold.clone(),
                    band_min: c.band_min.clone(),
                    trend: c.trend,
                });
                continue;
            }
            out.push(Part {
                source: src.clone(),
                operator: c.operator,
                threshold: c.threshold.clone(),
                band_min: c.band_min.clone(),
                trend: c.trend,
            });
        }
        Ok(out)
    }

    /// A Generated data source as a derived series of the pack (added once): the source a rule on it
    /// selects.
    fn derive(
        &mut self,
        src: &DataSource,
        sources: &HashMap<String, DataSource>,
    ) -> Result<DataSource, String> {
        let code = src.code.as_deref().unwrap_or("");
        let output = sources
            .iter()
            .find(|(_, s)| s.generated && s.path == src.path)
            .map(|(k, _)| k.clone())
            .unwrap_or_default();
        let g = generated::translate(code, &output)?;
        let mut inputs = Vec::new();
        for (k, coll) in g.inputs.iter().enumerate() {
            let input = sources
                .get(coll)
                .filter(|s| !s.generated)
                .ok_or_else(|| format!("${coll} is not a DATASOURCE of counters"))?;
            inputs.push(super::pack::DerivedInput {
                name: generated::input_name(k),
                counter: input.path.clone(),
            });
        }
        let id = slug(counter_name(&src.path));
        let d = super::pack::Derived {
            id: id.clone(),
            counter: src.path.clone(),
            inputs,
            pair_by: g.pair_by,
            expression: g.expression.to_string(),
        };
        match self.derived.iter().find(|x| x.id == id) {
            Some(x) if *x != d => {
                return Err(format!(
                    "two Generated series named {:?} are computed differently",
                    counter_name(&src.path)
                ))
            }
            Some(_) => {}
            None => self.derived.push(d),
        }
        Ok(DataSource {
            generated: false,
            path: src.path.clone(),
            exclude: src.exclude.clone(),
            utilization_of: None,
            code: None,
        })
    }

    /// Said after an unknown variable when an inherited file is missing: it may be asked there.
    fn missing_hint(&self) -> String {
        match self.missing.as_slice() {
            [] => String::new(),
            m => format!(
                " (it may be asked by {}, inherited but not given)",
                m.join(", ")
            ),
        }
    }

    fn question(&mut self, name: &str) -> Option<&mut Question> {
        self.questions
            .iter_mut()
            .find(|q| q.pal_name.eq_ignore_ascii_case(name))
    }

    /// The test of a string answer (`$OS.substring(0,2) -eq '32'`) as a 1/0 expression over the answer
    /// itself: `is(OS, '...')`, `startsWith(OS, '32')`, `at(OS, 4, 'x')`, or 1 minus it for `-ne`.
    fn text_test(&mut self, test: &StringTest) -> Result<Expr, String> {
        let q = self
            .question(&test.question)
            .ok_or_else(|| format!("${} is not a QUESTION", test.question))?;
        q.used = true;
        let name = q.variable.name.clone();
        let lit = test.literal.clone();
        let t = match test.substring {
            None => Some(TextTest::Is(lit)),
            // substring(start, len) has len characters: never equal to a literal of another length.
            Some((_, len)) if len != lit.chars().count() => None,
            Some((0, _)) => Some(TextTest::StartsWith(lit)),
            Some((start, _)) => Some(TextTest::At(start, lit)),
        };
        let t = t.map_or(Expr::Num(0.0), |t| Expr::Test(t, name));
        Ok(if test.negated {
            Expr::sub(Expr::Num(1.0), t)
        } else {
            t
        })
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

/// The reason for a `[Math]` use the importer does not translate.
const MATH_FORMS: &str = "uses [Math] other than Round(x) or Round(x, digits 0 to 15)";

fn plain_data_sources(a: roxmltree::Node<'_, '_>) -> Vec<(String, DataSource)> {
    children(a, "DATASOURCE")
        .filter_map(|d| {
            let var = attr(d, "COLLECTIONVARNAME")?.trim();
            let path = attr(d, "EXPRESSIONPATH")
                .filter(|s| !s.trim().is_empty())
                .or_else(|| attr(d, "NAME"))?
                .trim()
                .to_string();
            let generated =
                attr(d, "TYPE").is_some_and(|t| t.trim().eq_ignore_ascii_case("generated"));
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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Command {
    Static,
    Chart,
}

#[derive(Clone, Debug)]
struct Call {
    command: Command,
    collection: String,
    operator: Operator,
    /// StaticThreshold: -Threshold; StaticChartThreshold: -MaxThreshold.
    threshold: Expr,
    /// StaticChartThreshold: -MinThreshold.
    band_min: Expr,
    trend: bool,
}

struct Part {
    source: DataSource,
    operator: Operator,
    threshold: Expr,
    band_min: Expr,
    trend: bool,
}

// ------------------------------------------------------------------------------------------ expressions

/// A threshold expression over pack variables, printed in the pack's expression syntax.
#[derive(Clone, Debug, PartialEq)]
enum Expr {
    Num(f64),
    Var(String),
    Bin(char, Box<Expr>, Box<Expr>),
    Neg(Box<Expr>),
    Max(Box<Expr>, Box<Expr>),
    Min(Box<Expr>, Box<Expr>),
    /// `gt(a, b)` ...: 1 or 0.
    Cmp(Cmp, Box<Expr>, Box<Expr>),
    /// `is(OS, '...')` ...: a test of a string answer, 1 or 0.
    Test(TextTest, String),
}

impl Expr {
    fn bin(op: char, a: Expr, b: Expr) -> Expr {
        // Fold constants; (x + c) - c and friends as written by PAL (`.Count - 1`) simplify to x.
        match (&a, &b) {
            (Expr::Num(x), Expr::Num(y)) => {
                let v = match op {
                    '+' => x + y,
                    '-' => x - y,
                    '*' => x * y,
                    _ => x / y,
                };
                if v.is_finite() {
                    return Expr::Num(v);
                }
            }
            (Expr::Bin('+', l, r), Expr::Num(y)) if op == '-' => {
                if let Expr::Num(x) = **r {
                    return if x == *y {
                        (**l).clone()
                    } else {
                        Expr::bin('+', (**l).clone(), Expr::Num(x - y))
                    };
                }
            }
            (_, Expr::Num(y))
                if (*y == 1.0 && (op == '*' || op == '/'))
                    || (*y == 0.0 && (op == '+' || op == '-')) =>
            {
                return a;
            }
            (Expr::Num(x), _) if (*x == 1.0 && op == '*') || (*x == 0.0 && op == '+') => return b,
            // A branch that is never taken: (1 - c) * 0 is 0.
            (Expr::Num(z), _) | (_, Expr::Num(z)) if *z == 0.0 && op == '*' => {
                return Expr::Num(0.0)
            }
            _ => {}
        }
        Expr::Bin(op, Box::new(a), Box::new(b))
    }
    fn sub(a: Expr, b: Expr) -> Expr {
        Expr::bin('-', a, b)
    }
    /// A comparison, 1 or 0; folded when both sides are numbers.
    fn cmp(c: Cmp, a: Expr, b: Expr) -> Expr {
        match (a.value(), b.value()) {
            (Some(x), Some(y)) => Expr::Num(f64::from(u8::from(c.holds(x, y)))),
            _ => Expr::Cmp(c, Box::new(a), Box::new(b)),
        }
    }
    /// Whether the tree is deeper than `n` levels; recursion never goes deeper than `n`.
    fn deeper_than(&self, n: usize) -> bool {
        if n == 0 {
            return true;
        }
        match self {
            Expr::Num(_) | Expr::Var(_) | Expr::Test(..) => false,
            Expr::Neg(a) => a.deeper_than(n - 1),
            Expr::Bin(_, a, b) | Expr::Max(a, b) | Expr::Min(a, b) | Expr::Cmp(_, a, b) => {
                a.deeper_than(n - 1) || b.deeper_than(n - 1)
            }
        }
    }
    /// Whether the tree has more than `*budget` nodes; counts no further than that.
    fn larger_than(&self, budget: &mut usize) -> bool {
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        match self {
            Expr::Num(_) | Expr::Var(_) | Expr::Test(..) => false,
            Expr::Neg(a) => a.larger_than(budget),
            Expr::Bin(_, a, b) | Expr::Max(a, b) | Expr::Min(a, b) | Expr::Cmp(_, a, b) => {
                a.larger_than(budget) || b.larger_than(budget)
            }
        }
    }
    fn has_var(&self) -> bool {
        match self {
            Expr::Num(_) => false,
            Expr::Var(_) | Expr::Test(..) => true,
            Expr::Neg(a) => a.has_var(),
            Expr::Bin(_, a, b) | Expr::Max(a, b) | Expr::Min(a, b) | Expr::Cmp(_, a, b) => {
                a.has_var() || b.has_var()
            }
        }
    }
    fn value(&self) -> Option<f64> {
        match self {
            Expr::Num(n) => Some(*n),
            _ => None,
        }
    }
    fn prec(&self) -> u8 {
        match self {
            Expr::Bin('+' | '-', ..) => 1,
            Expr::Bin(..) => 2,
            Expr::Neg(_) => 3,
            _ => 4,
        }
    }
    fn print(&self) -> String {
        match self {
            Expr::Num(n) => fmt_num(*n),
            Expr::Var(v) => v.clone(),
            Expr::Neg(a) => {
                let s = a.print();
                if a.prec() < 3 {
                    format!("-({s})")
                } else {
                    format!("-{s}")
                }
            }
            Expr::Max(a, b) => format!("max({}, {})", a.print(), b.print()),
            Expr::Min(a, b) => format!("min({}, {})", a.print(), b.print()),
            Expr::Cmp(c, a, b) => format!("{}({}, {})", c.name(), a.print(), b.print()),
            Expr::Test(t, v) => {
                let q = |s: &str| format!("'{}'", s.replace('\'', "''"));
                match t {
                    TextTest::Is(l) => format!("is({v}, {})", q(l)),
                    TextTest::StartsWith(l) => format!("startsWith({v}, {})", q(l)),
                    TextTest::At(n, l) => format!("at({v}, {n}, {})", q(l)),
                }
            }
            Expr::Bin(op, a, b) => {
                let p = self.prec();
                let l = if a.prec() < p {
                    format!("({})", a.print())
                } else {
                    a.print()
                };
                // Right operand of - and / needs parentheses at equal precedence.
                let r = if b.prec() < p || (b.prec() == p && (*op == '-' || *op == '/')) {
                    format!("({})", b.print())
                } else {
                    b.print()
                };
                format!("{l} {op} {r}")
            }
        }
    }
}

fn fmt_num(n: f64) -> String {
    if n < 0.0 {
        format!("-{}", fmt_num(-n))
    } else {
        format!("{n}")
    }
}

/// An expression no deeper than MAX_DEPTH and of at most MAX_NODES nodes, or why not.
fn bounded(e: Expr) -> Result<Expr, String> {
    if e.deeper_than(MAX_DEPTH) {
        Err(format!(
            "builds an expression deeper than {MAX_DEPTH} levels"
        ))
    } else if e.larger_than(&mut { MAX_NODES }) {
        Err(format!(
            "builds an expression of more than {MAX_NODES} terms"
        ))
    } else {
        Ok(e)
    }
}

/// Outer max(e, c) / min(e, c) with a constant c become the rule's thresholdMin / thresholdMax.
fn split_clamps(e: Expr) -> (Expr, Option<f64>, Option<f64>) {
    let mut e = e;
    let (mut lo, mut hi) = (None, None);
    loop {
        match e {
            Expr::Max(a, b) if lo.is_none() && b.value().is_some() && a.has_var() => {
                lo = b.value();
                e = *a;
            }
            Expr::Min(a, b) if hi.is_none() && b.value().is_some() && a.has_var() => {
                hi = b.value();
                e = *a;
            }
            other => return (other, lo, hi),
        }
    }
}

fn to_threshold(e: &Expr) -> Threshold {
    match e.value() {
        Some(n) => Threshold::Number(n),
        None => Threshold::Expression(e.print()),
    }
}

// ------------------------------------------------------------------------------------------ lexer

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    /// Statement separator: a new line or `;`.
    Sep,
    /// `$name`, with an optional `.member` and its numeric arguments (`.Count`, `.substring(0,2)`).
    Var(String, Option<(String, Vec<f64>)>),
    /// `$(`
    SubExpr,
    Num(f64),
    Str(String),
    /// `-Word`: a parameter or an operator (`-Operator`, `-lt`).
    Dash(String),
    Word(String),
    Cast(String),
    Punct(char),
}

impl Tok {
    fn show(&self) -> String {
        match self {
            Tok::Sep => "end of line".into(),
            Tok::Var(n, None) => format!("${n}"),
            Tok::Var(n, Some((m, _))) => format!("${n}.{m}"),
            Tok::SubExpr => "$(".into(),
            Tok::Num(n) => fmt_num(*n),
            Tok::Str(s) => format!("'{s}'"),
            Tok::Dash(w) => format!("-{w}"),
            Tok::Word(w) => format!("`{w}`"),
            Tok::Cast(c) => format!("[{c}]"),
            Tok::Punct(c) => format!("`{c}`"),
        }
    }
}

fn lex(code: &str) -> Result<Vec<Tok>, String> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let word_char = |ch: char| ch.is_alphanumeric() || ch == '_';
    while i < c.len() {
        let ch = c[i];
        match ch {
            '\n' | ';' => {
                out.push(Tok::Sep);
                i += 1;
            }
            '`' if i + 1 < c.len() && (c[i + 1] == '\n' || c[i + 1] == '\r') => i += 2,
            c0 if c0.is_whitespace() => i += 1,
            '#' => {
                while i < c.len() && c[i] != '\n' {
                    i += 1;
                }
            }
            '$' => {
                if c.get(i + 1) == Some(&'(') {
                    out.push(Tok::SubExpr);
                    i += 2;
                    continue;
                }
                let s = i + 1;
                i = s;
                // PAL substitutes a DATASOURCE's COLLECTIONVARNAME as written, so a collection name
                // carries what a PowerShell variable would not (Exchange2013.xml:
                // `$CollectionOfMSExchangeDatabase==>InstancesIOLogWritesAverageLatency`; `#`, `&`):
                // `==>`, `#` and `&` go on the name when a name character follows.
                loop {
                    let odd = if c[i..].starts_with(&['=', '=', '>']) {
                        3
                    } else {
                        usize::from(matches!(c.get(i), Some('#' | '&')))
                    };
                    if odd > 0 && i > s && c.get(i + odd).is_some_and(|&x| word_char(x)) {
                        i += odd;
                    } else if i < c.len() && (word_char(c[i]) || c[i] == ':') {
                        i += 1;
                    } else {
                        break;
                    }
                }
                let name: String = c[s..i].iter().collect();
                if name.is_empty() {
                    return Err("a `$` without a variable name".into());
                }
                let mut member = None;
                if c.get(i) == Some(&'.') && c.get(i + 1).is_some_and(|x| x.is_alphabetic()) {
                    let ms = i + 1;
                    i = ms;
                    while i < c.len() && word_char(c[i]) {
                        i += 1;
                    }
                    let m: String = c[ms..i].iter().collect();
                    let mut args = Vec::new();
                    if c.get(i) == Some(&'(') {
                        let close = c[i..]
                            .iter()
                            .position(|&x| x == ')')
                            .ok_or("a method call without `)`")?;
                        let inner: String = c[i + 1..i + close].iter().collect();
                        for a in inner.split(',').filter(|a| !a.trim().is_empty()) {
                            args.push(parse_number(a.trim()).ok_or_else(|| {
                                format!("calls .{m}() with {:?}, not a number", a.trim())
                            })?);
                        }
                        i += close + 1;
                    }
                    member = Some((m.to_ascii_lowercase(), args));
                }
                out.push(Tok::Var(name, member));
            }
            '[' => {
                let close = c[i..]
                    .iter()
                    .position(|&x| x == ']')
                    .ok_or("a `[` without `]`")?;
                out.push(Tok::Cast(
                    c[i + 1..i + close]
                        .iter()
                        .collect::<String>()
                        .to_ascii_lowercase(),
                ));
                i += close + 1;
            }
            '\'' | '"' => {
                let mut s = String::new();
                i += 1;
                loop {
                    match c.get(i) {
                        None => return Err("a string without its closing quote".into()),
                        Some(&q) if q == ch => {
                            if c.get(i + 1) == Some(&ch) {
                                s.push(ch);
                                i += 2;
                            } else {
                                i += 1;
                                break;
                            }
                        }
                        Some(&x) => {
                            s.push(x);
                            i += 1;
                        }
                    }
                }
                out.push(Tok::Str(s));
            }
            '-' if c.get(i + 1).is_some_and(|x| x.is_alphabetic()) => {
                let s = i + 1;
                i = s;
                while i < c.len() && word_char(c[i]) {
                    i += 1;
                }
                out.push(Tok::Dash(
                    c[s..i].iter().collect::<String>().to_ascii_lowercase(),
                ));
            }
            d if d.is_ascii_digit()
                || (d == '.' && c.get(i + 1).is_some_and(|x| x.is_ascii_digit())) =>
            {
                let s = i;
                while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '.') {
                    i += 1;
                }
                let t: String = c[s..i].iter().collect();
                out.push(Tok::Num(
                    parse_number(&t).ok_or_else(|| format!("{t:?} is not a number"))?,
                ));
            }
            w if w.is_alphabetic() || w == '_' => {
                let s = i;
                while i < c.len() && (word_char(c[i]) || c[i] == '-') {
                    i += 1;
                }
                out.push(Tok::Word(c[s..i].iter().collect()));
            }
            p => {
                out.push(Tok::Punct(p));
                i += 1;
            }
        }
    }
    Ok(out)
}

/// A PowerShell number: `80`, `0.10`, `1e3`, sizes `100MB` (1024-based: KB MB GB TB PB).
fn parse_number(t: &str) -> Option<f64> {
    let lower = t.to_ascii_lowercase();
    let (digits, mult) = [
        ("kb", 1024f64),
        ("mb", 1024f64.powi(2)),
        ("gb", 1024f64.powi(3)),
        ("tb", 1024f64.powi(4)),
        ("pb", 1024f64.powi(5)),
    ]
    .iter()
    .find_map(|(s, m)| lower.strip_suffix(s).map(|d| (d.to_string(), *m)))
    .unwrap_or((lower.clone(), 1.0));
    if digits.is_empty()
        || !digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'-' || b == b'+')
    {
        return None;
    }
    let n: f64 = digits.parse().ok()?;
    n.is_finite().then_some(n * mult)
}

// ------------------------------------------------------------------------------------------ snippets

#[derive(Clone, Default)]
struct State {
    /// Local PowerShell variables (lower case) -> their value as an expression, or why not.
    env: HashMap<String, Result<Expr, String>>,
    /// Locals that hold a string answer or a part of it (`$SixtyFourBit = $OS.substring(0,2)`):
    /// local -> (question, substring(start, length)).
    aliases: HashMap<String, (String, Option<(usize, usize)>)>,
    calls: Vec<Call>,
}

/// A string answer, or the part of it `substring(start, length)` takes: (question, substring).
type TextSubject = (String, Option<(usize, usize)>);

struct StringTest {
    question: String,
    substring: Option<(usize, usize)>,
    literal: String,
    negated: bool,
}

struct Parser<'t, 'm> {
    toks: &'t [Tok],
    i: usize,
    /// Nesting of parentheses, unary operators and If blocks, bounded by MAX_DEPTH.
    depth: usize,
    /// If statements and switch cases read, bounded by MAX_BRANCHES.
    branches: usize,
    imp: &'m mut Importer,
    sources: &'m HashMap<String, DataSource>,
}

impl Parser<'_, '_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i)
    }
    fn skip_seps(&mut self) {
        while self.peek() == Some(&Tok::Sep) {
            self.i += 1;
        }
    }
    fn expect(&mut self, t: Tok) -> Result<(), String> {
        match self.peek() {
            Some(x) if *x == t => {
                self.i += 1;
                Ok(())
            }
            Some(x) => Err(format!("expected {}, found {}", t.show(), x.show())),
            None => Err(format!(
                "expected {}, found the end of the snippet",
                t.show()
            )),
        }
    }

    /// Statements until the end (or `}` when `braced`).
    fn block(&mut self, st: &mut State, braced: bool) -> Result<(), String> {
        loop {
            self.skip_seps();
            match self.peek() {
                None if braced => return Err("a `{` block without `}`".into()),
                None => return Ok(()),
                Some(Tok::Punct('}')) if braced => return Ok(()),
                _ => self.statement(st)?,
            }
        }
    }

    fn braced(&mut self, st: &mut State) -> Result<(), String> {
        self.skip_seps();
        self.expect(Tok::Punct('{'))?;
        self.block(st, true)?;
        self.expect(Tok::Punct('}'))
    }

    fn end_of_statement(&mut self) -> Result<(), String> {
        match self.peek() {
            None | Some(Tok::Sep) | Some(Tok::Punct('}')) => Ok(()),
            Some(t) => Err(format!("unexpected {} after a statement", t.show())),
        }
    }

    fn statement(&mut self, st: &mut State) -> Result<(), String> {
        let Some(t) = self.peek().cloned() else {
            return Ok(());
        };
        match t {
            Tok::Word(w) => {
                let lw = w.to_ascii_lowercase();
                match lw.as_str() {
                    "if" => self.if_statement(st),
                    "staticthreshold" => self.command(st, Command::Static),
                    "staticchartthreshold" => self.command(st, Command::Chart),
                    "for" | "foreach" | "while" | "do" | "foreach-object" => {
                        Err(format!("loops over instances or values (`{w}`)"))
                    }
                    "switch" => self.switch_statement(st),
                    _ => Err(format!("calls `{w}`, which is not StaticThreshold")),
                }
            }
            Tok::Cast(_) | Tok::Var(..) => {
                // [Int] $x = expr
                let save = self.i;
                if matches!(t, Tok::Cast(_)) {
                    self.i += 1;
                }
                match (self.toks.get(self.i).cloned(), self.toks.get(self.i + 1)) {
                    (Some(Tok::Var(name, None)), Some(Tok::Punct('='))) => {
                        self.i += 2;
                        let rhs = self.i;
                        // `$SixtyFourBit = $OS.substring(0,2)`, `$OS = [string] $OS.ToUpper()`: a string
                        // answer (or part of it) kept as an alias, for an If or a switch that compares it
                        // with literals (ignoring case, so ToUpper and ToLower change nothing).
                        if self.peek() == Some(&Tok::Cast("string".into())) {
                            self.i += 1;
                        }
                        if let (Some(Tok::Var(q, member)), true) = (
                            self.peek().cloned(),
                            matches!(
                                self.toks.get(self.i + 1),
                                None | Some(Tok::Sep) | Some(Tok::Punct('}'))
                            ),
                        ) {
                            // A string answer, or a variable no file given defines (a question of a
                            // missing inherited file): the If that uses it says which.
                            let qkey = q.to_ascii_lowercase();
                            let case = member.as_ref().is_some_and(|(m, a)| {
                                (m == "toupper" || m == "tolower") && a.is_empty()
                            });
                            let alias = st.aliases.get(&qkey).cloned();
                            let is_string_question = match self.imp.question(&q) {
                                _ if alias.is_some() => member.is_none() || case,
                                Some(x) => x.variable.kind == VariableType::String,
                                None => {
                                    !st.env.contains_key(&qkey)
                                        && !self.sources.contains_key(&qkey)
                                        && member.as_ref().is_some_and(|(m, _)| m == "substring")
                                        || case
                                }
                            };
                            let target = match (&member, alias) {
                                (_, Some(a)) => Some(a),
                                (None, None) => Some((q.clone(), None)),
                                (Some((m, a)), None) if m == "substring" && a.len() == 2 => {
                                    Some((q.clone(), Some((a[0] as usize, a[1] as usize))))
                                }
                                _ if case => Some((q.clone(), None)),
                                _ => None,
                            };
                            if let (true, Some(target)) = (is_string_question, target) {
                                self.i += 1;
                                let key = name.to_ascii_lowercase();
                                st.env.remove(&key);
                                st.aliases.insert(key, target);
                                return self.end_of_statement();
                            }
                        }
                        self.i = rhs;
                        let v = self.expr(st);
                        // A value that does not translate is kept as its reason: it only matters if used.
                        let v = match v {
                            Ok(e) => Ok(e),
                            Err(r) => {
                                self.skip_to_end();
                                Err(r)
                            }
                        };
                        st.env.insert(name.to_ascii_lowercase(), v);
                        self.end_of_statement()
                    }
                    _ => {
                        self.i = save;
                        Err(format!(
                            "a statement starting with {} is not an assignment",
                            t.show()
                        ))
                    }
                }
            }
            other => Err(format!("a statement starting with {}", other.show())),
        }
    }

    fn skip_to_end(&mut self) {
        let mut depth = 0i32;
        while let Some(t) = self.peek() {
            match t {
                Tok::Sep if depth <= 0 => return,
                Tok::Punct('}') if depth <= 0 => return,
                Tok::Punct('(' | '{') | Tok::SubExpr => depth += 1,
                Tok::Punct(')' | '}') => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
    }

    /// One more If statement or switch case: an error past MAX_BRANCHES.
    fn branch(&mut self, what: &str) -> Result<(), String> {
        self.branches += 1;
        if self.branches > MAX_BRANCHES {
            return Err(format!(
                "more than {MAX_BRANCHES} If statements and switch cases ({what})"
            ));
        }
        Ok(())
    }

    fn if_statement(&mut self, st: &mut State) -> Result<(), String> {
        self.branch("an If")?;
        self.enter()?;
        let r = self.if_statement_inner(st);
        self.depth -= 1;
        r
    }

    /// Nesting one level deeper (parentheses, unary operators, If blocks): an error past MAX_DEPTH, so
    /// that a hostile snippet cannot exhaust the stack.
    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(format!("nests deeper than {MAX_DEPTH} levels"));
        }
        Ok(())
    }

    /// The string answer (question, substring) a `$name` or `$name.substring(s, n)` stands for, if it
    /// is one: a string QUESTION, a local alias of one, or (`Err`) a name no file read defines.
    fn text_subject(
        &mut self,
        st: &State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Option<Result<TextSubject, String>> {
        // Err(name): the answer it stands for is no QUESTION of the files read.
        let key = name.to_ascii_lowercase();
        let substring = match member {
            None => None,
            Some((m, args)) if m == "substring" && args.len() == 2 => {
                Some((args[0] as usize, args[1] as usize))
            }
            Some(_) => return None,
        };
        let (question, substring) = match st.aliases.get(&key) {
            Some(a) if member.is_none() => a.clone(),
            Some(_) => return None,
            None if st.env.contains_key(&key) || self.sources.contains_key(&key) => return None,
            None => (name.to_string(), substring),
        };
        match self.imp.question(&question).map(|x| x.variable.kind) {
            Some(VariableType::String) => Some(Ok((question, substring))),
            Some(VariableType::Number) => None,
            None => Some(Err(question)),
        }
    }

    fn if_statement_inner(&mut self, st: &mut State) -> Result<(), String> {
        self.i += 1; // If (or ElseIf)
        self.expect(Tok::Punct('('))?;
        let cond_start = self.i;
        // A string answer compared with a literal: `If ($SixtyFourBit -eq '32')`.
        if let (Some(Tok::Var(q, member)), Some(Tok::Dash(op)), Some(Tok::Str(literal))) = (
            self.peek().cloned(),
            self.toks.get(self.i + 1).cloned(),
            self.toks.get(self.i + 2).cloned(),
        ) {
            if matches!(op.as_str(), "ceq" | "cne") {
                return Err(format!(
                    "a case-sensitive comparison (-{op}): the translated tests ignore case, as -eq does"
                ));
            }
            if matches!(op.as_str(), "eq" | "ieq" | "ne" | "ine") {
                match self.text_subject(st, &q, member.as_ref()) {
                    Some(Err(q)) => {
                        return Err(format!(
                            "compares ${q} with '{literal}', but ${q} is not a QUESTION of the files read{}",
                            self.imp.missing_hint()
                        ))
                    }
                    Some(Ok((question, substring))) => {
                        self.i += 3;
                        self.expect(Tok::Punct(')'))?;
                        let test = self.imp.text_test(&StringTest {
                            question,
                            substring,
                            literal,
                            negated: op.ends_with("ne"),
                        })?;
                        return self.branches_of(st, test, None);
                    }
                    None => {}
                }
            }
        }
        // Numbers: `If ($UserVa -gt 2048)`, `If ($iKernelVa -lt $iMemPoolMax)`, `If ($n -eq 0)`.
        let left = self.expr(st)?;
        let op = match self.peek() {
            Some(Tok::Dash(o)) => o.trim_start_matches('i').to_string(),
            _ => return Err(self.condition_error(cond_start)),
        };
        let Some(&(cmp, _)) = Cmp::ALL.iter().find(|(_, n)| *n == op) else {
            return Err(self.condition_error(cond_start));
        };
        self.i += 1;
        let right = self.expr(st)?;
        if self.peek() != Some(&Tok::Punct(')')) {
            return Err(self.condition_error(cond_start));
        }
        self.i += 1;
        let cond = Expr::cmp(cmp, left.clone(), right.clone());
        self.branches_of(st, cond, Some((cmp, left, right)))
    }

    /// The blocks of an If whose condition (1 or 0) is `cond`: `{ ... }`, then `Else { ... }` or
    /// `ElseIf (...) { ... }` if they follow; the state after them is `cond * yes + (1 - cond) * no`.
    fn branches_of(
        &mut self,
        st: &mut State,
        cond: Expr,
        compared: Option<(Cmp, Expr, Expr)>,
    ) -> Result<(), String> {
        let mut yes = st.clone();
        self.braced(&mut yes)?;
        let mut no = st.clone();
        if self.else_follows() {
            self.skip_seps();
            let elseif =
                matches!(self.peek(), Some(Tok::Word(w)) if w.eq_ignore_ascii_case("elseif"));
            if elseif {
                // ElseIf (...) { ... } is Else { If (...) { ... } }.
                self.if_statement(&mut no)?;
            } else {
                self.i += 1; // Else
                self.braced(&mut no)?;
            }
        }
        let mut cases = vec![yes];
        self.answers_before(&mut cases, &mut no);
        combine(st, &[cond], cases, no, compared.as_ref())
    }

    /// A numeric answer set in some branches only (`If ($PhysicalMemory -eq 0) {$PhysicalMemory = 1}`)
    /// keeps the answer in the others.
    fn answers_before(&mut self, cases: &mut [State], default: &mut State) {
        // Distinct without sorting: a sort of strings costs the wasm module about 13 KB.
        let mut keys: Vec<String> = Vec::new();
        for k in cases
            .iter()
            .chain(std::iter::once(&*default))
            .flat_map(|s| s.env.keys())
        {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
        for k in keys {
            let Some(q) = self
                .imp
                .question(&k)
                .filter(|q| q.variable.kind == VariableType::Number)
            else {
                continue;
            };
            let answer = Expr::Var(q.variable.name.clone());
            for s in cases.iter_mut().chain(std::iter::once(&mut *default)) {
                s.env.entry(k.clone()).or_insert_with(|| Ok(answer.clone()));
            }
        }
    }

    /// `switch (<subject>) { <literal> { ... } ... default { ... } }` on a string answer (text cases) or
    /// a number (number cases). PowerShell runs every case whose literal equals the subject (`-eq`,
    /// ignoring case), and `default` when none does; with distinct literals at most one case runs, so
    /// the switch is a chain of If/ElseIf. Duplicate literals, script-block or variable cases and
    /// switch options (-regex, -wildcard, ...) are reported.
    fn switch_statement(&mut self, st: &mut State) -> Result<(), String> {
        self.enter()?;
        let r = self.switch_inner(st);
        self.depth -= 1;
        r
    }

    fn switch_inner(&mut self, st: &mut State) -> Result<(), String> {
        self.i += 1; // switch
        if let Some(Tok::Dash(o)) = self.peek() {
            return Err(format!(
                "a `switch -{o}`: only a switch comparing a value with literal cases is translated"
            ));
        }
        self.expect(Tok::Punct('('))?;
        let text = match (self.peek().cloned(), self.toks.get(self.i + 1)) {
            (Some(Tok::Var(q, member)), Some(Tok::Punct(')'))) => {
                match self.text_subject(st, &q, member.as_ref()) {
                    Some(Err(q)) => {
                        return Err(format!(
                            "a switch on ${q}, but ${q} is not a QUESTION of the files read{}",
                            self.imp.missing_hint()
                        ))
                    }
                    Some(Ok(subject)) => {
                        self.i += 1;
                        Some(subject)
                    }
                    None => None,
                }
            }
            _ => None,
        };
        let number = match text {
            Some(_) => None,
            None => Some(self.expr(st)?),
        };
        self.expect(Tok::Punct(')'))?;
        self.skip_seps();
        self.expect(Tok::Punct('{'))?;
        let mut conds = Vec::new();
        let mut cases = Vec::new();
        let mut seen: Vec<String> = Vec::new();
        let mut default = None;
        loop {
            self.skip_seps();
            let case = match self.peek().cloned() {
                Some(Tok::Punct('}')) => {
                    self.i += 1;
                    break;
                }
                None => return Err("a `switch` without `}`".into()),
                Some(Tok::Word(w)) if w.eq_ignore_ascii_case("default") => {
                    if default.is_some() {
                        return Err("a switch with two `default` cases".into());
                    }
                    self.i += 1;
                    None
                }
                Some(Tok::Str(lit)) if text.is_some() => {
                    self.i += 1;
                    Some((lit.to_lowercase(), format!("'{lit}'"), Err(lit)))
                }
                Some(Tok::Num(n)) if number.is_some() => {
                    self.i += 1;
                    Some((fmt_num(n), fmt_num(n), Ok(n)))
                }
                Some(Tok::Punct('-')) if number.is_some() => match self.toks.get(self.i + 1) {
                    Some(&Tok::Num(n)) => {
                        self.i += 2;
                        Some((fmt_num(-n), fmt_num(-n), Ok(-n)))
                    }
                    _ => return Err(self.case_error()),
                },
                Some(_) => return Err(self.case_error()),
            };
            self.branch("a switch case")?;
            let mut state = st.clone();
            self.braced(&mut state)?;
            let Some((key, shown, lit)) = case else {
                default = Some(state);
                continue;
            };
            if seen.contains(&key) {
                return Err(format!(
                    "a switch with the case {shown} twice (PowerShell runs both)"
                ));
            }
            seen.push(key);
            let cond = match (lit, &text, &number) {
                (Ok(n), _, Some(x)) => Expr::cmp(Cmp::Eq, x.clone(), Expr::Num(n)),
                (Err(literal), Some((question, substring)), _) => {
                    self.imp.text_test(&StringTest {
                        question: question.clone(),
                        substring: *substring,
                        literal,
                        negated: false,
                    })?
                }
                _ => return Err(self.case_error()),
            };
            conds.push(cond);
            cases.push(state);
        }
        let mut default = default.unwrap_or_else(|| st.clone());
        self.answers_before(&mut cases, &mut default);
        combine(st, &conds, cases, default, None)
    }

    fn case_error(&self) -> String {
        format!(
            "a switch case {} that is not a literal of the subject's kind (text for a string answer, a number for a number); script-block and variable cases are not translated",
            self.peek().map_or("at the end".into(), Tok::show)
        )
    }

    fn else_follows(&self) -> bool {
        let mut j = self.i;
        while self.toks.get(j) == Some(&Tok::Sep) {
            j += 1;
        }
        match self.toks.get(j) {
            Some(Tok::Word(w)) => {
                w.eq_ignore_ascii_case("else") || w.eq_ignore_ascii_case("elseif")
            }
            _ => false,
        }
    }

    fn condition_error(&self, start: usize) -> String {
        let end = self.toks[start..]
            .iter()
            .position(|t| *t == Tok::Punct(')'))
            .map_or(self.toks.len(), |p| start + p);
        let text: Vec<String> = self.toks[start..end].iter().map(Tok::show).collect();
        format!(
            "the condition `{}` is not a translated form (two numbers compared with -lt -le -gt -ge -eq -ne, or a string answer compared with a literal)",
            text.join(" ")
        )
    }

    /// StaticThreshold -CollectionOfCounterInstances $C -Operator 'gt' -Threshold <expr> [-IsTrendOnly $True]
    /// StaticChartThreshold -CollectionOfCounterInstances $C -MinThreshold <expr> -MaxThreshold <expr> ...
    fn command(&mut self, st: &mut State, command: Command) -> Result<(), String> {
        self.i += 1;
        let mut collection = None;
        let mut operator = None;
        let mut threshold = None;
        let mut band_min = None;
        let mut trend = false;
        let mut greater = true;
        loop {
            match self.peek().cloned() {
                None | Some(Tok::Sep) | Some(Tok::Punct('}')) => break,
                Some(Tok::Dash(p)) => {
                    self.i += 1;
                    match p.as_str() {
                        "collectionofcounterinstances" => match self.peek().cloned() {
                            Some(Tok::Var(c, None)) => {
                                self.i += 1;
                                collection = Some(c);
                            }
                            t => {
                                return Err(format!(
                                    "-CollectionOfCounterInstances {}",
                                    t.map_or("".into(), |t| t.show())
                                ))
                            }
                        },
                        "operator" => {
                            let o = match self.peek().cloned() {
                                Some(Tok::Str(s)) | Some(Tok::Word(s)) => s,
                                t => {
                                    return Err(format!(
                                        "-Operator {}",
                                        t.map_or("".into(), |t| t.show())
                                    ))
                                }
                            };
                            self.i += 1;
                            operator = Some(match o.to_ascii_lowercase().as_str() {
                                "gt" => Operator::Gt,
                                "ge" => Operator::Ge,
                                "lt" => Operator::Lt,
                                "le" => Operator::Le,
                                "eq" => Operator::Eq,
                                "ne" => Operator::Ne,
                                other => {
                                    return Err(format!(
                                        "-Operator {other:?} is not gt, ge, lt, le, eq or ne"
                                    ))
                                }
                            });
                        }
                        "threshold" | "maxthreshold" => threshold = Some(self.expr(st)?),
                        "minthreshold" => band_min = Some(self.expr(st)?),
                        "istrendonly" => trend = self.boolean()?,
                        "isoperatorgreaterthan" => greater = self.boolean()?,
                        "usemaxvalue" => {
                            self.boolean()?;
                        }
                        other => return Err(format!("the parameter -{other} is not translated")),
                    }
                }
                Some(t) => return Err(format!("unexpected {} in a threshold call", t.show())),
            }
        }
        let collection =
            collection.ok_or("a threshold call without -CollectionOfCounterInstances")?;
        let threshold = threshold.ok_or(match command {
            Command::Static => "a StaticThreshold call without -Threshold",
            Command::Chart => "a StaticChartThreshold call without -MaxThreshold",
        })?;
        let operator = match command {
            Command::Static => operator.ok_or("a StaticThreshold call without -Operator")?,
            Command::Chart => {
                if greater {
                    Operator::Gt
                } else {
                    Operator::Lt
                }
            }
        };
        if command == Command::Chart && band_min.is_none() {
            return Err("a StaticChartThreshold call without -MinThreshold".into());
        }
        st.calls.push(Call {
            command,
            collection,
            operator,
            threshold,
            band_min: band_min.unwrap_or(Expr::Num(0.0)),
            trend,
        });
        Ok(())
    }

    fn boolean(&mut self) -> Result<bool, String> {
        let b = match self.peek() {
            Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("true") => true,
            Some(Tok::Var(v, None)) if v.eq_ignore_ascii_case("false") => false,
            Some(Tok::Num(n)) => *n != 0.0,
            t => {
                return Err(format!(
                    "expected $True or $False, found {}",
                    t.map_or("the end".into(), |t| t.show())
                ))
            }
        };
        self.i += 1;
        Ok(b)
    }

    fn expr(&mut self, st: &State) -> Result<Expr, String> {
        let mut a = self.term(st)?;
        while let Some(Tok::Punct(op @ ('+' | '-'))) = self.peek().cloned() {
            self.i += 1;
            let b = self.term(st)?;
            a = bounded(Expr::bin(op, a, b))?;
        }
        Ok(a)
    }

    fn term(&mut self, st: &State) -> Result<Expr, String> {
        let mut a = self.unary(st)?;
        while let Some(Tok::Punct(op @ ('*' | '/'))) = self.peek().cloned() {
            self.i += 1;
            let b = self.unary(st)?;
            if op == '/' && b == Expr::Num(0.0) {
                return Err("divides by zero".into());
            }
            a = bounded(Expr::bin(op, a, b))?;
        }
        Ok(a)
    }

    fn unary(&mut self, st: &State) -> Result<Expr, String> {
        match self.peek().cloned() {
            Some(Tok::Punct('-')) => {
                self.i += 1;
                self.enter()?;
                let a = self.unary(st);
                self.depth -= 1;
                bounded(match a? {
                    Expr::Num(n) => Expr::Num(-n),
                    other => Expr::Neg(Box::new(other)),
                })
            }
            Some(Tok::Cast(c)) if c == "math" => self.math_call(st),
            Some(Tok::Cast(c)) => {
                // [Int], [Double], ... : numbers stay numbers ([Int] rounds; docs/rule-packs.md says so).
                if !matches!(
                    c.as_str(),
                    "int" | "int32" | "int64" | "double" | "decimal" | "float" | "single" | "long"
                ) {
                    return Err(format!("a cast to [{c}]"));
                }
                self.i += 1;
                self.enter()?;
                let a = self.unary(st);
                self.depth -= 1;
                a
            }
            _ => self.primary(st),
        }
    }

    /// `[Math]::Round(x, 0)` (QuickSystemOverview.xml's pool snippets round the RAM answer with it) is
    /// read like `[Int] x`: the number as given (docs/rule-packs.md says so). Other [Math] methods (none in
    /// the PAL files measured; Min and Max cost the wasm module bytes its budget lacked) are reported.
    fn math_call(&mut self, st: &State) -> Result<Expr, String> {
        // One message for every [Math] form left out: each case's own text cost the wasm module bytes
        // it could not spare (docs/performance.md's size budget).
        let name = match (
            self.toks.get(self.i + 1),
            self.toks.get(self.i + 2),
            self.toks.get(self.i + 3),
            self.toks.get(self.i + 4),
        ) {
            (
                Some(Tok::Punct(':')),
                Some(Tok::Punct(':')),
                Some(Tok::Word(w)),
                Some(Tok::Punct('(')),
            ) => w.to_ascii_lowercase(),
            _ => return Err(MATH_FORMS.into()),
        };
        if name != "round" {
            return Err(MATH_FORMS.into());
        }
        self.i += 5;
        self.enter()?;
        let r = self.math_args(st);
        self.depth -= 1;
        r
    }

    fn math_args(&mut self, st: &State) -> Result<Expr, String> {
        self.skip_seps();
        let a = self.expr(st)?;
        self.skip_seps();
        let second = if self.peek() == Some(&Tok::Punct(',')) {
            self.i += 1;
            self.skip_seps();
            let b = self.expr(st)?;
            self.skip_seps();
            Some(b)
        } else {
            None
        };
        self.expect(Tok::Punct(')'))?;
        match second {
            // Round(x) and Round(x, digits): digits a whole number from 0 to 15, as .NET requires.
            None => Ok(a),
            Some(Expr::Num(d)) if (0.0..=15.0).contains(&d) && d.fract() == 0.0 => Ok(a),
            Some(_) => Err(MATH_FORMS.into()),
        }
    }

    fn primary(&mut self, st: &State) -> Result<Expr, String> {
        let Some(t) = self.peek().cloned() else {
            return Err("an expression ends too early".into());
        };
        self.i += 1;
        match t {
            Tok::Num(n) => Ok(Expr::Num(n)),
            Tok::SubExpr | Tok::Punct('(') => {
                self.enter()?;
                self.skip_seps();
                let e = self.expr(st);
                self.depth -= 1;
                let e = e?;
                self.skip_seps();
                self.expect(Tok::Punct(')'))?;
                Ok(e)
            }
            Tok::Var(name, member) => self.variable(st, &name, member.as_ref()),
            Tok::Str(s) => match parse_number(s.trim()) {
                Some(n) => Ok(Expr::Num(n)),
                None => Err(format!("uses the string '{s}' as a number")),
            },
            other => Err(format!("{} where a number was expected", other.show())),
        }
    }

    fn variable(
        &mut self,
        st: &State,
        name: &str,
        member: Option<&(String, Vec<f64>)>,
    ) -> Result<Expr, String> {
        let key = name.to_ascii_lowercase();
        if let Some((m, _)) = member {
            if m == "count" {
                let src = self.sources.get(&key).ok_or_else(|| {
                    format!("${name}.Count: ${name} is not a DATASOURCE collection")
                })?;
                let object = counter_object(&src.path);
                if !object.eq_ignore_ascii_case("processor") {
                    return Err(format!(
                        "counts the instances of {} (${name}.Count)",
                        src.path
                    ));
                }
                self.imp.uses_logical_processors = true;
                // PAL's idiom for the number of logical processors is `.Count - 1` (the instances
                // and _Total), whether or not the data source EXCLUDEs _Total from the analysis.
                let lp = Expr::Var(LOGICAL_PROCESSORS.into());
                return Ok(Expr::bin('+', lp, Expr::Num(1.0)));
            }
            return Err(format!("uses ${name}.{m}"));
        }
        if let Some(v) = st.env.get(&key) {
            return v.clone();
        }
        if key == "true" {
            return Ok(Expr::Num(1.0));
        }
        if key == "false" {
            return Ok(Expr::Num(0.0));
        }
        if let Some(q) = self.imp.question(name) {
            if q.variable.kind != VariableType::Number {
                return Err(format!(
                    "uses the answer ${} (not a number: {:?}) in arithmetic",
                    q.variable.name, q.pal_default
                ));
            }
            q.used = true;
            return Ok(Expr::Var(q.variable.name.clone()));
        }
        if self.sources.contains_key(&key) {
            return Err(format!(
                "uses the values of the collection ${name} in arithmetic"
            ));
        }
        Err(format!(
            "uses ${name}, which is neither a QUESTION of the files read nor set before in the snippet{}",
            self.imp.missing_hint()
        ))
    }
}

/// `c * a + (1 - c) * b` for a 1/0 condition c (just a when a and b are the same).
fn pick(c: &Expr, a: &Expr, b: &Expr) -> Expr {
    if a == b {
        return a.clone();
    }
    Expr::bin(
        '+',
        Expr::bin('*', c.clone(), a.clone()),
        Expr::bin('*', Expr::sub(Expr::Num(1.0), c.clone()), b.clone()),
    )
}

/// c1 + c2 + ... as a balanced tree (shallow however many cases share a value).
fn any_of(cs: &[&Expr]) -> Expr {
    match cs {
        [] => Expr::Num(0.0),
        [c] => (*c).clone(),
        _ => {
            let (l, r) = cs.split_at(cs.len() / 2);
            Expr::bin('+', any_of(l), any_of(r))
        }
    }
}

/// The value of mutually exclusive branches (at most one condition is 1): branches whose value is the
/// default's drop out, branches with the same value share one condition (`(is(OS, 'A') + is(OS, 'B'))
/// * X + (1 - (...)) * rest`), the rest chain as If/ElseIf.
fn choose(conds: &[Expr], values: &[&Expr], default: &Expr) -> Result<Expr, String> {
    let mut groups: Vec<(&Expr, Vec<&Expr>)> = Vec::new();
    for (c, v) in conds.iter().zip(values) {
        if *v == default {
            continue;
        }
        match groups.iter_mut().find(|(g, _)| g == v) {
            Some(g) => g.1.push(c),
            None => groups.push((v, vec![c])),
        }
    }
    let mut rest = default.clone();
    for (v, cs) in groups.into_iter().rev() {
        rest = bounded(pick(&any_of(&cs), v, &rest))?;
    }
    Ok(rest)
}

/// `If (L op R) { $v = R }` where $v was L (and the mirrored forms) is max(L, R) or min(L, R): PAL's
/// clamps; `If ($n -eq 0) { $n = 1 }` on a count is max(n, 1) for the whole numbers a count takes.
fn clamp(compared: &(Cmp, Expr, Expr), yes: &Expr, no: &Expr) -> Option<Expr> {
    let (c, l, r) = compared;
    let max = |a: &Expr, b: &Expr| Expr::Max(Box::new(a.clone()), Box::new(b.clone()));
    let min = |a: &Expr, b: &Expr| Expr::Min(Box::new(a.clone()), Box::new(b.clone()));
    match c {
        Cmp::Lt | Cmp::Le if yes == r && no == l => Some(max(l, r)),
        Cmp::Gt | Cmp::Ge if yes == r && no == l => Some(min(l, r)),
        Cmp::Lt | Cmp::Le if yes == l && no == r => Some(min(l, r)),
        Cmp::Gt | Cmp::Ge if yes == l && no == r => Some(max(l, r)),
        Cmp::Eq if *r == Expr::Num(0.0) && *yes == Expr::Num(1.0) && no == l => {
            Some(max(l, &Expr::Num(1.0)))
        }
        _ => None,
    }
}

/// After mutually exclusive branches (an If/Else: one condition; a switch: one per case) and the
/// default (the Else, or the state before when there is none): every variable and call is chosen by
/// the conditions. A variable set in some branches only keeps its earlier value in the others, or is
/// an error (used later, it fails the rule) if it had none.
fn combine(
    st: &mut State,
    conds: &[Expr],
    cases: Vec<State>,
    default: State,
    compared: Option<&(Cmp, Expr, Expr)>,
) -> Result<(), String> {
    let all: Vec<&State> = cases.iter().chain(std::iter::once(&default)).collect();
    let mut keys: Vec<&String> = Vec::new();
    for k in all.iter().flat_map(|s| s.env.keys()) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut env = HashMap::new();
    for k in keys {
        let vals: Vec<Option<&Result<Expr, String>>> = all.iter().map(|s| s.env.get(k)).collect();
        let v = if vals.iter().all(|v| *v == vals[0]) {
            match vals[0] {
                Some(v) => v.clone(),
                None => continue,
            }
        } else if vals.iter().any(Option::is_none) {
            Err(format!(
                "${k} is set in only some branches of an If/Else or switch, and had no value before"
            ))
        } else if let Some(Err(r)) = vals.iter().flatten().find(|v| v.is_err()) {
            Err(r.clone())
        } else {
            let vals: Vec<&Expr> = vals
                .iter()
                .flatten()
                .flat_map(|v| v.as_ref().ok())
                .collect();
            let (last, values) = vals.split_last().ok_or("no branch")?;
            match (compared, values) {
                (Some(c), [yes]) => match clamp(c, yes, last) {
                    Some(e) => bounded(e),
                    None => choose(conds, values, last),
                },
                _ => choose(conds, values, last),
            }
        };
        env.insert(k.clone(), v);
    }
    st.env = env;
    let before = st.calls.len();
    let n = default.calls.len();
    if n < before || all.iter().any(|s| s.calls.len() != n) {
        return Err(
            "the branches of an If/Else or switch make a different number of threshold calls"
                .into(),
        );
    }
    for i in before..n {
        let calls: Vec<&Call> = cases.iter().map(|s| &s.calls[i]).collect();
        let d = &default.calls[i];
        if calls.iter().any(|a| {
            a.command != d.command
                || !a.collection.eq_ignore_ascii_case(&d.collection)
                || a.operator != d.operator
                || a.trend != d.trend
        }) {
            return Err(
                "the branches of an If/Else or switch call StaticThreshold on different collections or operators"
                    .into(),
            );
        }
        let mut c = d.clone();
        let thresholds: Vec<&Expr> = calls.iter().map(|a| &a.threshold).collect();
        c.threshold = choose(conds, &thresholds, &d.threshold)?;
        let mins: Vec<&Expr> = calls.iter().map(|a| &a.band_min).collect();
        c.band_min = choose(conds, &mins, &d.band_min)?;
        st.calls.push(c);
    }
    Ok(())
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

/// `\Processor(*)\% Processor Time` -> `Processor`; `\\SRV\Memory\...` -> `Memory`.
fn counter_object(path: &str) -> &str {
    let p = path
        .strip_prefix("\\\\")
        .map_or(path.trim_start_matches('\\'), |rest| {
            rest.split_once('\\').map_or(rest, |(_, r)| r)
        });
    let obj = p.split('\\').next().unwrap_or(p);
    obj.split('(').next().unwrap_or(obj).trim()
}

fn valid_name(s: &str) -> bool {
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

/// The counter part of a path: `\\PAL Generated(*)\\Ratio` is `Ratio`.
fn counter_name(path: &str) -> &str {
    path.rsplit('\\').next().unwrap_or(path)
}

fn collapse_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// PAL's descriptions are HTML in CDATA: tags out, paragraphs as new lines, entities decoded.
fn strip_html(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        out.push_str(&rest[..lt]);
        let after = &rest[lt + 1..];
        let end = after.find('>').map_or(after.len(), |e| e + 1);
        let tag: String = after
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        rest = &after[end..];
        match tag.as_str() {
            // Script and style content is not text.
            "script" | "style" if !after.starts_with('/') => {
                let close = format!("</{tag}");
                let lower = rest.to_ascii_lowercase();
                rest = match lower.find(&close) {
                    Some(c) => rest[c..].find('>').map_or("", |e| &rest[c + e + 1..]),
                    None => "",
                };
            }
            "br" | "li" | "p" | "ul" | "ol" | "div" | "tr" | "table" => out.push('\n'),
            // Inline markup (<B>, <A>, <FONT>) joins the text it wraps.
            "b" | "i" | "u" | "a" | "font" | "span" | "em" | "strong" | "code" => {}
            _ => out.push(' '),
        }
    }
    out.push_str(rest);
    let out = out
        .replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    // Spaces collapsed within lines; runs of blank lines to one.
    let lines: Vec<String> = out.lines().map(collapse_ws).collect();
    let mut text = String::new();
    let mut blank = 0;
    for l in lines {
        if l.is_empty() {
            blank += 1;
            continue;
        }
        if !text.is_empty() {
            text.push_str(if blank > 0 { "\n\n" } else { "\n" });
        }
        blank = 0;
        text.push_str(&l);
    }
    text
}

/// The links of a PAL description: `<A HREF="...">title</A>` and bare http(s) addresses.
fn references_in(html: &str) -> Vec<Reference> {
    let mut refs: Vec<Reference> = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut linked = Vec::new();
    let mut from = 0;
    while let Some(p) = lower[from..].find("href=") {
        let s = from + p + 5;
        let quote = html[s..].chars().next();
        let (start, end) = match quote {
            Some(q @ ('"' | '\'')) => {
                let st = s + 1;
                (st, html[st..].find(q).map_or(html.len(), |e| st + e))
            }
            _ => (
                s,
                html[s..]
                    .find(|c: char| c.is_whitespace() || c == '>')
                    .map_or(html.len(), |e| s + e),
            ),
        };
        let url = html[start..end].trim().to_string();
        let close = lower[end..].find("</a>").map_or(end, |e| end + e);
        let open_end = html[end..close].find('>').map_or(end, |e| end + e + 1);
        let title = strip_html(&html[open_end.min(close)..close]);
        if url.starts_with("http://") || url.starts_with("https://") {
            linked.push(url.clone());
            if !refs.iter().any(|r| r.url == url) {
                refs.push(Reference {
                    title: if title.is_empty() {
                        url.clone()
                    } else {
                        title.replace('\n', " ")
                    },
                    url,
                });
            }
        }
        from = end.max(s);
    }
    // Bare addresses in the text (not inside an HREF).
    let text = strip_html(html);
    for word in text.split(|c: char| c.is_whitespace() || c == '"' || c == '<' || c == '>') {
        if (word.starts_with("http://") || word.starts_with("https://"))
            && !refs.iter().any(|r| r.url == word)
        {
            let url = word.trim_end_matches(['.', ',', ')', ';']).to_string();
            refs.push(Reference {
                title: url.clone(),
                url,
            });
        }
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_sizes() {
        assert_eq!(parse_number("80"), Some(80.0));
        assert_eq!(parse_number("0.10"), Some(0.1));
        // 100MB = 100 * 1024 * 1024 = 104857600
        assert_eq!(parse_number("100MB"), Some(104_857_600.0));
        // 1GB = 1073741824; 8TB = 8 * 1024^4 = 8796093022208
        assert_eq!(parse_number("1gb"), Some(1_073_741_824.0));
        assert_eq!(parse_number("8TB"), Some(8_796_093_022_208.0));
        assert_eq!(parse_number("abc"), None);
        assert_eq!(parse_number("MB"), None);
    }

    #[test]
    fn expressions_print_with_the_parentheses_they_need() {
        let v = |n: &str| Expr::Var(n.into());
        let e = Expr::bin(
            '*',
            Expr::bin('*', v("PhysicalMemory"), Expr::Num(1024.0)),
            Expr::Num(0.1),
        );
        assert_eq!(e.print(), "PhysicalMemory * 1024 * 0.1");
        let e = Expr::bin('-', v("a"), Expr::bin('-', v("b"), v("c")));
        assert_eq!(e.print(), "a - (b - c)");
        let e = Expr::bin('*', Expr::bin('+', v("a"), Expr::Num(1.0)), Expr::Num(2.0));
        assert_eq!(e.print(), "(a + 1) * 2");
        // (logicalProcessors + 1) - 1 is logicalProcessors: PAL's `.Count - 1`.
        let e = Expr::sub(Expr::bin('+', v("lp"), Expr::Num(1.0)), Expr::Num(1.0));
        assert_eq!(e, v("lp"));
        assert_eq!(
            Expr::bin('*', Expr::Num(0.6), Expr::Num(2.0)).value(),
            Some(1.2)
        );
    }

    #[test]
    fn html_descriptions_become_text_and_references() {
        let html = r#"Low RAM.<BR><B>References:</B><UL><LI><A HREF="http://example.com/a">Guide &amp; more</A></LI></UL> See http://example.com/b."#;
        assert_eq!(
            strip_html(html),
            "Low RAM.\nReferences:\n\nGuide & more\n\nSee http://example.com/b."
        );
        // Unclosed tags, multi-byte text after `<`, a script with no end: text, no panic.
        assert_eq!(strip_html("a <é b"), "a");
        assert_eq!(strip_html("x<script>alert(1)"), "x");
        assert_eq!(strip_html("<B>bold</B>, <i>it</i>"), "bold, it");
        let r = references_in(html);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].title, "Guide & more");
        assert_eq!(r[0].url, "http://example.com/a");
        assert_eq!(r[1].url, "http://example.com/b");
    }

    #[test]
    fn slugs_and_objects() {
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
