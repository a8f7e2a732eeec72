//! Rule packs: the serde types of the pack format (docs/analysis.md, `js/rule-pack.schema.json`) and
//! [`RulePack::from_json`], whose errors name the JSON pointer, the line and column, and what was expected.
//!
//! Every struct denies unknown fields, so a typo (`"treshold"`) is an error rather than a rule that
//! silently never breaks.

use super::error::AnalysisError;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RulePack {
    /// `[a-z0-9-]+`, unique among packs.
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub version: String,
    /// "counterlens built-in", or "PAL: SystemOverview.xml" for an imported pack.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub description: Text,
    #[serde(default)]
    pub variables: Vec<Variable>,
    /// Series computed sample by sample from the capture's (PAL's Generated data sources).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub derived: Vec<Derived>,
    pub rules: Vec<Rule>,
}

/// A question to the user with its default (PAL's QUESTION), optionally derived from the capture.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Variable {
    /// `[A-Za-z_][A-Za-z0-9_]*`
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub question: String,
    #[serde(rename = "type", default)]
    pub kind: VariableType,
    pub default: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derive: Option<Derive>,
    /// The answers to choose from (a string variable: PAL's `DATATYPE="options"`, the OS); empty for
    /// a free answer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum VariableType {
    #[default]
    Number,
    String,
}

/// What the core can derive from the capture itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Derive {
    /// `Processor(*)` instances other than `_Total`.
    LogicalProcessors,
    /// The fastest `Network Interface(*)\Current Bandwidth` in the log, in Mbit/s.
    LinkSpeedMbps,
    /// The Windows version and build a .blg's header names ("Windows 6.1 build 7601").
    Os,
    /// A lower bound on the machine's RAM in GB: the largest `Memory\Available MBytes` in the log (the
    /// machine had at least that much free), to 0.1 GB below; used only when above the default.
    MinPhysicalMemoryGb,
}

/// A variable's value: a number or a string.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    Number(f64),
    Text(String),
}

impl Value {
    /// The number it is; text that reads as a finite number is a number (a user's `"64"`); other text is
    /// given back as the error.
    pub fn as_number(&self) -> Result<f64, &str> {
        match self {
            Value::Number(n) => Ok(*n),
            Value::Text(t) => match t.trim().parse::<f64>() {
                Ok(n) if n.is_finite() => Ok(n),
                _ => Err(t),
            },
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Number(n) => write!(f, "{n}"),
            Value::Text(s) => f.write_str(s),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Rule {
    /// Unique in the pack.
    pub id: String,
    /// Rules of one group on one series get PAL's priority: a slice broken by a warning and a critical
    /// rule counts as critical.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub title: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub category: String,
    #[serde(default, skip_serializing_if = "Text::is_empty")]
    pub description: Text,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Reference>,
    /// A counter path with Perfmon wildcards; the machine is optional.
    pub counter: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instances: Option<Instances>,
    pub kind: RuleKind,
    /// Static rules only: which slice statistics are compared (default all three, as PAL's StaticThreshold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<Vec<Stat>>,
    pub severity: Severity,
    pub operator: Operator,
    pub threshold: Threshold,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_min: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threshold_max: Option<f64>,
    /// PAL-X: break only when at least this share (0..=100) of the slice's points satisfy the comparison.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_percent: Option<f64>,
    /// Seconds: the rule breaks where the samples satisfy the comparison without interruption for at
    /// least this long (Prometheus' `for:`), independent of slicing.
    #[serde(rename = "for", default, skip_serializing_if = "Option::is_none")]
    pub for_seconds: Option<f64>,
    /// The rule breaks over episodes: stretches where the condition holds for most of a window
    /// (`docs/analysis.md`, "Episodes"), independent of slicing and of the sampling interval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub episode: Option<EpisodeSpec>,
    /// A rule of kind "trend" that judges a series' growth over the whole analysed range: one straight
    /// line fitted to its samples (`docs/analysis.md`, "Growth"), not a trend per slice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub growth: Option<GrowthSpec>,
}

/// How a growth rule judges a series (`docs/analysis.md`, "Growth"): it breaks when the least-squares
/// line through the series' samples rises past the threshold per hour, over at least `hours`, and the
/// line explains at least `steadiness` of the values' variance (R²).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrowthSpec {
    /// The fewest hours between the series' first and last sample in the range (default 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hours: Option<f64>,
    /// The least R² (0..=1, default 0.8): how much of the values' change the line explains.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steadiness: Option<f64>,
}

impl GrowthSpec {
    pub const DEFAULT_HOURS: f64 = 2.0;
    pub const DEFAULT_STEADINESS: f64 = 0.8;

    pub fn hours(&self) -> f64 {
        self.hours.unwrap_or(Self::DEFAULT_HOURS)
    }

    pub fn steadiness(&self) -> f64 {
        self.steadiness.unwrap_or(Self::DEFAULT_STEADINESS)
    }
}

/// How an episode rule judges a window of samples (`docs/analysis.md`, "Episodes").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EpisodeSpec {
    /// Seconds: the window judged at each sample (the samples of the last `window` seconds).
    pub window: f64,
    /// A window holds when more than this share (0 <= share < 1; default one half: "most of it") of its
    /// samples satisfy the comparison, or when its mean does and at least a quarter of its samples do
    /// (so that no lone spike carries a mean).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share: Option<f64>,
    /// The fewest samples a window holds (default 5, at least 2): a sparse log's window reaches back to
    /// this many samples.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<u32>,
}

impl EpisodeSpec {
    /// The fewest samples a window holds when the pack does not say.
    pub const DEFAULT_SAMPLES: u32 = 5;

    /// The share when the pack does not say: most of the window.
    pub const DEFAULT_SHARE: f64 = 0.5;

    pub fn share(&self) -> f64 {
        self.share.unwrap_or(Self::DEFAULT_SHARE)
    }

    pub fn min_samples(&self) -> usize {
        self.samples.unwrap_or(Self::DEFAULT_SAMPLES).max(2) as usize
    }
}

/// A series computed sample by sample from series of the capture (PAL's `DATASOURCE TYPE="Generated"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Derived {
    /// Unique among the pack's derived series.
    pub id: String,
    /// The path the series get, `\Object(*)\Counter`: the `*` becomes each pair's instance.
    pub counter: String,
    /// 1 to 8 named inputs.
    pub inputs: Vec<DerivedInput>,
    pub pair_by: PairBy,
    /// Per sample, over the inputs' names and the pack's variables.
    pub expression: String,
    /// A counter path with Perfmon wildcards: the series is not computed for a machine whose log has a
    /// series it matches (a stand-in for a better counter, used only where the log lacks it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DerivedInput {
    /// `[A-Za-z_][A-Za-z0-9_]*`, the name the expression uses.
    pub name: String,
    /// A counter path with Perfmon wildcards.
    pub counter: String,
}

/// How the inputs' series are matched into one derived series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PairBy {
    /// Same machine and instance (PAL's `CounterInstance` match).
    Instance,
    /// Same machine and SQL Server instance, read from the object name (`SQLServer:` = MSSQLSERVER,
    /// `MSSQL$INST1:` = INST1): PAL's `ExtractSqlNamedInstanceFromCounterObjectPath`.
    SqlInstance,
    /// Same machine.
    Machine,
}

/// Text for a user: plain, or blocks (paragraphs and lists of text, strong text and links), never
/// HTML. A viewer renders the blocks as elements with their text as text.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Text {
    Plain(String),
    Rich(Vec<Block>),
}

impl Default for Text {
    fn default() -> Self {
        Text::Plain(String::new())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Self {
        Text::Plain(s.to_string())
    }
}

impl From<String> for Text {
    fn from(s: String) -> Self {
        Text::Plain(s)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Block {
    Paragraph(Vec<Inline>),
    /// One list of inlines per item.
    List(Vec<Vec<Inline>>),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Inline {
    Text(String),
    Strong { strong: String },
    Link { link: String, text: String },
}

impl Text {
    pub fn is_empty(&self) -> bool {
        match self {
            Text::Plain(s) => s.trim().is_empty(),
            Text::Rich(b) => b.is_empty(),
        }
    }

    /// The text as one string: paragraphs and list items on lines of their own (items with "- "),
    /// links as their text.
    pub fn plain(&self) -> String {
        let blocks = match self {
            Text::Plain(s) => return s.clone(),
            Text::Rich(b) => b,
        };
        let line = |inl: &[Inline]| {
            inl.iter()
                .map(|i| match i {
                    Inline::Text(t)
                    | Inline::Strong { strong: t }
                    | Inline::Link { text: t, .. } => t.as_str(),
                })
                .collect::<String>()
        };
        let mut out: Vec<String> = Vec::new();
        for b in blocks {
            match b {
                Block::Paragraph(p) => out.push(line(p)),
                Block::List(items) => out.extend(items.iter().map(|it| format!("- {}", line(it)))),
            }
        }
        out.join("\n")
    }

    /// Every link's address.
    pub fn links(&self) -> Vec<&str> {
        let Text::Rich(blocks) = self else {
            return Vec::new();
        };
        let items = blocks.iter().flat_map(|b| match b {
            Block::Paragraph(p) => std::slice::from_ref(p).iter(),
            Block::List(items) => items.iter(),
        });
        items
            .flatten()
            .filter_map(|i| match i {
                Inline::Link { link, .. } => Some(link.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The length of the text a reader sees.
    pub fn len(&self) -> usize {
        self.plain().len()
    }
}

/// Whether `url` may be a link in a description or a reference: http or https only.
pub fn safe_url(url: &str) -> bool {
    let u = url.trim_start().to_ascii_lowercase();
    u.starts_with("https://") || u.starts_with("http://")
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    pub title: String,
    pub url: String,
}

/// Instance include/exclude wildcards (`*`, `?`), case-insensitive.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Instances {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub include: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RuleKind {
    /// Breaks in a slice when min, avg or max satisfies the comparison (PAL's StaticThreshold).
    Static,
    /// Breaks when the slice's trend does (PAL's `-IsTrendOnly $True`).
    Trend,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Severity {
    Warning,
    Critical,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Operator {
    Gt,
    Ge,
    Lt,
    Le,
    Eq,
    /// Not equal: a state counter that should hold one value (PAL's `-Operator 'ne'`, HyperV30.xml's
    /// "CSV Volume Cache State").
    Ne,
}

impl Operator {
    /// Every operator with its name.
    pub const ALL: [(Operator, &'static str); 6] = [
        (Operator::Gt, "gt"),
        (Operator::Ge, "ge"),
        (Operator::Lt, "lt"),
        (Operator::Le, "le"),
        (Operator::Eq, "eq"),
        (Operator::Ne, "ne"),
    ];

    /// `value operator threshold`; false for NaN.
    #[inline]
    pub fn holds(self, value: f64, threshold: f64) -> bool {
        match self {
            Operator::Gt => value > threshold,
            Operator::Ge => value >= threshold,
            Operator::Lt => value < threshold,
            Operator::Le => value <= threshold,
            Operator::Eq => value == threshold,
            // NaN != x is true in IEEE 754: a missing value is not a value that differs.
            Operator::Ne => !value.is_nan() && !threshold.is_nan() && value != threshold,
        }
    }

    /// The words of a finding's message ("above 80").
    pub fn words(self) -> &'static str {
        match self {
            Operator::Gt => "above",
            Operator::Ge => "at or above",
            Operator::Lt => "below",
            Operator::Le => "at or below",
            Operator::Eq => "equal to",
            Operator::Ne => "not equal to",
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Operator::Gt => "gt",
            Operator::Ge => "ge",
            Operator::Lt => "lt",
            Operator::Le => "le",
            Operator::Eq => "eq",
            Operator::Ne => "ne",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Stat {
    Min,
    Avg,
    Max,
    Trend,
    /// The samples themselves (a rule with `for`).
    Value,
}

impl Stat {
    pub fn name(self) -> &'static str {
        match self {
            Stat::Min => "min",
            Stat::Avg => "avg",
            Stat::Max => "max",
            Stat::Trend => "trend",
            Stat::Value => "value",
        }
    }
}

/// A threshold: a number, or an expression over variables (`"PhysicalMemoryGB * 1024 * 0.10"`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Threshold {
    Number(f64),
    Expression(String),
}

/// `Value` and `Threshold` read as a number or a string by one small visitor rather than serde's
/// `untagged` (which buffers the value and, failing, says only "did not match any variant"): the error
/// says what was found ("invalid type: boolean `true`, expected a number or a string") and serde_json
/// places it at the value, so the pointer names the member, not its object.
struct ValueVisitor;

impl serde::de::Visitor<'_> for ValueVisitor {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a number or a string")
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(Value::Number(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v as f64))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::Text(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::Text(v))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Threshold {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match d.deserialize_any(ValueVisitor)? {
            Value::Number(n) => Threshold::Number(n),
            Value::Text(t) => Threshold::Expression(t),
        })
    }
}

impl RulePack {
    /// Reads a pack from JSON. Errors name the JSON pointer of the value at fault, its line and column,
    /// and what was expected; a pack that reads but is inconsistent (duplicate rule ids, bad names) is
    /// an error too.
    pub fn from_json(text: &str) -> Result<RulePack, AnalysisError> {
        let pack: RulePack = serde_json::from_str(text).map_err(|e| AnalysisError::Pack {
            pointer: pointer_at(text, e.line(), e.column()),
            line: e.line(),
            column: e.column(),
            message: strip_position(&e.to_string()),
        })?;
        pack.check()?;
        Ok(pack)
    }

    /// The rules the format states beyond types: ids and names well formed and unique.
    pub fn check(&self) -> Result<(), AnalysisError> {
        let bad = |pointer: String, message: String| AnalysisError::PackContent {
            pack: self.id.clone(),
            pointer,
            message,
        };
        let id_ok = |s: &str| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        };
        if !id_ok(&self.id) {
            return Err(bad(
                "/id".into(),
                format!("expected an id of a-z, 0-9 and '-', found {:?}", self.id),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for (i, v) in self.variables.iter().enumerate() {
            if !name_ok(&v.name) {
                return Err(bad(
                    format!("/variables/{i}/name"),
                    format!(
                        "expected a name of letters, digits and '_', found {:?}",
                        v.name
                    ),
                ));
            }
            if !seen.insert(v.name.as_str()) {
                return Err(bad(
                    format!("/variables/{i}/name"),
                    format!("variable {:?} is declared twice", v.name),
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (i, r) in self.rules.iter().enumerate() {
            if r.id.is_empty() {
                return Err(bad(format!("/rules/{i}/id"), "expected a rule id".into()));
            }
            if !seen.insert(r.id.as_str()) {
                return Err(bad(
                    format!("/rules/{i}/id"),
                    format!("rule id {:?} is used twice", r.id),
                ));
            }
            if let Some(p) = r.min_duration_percent {
                if !(0.0..=100.0).contains(&p) {
                    return Err(bad(
                        format!("/rules/{i}/minDurationPercent"),
                        format!("expected a percentage from 0 to 100, found {p}"),
                    ));
                }
            }
            if r.kind == RuleKind::Trend && r.stats.is_some() {
                return Err(bad(
                    format!("/rules/{i}/stats"),
                    "a trend rule compares the trend only; `stats` is for static rules".into(),
                ));
            }
            if r.stats
                .as_ref()
                .is_some_and(|s| s.contains(&Stat::Trend) || s.contains(&Stat::Value))
            {
                return Err(bad(
                    format!("/rules/{i}/stats"),
                    "expected min, avg or max (a trend is a rule of kind \"trend\")".into(),
                ));
            }
            if let Some(f) = r.for_seconds {
                if !(f.is_finite() && f > 0.0) {
                    return Err(bad(
                        format!("/rules/{i}/for"),
                        format!("expected a duration in seconds above 0, found {f}"),
                    ));
                }
                if r.kind != RuleKind::Static
                    || r.stats.is_some()
                    || r.min_duration_percent.is_some()
                {
                    return Err(bad(
                        format!("/rules/{i}/for"),
                        "a rule with `for` compares its samples: kind \"static\", without `stats` or `minDurationPercent`".into(),
                    ));
                }
            }
            if let Some(e) = &r.episode {
                let at = |field: &str| format!("/rules/{i}/episode/{field}");
                if !(e.window.is_finite() && e.window > 0.0) {
                    return Err(bad(
                        at("window"),
                        format!("expected a window in seconds above 0, found {}", e.window),
                    ));
                }
                if let Some(s) = e.share {
                    if !(0.0..1.0).contains(&s) {
                        return Err(bad(
                            at("share"),
                            format!("expected a share from 0 up to (not including) 1, found {s}"),
                        ));
                    }
                }
                if e.samples.is_some_and(|n| n < 2) {
                    return Err(bad(
                        at("samples"),
                        "expected at least 2 samples in a window".into(),
                    ));
                }
                if r.kind != RuleKind::Static
                    || r.stats.is_some()
                    || r.min_duration_percent.is_some()
                    || r.for_seconds.is_some()
                {
                    return Err(bad(
                        format!("/rules/{i}/episode"),
                        "an episode rule compares its samples: kind \"static\", without `stats`, `minDurationPercent` or `for`".into(),
                    ));
                }
            }
            if let Some(g) = &r.growth {
                let at = |field: &str| format!("/rules/{i}/growth/{field}");
                if let Some(h) = g.hours {
                    if !(h.is_finite() && h >= 1.0) {
                        return Err(bad(
                            at("hours"),
                            format!("expected at least 1 hour (a trend per hour is not judged on less), found {h}"),
                        ));
                    }
                }
                if let Some(r2) = g.steadiness {
                    if !(0.0..=1.0).contains(&r2) {
                        return Err(bad(
                            at("steadiness"),
                            format!("expected a share (R²) from 0 to 1, found {r2}"),
                        ));
                    }
                }
                if r.kind != RuleKind::Trend
                    || r.min_duration_percent.is_some()
                    || r.for_seconds.is_some()
                    || r.episode.is_some()
                {
                    return Err(bad(
                        format!("/rules/{i}/growth"),
                        "a growth rule is a trend over the whole range: kind \"trend\", without `minDurationPercent`, `for` or `episode`".into(),
                    ));
                }
            }
            for (j, link) in r.description.links().into_iter().enumerate() {
                if !safe_url(link) {
                    return Err(bad(
                        format!("/rules/{i}/description"),
                        format!("link {j}: expected an http or https address, found {link:?}"),
                    ));
                }
            }
            for (j, rf) in r.references.iter().enumerate() {
                if !safe_url(&rf.url) {
                    return Err(bad(
                        format!("/rules/{i}/references/{j}/url"),
                        format!("expected an http or https address, found {:?}", rf.url),
                    ));
                }
            }
        }
        if let Some(link) = self.description.links().into_iter().find(|l| !safe_url(l)) {
            return Err(bad(
                "/description".into(),
                format!("expected http or https links, found {link:?}"),
            ));
        }
        let mut seen = std::collections::HashSet::new();
        for (i, d) in self.derived.iter().enumerate() {
            if d.id.is_empty() || !seen.insert(d.id.as_str()) {
                return Err(bad(
                    format!("/derived/{i}/id"),
                    format!("expected a derived series id used once, found {:?}", d.id),
                ));
            }
            if d.inputs.is_empty() || d.inputs.len() > 8 {
                return Err(bad(
                    format!("/derived/{i}/inputs"),
                    format!("expected 1 to 8 inputs, found {}", d.inputs.len()),
                ));
            }
            let mut names = std::collections::HashSet::new();
            for (j, inp) in d.inputs.iter().enumerate() {
                if !name_ok(&inp.name) || !names.insert(inp.name.as_str()) {
                    return Err(bad(
                        format!("/derived/{i}/inputs/{j}/name"),
                        format!(
                            "expected a name of letters, digits and '_', used once, found {:?}",
                            inp.name
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The pack as JSON (what `rulePacks`/`importPalThresholds` hand to JS).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// `[A-Za-z_][A-Za-z0-9_]*`
fn name_ok(name: &str) -> bool {
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// The JSON pointer (RFC 6901) of the value at serde_json's error position (`line`, `column`, both from
/// 1; the column counts bytes): `/rules/3/operator`. The text is read again, with the positions kept
/// (jsonc-parser, which registration links anyway), and the pointer goes down through every object
/// member and array element whose range holds the position, so an unknown or misspelt member names
/// itself and a missing one names its object. Only failed reads pay for this; text that is not JSON
/// names the document (`""`), its line and column saying where, and so does text nested deeper than
/// serde_json reads (128 levels), which would only make the second parser recurse for nothing.
fn pointer_at(text: &str, line: usize, column: usize) -> String {
    use jsonc_parser::ast::Value as J;
    use jsonc_parser::{parse_to_ast, CollectOptions, CommentCollectionStrategy, ParseOptions};
    let line_start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let at = line_start + column.saturating_sub(1);
    let collect = CollectOptions {
        comments: CommentCollectionStrategy::Off,
        tokens: false,
    };
    if nesting(text) > 128 {
        return String::new();
    }
    let Ok(ast) = parse_to_ast(text, &collect, &ParseOptions::default()) else {
        return String::new();
    };
    let holds = |r: jsonc_parser::common::Range| r.start <= at && at <= r.end;
    let mut out = String::new();
    let mut node = ast.value.as_ref();
    while let Some(v) = node {
        node = None;
        match v {
            J::Object(o) => {
                if let Some(p) = o.properties.iter().find(|p| holds(p.range)) {
                    out.push('/');
                    out.push_str(&p.name.as_str().replace('~', "~0").replace('/', "~1"));
                    node = Some(&p.value);
                }
            }
            J::Array(a) => {
                if let Some((i, e)) = a.elements.iter().enumerate().find(|(_, e)| holds(range(e))) {
                    out.push('/');
                    out.push_str(&i.to_string());
                    node = Some(e);
                }
            }
            _ => {}
        }
    }
    out
}

/// The deepest nesting of arrays and objects outside strings.
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        match (in_str, escaped, b) {
            (true, true, _) => escaped = false,
            (true, false, b'\\') => escaped = true,
            (true, false, b'"') | (false, _, b'"') => in_str = !in_str,
            (false, _, b'{' | b'[') => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (false, _, b'}' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

fn range(v: &jsonc_parser::ast::Value<'_>) -> jsonc_parser::common::Range {
    use jsonc_parser::ast::Value as J;
    match v {
        J::StringLit(x) => x.range,
        J::NumberLit(x) => x.range,
        J::BooleanLit(x) => x.range,
        J::Object(x) => x.range,
        J::Array(x) => x.range,
        J::NullKeyword(x) => x.range,
    }
}

/// serde_json appends " at line L column C"; the error carries them as fields already.
fn strip_position(message: &str) -> String {
    match message.rfind(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINIMAL: &str = r#"{
  "id": "p",
  "title": "P",
  "variables": [ { "name": "GB", "type": "number", "default": 16 } ],
  "rules": [
    { "id": "cpu", "title": "CPU", "counter": "\\Processor(*)\\% Processor Time",
      "kind": "static", "severity": "warning", "operator": "gt", "threshold": 80 },
    { "id": "mem", "title": "Memory", "counter": "\\Memory\\Available MBytes",
      "kind": "static", "severity": "critical", "operator": "lt", "threshold": "GB * 1024 * 0.05",
      "thresholdMin": 64, "stats": ["avg"] }
  ]
}"#;

    #[test]
    fn reads_a_pack() {
        let p = RulePack::from_json(MINIMAL).unwrap();
        assert_eq!(p.rules.len(), 2);
        assert_eq!(p.rules[0].threshold, Threshold::Number(80.0));
        assert_eq!(
            p.rules[1].threshold,
            Threshold::Expression("GB * 1024 * 0.05".into())
        );
        assert_eq!(p.rules[1].stats, Some(vec![Stat::Avg]));
        assert_eq!(p.variables[0].default, Value::Number(16.0));
        // And back: the JSON it writes reads as the same pack.
        assert_eq!(RulePack::from_json(&p.to_json()).unwrap(), p);
    }

    #[test]
    fn errors_name_the_pointer_line_column_and_expectation() {
        // The operator of rule 1 misspelt: line 9 of the text ("{" is line 1, "rules" line 5, rule "mem" opens on
        // line 8 and its operator is on the next).
        let text = MINIMAL.replace(r#""operator": "lt""#, r#""operator": "below""#);
        match RulePack::from_json(&text) {
            Err(AnalysisError::Pack {
                pointer,
                line,
                message,
                ..
            }) => {
                assert_eq!(pointer, "/rules/1/operator");
                assert_eq!(line, 9);
                assert!(message.contains("expected one of"), "{message}");
                assert!(message.contains("below"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // An unknown field is an error that names it.
        let text = MINIMAL.replace(r#""threshold": 80"#, r#""treshold": 80"#);
        match RulePack::from_json(&text) {
            Err(AnalysisError::Pack {
                pointer, message, ..
            }) => {
                assert_eq!(pointer, "/rules/0/treshold");
                assert!(message.contains("unknown field `treshold`"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        // Not JSON at all: line and column of the fault.
        match RulePack::from_json("{\n  \"id\": ,") {
            Err(AnalysisError::Pack { line, column, .. }) => assert_eq!((line, column), (2, 9)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn pointers_of_missing_members_wrong_types_and_escaped_keys() {
        let pointer = |text: &str| match RulePack::from_json(text) {
            Err(AnalysisError::Pack { pointer, .. }) => pointer,
            other => panic!("{other:?}"),
        };
        // A missing member names its object: serde_json stops at the object's closing brace.
        let text = MINIMAL.replace(
            r#""kind": "static", "severity": "warning","#,
            r#""kind": "static","#,
        );
        assert_eq!(pointer(&text), "/rules/0");
        // A wrong type inside an array of an array element: stats[1] of rule 1.
        let text = MINIMAL.replace(r#""stats": ["avg"]"#, r#""stats": ["avg", 7]"#);
        assert_eq!(pointer(&text), "/rules/1/stats/1");
        // A variable's default of the wrong type, after non-ASCII text on the same line (columns count
        // bytes, as serde_json's do: "é" is 2 of them).
        let text = MINIMAL.replace(
            r#""name": "GB", "type": "number", "default": 16"#,
            r#""name": "GB", "question": "Mémoire ?", "type": "number", "default": true"#,
        );
        assert_eq!(pointer(&text), "/variables/0/default");
        match RulePack::from_json(&text) {
            Err(AnalysisError::Pack { message, .. }) => assert_eq!(
                message,
                "invalid type: boolean `true`, expected a number or a string"
            ),
            other => panic!("{other:?}"),
        }
        // A threshold that is neither a number nor an expression.
        let text = MINIMAL.replace(r#""threshold": 80"#, r#""threshold": [80]"#);
        assert_eq!(pointer(&text), "/rules/0/threshold");
        // Unknown members with '/' and '~' in their names: escaped as RFC 6901 says (~1, ~0).
        assert_eq!(pointer(r#"{"id": "p", "a/b~c": 1}"#), "/a~1b~0c");
        // Hostile text: no panic, the whole document named.
        assert_eq!(pointer("<script>alert(1)</script>"), "");
        assert_eq!(pointer(""), "");
        assert_eq!(
            pointer("\n\n[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["),
            ""
        );
        // Nested past serde_json's limit: not parsed a second time (no deep recursion).
        assert_eq!(pointer(&format!("{{\"id\": {}", "[".repeat(100_000))), "");
        // { [ { [ : four deep; the brackets in the string do not count.
        assert_eq!(nesting(r#"{"a": ["[[{", {"b": []}]}"#), 4);
    }

    #[test]
    fn content_errors() {
        let text = MINIMAL.replace(r#""id": "mem""#, r#""id": "cpu""#);
        match RulePack::from_json(&text) {
            Err(AnalysisError::PackContent { pointer, .. }) => assert_eq!(pointer, "/rules/1/id"),
            other => panic!("{other:?}"),
        }
        let text = MINIMAL.replace(r#""id": "p""#, r#""id": "Bad Id""#);
        assert!(matches!(
            RulePack::from_json(&text),
            Err(AnalysisError::PackContent { .. })
        ));
    }

    #[test]
    fn operators() {
        // 80 gt 80 is false, 80 ge 80 true; NaN satisfies nothing.
        assert!(!Operator::Gt.holds(80.0, 80.0));
        assert!(Operator::Ge.holds(80.0, 80.0));
        assert!(Operator::Lt.holds(1.0, 2.0));
        assert!(!Operator::Le.holds(f64::NAN, 2.0));
        assert!(Operator::Eq.holds(0.0, -0.0));
        // ne: 2 differs from 1; 1 does not; NaN (no value) is not a difference; -0 equals 0.
        assert!(Operator::Ne.holds(2.0, 1.0));
        assert!(!Operator::Ne.holds(1.0, 1.0));
        assert!(!Operator::Ne.holds(f64::NAN, 1.0));
        assert!(!Operator::Ne.holds(1.0, f64::NAN));
        assert!(!Operator::Ne.holds(-0.0, 0.0));
        assert_eq!(Operator::Ne.name(), "ne");
    }
}
