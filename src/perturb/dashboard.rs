//! Dashboard: the target chart among KPI tiles and the charts of related
//! tables, with a banner and, at the top level, a paragraph. The tiles
//! summarise the tables the dashboard shows (see [`super::kpi`]), so they
//! agree with the charts and differ from one dashboard to the next.

use rand::RngExt;

use super::subplots::distractor_panels;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, KpiTile, Layout, Table};

pub struct Dashboard;

/// (KPI tiles, distractor panels, banner, paragraph) per level.
const LEVELS: [(usize, usize, bool, bool); 5] = [
    (2, 1, false, false),
    (3, 2, false, false),
    (4, 2, true, false),
    (4, 3, true, false),
    (4, 3, true, true),
];

/// "Charts on this page: A; B; C." from the titles of the tables shown.
fn caption(tables: &[&Table]) -> String {
    let titles: Vec<&str> = tables
        .iter()
        .filter_map(|t| t.meta.title.as_deref())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .collect();
    if titles.is_empty() {
        return "Key figures and charts from the tables below.".into();
    }
    let list = titles.join("; ");
    let end = if list.ends_with('.') { "" } else { "." };
    format!("Charts on this page: {list}{end}")
}

impl Perturbation for Dashboard {
    fn info(&self) -> Info {
        Info {
            name: "dashboard",
            axis: "dashboard",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "target chart, 1 related panel and 2 KPI tiles from it",
                "3 KPI tiles and 2 related panels",
                "4 KPI tiles, 2 related panels, banner",
                "4 KPI tiles, 3 related panels, banner",
                "4 KPI tiles, 3 related panels, banner and related paragraph",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("dashboard", severity).ok()?;
        let Layout::Single { panel } = &spec.layout else {
            return None;
        };
        if !super::util::axis_can_be_pinned(panel) {
            return None;
        }
        let (n_kpis, n_panels, banner, paragraph) = LEVELS[level];
        let distractors = distractor_panels(panel, n_panels, level, ctx, "dashboard");
        let others: Vec<&Table> = distractors.iter().map(|p| &p.table).collect();
        let kpis: Vec<KpiTile> =
            super::kpi::dashboard_tiles(&others, &spec.style, n_kpis, ctx.seed);
        if kpis.is_empty() {
            return None;
        }
        let banner = banner.then(|| "Key figures".to_string());
        // The paragraph of another chart on the dashboard, never the target's
        // (its facts may differ from the chart); without one, a caption
        // listing what the charts show.
        let paragraph = paragraph.then(|| {
            // A paragraph may describe its own chart ("bubble size shows …"):
            // only tables drawn in their own best kind lend theirs.
            distractors
                .iter()
                .filter(|p| crate::spec::suitable_kinds(&p.table).first() == Some(&p.kind))
                .find_map(|p| p.table.meta.paragraph.clone())
                .unwrap_or_else(|| {
                    let mut shown: Vec<&Table> = vec![&panel.table];
                    shown.extend(others.iter().copied());
                    caption(&shown)
                })
        });
        let total = distractors.len() + 1;
        let position =
            crate::seed::rng(ctx.seed, &["dashboard", "position"]).random_range(0..total);
        let mut panels = distractors;
        panels.insert(position, panel.clone());
        let mut out =
            crate::spec::dashboard(panels, kpis.clone(), banner, paragraph.clone(), &spec.style)
                .ok()?;
        // The chart's own source line stays under the dashboard, as it does
        // under a grid of subplots: losing it would be a second change.
        out.source_line = spec.source_line.clone();
        let mut applied = Applied::new(out)
            .param("kpis", kpis.len())
            .param("panels", total)
            .param("target_panel", position)
            .param("paragraph", paragraph.is_some());
        applied.target_panel = Some(position);
        Some(applied)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::perturb::util::testing;

    #[test]
    fn tiles_summarise_the_charts_beside_the_target_never_the_target() {
        let spec = testing::grouped_years();
        let others = [
            testing::table("rain", &[("Rainfall", &[30.0, 42.0, 18.0, 25.0])], true),
            testing::table("heat", &[("Degree days", &[410.0, 380.0, 455.0])], true),
            testing::table("jobs", &[("Jobs", &[12.0, 9.0, 14.0, 11.0])], false),
        ];
        let distractors: Vec<&Table> = others.iter().collect();
        let Layout::Single { panel } = &spec.layout else {
            unreachable!()
        };
        let target_series = panel.table.series_names();
        for severity in 1..=5u8 {
            for seed in 0..6u64 {
                let ctx = ChartContext {
                    seed,
                    themes: &[],
                    distractors: &distractors,
                };
                let out = Dashboard
                    .apply_spec(&spec, severity, &ctx)
                    .expect("a dashboard applies when related tables exist");
                let Layout::Dashboard { kpis, panels, .. } = &out.value.layout else {
                    panic!("not a dashboard");
                };
                assert!(!kpis.is_empty());
                assert!(panels.len() >= 2, "every level draws a related chart");
                for tile in kpis {
                    assert!(
                        !target_series.iter().any(|s| tile.label.contains(s)),
                        "severity {severity}: tile {tile:?} restates the asked chart"
                    );
                }
            }
        }
        // Nothing beside the target: no tiles to draw, no dashboard.
        assert!(Dashboard.apply_spec(&spec, 1, &testing::ctx()).is_none());
    }
}
