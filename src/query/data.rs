//! Data families, answered from the panel's table and checked against the marks drawn.

use super::trend::classify_trend;
use super::{Ctx, FALSE_CLAIM_REL_GAP, MIN_REL_GAP, Refusal, RefusalKind};
use crate::ir::decimal::{Decimal, shown_decimals};
use crate::ir::query::{AggregateOp, CellRef, Query};
use crate::ir::{Answer, ChartKind, ColumnType, NumberFormat, PanelSpec};

/// One drawn series of a panel.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesData {
    pub name: String,
    pub values: Vec<Option<f64>>,
    pub format: NumberFormat,
}

/// The panel's table as the executor sees it: drawn series only.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelData {
    pub kind: ChartKind,
    pub categories: Vec<String>,
    pub index_type: ColumnType,
    pub series: Vec<SeriesData>,
    /// Table series that exist but are not drawn ("series not shown").
    pub hidden: Vec<String>,
    /// The value axis' title ("Homicide rate", "Percent"): what the series
    /// measure when their names are places or kinds.
    pub value_title: Option<String>,
}

impl PanelData {
    pub fn from_panel(panel: &PanelSpec) -> PanelData {
        let table = &panel.table;
        let rows = table.n_rows();
        let series = panel
            .series
            .iter()
            .filter_map(|name| table.series(name))
            .map(|c| {
                // A ragged column reads as missing cells, never out of bounds.
                let mut values = c.values();
                values.resize(rows, None);
                // Questions and golds print at most the capped decimals.
                let mut format = c.format.clone();
                format.decimals = shown_decimals(format.decimals, values.iter().flatten().copied());
                SeriesData {
                    name: c.name.clone(),
                    values,
                    format,
                }
            })
            .collect();
        PanelData {
            kind: panel.kind,
            categories: table.category_labels(),
            index_type: table.index.ctype,
            series,
            hidden: table
                .series
                .iter()
                .filter(|c| !panel.series.contains(&c.name))
                .map(|c| c.name.clone())
                .collect(),
            value_title: panel.value_axis_title().map(str::to_string),
        }
    }

    pub fn series(&self, name: &str) -> Option<&SeriesData> {
        self.series.iter().find(|s| s.name == name)
    }

    pub fn row(&self, category: &str) -> Option<usize> {
        self.categories.iter().position(|c| c == category)
    }

    /// Whether the index is ordered (years, dates, numbers), so trends make sense.
    pub fn ordered_index(&self) -> bool {
        matches!(
            self.index_type,
            ColumnType::Year | ColumnType::Date | ColumnType::Number
        )
    }

    /// Whether the panel shows categories with values (not scatter/bubble).
    pub fn categorical(&self) -> bool {
        !matches!(self.kind, ChartKind::Scatter | ChartKind::Bubble)
    }

    /// Applies a hypothetical change (scale a cell or a whole series), in
    /// decimal: 1.0905 scaled by 1.1 is 1.19955.
    pub fn apply(&mut self, series: &str, category: Option<&str>, factor: f64) -> bool {
        let row = category.map(|c| self.row(c));
        let Some(s) = self.series.iter_mut().find(|s| s.name == series) else {
            return false;
        };
        match row {
            Some(None) => false,
            Some(Some(r)) => match s.values[r].as_mut() {
                Some(v) => {
                    *v = scaled(*v, factor);
                    true
                }
                None => false,
            },
            None => {
                for v in s.values.iter_mut().flatten() {
                    *v = scaled(*v, factor);
                }
                true
            }
        }
    }
}

fn scaled(v: f64, factor: f64) -> f64 {
    Decimal::from_f64(v)
        .times(Decimal::from_f64(factor))
        .to_f64()
}

/// Early exits of a data query: the entity is not in the chart (an answer)
/// or the executor refuses.
pub(crate) enum Stop {
    Unanswerable,
    Refuse(Refusal),
}

impl From<Refusal> for Stop {
    fn from(r: Refusal) -> Stop {
        Stop::Refuse(r)
    }
}

type R<T> = Result<T, Stop>;

fn refuse<T>(kind: RefusalKind, detail: impl Into<String>) -> R<T> {
    Err(Stop::Refuse(Refusal::new(kind, detail)))
}

pub(crate) fn execute(query: &Query, ctx: &Ctx) -> Result<Answer, Refusal> {
    if !ctx.data.categorical() {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "data questions need a categorical chart",
        ));
    }
    match run(query, ctx) {
        Ok(a) => Ok(a),
        Err(Stop::Unanswerable) => Ok(Answer::Unanswerable),
        Err(Stop::Refuse(r)) => Err(r),
    }
}

/// Unit shown with a number of this format (`$`, `%`, `€`).
pub fn unit_of(format: &NumberFormat) -> Option<String> {
    format
        .suffix
        .clone()
        .or_else(|| format.prefix.clone())
        .map(|u| u.trim().to_string())
        .filter(|u| !u.is_empty())
}

/// A number printed as the chart's format prints it: prefix, thousands, decimals, suffix.
pub fn display_number(value: f64, decimals: u8, format: &NumberFormat) -> String {
    let body = crate::ir::answer::format_number(value, decimals);
    let body = if format.thousands {
        group_thousands(&body)
    } else {
        body
    };
    let (sign, digits) = match body.strip_prefix('-') {
        Some(rest) => ("-", rest.to_string()),
        None => ("", body),
    };
    format!(
        "{sign}{}{digits}{}",
        format.prefix.as_deref().unwrap_or(""),
        format.suffix.as_deref().unwrap_or("")
    )
}

fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    let mut grouped = String::new();
    for (i, ch) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// Parses a printed number ("$1,234.5", "12%", "-3") ignoring units and separators.
pub fn parse_number(text: &str) -> Option<f64> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter(|c| c.is_ascii_digit() || matches!(c, '.' | '-'))
        .collect();
    if cleaned.is_empty() || cleaned == "-" || cleaned == "." {
        return None;
    }
    cleaned.parse().ok()
}

/// A number answer from a value the table prints (exact in decimal).
pub(crate) fn number(value: f64, decimals: u8, unit: Option<String>) -> Result<Answer, Refusal> {
    if !value.is_finite() {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "not a finite number",
        ));
    }
    decimal_number(Decimal::from_f64(value), decimals, unit)
}

/// A number answer from a decimal value. An exact value is never ambiguous:
/// it rounds half away from zero, so a sum of 1.25 asked to one decimal is
/// 1.3. An inexact one (a quotient that does not terminate, an overflow)
/// is refused when it lies within a millionth of a step of a rounding
/// boundary, where its side of the boundary is not certain.
pub(crate) fn decimal_number(
    value: Decimal,
    decimals: u8,
    unit: Option<String>,
) -> Result<Answer, Refusal> {
    let v = value.to_f64();
    if !v.is_finite() {
        return Err(Refusal::new(
            RefusalKind::Unsupported,
            "not a finite number",
        ));
    }
    if !value.is_exact() {
        let scaled = v.abs() * 10f64.powi(i32::from(decimals));
        let frac = scaled - scaled.floor();
        if (frac - 0.5).abs() < 1e-6 {
            return Err(Refusal::new(
                RefusalKind::AmbiguousRounding,
                format!("{value} is on a rounding boundary at {decimals} decimals"),
            ));
        }
    }
    // The gold prints from the f64: it must print as the decimal does.
    if crate::ir::answer::format_number(v, decimals) != value.format(decimals) {
        return Err(Refusal::new(
            RefusalKind::AmbiguousRounding,
            format!("{value} does not print exactly at {decimals} decimals"),
        ));
    }
    Ok(Answer::Number {
        value: v,
        decimals,
        unit,
    })
}

fn dec(v: f64) -> Decimal {
    Decimal::from_f64(v)
}

fn dec_sum(values: &[f64]) -> Decimal {
    values.iter().fold(Decimal::ZERO, |s, v| s.plus(dec(*v)))
}

fn dec_div(a: Decimal, b: Decimal) -> R<Decimal> {
    a.over(b)
        .ok_or_else(|| Stop::Refuse(Refusal::new(RefusalKind::Unsupported, "division by zero")))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < MIN_REL_GAP * a.abs().max(b.abs()).max(1e-12)
}

fn series<'a>(ctx: &'a Ctx, name: &str) -> R<&'a super::data::SeriesData> {
    match ctx.data.series(name) {
        Some(s) => {
            ensure_drawn(ctx, name)?;
            Ok(s)
        }
        // Hidden or unknown series: the chart does not show it.
        None => Err(Stop::Unanswerable),
    }
}

fn ensure_drawn(ctx: &Ctx, name: &str) -> R<()> {
    if !ctx.check_marks {
        return Ok(());
    }
    let circular = ctx.data.kind.is_circular();
    if ctx.scene.marks.iter().any(|m| m.series == name || circular) {
        Ok(())
    } else {
        refuse(RefusalKind::NotDrawn, format!("no marks drawn for {name}"))
    }
}

fn row(ctx: &Ctx, category: &str) -> R<usize> {
    ctx.data.row(category).ok_or(Stop::Unanswerable)
}

fn cell(ctx: &Ctx, s: &str, c: &str) -> R<f64> {
    let sd = series(ctx, s)?;
    let r = row(ctx, c)?;
    let Some(v) = sd.values[r] else {
        return refuse(RefusalKind::MissingCell, format!("{s} at {c} is missing"));
    };
    if ctx.check_marks {
        let circular = ctx.data.kind.is_circular();
        let mark = ctx
            .scene
            .marks
            .iter()
            .find(|m| m.category.as_deref() == Some(c) && (m.series == s || circular));
        match mark {
            Some(m) if (m.value - v).abs() <= 1e-9 * v.abs().max(1.0) => {}
            Some(_) => {
                return refuse(
                    RefusalKind::NotDrawn,
                    format!("the mark of {s} at {c} does not show the table value"),
                );
            }
            None => return refuse(RefusalKind::NotDrawn, format!("no mark for {s} at {c}")),
        }
    }
    Ok(v)
}

/// A table cell as the chart shows it: None when the chart does not show the entity.
pub(crate) fn table_value(ctx: &Ctx, s: &str, c: &str) -> Result<Option<f64>, Refusal> {
    match cell(ctx, s, c) {
        Ok(v) => Ok(Some(v)),
        Err(Stop::Unanswerable) => Ok(None),
        Err(Stop::Refuse(r)) => Err(r),
    }
}

fn full(ctx: &Ctx, s: &str) -> R<Vec<f64>> {
    let sd = series(ctx, s)?;
    sd.values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            v.ok_or_else(|| {
                Stop::Refuse(Refusal::new(
                    RefusalKind::MissingCell,
                    format!("{s} at {} is missing", ctx.data.categories[i]),
                ))
            })
        })
        .collect()
}

fn fmt(ctx: &Ctx, s: &str) -> NumberFormat {
    ctx.data
        .series(s)
        .map(|sd| sd.format.clone())
        .unwrap_or_default()
}

fn category_answer(ctx: &Ctx, row: usize) -> Answer {
    let label = &ctx.data.categories[row];
    if ctx.data.index_type == ColumnType::Year
        && let Ok(y) = label.parse::<i32>()
    {
        return Answer::Year { value: y };
    }
    Answer::Text {
        value: label.clone(),
    }
}

/// Index of the largest value, refusing near ties.
fn best(values: &[(usize, f64)], largest: bool, what: &str) -> R<usize> {
    let mut sorted = values.to_vec();
    sorted.sort_by(|a, b| {
        let o = a.1.total_cmp(&b.1);
        if largest { o.reverse() } else { o }
    });
    let Some(first) = sorted.first() else {
        return refuse(RefusalKind::Unsupported, "no values");
    };
    if let Some(second) = sorted.get(1)
        && close(first.1, second.1)
    {
        return refuse(RefusalKind::Tie, format!("near tie for the {what}"));
    }
    Ok(first.0)
}

fn series_names(ctx: &Ctx, series: &Option<String>) -> R<Vec<String>> {
    match series {
        Some(s) => {
            self::series(ctx, s)?;
            Ok(vec![s.clone()])
        }
        None => Ok(ctx.data.series.iter().map(|s| s.name.clone()).collect()),
    }
}

/// Best value per category over the given series.
fn per_category(ctx: &Ctx, names: &[String], largest: bool) -> R<Vec<(usize, f64)>> {
    let columns: Vec<Vec<f64>> = names.iter().map(|n| full(ctx, n)).collect::<R<_>>()?;
    Ok((0..ctx.data.categories.len())
        .map(|r| {
            let it = columns.iter().map(|c| c[r]);
            let v = if largest {
                it.fold(f64::NEG_INFINITY, f64::max)
            } else {
                it.fold(f64::INFINITY, f64::min)
            };
            (r, v)
        })
        .collect())
}

fn max_decimals(ctx: &Ctx, names: &[&str]) -> u8 {
    names
        .iter()
        .map(|n| fmt(ctx, n).decimals)
        .max()
        .unwrap_or(0)
}

fn shared_unit(ctx: &Ctx, names: &[&str]) -> Option<String> {
    let units: Vec<Option<String>> = names.iter().map(|n| unit_of(&fmt(ctx, n))).collect();
    if units.windows(2).all(|w| w[0] == w[1]) {
        units.into_iter().next().flatten()
    } else {
        None
    }
}

fn two_cells(ctx: &Ctx, a: &CellRef, b: &CellRef) -> R<(f64, f64)> {
    if a == b {
        return refuse(RefusalKind::Unsupported, "both operands are the same cell");
    }
    Ok((
        cell(ctx, &a.series, &a.category)?,
        cell(ctx, &b.series, &b.category)?,
    ))
}

fn run(query: &Query, ctx: &Ctx) -> R<Answer> {
    let d = &ctx.data;
    Ok(match query {
        Query::ValueAt {
            series, category, ..
        } => {
            let v = cell(ctx, series, category)?;
            let f = fmt(ctx, series);
            number(v, f.decimals, unit_of(&f))?
        }
        Query::Argmax { series, .. } | Query::Argmin { series, .. } => {
            let largest = matches!(query, Query::Argmax { .. });
            let names = series_names(ctx, series)?;
            let values = per_category(ctx, &names, largest)?;
            let r = best(&values, largest, "extreme category")?;
            category_answer(ctx, r)
        }
        Query::MaxValue { series, .. } | Query::MinValue { series, .. } => {
            let largest = matches!(query, Query::MaxValue { .. });
            let names = series_names(ctx, series)?;
            let values = per_category(ctx, &names, largest)?;
            let v = values
                .iter()
                .map(|x| x.1)
                .reduce(if largest { f64::max } else { f64::min })
                .ok_or_else(|| Stop::Refuse(Refusal::new(RefusalKind::Unsupported, "empty")))?;
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            number(v, max_decimals(ctx, &refs), shared_unit(ctx, &refs))?
        }
        Query::Difference { a, b, .. } => {
            let (x, y) = two_cells(ctx, a, b)?;
            // "The difference between A and B" is read as larger minus smaller
            // by many; asking it only that way keeps it indisputable.
            if x < y {
                return refuse(
                    RefusalKind::Unsupported,
                    "differences are asked larger minus smaller",
                );
            }
            let names = [a.series.as_str(), b.series.as_str()];
            decimal_number(
                dec(x).minus(dec(y)),
                max_decimals(ctx, &names),
                shared_unit(ctx, &names),
            )?
        }
        Query::Ratio { a, b, decimals, .. } => {
            let (x, y) = two_cells(ctx, a, b)?;
            if y <= 1e-12 || x < 0.0 {
                return refuse(RefusalKind::Unsupported, "ratios of positive values only");
            }
            decimal_number(dec_div(dec(x), dec(y))?, *decimals, None)?
        }
        Query::PercentChange {
            series,
            from,
            to,
            decimals,
            ..
        } => {
            if from == to {
                return refuse(RefusalKind::Unsupported, "same category twice");
            }
            let x = cell(ctx, series, from)?;
            let y = cell(ctx, series, to)?;
            // Percent change from zero or a negative base has no agreed meaning.
            if x <= 1e-12 {
                return refuse(RefusalKind::Unsupported, "change from a non-positive base");
            }
            let change = dec(y).minus(dec(x)).times(Decimal::from_int(100));
            decimal_number(dec_div(change, dec(x).abs())?, *decimals, Some("%".into()))?
        }
        Query::Aggregate {
            agg,
            series,
            categories,
            decimals,
            ..
        } => {
            let values: Vec<f64> = if categories.is_empty() {
                full(ctx, series)?
            } else {
                let mut seen = categories.clone();
                seen.sort();
                seen.dedup();
                if seen.len() != categories.len() || categories.len() < 2 {
                    return refuse(RefusalKind::Unsupported, "subset needs distinct categories");
                }
                categories
                    .iter()
                    .map(|c| cell(ctx, series, c))
                    .collect::<R<_>>()?
            };
            if values.is_empty() {
                return refuse(RefusalKind::Unsupported, "no values");
            }
            let f = fmt(ctx, series);
            let v = match agg {
                AggregateOp::Sum => dec_sum(&values),
                AggregateOp::Mean => dec_div(dec_sum(&values), count(values.len()))?,
                AggregateOp::Median => {
                    let mut s = values.clone();
                    s.sort_by(f64::total_cmp);
                    let n = s.len();
                    if n % 2 == 1 {
                        dec(s[n / 2])
                    } else {
                        dec_div(dec(s[n / 2 - 1]).plus(dec(s[n / 2])), count(2))?
                    }
                }
            };
            decimal_number(v, decimals.unwrap_or(f.decimals), unit_of(&f))?
        }
        Query::CountThreshold {
            series,
            threshold,
            above,
            ..
        } => {
            let values = full(ctx, series)?;
            let scale = values.iter().fold(0f64, |m, v| m.max(v.abs())).max(1e-12);
            if values
                .iter()
                .any(|v| (v - threshold).abs() < MIN_REL_GAP * scale)
            {
                return refuse(
                    RefusalKind::TooClose,
                    "a value is too close to the threshold",
                );
            }
            let n = values
                .iter()
                .filter(|v| {
                    if *above {
                        **v > *threshold
                    } else {
                        **v < *threshold
                    }
                })
                .count();
            number(n as f64, 0, None)?
        }
        Query::Compare { a, b, .. } => {
            let (x, y) = two_cells(ctx, a, b)?;
            if close(x, y) {
                return refuse(RefusalKind::TooClose, "the two values are too close");
            }
            Answer::YesNo { value: x > y }
        }
        Query::Rank {
            series, category, ..
        } => {
            let values = full(ctx, series)?;
            let r = row(ctx, category)?;
            let v = values[r];
            if values
                .iter()
                .enumerate()
                .any(|(i, w)| i != r && close(v, *w))
            {
                return refuse(
                    RefusalKind::Tie,
                    "another category has nearly the same value",
                );
            }
            let rank = 1 + values.iter().filter(|w| **w > v).count();
            number(rank as f64, 0, None)?
        }
        Query::Trend { series, .. } => {
            if !d.ordered_index() {
                return refuse(RefusalKind::Unsupported, "trend needs an ordered index");
            }
            let values = full(ctx, series)?;
            let shape = classify_trend(&values)?;
            Answer::Text {
                value: shape.label().into(),
            }
        }
        Query::LargestChange {
            series, increase, ..
        } => {
            if !d.ordered_index() {
                return refuse(RefusalKind::Unsupported, "changes need an ordered index");
            }
            let values = full(ctx, series)?;
            if values.len() < 3 {
                return refuse(RefusalKind::Unsupported, "needs at least two steps");
            }
            let steps: Vec<(usize, f64)> = values
                .windows(2)
                .enumerate()
                .map(|(i, w)| (i + 1, w[1] - w[0]))
                .collect();
            let r = best(&steps, *increase, "largest change")?;
            let step = steps.iter().find(|s| s.0 == r).map(|s| s.1).unwrap_or(0.0);
            if (*increase && step <= 0.0) || (!*increase && step >= 0.0) {
                return refuse(RefusalKind::Unsupported, "no step goes that way");
            }
            category_answer(ctx, r)
        }
        Query::MaxGap { a, b, .. } => {
            if a == b {
                return refuse(RefusalKind::Unsupported, "same series twice");
            }
            let x = full(ctx, a)?;
            let y = full(ctx, b)?;
            let gaps: Vec<(usize, f64)> = x
                .iter()
                .zip(&y)
                .enumerate()
                .map(|(i, (p, q))| (i, (p - q).abs()))
                .collect();
            let r = best(&gaps, true, "largest gap")?;
            category_answer(ctx, r)
        }
        Query::SlopeChange { from, to, rise, .. } => {
            let r = super::slope::largest_change(&full(ctx, from)?, &full(ctx, to)?, *rise)?;
            category_answer(ctx, r)
        }
        Query::Crosses { a, b, .. } => {
            if !matches!(d.kind, ChartKind::Line | ChartKind::Area) {
                return refuse(RefusalKind::Unsupported, "crossings are asked of lines");
            }
            if a == b {
                return refuse(RefusalKind::Unsupported, "same series twice");
            }
            let x = full(ctx, a)?;
            let y = full(ctx, b)?;
            Answer::YesNo {
                value: crossing(&x, &y)?,
            }
        }
        Query::Share {
            series,
            category,
            decimals,
            ..
        } => {
            let total = positive_total(ctx, series)?;
            let v = dec(cell(ctx, series, category)?).times(Decimal::from_int(100));
            decimal_number(dec_div(v, total)?, *decimals, Some("%".into()))?
        }
        Query::ShareSum {
            series,
            categories,
            decimals,
            ..
        } => {
            let total = positive_total(ctx, series)?;
            let mut seen = categories.clone();
            seen.sort();
            seen.dedup();
            if seen.len() != categories.len() || categories.len() < 2 {
                return refuse(RefusalKind::Unsupported, "needs distinct categories");
            }
            let mut sum = Decimal::ZERO;
            for c in categories {
                sum = sum.plus(dec(cell(ctx, series, c)?));
            }
            let sum = sum.times(Decimal::from_int(100));
            decimal_number(dec_div(sum, total)?, *decimals, Some("%".into()))?
        }
        Query::Spread { series, .. } => {
            let values = full(ctx, series)?;
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let f = fmt(ctx, series);
            decimal_number(dec(hi).minus(dec(lo)), f.decimals, unit_of(&f))?
        }
        Query::TopMean {
            series,
            k,
            decimals,
            ..
        } => {
            let mut values = full(ctx, series)?;
            if *k < 2 || *k >= values.len() {
                return refuse(RefusalKind::Unsupported, "k out of range");
            }
            values.sort_by(|a, b| b.total_cmp(a));
            let v = dec_div(dec_sum(&values[..*k]), count(*k))?;
            decimal_number(v, *decimals, unit_of(&fmt(ctx, series)))?
        }
        other => {
            return refuse(
                RefusalKind::Unsupported,
                format!("{} is not a data query", super::family(other)),
            );
        }
    })
}

fn positive_total(ctx: &Ctx, series: &str) -> R<Decimal> {
    let values = full(ctx, series)?;
    if values.iter().any(|v| *v < 0.0) {
        return refuse(RefusalKind::Unsupported, "shares of negative values");
    }
    let total = dec_sum(&values);
    if total.to_f64() <= 0.0 {
        return refuse(RefusalKind::Unsupported, "total is zero");
    }
    Ok(total)
}

fn count(n: usize) -> Decimal {
    Decimal::from_int(i64::try_from(n).unwrap_or(i64::MAX))
}

/// Whether two series change order, refusing when they (nearly) meet at a tick.
pub(crate) fn crossing(x: &[f64], y: &[f64]) -> Result<bool, Refusal> {
    let scale = x
        .iter()
        .chain(y)
        .fold(0f64, |m, v| m.max(v.abs()))
        .max(1e-12);
    let mut sign = 0i8;
    let mut crosses = false;
    for (p, q) in x.iter().zip(y) {
        let diff = p - q;
        if diff.abs() < MIN_REL_GAP * scale {
            return Err(Refusal::new(
                RefusalKind::CrossingAtTick,
                "the lines meet at a tick",
            ));
        }
        let s = if diff > 0.0 { 1 } else { -1 };
        if sign != 0 && s != sign {
            crosses = true;
        }
        sign = s;
    }
    Ok(crosses)
}

/// Whether a claimed number is clearly true, clearly false, or too close to call.
pub(crate) fn judge_number(truth: f64, decimals: u8, claimed: f64) -> Option<bool> {
    let half_step = 0.5 * 10f64.powi(-i32::from(decimals));
    if (truth - claimed).abs() <= half_step + 1e-9 {
        Some(true)
    } else if (truth - claimed).abs() >= FALSE_CLAIM_REL_GAP * truth.abs().max(half_step * 2.0) {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(a: Result<Answer, Refusal>) -> String {
        a.map(|a| a.to_text())
            .unwrap_or_else(|r| format!("refused: {r}"))
    }

    #[test]
    fn exact_decimals_on_a_boundary_round_half_away_from_zero() {
        let sum = Decimal::from_f64(0.1).plus(Decimal::from_f64(1.15));
        assert_eq!(text(decimal_number(sum, 1, None)), "1.3");
        let diff = Decimal::from_f64(0.3).minus(Decimal::from_f64(0.1));
        assert_eq!(text(decimal_number(diff, 2, None)), "0.20");
        let neg = Decimal::from_f64(-2.675);
        assert_eq!(text(decimal_number(neg, 2, None)), "-2.68");
        // 1.2 + 2.3 is 3.5, not 3.4999999999999996.
        let a = decimal_number(Decimal::from_f64(1.2).plus(Decimal::from_f64(2.3)), 1, None);
        assert_eq!(
            a,
            Ok(Answer::Number {
                value: 3.5,
                decimals: 1,
                unit: None
            })
        );
    }

    #[test]
    fn inexact_values_near_a_boundary_are_refused() {
        // 1.25 divided by a number that does not terminate, landing within
        // a millionth of a step of the boundary: its side is not certain.
        let near = Decimal::from_f64(1.25)
            .times(Decimal::from_int(3_000_001))
            .over(Decimal::from_int(3_000_001))
            .unwrap();
        assert!(near.is_exact());
        let third = Decimal::from_int(1).over(Decimal::from_int(3)).unwrap();
        let inexact = Decimal::from_f64(1.25).plus(third.times(Decimal::from_f64(1e-9)));
        assert!(!inexact.is_exact());
        assert!(matches!(
            decimal_number(inexact, 1, None),
            Err(r) if r.kind == RefusalKind::AmbiguousRounding
        ));
        // Far from the boundary, an inexact value is answered.
        assert_eq!(text(decimal_number(third, 2, None)), "0.33");
    }

    #[test]
    fn non_finite_values_are_refused() {
        assert!(number(f64::NAN, 1, None).is_err());
        assert!(number(f64::INFINITY, 0, None).is_err());
    }
}
