//! The number of discs the last move of an 8x8 game flips, counted without flipping them.
//!
//! With one empty square left every other square holds a disc, so along any line the
//! flips depend only on which squares of the line are the mover's: each of the four lines
//! through the square is read as one byte and a table gives the count.

/// Bit `i` set: the square at position `i` of an 8-square line is the mover's.
type LinePattern = usize;

/// `COUNT[p][line]`: discs flipped along a full line by a move at position `p`.
static COUNT: [[u8; 256]; 8] = {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            table[p][line] = (run(line, p, 1) + run(line, p, -1)) as u8;
            line += 1;
        }
        p += 1;
    }
    table
};

/// Opponent discs between position `p` and the mover's first disc in direction `step`
/// (none if the line ends first).
const fn run(line: usize, p: usize, step: isize) -> usize {
    let mut count = 0;
    let mut i = p as isize + step;
    while i >= 0 && i < 8 {
        if line & (1 << i) != 0 {
            return count;
        }
        count += 1;
        i += step;
    }
    0
}

/// Per square, the masks of its diagonal and anti-diagonal.
static DIAGONALS: [(u64, u64); 64] = {
    let mut masks = [(0u64, 0u64); 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq as i32 / 8, sq as i32 % 8);
        let mut other: i32 = 0;
        while other < 64 {
            let (r2, c2) = (other / 8, other % 8);
            if r2 - c2 == r - c {
                masks[sq].0 |= 1 << other;
            }
            if r2 + c2 == r + c {
                masks[sq].1 |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    masks
};

const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The discs the owner of `me` flips by playing on `square`, the only empty square of a
/// full 8x8 board (every other square not in `me` is the opponent's).
#[inline]
#[must_use]
pub fn count_last_flips(square: u32, me: u64) -> u32 {
    let (row, column) = ((square / 8) as usize, (square % 8) as usize);
    let (diagonal, anti_diagonal) = DIAGONALS[square as usize];
    // A row is a byte already; a column and the diagonals are gathered into the top byte
    // by one multiplication (their squares lie in distinct rows and columns, so no carries).
    let row_line = (me >> (8 * row)) as u8 as LinePattern;
    let column_line =
        (((me >> column) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as LinePattern;
    let diagonal_line = ((me & diagonal).wrapping_mul(FILE_A) >> 56) as LinePattern;
    let anti_line = ((me & anti_diagonal).wrapping_mul(FILE_A) >> 56) as LinePattern;
    u32::from(COUNT[column][row_line])
        + u32::from(COUNT[row][column_line])
        + u32::from(COUNT[column][diagonal_line])
        + u32::from(COUNT[column][anti_line])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::movegen::flips;

    /// xorshift64: reproducible boards.
    fn next(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn counts_what_flips_flips_on_full_boards() {
        let mut state = 0x5eed;
        for _ in 0..20_000 {
            let square = (next(&mut state) % 64) as u32;
            let empty = 1u64 << square;
            // Boards biased to one side or the other, so long runs occur.
            let bias = next(&mut state) % 4;
            let mut me = next(&mut state);
            for _ in 0..bias {
                me |= next(&mut state);
            }
            let me = me & !empty;
            let opp = !me & !empty;
            assert_eq!(
                count_last_flips(square, me),
                flips(square, me, opp).count_ones(),
                "square {square}, me {me:#x}"
            );
            assert_eq!(
                count_last_flips(square, opp),
                flips(square, opp, me).count_ones()
            );
        }
    }
}
