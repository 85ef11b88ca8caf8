//! `report.html`: one self-contained page (inline CSS, inline plots, images
//! as data: URLs, no script, no network). Every string from suites, tables
//! and models goes through minijinja's HTML auto-escaping; only our own
//! CSS and base64 data URLs (chart images, plots rendered to PNG) are
//! inserted as safe.

use std::path::{Component, Path};

use base64::Engine;
use minijinja::value::Value;
use minijinja::{AutoEscape, Environment, context};

use super::{Failure, FailureSide, Report, ReportError, fmt_ci, fmt_opt, fmt_p, plots};

const TEMPLATE: &str = include_str!("../../templates/report/report.html.j2");
const GAPS_TEMPLATE: &str = include_str!("../../templates/report/gaps.html.j2");
const CSS: &str = include_str!("../../templates/report/style.css");

fn interval_text(v: Value) -> String {
    let get = |name: &str| v.get_attr(name).ok().and_then(|x| f64::try_from(x).ok());
    match (get("low"), get("high")) {
        (Some(low), Some(high)) => fmt_ci(Some(crate::stats::Interval { low, high })),
        _ => "–".into(),
    }
}

fn environment() -> Result<Environment<'static>, ReportError> {
    let mut env = Environment::new();
    env.set_auto_escape_callback(|_| AutoEscape::Html);
    env.add_filter("f1", |v: Option<f64>| fmt_opt(v, 1));
    env.add_filter("f2", |v: Option<f64>| fmt_opt(v, 2));
    env.add_filter("p", |v: Option<f64>| fmt_p(v));
    env.add_filter("ci", interval_text);
    for (name, source) in [
        ("report.html.j2", TEMPLATE),
        ("gaps.html.j2", GAPS_TEMPLATE),
    ] {
        env.add_template(name, source)
            .map_err(|e| ReportError::Render {
                what: name.into(),
                message: e.to_string(),
            })?;
    }
    Ok(env)
}

/// A chart image as a data: URL, when the path stays inside the suite.
fn data_url(suite: &Path, image: &str) -> Option<String> {
    let rel = Path::new(image);
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let bytes = std::fs::read(suite.join(rel)).ok()?;
    let mime = match rel.extension()?.to_str()?.to_ascii_lowercase().as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "svg" => "image/svg+xml",
        _ => return None,
    };
    Some(format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

fn side_value(suite: &Path, side: &FailureSide) -> Value {
    context! {
        id => side.id,
        image => side.image,
        question => side.question,
        gold => side.gold,
        prediction => side.prediction,
        score => side.score,
        img => data_url(suite, &side.image).map(Value::from_safe_string),
    }
}

fn failure_value(suite: &Path, f: &Failure) -> Value {
    context! {
        set => f.set,
        perturbations => f.perturbations,
        original => side_value(suite, &f.original),
        modified => side_value(suite, &f.modified),
    }
}

/// A plot as a PNG data URL rendered at twice its size for sharp display
/// (through the project's own resvg stack and fonts), with its CSS size.
fn plot_value(
    what: &str,
    alt: &str,
    svg: Option<Result<String, String>>,
) -> Result<Value, ReportError> {
    let render_err = |message: String| ReportError::Render {
        what: what.into(),
        message,
    };
    let svg = match svg {
        None => return Ok(Value::from(())),
        Some(result) => result.map_err(render_err)?,
    };
    let (width, height) = svg_size(&svg).ok_or_else(|| render_err("plot without a size".into()))?;
    let doubled = svg.replacen(
        &format!("width=\"{width}\" height=\"{height}\""),
        &format!("width=\"{}\" height=\"{}\"", width * 2, height * 2),
        1,
    );
    let png = crate::render::svg_to_png(&doubled).map_err(|e| render_err(e.to_string()))?;
    Ok(context! {
        src => Value::from_safe_string(format!(
            "data:image/png;base64,{}",
            base64::engine::general_purpose::STANDARD.encode(png)
        )),
        width => width,
        height => height,
        alt => alt,
    })
}

/// The `width`/`height` plotters writes on the root element.
fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |name: &str| -> Option<u32> {
        let start = head.find(&format!("{name}=\""))? + name.len() + 2;
        let end = start + head[start..].find('"')?;
        head[start..end].parse().ok()
    };
    Some((attr("width")?, attr("height")?))
}

pub fn render(report: &Report, suite: &Path) -> Result<String, ReportError> {
    let env = environment()?;
    let mut runs = Vec::new();
    for run in &report.runs {
        let axis_gaps: Vec<_> = run.axes.iter().map(|a| a.gap.clone()).collect();
        runs.push(context! {
            run => Value::from_serialize(run),
            set_plot => plot_value(
                "set accuracy plot",
                "Accuracy per set with 95% Wilson intervals",
                Some(plots::set_accuracy(run)),
            )?,
            curve_plot => plot_value(
                "robustness curves",
                "Robustness curves: accuracy by severity for each perturbation axis",
                plots::robustness_curves(run),
            )?,
            difficulty_plot => plot_value(
                "difficulty curves",
                "Accuracy by measured reading change and by visual distance",
                plots::difficulty_curves(run),
            )?,
            axis_gaps => Value::from_serialize(&axis_gaps),
            failures => run.failures.iter().map(|f| failure_value(suite, f)).collect::<Vec<_>>(),
        });
    }
    let comparison = context! {
        scatter => plot_value(
            "scatter plot",
            "Original vs modified accuracy, one point per run and modified set, with the diagonal",
            plots::scatter(report),
        )?,
        axis_gaps => plot_value(
            "axis gap plot",
            "Gap per perturbation axis, runs side by side",
            plots::axis_gaps(report),
        )?,
    };
    let set_names: Vec<&str> = crate::ir::SetName::ALL
        .iter()
        .map(|s| s.name())
        .filter(|name| {
            report
                .runs
                .iter()
                .any(|r| r.sets.iter().any(|s| s.set == *name))
        })
        .collect();
    let template = env
        .get_template("report.html.j2")
        .map_err(|e| ReportError::Render {
            what: "report.html".into(),
            message: e.to_string(),
        })?;
    template
        .render(context! {
            report => Value::from_serialize(report),
            runs => runs,
            comparison => comparison,
            set_names => set_names,
            css => Value::from_safe_string(CSS.to_string()),
        })
        .map_err(|e| ReportError::Render {
            what: "report.html".into(),
            message: format!("{e:#}"),
        })
}
