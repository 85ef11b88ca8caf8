//! Sequential colour maps for heatmaps: a few well-known perceptual maps,
//! each sampled at nine evenly spaced stops and interpolated linearly in
//! sRGB (as an SVG gradient would be). Lightness changes monotonically
//! along every map, so a colour names one position on it and a reader can
//! match a cell against the colour bar.

use crate::ir::Colormap;

type Rgb = [u8; 3];

/// Share of a colour bar's range a cell's colour is read to by eye: enough
/// to tell clearly different cells apart, not to quote a value.
pub const READ_ERR: f64 = 0.06;

const VIRIDIS: [Rgb; 9] = [
    [0x44, 0x01, 0x54],
    [0x47, 0x2d, 0x7b],
    [0x3b, 0x52, 0x8b],
    [0x2c, 0x72, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x28, 0xae, 0x80],
    [0x5e, 0xc9, 0x62],
    [0xad, 0xdc, 0x30],
    [0xfd, 0xe7, 0x25],
];

const CIVIDIS: [Rgb; 9] = [
    [0x00, 0x22, 0x4e],
    [0x12, 0x35, 0x70],
    [0x3b, 0x49, 0x6c],
    [0x57, 0x5d, 0x6d],
    [0x70, 0x71, 0x73],
    [0x8a, 0x86, 0x78],
    [0xa5, 0x9c, 0x74],
    [0xc3, 0xb3, 0x69],
    [0xe1, 0xcc, 0x55],
];

const MAGMA: [Rgb; 9] = [
    [0x00, 0x00, 0x04],
    [0x1c, 0x10, 0x44],
    [0x4f, 0x12, 0x7b],
    [0x81, 0x25, 0x81],
    [0xb5, 0x36, 0x7a],
    [0xe5, 0x50, 0x64],
    [0xfb, 0x87, 0x61],
    [0xfe, 0xc2, 0x87],
    [0xfc, 0xfd, 0xbf],
];

// ColorBrewer's single-hue maps run light (low) to dark (high).
const BLUES: [Rgb; 9] = [
    [0xf7, 0xfb, 0xff],
    [0xde, 0xeb, 0xf7],
    [0xc6, 0xdb, 0xef],
    [0x9e, 0xca, 0xe1],
    [0x6b, 0xae, 0xd6],
    [0x42, 0x92, 0xc6],
    [0x21, 0x71, 0xb5],
    [0x08, 0x51, 0x9c],
    [0x08, 0x30, 0x6b],
];

const GREYS: [Rgb; 9] = [
    [0xf4, 0xf4, 0xf4],
    [0xe0, 0xe0, 0xe0],
    [0xcc, 0xcc, 0xcc],
    [0xb0, 0xb0, 0xb0],
    [0x96, 0x96, 0x96],
    [0x73, 0x73, 0x73],
    [0x52, 0x52, 0x52],
    [0x33, 0x33, 0x33],
    [0x14, 0x14, 0x14],
];

/// The map a theme draws heatmaps with when the style says `auto`.
pub fn resolve(map: Colormap, theme: &str) -> Colormap {
    if !map.is_auto() {
        return map;
    }
    match theme {
        "grayscale" | "newsprint" => Colormap::Greys,
        "business" | "spreadsheet" | "minimal" | "pastel" => Colormap::Blues,
        // Maps whose dark end stays clear of a dark background.
        "paper" | "contrast" | "terminal" => Colormap::Cividis,
        _ => Colormap::Viridis,
    }
}

fn stops(map: Colormap) -> &'static [Rgb; 9] {
    match map {
        Colormap::Cividis => &CIVIDIS,
        Colormap::Magma => &MAGMA,
        Colormap::Blues => &BLUES,
        Colormap::Greys => &GREYS,
        Colormap::Viridis | Colormap::Auto => &VIRIDIS,
    }
}

/// The colour at position `t` in 0..=1 (clamped; NaN reads as 0).
pub fn rgb(map: Colormap, t: f64) -> Rgb {
    let s = stops(map);
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let x = t * (s.len() - 1) as f64;
    let i = (x.floor() as usize).min(s.len() - 2);
    let f = x - i as f64;
    let mix = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * f).round() as u8;
    [
        mix(s[i][0], s[i + 1][0]),
        mix(s[i][1], s[i + 1][1]),
        mix(s[i][2], s[i + 1][2]),
    ]
}

pub fn hex(c: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// The position on the map whose colour is nearest `c`: how a reader
/// matches a cell's colour against the colour bar.
pub fn position_of(map: Colormap, c: Rgb) -> f64 {
    const SAMPLES: u32 = 512;
    let dist = |t: f64| {
        let m = rgb(map, t);
        (0..3)
            .map(|k| (i32::from(m[k]) - i32::from(c[k])).pow(2))
            .sum::<i32>()
    };
    (0..=SAMPLES)
        .map(|i| f64::from(i) / f64::from(SAMPLES))
        .min_by_key(|t| dist(*t))
        .unwrap_or(0.0)
}

/// `#rrggbb` as bytes.
pub fn parse(hex: &str) -> Option<Rgb> {
    let c = super::canvas::parse_hex(hex)?;
    Some([c.0, c.1, c.2])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_are_monotone_in_lightness_and_invertible() {
        for map in Colormap::ALL {
            let lum = |c: Rgb| {
                0.2126 * f64::from(c[0]) + 0.7152 * f64::from(c[1]) + 0.0722 * f64::from(c[2])
            };
            let first = lum(rgb(map, 0.0));
            let last = lum(rgb(map, 1.0));
            let rising = last > first;
            let mut prev = first;
            for i in 1..=100 {
                let l = lum(rgb(map, f64::from(i) / 100.0));
                assert!(
                    if rising {
                        l >= prev - 0.5
                    } else {
                        l <= prev + 0.5
                    },
                    "{map:?} at {i}"
                );
                prev = l;
            }
            for i in 0..=20 {
                let t = f64::from(i) / 20.0;
                let back = position_of(map, rgb(map, t));
                assert!((back - t).abs() < 0.02, "{map:?}: {t} read as {back}");
            }
        }
    }

    #[test]
    fn themes_pick_a_map_and_explicit_maps_win() {
        assert_eq!(resolve(Colormap::Auto, "classic"), Colormap::Viridis);
        assert_eq!(resolve(Colormap::Auto, "grayscale"), Colormap::Greys);
        assert_eq!(resolve(Colormap::Magma, "grayscale"), Colormap::Magma);
        assert_eq!(
            rgb(Colormap::Viridis, f64::NAN),
            rgb(Colormap::Viridis, 0.0)
        );
    }
}
