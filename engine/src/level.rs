//! Playing levels: the strengths a person picks in the GUI, from a one-ply search to the
//! full engine, in one table. A match names one with `level=N`, so the strength each
//! level is documented with is measured with the very settings the GUI sends.

use protocol::Go;

use crate::search::SelectivitySchedule;

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
    /// A level by depth solves exactly from this many empty squares (Othello); a level by
    /// time solves as the full engine does.
    pub solve_empties: u32,
    /// Multi-ProbCut's confidence (option `Selectivity`).
    pub selectivity: SelectivitySchedule,
    /// Whether book moves are played (option `OwnBook`).
    pub book: bool,
}

/// The strongest level: the full engine (book, the selectivity games are played at) at a
/// second a move.
pub const TOP: u8 = 10;

/// The most empties a level by depth solves from: 18 takes about a tenth of a second.
const MOST_SOLVED_EMPTIES: u32 = 18;

/// A level by depth: a `go` with a depth searches as told (PROTOCOL.md), so it never plays
/// from the book; it solves exactly from twice its depth in empties (at most
/// [`MOST_SOLVED_EMPTIES`]).
const fn depth(number: u8, depth: u32) -> Level {
    let solve_empties = if 2 * depth < MOST_SOLVED_EMPTIES {
        2 * depth
    } else {
        MOST_SOLVED_EMPTIES
    };
    Level {
        number,
        depth: Some(depth),
        movetime_ms: None,
        solve_empties,
        selectivity: SelectivitySchedule::PLAY,
        book: false,
    }
}

const fn time(number: u8, ms: u64) -> Level {
    Level {
        number,
        depth: None,
        movetime_ms: Some(ms),
        solve_empties: 0,
        selectivity: SelectivitySchedule::PLAY,
        book: true,
    }
}

/// Every level, weakest first: the levels by depth search their own openings and solve
/// the endgame from twice their depth in empties; those by time play from the book and
/// solve endgames as the full engine does, each with five times the time of the one below
/// it. Each step is 85 to 380 Elo (docs/levels, README's table).
pub const LEVELS: [Level; TOP as usize] = [
    depth(1, 1),
    depth(2, 2),
    depth(3, 4),
    depth(4, 6),
    depth(5, 8),
    depth(6, 10),
    time(7, 10),
    time(8, 50),
    time(9, 250),
    time(10, 1000),
];

impl Level {
    /// The top level: the full engine.
    #[must_use]
    pub const fn top() -> Level {
        LEVELS[TOP as usize - 1]
    }

    /// The level of this number (1 to [`TOP`]).
    #[must_use]
    pub fn get(number: u8) -> Option<Level> {
        LEVELS.iter().copied().find(|l| l.number == number)
    }

    /// The `go` of one move at this level, in a position with `empties` empty squares
    /// (Othello): a level by depth asks for the depth of the end where it solves, as a
    /// depth that reaches the end is an exact solve.
    #[must_use]
    pub fn go(&self, empties: Option<u32>) -> Go {
        Go {
            depth: self.depth_at(empties),
            movetime: self.movetime_ms,
            ..Go::default()
        }
    }

    /// The depth of a move in a position with `empties` empty squares, if the level is a
    /// depth.
    #[must_use]
    pub fn depth_at(&self, empties: Option<u32>) -> Option<u32> {
        let depth = self.depth?;
        Some(match empties {
            Some(e) if e <= self.solve_empties => depth.max(e),
            _ => depth,
        })
    }

    /// The options this level sets (names as the engine declares them).
    #[must_use]
    pub fn options(&self) -> Vec<(String, String)> {
        vec![
            ("Selectivity".into(), self.selectivity.to_string()),
            ("OwnBook".into(), self.book.to_string()),
        ]
    }

    /// How long it searches: `depth 4`, `250 ms a move`, `1 s a move`.
    #[must_use]
    pub fn search_text(&self) -> String {
        match (self.depth, self.movetime_ms) {
            (Some(d), _) => format!("depth {d}"),
            (None, Some(ms)) if ms % 1000 == 0 => format!("{} s a move", ms / 1000),
            (None, Some(ms)) => format!("{ms} ms a move"),
            (None, None) => "the engine's choice".into(),
        }
    }

    /// Where it solves exactly: `8 empties`, or `as the full engine` for a level by time.
    #[must_use]
    pub fn solve_text(&self) -> String {
        if self.depth.is_some() {
            format!("{} empties", self.solve_empties)
        } else {
            "as the full engine".into()
        }
    }

    /// What the level does, in a few words: `depth 4, no book`, `1 s a move, book`.
    #[must_use]
    pub fn describe(&self) -> String {
        let book = if self.book { "book" } else { "no book" };
        format!("{}, {book}", self.search_text())
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
        // Level 3 (depth 4) solves from 8 empties: depth 8 there, depth 4 before.
        let three = Level::get(3).unwrap();
        assert_eq!(three.go(Some(9)).depth, Some(4));
        assert_eq!(three.go(Some(8)).depth, Some(8));
        assert_eq!(three.go(Some(3)).depth, Some(4));
        assert_eq!(three.go(None).depth, Some(4));
        assert_eq!(Level::get(6).unwrap().solve_empties, 18);
        let top = Level::top();
        assert_eq!(Level::get(TOP), Some(top));
        assert_eq!(top.go(Some(8)).depth, None);
        assert!(top.book && top.selectivity == SelectivitySchedule::PLAY);
        assert_eq!(top.describe(), "1 s a move, book");
        assert_eq!(Level::get(3).unwrap().describe(), "depth 4, no book");
    }

    #[test]
    fn a_level_plays_from_the_book_exactly_when_it_says_so() {
        use crate::core::Intent;
        for level in LEVELS {
            let plays = Intent::of_go(&level.go(Some(30))) == Intent::Play;
            assert_eq!(plays, level.book, "level {}", level.number);
        }
    }

    /// README's level table has one row per level, with the level's own settings.
    #[test]
    fn the_readme_table_shows_every_level_as_it_is() {
        let readme = include_str!("../../README.md");
        let rows: Vec<Vec<&str>> = readme
            .lines()
            .filter(|l| {
                l.starts_with("| ")
                    && l.split('|')
                        .nth(1)
                        .is_some_and(|c| c.trim().parse::<u8>().is_ok())
            })
            .map(|l| l.split('|').map(str::trim).collect())
            .collect();
        assert_eq!(rows.len(), LEVELS.len(), "one row per level");
        for (row, level) in rows.iter().zip(LEVELS) {
            let book = if level.book { "yes" } else { "no" };
            let selectivity = match level.selectivity {
                SelectivitySchedule::Fixed(s) => format!("{}%", s.percent()),
                SelectivitySchedule::Auto => "auto".to_string(),
            };
            assert_eq!(
                row[1..6],
                [
                    level.number.to_string().as_str(),
                    level.search_text().as_str(),
                    level.solve_text().as_str(),
                    book,
                    selectivity.as_str()
                ],
                "README's row of level {}",
                level.number
            );
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
