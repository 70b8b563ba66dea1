//! Property tests on random playouts of every game: hashing, text round trips, and
//! typed errors (never a panic) for illegal moves and malformed positions.

use engine::game::{AnyPosition, Game, GameError, GameId, MoveList};
use engine::ggf::GgfGame;
use engine::with_position;
use proptest::prelude::*;

const GAMES: [&str; 9] = [
    "othello8x8",
    "othello6x6",
    "othello4x4",
    "othello4x6",
    "octagon",
    "kalah6x6",
    "kalah4x3",
    "kalah3x6-noemptycapture",
    "kalah5x2-endwhenstuck",
];

/// Plays a random game, choosing move `choices[i] % len` at ply i, checking each step.
fn check_playout<G: Game + Into<AnyPosition>>(
    start: G,
    choices: &[usize],
) -> Result<(), TestCaseError> {
    let mut position = start;
    let id = position.game_id();
    for &choice in choices {
        prop_assert_eq!(position.hash_key(), position.compute_hash());
        let text = position.to_string();
        prop_assert_eq!(id.parse_position(&text), Ok(position.into()));
        let mut moves = MoveList::new();
        position.generate_moves(&mut moves);
        prop_assert_eq!(moves.is_empty(), position.is_terminal());
        prop_assert_eq!(moves.len(), position.count_moves());
        for &mv in &moves {
            prop_assert_eq!(position.parse_move(&mv.to_string()), Ok(mv));
        }
        let Some(&mv) = moves.get(choice % moves.len().max(1)) else {
            break;
        };
        let next = position
            .try_play(mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Every move, a pass too, changes the position, and the change shows in the hash.
        prop_assert_ne!(next, position, "{} changed nothing", mv);
        prop_assert_ne!(next.hash_key(), position.hash_key());
        position = next;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_playouts_keep_every_invariant(game in 0..GAMES.len(), choices in prop::collection::vec(0usize..64, 0..120)) {
        let id: GameId = GAMES[game].parse().unwrap();
        let start = id.position("startpos").unwrap();
        with_position!(start, p => check_playout(p, &choices))?;
    }

    #[test]
    fn arbitrary_position_text_never_panics(game in 0..GAMES.len(), text in ".{0,80}") {
        let id: GameId = GAMES[game].parse().unwrap();
        if let Err(e) = id.position(&text) {
            prop_assert!(matches!(e, GameError::MalformedPosition(_)), "{e}");
        }
    }

    #[test]
    fn arbitrary_game_ids_never_panic(text in prop_oneof!["\\PC{0,12}", "(?i)(kalah|othello)\\PC{0,8}"]) {
        // Each result is checked: an accepted id must print as a name that reads back.
        if let Ok(id) = text.parse::<GameId>() {
            prop_assert_eq!(id.to_string().parse::<GameId>(), Ok(id));
        }
    }

    #[test]
    fn arbitrary_ggf_text_never_panics(text in prop_oneof!["\\PC{0,80}", "\\(;[A-Z\\[\\]\\\\;)\\PC]{0,60}"]) {
        // A game that was read writes a record that reads back to the same record.
        if let Ok(game) = text.parse::<GgfGame>() {
            let written = game.to_string();
            prop_assert_eq!(written.parse::<GgfGame>().map(|g| g.to_string()), Ok(written));
        }
    }

    #[test]
    fn arbitrary_moves_are_refused_with_typed_errors(game in 0..GAMES.len(), text in "\\PC{0,6}") {
        let id: GameId = GAMES[game].parse().unwrap();
        let start = id.position("startpos").unwrap();
        match start.play_text(&text) {
            Ok(next) => prop_assert!(start.legal_moves().contains(&text.to_ascii_lowercase()), "{next}"),
            Err(e) => prop_assert!(matches!(e, GameError::MalformedMove(_) | GameError::IllegalMove { .. }), "{e}"),
        }
    }

    #[test]
    fn positions_round_trip_through_text(game in 0..GAMES.len(), choices in prop::collection::vec(0usize..64, 0..60)) {
        let id: GameId = GAMES[game].parse().unwrap();
        let mut position = id.position("startpos").unwrap();
        for choice in choices {
            let moves = position.legal_moves();
            let Some(mv) = moves.get(choice % moves.len().max(1)) else { break };
            position = position.play_text(mv).unwrap();
        }
        prop_assert_eq!(id.position(&position.to_string()), Ok(position));
    }
}
