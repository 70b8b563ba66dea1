//! Opening positions: every distinct position a few plies from the start, or a file.

use std::collections::HashSet;
use std::fmt;

use rand::{RngExt, SeedableRng, rngs::StdRng};

use super::error::OpeningError;
use crate::book::{Book, Key, key_of};
use crate::game::othello::{Geometry, Othello, OthelloMove};
use crate::game::{AnyPosition, Game, GameId, Start};

/// Where a game starts: a start (`startpos`, `parallel` or a position text) and moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `startpos`, `parallel`, or a position text, as `position` takes it.
    pub start: String,
    /// Moves from there.
    pub moves: Vec<String>,
    /// The position it leads to.
    pub position: AnyPosition,
}

impl fmt::Display for Opening {
    /// The opening as `position` arguments after the game id.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.start)?;
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

impl Opening {
    /// Reads `startpos|parallel|<position text> [moves ...]` for `game`.
    ///
    /// # Errors
    /// When the start or a move is not valid in `game`.
    pub fn parse(game: GameId, line: &str) -> Result<Opening, OpeningError> {
        let (start, moves) = match line.split_once(" moves") {
            Some((start, moves)) => (start.trim(), moves.split_whitespace().collect()),
            None => (line.trim(), Vec::new()),
        };
        let mut position = game.position(start).map_err(OpeningError::Start)?;
        for (i, mv) in moves.iter().enumerate() {
            position = position
                .play_text(mv)
                .map_err(|source| OpeningError::Move {
                    number: i + 1,
                    source,
                })?;
        }
        Ok(Opening {
            start: start.to_string(),
            moves: moves.iter().map(ToString::to_string).collect(),
            position,
        })
    }
}

/// Most openings enumerated whole; with more distinct positions at the plies asked for,
/// openings are drawn at random instead (memory bounded by the games to play: 8x8 Othello
/// has about 8,000 distinct positions at 6 plies, 300,000 at 8 and millions at 10).
pub const ENUMERATE_LIMIT: usize = 20_000;

/// Most openings drawn at random (a match of two million games).
pub const DRAW_LIMIT: usize = 1_000_000;

/// Openings `plies` moves after the standard start, each an unfinished position with a
/// move sequence that reaches it: every distinct one (the first sequence in
/// move-generation order) when there are at most [`ENUMERATE_LIMIT`]; else `wanted` distinct
/// ones drawn by random moves from `seed` (the same seed, the same draw).
///
/// # Errors
/// No unfinished position at that many plies; too many to enumerate and `wanted` not
/// given or above [`DRAW_LIMIT`]; fewer distinct ones found than `wanted`.
pub fn after_plies(
    game: GameId,
    plies: usize,
    wanted: Option<usize>,
    seed: u64,
) -> Result<Vec<Opening>, OpeningError> {
    let start = game.start(Start::Standard).map_err(OpeningError::Start)?;
    let mut walk = Walk {
        seen: HashSet::new(),
        out: Vec::new(),
        line: Vec::new(),
        full: false,
        visits_left: ENUMERATE_VISITS,
    };
    walk.visit(start, plies);
    if !walk.full {
        if walk.out.is_empty() {
            return Err(OpeningError::NoneAfter { game, plies });
        }
        return Ok(walk.out);
    }
    let wanted = wanted.ok_or(OpeningError::TooManyToPlay {
        game,
        plies,
        limit: ENUMERATE_LIMIT,
    })?;
    if wanted > DRAW_LIMIT {
        return Err(OpeningError::TooManyWanted {
            wanted,
            limit: DRAW_LIMIT,
        });
    }
    let drawn = draw(start, plies, wanted, seed);
    if drawn.len() < wanted {
        return Err(OpeningError::TooFew {
            game,
            plies,
            found: drawn.len(),
            wanted,
        });
    }
    Ok(drawn)
}

/// Most positions the enumeration visits before it gives up (deep requests, and those
/// past the end of every game, would walk the whole tree).
const ENUMERATE_VISITS: usize = 200_000;

/// The enumeration of every distinct position at some plies, given up (`full`) past
/// [`ENUMERATE_LIMIT`] positions found or [`ENUMERATE_VISITS`] visited.
struct Walk {
    seen: HashSet<AnyPosition>,
    out: Vec<Opening>,
    line: Vec<String>,
    full: bool,
    visits_left: usize,
}

impl Walk {
    fn visit(&mut self, position: AnyPosition, plies: usize) {
        if self.visits_left == 0 {
            self.full = true;
        }
        if self.full || position.is_terminal() {
            return;
        }
        self.visits_left -= 1;
        if plies == 0 {
            if self.seen.insert(position) {
                if self.out.len() == ENUMERATE_LIMIT {
                    self.full = true;
                    return;
                }
                self.out.push(Opening {
                    start: "startpos".into(),
                    moves: self.line.clone(),
                    position,
                });
            }
            return;
        }
        for mv in position.legal_moves() {
            let Ok(next) = position.play_text(&mv) else {
                continue;
            };
            self.line.push(mv);
            self.visit(next, plies - 1);
            self.line.pop();
        }
    }
}

/// Openings from the opening book, as XOT's are from its list: the positions `plies` book
/// moves from the standard start (moves to book positions) that the book values within
/// `max_value` discs, one per symmetry class; with more than `wanted`, `wanted` drawn from
/// `seed`. In the order of their lines' moves.
///
/// # Errors
/// Another game than 8x8 Othello, or no such position in the book.
pub fn from_book(
    book: &Book,
    game: GameId,
    plies: usize,
    max_value: i32,
    wanted: Option<usize>,
    seed: u64,
) -> Result<Vec<Opening>, OpeningError> {
    if game != GameId::Othello(Geometry::Board8x8) {
        return Err(OpeningError::BookGame(game));
    }
    let mut found: Vec<(Othello, Vec<String>)> = Vec::new();
    let mut seen = HashSet::new();
    let mut line = Vec::new();
    book_lines(
        book,
        Othello::start(Geometry::Board8x8, Start::Standard),
        plies,
        &mut line,
        &mut seen,
        &mut found,
    );
    found.retain(|(position, _)| {
        key_of(position)
            .and_then(|key| book.value(&key))
            .is_some_and(|v| v.abs() <= max_value)
    });
    if found.is_empty() {
        return Err(OpeningError::NoneInBook { plies, max_value });
    }
    if let Some(wanted) = wanted.filter(|&w| w < found.len()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut chosen: Vec<usize> =
            rand::seq::index::sample(&mut rng, found.len(), wanted).into_vec();
        chosen.sort_unstable();
        found = chosen.into_iter().map(|i| found[i].clone()).collect();
    }
    Ok(found
        .into_iter()
        .map(|(position, moves)| Opening {
            start: "startpos".into(),
            moves,
            position: AnyPosition::Othello(position),
        })
        .collect())
}

/// Appends to `found` the book positions `plies` book moves from `position`, by the first
/// line that reaches each symmetry class (`seen` holds the classes met at each depth).
fn book_lines(
    book: &Book,
    position: Othello,
    plies: usize,
    line: &mut Vec<String>,
    seen: &mut HashSet<(Key, usize)>,
    found: &mut Vec<(Othello, Vec<String>)>,
) {
    let Some(key) = key_of(&position) else {
        return;
    };
    if !seen.insert((key, plies)) {
        return;
    }
    if plies == 0 {
        found.push((position, line.clone()));
        return;
    }
    for m in book.moves(&position).iter().filter(|m| !m.leaves_book) {
        let child = position.play(m.mv);
        line.push(m.mv.to_string());
        if child.moves() == 0 {
            // A forced pass is a ply of its own.
            if plies >= 2 {
                line.push("pass".into());
                book_lines(
                    book,
                    child.play(OthelloMove::PASS),
                    plies - 2,
                    line,
                    seen,
                    found,
                );
                line.pop();
            }
        } else {
            book_lines(book, child, plies - 1, line, seen, found);
        }
        line.pop();
    }
}

/// Up to `wanted` distinct unfinished positions `plies` random moves from `start`, within
/// a bounded number of tries.
fn draw(start: AnyPosition, plies: usize, wanted: usize, seed: u64) -> Vec<Opening> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let tries = wanted.saturating_mul(20).saturating_add(1000);
    for _ in 0..tries {
        if out.len() == wanted {
            break;
        }
        let mut position = start;
        let mut moves = Vec::with_capacity(plies);
        while moves.len() < plies && !position.is_terminal() {
            let legal = position.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())].clone();
            let Ok(next) = position.play_text(&mv) else {
                break;
            };
            position = next;
            moves.push(mv);
        }
        if moves.len() == plies && !position.is_terminal() && seen.insert(position) {
            out.push(Opening {
                start: "startpos".into(),
                moves,
                position,
            });
        }
    }
    out
}

/// Reads an openings file: one opening a line, `#` comments and blank lines skipped.
///
/// # Errors
/// A line that is not an opening of `game`, with its number.
pub fn from_text(game: GameId, text: &str) -> Result<Vec<Opening>, OpeningError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = Opening::parse(game, line).map_err(|e| OpeningError::Line {
            line: i + 1,
            source: Box::new(e),
        })?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_openings_are_even_book_positions_one_per_symmetry_class() {
        let game: GameId = "othello8x8".parse().unwrap();
        let book = Book::builtin();
        let all = from_book(&book, game, 4, 64, None, 0).unwrap();
        let even = from_book(&book, game, 4, 2, None, 0).unwrap();
        assert!(even.len() < all.len() && !even.is_empty());
        let mut classes = HashSet::new();
        for opening in &even {
            let AnyPosition::Othello(p) = opening.position else {
                unreachable!()
            };
            let key = key_of(&p).unwrap();
            assert!(book.value(&key).unwrap().abs() <= 2);
            assert!(classes.insert(key), "one per symmetry class");
            assert_eq!(opening.moves.len(), 4);
            // Each line is made of book moves.
            let replayed = Opening::parse(game, &opening.to_string()).unwrap();
            assert_eq!(replayed.position, opening.position);
        }
        let drawn = from_book(&book, game, 4, 64, Some(5), 7).unwrap();
        assert_eq!(drawn.len(), 5);
        assert_eq!(drawn, from_book(&book, game, 4, 64, Some(5), 7).unwrap());
        assert!(matches!(
            from_book(&book, "kalah6x4".parse().unwrap(), 4, 4, None, 0),
            Err(OpeningError::BookGame(_))
        ));
        assert!(matches!(
            from_book(&book, game, 59, 4, None, 0),
            Err(OpeningError::NoneInBook { .. })
        ));
    }

    #[test]
    fn distinct_positions_after_a_few_plies() {
        let game: GameId = "othello8x8".parse().unwrap();
        assert_eq!(after_plies(game, 1, None, 0).unwrap().len(), 4);
        // Perft 2 is 12 and every line gives a distinct position.
        assert_eq!(after_plies(game, 2, None, 0).unwrap().len(), 12);
        // Perft 3 is 56, but transpositions merge some.
        let three = after_plies(game, 3, Some(1), 0).unwrap();
        assert!(three.len() < 56 && three.len() > 40, "{}", three.len());
        let kalah: GameId = "kalah6x4".parse().unwrap();
        assert!(!after_plies(kalah, 2, None, 0).unwrap().is_empty());
        let small: GameId = "othello4x4".parse().unwrap();
        assert!(matches!(
            after_plies(small, 30, None, 0),
            Err(OpeningError::NoneAfter { .. })
        ));
        // Past the end of every 8x8 game: a clear error, not a walk of the whole tree.
        let err = after_plies(game, 200, Some(10), 0).unwrap_err();
        assert!(
            matches!(err, OpeningError::TooFew { found: 0, .. }),
            "{err}"
        );
    }

    #[test]
    fn deep_openings_are_drawn_not_enumerated() {
        let game: GameId = "othello8x8".parse().unwrap();
        // 8x8 has millions of distinct positions at 12 plies: a sample, or a clear refusal.
        let err = after_plies(game, 12, None, 0).unwrap_err();
        assert!(err.to_string().contains("--games"), "{err}");
        let drawn = after_plies(game, 12, Some(300), 7).unwrap();
        assert_eq!(drawn.len(), 300);
        let distinct: HashSet<_> = drawn.iter().map(|o| o.position).collect();
        assert_eq!(distinct.len(), 300);
        for o in &drawn {
            assert_eq!(o.moves.len(), 12);
            assert_eq!(
                Opening::parse(game, &o.to_string()).unwrap().position,
                o.position
            );
        }
        assert_eq!(
            after_plies(game, 12, Some(300), 7).unwrap(),
            drawn,
            "seeded"
        );
        assert_ne!(after_plies(game, 12, Some(300), 8).unwrap(), drawn);
        let err = after_plies(game, 12, Some(DRAW_LIMIT + 1), 7).unwrap_err();
        assert!(matches!(err, OpeningError::TooManyWanted { .. }), "{err}");
    }

    #[test]
    fn files_of_openings() {
        let game: GameId = "othello8x8".parse().unwrap();
        let openings = from_text(game, "# two\nstartpos moves f5 d6\n\nparallel\n").unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].to_string(), "startpos moves f5 d6");
        let err = from_text(game, "startpos moves f5 f5\n").unwrap_err();
        assert!(format!("{err:#}").contains("line 1"));
    }
}
