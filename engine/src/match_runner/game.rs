//! Playing one game between two players. The runner owns the rules: it checks every move
//! and every clock, and a fault loses the game.

use std::time::Duration;

use protocol::TimeControl;

use super::fault::{Fault, FaultKind};
use super::openings::Opening;
use super::player::Player;
use super::record::{FaultRecord, GameRecord, GameResult, Ply, Termination};
use crate::game::{AnyPosition, GameId, Side};
use crate::search::{TranspositionTable, solve_exact};

/// A clock per side: milliseconds at the start and added after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time per side at the start of the game, in ms.
    pub time_ms: u64,
    /// Increment per move, in ms.
    pub inc_ms: u64,
}

/// What is the same for every game of a match.
#[derive(Clone, Debug)]
pub struct GameRules {
    /// The game every opening belongs to.
    pub game: GameId,
    /// A clock per side, if any.
    pub clock: Option<Clock>,
    /// Othello: solve exactly and end the game at or below this many empty squares.
    pub adjudicate_empties: Option<u32>,
    /// Longest wait for a move beyond the move's own time (or in total for depth- and
    /// node-limited moves).
    pub move_timeout: Duration,
    /// Longest wait for an engine to start and answer its handshake (some search before
    /// their first reply, e.g. Edax without an opening book).
    pub start_timeout: Duration,
}

/// A game of the schedule.
#[derive(Clone, Debug)]
pub struct ScheduledGame {
    /// Its place in the schedule.
    pub index: usize,
    /// Which pass over the openings (`--rounds`), from 0.
    pub round: usize,
    /// Where the game starts, as an opening of the schedule.
    pub opening: Opening,
    /// Index of the engine playing first.
    pub first: usize,
    /// Index of the engine playing second.
    pub second: usize,
}

/// Plays `game`; `players` are (first, second). `solver` is the table for adjudication.
pub fn play(
    rules: &GameRules,
    game: &ScheduledGame,
    mut players: [&mut Player<'_>; 2],
    solver: &mut TranspositionTable,
) -> GameRecord {
    let names = [
        players[0].spec().name.clone(),
        players[1].spec().name.clone(),
    ];
    let mut record = GameRecord {
        index: game.index,
        round: game.round,
        game: rules.game.to_string(),
        opening: game.opening.to_string(),
        first: names[0].clone(),
        second: names[1].clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        score: None,
        termination: Termination::Normal,
        fault: None,
    };
    let lose = |record: &mut GameRecord, side: usize, fault: Fault| {
        record.result = if side == 0 {
            GameResult::SecondWins
        } else {
            GameResult::FirstWins
        };
        record.termination = Termination::Fault;
        record.fault = Some(FaultRecord {
            engine: names[side].clone(),
            kind: fault.kind,
            detail: fault.detail,
        });
    };
    for (side, player) in players.iter_mut().enumerate() {
        if let Err(fault) = player.new_game() {
            player.restart();
            lose(&mut record, side, fault);
            return record;
        }
    }
    let mut position = game.opening.position;
    let mut played: Vec<String> = Vec::new();
    let mut left = [rules.clock.map_or(0, |c| c.time_ms as i64); 2];
    loop {
        if position.is_terminal() {
            let score = from_first(&position, position.final_score());
            record.score = Some(score);
            record.result = GameResult::of_score(score);
            return record;
        }
        if let (Some(limit), AnyPosition::Othello(p)) = (rules.adjudicate_empties, position)
            && position.empties().is_some_and(|e| e <= limit)
        {
            let value = solve_exact(&p, solver).score.value;
            let score = from_first(&position, value);
            record.score = Some(score);
            record.result = GameResult::of_score(score);
            record.termination = Termination::Adjudicated;
            return record;
        }
        let side = match position.side_to_move() {
            Side::First => 0,
            Side::Second => 1,
        };
        let player = &mut *players[side];
        let clock = rules.clock.map(|c| TimeControl {
            time: left[side].max(0).unsigned_abs(),
            inc: Some(c.inc_ms),
        });
        let go = player.spec().go(clock, position.empties());
        let own_time = clock
            .map(|c| Duration::from_millis(c.time))
            .or(go.movetime.map(Duration::from_millis))
            .unwrap_or_default();
        let reply = match player.choose(
            rules.game,
            &game.opening,
            &played,
            &go,
            own_time + rules.move_timeout,
        ) {
            Ok(reply) => reply,
            Err(fault) => {
                lose(&mut record, side, fault);
                return record;
            }
        };
        if let Some(c) = rules.clock {
            left[side] -= i64::try_from(reply.elapsed.as_millis()).unwrap_or(i64::MAX);
            if left[side] < 0 {
                let detail = format!("flag fell ({} ms over)", -left[side]);
                player.restart();
                lose(
                    &mut record,
                    side,
                    Fault {
                        kind: FaultKind::Time,
                        detail,
                    },
                );
                return record;
            }
            left[side] += c.inc_ms as i64;
        }
        let next = match &reply.mv {
            Some(mv) => position.play_text(mv).map_err(|e| e.to_string()),
            None => Err("bestmove none in an unfinished game".to_string()),
        };
        let next = match next {
            Ok(next) => next,
            Err(detail) => {
                player.restart();
                lose(
                    &mut record,
                    side,
                    Fault {
                        kind: FaultKind::Illegal,
                        detail,
                    },
                );
                return record;
            }
        };
        let mv = reply.mv.unwrap_or_default();
        let info = reply.info.as_ref();
        record.moves.push(Ply {
            mv: mv.clone(),
            score: info.and_then(|i| i.score).map(|s| s.value),
            depth: info.and_then(|i| i.depth).map(|d| d.to_string()),
            nodes: info.and_then(|i| i.nodes),
            time_ms: u64::try_from(reply.elapsed.as_millis()).unwrap_or(u64::MAX),
        });
        played.push(mv);
        position = next;
    }
}

/// A score from the side to move of `position`, turned to the first player's view.
fn from_first(position: &AnyPosition, score: i32) -> i32 {
    match position.side_to_move() {
        Side::First => score,
        Side::Second => -score,
    }
}
