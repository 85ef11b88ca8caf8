//! Suite composition for `chartstress stats SUITE`: the manifest's counts,
//! checked against the items actually in `items.jsonl`; and the visual
//! distance of the modified items per chart axis, severity and change class.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt::Write as _;
use std::path::Path;

use super::SuiteError;
use super::io::{Counts, items_iter, read_manifest};
use crate::ir::{Change, Item, Perturbation, SetName};

#[derive(Debug, Clone, PartialEq)]
pub struct Composition {
    pub items: u64,
    pub charts: u64,
    /// Modified items whose `origin` is an original item of the suite.
    pub paired: u64,
    /// Modified items whose origin is missing (should be 0).
    pub orphans: u64,
    /// Counts by dimension then value, recomputed from the items, plus the
    /// manifest's `dropped` counts.
    pub counts: BTreeMap<String, BTreeMap<String, u64>>,
    /// Whether the recomputed counts equal those recorded in `suite.json`.
    pub manifest_agrees: bool,
    pub fingerprint: String,
    pub shard: Option<(u32, u32)>,
}

pub fn composition(suite: &Path) -> Result<Composition, SuiteError> {
    let manifest = read_manifest(suite)?;
    let mut counts = Counts::default();
    let mut originals = HashSet::new();
    let mut origins = Vec::new();
    let mut charts = HashSet::new();
    let mut items = 0;
    for item in items_iter(suite)? {
        let item = item?;
        items += 1;
        counts.add_item(&item);
        charts.insert(item.chart_id.clone());
        match &item.origin {
            None => {
                originals.insert(item.id.clone());
            }
            Some(o) => origins.push(o.clone()),
        }
    }
    // Counts of what was left out (generation's drops, an import's
    // exclusions) are not items: taken as the manifest records them.
    for dim in ["dropped", "excluded"] {
        for (reason, n) in manifest.counts.get(dim).into_iter().flatten() {
            counts.bump(dim, reason, *n);
        }
    }
    let paired = origins.iter().filter(|o| originals.contains(*o)).count() as u64;
    Ok(Composition {
        items,
        charts: charts.len() as u64,
        paired,
        orphans: origins.len() as u64 - paired,
        manifest_agrees: counts.0 == manifest.counts,
        counts: counts.0,
        fingerprint: manifest.fingerprint,
        shard: manifest.shard,
    })
}

impl Composition {
    /// A plain-text table, one block per dimension.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "items {}  charts {}  paired {}  orphans {}  fingerprint {}",
            self.items, self.charts, self.paired, self.orphans, self.fingerprint
        );
        if let Some((k, n)) = self.shard {
            let _ = writeln!(out, "shard {k}/{n}");
        }
        if !self.manifest_agrees {
            let _ = writeln!(out, "warning: suite.json counts differ from items.jsonl");
        }
        for (dim, values) in &self.counts {
            let total: u64 = values.values().sum();
            let _ = writeln!(out, "\n{dim}");
            for (value, n) in values {
                let share = if total > 0 {
                    *n as f64 * 100.0 / total as f64
                } else {
                    0.0
                };
                let _ = writeln!(out, "  {value:<28} {n:>7}  {share:5.1}%");
            }
        }
        out
    }
}

/// Five-number summary of a sample of visual distances.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub min: f64,
    pub q1: f64,
    pub median: f64,
    pub q3: f64,
    pub max: f64,
}

/// Quantile `q` of sorted, non-empty `v`, interpolated between the closest
/// ranks (the usual "type 7" definition, as numpy's default).
fn quantile(v: &[f64], q: f64) -> f64 {
    let pos = q * (v.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    v[lo] + (v[hi] - v[lo]) * (pos - lo as f64)
}

/// Min, quartiles and max of the finite values; `None` when there are none,
/// so that no caller can print a NaN.
pub fn spread(values: &[f64]) -> Option<Spread> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(Spread {
        min: v[0],
        q1: quantile(&v, 0.25),
        median: quantile(&v, 0.5),
        q3: quantile(&v, 0.75),
        max: v[v.len() - 1],
    })
}

/// Modified items of one group: how many, by change class, and the visual
/// distances of those that have one.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DistanceGroup {
    pub items: u64,
    pub by_change: BTreeMap<Change, u64>,
    pub distances: Vec<f64>,
}

impl DistanceGroup {
    fn add(&mut self, item: &Item) {
        self.items += 1;
        *self.by_change.entry(item.change()).or_default() += 1;
        if let Some(d) = item.visual_distance {
            self.distances.push(d);
        }
    }

    pub fn spread(&self) -> Option<Spread> {
        spread(&self.distances)
    }

    /// Items measured: those with a finite visual distance.
    pub fn measured(&self) -> usize {
        self.distances.iter().filter(|d| d.is_finite()).count()
    }
}

/// Visual distance of the modified items, per chart axis and measured
/// severity and per change class, and the requested ladder level of each
/// chart perturbation against its measured severity.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VisualStats {
    /// Keyed by (chart axis, measured severity). An item counts once in each
    /// group one of its chart perturbations falls in; question perturbations
    /// are left out since they do not change the image.
    pub by_axis_severity: BTreeMap<(String, u8), DistanceGroup>,
    /// Every modified item by its change class (all classes present).
    pub by_change: BTreeMap<Change, DistanceGroup>,
    /// Chart perturbations by (`params.level`, severity), for those with a level.
    pub level_severity: BTreeMap<(u64, u8), u64>,
    /// Modified items with no chart perturbation (shown on the original's image).
    pub question_only: u64,
}

fn is_chart_perturbation(p: &Perturbation) -> bool {
    crate::perturb::question::info(&p.name).is_none()
}

/// Severities every axis gets a row for, empty or not, so that gaps show.
const SEVERITIES: std::ops::RangeInclusive<u8> = 1..=5;

pub fn visual_stats<'a>(items: impl IntoIterator<Item = &'a Item>) -> VisualStats {
    let mut s = VisualStats::default();
    for c in Change::ALL {
        s.by_change.entry(c).or_default();
    }
    for item in items {
        if item.set == SetName::Original {
            continue;
        }
        s.by_change.entry(item.change()).or_default().add(item);
        let mut groups = BTreeSet::new();
        for p in item
            .perturbations
            .iter()
            .filter(|p| is_chart_perturbation(p))
        {
            groups.insert((p.axis.clone(), p.severity));
            if let Some(level) = p.params.get("level").and_then(|l| l.as_u64()) {
                *s.level_severity.entry((level, p.severity)).or_default() += 1;
            }
        }
        if groups.is_empty() {
            s.question_only += 1;
        }
        for g in groups {
            s.by_axis_severity.entry(g).or_default().add(item);
        }
    }
    let axes: BTreeSet<String> = s.by_axis_severity.keys().map(|(a, _)| a.clone()).collect();
    for axis in axes {
        for sev in SEVERITIES {
            s.by_axis_severity.entry((axis.clone(), sev)).or_default();
        }
    }
    s
}

/// A distance with fixed decimals, or "–" for an empty group.
fn fixed(v: Option<f64>) -> String {
    v.map_or_else(|| "–".to_string(), |v| format!("{v:.3}"))
}

fn round4(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

fn spread_json(g: &DistanceGroup) -> serde_json::Value {
    let s = g.spread();
    let f = |pick: fn(&Spread) -> f64| s.as_ref().map(|s| round4(pick(s)));
    serde_json::json!({
        "measured": g.measured(),
        "min": f(|s| s.min),
        "q1": f(|s| s.q1),
        "median": f(|s| s.median),
        "q3": f(|s| s.q3),
        "max": f(|s| s.max),
    })
}

fn change_json(g: &DistanceGroup) -> serde_json::Value {
    Change::ALL
        .iter()
        .map(|c| {
            let n = g.by_change.get(c).copied().unwrap_or(0);
            (c.name().to_string(), serde_json::json!(n))
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

impl VisualStats {
    pub fn to_json(&self) -> serde_json::Value {
        let rows: Vec<serde_json::Value> = self
            .by_axis_severity
            .iter()
            .map(|((axis, sev), g)| {
                serde_json::json!({
                    "axis": axis,
                    "severity": sev,
                    "items": g.items,
                    "change": change_json(g),
                    "visual_distance": spread_json(g),
                })
            })
            .collect();
        let by_change: serde_json::Map<_, _> = self
            .by_change
            .iter()
            .map(|(c, g)| {
                let v = serde_json::json!({"items": g.items, "visual_distance": spread_json(g)});
                (c.name().to_string(), v)
            })
            .collect();
        let mut levels = serde_json::Map::new();
        for ((level, sev), n) in &self.level_severity {
            let row = levels
                .entry(level.to_string())
                .or_insert_with(|| serde_json::json!({}));
            row[sev.to_string()] = serde_json::json!(n);
        }
        serde_json::json!({
            "by_axis_severity": rows,
            "by_change": by_change,
            "level_vs_severity": levels,
            "question_only": self.question_only,
        })
    }

    /// Plain-text tables: axis × severity, change classes, level × severity.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let head = |out: &mut String, first: &str| {
            let _ = writeln!(
                out,
                "{first:<22} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>6} {:>6} {:>6} {:>6} {:>6}",
                "items",
                "stress",
                "easing",
                "format",
                "shifted",
                "measured",
                "min",
                "q1",
                "median",
                "q3",
                "max"
            );
        };
        let row = |out: &mut String, name: &str, g: &DistanceGroup| {
            let s = g.spread();
            let n = |c: Change| g.by_change.get(&c).copied().unwrap_or(0);
            let _ = writeln!(
                out,
                "{name:<22} {:>6} {:>6} {:>6} {:>6} {:>7} {:>8} {:>6} {:>6} {:>6} {:>6} {:>6}",
                g.items,
                n(Change::Stress),
                n(Change::Easing),
                n(Change::Format),
                n(Change::Shifted),
                g.measured(),
                fixed(s.map(|s| s.min)),
                fixed(s.map(|s| s.q1)),
                fixed(s.map(|s| s.median)),
                fixed(s.map(|s| s.q3)),
                fixed(s.map(|s| s.max)),
            );
        };
        let _ = writeln!(
            out,
            "visual distance (1 − MSSIM to the original's image) by chart axis and measured severity"
        );
        head(&mut out, "axis / severity");
        for ((axis, sev), g) in &self.by_axis_severity {
            row(&mut out, &format!("{axis} {sev}"), g);
        }
        let _ = writeln!(out, "\nby change class (modified items)");
        head(&mut out, "change");
        for (c, g) in &self.by_change {
            row(&mut out, c.name(), g);
        }
        if self.question_only > 0 {
            let _ = writeln!(
                out,
                "{} modified items change only the question (no distance: same image)",
                self.question_only
            );
        }
        if !self.level_severity.is_empty() {
            let sevs: BTreeSet<u8> = self.level_severity.keys().map(|(_, s)| *s).collect();
            let levels: BTreeSet<u64> = self.level_severity.keys().map(|(l, _)| *l).collect();
            let _ = writeln!(
                out,
                "\nrequested ladder level (rows) vs measured severity (columns), chart perturbations"
            );
            let _ = write!(out, "{:<8}", "level");
            for s in &sevs {
                let _ = write!(out, " {:>6}", format!("s{s}"));
            }
            let _ = writeln!(out);
            for l in &levels {
                let _ = write!(out, "{l:<8}");
                for s in &sevs {
                    let n = self.level_severity.get(&(*l, *s)).copied().unwrap_or(0);
                    let _ = write!(out, " {n:>6}");
                }
                let _ = writeln!(out);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A modified item of `set` with the given (axis, name, severity, change,
    /// level) perturbations and distance.
    fn item(
        set: SetName,
        perts: &[(&str, &str, u8, Change, Option<u64>)],
        distance: Option<f64>,
    ) -> Item {
        let mut v = serde_json::json!({
            "id": "x", "set": set, "chart_id": "c", "image": "images/c.png", "table_id": "t",
            "chart_kind": "bar", "question": "q", "question_type": "factoid", "family": "title",
            "query": {"op": "title", "panel": 0}, "answer": {"type": "unanswerable"},
            "answer_text": "Unanswerable", "answer_kind": "text_in_general", "answerable": false,
            "realization": {"realizer": "canonical", "template_id": "t"},
        });
        if set != SetName::Original {
            v["origin"] = "o".into();
        }
        let mut item: Item = serde_json::from_value(v).unwrap();
        item.visual_distance = distance;
        item.perturbations = perts.iter().map(Perturbation::at_level).collect();
        item
    }

    #[test]
    fn spread_interpolates_quartiles_and_skips_non_finite_values() {
        let s = spread(&[4.0, 1.0, f64::NAN, 3.0, 2.0, 5.0]).unwrap();
        assert_eq!(
            (s.min, s.q1, s.median, s.q3, s.max),
            (1.0, 2.0, 3.0, 4.0, 5.0)
        );
        let s = spread(&[0.0, 1.0]).unwrap();
        assert_eq!((s.q1, s.median, s.q3), (0.25, 0.5, 0.75));
        assert_eq!(spread(&[]), None);
        assert_eq!(spread(&[f64::NAN, f64::INFINITY]), None);
    }

    #[test]
    fn groups_by_chart_axis_and_severity_and_change() {
        let s = Change::Stress;
        let items = [
            item(SetName::Original, &[], None),
            item(
                SetName::ModifiedChart,
                &[("font", "font_size", 2, s, Some(3))],
                Some(0.1),
            ),
            item(
                SetName::ModifiedChart,
                &[("font", "font_family", 2, Change::Easing, Some(2))],
                Some(0.3),
            ),
            item(
                SetName::ModifiedBoth,
                &[
                    ("font", "font_size", 4, s, Some(4)),
                    ("lexical", "lexical", 1, s, None),
                ],
                Some(f64::NAN),
            ),
            item(
                SetName::ModifiedQuestion,
                &[("lexical", "lexical", 3, s, None)],
                None,
            ),
            item(
                SetName::Shifted,
                &[("data", "data_shift", 1, Change::Shifted, None)],
                None,
            ),
        ];
        let v = visual_stats(&items);
        let font2 = &v.by_axis_severity[&("font".to_string(), 2)];
        assert_eq!(font2.items, 2);
        assert_eq!(font2.by_change[&Change::Easing], 1);
        assert_eq!(font2.spread().map(|s| s.median), Some(0.2));
        // The NaN distance counts the item but not as measured.
        let font4 = &v.by_axis_severity[&("font".to_string(), 4)];
        assert_eq!((font4.items, font4.measured()), (1, 0));
        // Question axes are not chart axes; every chart axis gets 5 rows.
        assert!(!v.by_axis_severity.keys().any(|(a, _)| a == "lexical"));
        assert_eq!(v.by_axis_severity.len(), 10);
        assert_eq!(v.by_axis_severity[&("data".to_string(), 1)].items, 1);
        assert_eq!(v.question_only, 1);
        assert_eq!(v.by_change[&Change::Stress].items, 3);
        assert_eq!(v.by_change[&Change::Shifted].items, 1);
        assert_eq!(v.level_severity[&(3, 2)], 1);
        assert_eq!(v.level_severity.values().sum::<u64>(), 3);

        let text = v.to_text();
        assert!(!text.contains("NaN"), "{text}");
        assert!(text.contains("font 2"), "{text}");
        let data1 = text.lines().find(|l| l.starts_with("data 1 ")).unwrap();
        assert!(data1.contains('–'), "{data1}");
        assert!(text.contains("0.200"), "fixed decimals: {text}");
        let json = v.to_json().to_string();
        assert!(!json.contains("NaN"));
        assert!(json.contains(r#""median":null"#), "{json}");
    }

    #[test]
    fn no_modified_items_give_empty_groups_not_nan() {
        let v = visual_stats(&[item(SetName::Original, &[], None)]);
        assert!(v.by_axis_severity.is_empty());
        assert!(v.by_change.values().all(|g| g.items == 0));
        let text = v.to_text();
        assert!(!text.contains("NaN") && text.contains('–'), "{text}");
    }
}
