//! The board as Kalah's solver and databases see it: the pits only, the side to move's
//! first. The stores do not change what can still be won from the pits, so a position's
//! value is its store difference plus the value of its pits.

use crate::game::kalah::{EndRule, Kalah, KalahRules};
use crate::game::{Game, Side};

/// Most pits on both sides together.
pub(crate) const MAX_BOARD_PITS: usize = 12;

/// The pits, from the side to move: its own `0..p` in sowing order, then the opponent's
/// `p..2p` in the opponent's sowing order (entries past `2p` are zero).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Pits(pub(crate) [u8; MAX_BOARD_PITS]);

/// The result of sowing one pit.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sowing {
    /// The pits after the move, from the side that moves next.
    pub(crate) next: Pits,
    /// Seeds the move put into the mover's store (sown and captured).
    pub(crate) gain: i32,
    /// The last seed fell in the mover's store: the same side moves again.
    pub(crate) again: bool,
    /// The move captured.
    pub(crate) capture: bool,
}

/// The rule points that matter to the pits' value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PitRules {
    /// Pits a side.
    pub(crate) pits: usize,
    /// A last seed in an empty own pit captures even when the opposite pit is empty.
    pub(crate) empty_capture: bool,
    /// When the game ends.
    pub(crate) end: EndRule,
}

impl PitRules {
    pub(crate) fn of(rules: KalahRules) -> PitRules {
        PitRules {
            pits: usize::from(rules.pits),
            empty_capture: rules.empty_capture,
            end: rules.end,
        }
    }
}

impl Pits {
    /// The pits of `position`, its side to move first.
    pub(crate) fn of(position: &Kalah) -> Pits {
        let p = usize::from(position.rules().pits);
        let board = position.board();
        let (south, north) = (&board[..p], &board[p + 1..=2 * p]);
        let (own, other) = if position.side_to_move() == Side::First {
            (south, north)
        } else {
            (north, south)
        };
        let mut pits = [0; MAX_BOARD_PITS];
        pits[..p].copy_from_slice(own);
        pits[p..2 * p].copy_from_slice(other);
        Pits(pits)
    }

    /// Seeds on the side to move's pits and on the opponent's.
    #[inline]
    pub(crate) fn sides(&self, p: usize) -> (u32, u32) {
        let sum = |s: &[u8]| s.iter().map(|&c| u32::from(c)).sum();
        (sum(&self.0[..p]), sum(&self.0[p..2 * p]))
    }

    /// Whether the game is over, and if so the value of the pits: each side takes the
    /// seeds left on its own side.
    #[inline]
    pub(crate) fn final_value(&self, rules: &PitRules) -> Option<i32> {
        let (own, other) = self.sides(rules.pits);
        let over = match rules.end {
            EndRule::EitherSideEmpty => own == 0 || other == 0,
            EndRule::MoverStuck => own == 0,
        };
        over.then_some(own as i32 - other as i32)
    }

    /// The side to move's pits with seeds, as 0-based indices.
    #[inline]
    pub(crate) fn movable(&self, p: usize) -> impl Iterator<Item = usize> + '_ {
        (0..p).filter(|&i| self.0[i] > 0)
    }

    /// What sowing `pit` does, without sowing: `(again, capture)`, `capture` being the
    /// move's gain when it captures (seeds sown into the store, the last seed and the
    /// opposite pit's). Equal to [`Pits::sow`]'s `again`, and its `gain` when it captures;
    /// for cheap move ordering.
    #[inline]
    pub(crate) fn kind(&self, rules: &PitRules, pit: usize) -> (bool, Option<i32>) {
        let p = rules.pits;
        let ring = 2 * p + 1;
        let seeds = usize::from(self.0[pit]);
        let (laps, rest) = (seeds / ring, seeds % ring);
        let last = (pit + seeds) % ring;
        if last == p {
            return (true, None);
        }
        if last > p {
            return (false, None);
        }
        // Seeds a slot of the ring holds after the sowing (the sown pit starts empty).
        let sown = |slot: usize| (slot + ring - pit - 1) % ring < rest;
        let after = |slot: usize, index: usize| {
            let before = if index == pit {
                0
            } else {
                usize::from(self.0[index])
            };
            before + laps + usize::from(sown(slot))
        };
        if after(last, last) != 1 {
            return (false, None);
        }
        let opposite = 2 * p - 1 - last;
        let captured = after(opposite + 1, opposite);
        let stored = laps + usize::from(sown(p));
        let capture = (captured > 0 || rules.empty_capture).then(|| (stored + captured + 1) as i32);
        (false, capture)
    }

    /// Sows the side to move's pit `pit` (0-based, holding seeds).
    #[inline]
    pub(crate) fn sow(&self, rules: &PitRules, pit: usize) -> Sowing {
        let p = rules.pits;
        // The ring the mover sows: its pits, its store (slot p), the opponent's pits.
        let ring = 2 * p + 1;
        let mut c = self.0;
        let seeds = usize::from(c[pit]);
        debug_assert!(seeds > 0 && pit < p);
        c[pit] = 0;
        let laps = seeds / ring;
        let mut gain = laps as i32;
        if laps > 0 {
            for count in &mut c[..2 * p] {
                *count += laps as u8;
            }
        }
        for step in 1..=seeds % ring {
            let slot = (pit + step) % ring;
            match slot.cmp(&p) {
                std::cmp::Ordering::Less => c[slot] += 1,
                std::cmp::Ordering::Equal => gain += 1,
                std::cmp::Ordering::Greater => c[slot - 1] += 1,
            }
        }
        let last = (pit + seeds) % ring;
        if last == p {
            return Sowing {
                next: Pits(c),
                gain,
                again: true,
                capture: false,
            };
        }
        let mut capture = false;
        if last < p && c[last] == 1 {
            let opposite = 2 * p - 1 - last;
            let captured = c[opposite];
            if captured > 0 || rules.empty_capture {
                gain += i32::from(captured) + 1;
                c[last] = 0;
                c[opposite] = 0;
                capture = true;
            }
        }
        let mut next = [0; MAX_BOARD_PITS];
        next[..p].copy_from_slice(&c[p..2 * p]);
        next[p..2 * p].copy_from_slice(&c[..p]);
        Sowing {
            next: Pits(next),
            gain,
            again: false,
            capture,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveList;
    use crate::game::kalah::KalahMove;

    /// Sowing the pits agrees with the game's own moves on random games of every size and
    /// rule set: the gain is the store difference's change, the pits are the next position's.
    #[test]
    fn sowing_agrees_with_the_rules() {
        let mut seed = 0x1234_5678_u64;
        let mut random = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for id in [
            "kalah1x3",
            "kalah3x3",
            "kalah4x6-noemptycapture",
            "kalah6x6",
            "kalah6x4-endwhenstuck",
            "kalah5x5-noemptycapture-endwhenstuck",
        ] {
            let rules: KalahRules = id.parse().unwrap();
            let pit_rules = PitRules::of(rules);
            for _ in 0..200 {
                let mut position = Kalah::start(rules);
                loop {
                    let pits = Pits::of(&position);
                    let diff = |k: &Kalah| {
                        k.store(k.side_to_move()) as i32
                            - k.store(k.side_to_move().opponent()) as i32
                    };
                    if position.is_terminal() {
                        assert_eq!(
                            pits.final_value(&pit_rules).map(|v| v + diff(&position)),
                            Some(position.final_score()),
                            "{id} {position}"
                        );
                        break;
                    }
                    assert_eq!(pits.final_value(&pit_rules), None, "{id} {position}");
                    let mut moves = MoveList::new();
                    position.generate_moves(&mut moves);
                    let mv: KalahMove = moves[random(moves.len())];
                    let sowing = pits.sow(&pit_rules, usize::from(mv.number()) - 1);
                    let (again, capture) = pits.kind(&pit_rules, usize::from(mv.number()) - 1);
                    assert_eq!(again, sowing.again, "{id} {position} {mv}");
                    assert_eq!(capture.is_some(), sowing.capture, "{id} {position} {mv}");
                    assert!(
                        capture.is_none_or(|c| c == sowing.gain),
                        "{id} {position} {mv}"
                    );
                    let next = position.play(mv);
                    assert_eq!(Pits::of(&next), sowing.next, "{id} {position} {mv}");
                    assert_eq!(sowing.again, next.side_to_move() == position.side_to_move());
                    let before = diff(&position);
                    let after = if sowing.again {
                        diff(&next)
                    } else {
                        -diff(&next)
                    };
                    assert_eq!(after - before, sowing.gain, "{id} {position} {mv}");
                    position = next;
                }
            }
        }
    }
}
