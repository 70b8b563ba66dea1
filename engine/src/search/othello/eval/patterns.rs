//! The patterns of the trained 8x8 evaluation: which squares each one reads, where its
//! symmetric copies lie on the board, and how a position becomes table indices (those of
//! its pattern copies, then those of its [`globals`] features).
//!
//! A pattern is a set of squares read as a base-3 number (0 empty, 1 the side to move's
//! disc, 2 the opponent's), its digits in ascending square order. Its copies under the
//! board's eight symmetries share one table: a copy is read from the board transformed so
//! that the copy lands on the pattern's own squares, which makes the reading a `pext` of
//! the transformed bitboards. Two indices that one of the pattern's own symmetries maps to
//! each other are one configuration; the trainer fits one weight for both
//! ([`Layout::param`]).

use std::sync::LazyLock;

use super::globals;
use crate::game::othello::geometry::squares;
use crate::game::othello::symmetry::{SYMMETRIES, Symmetry, all_transforms, map_square};

#[cfg(avx2_patterns)]
mod avx2;
#[cfg(avx512_patterns)]
mod avx512;
#[cfg(avx2_patterns)]
use avx2::{copy_indices, copy_sum};
#[cfg(avx512_patterns)]
use avx512::{copy_indices, copy_sum};

/// Gathers the bits of `x` under `mask` into the low bits, in ascending order.
#[cfg(target_feature = "bmi2")]
#[inline]
#[allow(unsafe_code)]
fn gather(x: u64, mask: u64) -> u64 {
    // SAFETY: `_pext_u64` needs only the BMI2 instruction set, and this definition is
    // compiled only when the build's target has it (`target-cpu=native` on a BMI2 CPU).
    // The test `indices_match_a_square_by_square_reading` checks it against the portable loop.
    unsafe { std::arch::x86_64::_pext_u64(x, mask) }
}

/// Gathers the bits of `x` under `mask` into the low bits, in ascending order.
#[cfg(not(target_feature = "bmi2"))]
#[inline]
fn gather(x: u64, mask: u64) -> u64 {
    gather_portable(x, mask)
}

/// [`gather`] without BMI2.
#[cfg_attr(target_feature = "bmi2", allow(dead_code))]
fn gather_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    let mut bit = 1;
    while mask != 0 {
        if x & mask & mask.wrapping_neg() != 0 {
            out |= bit;
        }
        mask &= mask - 1;
        bit <<= 1;
    }
    out
}

/// The squares of a mask of `(row, column)` pairs.
const fn mask_of(squares: &[(u32, u32)]) -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < squares.len() {
        mask |= 1 << (squares[i].0 * 8 + squares[i].1);
        i += 1;
    }
    mask
}

/// The shapes by their squares in the a1 corner's orientation: Logistello's and Edax's
/// classic set, then two ten-square shapes of Egaroucid's kind, which see how a corner and
/// an edge's middle fit together.
pub(crate) const SHAPES: [u64; 13] = [
    // corner 3x3
    0x07_0707,
    // corner 2x5
    0x1f1f,
    // edge and its two X squares
    0x42ff,
    // second line
    0xff << 8,
    // third line
    0xff << 16,
    // fourth line
    0xff << 24,
    // long diagonal
    0x8040_2010_0804_0201,
    // diagonal of 7
    mask_of(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 7)]),
    // diagonal of 6
    mask_of(&[(0, 2), (1, 3), (2, 4), (3, 5), (4, 6), (5, 7)]),
    // diagonal of 5
    mask_of(&[(0, 3), (1, 4), (2, 5), (3, 6), (4, 7)]),
    // diagonal of 4
    mask_of(&[(0, 4), (1, 5), (2, 6), (3, 7)]),
    // corner triangle: a1-d1, a2-c2, a3-b3, a4
    0x0103_070f,
    // edge block: a1, c1-f1, h1, c2-f2
    0x3cbd,
];

/// The most squares in a shape.
const MAX_SQUARES: u32 = 10;

/// The vector readers' digits per group: the four bytes of a 32-bit lane.
#[cfg(any(avx2_patterns, avx512_patterns))]
const GROUP: usize = 4;

/// The vector readers' groups for the largest shape.
#[cfg(any(avx2_patterns, avx512_patterns))]
const GROUPS: usize = (MAX_SQUARES as usize).div_ceil(GROUP);

/// The vector readers' place value of each group: `3^(4g)`.
#[cfg(any(avx2_patterns, avx512_patterns))]
const GROUP_SCALES: [i16; GROUPS] = {
    let mut scales = [1; GROUPS];
    let mut g = 1;
    while g < GROUPS {
        scales[g] = scales[g - 1] * 81;
        g += 1;
    }
    scales
};

/// One copy of a shape on the board.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Instance {
    /// The symmetry that brings the copy onto the shape's squares.
    pub(crate) symmetry: Symmetry,
    /// The shape's squares.
    pub(crate) mask: u64,
    /// Where the shape's table starts in a phase's table.
    pub(crate) offset: u32,
}

/// The squares `symmetry` maps the squares of `mask` to.
const fn image(symmetry: Symmetry, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        out |= 1 << map_square(symmetry, mask.trailing_zeros());
        mask &= mask - 1;
    }
    out
}

/// How many distinct copies of every shape the board holds.
const INSTANCE_COUNT: usize = 54;

/// Every copy of every shape, shape by shape: for each, the first symmetry (in numbering
/// order) of every distinct image. Computed at compile time, so that the evaluation's loop
/// over them reads constants.
const INSTANCES: [Instance; INSTANCE_COUNT] = {
    let mut out = [Instance {
        symmetry: 0,
        mask: 0,
        offset: 0,
    }; INSTANCE_COUNT];
    let (mut n, mut offset, mut k) = (0, 0, 0);
    while k < SHAPES.len() {
        let shape = SHAPES[k];
        let mut s = 0;
        while s < SYMMETRIES {
            let mut t = 0;
            while t < s && image(t, shape) != image(s, shape) {
                t += 1;
            }
            if t == s {
                out[n] = Instance {
                    symmetry: s,
                    mask: shape,
                    offset,
                };
                n += 1;
            }
            s += 1;
        }
        offset += 3u32.pow(shape.count_ones());
        k += 1;
    }
    assert!(
        n == INSTANCE_COUNT,
        "INSTANCE_COUNT is the number of copies"
    );
    out
};

/// Length of the shapes' part of a phase's table: the sum of `3^squares`.
pub(crate) const SHAPES_LEN: u32 = {
    let (mut len, mut k) = (0, 0);
    while k < SHAPES.len() {
        len += 3u32.pow(SHAPES[k].count_ones());
        k += 1;
    }
    len
};

/// Where each whole-board feature's weights start in a phase's table (after the shapes').
const GLOBAL_OFFSETS: [u32; globals::COUNT] = {
    let mut offsets = [0; globals::COUNT];
    let (mut at, mut i) = (SHAPES_LEN, 0);
    while i < globals::COUNT {
        offsets[i] = at;
        at += globals::SIZES[i];
        i += 1;
    }
    offsets
};

/// Length of one phase's table: the shapes' tables, then a weight per value of each
/// whole-board feature.
pub(crate) const TABLE_LEN: usize = {
    let last = globals::COUNT - 1;
    (GLOBAL_OFFSETS[last] + globals::SIZES[last]) as usize
};

/// How table indices fold into trained weights.
#[derive(Debug)]
pub(crate) struct Layout {
    /// For each table index (`TABLE_LEN` of them), its weight's number among a phase's
    /// trained parameters (indices one symmetry apart share one).
    pub(crate) param: Vec<u32>,
    /// Trained parameters per phase.
    pub(crate) params: usize,
}

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b`.
const TERNARY: [u16; 1 << MAX_SQUARES] = {
    let mut table = [0; 1 << MAX_SQUARES];
    let mut b = 0;
    while b < table.len() {
        let (mut t, mut k) = (0, MAX_SQUARES);
        while k > 0 {
            k -= 1;
            t = t * 3 + ((b >> k) & 1) as u16;
        }
        table[b] = t;
        b += 1;
    }
    table
};

/// `TERNARY`'s indices: a gather of at most [`MAX_SQUARES`] bits is below it.
const TERNARY_MASK: usize = (1 << MAX_SQUARES) - 1;

/// The layout, built once.
pub(crate) static LAYOUT: LazyLock<Layout> = LazyLock::new(Layout::new);

impl Layout {
    fn new() -> Layout {
        let mut param = Vec::with_capacity(TABLE_LEN);
        let mut params = 0;
        for shape in SHAPES {
            let squares: Vec<u32> = squares(shape).collect();
            // The shape's own symmetries, as permutations of its digits.
            let permutations: Vec<Vec<usize>> = (0..SYMMETRIES)
                .filter(|&s| image(s, shape) == shape)
                .map(|s| {
                    squares
                        .iter()
                        .map(|&sq| {
                            let to = map_square(s, sq);
                            squares.iter().position(|&x| x == to).expect("own square")
                        })
                        .collect()
                })
                .collect();
            let size = 3usize.pow(squares.len() as u32);
            let mut first_param = vec![u32::MAX; size];
            for index in 0..size {
                let digits: Vec<usize> = (0..squares.len())
                    .map(|k| index / 3usize.pow(k as u32) % 3)
                    .collect();
                let canonical = permutations
                    .iter()
                    .map(|perm| {
                        (0..squares.len())
                            .rev()
                            .fold(0, |acc, k| acc * 3 + digits[perm[k]])
                    })
                    .min()
                    .expect("the identity");
                if first_param[canonical] == u32::MAX {
                    first_param[canonical] = params;
                    params += 1;
                }
                param.push(first_param[canonical]);
            }
        }
        for size in globals::SIZES {
            for _ in 0..size {
                param.push(params);
                params += 1;
            }
        }
        debug_assert_eq!(param.len(), TABLE_LEN);
        Layout {
            param,
            params: params as usize,
        }
    }
}

/// The table indices of the whole-board features of the position `(me, opp)`, whose legal
/// moves are `moves` (the side to move's, the opponent's), offsets included.
#[inline(always)]
fn global_indices(me: u64, opp: u64, moves: [u64; 2]) -> impl Iterator<Item = u32> {
    GLOBAL_OFFSETS
        .into_iter()
        .zip(globals::values(me, opp, moves))
        .map(|(offset, value)| offset + value)
}

/// Calls `visit` with the table index of every copy of every shape in the position
/// `(me, opp)`, in the order of [`INSTANCES`], offsets included, copy by copy: the reader
/// of targets without AVX2 (`patterns/avx2.rs` and `patterns/avx512.rs` read them all at
/// once), and the tests' reference for those.
#[inline(always)]
#[cfg_attr(any(avx2_patterns, avx512_patterns), allow(dead_code))]
fn for_each_copy_index(me: u64, opp: u64, mut visit: impl FnMut(u32)) {
    let (mine, theirs) = (all_transforms(me), all_transforms(opp));
    // Unrolled, so that every copy's symmetry, mask and offset are constants in the code
    // rather than loads from the table of copies.
    macro_rules! read_copies {
        ($($i:literal)*) => {
            const _: () = {
                let listed = [$($i),*];
                assert!(listed.len() == INSTANCE_COUNT, "every copy");
                let mut k = 0;
                while k < listed.len() {
                    assert!(listed[k] == k, "in order, once each");
                    k += 1;
                }
            };
            $({
                const INSTANCE: Instance = INSTANCES[$i];
                let (m, o) = (mine[INSTANCE.symmetry], theirs[INSTANCE.symmetry]);
                visit(
                    INSTANCE.offset
                        + u32::from(TERNARY[gather(m, INSTANCE.mask) as usize & TERNARY_MASK])
                        + 2 * u32::from(TERNARY[gather(o, INSTANCE.mask) as usize & TERNARY_MASK]),
                );
            })*
        };
    }
    read_copies!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
        28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53);
}

/// The table index of every copy of every shape in the position `(me, opp)`, in the order
/// of [`INSTANCES`], offsets included.
#[cfg(not(any(avx2_patterns, avx512_patterns)))]
#[inline(always)]
fn copy_indices(me: u64, opp: u64) -> [u32; INSTANCE_COUNT] {
    let mut out = [0; INSTANCE_COUNT];
    let mut slots = out.iter_mut();
    for_each_copy_index(me, opp, |index| {
        *slots.next().expect("a slot per copy") = index
    });
    out
}

/// The sum of `table`'s entries at the indices of [`copy_indices`].
#[cfg(not(any(avx2_patterns, avx512_patterns)))]
#[inline(always)]
fn copy_sum(me: u64, opp: u64, table: &[i8]) -> i32 {
    let mut sum = 0;
    for_each_copy_index(me, opp, |index| sum += i32::from(table[index as usize]));
    sum
}

/// The table index of every copy of every shape in the position `(me, opp)`, in the
/// order of [`INSTANCES`], then of every whole-board feature, offsets included: what the
/// trainer fits.
#[inline]
pub(crate) fn indices(me: u64, opp: u64, out: &mut [u32]) {
    let mut all = [0; INDEX_COUNT];
    fill_indices(me, opp, globals::both_moves(me, opp), &mut all);
    for (slot, index) in out.iter_mut().zip(all) {
        *slot = index;
    }
}

/// [`indices`] of a position whose legal moves are `moves` (the side to move's, the
/// opponent's).
#[inline(always)]
fn fill_indices(me: u64, opp: u64, moves: [u64; 2], out: &mut [u32; INDEX_COUNT]) {
    let copies = copy_indices(me, opp);
    let (out_copies, out_globals) = out.split_at_mut(INSTANCE_COUNT);
    out_copies.copy_from_slice(&copies[..INSTANCE_COUNT]);
    for (slot, index) in out_globals.iter_mut().zip(global_indices(me, opp, moves)) {
        *slot = index;
    }
}

/// Weight units (1/128 disc) per unit of a shape table's entry: a phase's shape weights
/// are read as bytes in eighths of a disc, so that its tables (285 KB) stay in a core's
/// L2 cache, where the 16-bit weights (571 KB) did not on an L2 of 512 KB
/// (docs/evaluation.md). The trained parameters and the files keep 16 bits.
pub(crate) const SHAPE_UNIT: i32 = 16;

/// Entries of one phase's shape table: every shape's, then three of padding, so that a
/// vector reader's 4-byte read at any entry stays inside.
pub(crate) const SHAPE_TABLE_LEN: usize = SHAPES_LEN as usize + 3;

/// Entries of one phase's table of whole-board features (16-bit weight units: they are
/// few and some exceed what a byte holds).
pub(crate) const FEATURE_TABLE_LEN: usize = TABLE_LEN - SHAPES_LEN as usize;

/// A trained parameter as a shape table's entry: to the nearest [`SHAPE_UNIT`], within a
/// byte (the few weights outside -16 to +15.875 discs are clamped).
#[must_use]
pub(crate) fn shape_entry(weight: i16) -> i8 {
    (i32::from(weight) + SHAPE_UNIT / 2)
        .div_euclid(SHAPE_UNIT)
        .clamp(i8::MIN.into(), i8::MAX.into()) as i8
}

/// The evaluation's sum, in weight units, of one phase's tables at the indices of the
/// position `(me, opp)`, whose legal moves are `moves` (the side to move's, the
/// opponent's): `shapes` ([`SHAPE_TABLE_LEN`] entries) for the pattern copies, `features`
/// ([`FEATURE_TABLE_LEN`]) for the whole-board features; the indices are never stored.
#[inline]
pub(crate) fn sum_at_indices(
    me: u64,
    opp: u64,
    moves: [u64; 2],
    shapes: &[i8],
    features: &[i16],
) -> i32 {
    let (shapes, features) = (&shapes[..SHAPE_TABLE_LEN], &features[..FEATURE_TABLE_LEN]);
    copy_sum(me, opp, shapes) * SHAPE_UNIT + feature_sum(global_indices(me, opp, moves), features)
}

/// The sum of a phase's whole-board feature weights `features` at the table indices
/// `indices` (which count from the start of the shapes' table).
#[inline(always)]
fn feature_sum(indices: impl IntoIterator<Item = u32>, features: &[i16]) -> i32 {
    indices
        .into_iter()
        .map(|index| i32::from(features[(index - SHAPES_LEN) as usize]))
        .sum()
}

/// The evaluation's sum, as [`sum_at_indices`] finds it, and the table indices it read
/// (as [`indices`] gives them), for the network to read again.
#[inline]
pub(crate) fn linear_sum_and_indices(
    me: u64,
    opp: u64,
    moves: [u64; 2],
    shapes: &[i8],
    features: &[i16],
    out: &mut [u32; INDEX_COUNT],
) -> i32 {
    let (shapes, features) = (&shapes[..SHAPE_TABLE_LEN], &features[..FEATURE_TABLE_LEN]);
    fill_indices(me, opp, moves, out);
    let (out_copies, out_globals) = out.split_at(INSTANCE_COUNT);
    let shape_sum: i32 = out_copies
        .iter()
        .map(|&index| i32::from(shapes[index as usize]))
        .sum();
    shape_sum * SHAPE_UNIT + feature_sum(out_globals.iter().copied(), features)
}

/// The number of table indices a position reads: the length of [`indices`]' output.
pub(crate) const INDEX_COUNT: usize = INSTANCE_COUNT + globals::COUNT;

/// [`INDEX_COUNT`], for callers outside the evaluation.
#[must_use]
pub(crate) const fn feature_count() -> usize {
    INDEX_COUNT
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::symmetry::transform;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    fn random_board(rng: &mut StdRng) -> (u64, u64) {
        let occupied: u64 = rng.random();
        let me = occupied & rng.random::<u64>();
        (me, occupied & !me)
    }

    #[test]
    fn shapes_have_their_copies() {
        let counts: Vec<usize> = SHAPES
            .iter()
            .map(|shape| INSTANCES.iter().filter(|i| i.mask == *shape).count())
            .collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 2, 4, 4, 4, 4, 4, 4]);
        assert_eq!(feature_count(), 54 + globals::COUNT);
        assert_eq!(TABLE_LEN, 167_265 + 2 * 59_049 + 256);
        assert_eq!(LAYOUT.param.len(), TABLE_LEN);
    }

    /// Indices read square by square from the untransformed board.
    fn reference_indices(me: u64, opp: u64) -> Vec<u32> {
        let globals = GLOBAL_OFFSETS
            .iter()
            .zip(globals::values(me, opp, globals::both_moves(me, opp)))
            .map(|(offset, value)| offset + value);
        INSTANCES
            .iter()
            .map(|inst| {
                let squares: Vec<u32> = squares(inst.mask).collect();
                let mut index = 0;
                for &sq in squares.iter().rev() {
                    let at = map_square(inst.symmetry, sq);
                    let digit = if me >> at & 1 != 0 {
                        1
                    } else if opp >> at & 1 != 0 {
                        2
                    } else {
                        0
                    };
                    index = index * 3 + digit;
                }
                inst.offset + index
            })
            .chain(globals)
            .collect()
    }

    #[test]
    fn indices_match_a_square_by_square_reading() {
        let mut rng = StdRng::seed_from_u64(2);
        let mut out = vec![0; feature_count()];
        for _ in 0..300 {
            let (me, opp) = random_board(&mut rng);
            indices(me, opp, &mut out);
            let expected = reference_indices(me, opp);
            assert_eq!(out, expected);
            let mut copies = Vec::new();
            for_each_copy_index(me, opp, |index| copies.push(index));
            assert_eq!(copies, expected[..INSTANCE_COUNT]);
            for inst in &INSTANCES {
                assert_eq!(gather(me, inst.mask), gather_portable(me, inst.mask));
            }
        }
    }

    #[test]
    fn the_fused_sum_reads_the_indices() {
        let mut rng = StdRng::seed_from_u64(4);
        let shapes: Vec<i8> = (0..SHAPE_TABLE_LEN).map(|_| rng.random()).collect();
        let features: Vec<i16> = (0..FEATURE_TABLE_LEN)
            .map(|_| rng.random_range(-999..999))
            .collect();
        let entry = |index: u32| match index.checked_sub(SHAPES_LEN) {
            None => i32::from(shapes[index as usize]) * SHAPE_UNIT,
            Some(feature) => i32::from(features[feature as usize]),
        };
        let mut out = vec![0; feature_count()];
        for _ in 0..300 {
            let (me, opp) = random_board(&mut rng);
            indices(me, opp, &mut out);
            let expected: i32 = out.iter().map(|&i| entry(i)).sum();
            let moves = globals::both_moves(me, opp);
            assert_eq!(sum_at_indices(me, opp, moves, &shapes, &features), expected);
            let mut read = [0; INDEX_COUNT];
            let sum = linear_sum_and_indices(me, opp, moves, &shapes, &features, &mut read);
            assert_eq!((sum, &read[..]), (expected, &out[..]));
        }
    }

    #[test]
    fn shape_entries_round_to_the_nearest_unit_within_a_byte() {
        assert_eq!(shape_entry(0), 0);
        assert_eq!(shape_entry(7), 0);
        assert_eq!(shape_entry(8), 1);
        assert_eq!(shape_entry(-8), 0);
        assert_eq!(shape_entry(-9), -1);
        assert_eq!(shape_entry(16 * 127), 127);
        assert_eq!(shape_entry(i16::MAX), 127);
        assert_eq!(shape_entry(i16::MIN), -128);
    }

    #[test]
    fn symmetric_positions_share_weights() {
        let mut rng = StdRng::seed_from_u64(3);
        let (mut a, mut b) = (vec![0; feature_count()], vec![0; feature_count()]);
        let params = |v: &[u32]| {
            let mut p: Vec<u32> = v.iter().map(|&i| LAYOUT.param[i as usize]).collect();
            p.sort_unstable();
            p
        };
        for _ in 0..100 {
            let (me, opp) = random_board(&mut rng);
            indices(me, opp, &mut a);
            for s in 1..SYMMETRIES {
                indices(transform(s, me), transform(s, opp), &mut b);
                assert_eq!(params(&a), params(&b), "symmetry {s}");
            }
        }
    }
}
