//! The sequential test a match stops on: an SPRT over the match's own games and, when a
//! test goes on from earlier matches of the same two engines (other openings, say), over
//! theirs too, so that the match stops as soon as the whole test decides.

use super::error::MatchError;
use super::record::GameRecord;
use super::shard::pairs_end;
use super::stats::{Sprt, SprtState};
use super::tally::Tally;

/// An SPRT counted over earlier matches' games and this match's.
#[derive(Clone, Debug)]
pub struct SequentialTest {
    sprt: Sprt,
    tally: Tally,
    /// Where this match's game indices start in `tally`: past the earlier games, so that
    /// a colour-swapped pair is only ever made within one match.
    offset: usize,
    earlier: usize,
}

impl SequentialTest {
    /// A test of `names[0]` against `names[1]` that counts `earlier` (records as
    /// [`super::combined_records`] gives them: each file's pairs kept apart) before this
    /// match's games.
    ///
    /// # Errors
    /// An earlier game between other engines than this match's two.
    pub fn new(sprt: Sprt, names: &[String], earlier: &[GameRecord]) -> Result<Self, MatchError> {
        let mut tally = Tally::new(names.to_vec());
        for record in earlier {
            for name in [&record.first, &record.second] {
                if !names.contains(name) {
                    return Err(MatchError::SprtEarlierEngine {
                        name: name.clone(),
                        engines: names.join(", "),
                    });
                }
            }
            tally.add(record);
        }
        Ok(SequentialTest {
            sprt,
            tally,
            offset: pairs_end(earlier),
            earlier: earlier.len(),
        })
    }

    /// Counts one of this match's games.
    pub fn add(&mut self, record: &GameRecord) {
        let mut record = record.clone();
        record.index += self.offset;
        self.tally.add(&record);
    }

    /// Whether the test has accepted either hypothesis.
    #[must_use]
    pub fn decided(&self) -> bool {
        self.tally.sprt(&self.sprt).1 != SprtState::Continue
    }

    /// The test so far, for progress lines: `LLR 1.23 [-2.94, 2.94]`.
    #[must_use]
    pub fn progress(&self) -> String {
        let (llr, _) = self.tally.sprt(&self.sprt);
        let (low, high) = self.sprt.bounds();
        format!("LLR {llr:.2} [{low:.2}, {high:.2}]")
    }

    /// The test's part of the report (no final newline): the SPRT's line, after a line
    /// that says how many earlier games it counts, if any.
    #[must_use]
    pub fn report(&self) -> String {
        let line = self.tally.sprt_line(&self.sprt);
        if self.earlier == 0 {
            return line;
        }
        let games = self.tally.games();
        format!(
            "The SPRT counts {games} games: {} of earlier matches, {} of this one.\n{line}",
            self.earlier,
            games - self.earlier
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_runner::record::{GameResult, Termination};

    fn names() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    fn game(index: usize, first: &str, second: &str, result: GameResult) -> GameRecord {
        GameRecord {
            index,
            round: 0,
            game: "othello6x6".into(),
            opening: "othello6x6".into(),
            first: first.into(),
            second: second.into(),
            moves: Vec::new(),
            result,
            score: None,
            termination: Termination::Normal,
            fault: None,
        }
    }

    /// `pairs` colour-swapped pairs from index `start`: "a" wins its game as first and,
    /// as second, wins, draws and loses in turn.
    fn a_leads(start: usize, pairs: usize) -> Vec<GameRecord> {
        (start..start + 2 * pairs)
            .map(|i| {
                if i % 2 == 0 {
                    game(i, "a", "b", GameResult::FirstWins)
                } else {
                    let result = [
                        GameResult::SecondWins,
                        GameResult::Draw,
                        GameResult::FirstWins,
                    ];
                    game(i, "b", "a", result[(i / 2) % 3])
                }
            })
            .collect()
    }

    const SPRT: Sprt = Sprt {
        elo0: 0.0,
        elo1: 100.0,
        alpha: 0.05,
        beta: 0.05,
    };

    #[test]
    fn earlier_games_count_as_if_played_first() {
        let earlier = a_leads(0, 3);
        let mut test = SequentialTest::new(SPRT, &names(), &earlier).unwrap();
        let mut alone = Tally::new(names());
        for record in earlier.iter().chain(&a_leads(6, 3)) {
            alone.add(record);
        }
        for record in &a_leads(0, 3) {
            test.add(record);
        }
        assert_eq!(test.tally.games(), 12);
        assert_eq!(test.tally.sprt(&SPRT), alone.sprt(&SPRT));
        assert!(
            test.report()
                .starts_with("The SPRT counts 12 games: 6 of earlier matches, 6")
        );
    }

    #[test]
    fn a_pair_is_never_made_across_matches() {
        // The earlier match ends on an open pair (game 6 alone): this match's game 0 must
        // not complete it, so the test counts the two matches' whole pairs only.
        let mut earlier = a_leads(0, 3);
        earlier.push(game(6, "a", "b", GameResult::SecondWins));
        let mut test = SequentialTest::new(SPRT, &names(), &earlier).unwrap();
        assert_eq!(test.offset, 8);
        let mut pairs = Tally::new(names());
        for record in &a_leads(0, 3) {
            test.add(record);
            pairs.add(record);
            pairs.add(&GameRecord {
                index: record.index + 8,
                ..record.clone()
            });
        }
        assert_ne!(pairs.sprt(&SPRT).0, 0.0);
        assert_eq!(test.tally.sprt(&SPRT), pairs.sprt(&SPRT));
    }

    #[test]
    fn earlier_games_of_other_engines_are_refused() {
        let earlier = vec![game(0, "a", "c", GameResult::Draw)];
        let error = SequentialTest::new(SPRT, &names(), &earlier).unwrap_err();
        assert_eq!(
            error.to_string(),
            "--sprt-after: a game names engine 'c', not one of this match's (a, b)"
        );
    }

    #[test]
    fn a_test_alone_reports_the_sprt_line_only() {
        let mut test = SequentialTest::new(SPRT, &names(), &[]).unwrap();
        assert!(!test.decided());
        for record in &a_leads(0, 40) {
            test.add(record);
        }
        assert!(test.decided());
        assert!(
            test.report().starts_with("SPRT elo0=0 elo1=100"),
            "{}",
            test.report()
        );
        assert!(test.report().ends_with("H1 accepted"), "{}", test.report());
    }
}
