//! Embedded fonts: one usvg font database per process, the same faces
//! registered with plotters' ab_glyph, and text measurement that matches what
//! usvg will lay out.

use std::sync::{Arc, Once, OnceLock};

use plotters::style::{FontDesc, FontFamily, FontStyle};
use resvg::usvg::fontdb::{Database, Source};

/// Family names as registered; themes must use one of these.
pub const SANS: &str = "DejaVu Sans";
pub const SERIF: &str = "DejaVu Serif";
pub const MONO: &str = "DejaVu Sans Mono";
pub const FAMILIES: [&str; 3] = [SANS, SERIF, MONO];

/// (family, regular, bold, oblique) bytes of every embedded face.
fn faces() -> [(&'static str, [&'static [u8]; 3]); 3] {
    [
        (
            SANS,
            [
                dejavu::sans::regular(),
                dejavu::sans::bold(),
                dejavu::sans::oblique(),
            ],
        ),
        (
            SERIF,
            [
                dejavu::serif::regular(),
                dejavu::serif::bold(),
                dejavu::serif::italic(),
            ],
        ),
        (
            MONO,
            [
                dejavu::sans_mono::regular(),
                dejavu::sans_mono::bold(),
                dejavu::sans_mono::oblique(),
            ],
        ),
    ]
}

/// The process-wide font database (built once). Generic families are remapped
/// to the embedded faces: without that usvg silently draws no text at all.
pub fn fontdb() -> &'static Arc<Database> {
    static DB: OnceLock<Arc<Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = Database::new();
        for (_, bytes) in faces() {
            for b in bytes {
                db.load_font_source(Source::Binary(Arc::new(without_legacy_kern(b))));
            }
        }
        db.set_sans_serif_family(SANS);
        db.set_serif_family(SERIF);
        db.set_monospace_family(MONO);
        db.set_cursive_family(SANS);
        db.set_fantasy_family(SANS);
        Arc::new(db)
    })
}

/// The face with its legacy `kern` table hidden (its directory tag renamed
/// `kerm`, which keeps the directory sorted for binary search).
///
/// The shaper builds a glyph-set cache for every `kern` subtable each time a
/// text is shaped: 11% of drawing a bar chart. It never applies that table to
/// these faces, whose GPOS carries the same pairs under the `kern` feature
/// for the scripts charts use (the shaper prefers GPOS), so the drawn text is
/// unchanged; a test renders kerned text both ways and compares the pixels.
fn without_legacy_kern(face: &[u8]) -> Vec<u8> {
    const DIRECTORY: usize = 12;
    const RECORD: usize = 16;
    let mut bytes = face.to_vec();
    let Some(count) = face
        .get(4..6)
        .map(|n| usize::from(u16::from_be_bytes([n[0], n[1]])))
    else {
        return bytes;
    };
    let tag_at = |i: usize| face.get(DIRECTORY + i * RECORD..DIRECTORY + i * RECORD + 4);
    let Some(kern) = (0..count).find(|&i| tag_at(i) == Some(b"kern".as_slice())) else {
        return bytes;
    };
    let renamed = *b"kerm";
    let sorted_before = kern == 0 || tag_at(kern - 1).is_some_and(|t| t < renamed.as_slice());
    if sorted_before {
        let at = DIRECTORY + kern * RECORD;
        bytes[at..at + 4].copy_from_slice(&renamed);
    }
    bytes
}

/// Register the embedded faces with plotters (ab_glyph) once per process.
pub fn register_plotters_fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        for (family, [regular, bold, oblique]) in faces() {
            // The bytes are valid TrueType files shipped by the crate.
            let _ = plotters::style::register_font(family, FontStyle::Normal, regular);
            let _ = plotters::style::register_font(family, FontStyle::Bold, bold);
            let _ = plotters::style::register_font(family, FontStyle::Oblique, oblique);
            let _ = plotters::style::register_font(family, FontStyle::Italic, oblique);
        }
    });
}

/// A family name the renderer knows; anything else falls back to sans.
pub fn resolve_family(name: &str) -> &'static str {
    let lower = name.to_ascii_lowercase();
    FAMILIES
        .into_iter()
        .find(|f| f.eq_ignore_ascii_case(name))
        .unwrap_or(if lower.contains("mono") || lower.contains("courier") {
            MONO
        } else if lower.contains("serif") && !lower.contains("sans") || lower.contains("times") {
            SERIF
        } else {
            SANS
        })
}

/// plotters divides font sizes by 1.24 in its SVG output: pass this size to
/// get `px` pixels per em in the SVG.
pub fn plotters_size(px: f32) -> f64 {
    f64::from(px) * 1.24
}

/// ab_glyph scales by (ascent - descent), not by the em: DejaVu's hhea metrics
/// are 1901 / -483 on 2048 units per em, so a plotters size S measures text at
/// S / 1.164 px per em, while the SVG says S / 1.24. This converts.
const AB_TO_EM: f64 = 2384.0 / (2048.0 * 1.24);
/// Measure at a large size so ab_glyph's integer result loses no precision.
const MEASURE_SCALE: f64 = 16.0;

/// Advance width in pixels of `text` set at `px` pixels per em.
pub fn text_width(text: &str, family: &str, px: f32, bold: bool) -> f32 {
    register_plotters_fonts();
    let style = if bold {
        FontStyle::Bold
    } else {
        FontStyle::Normal
    };
    let font = FontDesc::new(
        FontFamily::Name(resolve_family(family)),
        plotters_size(px) * MEASURE_SCALE,
        style,
    );
    match font.box_size(text) {
        Ok((w, _)) => (f64::from(w) / MEASURE_SCALE * AB_TO_EM) as f32,
        // Unregistered fonts cannot happen (all faces are embedded); estimate anyway.
        Err(_) => text.chars().count() as f32 * px * 0.6,
    }
}

/// Ascent above the baseline of the visible glyph box, as a fraction of the em.
pub const ASCENT: f32 = 0.76;
/// Descent below the baseline, as a fraction of the em.
pub const DESCENT: f32 = 0.24;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_has_all_faces_and_generic_families_resolve() {
        let db = fontdb();
        assert_eq!(db.len(), 9);
        for family in FAMILIES {
            let query = resvg::usvg::fontdb::Query {
                families: &[resvg::usvg::fontdb::Family::Name(family)],
                ..Default::default()
            };
            assert!(db.query(&query).is_some(), "{family}");
        }
        let query = resvg::usvg::fontdb::Query {
            families: &[resvg::usvg::fontdb::Family::SansSerif],
            ..Default::default()
        };
        assert!(db.query(&query).is_some());
    }

    #[test]
    fn hiding_the_legacy_kern_table_draws_the_same_pixels() {
        use resvg::{tiny_skia, usvg};
        // Pairs the faces kern ("AV", "To", "Ty", "LT", "P.", "r,", "Yo"…)
        // in each drawn weight and family, plus digits and accents.
        let text = "AVATAR To Ty LT P. r, Yo WA \u{c9}t\u{e9} 1,174 (Q4) f\u{e4}r Lj";
        let draw = |db: Arc<Database>, family: &str, weight: &str| {
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="900" height="60"><text x="5" y="40" font-family="{family}" font-weight="{weight}" font-size="27.3">{text}</text></svg>"#
            );
            let opt = usvg::Options {
                fontdb: db,
                ..Default::default()
            };
            let tree = usvg::Tree::from_str(&svg, &opt).unwrap();
            let mut pixmap = tiny_skia::Pixmap::new(900, 60).unwrap();
            resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
            pixmap.take()
        };
        let mut original = Database::new();
        let mut hidden = Database::new();
        for (_, bytes) in faces() {
            for b in bytes {
                original.load_font_source(Source::Binary(Arc::new(b)));
                let patched = without_legacy_kern(b);
                assert_eq!(patched.len(), b.len());
                hidden.load_font_source(Source::Binary(Arc::new(patched)));
            }
        }
        assert_eq!(
            original.len(),
            hidden.len(),
            "every patched face still loads"
        );
        let (original, hidden) = (Arc::new(original), Arc::new(hidden));
        for family in FAMILIES {
            for weight in ["normal", "bold"] {
                let before = draw(Arc::clone(&original), family, weight);
                assert!(
                    before.chunks_exact(4).any(|px| px[3] > 0),
                    "{family} drew text"
                );
                assert!(
                    before == draw(Arc::clone(&hidden), family, weight),
                    "{family} {weight}: hiding kern changed the text"
                );
            }
        }
        // The table is really hidden: its directory record is renamed.
        let sans = without_legacy_kern(dejavu::sans::regular());
        let tags: Vec<&[u8]> = (0..usize::from(u16::from_be_bytes([sans[4], sans[5]])))
            .map(|i| &sans[12 + i * 16..16 + i * 16])
            .collect();
        assert!(tags.contains(&b"kerm".as_slice()) && tags.contains(&b"GPOS".as_slice()));
        assert!(!tags.contains(&b"kern".as_slice()));
        assert!(tags.is_sorted(), "the directory stays sorted");
    }

    #[test]
    fn measured_width_matches_usvg_layout() {
        for family in FAMILIES {
            let text = "Quarterly revenue 2019";
            let measured = text_width(text, family, 20.0, false);
            let svg = format!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="800" height="100"><text x="10" y="50" font-family="{family}" font-size="20">{text}</text></svg>"#
            );
            let opt = resvg::usvg::Options {
                fontdb: fontdb().clone(),
                ..Default::default()
            };
            let tree = resvg::usvg::Tree::from_str(&svg, &opt).unwrap();
            let ink = tree.root().abs_bounding_box().width();
            // Ink is slightly narrower than the advance (side bearings).
            assert!(
                (measured - ink).abs() < measured * 0.04,
                "{family}: measured {measured}, usvg ink {ink}"
            );
        }
    }
}
