//! Dropping the alpha channel of a fully opaque RGBA picture.

/// The RGB bytes of an RGBA buffer, or None when some pixel is not opaque.
/// Word-wide passes so both loops compile to a load and a store per pixel:
/// each pixel's four bytes are stored at its RGB place and the next pixel
/// overwrites the spare alpha byte.
pub fn opaque_rgb(rgba: &[u8]) -> Option<Vec<u8>> {
    let all_bits = rgba
        .chunks_exact(4)
        .map(|px| u32::from_le_bytes([px[0], px[1], px[2], px[3]]))
        .fold(u32::MAX, |acc, word| acc & word);
    if all_bits >> 24 != 255 || rgba.len() % 4 != 0 {
        return None;
    }
    let pixels = rgba.len() / 4;
    let mut rgb = vec![0u8; pixels * 3 + 1];
    for (i, px) in rgba.chunks_exact(4).enumerate() {
        rgb[i * 3..i * 3 + 4].copy_from_slice(px);
    }
    rgb.truncate(pixels * 3);
    Some(rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opaque_rgb_drops_alpha_only_when_every_pixel_is_opaque() {
        // Five pixels: four in the wide loop, one in the remainder.
        let rgba: Vec<u8> = (0..5u8).flat_map(|i| [i, i + 10, i + 20, 255]).collect();
        let expected: Vec<u8> = (0..5u8).flat_map(|i| [i, i + 10, i + 20]).collect();
        assert_eq!(opaque_rgb(&rgba), Some(expected));
        for translucent in [3, 19] {
            let mut some_clear = rgba.clone();
            some_clear[translucent] = 254;
            assert_eq!(opaque_rgb(&some_clear), None);
        }
    }
}
