//! The pixel loops of chartstress, in their own crate: the test profile
//! builds this crate optimized (see the workspace's `Cargo.toml`) while the
//! rest of the tool compiles quickly unoptimized, and these loops are where
//! unoptimized code is slowest. Generic `image` and `rand` code is called
//! from here for the same reason: it is compiled in the crate that calls it.

pub mod boxmean;
pub mod noise;
pub mod opaque;
pub mod resample;
pub mod rotate;
pub mod ssim;
