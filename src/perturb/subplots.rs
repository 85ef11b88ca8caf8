//! Subplots: the target chart placed in a grid among distractor panels drawn
//! from the most related other tables. The target's panel index changes, so
//! the caller re-targets the query (`Applied::target_panel`) and names the
//! panel in the question by the letter the grid prints on it.

use rand::RngExt;

use super::{AnswerEffect, Applied, ChartContext, Info, Perturbation, Stage};
use crate::ir::{ChartSpec, Layout, PanelSpec};

pub struct Subplots;

const GRIDS: [(u32, u32, usize); 5] = [(1, 2, 1), (1, 3, 2), (2, 2, 3), (2, 3, 5), (3, 3, 8)];

/// Distractor panels: the tables most related to the target's (see
/// [`super::related`]), each in its best kind; from level 3 on, tables that
/// suit the target's kind rank higher and are drawn in it (harder to tell
/// apart).
pub fn distractor_panels(
    target: &PanelSpec,
    count: usize,
    level: usize,
    ctx: &ChartContext<'_>,
    salt: &str,
) -> Vec<PanelSpec> {
    let same_kind = level >= 2;
    super::related::rank(
        &target.table,
        ctx.distractors,
        same_kind.then_some(target.kind),
        ctx.seed,
        salt,
    )
    .into_iter()
    .filter_map(|table| {
        let kinds = crate::spec::suitable_kinds(table);
        let kind = if same_kind && kinds.contains(&target.kind) {
            target.kind
        } else {
            *kinds.first()?
        };
        crate::spec::panel(table, kind, &target.style).ok()
    })
    .take(count)
    .collect()
}

const ORDINALS: [&str; 8] = [
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
];

/// "panel (b)": grids print a letter at each panel's top-left corner, and
/// the letter is what a reader looks for. Dashboards name the chart by its
/// title where no other chart prints it, else by its place.
pub fn panel_reference(spec: &ChartSpec, index: usize) -> String {
    match &spec.layout {
        Layout::Grid { .. } | Layout::Figure { .. } => {
            format!("panel {}", crate::render::panel_letter(index))
        }
        Layout::Dashboard { panels, .. } => {
            let shown_title = |i: usize| {
                panels
                    .get(i)
                    .filter(|p| p.panel.style.title_placement != crate::ir::TitlePlacement::Hidden)
                    .and_then(|p| p.panel.title.as_deref())
                    .map(|t| t.trim().to_lowercase())
                    .filter(|t| !t.is_empty())
            };
            // A title cites one chart only where no other chart on the page
            // prints it: two panels titled alike would each answer.
            let title = shown_title(index).filter(|t| {
                (0..panels.len())
                    .filter(|&i| shown_title(i).as_ref() == Some(t))
                    .count()
                    == 1
            });
            match (
                title,
                panels.get(index).and_then(|p| p.panel.title.as_deref()),
            ) {
                (Some(_), Some(printed)) => format!("the dashboard chart titled \"{printed}\""),
                _ if panels.len() > 1 => format!(
                    "the {} chart on the dashboard (counting left to right, top to bottom)",
                    ORDINALS.get(index).copied().unwrap_or("last")
                ),
                _ => "the dashboard chart".to_string(),
            }
        }
        Layout::Single { .. } => "the chart".to_string(),
    }
}

/// "the panel in row 1, column 2" (1-based, as people count): the grid
/// position, for wordings that refer to where a panel is.
pub fn panel_position(spec: &ChartSpec, index: usize) -> String {
    match &spec.layout {
        Layout::Grid { cols, .. } | Layout::Figure { cols, .. } => {
            let cols = (*cols).max(1) as usize;
            format!(
                "the panel in row {}, column {}",
                index / cols + 1,
                index % cols + 1
            )
        }
        _ => panel_reference(spec, index),
    }
}

impl Perturbation for Subplots {
    fn info(&self) -> Info {
        Info {
            name: "subplots",
            axis: "subplots",
            stage: Stage::Spec,
            effect: AnswerEffect::Preserving,
            ladder: [
                "1×2 grid, one related distractor panel, lettered (a)–(b)",
                "1×3 grid, two related distractor panels",
                "2×2 grid, three related distractors, same kind when suitable",
                "2×3 grid, five related distractors, same kind when suitable",
                "3×3 grid, eight related distractors, same kind when suitable",
            ],
        }
    }

    fn apply_spec(
        &self,
        spec: &ChartSpec,
        severity: u8,
        ctx: &ChartContext<'_>,
    ) -> Option<Applied<ChartSpec>> {
        let level = super::level("subplots", severity).ok()?;
        let Layout::Single { panel } = &spec.layout else {
            return None;
        };
        if !super::util::axis_can_be_pinned(panel) {
            return None;
        }
        let (rows, cols, want) = GRIDS[level];
        let distractors = distractor_panels(panel, want, level, ctx, "subplots");
        if distractors.is_empty() {
            return None;
        }
        let total = distractors.len() + 1;
        let position = crate::seed::rng(ctx.seed, &["subplots", "position"]).random_range(0..total);
        let mut panels = distractors;
        panels.insert(position, panel.clone());
        let (rows, cols) = if total < want + 1 {
            // Fewer tables than cells: shrink to fit.
            let cols = cols.min(total as u32);
            (total.div_ceil(cols as usize) as u32, cols)
        } else {
            (rows, cols)
        };
        let mut out =
            crate::spec::grid(rows, cols, panels, &spec.style, spec.title.clone()).ok()?;
        // The chart's own source line stays under the grid.
        out.source_line = spec.source_line.clone();
        // Each panel about seven tenths of the original's size: smaller, as
        // subplots are, yet with room for the names and values it printed
        // alone (a variant that loses them is not kept).
        let title_h = if out.title.is_some() { 50 } else { 0 };
        out.width = out.width.max(cols * spec.width * 7 / 10);
        out.height = out.height.max(rows * spec.height * 7 / 10 + title_h);
        let mut applied = Applied::new(out)
            .param("rows", rows)
            .param("cols", cols)
            .param("target_panel", position)
            .param("distractors", total - 1);
        applied.target_panel = Some(position);
        Some(applied)
    }
}
