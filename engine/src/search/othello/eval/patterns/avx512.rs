//! Every pattern copy's table index at once, with AVX-512 (F, BW, VBMI, VNNI; the build
//! script's `avx512_patterns`): the evaluation's hot loop without a `pext` and two base-3
//! lookups per copy. The weights are then read by 54 plain loads: on AMD's Zen 4 a
//! gather is microcoded, and four of them took longer (docs/benchmarks-journal.md, session 30).
//!
//! The board becomes 64 bytes of base-3 digits (0 empty, 1 the side to move's disc, 2 the
//! opponent's). A copy's index is `offset + sum_k 3^k * digit(square_k)`; sixteen copies
//! share a vector, one 32-bit lane each. For each group of four digits a byte permutation
//! (`vpermb`) brings every lane its copy's four squares, a multiply-add of bytes
//! (`vpmaddubsw`) weighs them `1, 3, 9, 27` in pairs, and a multiply-add of words
//! (`vpdpwssd`) scales the pair sums by the group's `3^(4g)` into the lane's total. Four
//! vectors hold the 54 copies, three groups their up to ten squares.

use std::arch::x86_64::{
    __m512i, _mm512_dpwssd_epi32, _mm512_load_si512, _mm512_maddubs_epi16, _mm512_maskz_set1_epi8,
    _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi16, _mm512_storeu_si512,
};

use super::{GROUP, GROUP_SCALES, GROUPS, INSTANCE_COUNT, INSTANCES};
use crate::game::othello::symmetry::map_square;

/// Copies per vector: one per 32-bit lane.
const LANES: usize = 16;

/// Vectors for all the copies.
const BLOCKS: usize = INSTANCE_COUNT.div_ceil(LANES);

/// How many indices [`copy_indices`] writes: the copies', then unused lanes.
pub(super) const SLOTS: usize = BLOCKS * LANES;

/// 64 bytes on a vector's alignment.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Vector([u8; 64]);

/// The constants of one block of sixteen copies.
#[derive(Clone, Copy)]
struct Block {
    /// Per group: the square each byte reads (a lane's four bytes are its copy's digits
    /// `4g..4g+4`; past the copy's last square, square 0 with weight 0).
    squares: [Vector; GROUPS],
    /// Per group: each byte's weight within its group, `3^(k mod 4)` or 0 past the end
    /// (signed bytes, as `vpmaddubsw` reads its second operand).
    weights: [Vector; GROUPS],
    /// The copies' table offsets, as 32-bit lanes (0 in unused lanes).
    offsets: Vector,
}

/// The blocks, computed at compile time from [`INSTANCES`].
static BLOCK_TABLE: [Block; BLOCKS] = {
    let empty = Vector([0; 64]);
    let mut blocks = [Block {
        squares: [empty; GROUPS],
        weights: [empty; GROUPS],
        offsets: empty,
    }; BLOCKS];
    let mut i = 0;
    while i < INSTANCE_COUNT {
        let (b, lane) = (i / LANES, i % LANES);
        let instance = INSTANCES[i];
        let offset = instance.offset.to_le_bytes();
        let mut byte = 0;
        while byte < 4 {
            blocks[b].offsets.0[4 * lane + byte] = offset[byte];
            byte += 1;
        }
        // The shape's squares in ascending order are its digits' order.
        let (mut mask, mut k) = (instance.mask, 0);
        while mask != 0 {
            let square = map_square(instance.symmetry, mask.trailing_zeros());
            let at = 4 * lane + k % GROUP;
            blocks[b].squares[k / GROUP].0[at] = square as u8;
            blocks[b].weights[k / GROUP].0[at] = 3u8.pow((k % GROUP) as u32);
            mask &= mask - 1;
            k += 1;
        }
        i += 1;
    }
    blocks
};

/// The board as 64 base-3 digits, one byte per square: 1 for `me`, 2 for `opp` (where
/// `opp` is not `me`, so that no digit exceeds 2 and no index leaves its shape's table).
#[inline(always)]
fn digits(me: u64, opp: u64) -> __m512i {
    // SAFETY: the target has AVX-512 F and BW (this module's condition).
    #[allow(unsafe_code)]
    unsafe {
        _mm512_or_si512(
            _mm512_maskz_set1_epi8(me, 1),
            _mm512_maskz_set1_epi8(opp & !me, 2),
        )
    }
}

/// The table indices (offsets included) of `block`'s copies, one per lane, 0 in unused
/// lanes.
#[inline(always)]
fn block_indices(block: &Block, digits: __m512i) -> __m512i {
    // SAFETY: the target has AVX-512 F, BW, VBMI and VNNI (this module's condition); the
    // aligned loads read `Vector`s, 64 bytes aligned to 64.
    #[allow(unsafe_code)]
    unsafe {
        let load = |v: &Vector| _mm512_load_si512(std::ptr::from_ref(v).cast());
        let mut sum = load(&block.offsets);
        let groups = block.squares.iter().zip(&block.weights).zip(GROUP_SCALES);
        for ((squares, weights), scale) in groups {
            let picked = _mm512_permutexvar_epi8(load(squares), digits);
            let pairs = _mm512_maddubs_epi16(picked, load(weights));
            sum = _mm512_dpwssd_epi32(sum, pairs, _mm512_set1_epi16(scale));
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
        let indices = block_indices(block, digits);
        // SAFETY: `slots` is sixteen `u32`s, the 64 bytes the store writes; AVX-512 F.
        #[allow(unsafe_code)]
        unsafe {
            _mm512_storeu_si512(slots.as_mut_ptr().cast(), indices);
        }
    }
    out
}

/// The sum of `table`'s entries at the pattern copies' indices of `(me, opp)`: the indices
/// computed sixteen at a time, the entries read one by one (see the module's note).
#[inline(always)]
pub(super) fn copy_sum(me: u64, opp: u64, table: &[i8]) -> i32 {
    copy_indices(me, opp)[..INSTANCE_COUNT]
        .iter()
        .map(|&index| i32::from(table[index as usize]))
        .sum()
}
