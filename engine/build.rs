//! Build-time configuration: which vector reader of pattern indices the evaluation uses
//! (`src/search/eval/patterns/`), so that the condition is written once:
//! `avx512_patterns` when the target has what the AVX-512 reader needs, else
//! `avx2_patterns` when it has AVX2, else neither (the scalar reader).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(avx512_patterns)");
    println!("cargo::rustc-check-cfg=cfg(avx2_patterns)");
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let has = |f: &str| features.split(',').any(|x| x == f);
    if ["avx512f", "avx512bw", "avx512vbmi", "avx512vnni"]
        .iter()
        .all(|f| has(f))
    {
        println!("cargo::rustc-cfg=avx512_patterns");
    } else if has("avx2") {
        println!("cargo::rustc-cfg=avx2_patterns");
    }
}
