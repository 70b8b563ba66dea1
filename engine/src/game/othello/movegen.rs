//! Bitboard move generation and flipping, shared by every board geometry.
//!
//! Squares off the board never hold a disc and are never empty-and-legal, so a line of
//! flips can only run over real squares; the per-direction masks stop wrapping around
//! the 8x8 edges. That makes one implementation serve every geometry.

use super::geometry::Shift;

const DIRECTIONS: [Shift; 8] = [
    Shift::LINES[0].0,
    Shift::LINES[0].1,
    Shift::LINES[1].0,
    Shift::LINES[1].1,
    Shift::LINES[2].0,
    Shift::LINES[2].1,
    Shift::LINES[3].0,
    Shift::LINES[3].1,
];

/// The four lines' shift amounts: a step along line `l` towards higher squares is
/// `<< LINE_SHIFTS[l]`, back is `>>`.
const LINE_SHIFTS: [u64; 4] = {
    let mut out = [0; 4];
    let mut l = 0;
    while l < 4 {
        out[l] = Shift::LINES[l].0.amount().unsigned_abs() as u64;
        l += 1;
    }
    out
};

/// The squares a step along each line may land on without wrapping around an edge:
/// towards higher squares, then back.
const LINE_KEEPS: [[u64; 4]; 2] = {
    let mut out = [[0; 4]; 2];
    let mut l = 0;
    while l < 4 {
        out[0][l] = Shift::LINES[l].0.keep();
        out[1][l] = Shift::LINES[l].1.keep();
        l += 1;
    }
    out
};

/// The squares of `empty` where the player owning `me` may move.
///
/// Along each line and way, runs of up to six opponent discs starting next to one of ours,
/// grown by doubling: one step, a second, then two steps twice. `opp` is first cut to the
/// squares the step may land on, so the bare shifts never carry a run across an edge onto
/// a square that counts (two steps across an edge land on the first or second column past
/// it: the first is cut, and the second needs the first). The lines are independent lanes
/// (constant shifts and masks), which the compiler turns into vector instructions.
#[inline]
#[must_use]
pub fn legal_moves(me: u64, opp: u64, empty: u64) -> u64 {
    let mut moves = 0;
    for l in 0..4 {
        let s = LINE_SHIFTS[l];
        let keep = LINE_KEEPS[0][l];
        let o = opp & keep;
        let mut run = (me << s) & o;
        run |= (run << s) & o;
        let pairs = o & (o << s);
        run |= pairs & (run << (2 * s));
        run |= pairs & (run << (2 * s));
        moves |= (run << s) & keep;

        let keep = LINE_KEEPS[1][l];
        let o = opp & keep;
        let mut run = (me >> s) & o;
        run |= (run >> s) & o;
        let pairs = o & (o >> s);
        run |= pairs & (run >> (2 * s));
        run |= pairs & (run >> (2 * s));
        moves |= (run >> s) & keep;
    }
    moves & empty
}

/// The legal moves of both players on the squares of `empty`: `[me's, opp's]`, as two
/// calls of [`legal_moves`] give. A leaf needs both (the evaluation's mobility, and
/// whether the game is over).
#[inline]
#[must_use]
pub fn both_legal_moves(me: u64, opp: u64, empty: u64) -> [u64; 2] {
    #[cfg(target_feature = "avx512f")]
    {
        let [mine, theirs] = both_legal_moves_avx512(me, opp);
        [mine & empty, theirs & empty]
    }
    #[cfg(not(target_feature = "avx512f"))]
    {
        [legal_moves(me, opp, empty), legal_moves(opp, me, empty)]
    }
}

/// [`both_legal_moves`] before the cut to empty squares, in two 512-bit vectors, one per
/// way along the lines: eight lanes each, the four lines for `me` then the same four for
/// `opp`, so that both players cost what one does.
#[cfg(target_feature = "avx512f")]
#[inline]
#[allow(unsafe_code)] // the intrinsics, whose only condition is AVX-512 F
fn both_legal_moves_avx512(me: u64, opp: u64) -> [u64; 2] {
    use std::arch::x86_64::{
        __m512i, _mm256_extract_epi64, _mm256_or_si256, _mm256_permute4x64_epi64, _mm512_and_si512,
        _mm512_castsi512_si256, _mm512_extracti64x4_epi64, _mm512_or_si512, _mm512_set_epi64,
        _mm512_sllv_epi64, _mm512_srlv_epi64,
    };
    /// Lanes 0-3: `lo`'s per line; lanes 4-7: `hi`'s per line.
    fn lanes(lo: [u64; 4], hi: [u64; 4]) -> __m512i {
        let v = |x: u64| x as i64;
        // SAFETY: AVX-512 F is this function's build condition.
        unsafe {
            _mm512_set_epi64(
                v(hi[3]),
                v(hi[2]),
                v(hi[1]),
                v(hi[0]),
                v(lo[3]),
                v(lo[2]),
                v(lo[1]),
                v(lo[0]),
            )
        }
    }
    /// One way along the four lines for both players: `step` shifts every lane by its
    /// line's amount (`twice` by double that), `keep` cuts to where a step may land.
    #[inline(always)]
    fn way(
        players: __m512i,
        opponents: __m512i,
        keep: __m512i,
        step: impl Fn(__m512i) -> __m512i,
        twice: impl Fn(__m512i) -> __m512i,
    ) -> __m512i {
        // SAFETY: AVX-512 F is this function's build condition.
        unsafe {
            let and = |a, b| _mm512_and_si512(a, b);
            let or = |a, b| _mm512_or_si512(a, b);
            let o = and(opponents, keep);
            let mut run = and(step(players), o);
            run = or(run, and(step(run), o));
            let pairs = and(o, step(o));
            run = or(run, and(pairs, twice(run)));
            run = or(run, and(pairs, twice(run)));
            and(step(run), keep)
        }
    }
    let both = |x: u64| [x; 4];
    let players = lanes(both(me), both(opp));
    let opponents = lanes(both(opp), both(me));
    let shift = lanes(LINE_SHIFTS, LINE_SHIFTS);
    let shift2 = lanes(LINE_SHIFTS.map(|s| 2 * s), LINE_SHIFTS.map(|s| 2 * s));
    // SAFETY: AVX-512 F is this function's build condition (AVX2 comes with it).
    unsafe {
        let up = way(
            players,
            opponents,
            lanes(LINE_KEEPS[0], LINE_KEEPS[0]),
            |x| _mm512_sllv_epi64(x, shift),
            |x| _mm512_sllv_epi64(x, shift2),
        );
        let down = way(
            players,
            opponents,
            lanes(LINE_KEEPS[1], LINE_KEEPS[1]),
            |x| _mm512_srlv_epi64(x, shift),
            |x| _mm512_srlv_epi64(x, shift2),
        );
        let m = _mm512_or_si512(up, down);
        // Lanes (0 4, 1 5, 2 6, 3 7) folded, then 0|1|2|3 for me and 4|5|6|7 for opp.
        let (lo, hi) = (_mm512_castsi512_si256(m), _mm512_extracti64x4_epi64::<1>(m));
        // Pair each player's lanes: [a0|a2, a1|a3] in lanes 0-1, the same for b in 2-3.
        let lo2 = _mm256_or_si256(lo, _mm256_permute4x64_epi64::<0b01_00_11_10>(lo));
        let hi2 = _mm256_or_si256(hi, _mm256_permute4x64_epi64::<0b01_00_11_10>(hi));
        let fold = |v| (_mm256_extract_epi64::<0>(v) | _mm256_extract_epi64::<1>(v)) as u64;
        // Not yet cut to the empty squares: the caller does that.
        [fold(lo2), fold(hi2)]
    }
}

/// For each square, the squares around it (8x8 grid): a move there flips nothing unless
/// one of them is the opponent's, which is far cheaper to test than the flips.
pub const NEIGHBOURS: [u64; 64] = {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            table[sq] |= DIRECTIONS[d].apply(1u64 << sq);
            d += 1;
        }
        sq += 1;
    }
    table
};

/// For each square and direction, the squares beyond it in that direction (8x8 grid).
const RAYS: [[u64; 8]; 64] = {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let mut ray = 0;
            let mut bit = DIRECTIONS[d].apply(1u64 << sq);
            while bit != 0 {
                ray |= bit;
                bit = DIRECTIONS[d].apply(bit);
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
};

/// The opponent discs flipped when the player owning `me` plays on `square`.
///
/// With AVX-512 F and CD (the build script's `avx512_flips`), the eight rays from the
/// square are the lanes of one vector; otherwise each square has its own function,
/// compiled with only the directions in which a move there can flip (at least two squares
/// of board beyond it): a corner looks three ways.
#[inline]
#[must_use]
pub fn flips(square: u32, me: u64, opp: u64) -> u64 {
    #[cfg(avx512_flips)]
    {
        flips_avx512(square, me, opp)
    }
    #[cfg(not(avx512_flips))]
    {
        FLIPS_AT[square as usize](me, opp)
    }
}

/// For each square, its eight rays as one vector's lanes: the four towards higher squares,
/// then the four towards lower ones.
#[cfg(avx512_flips)]
#[repr(C, align(64))]
struct RayLanes([u64; 8]);

#[cfg(avx512_flips)]
static RAY_LANES: [RayLanes; 64] = {
    let mut out = [const { RayLanes([0; 8]) }; 64];
    let mut sq = 0;
    while sq < 64 {
        let (mut up, mut down, mut d) = (0, 4, 0);
        while d < 8 {
            if DIRECTIONS[d].towards_higher() {
                out[sq].0[up] = RAYS[sq][d];
                up += 1;
            } else {
                out[sq].0[down] = RAYS[sq][d];
                down += 1;
            }
            d += 1;
        }
        assert!(up == 4 && down == 8, "four directions each way");
        sq += 1;
    }
    out
};

/// [`flips`] on eight lanes at once, one per ray, without the per-square function's
/// indirect call (whose target the processor cannot predict). In each lane the first square
/// that is not the opponent's closes the run if it is ours: the lowest such bit towards
/// higher squares, the highest (found by counting leading zeros) towards lower ones.
#[cfg(avx512_flips)]
#[inline]
#[allow(unsafe_code)] // the intrinsics, whose only conditions are AVX-512 F and CD
fn flips_avx512(square: u32, me: u64, opp: u64) -> u64 {
    use std::arch::x86_64::{
        _mm512_add_epi64, _mm512_and_si512, _mm512_andnot_si512, _mm512_load_si512,
        _mm512_lzcnt_epi64, _mm512_mask_blend_epi64, _mm512_maskz_and_epi64,
        _mm512_reduce_or_epi64, _mm512_set1_epi64, _mm512_setzero_si512, _mm512_srlv_epi64,
        _mm512_sub_epi64, _mm512_test_epi64_mask,
    };
    let rays = &RAY_LANES[square as usize];
    // SAFETY: AVX-512 F and CD are this function's build condition; the aligned load reads
    // a `RayLanes`, 64 bytes aligned to 64.
    unsafe {
        let rays = _mm512_load_si512(std::ptr::from_ref(rays).cast());
        let blockers = _mm512_andnot_si512(_mm512_set1_epi64(opp as i64), rays);
        let zero = _mm512_setzero_si512();
        let lowest = _mm512_and_si512(blockers, _mm512_sub_epi64(zero, blockers));
        // A shift by 64 (no blocker) gives 0.
        let top = _mm512_set1_epi64(i64::MIN);
        let highest = _mm512_srlv_epi64(top, _mm512_lzcnt_epi64(blockers));
        let first = _mm512_mask_blend_epi64(0x0f, highest, lowest);
        // Towards higher squares the run is below `first`, towards lower ones above it:
        // `first - 1`, and `-(2 * first)`.
        let below = _mm512_add_epi64(first, _mm512_set1_epi64(-1));
        let above = _mm512_sub_epi64(zero, _mm512_add_epi64(first, first));
        let between = _mm512_mask_blend_epi64(0x0f, above, below);
        let closed = _mm512_test_epi64_mask(first, _mm512_set1_epi64(me as i64));
        _mm512_reduce_or_epi64(_mm512_maskz_and_epi64(closed, rays, between)) as u64
    }
}

/// [`flips`] for each square.
#[cfg(any(test, not(avx512_flips)))]
static FLIPS_AT: [fn(u64, u64) -> u64; 64] = {
    macro_rules! per_square {
        ($($sq:literal)*) => { [$(flips_at::<$sq>,)*] };
    }
    per_square!(
        0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
        32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
        60 61 62 63
    )
};

#[cfg(any(test, not(avx512_flips)))]
fn flips_at<const SQUARE: usize>(me: u64, opp: u64) -> u64 {
    let mut flipped = 0;
    for (d, dir) in DIRECTIONS.iter().enumerate() {
        let ray = RAYS[SQUARE][d];
        if ray.count_ones() >= 2 {
            flipped |= ray_flips(ray, dir.towards_higher(), me, opp);
        }
    }
    flipped
}

/// The flips along one ray: the first square that is not the opponent's (the lowest such
/// bit for rays towards higher indices, the highest for the others) closes the run if it
/// is ours.
#[cfg(any(test, not(avx512_flips)))]
#[inline(always)]
fn ray_flips(ray: u64, towards_higher: bool, me: u64, opp: u64) -> u64 {
    let blockers = ray & !opp;
    let first = if towards_higher {
        blockers & blockers.wrapping_neg()
    } else if blockers == 0 {
        0
    } else {
        1u64 << (63 - blockers.leading_zeros())
    };
    let run = if towards_higher {
        ray & first.wrapping_sub(1)
    } else {
        ray & !(first.wrapping_shl(1).wrapping_sub(1))
    };
    run & 0u64.wrapping_sub(u64::from(first & me != 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::othello::geometry::squares;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    /// d4 = O, e4 = X, d5 = X, e5 = O (the standard start).
    const BLACK: u64 = 1 << 28 | 1 << 35;
    const WHITE: u64 = 1 << 27 | 1 << 36;

    #[test]
    fn start_moves() {
        let moves = legal_moves(BLACK, WHITE, !(BLACK | WHITE));
        // d3, c4, f5, e6
        assert_eq!(moves, 1 << 19 | 1 << 26 | 1 << 37 | 1 << 44);
    }

    #[test]
    fn flips_one_line() {
        assert_eq!(flips(19, BLACK, WHITE), 1 << 27);
        assert_eq!(flips(0, BLACK, WHITE), 0);
    }

    /// The move generator one step at a time, as the rules say it.
    fn legal_moves_step_by_step(me: u64, opp: u64, empty: u64) -> u64 {
        let mut moves = 0;
        for dir in DIRECTIONS {
            let mut run = dir.apply(me) & opp;
            for _ in 0..5 {
                run |= dir.apply(run) & opp;
            }
            moves |= dir.apply(run);
        }
        moves & empty
    }

    /// A random board's discs `(me, opp)`: dense and sparse boards, long runs included.
    fn random_board(rng: &mut StdRng) -> (u64, u64) {
        let occupied = rng.random::<u64>() | rng.random::<u64>() | rng.random::<u64>();
        let me = occupied & rng.random::<u64>() & rng.random::<u64>();
        (me, occupied & !me)
    }

    #[test]
    fn doubling_finds_the_moves_step_by_step_does() {
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..20_000 {
            let (me, opp) = random_board(&mut rng);
            let occupied = me | opp;
            assert_eq!(
                legal_moves(me, opp, !occupied),
                legal_moves_step_by_step(me, opp, !occupied),
                "{me:x} {opp:x}"
            );
        }
    }

    #[test]
    fn both_players_moves_are_each_ones() {
        let mut rng = StdRng::seed_from_u64(6);
        for _ in 0..20_000 {
            let occupied = rng.random::<u64>() | rng.random::<u64>();
            let me = occupied & rng.random::<u64>();
            let opp = occupied & !me;
            let empty = !occupied;
            assert_eq!(
                both_legal_moves(me, opp, empty),
                [legal_moves(me, opp, empty), legal_moves(opp, me, empty)],
                "{me:x} {opp:x}"
            );
        }
    }

    /// The flips one step at a time, as the rules say them.
    fn flips_step_by_step(square: u32, me: u64, opp: u64) -> u64 {
        let mut flipped = 0;
        for dir in DIRECTIONS {
            let (mut run, mut at) = (0, dir.apply(1 << square));
            while at & opp != 0 {
                run |= at;
                at = dir.apply(at);
            }
            if at & me != 0 {
                flipped |= run;
            }
        }
        flipped
    }

    #[test]
    fn flips_are_the_rules_on_every_square() {
        let mut rng = StdRng::seed_from_u64(7);
        for _ in 0..5_000 {
            let (me, opp) = random_board(&mut rng);
            let occupied = me | opp;
            for square in squares(!occupied) {
                let expected = flips_step_by_step(square, me, opp);
                assert_eq!(flips(square, me, opp), expected, "{square} {me:x} {opp:x}");
                // The per-square functions too, where the vector flips replace them.
                assert_eq!(FLIPS_AT[square as usize](me, opp), expected);
            }
        }
    }

    #[test]
    fn no_wrap_across_edges() {
        // X on h1, O on a2: playing b2 must not "flip" across the wrap from h1 to a2.
        let me = 1 << 7;
        let opp = 1 << 8;
        assert_eq!(flips(9, me, opp), 0);
        assert_eq!(legal_moves(me, opp, !(me | opp)) & (1 << 9), 0);
    }
}
