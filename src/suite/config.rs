//! `SuiteConfig`: everything a suite is a function of besides the tables and
//! the tool version. Read from a TOML file (`examples/suite.toml` documents
//! every field); every field can also be set by a `generate` flag.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::SuiteError;
use crate::ir::{ChartKind, QuestionType, SetName};

/// Target shares (weights, normalised per dimension) by value name.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Quotas {
    pub question_type: BTreeMap<String, f64>,
    pub family: BTreeMap<String, f64>,
    pub kind: BTreeMap<String, f64>,
    pub axis: BTreeMap<String, f64>,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// `--shard K/N`: the K-th (1-based) of N disjoint parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    /// Whether this shard generates the items of `table_id` (stable hash of the id).
    pub fn owns(&self, table_id: &str) -> bool {
        crate::seed::derive(0, &["shard", table_id]) % u64::from(self.count)
            == u64::from(self.index - 1)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("shard `{s}` is not of the form K/N (e.g. 2/8)"))?;
        let index: u32 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard `{s}`: K is not a number"))?;
        let count: u32 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard `{s}`: N is not a number"))?;
        if count == 0 || index == 0 || index > count {
            return Err(format!("shard `{s}`: need 1 <= K <= N"));
        }
        Ok(Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SuiteConfig {
    /// Table files or folders (relative to the current directory).
    pub tables: Vec<PathBuf>,
    pub seed: u64,
    pub charts_per_table: usize,
    pub questions_per_chart: usize,
    /// Modified items per original item, in each modified set.
    pub variants_per_original: usize,
    /// Chart kinds for original charts; empty = every kind suitable for the
    /// table except the opt-in ones (`ChartKind::is_opt_in`: the kinds added
    /// after `heatmap`), which are drawn only when named here. A table that
    /// suits a named opt-in kind gets it first: such a kind is made for it.
    pub kinds: Vec<ChartKind>,
    /// Theme of the original set (the homogeneous look models are tuned on).
    pub original_theme: String,
    /// Themes the `theme` perturbation may pick; empty = every built-in theme.
    pub themes: Vec<String>,
    /// Perturbation axes used by the modified sets; empty = all.
    pub axes: Vec<String>,
    /// Perturbation names to leave out.
    pub exclude_perturbations: Vec<String>,
    /// Opt-in perturbations to use besides the default ones
    /// (`perturb::registry::OPT_IN`: `small_multiples`, `furniture_removed`,
    /// `furniture_moved`, `subtitle_added`, `kind_swap_new`,
    /// `distractor_context`); each is used only when named here (and its
    /// axis is wanted). Left out of the JSON when empty.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub opt_in_perturbations: Vec<String>,
    pub severities: Vec<u8>,
    /// Question types of the original items; empty = all.
    pub question_types: Vec<QuestionType>,
    /// Query families; empty = all.
    pub families: Vec<String>,
    /// Share of unanswerable original items.
    pub unanswerable_share: f64,
    pub sets: Vec<SetName>,
    pub quotas: Quotas,
    /// Candidate questions drawn per kept question, for balancing.
    pub oversample: usize,
    /// Keep only items the `reader` answers right from the image alone.
    pub readability_gate: bool,
    /// Also keep modified charts that print values their original made the
    /// reader estimate (tagged `change = easing`, reported apart); off by
    /// default so `modified_chart` holds stress changes only.
    pub easing: bool,
    /// Share of original bar and single-series line charts (with at most 24
    /// marks) drawn with value labels; pies always print their percentages.
    pub labelled_originals: f64,
    /// Share of original charts whose table names a source that print it as a
    /// "Source: …" line, so "what is the source?" is answerable as often as not.
    pub source_lines: f64,
    /// Share of original single charts drawn without a title, as charts in
    /// papers and slides often are (the caption or the page says what they
    /// show), so "what is the title?" is sometimes unanswerable.
    pub untitled_originals: f64,
    /// Share of labelled original bar charts drawn without their value axis
    /// (tick labels, gridlines, axis title), as news charts that print their
    /// values often are; questions about that axis' ticks are then
    /// unanswerable.
    pub bare_value_axes: f64,
    /// Share of original bar, line and area charts whose category axis has
    /// no title (no "Year" under the years, no "Country" under the
    /// countries), as most published charts; "what is the label of the
    /// x-axis?" is then unanswerable.
    pub untitled_category_axes: f64,
    /// Share of original bar, grouped-bar and line charts drawn with one
    /// annotation (a reference line, highlighted bar, shaded interval or
    /// callout), as news and report figures carry one.
    pub annotations: f64,
    /// Share of original charts of several like series (line, grouped or
    /// stacked bars, stacked areas) drawn as a lettered figure of small
    /// multiples, one panel per series (docs/charts.md "Figures and
    /// furniture"). Off by default; left out of the JSON when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub figures: f64,
    /// Also draw every group of related tables (the same index column and
    /// the same categories, e.g. monthly temperature and monthly rainfall)
    /// as one lettered figure, a panel per table, with its own questions
    /// citing the panels by letter. Off by default; left out of the JSON
    /// when off.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub related_figures: bool,
    /// Not part of the suite's identity: recorded as `suite.json` `shard`.
    #[serde(skip_serializing)]
    pub shard: Option<Shard>,
}

impl Default for SuiteConfig {
    fn default() -> Self {
        SuiteConfig {
            tables: Vec::new(),
            seed: 0,
            charts_per_table: 2,
            questions_per_chart: 4,
            variants_per_original: 1,
            kinds: Vec::new(),
            original_theme: "classic".into(),
            themes: Vec::new(),
            axes: Vec::new(),
            exclude_perturbations: Vec::new(),
            opt_in_perturbations: Vec::new(),
            severities: vec![1, 2, 3, 4, 5],
            question_types: Vec::new(),
            families: Vec::new(),
            unanswerable_share: 0.1,
            sets: vec![
                SetName::Original,
                SetName::ModifiedChart,
                SetName::ModifiedQuestion,
            ],
            quotas: Quotas::default(),
            oversample: 3,
            readability_gate: true,
            easing: false,
            labelled_originals: 0.3,
            source_lines: 0.5,
            untitled_originals: 0.15,
            bare_value_axes: 0.6,
            untitled_category_axes: 0.4,
            annotations: 0.3,
            figures: 0.0,
            related_figures: false,
            shard: None,
        }
    }
}

impl SuiteConfig {
    /// Parses a TOML suite file; errors name the file, line and column.
    pub fn from_toml_file(path: &Path) -> Result<Self, SuiteError> {
        let text = std::fs::read_to_string(path).map_err(|source| SuiteError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_toml_str(&text).map_err(|message| SuiteError::Config {
            path: path.to_path_buf(),
            message,
        })
    }

    pub fn from_toml_str(text: &str) -> Result<Self, String> {
        let config: SuiteConfig = toml::from_str(text).map_err(|e| {
            let at = e
                .span()
                .map(|span| {
                    let before = &text[..span.start.min(text.len())];
                    let line = before.matches('\n').count() + 1;
                    let col = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
                    format!("line {line}, column {col}: ")
                })
                .unwrap_or_default();
            format!("{at}{}", e.message())
        })?;
        config.validate()?;
        Ok(config)
    }

    pub fn validate(&self) -> Result<(), String> {
        if self.severities.is_empty() || self.severities.iter().any(|s| !(1..=5).contains(s)) {
            return Err(format!(
                "severities must be a non-empty list of 1..=5, got {:?}",
                self.severities
            ));
        }
        for (name, share) in [
            ("unanswerable_share", self.unanswerable_share),
            ("labelled_originals", self.labelled_originals),
            ("source_lines", self.source_lines),
            ("bare_value_axes", self.bare_value_axes),
            ("untitled_category_axes", self.untitled_category_axes),
            ("untitled_originals", self.untitled_originals),
            ("annotations", self.annotations),
            ("figures", self.figures),
        ] {
            // Written so that NaN fails too.
            if !(0.0..=1.0).contains(&share) {
                return Err(format!("{name} must be within 0..=1, got {share}"));
            }
        }
        if !self.sets.contains(&SetName::Original) {
            return Err("sets must include `original` (modified items point at originals)".into());
        }
        if self.sets.contains(&SetName::Control) {
            return Err(
                "the `control` set is made by `import-benchmark` (an imported benchmark's table \
                 drawn again), not by generation"
                    .into(),
            );
        }
        if self.charts_per_table == 0 || self.questions_per_chart == 0 {
            return Err("charts_per_table and questions_per_chart must be at least 1".into());
        }
        let known: Vec<&str> = crate::perturb::catalog().iter().map(|i| i.axis).collect();
        for axis in self.axes.iter().chain(self.quotas.axis.keys()) {
            if !known.contains(&axis.as_str()) {
                return Err(format!(
                    "unknown perturbation axis `{axis}` (known: {})",
                    dedup(known.clone()).join(", ")
                ));
            }
        }
        let names: Vec<&str> = crate::perturb::catalog().iter().map(|i| i.name).collect();
        for name in &self.exclude_perturbations {
            if !names.contains(&name.as_str()) {
                return Err(format!("unknown perturbation `{name}`"));
            }
        }
        for name in &self.opt_in_perturbations {
            if !crate::perturb::registry::OPT_IN.contains(&name.as_str()) {
                return Err(format!(
                    "`{name}` is not an opt-in perturbation (opt-in: {})",
                    crate::perturb::registry::OPT_IN.join(", ")
                ));
            }
        }
        for (dim, map) in [
            ("question_type", &self.quotas.question_type),
            ("family", &self.quotas.family),
            ("kind", &self.quotas.kind),
            ("axis", &self.quotas.axis),
        ] {
            if let Some((k, v)) = map.iter().find(|(_, v)| !(v.is_finite() && **v >= 0.0)) {
                return Err(format!(
                    "quota {dim}.{k} = {v} must be a non-negative number"
                ));
            }
        }
        for k in self.quotas.question_type.keys() {
            if QuestionType::from_name(k).is_none() {
                return Err(format!("quota question_type.{k}: unknown question type"));
            }
        }
        for k in self.quotas.kind.keys() {
            if ChartKind::from_name(k).is_none() {
                return Err(format!("quota kind.{k}: unknown chart kind"));
            }
        }
        Ok(())
    }

    /// The config as recorded in `suite.json` (no shard, canonical JSON).
    pub fn manifest_value(&self) -> serde_json::Value {
        serde_json::to_value(self).expect("config serializes")
    }
}

fn dedup(mut v: Vec<&str>) -> Vec<&str> {
    v.sort_unstable();
    v.dedup();
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_example_config() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/suite.toml");
        let config = SuiteConfig::from_toml_file(&path).expect("example parses");
        assert!(config.sets.contains(&SetName::ModifiedChart));
        // The example documents every field.
        let text = std::fs::read_to_string(&path).unwrap();
        let example: toml::Table = toml::from_str(&text).unwrap();
        let fields = serde_json::to_value(SuiteConfig::default()).unwrap();
        for key in fields.as_object().unwrap().keys() {
            assert!(
                example.contains_key(key),
                "examples/suite.toml lacks `{key}`"
            );
        }
        let err = SuiteConfig::from_toml_str("labelled_originals = 1.5\n").unwrap_err();
        assert!(err.contains("labelled_originals"), "{err}");
    }

    #[test]
    fn errors_name_line_and_column() {
        let err = SuiteConfig::from_toml_str("seed = 1\ncharts_per_table = \"two\"\n").unwrap_err();
        assert!(err.starts_with("line 2, column"), "{err}");
        let err = SuiteConfig::from_toml_str("sedd = 1\n").unwrap_err();
        assert!(err.contains("line 1") && err.contains("sedd"), "{err}");
        let err = SuiteConfig::from_toml_str("severities = [0, 6]\n").unwrap_err();
        assert!(err.contains("severities"), "{err}");
        let err = SuiteConfig::from_toml_str("axes = [\"colour\"]\n").unwrap_err();
        assert!(err.contains("unknown perturbation axis `colour`"), "{err}");
    }

    #[test]
    fn shard_parsing_and_partition() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert!("0/3".parse::<Shard>().is_err());
        assert!("4/3".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        let ids: Vec<String> = (0..50).map(|i| format!("table{i}")).collect();
        for id in &ids {
            let owners = (1..=3)
                .filter(|k| {
                    Shard {
                        index: *k,
                        count: 3,
                    }
                    .owns(id)
                })
                .count();
            assert_eq!(owners, 1, "every table belongs to exactly one shard");
        }
    }

    #[test]
    fn shard_is_not_part_of_the_recorded_config() {
        let config = SuiteConfig {
            shard: Some(Shard { index: 1, count: 2 }),
            ..SuiteConfig::default()
        };
        assert_eq!(
            config.manifest_value(),
            SuiteConfig::default().manifest_value()
        );
    }
}
