//! `ocr`: a pixel-reading baseline on Tesseract. It never reads the table or
//! the scene: it runs `tesseract IMAGE stdout tsv` for word boxes, groups the
//! words into lines, and answers only what printed text can answer — the
//! title (the largest line near the top), and a value printed on the chart
//! next to the category label the question names. The item's query says what
//! is asked; everything else gets the abstention "I cannot answer".

use std::collections::HashMap;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

use crate::ir::Query;
use crate::ir::query::Axis;

use super::{Adapter, AdapterError, Request, Response};

/// What the OCR baseline says when printed text does not answer the question.
pub const ABSTAIN: &str = "I cannot answer";

pub struct Ocr {
    version: String,
    /// Word boxes per image hash: items sharing a chart are read once.
    seen: Mutex<HashMap<blake3::Hash, Arc<Vec<Word>>>>,
}

impl Ocr {
    /// Fails with a clear message when `tesseract` is not installed.
    pub fn new() -> Result<Ocr, AdapterError> {
        let missing = |message: String| AdapterError::ToolMissing {
            tool: "tesseract".into(),
            message: format!(
                "{message}; install it (Debian/Ubuntu: `apt-get install tesseract-ocr`, \
                 or run scripts/setup.sh)"
            ),
        };
        let out = Command::new("tesseract")
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| missing(format!("cannot run `tesseract --version`: {e}")))?;
        if !out.status.success() {
            return Err(missing(format!(
                "`tesseract --version` failed ({})",
                out.status
            )));
        }
        // Older versions print the version on stderr.
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let version = text
            .lines()
            .next()
            .unwrap_or("tesseract")
            .trim()
            .to_string();
        Ok(Ocr {
            version,
            seen: Mutex::new(HashMap::new()),
        })
    }

    /// Word boxes of an image in its own pixel coordinates, computed once per image.
    fn words(&self, png: &[u8]) -> Result<Arc<Vec<Word>>, AdapterError> {
        let hash = blake3::hash(png);
        if let Some(words) = self
            .seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&hash)
        {
            return Ok(words.clone());
        }
        let dir = tempfile::tempdir().map_err(|e| AdapterError::Other(format!("temp dir: {e}")))?;
        let path = dir.path().join("chart.png");
        let (prepared, scale) = match text_mask(png) {
            Some(mask) => (mask, SCALE as f32),
            None => (png.to_vec(), 1.0),
        };
        std::fs::write(&path, prepared)
            .map_err(|e| AdapterError::Other(format!("write image: {e}")))?;
        // Sparse text finds scattered labels; block mode finds short numbers
        // sparse mode skips. Words of the second pass fill the gaps.
        let mut words = tesseract(&path, "11")?;
        for word in tesseract(&path, "6")? {
            if !words.iter().any(|w| w.overlaps(&word)) {
                words.push(word);
            }
        }
        let words: Arc<Vec<Word>> = Arc::new(
            words
                .into_iter()
                .map(|w| Word {
                    left: w.left / scale,
                    top: w.top / scale,
                    width: w.width / scale,
                    height: w.height / scale,
                    ..w
                })
                .collect(),
        );
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(hash, words.clone());
        Ok(words)
    }
}

fn tesseract(path: &std::path::Path, psm: &str) -> Result<Vec<Word>, AdapterError> {
    let out = Command::new("tesseract")
        .arg(path)
        .arg("stdout")
        .args(["--psm", psm, "tsv"])
        // One thread per process: the run engine already runs several at once.
        .env("OMP_THREAD_LIMIT", "1")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| AdapterError::ToolMissing {
            tool: "tesseract".into(),
            message: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(AdapterError::Other(format!(
            "tesseract failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    Ok(parse_tsv(&String::from_utf8_lossy(&out.stdout)))
}

impl Adapter for Ocr {
    fn name(&self) -> &str {
        "ocr"
    }

    fn cache_key(&self) -> String {
        format!("ocr {}", self.version)
    }

    // The answer depends on the item's query, which is not part of the cache key.
    fn cacheable(&self) -> bool {
        false
    }

    fn concurrency(&self) -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }

    fn settings(&self) -> serde_json::Value {
        serde_json::json!({ "adapter": "ocr", "tesseract": self.version, "psm": 11 })
    }

    fn answer(&self, req: &Request) -> Result<Response, AdapterError> {
        let words = self.words(&req.image_png)?;
        let lines = group_lines(&words);
        let (width, height) = image_size(&req.image_png).unwrap_or((0, 0));
        let page = Page {
            words: &words,
            lines: &lines,
            width,
            height,
        };
        let answer = page.read(&req.item.query);
        let text = answer.unwrap_or_else(|| ABSTAIN.to_string());
        Ok(Response {
            answer: Some(text.clone()),
            text,
            usage: None,
            attempts: 1,
        })
    }
}

/// One OCR word with its pixel box.
#[derive(Debug, Clone, PartialEq)]
pub struct Word {
    pub text: String,
    pub left: f32,
    pub top: f32,
    pub width: f32,
    pub height: f32,
    /// Tesseract's confidence, 0..=100.
    pub conf: f32,
}

impl Word {
    fn cx(&self) -> f32 {
        self.left + self.width / 2.0
    }
    fn cy(&self) -> f32 {
        self.top + self.height / 2.0
    }
    fn right(&self) -> f32 {
        self.left + self.width
    }
    fn overlaps(&self, other: &Word) -> bool {
        self.left < other.right()
            && other.left < self.right()
            && self.top < other.top + other.height
            && other.top < self.top + self.height
    }
}

/// A line of words, left to right.
#[derive(Debug, Clone)]
pub struct Line {
    pub words: Vec<Word>,
}

impl Line {
    pub fn text(&self) -> String {
        self.words
            .iter()
            .map(|w| w.text.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }
    fn top(&self) -> f32 {
        self.words.iter().map(|w| w.top).fold(f32::MAX, f32::min)
    }
    fn height(&self) -> f32 {
        let h: f32 = self.words.iter().map(|w| w.height).sum();
        h / self.words.len() as f32
    }
    fn left(&self) -> f32 {
        self.words.iter().map(|w| w.left).fold(f32::MAX, f32::min)
    }
    fn right(&self) -> f32 {
        self.words.iter().map(Word::right).fold(f32::MIN, f32::max)
    }
}

/// What OCR found on one image.
struct Page<'a> {
    words: &'a [Word],
    lines: &'a [Line],
    width: u32,
    height: u32,
}

impl Page<'_> {
    /// The answer to `query` from printed text alone, if it can be read.
    fn read(&self, query: &Query) -> Option<String> {
        match query {
            Query::Title { panel: 0 } => title(self.lines, self.height),
            Query::ValueAt { category, .. } => {
                printed_value(self.words, self.lines, category, self.width)
            }
            Query::AxisLabel { axis: Axis::X, .. } => x_label(self.lines, self.width, self.height),
            Query::MultipleChoice { base, options } => {
                let found = self.read(base)?;
                let k = options.iter().position(|o| same_answer(o, &found))?;
                Some(((b'a' + (k % 26) as u8) as char).to_string())
            }
            Query::FactCheck { base, claim } => {
                let found = self.read(base)?;
                Some(
                    if same_answer(claim, &found) {
                        "True"
                    } else {
                        "False"
                    }
                    .to_string(),
                )
            }
            _ => None,
        }
    }
}

/// Whether two printed answers say the same (numbers within 0.5%, text fuzzily).
fn same_answer(a: &str, b: &str) -> bool {
    if let (Some(x), Some(y)) = (as_number(a), as_number(b)) {
        let (x, y): (f64, f64) = (x.parse().unwrap_or(f64::NAN), y.parse().unwrap_or(f64::NAN));
        return (x - y).abs() <= 0.005 * x.abs().max(y.abs()).max(1e-9);
    }
    let (a, b) = (normalize(a), normalize(b));
    !a.is_empty() && strsim::normalized_levenshtein(&a, &b) >= 0.85
}

/// The x-axis label: the lowest text line in the bottom fifth that is alone on
/// its row (tick labels share a row) and near the horizontal middle.
fn x_label(lines: &[Line], width: u32, height: u32) -> Option<String> {
    if width == 0 || height == 0 {
        return None;
    }
    let cy = |l: &Line| l.top() + l.height() / 2.0;
    lines
        .iter()
        .filter(|l| l.top() > height as f32 * 0.8 && l.text().chars().any(char::is_alphabetic))
        .filter(|l| {
            let mid = (l.left() + l.right()) / 2.0;
            (mid - width as f32 / 2.0).abs() < width as f32 * 0.25
        })
        .filter(|l| {
            !lines.iter().any(|o| {
                !std::ptr::eq(*l, o) && (cy(o) - cy(l)).abs() < l.height().max(o.height()) * 0.6
            })
        })
        .max_by(|a, b| a.top().total_cmp(&b.top()))
        .map(Line::text)
}

/// Word rows (level 5) of Tesseract's TSV output with some confidence.
pub fn parse_tsv(tsv: &str) -> Vec<Word> {
    tsv.lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            if cols.len() < 12 || cols[0] != "5" {
                return None;
            }
            let conf: f32 = cols[10].parse().ok()?;
            let text = cols[11].trim();
            if text.is_empty() || conf < 0.0 {
                return None;
            }
            Some(Word {
                text: text.to_string(),
                left: cols[6].parse().ok()?,
                top: cols[7].parse().ok()?,
                width: cols[8].parse().ok()?,
                height: cols[9].parse().ok()?,
                conf,
            })
        })
        .collect()
}

/// Groups words on the same baseline and close together into lines.
pub fn group_lines(words: &[Word]) -> Vec<Line> {
    let mut sorted: Vec<&Word> = words.iter().collect();
    sorted.sort_by(|a, b| a.left.total_cmp(&b.left));
    let mut lines: Vec<Line> = Vec::new();
    for word in sorted {
        let found = lines.iter_mut().find(|line| {
            let last = line.words.last().expect("non-empty line");
            let same_row = (last.cy() - word.cy()).abs() < 0.5 * last.height.max(word.height);
            let close = word.left - last.right() < 1.2 * last.height.max(word.height);
            same_row && close && word.left >= last.left
        });
        match found {
            Some(line) => line.words.push(word.clone()),
            None => lines.push(Line {
                words: vec![word.clone()],
            }),
        }
    }
    lines.sort_by(|a, b| a.top().total_cmp(&b.top()));
    lines
}

/// The title: the tallest text line in the top quarter of the image (ties go
/// to the higher line).
fn title(lines: &[Line], image_height: u32) -> Option<String> {
    let limit = if image_height == 0 {
        f32::MAX
    } else {
        image_height as f32 * 0.25
    };
    lines
        .iter()
        .filter(|l| l.top() < limit && l.text().chars().any(char::is_alphabetic))
        .max_by(|a, b| {
            a.height()
                .total_cmp(&b.height())
                .then(b.top().total_cmp(&a.top()))
        })
        .map(Line::text)
}

fn normalize(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A printed number as a plain number string (`"$1,234.5"` → `"1234.5"`).
fn as_number(text: &str) -> Option<String> {
    let trimmed = text.trim_matches(|c: char| !c.is_ascii_digit() && c != '-' && c != '.');
    let plain: String = trimmed.chars().filter(|&c| c != ',').collect();
    let plain = plain.trim_end_matches('.');
    plain.parse::<f64>().ok().map(|_| plain.to_string())
}

/// The value printed nearest to the named category's label, skipping numbers
/// that are axis ticks (stacked in one column, or in one row with others).
fn printed_value(words: &[Word], lines: &[Line], category: &str, width: u32) -> Option<String> {
    let wanted = normalize(category);
    if wanted.is_empty() {
        return None;
    }
    let label = lines
        .iter()
        .filter(|l| {
            let got = normalize(&l.text());
            !got.is_empty() && strsim::normalized_levenshtein(&got, &wanted) >= 0.8
        })
        .max_by(|a, b| {
            strsim::normalized_levenshtein(&normalize(&a.text()), &wanted).total_cmp(
                &strsim::normalized_levenshtein(&normalize(&b.text()), &wanted),
            )
        })?;
    let (lx, ly) = (
        (label.left() + label.right()) / 2.0,
        label.top() + label.height() / 2.0,
    );
    // Low-confidence digits, and digits much smaller or taller than the
    // page's text, are mostly axis strokes or pieces of rotated text.
    let mut heights: Vec<f32> = words.iter().map(|w| w.height).collect();
    heights.sort_by(f32::total_cmp);
    let median = heights.get(heights.len() / 2).copied().unwrap_or(0.0);
    let numbers: Vec<(&Word, String)> = words
        .iter()
        .filter(|w| w.conf >= MIN_NUMBER_CONF)
        .filter(|w| w.height >= 0.6 * median && w.height <= 1.8 * median)
        .filter_map(|w| as_number(&w.text).map(|n| (w, n)))
        .collect();
    let is_tick = |w: &Word| {
        let column = numbers
            .iter()
            .filter(|(o, _)| (o.right() - w.right()).abs() < 4.0 && (o.cy() - w.cy()).abs() > 1.0)
            .count();
        let row = numbers
            .iter()
            .filter(|(o, _)| (o.cy() - w.cy()).abs() < 3.0 && (o.cx() - w.cx()).abs() > 1.0)
            .count();
        column >= 2 || row >= 3
    };
    let (label_w, label_h) = (label.right() - label.left(), label.height());
    // A value label sits in the category's column (vertical bars) or row
    // (horizontal bars); the cost is the distance along that alignment.
    let cost = |w: &Word| {
        let (dx, dy) = ((w.cx() - lx).abs(), (w.cy() - ly).abs());
        if dx <= label_w.max(w.width) / 2.0 + 4.0 && dy > 0.5 * label_h {
            Some(dy)
        } else if dy <= label_h.max(w.height) * 0.6 && dx > 0.0 {
            Some(dx)
        } else {
            None
        }
    };
    let max_distance = if width == 0 {
        f32::MAX
    } else {
        width as f32 * 0.6
    };
    numbers
        .iter()
        .filter(|(w, _)| !is_tick(w))
        .filter_map(|(w, n)| cost(w).map(|c| (c, n)))
        .filter(|(c, _)| *c <= max_distance)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, n)| n.clone())
}

/// Least Tesseract confidence for a number to be taken as a printed value.
const MIN_NUMBER_CONF: f32 = 60.0;

/// Upscale factor of the image given to Tesseract (small labels read better).
const SCALE: u32 = 2;

/// Keeps only text-like pixels — grey-ish and far in brightness from the
/// background — as black on white, upscaled. Coloured marks vanish, so
/// Tesseract does not mistake bars for glyphs or miss labels beside them.
pub fn text_mask(png: &[u8]) -> Option<Vec<u8>> {
    let img = chartstress_pixels::resample::decode_rgb(png).ok()?;
    let (w, h) = img.dimensions();
    if w == 0 || h == 0 {
        return None;
    }
    let luma = |p: &image::Rgb<u8>| {
        0.299 * f32::from(p[0]) + 0.587 * f32::from(p[1]) + 0.114 * f32::from(p[2])
    };
    let corners = [(0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)];
    let bg: f32 = corners
        .iter()
        .map(|&(x, y)| luma(img.get_pixel(x, y)))
        .sum::<f32>()
        / 4.0;
    let mask = image::GrayImage::from_fn(w, h, |x, y| {
        let p = img.get_pixel(x, y);
        let spread = p.0.iter().max().unwrap() - p.0.iter().min().unwrap();
        let text = spread < 60 && (luma(p) - bg).abs() > 90.0;
        image::Luma([if text { 0 } else { 255 }])
    });
    let big = image::imageops::resize(
        &mask,
        w * SCALE,
        h * SCALE,
        image::imageops::FilterType::Triangle,
    );
    let mut out = Vec::new();
    image::DynamicImage::ImageLuma8(big)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .ok()?;
    Some(out)
}

fn image_size(png: &[u8]) -> Option<(u32, u32)> {
    let reader = image::ImageReader::new(std::io::Cursor::new(png))
        .with_guessed_format()
        .ok()?;
    reader.into_dimensions().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn word(text: &str, left: i16, top: i16, width: i16, height: i16) -> Word {
        Word {
            text: text.into(),
            left: left.into(),
            top: top.into(),
            width: width.into(),
            height: height.into(),
            conf: 90.0,
        }
    }

    #[test]
    fn tsv_words_and_lines() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
                   1\t1\t0\t0\t0\t0\t0\t0\t800\t600\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t300\t10\t60\t24\t95.0\tSales\n\
                   5\t1\t1\t1\t1\t2\t370\t10\t40\t24\t94.0\tby\n\
                   5\t1\t1\t1\t1\t3\t420\t10\t80\t24\t93.0\tRegion\n\
                   5\t1\t2\t1\t1\t1\t100\t500\t40\t12\t90.0\tAsia\n";
        let words = parse_tsv(tsv);
        assert_eq!(words.len(), 4);
        let lines = group_lines(&words);
        assert_eq!(lines[0].text(), "Sales by Region");
        assert_eq!(title(&lines, 600).as_deref(), Some("Sales by Region"));
    }

    #[test]
    fn values_next_to_labels_skip_ticks() {
        let words = vec![
            // y-axis ticks, one right-aligned column
            word("0", 40, 500, 10, 12),
            word("50", 30, 300, 20, 12),
            word("100", 20, 100, 30, 12),
            // category labels and value labels above the bars
            word("Asia", 100, 520, 40, 12),
            word("Europe", 200, 520, 60, 12),
            word("42", 110, 330, 20, 12),
            word("1,234", 215, 200, 40, 12),
        ];
        let lines = group_lines(&words);
        assert_eq!(
            printed_value(&words, &lines, "Asia", 800).as_deref(),
            Some("42")
        );
        assert_eq!(
            printed_value(&words, &lines, "Europe", 800).as_deref(),
            Some("1234")
        );
        assert_eq!(printed_value(&words, &lines, "Africa", 800), None);
    }
}
