//! The eight symmetries of the 8x8 board (mirrors, rotations, the diagonal), on squares
//! and on bitboards, and the canonical orientation of a position: the rules' geometry,
//! which the evaluation's patterns, the opening book and the training data share.

/// A board symmetry: bit 0 mirrors the columns, bit 1 the rows, bit 2 swaps rows and
/// columns (applied to the coordinates first).
pub type Symmetry = usize;

/// The eight symmetries of the square board.
pub const SYMMETRIES: usize = 8;

/// The square `symmetry` maps `square` to (row-major, a1 = 0).
#[must_use]
pub const fn map_square(symmetry: Symmetry, square: u32) -> u32 {
    let (mut row, mut column) = (square / 8, square % 8);
    if symmetry & 4 != 0 {
        (row, column) = (column, row);
    }
    if symmetry & 1 != 0 {
        column = 7 - column;
    }
    if symmetry & 2 != 0 {
        row = 7 - row;
    }
    row * 8 + column
}

/// Rows reversed.
const fn flip_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// Columns reversed.
const fn flip_columns(mut x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    x = ((x >> 1) & K1) | ((x & K1) << 1);
    x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Rows and columns swapped (the a1-h8 diagonal stays).
const fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The bitboard `b'` with `b'[s] = b[map_square(symmetry, s)]`: the pattern's squares of
/// `b'` hold what its copy under `symmetry` holds in `b`.
#[cfg(test)]
#[must_use]
pub const fn transform(symmetry: Symmetry, mut bits: u64) -> u64 {
    if symmetry & 2 != 0 {
        bits = flip_rows(bits);
    }
    if symmetry & 1 != 0 {
        bits = flip_columns(bits);
    }
    if symmetry & 4 != 0 {
        bits = transpose(bits);
    }
    bits
}

/// `transform(s, bits)` for every symmetry `s`, sharing the work: transposing after
/// mirroring the columns (rows) is mirroring the rows (columns) after transposing, so one
/// transpose and two column mirrors make all eight with byte swaps.
#[inline]
#[must_use]
pub fn all_transforms(bits: u64) -> [u64; SYMMETRIES] {
    let columns = flip_columns(bits);
    let t = transpose(bits);
    let t_columns = flip_columns(t);
    [
        bits,
        columns,
        flip_rows(bits),
        flip_rows(columns),
        t,
        flip_rows(t),
        t_columns,
        flip_rows(t_columns),
    ]
}

/// The canonical orientation of a position's symmetry class: the least of its eight.
#[must_use]
pub fn canonical(me: u64, opp: u64) -> (u64, u64) {
    let (mine, theirs) = (all_transforms(me), all_transforms(opp));
    mine.into_iter()
        .zip(theirs)
        .min()
        .expect("eight symmetries")
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    use super::*;

    #[test]
    fn transforms_move_squares_as_map_square_says() {
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..100 {
            let bits: u64 = rng.random();
            for s in 0..SYMMETRIES {
                let t = transform(s, bits);
                for sq in 0..64 {
                    assert_eq!(
                        t >> sq & 1,
                        bits >> map_square(s, sq) & 1,
                        "symmetry {s}, square {sq}"
                    );
                }
            }
        }
    }

    #[test]
    fn all_transforms_are_the_transforms() {
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..100 {
            let bits: u64 = rng.random();
            let all = all_transforms(bits);
            for (s, &t) in all.iter().enumerate() {
                assert_eq!(t, transform(s, bits), "symmetry {s}");
            }
        }
    }

    #[test]
    fn symmetric_positions_share_a_canonical_form() {
        let (me, opp) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let key = canonical(me, opp);
        for (m, o) in all_transforms(me).into_iter().zip(all_transforms(opp)) {
            assert_eq!(canonical(m, o), key);
        }
    }
}
