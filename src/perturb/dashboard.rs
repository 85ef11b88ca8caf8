//! Dashboard: the target chart among KPI tiles and other panels, with a
//! banner and, at the top level, a paragraph. KPI tiles show other tables'
//! latest values, so no tile answers the question.

use rand::RngExt;

use super::subplots::distractor_panels;
use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, KpiTile, Layout, Table};

pub struct Dashboard;

/// (KPI tiles, distractor panels, banner, paragraph) per level.
const LEVELS: [(usize, usize, bool, bool); 5] = [
    (2, 0, false, false),
    (3, 1, false, false),
    (4, 2, true, false),
    (4, 3, true, false),
    (4, 3, true, true),
];

fn kpi(table: &Table) -> Option<KpiTile> {
    let col = table.series.first()?;
    let (row, value) = col
        .cells
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, c)| c.as_f64().map(|v| (i, v)))?;
    let label = table
        .category_labels()
        .get(row)
        .cloned()
        .unwrap_or_default();
    let delta = (row > 0)
        .then(|| col.cells.get(row - 1).and_then(|c| c.as_f64()))
        .flatten()
        .and_then(|prev| crate::spec::percent_change(prev, value))
        .map(|pct| {
            let sign = if pct.starts_with('-') { "" } else { "+" };
            format!("{sign}{pct}%")
        });
    // A tile shows no more decimals than a question would ask for.
    let mut format = col.format.clone();
    format.decimals =
        crate::ir::decimal::shown_decimals(format.decimals, col.values().into_iter().flatten());
    Some(KpiTile {
        label: format!("{} ({label})", col.name),
        value: crate::table::format_value(value, &format),
        delta,
    })
}

impl Perturbation for Dashboard {
    fn info(&self) -> Info {
        Info {
            name: "dashboard",
            axis: "dashboard",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "target chart with 2 KPI tiles",
                "3 KPI tiles and 1 other panel",
                "4 KPI tiles, 2 other panels, banner",
                "4 KPI tiles, 3 other panels, banner",
                "4 KPI tiles, 3 other panels, banner and paragraph",
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
        let (n_kpis, n_panels, banner, paragraph) = LEVELS[level];
        let others: Vec<&Table> = ctx
            .distractors
            .iter()
            .filter(|t| t.id != panel.table.id)
            .copied()
            .collect();
        let kpis: Vec<KpiTile> = others.iter().filter_map(|t| kpi(t)).take(n_kpis).collect();
        if kpis.is_empty() {
            return None;
        }
        let distractors = distractor_panels(panel, n_panels, level, ctx, "dashboard");
        let total = distractors.len() + 1;
        let position =
            crate::seed::rng(ctx.seed, &["dashboard", "position"]).random_range(0..total);
        let mut panels = distractors;
        panels.insert(position, panel.clone());
        let banner = banner.then(|| "Performance overview".to_string());
        let paragraph = if paragraph {
            others.iter().find_map(|t| t.meta.paragraph.clone())
        } else {
            None
        };
        let out =
            crate::spec::dashboard(panels, kpis.clone(), banner, paragraph.clone(), &spec.style)
                .ok()?;
        let mut applied = Applied::new(out)
            .param("kpis", kpis.len())
            .param("panels", total)
            .param("target_panel", position)
            .param("paragraph", paragraph.is_some());
        applied.target_panel = Some(position);
        Some(applied)
    }
}
