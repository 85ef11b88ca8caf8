//! What the generator may ask about on one panel: the categories a careful
//! person can find and the series they can name. It is the reader's model
//! of sight ([`crate::reader`]'s `Sight`, on the original image), not a
//! second one: the generator proposes arguments from it, and whether a
//! whole question can be answered from the image is the reader's own
//! verdict (`questions::sees`), the same the readability gate gives.

use std::collections::BTreeSet;

use crate::ir::Scene;
use crate::reader::View;
use crate::reader::sight::Sight;

/// The names a reader can find on one panel.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    /// Categories (table form) a reader can place on the panel.
    printed: BTreeSet<String>,
    /// Series a reader can name: the only one drawn, or one named in print.
    series: BTreeSet<String>,
}

impl Reading {
    pub fn of(scene: &Scene, panel: usize) -> Option<Reading> {
        let p = scene.panels.iter().find(|p| p.index == panel)?;
        let view = View::for_item(&[], false);
        let sight = Sight::new(p, &view);
        let mut r = Reading::default();
        for m in &p.marks {
            if let Some(c) = &m.category
                && !r.printed.contains(c)
                && sight.category(c).is_ok_and(|slot| slot == c)
            {
                r.printed.insert(c.clone());
            }
            if !r.series.contains(&m.series) && sight.series(&m.series).is_ok() {
                r.series.insert(m.series.clone());
            }
        }
        // Series that are read, not drawn as marks of their own (an error
        // bar's width between its caps).
        for s in sight.derived_series() {
            if sight.series(s).is_ok() {
                r.series.insert(s.to_string());
            }
        }
        Some(r)
    }

    pub fn category_printed(&self, category: &str) -> bool {
        self.printed.contains(category)
    }

    pub fn series_named(&self, series: &str) -> bool {
        self.series.contains(series)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ChartKind;
    use crate::query::testing as t;

    fn scene_of(spec: &crate::ir::ChartSpec) -> Scene {
        crate::render::render_svg(spec).expect("renders").1
    }

    #[test]
    fn one_series_is_named_and_printed_categories_are_found() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima", "Kyiv"],
            vec![t::series("Sales", &[Some(3.0), Some(5.0), Some(4.0)], 0)],
        );
        let r = Reading::of(&scene_of(&t::single(&table, ChartKind::Bar)), 0).unwrap();
        assert!(r.series_named("Sales"));
        for c in ["Oslo", "Lima", "Kyiv"] {
            assert!(r.category_printed(c), "{c}");
        }
        assert!(!r.category_printed("Paris"));
    }

    #[test]
    fn among_several_series_only_those_named_in_print_are_named() {
        let table = t::category_table(
            "t",
            "City",
            &["Oslo", "Lima"],
            vec![
                t::series("Imports", &[Some(3.0), Some(5.0)], 0),
                t::series("Exports", &[Some(2.0), Some(4.0)], 0),
            ],
        );
        let spec = t::single(&table, ChartKind::GroupedBar);
        let mut scene = scene_of(&spec);
        assert!(Reading::of(&scene, 0).unwrap().series_named("Exports"));
        // Without its legend entry a series cannot be told by its colour alone.
        scene.panels[0].legend.retain(|e| e.label != "Exports");
        let r = Reading::of(&scene, 0).unwrap();
        assert!(!r.series_named("Exports"));
        assert!(r.series_named("Imports"));
    }

    #[test]
    fn the_generator_and_the_reader_see_the_same_categories() {
        // Many categories: tick labels thinned. What the generator may ask
        // about is exactly what the reader can place.
        let names: Vec<String> = (0..40).map(|i| format!("Town {i:02}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let values: Vec<Option<f64>> = (0..40).map(|i| Some(f64::from(i) + 1.0)).collect();
        let table = t::category_table("t", "Town", &refs, vec![t::series("Sales", &values, 0)]);
        let scene = scene_of(&t::single(&table, ChartKind::Bar));
        let r = Reading::of(&scene, 0).unwrap();
        let view = View::for_item(&[], false);
        let sight = Sight::new(&scene.panels[0], &view);
        for n in &names {
            assert_eq!(
                r.category_printed(n),
                sight.category(n).is_ok_and(|s| s == n),
                "{n}"
            );
        }
    }
}
