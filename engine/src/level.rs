//! Playing levels: the strengths a person picks in the GUI, from a one-ply search to the
//! full engine, in one table. A match names one with `level=N`, so the strength each
//! level is documented with is measured with the very settings the GUI sends.

use protocol::Go;

use crate::search::Selectivity;

/// One level: how deep or how long the engine searches for a move, how selectively, and
/// whether it plays from its opening book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Its number, from 1 (weakest) to [`TOP`].
    pub number: u8,
    /// Depth per move, if the level is a depth.
    pub depth: Option<u32>,
    /// Time per move in milliseconds, if the level is a time.
    pub movetime_ms: Option<u64>,
    /// Multi-ProbCut's confidence (option `Selectivity`).
    pub selectivity: Selectivity,
    /// Whether book moves are played (option `OwnBook`).
    pub book: bool,
}

/// The strongest level: the full engine (book, the selectivity games are played at) at a
/// second a move.
pub const TOP: u8 = 10;

/// A level by depth: a `go` with a depth searches as told (PROTOCOL.md), so it never plays
/// from the book.
const fn depth(number: u8, depth: u32) -> Level {
    Level {
        number,
        depth: Some(depth),
        movetime_ms: None,
        selectivity: Selectivity::PLAY,
        book: false,
    }
}

const fn time(number: u8, ms: u64) -> Level {
    Level {
        number,
        depth: None,
        movetime_ms: Some(ms),
        selectivity: Selectivity::PLAY,
        book: true,
    }
}

/// Every level, weakest first: the levels by depth search their own openings, the two by
/// time play from the book. A depth that reaches the end of the game solves it exactly,
/// so even level 1 plays its last moves without a blunder.
pub const LEVELS: [Level; TOP as usize] = [
    depth(1, 1),
    depth(2, 2),
    depth(3, 3),
    depth(4, 4),
    depth(5, 5),
    depth(6, 6),
    depth(7, 8),
    depth(8, 10),
    time(9, 250),
    time(10, 1000),
];

impl Level {
    /// The level of this number (1 to [`TOP`]).
    #[must_use]
    pub fn get(number: u8) -> Option<Level> {
        LEVELS.iter().copied().find(|l| l.number == number)
    }

    /// The `go` of one move at this level.
    #[must_use]
    pub fn go(&self) -> Go {
        Go {
            depth: self.depth,
            movetime: self.movetime_ms,
            ..Go::default()
        }
    }

    /// The options this level sets (names as the engine declares them).
    #[must_use]
    pub fn options(&self) -> Vec<(String, String)> {
        vec![
            ("Selectivity".into(), self.selectivity.to_string()),
            ("OwnBook".into(), self.book.to_string()),
        ]
    }

    /// What the level does, in a few words: `depth 4, no book`, `1 s a move, book`.
    #[must_use]
    pub fn describe(&self) -> String {
        let search = match (self.depth, self.movetime_ms) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(ms)) if ms % 1000 == 0 => format!("{} s a move", ms / 1000),
            (None, Some(ms)) => format!("{ms} ms a move"),
            (None, None) => "the engine's choice".into(),
        };
        let book = if self.book { "book" } else { "no book" };
        format!("{search}, {book}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_numbered_in_order_and_each_limits_its_search() {
        for (i, level) in LEVELS.iter().enumerate() {
            assert_eq!(usize::from(level.number), i + 1);
            assert!(level.depth.is_some() != level.movetime_ms.is_some());
            assert_eq!(Level::get(level.number), Some(*level));
        }
        assert_eq!(Level::get(0), None);
        assert_eq!(Level::get(TOP + 1), None);
        // Each level searches at least as much as the one below it.
        let depths: Vec<u32> = LEVELS.iter().filter_map(|l| l.depth).collect();
        assert!(depths.windows(2).all(|w| w[0] < w[1]), "{depths:?}");
        let times: Vec<u64> = LEVELS.iter().filter_map(|l| l.movetime_ms).collect();
        assert!(times.windows(2).all(|w| w[0] < w[1]), "{times:?}");
        let top = Level::get(TOP).unwrap();
        assert!(top.book && top.selectivity == Selectivity::PLAY);
        assert_eq!(top.describe(), "1 s a move, book");
        assert_eq!(Level::get(4).unwrap().describe(), "depth 4, no book");
    }

    #[test]
    fn a_level_plays_from_the_book_exactly_when_it_says_so() {
        use crate::core::Intent;
        for level in LEVELS {
            let plays = Intent::of_go(&level.go()) == Intent::Play;
            assert_eq!(plays, level.book, "level {}", level.number);
        }
    }

    #[test]
    fn every_option_a_level_sets_is_declared() {
        for level in LEVELS {
            for (name, value) in level.options() {
                assert!(
                    crate::core::option_names().any(|n| n == name),
                    "{name} is not an option"
                );
                assert!(!value.is_empty());
            }
        }
    }
}
