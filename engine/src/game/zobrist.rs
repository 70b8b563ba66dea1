//! Zobrist keys, generated at compile time from a fixed seed so hashes are reproducible.

/// splitmix64: a tiny, well-mixed generator, good enough for hash keys.
const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

/// `N` keys drawn from the stream that starts at `seed`.
#[must_use]
pub const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, key) = splitmix64(state);
        state = next;
        out[i] = key;
        i += 1;
    }
    out
}

/// A well-mixed 64-bit value derived from `value` (for keys of run-time variants).
#[must_use]
pub const fn mix(value: u64) -> u64 {
    splitmix64(value).1
}
