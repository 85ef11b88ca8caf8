//! Box-filter downsampling: each output pixel is the rounded mean of the
//! source pixels in its box. Gallery thumbnails and the viewing scale of
//! visual distances both use it; `image`'s general resamplers cost more than
//! drawing the chart for this case.

/// Where the source rows come from.
#[derive(Clone, Copy)]
pub enum Source<'a> {
    /// Packed RGB.
    Rgb(&'a [u8]),
    /// Straight-alpha RGBA shown on white (as a viewer shows it).
    RgbaOnWhite(&'a [u8]),
    /// Straight-alpha RGBA with the alpha dropped (as decoding to RGB does).
    RgbaDropAlpha(&'a [u8]),
}

impl<'a> Source<'a> {
    /// Row `y` of a `width`-pixel image as RGB, borrowed or converted into `scratch`.
    fn rgb_row<'b>(&self, y: usize, width: usize, scratch: &'b mut [u8]) -> &'b [u8]
    where
        'a: 'b,
    {
        match *self {
            Source::Rgb(data) => &data[y * width * 3..(y + 1) * width * 3],
            Source::RgbaOnWhite(data) => {
                let row = &data[y * width * 4..(y + 1) * width * 4];
                for (dst, px) in scratch.chunks_exact_mut(3).zip(row.chunks_exact(4)) {
                    let a = u32::from(px[3]);
                    for c in 0..3 {
                        dst[c] = ((u32::from(px[c]) * a + 255 * (255 - a)) / 255) as u8;
                    }
                }
                scratch
            }
            Source::RgbaDropAlpha(data) => {
                let row = &data[y * width * 4..(y + 1) * width * 4];
                for (dst, px) in scratch.chunks_exact_mut(3).zip(row.chunks_exact(4)) {
                    dst.copy_from_slice(&px[..3]);
                }
                scratch
            }
        }
    }
}

/// `n` boxes splitting `len` pixels as evenly as whole pixels allow, each
/// at least one pixel (thumbnails of any width).
pub fn proportional(len: usize, n: usize) -> Vec<(usize, usize)> {
    let (len, n) = (len.max(1), n.max(1));
    let mut start = 0;
    (0..n)
        .map(|i| {
            let end = ((i + 1) * len / n).max(start + 1).min(len);
            let range = (start.min(end - 1), end);
            start = end;
            range
        })
        .collect()
}

/// `len / factor` boxes of exactly `factor` pixels; a partial box at the end
/// is dropped.
pub fn blocks(len: usize, factor: usize) -> Vec<(usize, usize)> {
    let factor = factor.max(1);
    (0..(len / factor).max(1))
        .map(|i| (i * factor, ((i + 1) * factor).min(len)))
        .collect()
}

/// RGB bytes of the `xs.len()` × `ys.len()` image whose pixel (x, y) is the
/// rounded mean of the source pixels in `xs[x]` × `ys[y]`. Boxes are
/// ascending pixel ranges of a `width`-pixel-wide source.
pub fn box_means(
    source: Source,
    width: usize,
    xs: &[(usize, usize)],
    ys: &[(usize, usize)],
) -> Vec<u8> {
    let mut out = vec![0u8; xs.len() * ys.len() * 3];
    if xs.is_empty() {
        return out;
    }
    // Per source byte, the sum over the rows of one box: a loop the compiler
    // vectorizes. 16-bit lanes hold twice as many bytes per instruction and
    // are flushed to 32 bits before they could overflow.
    const BAND_ROWS: usize = (u16::MAX / 255) as usize;
    let mut column_sums = vec![0u32; width * 3];
    let mut band = vec![0u16; width * 3];
    let mut scratch = vec![0u8; width * 3];
    let pairs = xs.iter().enumerate().all(|(i, &b)| b == (2 * i, 2 * i + 2));
    for (&(y0, y1), out_row) in ys.iter().zip(out.chunks_exact_mut(xs.len() * 3)) {
        column_sums.fill(0);
        let mut band_rows = 0;
        for y in y0..y1 {
            let rgb = source.rgb_row(y, width, &mut scratch);
            for (sum, &v) in band.iter_mut().zip(rgb) {
                *sum += u16::from(v);
            }
            band_rows += 1;
            if band_rows == BAND_ROWS || y + 1 == y1 {
                for (total, part) in column_sums.iter_mut().zip(&mut band) {
                    *total += u32::from(*part);
                    *part = 0;
                }
                band_rows = 0;
            }
        }
        let rows = y1 - y0;
        if pairs {
            // Pairs of columns side by side (the viewing scale of a chart):
            // one divisor, fixed-size chunks the compiler unrolls.
            let divisor = RoundedDivisor::new((rows * 2) as u32);
            for (pixel, pair) in out_row.chunks_exact_mut(3).zip(column_sums.chunks_exact(6)) {
                for c in 0..3 {
                    pixel[c] = divisor.divide(pair[c] + pair[c + 3]) as u8;
                }
            }
            continue;
        }
        // Boxes come in one or two sizes: reuse the divisor (its setup is a
        // 64-bit division).
        let mut divisor = RoundedDivisor::new(1);
        for (pixel, &(x0, x1)) in out_row.chunks_exact_mut(3).zip(xs) {
            let n = (rows * (x1 - x0)) as u32;
            if divisor.n != n {
                divisor = RoundedDivisor::new(n);
            }
            let mut sum = [0u32; 3];
            for px in column_sums[x0 * 3..x1 * 3].chunks_exact(3) {
                sum[0] += px[0];
                sum[1] += px[1];
                sum[2] += px[2];
            }
            for c in 0..3 {
                pixel[c] = divisor.divide(sum[c]) as u8;
            }
        }
    }
    out
}

/// `(x + n/2) / n` by a multiply and a shift: a hardware division per output
/// byte cost more than summing the pixels. Exact while `(x + n) * n < 2^32`,
/// which holds for byte sums over boxes of fewer than 4,096 pixels; larger
/// boxes fall back to the division.
#[derive(Clone, Copy)]
struct RoundedDivisor {
    n: u32,
    reciprocal: u64,
}

impl RoundedDivisor {
    fn new(n: u32) -> Self {
        let n = n.max(1);
        RoundedDivisor {
            n,
            reciprocal: (1u64 << 32).div_ceil(u64::from(n)),
        }
    }

    fn divide(self, x: u32) -> u32 {
        let x = x + self.n / 2;
        if u64::from(x) * u64::from(self.n) < 1 << 32 {
            ((u64::from(x) * self.reciprocal) >> 32) as u32
        } else {
            x / self.n
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounded_divisor_matches_integer_division() {
        for n in (1..=300).chain([1000, 4095, 4096, 5000, 65_536]) {
            let divisor = RoundedDivisor::new(n);
            let top = (255 * n).min(3_000_000);
            for x in (0..=top).step_by(1 + (top as usize / 20_000)).chain([top]) {
                assert_eq!(divisor.divide(x), (x + n / 2) / n, "{x} / {n}");
            }
        }
    }

    /// The plain definition: every box summed pixel by pixel in 64 bits.
    fn naive(data: &[u8], width: usize, xs: &[(usize, usize)], ys: &[(usize, usize)]) -> Vec<u8> {
        let mut out = Vec::new();
        for &(y0, y1) in ys {
            for &(x0, x1) in xs {
                for c in 0..3 {
                    let sum: u64 = (y0..y1)
                        .flat_map(|y| (x0..x1).map(move |x| (y, x)))
                        .map(|(y, x)| u64::from(data[(y * width + x) * 3 + c]))
                        .sum();
                    let n = ((y1 - y0) * (x1 - x0)) as u64;
                    out.push(((sum + n / 2) / n) as u8);
                }
            }
        }
        out
    }

    #[test]
    fn box_means_match_the_plain_definition_for_tall_odd_and_block_boxes() {
        // Boxes of 600+ rows (several 16-bit bands), uneven widths, blocks.
        for (w, h, boxes) in [
            (
                600usize,
                1300usize,
                (proportional(600, 1), proportional(1300, 1)),
            ),
            (97, 700, (proportional(97, 5), proportional(700, 36))),
            (800, 600, (proportional(800, 200), proportional(600, 150))),
            (803, 601, (blocks(803, 2), blocks(601, 2))),
            (800, 600, (blocks(800, 2), blocks(600, 2))),
            (50, 40, (blocks(50, 7), blocks(40, 7))),
        ] {
            let data: Vec<u8> = (0..w * h * 3)
                .map(|i| ((i * 7919 + i / 3 * 13) % 256) as u8)
                .collect();
            let (xs, ys) = boxes;
            assert_eq!(
                box_means(Source::Rgb(&data), w, &xs, &ys),
                naive(&data, w, &xs, &ys),
                "{w}x{h}"
            );
        }
    }

    #[test]
    fn boxes_cover_the_source_in_order() {
        assert_eq!(proportional(4, 2), vec![(0, 2), (2, 4)]);
        assert_eq!(proportional(3, 3), vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(blocks(7, 2), vec![(0, 2), (2, 4), (4, 6)]);
        assert_eq!(blocks(1, 2), vec![(0, 1)]);
    }

    #[test]
    fn rgba_is_shown_on_white_or_has_its_alpha_dropped() {
        let rgba = [0u8, 0, 0, 128, 200, 100, 50, 0];
        let one = [(0, 2)];
        let row = [(0, 1)];
        // Half-transparent black on white is mid grey; the clear pixel is white.
        assert_eq!(
            box_means(Source::RgbaOnWhite(&rgba), 2, &one, &row),
            vec![191, 191, 191]
        );
        assert_eq!(
            box_means(Source::RgbaDropAlpha(&rgba), 2, &one, &row),
            vec![100, 50, 25]
        );
    }
}
