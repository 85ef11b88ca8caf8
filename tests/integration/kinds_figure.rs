//! Lettered figures (small multiples of one table) and the furniture
//! perturbations: a golden figure scene, letters and shared ticks checked on
//! the pixels and against the CSV (read here without the library), generated
//! suites answered fully by the oracle and the reader, and every pair of the
//! new perturbations differing from its original exactly as declared.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use chartstress::ir::{BBox, ChartRecord, Item, Layout, Scene, SetName};
use chartstress::spec::LayoutRequest;
use serde_json::{Value, json};

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// The cloud-revenue table (three like series over eight years) drawn as a
/// lettered figure in the classic theme.
fn cloud_figure() -> chartstress::render::Rendered {
    let t = chartstress::table::load_table(&fixtures().join("cloud_revenue_billions.csv")).unwrap();
    let style = chartstress::spec::theme("classic").unwrap();
    let spec = chartstress::spec::figure(&t, LayoutRequest::Figure, None, &style).unwrap();
    assert!(matches!(spec.layout, Layout::Figure { .. }));
    chartstress::render::render(&spec).unwrap()
}

#[test]
fn lettered_figure_scene_snapshot() {
    insta::assert_json_snapshot!("lettered_figure_scene", cloud_figure().scene);
}

fn dark(px: [u8; 3]) -> bool {
    u32::from(px[0]) + u32::from(px[1]) + u32::from(px[2]) < 3 * 110
}

fn ink(img: &image::RgbImage, b: &BBox) -> usize {
    let (x0, y0) = (b.x.floor().max(0.0) as u32, b.y.floor().max(0.0) as u32);
    let x1 = (b.right().ceil() as u32).min(img.width());
    let y1 = (b.bottom().ceil() as u32).min(img.height());
    (y0..y1)
        .flat_map(|y| (x0..x1).map(move |x| (x, y)))
        .filter(|&(x, y)| dark(img.get_pixel(x, y).0))
        .count()
}

#[test]
fn letters_sit_at_each_panel_top_left_and_every_panel_prints_the_same_ticks() {
    let drawn = cloud_figure();
    let scene = &drawn.scene;
    let img = image::load_from_memory(&drawn.png).unwrap().to_rgb8();
    let figure = scene.figure.as_ref().expect("a figure records its letters");
    let csv = crate::support::printed_csv::read("cloud_revenue_billions.csv");
    assert_eq!(scene.panels.len(), csv.series.len(), "one panel per series");
    assert_eq!(figure.letters.len(), scene.panels.len());
    let title = scene.title.as_ref().expect("figure title");
    for (i, (letter, panel)) in figure.letters.iter().zip(&scene.panels).enumerate() {
        assert_eq!(letter.text, format!("({})", char::from(b'a' + i as u8)));
        // Ink where the letter is recorded: it is printed, in bold.
        assert!(ink(&img, &letter.bbox) > 40, "{} has ink", letter.text);
        // Top-left of its panel: left of the plot's middle, above its title
        // and plot, never overlapping any title.
        let ptitle = panel.title.as_ref().expect("panel title");
        assert!(letter.bbox.right() < panel.plot_area.center().0);
        assert!(
            letter.bbox.bottom() <= ptitle.bbox.y + 0.5,
            "{}",
            letter.text
        );
        assert!(!letter.bbox.intersects(&ptitle.bbox));
        assert!(!letter.bbox.intersects(&title.bbox));
        assert!(letter.bbox.y >= title.bbox.bottom());
    }
    // The same ticks at the same heights in every panel of the row.
    let ticks = |i: usize| -> Vec<(String, f32)> {
        let p = &scene.panels[i];
        p.y_ticks
            .iter()
            .map(|t| (t.label.clone(), t.pos - p.plot_area.y))
            .collect()
    };
    for i in 1..scene.panels.len() {
        assert_eq!(ticks(i), ticks(0), "panel {i} ticks");
    }
    let labels: Vec<String> = ticks(0).into_iter().map(|(l, _)| l).collect();
    assert_eq!(figure.value_ticks, labels);
    // On the pixels: each tick label of each panel holds ink, the same
    // amount (±15 %) as the same label in panel (a).
    for p in &scene.panels[1..] {
        for (t, t0) in p.y_ticks.iter().zip(&scene.panels[0].y_ticks) {
            let (a, b) = (ink(&img, &t.bbox) as f64, ink(&img, &t0.bbox) as f64);
            assert!(
                b > 0.0 && (a - b).abs() <= 0.15 * b + 2.0,
                "{}: {a} vs {b}",
                t.label
            );
        }
    }
    // The shared range covers every series of the CSV: the top tick is at
    // least the largest value of any series, so each panel reads on one scale.
    let max = csv
        .series
        .values()
        .flatten()
        .flatten()
        .fold(f64::MIN, |a, v| a.max(*v));
    let top: f64 = labels.last().unwrap().replace(',', "").parse().unwrap();
    assert!(top >= max, "top tick {top} below the largest value {max}");
    assert!(figure.value_range.1 >= max && figure.value_range.0 <= 0.0);
    // Each panel draws the CSV values of the series it is titled by.
    for p in &scene.panels {
        let title = &p.title.as_ref().unwrap().text;
        let want: Vec<f64> = csv.series[title.as_str()]
            .iter()
            .map(|v| v.unwrap())
            .collect();
        let drawn: Vec<f64> = p.marks.iter().map(|m| m.value).collect();
        assert_eq!(drawn, want, "{title}");
    }
}

/// Fixture tables with sidecars adding a subtitle (every other table), a
/// note and a source to each.
fn furnished_tables(dir: &Path) -> std::path::PathBuf {
    let folder = dir.join("tables");
    std::fs::create_dir(&folder).unwrap();
    let names = [
        "cloud_revenue_billions",
        "smartphone_shipments_grouped",
        "energy_mix_stacked",
        "ev_diesel_crossing",
        "renewables_stacked_area",
        "gdp_growth_g7",
    ];
    for (i, name) in names.iter().enumerate() {
        std::fs::copy(
            fixtures().join(format!("{name}.csv")),
            folder.join(format!("{name}.csv")),
        )
        .unwrap();
        let mut meta: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(format!("{name}.meta.json"))).unwrap(),
        )
        .unwrap();
        if i % 2 == 0 {
            meta["subtitle"] = json!("Annual figures, as reported");
        }
        meta["note"] = json!("Figures for the latest year are provisional.");
        if meta.get("source").is_none() {
            meta["source"] = json!("National statistics office");
        }
        std::fs::write(folder.join(format!("{name}.meta.json")), meta.to_string()).unwrap();
    }
    folder
}

struct Suite {
    items: Vec<Item>,
    charts: BTreeMap<String, ChartRecord>,
}

fn generate(dir: &Path, figures: f64, exclude: &[&str], families: &[&str]) -> Suite {
    let folder = furnished_tables(dir);
    let config = format!(
        "tables = [{folder:?}]\nseed = 5\ncharts_per_table = 2\nquestions_per_chart = 12\n\
         source_lines = 1.0\nannotations = 0.0\nfigures = {figures:?}\n\
         axes = [\"subplots\", \"clutter\"]\nexclude_perturbations = {exclude:?}\n\
         families = {families:?}\n\
         opt_in_perturbations = [\"small_multiples\", \"furniture_removed\", \
         \"furniture_moved\", \"subtitle_added\"]\n"
    );
    let (_, items, charts) = crate::support::kind_suite::generate_suite(dir, &config);
    let items = items
        .into_iter()
        .map(|v| serde_json::from_value(v).unwrap())
        .collect();
    let charts = charts
        .into_iter()
        .map(|(id, c)| (id, serde_json::from_value(c).unwrap()))
        .collect();
    Suite { items, charts }
}

/// Every item is answered right by the oracle (from the data) and by the
/// reader (from the image as the scene records it).
fn oracle_and_reader_agree(suite: &Suite) {
    for item in &suite.items {
        let chart = &suite.charts[&item.chart_id];
        crate::support::kind_suite::assert_oracle_and_reader(item, chart);
    }
}

#[test]
fn figure_suites_are_answered_by_oracle_and_reader_and_cite_panels_by_letter() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(dir.path(), 1.0, &["subplots", "clutter"], &[]);
    oracle_and_reader_agree(&suite);
    let originals: Vec<&Item> = suite
        .items
        .iter()
        .filter(|i| i.set == SetName::Original)
        .collect();
    let families: BTreeSet<&str> = originals.iter().map(|i| i.family.as_str()).collect();
    let figure_families = ["panel_count", "highest_panel", "lowest_panel"];
    assert!(
        figure_families
            .iter()
            .filter(|f| families.contains(*f))
            .count()
            >= 2,
        "figure families asked: {families:?}"
    );
    let mut cited = 0;
    for item in &originals {
        let chart = &suite.charts[&item.chart_id];
        let Some(figure) = &chart.scene.figure else {
            continue;
        };
        // The letter cited is the one printed on the question's panel.
        if crate::support::kind_suite::check_cited_panel(figure, item) {
            cited += 1;
        }
        if item.family == "highest_panel" || item.family == "lowest_panel" {
            // Independent of the library: the panel whose CSV series holds the
            // extreme value.
            let t = &chart.spec.panels();
            let extreme = |i: usize| -> f64 {
                let p = t[i];
                let vals = (0..p.table.n_rows()).filter_map(|r| p.table.value(&p.series[0], r));
                if item.family == "highest_panel" {
                    vals.fold(f64::MIN, f64::max)
                } else {
                    -vals.fold(f64::MAX, f64::min)
                }
            };
            let best = (0..t.len())
                .max_by(|a, b| extreme(*a).total_cmp(&extreme(*b)))
                .unwrap();
            assert_eq!(item.answer.to_text(), figure.letters[best].text);
        }
        if item.family == "panel_count" {
            assert_eq!(item.answer.to_text(), chart.scene.panels.len().to_string());
        }
    }
    assert!(cited >= 10, "{cited} questions cite a panel by letter");
}

#[test]
fn every_figure_family_is_asked_and_answered_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let families = ["panel_count", "highest_panel", "lowest_panel"];
    let suite = generate(dir.path(), 1.0, &["subplots", "clutter"], &families);
    oracle_and_reader_agree(&suite);
    let asked: BTreeSet<&str> = suite.items.iter().map(|i| i.family.as_str()).collect();
    assert!(asked.is_superset(&BTreeSet::from(families)), "{asked:?}");
}

fn texts(scene: &Scene) -> BTreeSet<String> {
    let mut out: BTreeSet<String> = scene.extra_text.iter().map(|t| t.text.clone()).collect();
    out.extend(
        scene
            .panels
            .iter()
            .filter_map(|p| p.subtitle.as_ref())
            .map(|t| t.text.clone()),
    );
    out.extend(
        scene
            .figure
            .iter()
            .filter_map(|f| f.subtitle.as_ref())
            .map(|t| format!("figure subtitle: {}", t.text)),
    );
    out
}

/// (series, category, value) of every mark, whatever panel draws it.
fn marks(scene: &Scene) -> BTreeSet<(String, String, String)> {
    scene
        .panels
        .iter()
        .flat_map(|p| &p.marks)
        .map(|m| {
            (
                m.series.clone(),
                m.category.clone().unwrap_or_default(),
                format!("{:.6}", m.value),
            )
        })
        .collect()
}

#[test]
fn new_perturbations_change_exactly_what_they_declare() {
    let dir = tempfile::tempdir().unwrap();
    let suite = generate(
        dir.path(),
        0.0,
        &[
            "subplots",
            "clutter",
            "annotation_removed",
            "annotation_moved",
        ],
        &[],
    );
    oracle_and_reader_agree(&suite);
    let by_id: BTreeMap<&str, &Item> = suite.items.iter().map(|i| (i.id.as_str(), i)).collect();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for item in suite
        .items
        .iter()
        .filter(|i| i.set == SetName::ModifiedChart)
    {
        let [p] = item.perturbations.as_slice() else {
            panic!("one perturbation per pair: {:?}", item.perturbations)
        };
        let origin = by_id[item.origin.as_deref().unwrap()];
        let before = &suite.charts[&origin.chart_id];
        let after = &suite.charts[&item.chart_id];
        let (b, a) = (&before.scene, &after.scene);
        let (tb, ta) = (texts(b), texts(a));
        // The data drawn never changes.
        assert_eq!(marks(b), marks(a), "{}: same marks", p.name);
        let name = p.name.clone();
        *seen.entry(name.clone()).or_default() += 1;
        match name.as_str() {
            "small_multiples" => {
                let panel = &before.spec.panels()[0];
                let fig = a.figure.as_ref().expect("a lettered figure");
                assert_eq!(a.panels.len(), panel.series.len());
                assert_eq!(fig.letters.len(), panel.series.len());
                assert_eq!(p.params["panels"], json!(panel.series.len()));
                // The chart's title is the figure's; the furniture stays.
                assert_eq!(
                    a.title.as_ref().map(|t| &t.text),
                    b.panels[0].title.as_ref().map(|t| &t.text)
                );
                let strip = |s: BTreeSet<String>| -> BTreeSet<String> {
                    s.into_iter()
                        .map(|t| t.trim_start_matches("figure subtitle: ").to_string())
                        .collect()
                };
                assert_eq!(strip(texts(b)), strip(texts(a)));
                // The question moved to its series' panel, named by letter.
                let to = item.query.panel();
                let letter = &fig.letters[to].text;
                // (A conversation names it where it starts.)
                let first = item.history.first().map_or(&item.question, |t| &t.question);
                assert!(
                    first.starts_with(&format!("Refer to panel {letter}.")),
                    "{first}"
                );
                let series: BTreeSet<&str> = a.panels[to]
                    .marks
                    .iter()
                    .map(|m| m.series.as_str())
                    .collect();
                assert!(
                    item.query
                        .string_fields()
                        .iter()
                        .any(|(_, v)| series.contains(v.as_str()))
                );
            }
            "furniture_removed" => {
                let removed = p.params["removed"].as_str().unwrap();
                let gone: Vec<&String> = tb.difference(&ta).collect();
                assert_eq!(gone.len(), 1, "one piece removed: {gone:?}");
                assert!(ta.is_subset(&tb));
                let prefix = match removed {
                    "note" => "Note:",
                    "source" => "Source:",
                    _ => "",
                };
                assert!(gone[0].starts_with(prefix), "{removed}: {gone:?}");
                if removed == "subtitle" {
                    assert!(b.panels[0].subtitle.is_some() && a.panels[0].subtitle.is_none());
                }
                // The question about what went is unanswerable, tagged apart.
                if item.family == removed && origin.answerable {
                    assert!(!item.answerable, "{}", item.question);
                    assert_eq!(p.change, chartstress::ir::Change::Shifted);
                }
            }
            "furniture_moved" => {
                assert_eq!(texts(b), texts(a), "same words");
                let plot_top = a.panels[0].plot_area.y;
                for t in &a.extra_text {
                    assert!(
                        t.bbox.bottom() <= plot_top,
                        "{} moved above the plot",
                        t.text
                    );
                }
                for t in &b.extra_text {
                    assert!(
                        t.bbox.y >= b.panels[0].plot_area.bottom(),
                        "{} under the plot",
                        t.text
                    );
                }
                // Data answers stay; the ramp of higher levels may change ticks.
                if !chartstress::query::is_descriptive(&item.query) {
                    assert_eq!(item.answer, origin.answer);
                }
            }
            "subtitle_added" => {
                let added: Vec<&String> = ta.difference(&tb).collect();
                assert_eq!(added, [&p.params["subtitle"].as_str().unwrap().to_string()]);
                assert!(tb.is_subset(&ta));
                // Data answers stay; the ramp of higher levels may change ticks.
                if !chartstress::query::is_descriptive(&item.query) {
                    assert_eq!(item.answer, origin.answer);
                }
            }
            other => panic!("unexpected perturbation {other}"),
        }
    }
    for name in [
        "small_multiples",
        "furniture_removed",
        "furniture_moved",
        "subtitle_added",
    ] {
        assert!(
            seen.get(name).copied().unwrap_or(0) >= 2,
            "{name}: {seen:?}"
        );
    }
}
