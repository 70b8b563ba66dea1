//! Build-time configuration of the vector code, so that each condition is written once:
//! for the evaluation's reader of pattern indices (`src/search/eval/patterns/`),
//! `avx512_patterns` when the target has what the AVX-512 reader needs, else
//! `avx2_patterns` when it has AVX2, else neither (the scalar reader); and
//! `avx512_flips` when it has what the vector flips need (`src/game/othello/movegen.rs`).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(avx512_patterns)");
    println!("cargo::rustc-check-cfg=cfg(avx2_patterns)");
    println!("cargo::rustc-check-cfg=cfg(avx512_flips)");
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
    if has("avx512f") && has("avx512cd") {
        println!("cargo::rustc-cfg=avx512_flips");
    }
}
