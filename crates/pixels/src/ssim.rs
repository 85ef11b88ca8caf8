//! The structural similarity of two packed RGB pictures.

/// Constants of SSIM for 8-bit values (Wang et al. 2004): (0.01·255)², (0.03·255)².
const SSIM_C1: f64 = (0.01 * 255.0) * (0.01 * 255.0);
const SSIM_C2: f64 = (0.03 * 255.0) * (0.03 * 255.0);
const SSIM_WINDOW: usize = 8;

/// The least similar channel's MSSIM, exactly as `image-compare` 0.5's
/// `rgb_similarity_structure(MSSIMSimple, …)` computes it: 8×8 windows in
/// column-major order (clipped at the edges), per window the means and the
/// *summed* (not averaged) variances and covariance, SSIM per window, the
/// area-weighted mean over windows, the minimum over channels. The same
/// floating-point operations in the same order give the same bits; what is
/// left out is the per-pixel similarity image the crate also builds and
/// this use never reads, which took most of the time.
pub fn mssim_rgb(a: &[u8], b: &[u8], width: usize, height: usize) -> f64 {
    let (w, h) = (width, height);
    assert!(
        a.len() == w * h * 3 && b.len() == a.len(),
        "two packed RGB pictures of {w}x{h}"
    );
    let plane = |raw: &[u8], channel: usize| -> Vec<u8> {
        raw.chunks_exact(3).map(|px| px[channel]).collect()
    };
    let mut score = 1.0f64;
    for channel in 0..3usize {
        let (pa, pb) = (plane(a, channel), plane(b, channel));
        let (mut weighted, mut total) = (0.0f64, 0.0f64);
        for left in (0..w).step_by(SSIM_WINDOW) {
            let right = (left + SSIM_WINDOW).min(w);
            for top in (0..h).step_by(SSIM_WINDOW) {
                let rows = top..(top + SSIM_WINDOW).min(h);
                let area = (rows.len() * (right - left)) as u32;
                let window = Window {
                    a: &pa,
                    b: &pb,
                    width: w,
                    columns: left..right,
                    rows,
                };
                weighted += window.ssim(area) * f64::from(area);
                total += f64::from(area);
            }
        }
        score = score.min(weighted / total);
    }
    score
}

/// One window of one channel of two same-sized planes.
struct Window<'a> {
    a: &'a [u8],
    b: &'a [u8],
    width: usize,
    columns: std::ops::Range<usize>,
    rows: std::ops::Range<usize>,
}

impl Window<'_> {
    fn row_pairs(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.rows.clone().map(|y| {
            let span = y * self.width + self.columns.start..y * self.width + self.columns.end;
            (&self.a[span.clone()], &self.b[span])
        })
    }

    /// The window's SSIM in `image-compare`'s operation order. Identical
    /// windows score exactly 1 by those operations (both factors of the
    /// numerator equal the denominator's), so they are not computed.
    fn ssim(&self, area: u32) -> f64 {
        if self.row_pairs().all(|(x, y)| x == y) {
            return 1.0;
        }
        // Sums of bytes are whole numbers far below 2^53: summing them as
        // integers gives the same f64 as the crate's running f64 sum.
        let (mut sum_x, mut sum_y) = (0u32, 0u32);
        for (xs, ys) in self.row_pairs() {
            sum_x += xs.iter().map(|&v| u32::from(v)).sum::<u32>();
            sum_y += ys.iter().map(|&v| u32::from(v)).sum::<u32>();
        }
        let mean_x = f64::from(sum_x) / f64::from(area);
        let mean_y = f64::from(sum_y) / f64::from(area);
        let (mut var_x, mut var_y, mut cov) = (0.0f64, 0.0f64, 0.0f64);
        for (xs, ys) in self.row_pairs() {
            for (&x, &y) in xs.iter().zip(ys) {
                let dx = f64::from(x) - mean_x;
                let dy = f64::from(y) - mean_y;
                var_x += dx * dx;
                var_y += dy * dy;
                cov += dx * dy;
            }
        }
        ((2. * mean_x * mean_y + SSIM_C1) * (2. * cov + SSIM_C2))
            / ((mean_x.powi(2) + mean_y.powi(2) + SSIM_C1) * (var_x + var_y + SSIM_C2))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(w: usize, h: usize) -> Vec<u8> {
        (0..w * h * 3)
            .map(|i| ((i * 37 + i / 5) % 256) as u8)
            .collect()
    }

    #[test]
    fn identical_pictures_score_one_and_a_change_scores_less() {
        let a = picture(21, 13);
        assert_eq!(mssim_rgb(&a, &a, 21, 13), 1.0);
        let mut b = a.clone();
        b[5 * 21 * 3 + 30] = b[5 * 21 * 3 + 30].wrapping_add(90);
        let s = mssim_rgb(&a, &b, 21, 13);
        assert!(s < 1.0 && s > 0.5, "{s}");
        // A change in one channel lowers that channel only: the minimum.
        assert_eq!(s, mssim_rgb(&b, &a, 21, 13));
    }

    #[test]
    #[should_panic(expected = "packed RGB")]
    fn buffers_must_match_the_size() {
        mssim_rgb(&[0; 6], &[0; 6], 3, 1);
    }
}
