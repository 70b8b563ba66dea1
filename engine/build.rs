//! Build-time configuration: `simd_patterns` when the target has what the evaluation's
//! AVX-512 pattern reader needs (`src/search/eval/patterns/avx512.rs`), so that the
//! condition is written once.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(simd_patterns)");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |f: &str| features.split(',').any(|x| x == f);
    if ["avx512f", "avx512bw", "avx512vbmi", "avx512vnni"]
        .iter()
        .all(|f| has(f))
    {
        println!("cargo::rustc-cfg=simd_patterns");
    }
}
