//! Every newer chart kind under every registered chart perturbation, over
//! tables suited to it (the fixtures and the synth on-request shapes): each
//! pair either produces a modified chart whose data answers are kept (the
//! executor's answers stay, and the modified scene's marks agree with the
//! CSV read here on its own) or the perturbation states why it never
//! applies to that kind (`Perturbation::not_for`). The matrix is printed
//! (docs/charts.md "Perturbations by kind" is this run's output); the
//! slope families are checked against the CSV too.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use chartstress::ir::{ChartKind, ChartSpec, ColumnType, MarkKind, PanelScene, Scene, Table};
use chartstress::perturb::{self, AnswerEffect, ChartContext, Stage};

use crate::support::printed_csv::{self, PrintedCsv};
use crate::support::sweep;

/// The newer kinds: the opt-in ones and the heatmap.
fn new_kinds() -> Vec<ChartKind> {
    ChartKind::ALL
        .iter()
        .copied()
        .filter(|k| k.is_opt_in() || *k == ChartKind::Heatmap)
        .collect()
}

/// Monthly tables of the kinds no fixture or synth shape draws over dates
/// (a date format applies where dates are printed): a signed monthly change,
/// a cash bridge from an opening level, monthly means with their intervals,
/// monthly orders with their conversion rate (a dual axis).
const MONTHLY: [(&str, &str, &str); 4] = [
    (
        "monthly_net_change",
        "Month,Net change (US$ million)\n2024-01,12.5\n2024-02,-8.25\n2024-03,4.75\n\
         2024-04,-15.5\n2024-05,9.0\n2024-06,-3.25\n",
        r#"{"title": "Net change by month", "unit": "US$ million"}"#,
    ),
    (
        "monthly_cash_bridge",
        "Month,Net cash flow (US$ million)\n2024-01,240.0\n2024-02,-35.5\n2024-03,18.25\n\
         2024-04,-22.0\n2024-05,41.5\n2024-06,-12.75\n",
        r#"{"title": "Cash: opening level and monthly flows", "unit": "US$ million"}"#,
    ),
    (
        "monthly_wait_times",
        "Month,Mean wait (min),ci_low,ci_high\n2024-01,34.5,31.0,38.0\n2024-02,29.0,26.5,31.5\n\
         2024-03,41.5,37.0,46.0\n2024-04,25.5,23.0,28.0\n2024-05,37.0,33.5,40.5\n",
        r#"{"title": "Mean waiting time by month", "unit": "min"}"#,
    ),
    (
        "monthly_orders_conversion",
        "Month,Orders,Conversion rate\n2024-01,1840,2.4%\n2024-02,1620,2.1%\n2024-03,2110,2.9%\n\
         2024-04,1975,2.6%\n2024-05,2290,3.1%\n2024-06,2045,2.7%\n",
        r#"{"title": "Online orders and conversion rate by month"}"#,
    ),
];

/// The fixtures, two tables of each on-request synth shape and the monthly
/// tables, sorted by id.
fn tables(dir: &Path) -> Vec<Table> {
    for (id, csv, meta) in MONTHLY {
        std::fs::write(dir.join(format!("{id}.csv")), csv).unwrap();
        std::fs::write(dir.join(format!("{id}.meta.json")), meta).unwrap();
    }
    for shape in chartstress::synth::SynthKind::ON_REQUEST {
        crate::support::run_ok(
            crate::support::bin()
                .args(["synth", "--seed", "5", "--count", "2", "--kind"])
                .arg(shape.name())
                .arg("-o")
                .arg(dir),
        );
    }
    let (mut tables, errors) = chartstress::table::load_tables(
        &[
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
            dir.to_path_buf(),
        ],
        false,
    );
    assert!(errors.is_empty(), "{errors:?}");
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    tables
}

/// A delimited file the test can read on its own, its month labels ("Jan
/// 2023") in the ISO form marks name them by ("2023-01").
fn csv_of(t: &Table) -> Option<PrintedCsv> {
    let path = Path::new(t.source_path.as_deref()?);
    if !matches!(path.extension()?.to_str()?, "csv" | "tsv") {
        return None;
    }
    let mut csv = printed_csv::read_path(path);
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    for label in &mut csv.index {
        if let Some((m, y)) = label.split_once(' ')
            && let Some(i) = MONTHS.iter().position(|x| *x == m)
            && y.len() == 4
            && y.chars().all(|c| c.is_ascii_digit())
        {
            *label = format!("{y}-{:02}", i + 1);
        }
    }
    Some(csv)
}

/// A few tables a kind suits, covering what perturbations act on: the
/// first, the first with a date index, the first drawing two series or more,
/// the first with values of 100 or more (ticks a number format changes).
fn tables_for(kind: ChartKind, tables: &[Table]) -> Vec<&Table> {
    let suited: Vec<&Table> = tables
        .iter()
        .filter(|t| chartstress::spec::suitable_kinds(t).contains(&kind))
        .filter(|t| csv_of(t).is_some())
        .collect();
    let multi = |t: &&Table| {
        chartstress::spec::panel(t, kind, &Default::default()).is_ok_and(|p| p.series.len() >= 2)
    };
    let mut out: Vec<&Table> = Vec::new();
    for pick in [
        suited.first().copied(),
        suited
            .iter()
            .copied()
            .find(|t| t.index.ctype == ColumnType::Date),
        suited.iter().copied().find(multi),
        suited.iter().copied().find(|t| {
            t.series
                .iter()
                .flat_map(|c| c.cells.iter().filter_map(|v| v.as_f64()))
                .any(|v| v.abs() >= 100.0)
        }),
    ]
    .into_iter()
    .flatten()
    {
        if !out.iter().any(|o| o.id == pick.id) {
            out.push(pick);
        }
    }
    out
}

/// The chart a suite would draw, with every element some perturbation
/// changes: a subtitle, a note, a source line and, where one fits, an
/// annotation.
fn furnished(t: &Table, kind: ChartKind) -> ChartSpec {
    let style = chartstress::spec::theme("classic").unwrap();
    let mut spec = chartstress::spec::single(t, kind, &style).unwrap();
    spec.source_line = Some("Agency".into());
    if let chartstress::ir::Layout::Single { panel } = &mut spec.layout {
        panel.table.meta.subtitle = Some("A subtitle".into());
        panel.table.meta.footnote = Some("A note".into());
        panel.annotation = chartstress::spec::annotation::candidates(panel)
            .into_iter()
            .next()
            .map(|mark| chartstress::ir::Annotation { mark, moved: false });
    }
    spec
}

/// Type-7 median, written independently of the library.
fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let h = (v.len() - 1) as f64 * 0.5;
    let i = h.floor() as usize;
    match v.get(i + 1) {
        Some(next) => v[i] + (h - i as f64) * (next - v[i]),
        None => v[i],
    }
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// What the panels drawing `table_id` show of the CSV, checked against it:
/// the (series, category) cells whose marks agree with it. Panics on a mark
/// that disagrees. Box and violin plots are read by their groups' medians,
/// histograms by their bins' counts; a percent stack's table holds each
/// row's shares (`shares`), whatever kind draws it after a swap.
fn shown(
    scene: &Scene,
    table_id: &str,
    csv: &PrintedCsv,
    shares: bool,
    what: &str,
) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    // Small multiples draw each series from a table named after the chart's.
    let split = format!("{table_id}__");
    for p in scene
        .panels
        .iter()
        .filter(|p| p.table_id == table_id || p.table_id.starts_with(&split))
    {
        if let Some(stat) = &p.stat {
            let obs = |g: &str| -> Vec<f64> {
                csv.series
                    .get(g)
                    .map(|c| c.iter().flatten().copied().collect())
                    .unwrap_or_default()
            };
            for g in &stat.groups {
                let values = obs(&g.group);
                assert!(!values.is_empty(), "{what}: no CSV column {}", g.group);
                assert!(
                    near(g.median, median(&values)),
                    "{what}: median of {} drawn {} vs CSV {}",
                    g.group,
                    g.median,
                    median(&values)
                );
                out.insert(("median".to_string(), g.group.clone()));
            }
            // A histogram draws the observations of the file's first group,
            // or a binned file's rows ("0-15": 140) as they are.
            let first: Vec<f64> = csv.columns.first().map(|g| obs(g)).unwrap_or_default();
            let binned = csv.index.len() == stat.bins.len()
                && csv.index.iter().all(|l| l.contains(['-', '–']));
            for (i, b) in stat.bins.iter().enumerate() {
                let last = i + 1 == stat.bins.len();
                let n = if binned {
                    first[i] as usize
                } else {
                    first
                        .iter()
                        .filter(|v| **v >= b.start && (**v < b.end || last && **v <= b.end))
                        .count()
                };
                assert_eq!(b.count as usize, n, "{what}: bin {}..{}", b.start, b.end);
                out.insert(("bin".to_string(), format!("{}", b.start)));
            }
            continue;
        }
        check_marks(p, csv, shares, what, &mut out);
    }
    out
}

fn check_marks(
    p: &PanelScene,
    csv: &PrintedCsv,
    shares: bool,
    what: &str,
    out: &mut BTreeSet<(String, String)>,
) {
    for m in &p.marks {
        if m.kind == MarkKind::Median {
            continue;
        }
        let Some(cat) = m.category.as_deref() else {
            continue;
        };
        let (Some(col), Some(row)) = (
            csv.series.get(&m.series),
            csv.index.iter().position(|c| c == cat),
        ) else {
            continue;
        };
        let Some(v) = col[row] else { continue };
        // A percent stack draws each row's shares, rounded to tenths that
        // add up to 100 (a share may move by a tenth to get there).
        let (want, slack) = if shares {
            let total: f64 = csv.series.values().filter_map(|c| c[row]).sum();
            (100.0 * v / total, 0.15)
        } else {
            (v, 0.0)
        };
        assert!(
            (m.value - want).abs() <= slack || near(m.value, want),
            "{what}: {} at {cat} drawn {} vs CSV {want}",
            m.series,
            m.value
        );
        out.insert((m.series.clone(), cat.to_string()));
    }
}

/// Whether a perturbation applied on some table of the kind, and how often.
#[derive(Default)]
struct Tally {
    applied: usize,
    severities: BTreeSet<u8>,
    swaps: BTreeSet<&'static str>,
}

#[test]
fn every_new_kind_takes_part_in_every_applicable_perturbation() {
    let dir = tempfile::tempdir().unwrap();
    let all = tables(dir.path());
    let themes = chartstress::spec::builtin_themes();
    let mut matrix: BTreeMap<(ChartKind, &'static str), Tally> = BTreeMap::new();
    for kind in new_kinds() {
        let picked = tables_for(kind, &all);
        assert!(!picked.is_empty(), "no table suits {kind:?}");
        eprintln!(
            "{kind:?}: {:?}",
            picked.iter().map(|t| t.id.as_str()).collect::<Vec<_>>()
        );
        for t in picked {
            let csv = csv_of(t).unwrap();
            let others: Vec<&Table> = all.iter().filter(|o| o.id != t.id).collect();
            let ctx = ChartContext {
                seed: 17,
                themes: &themes,
                distractors: &others,
            };
            let spec = furnished(t, kind);
            let shares = kind == ChartKind::PercentStackedBar;
            let rendered = chartstress::render::render(&spec).unwrap();
            let what = format!("{kind:?} {}", t.id);
            let before = shown(&rendered.scene, &t.id, &csv, shares, &what);
            assert!(!before.is_empty(), "{what}: no mark matches the CSV");
            let qs = sweep::questions_of(&t.id, &spec);
            let mut outcomes = sweep::sweep_spec(&spec, &ctx, &qs, |_| true);
            // A subtitle is added only to a chart printing none.
            let plain =
                chartstress::spec::single(t, kind, &chartstress::spec::theme("classic").unwrap())
                    .unwrap();
            let plain_qs = sweep::questions_of(&t.id, &plain);
            outcomes.extend(sweep::sweep_spec(&plain, &ctx, &plain_qs, |i| {
                i.name == "subtitle_added"
            }));
            for (name, list) in &outcomes {
                let info = perturb::info(name).unwrap();
                let tally = matrix.entry((kind, *name)).or_default();
                for o in list {
                    tally.applied += 1;
                    tally.severities.insert(o.severity);
                    let what = format!("{what} {name} s{}", o.severity);
                    let now = shown(&o.scene, &t.id, &csv, shares, &what);
                    if info.name.starts_with("kind_swap") {
                        tally.swaps.insert(o.applied.value.panels()[0].kind.name());
                    }
                    // Every value the original showed is still drawn, and
                    // drawn right (a split into panels may spread them).
                    if info.effect == AnswerEffect::Preserving || info.name.starts_with("kind_swap")
                    {
                        let lost: Vec<_> = before.difference(&now).collect();
                        assert!(lost.is_empty(), "{what}: no longer drawn: {lost:?}");
                    }
                }
            }
            // SVG and image stages act on what was drawn.
            let pixels = chartstress::render::rasterize(&rendered.svg).unwrap();
            let png = chartstress::render::encode_png(&pixels).unwrap();
            for p in perturb::chart_perturbations() {
                let info = p.info();
                for severity in [1u8, 5] {
                    let hit = match info.stage {
                        Stage::Svg => p
                            .apply_svg(&rendered.svg, &rendered.scene, severity, 7)
                            .is_some(),
                        Stage::Image => perturb::apply_image_png(*p, &png, severity, 7)
                            .unwrap()
                            .is_some(),
                        _ => false,
                    };
                    if hit {
                        let tally = matrix.entry((kind, info.name)).or_default();
                        tally.applied += 1;
                        tally.severities.insert(severity);
                    }
                }
            }
        }
    }
    // The matrix: applies, or a reason stated by the perturbation.
    let mut missing = Vec::new();
    let mut table = String::from("| perturbation |");
    for kind in new_kinds() {
        table.push_str(&format!(" {} |", kind.name()));
    }
    table.push_str("\n|---|");
    table.push_str(&"---|".repeat(new_kinds().len()));
    table.push('\n');
    let mut reasons = BTreeMap::new();
    for p in perturb::chart_perturbations() {
        let name = p.info().name;
        table.push_str(&format!("| `{name}` |"));
        for kind in new_kinds() {
            let tally = matrix.get(&(kind, name));
            let cell = match (tally, p.not_for(kind)) {
                (Some(t), None) if t.swaps.is_empty() => "yes".to_string(),
                (Some(t), None) => t.swaps.iter().copied().collect::<Vec<_>>().join(", "),
                (None, Some(reason)) => {
                    let n = reasons.len() + 1;
                    let key = *reasons.entry(reason).or_insert(n);
                    format!("no ({key})")
                }
                (Some(_), Some(reason)) => {
                    missing.push(format!("{name} applies to {kind:?} but says: {reason}"));
                    "?".into()
                }
                (None, None) => {
                    missing.push(format!(
                        "{name} never applies to {kind:?} and gives no reason"
                    ));
                    "?".into()
                }
            };
            table.push_str(&format!(" {cell} |"));
        }
        table.push('\n');
    }
    let mut notes: Vec<(usize, &str)> = reasons.into_iter().map(|(r, n)| (n, r)).collect();
    notes.sort();
    for (n, r) in notes {
        table.push_str(&format!("\n({n}) {r}"));
    }
    eprintln!("{table}");
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

/// `kind_swap_new` swaps bars, signed bars and grouped bars into the newer
/// kinds that draw the same values: every value the original drew is drawn
/// on the swapped chart, as the CSV has it, and the oracle and the reader
/// answer the original's data questions there.
#[test]
fn kind_swap_new_keeps_every_value_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let all = tables(dir.path());
    let themes = chartstress::spec::builtin_themes();
    // Coffee and tea over more countries than a slope chart names or a
    // radar holds as spokes: neither.
    let cases: [(&str, ChartKind, &[ChartKind]); 4] = [
        ("browser_share_pie", ChartKind::Bar, &[ChartKind::Lollipop]),
        // One signed series as diverging bars would be the same bars.
        ("gdp_growth_g7", ChartKind::Bar, &[ChartKind::Lollipop]),
        (
            "company_profit_loss",
            ChartKind::GroupedBar,
            &[ChartKind::Dumbbell, ChartKind::Slope],
        ),
        ("coffee_tea", ChartKind::GroupedBar, &[ChartKind::Dumbbell]),
    ];
    let swap = perturb::find("kind_swap_new").unwrap();
    assert!(perturb::registry::OPT_IN.contains(&"kind_swap_new"));
    for (id, kind, want) in cases {
        let t = all.iter().find(|t| t.id == id).unwrap();
        let csv = csv_of(t).unwrap();
        let others: Vec<&Table> = all.iter().filter(|o| o.id != t.id).collect();
        let ctx = ChartContext {
            seed: 17,
            themes: &themes,
            distractors: &others,
        };
        let style = chartstress::spec::theme("classic").unwrap();
        let spec = chartstress::spec::single(t, kind, &style).unwrap();
        let scene = chartstress::render::render(&spec).unwrap().scene;
        let before = shown(&scene, id, &csv, false, id);
        let qs = sweep::questions_of(id, &spec);
        let mut got = BTreeSet::new();
        for severity in 1..=5u8 {
            let a = swap
                .apply_spec(&spec, severity, &ctx)
                .unwrap_or_else(|| panic!("{id} s{severity}: no swap"));
            let to = a.value.panels()[0].kind;
            got.insert(to);
            assert_eq!(a.value.panels()[0].series, spec.panels()[0].series);
            let r = chartstress::render::render(&a.value).unwrap();
            let what = format!("{id} {kind:?}→{to:?}");
            let now = shown(&r.scene, id, &csv, false, &what);
            let lost: Vec<_> = before.difference(&now).collect();
            assert!(lost.is_empty(), "{what}: no longer drawn: {lost:?}");
            let view = chartstress::reader::View::for_item(&[], false);
            for q in qs
                .iter()
                .filter(|q| !chartstress::query::is_descriptive(&q.query))
            {
                let now = chartstress::query::execute(&q.query, &a.value, &r.scene);
                // Answered, or refused as a near tie the new kind shows
                // less precisely: never a different answer.
                if let Ok(answer) = now {
                    assert_eq!(answer, q.answer, "{what}: {}", q.text);
                    let reading = chartstress::reader::answer(&q.query, &a.value, &r.scene, &view);
                    if matches!(reading, chartstress::reader::Reading::Answer(_)) {
                        assert!(
                            chartstress::reader::agrees(&q.answer, &reading),
                            "{what} reader: {} gold {:?} read {reading:?}",
                            q.text,
                            q.answer
                        );
                    }
                }
            }
        }
        let got: Vec<ChartKind> = got.into_iter().collect();
        let mut want = want.to_vec();
        want.sort();
        assert_eq!(got, want, "{id}");
    }
    // Lines, stacks and slices have no newer kind drawing their values.
    let t = all.iter().find(|t| t.id == "energy_mix_stacked").unwrap();
    let style = chartstress::spec::theme("classic").unwrap();
    for kind in [ChartKind::Line, ChartKind::StackedBar] {
        let spec = chartstress::spec::single(t, kind, &style).unwrap();
        let ctx = ChartContext {
            seed: 1,
            themes: &themes,
            distractors: &[],
        };
        assert!(swap.apply_spec(&spec, 3, &ctx).is_none(), "{kind:?}");
    }
}

/// The slope families (which category rises or falls the most from the
/// left column to the right one) are asked of slope charts, answered by the
/// oracle as the CSV says (recomputed here) and by the reader from the scene.
#[test]
fn slope_charts_ask_which_category_rises_or_falls_the_most() {
    let dir = tempfile::tempdir().unwrap();
    crate::support::run_ok(
        crate::support::bin()
            .args([
                "synth", "--seed", "11", "--count", "8", "--kind", "pair", "-o",
            ])
            .arg(dir.path()),
    );
    let (mut tables, errors) = chartstress::table::load_tables(
        &[
            dir.path().to_path_buf(),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures"),
        ],
        false,
    );
    assert!(errors.is_empty(), "{errors:?}");
    tables.sort_by(|a, b| a.id.cmp(&b.id));
    let style = chartstress::spec::theme("classic").unwrap();
    let view = chartstress::reader::View::for_item(&[], false);
    let mut asked: BTreeMap<String, usize> = BTreeMap::new();
    for t in tables
        .iter()
        .filter(|t| chartstress::spec::suitable_kinds(t).contains(&ChartKind::Slope))
    {
        let Some(csv) = csv_of(t) else { continue };
        let spec = chartstress::spec::single(t, ChartKind::Slope, &style).unwrap();
        let scene = chartstress::render::render(&spec).unwrap().scene;
        let opts = chartstress::questions::QuestionOptions {
            seed: 5,
            count: 4,
            types: vec![chartstress::ir::QuestionType::Factoid],
            families: vec!["largest_rise".into(), "largest_fall".into()],
            unanswerable_share: 0.0,
        };
        let qs = chartstress::questions::generate(&t.id, &spec, &scene, &opts);
        // The left column is the file's first, the right its second.
        let (a, b) = (&csv.series[&csv.columns[0]], &csv.series[&csv.columns[1]]);
        for q in qs {
            let rise = match q.family.as_str() {
                "largest_rise" => true,
                "largest_fall" => false,
                other => panic!("{}: unexpected family {other}", t.id),
            };
            let changes: Vec<f64> = a
                .iter()
                .zip(b)
                .map(|(x, y)| {
                    let d = y.unwrap() - x.unwrap();
                    if rise { d } else { -d }
                })
                .collect();
            let best = (0..changes.len())
                .max_by(|i, j| changes[*i].total_cmp(&changes[*j]))
                .unwrap();
            assert!(changes[best] > 0.0, "{}: {}", t.id, q.text);
            assert_eq!(
                q.answer,
                chartstress::ir::Answer::Text {
                    value: csv.index[best].clone()
                },
                "{}: {}",
                t.id,
                q.text
            );
            let verb = if rise {
                "rises the most"
            } else {
                "falls the most"
            };
            assert!(q.text.contains(verb), "{}", q.text);
            // Measures read in lower case mid-sentence.
            let text = q.text.to_lowercase();
            assert!(
                text.contains(&csv.columns[0].to_lowercase())
                    && text.contains(&csv.columns[1].to_lowercase()),
                "{}",
                q.text
            );
            let reading = chartstress::reader::answer(&q.query, &spec, &scene, &view);
            assert!(
                chartstress::reader::agrees(&q.answer, &reading),
                "reader on {}: {} gold {:?}, read {reading:?}",
                t.id,
                q.text,
                q.answer
            );
            *asked.entry(q.family.clone()).or_default() += 1;
        }
    }
    eprintln!("{asked:?}");
    assert!(
        asked.get("largest_rise").is_some_and(|n| *n >= 3),
        "{asked:?}"
    );
    assert!(
        asked.get("largest_fall").is_some_and(|n| *n >= 3),
        "{asked:?}"
    );
}
