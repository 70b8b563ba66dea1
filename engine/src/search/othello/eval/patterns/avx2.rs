//! Every pattern copy's table index at once, with AVX2 (the build script's
//! `avx2_patterns`, for targets without the AVX-512 reader's instructions): what
//! `avx512.rs` does, eight copies a vector instead of sixteen.
//!
//! The board becomes base-3 digits, one byte per square (0 empty, 1 the side to move's
//! disc, 2 the opponent's), in four chunks of sixteen squares, each chunk in both halves of
//! a vector. A byte shuffle (`vpshufb`) picks only within a half, so each group of four
//! digits takes four shuffles, one per chunk, whose picks outside their chunk are zero, and
//! their union; a multiply-add of bytes (`vpmaddubsw`) weighs the four digits `1, 3, 9, 27`
//! in pairs, and a multiply-add of words (`vpmaddwd`) scales the pair sums by the group's
//! `3^(4g)` into the lane's total. Seven vectors hold the 54 copies; the weights are read
//! by seven gathers (on AMD's Zen 3, 0.89x the time of 54 plain loads; on Zen 4 the
//! AVX-512 reader's loads beat its gathers: docs/benchmarks-journal.md).

use std::arch::x86_64::{
    __m256i, _mm_add_epi32, _mm_cvtsi128_si32, _mm_shuffle_epi32, _mm256_add_epi32,
    _mm256_and_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi8, _mm256_extracti128_si256,
    _mm256_i32gather_epi32, _mm256_load_si256, _mm256_madd_epi16, _mm256_maddubs_epi16,
    _mm256_or_si256, _mm256_set_epi64x, _mm256_set1_epi8, _mm256_set1_epi16, _mm256_set1_epi64x,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_slli_epi32, _mm256_srai_epi32,
    _mm256_storeu_si256,
};

use super::{GROUP, GROUP_SCALES, GROUPS, INSTANCE_COUNT, INSTANCES, SHAPE_TABLE_LEN};
use crate::game::othello::symmetry::map_square;

/// Copies per vector: one per 32-bit lane.
const LANES: usize = 8;

/// Vectors for all the copies.
const BLOCKS: usize = INSTANCE_COUNT.div_ceil(LANES);

/// Squares per chunk: what one shuffle can pick from.
const CHUNK: usize = 16;

/// Chunks of the board.
const CHUNKS: usize = 64 / CHUNK;

/// A shuffle's index byte that picks nothing (zero).
const NONE: u8 = 0x80;

/// How many indices [`copy_indices`] writes: the copies', then unused lanes.
pub(super) const SLOTS: usize = BLOCKS * LANES;

/// 32 bytes on a vector's alignment.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct Vector([u8; 32]);

/// The constants of one block of eight copies.
#[derive(Clone, Copy)]
struct Block {
    /// Per group and chunk: the square (within the chunk) each byte reads, or [`NONE`]
    /// where the square is in another chunk or the copy has no square there (a lane's four
    /// bytes are its copy's digits `4g..4g+4`).
    picks: [[Vector; CHUNKS]; GROUPS],
    /// Per group: each byte's weight within its group, `3^(k mod 4)` or 0 past the end
    /// (signed bytes, as `vpmaddubsw` reads its second operand).
    weights: [Vector; GROUPS],
    /// The copies' table offsets, as 32-bit lanes (0 in unused lanes).
    offsets: Vector,
    /// All ones in the lanes that hold a copy.
    used: Vector,
    /// The groups any of the block's copies has digits in.
    groups: usize,
}

/// The blocks, computed at compile time from [`INSTANCES`].
static BLOCK_TABLE: [Block; BLOCKS] = {
    let empty = Vector([0; 32]);
    let none = Vector([NONE; 32]);
    let mut blocks = [Block {
        picks: [[none; CHUNKS]; GROUPS],
        weights: [empty; GROUPS],
        offsets: empty,
        used: empty,
        groups: 0,
    }; BLOCKS];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        let (b, lane) = (i / LANES, i % LANES);
        let instance = INSTANCES[i];
        let offset = instance.offset.to_le_bytes();
        let mut byte = 0;
        while byte < 4 {
            blocks[b].offsets.0[4 * lane + byte] = offset[byte];
            blocks[b].used.0[4 * lane + byte] = u8::MAX;
            byte += 1;
        }
        // The shape's squares in ascending order are its digits' order.
        let (mut mask, mut k) = (instance.mask, 0);
        while mask != 0 {
            let square = map_square(instance.symmetry, mask.trailing_zeros()) as usize;
            let (group, at) = (k / GROUP, 4 * lane + k % GROUP);
            blocks[b].picks[group][square / CHUNK].0[at] = (square % CHUNK) as u8;
            blocks[b].weights[group].0[at] = 3u8.pow((k % GROUP) as u32);
            if blocks[b].groups < group + 1 {
                blocks[b].groups = group + 1;
            }
            mask &= mask - 1;
            k += 1;
        }
        i += 1;
    }
    blocks
};

/// The board's digits, chunk by chunk, each chunk's sixteen bytes in both halves of its
/// vector: 1 for `me`, 2 for `opp` (where `opp` is not `me`, so that no digit exceeds 2 and
/// no index leaves its shape's table).
#[inline(always)]
fn digits(me: u64, opp: u64) -> [__m256i; CHUNKS] {
    let opp = opp & !me;
    // SAFETY: the target has AVX2 (this module's condition); no memory is touched.
    #[allow(unsafe_code)]
    unsafe {
        // Byte j of a half takes the chunk's byte j / 8, then tests its bit j % 8.
        let spread = _mm256_set_epi64x(0x0101_0101_0101_0101, 0, 0x0101_0101_0101_0101, 0);
        let bits = _mm256_set1_epi64x(0x8040_2010_0804_0201_u64 as i64);
        let bytes = |x: u64, c: usize, digit: i8| {
            let chunk = _mm256_set1_epi16((x >> (CHUNK * c)) as u16 as i16);
            let tested = _mm256_and_si256(_mm256_shuffle_epi8(chunk, spread), bits);
            _mm256_and_si256(_mm256_cmpeq_epi8(tested, bits), _mm256_set1_epi8(digit))
        };
        std::array::from_fn(|c| _mm256_or_si256(bytes(me, c, 1), bytes(opp, c, 2)))
    }
}

/// The table indices (offsets included) of `block`'s copies, one per lane, 0 in unused
/// lanes.
#[inline(always)]
fn block_indices(block: &Block, digits: &[__m256i; CHUNKS]) -> __m256i {
    // SAFETY: the target has AVX2 (this module's condition); the aligned loads read
    // `Vector`s, 32 bytes aligned to 32.
    #[allow(unsafe_code)]
    unsafe {
        let load = |v: &Vector| _mm256_load_si256(std::ptr::from_ref(v).cast());
        let mut sum = load(&block.offsets);
        let groups = block.picks.iter().zip(&block.weights).zip(GROUP_SCALES);
        for ((picks, weights), scale) in groups.take(block.groups) {
            let mut picked = _mm256_setzero_si256();
            for (pick, &chunk) in picks.iter().zip(digits) {
                picked = _mm256_or_si256(picked, _mm256_shuffle_epi8(chunk, load(pick)));
            }
            let pairs = _mm256_maddubs_epi16(picked, load(weights));
            let scaled = _mm256_madd_epi16(pairs, _mm256_set1_epi16(scale));
            sum = _mm256_add_epi32(sum, scaled);
        }
        sum
    }
}

/// The table index (offset included) of every pattern copy of the position `(me, opp)`,
/// in the order of [`INSTANCES`]; the slots past [`INSTANCE_COUNT`] hold 0.
#[inline(always)]
pub(super) fn copy_indices(me: u64, opp: u64) -> [u32; SLOTS] {
    let digits = digits(me, opp);
    let mut out = [0u32; SLOTS];
    for (block, slots) in BLOCK_TABLE.iter().zip(out.chunks_exact_mut(LANES)) {
        let indices = block_indices(block, &digits);
        // SAFETY: `slots` is eight `u32`s, the 32 bytes the store writes; AVX2.
        #[allow(unsafe_code)]
        unsafe {
            _mm256_storeu_si256(slots.as_mut_ptr().cast(), indices);
        }
    }
    out
}

/// The sum of `table`'s entries at the pattern copies' indices of `(me, opp)`: seven
/// gathers instead of 54 loads.
///
/// # Panics
/// If `table` is shorter than a phase's shape table.
#[inline(always)]
pub(super) fn copy_sum(me: u64, opp: u64, table: &[i8]) -> i32 {
    // A gather reads 32 bits at an index's byte: the entry and the next three.
    assert!(table.len() >= SHAPE_TABLE_LEN, "a phase's shape table");
    let digits = digits(me, opp);
    // SAFETY: AVX2 (this module's condition). Every gathered index is below `SHAPES_LEN`
    // (a copy's index is its offset plus a base-3 number of at most its shape's squares in
    // digits of at most 2, `digits`; an unused lane's is 0), so each 4-byte read at
    // `index` stays inside `table`, which has `SHAPES_LEN + 3` entries or more. The
    // aligned loads read `Vector`s.
    #[allow(unsafe_code)]
    unsafe {
        let mut sum = _mm256_setzero_si256();
        for block in &BLOCK_TABLE {
            let words =
                _mm256_i32gather_epi32::<1>(table.as_ptr().cast(), block_indices(block, &digits));
            let used = _mm256_load_si256(std::ptr::from_ref(&block.used).cast());
            let words = _mm256_and_si256(words, used);
            // The entry is the low byte: sign-extend it.
            sum = _mm256_add_epi32(sum, _mm256_srai_epi32::<24>(_mm256_slli_epi32::<24>(words)));
        }
        let half = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(half, _mm_shuffle_epi32::<0b01_00_11_10>(half));
        _mm_cvtsi128_si32(_mm_add_epi32(
            pairs,
            _mm_shuffle_epi32::<0b10_11_00_01>(pairs),
        ))
    }
}
