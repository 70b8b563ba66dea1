//! What the user chose, kept between runs.

use engine::game::GameId;
use engine::game::othello::Geometry;
use engine::level::Level;
use protocol::{Algorithm, Go};
use serde::{Deserialize, Serialize};

use crate::engine_link::BUILTIN;

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Controller {
    /// The user, by clicking.
    Human,
    /// The engine of that side.
    Engine,
}

/// How strong the engines play, chosen when a game starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strength {
    /// A level of [`engine::level::LEVELS`] (1 to [`engine::level::TOP`]).
    Level(u8),
    /// The game's clock: the engines play at full strength with the time they have left.
    Clock,
    /// Each engine's own depth and time per move (the Engine section).
    Custom,
}

impl Strength {
    /// The settings a new player meets: a middle level, with the opening book.
    pub const DEFAULT: Strength = Strength::Level(6);

    /// The options an engine plays with: its level's, or the top level's (the engine at
    /// full strength, its defaults) for a clock or custom search. Sent before every move,
    /// as a level can change between moves.
    #[must_use]
    pub fn options(self) -> Vec<(String, String)> {
        self.level().options()
    }

    /// The level, or the top one when the strength is not a level.
    #[must_use]
    pub fn level(self) -> Level {
        match self {
            Strength::Level(n) => Level::get(n).unwrap_or(Level::top()),
            Strength::Clock | Strength::Custom => Level::top(),
        }
    }
}

/// A clock for each side: a time for the game and an increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSettings {
    /// Time for the whole game, per side, in milliseconds.
    pub base_ms: u64,
    /// Added to a side's clock after each of its moves, in milliseconds.
    pub increment_ms: u64,
    /// A side whose time runs out loses (off: the game goes on, the clock at zero).
    pub flag_loses: bool,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            base_ms: 5 * 60_000,
            increment_ms: 3_000,
            flag_loses: true,
        }
    }
}

/// One side's engine and how it searches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSettings {
    /// `builtin`, a command line, or `tcp:host:port`.
    pub endpoint: String,
    /// The algorithm named in each `go`; `None` (the default) names none, so the engine
    /// searches its own way and plays from its opening book. (Settings saved when every
    /// `go` named one kept it as `algorithm`; they load with the engine's own way.)
    #[serde(default, with = "optional_text")]
    pub search_algorithm: Option<Algorithm>,
    /// Depth per move (0: the engine decides).
    pub depth: u32,
    /// Time per move in ms (0: none).
    pub movetime_ms: u64,
    /// Table size in MiB.
    pub hash_mib: u32,
    /// Search threads (settings saved before it existed load with 1).
    #[serde(default = "one_thread")]
    pub threads: u32,
    /// Kalah endgame database: boards of at most this many seeds, built by the engine at its
    /// first Kalah search (0: none).
    #[serde(default)]
    pub kalah_db_seeds: u32,
}

fn one_thread() -> u32 {
    1
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            endpoint: BUILTIN.into(),
            search_algorithm: None,
            depth: 0,
            movetime_ms: 1000,
            hash_mib: 64,
            threads: 1,
            kalah_db_seeds: 0,
        }
    }
}

impl EngineSettings {
    /// The `go` for one move.
    #[must_use]
    pub fn go(&self) -> Go {
        Go {
            algorithm: self.search_algorithm,
            depth: (self.depth > 0).then_some(self.depth),
            movetime: (self.movetime_ms > 0).then_some(self.movetime_ms),
            ..Go::default()
        }
    }

    /// Options sent when the engine starts (pass lines feed the MTD(f) plot).
    #[must_use]
    pub fn options(&self) -> Vec<(String, String)> {
        let mut options = vec![
            ("Hash".into(), self.hash_mib.to_string()),
            ("PassInfo".into(), "true".into()),
        ];
        // Only when asked for: an engine without the option then works as before.
        if self.threads > 1 {
            options.push(("Threads".into(), self.threads.to_string()));
        }
        if self.kalah_db_seeds > 0 {
            options.push(("KalahDatabase".into(), self.kalah_db_seeds.to_string()));
        }
        options
    }
}

/// Everything that persists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The game a new game starts (board size, Kalah rules).
    #[serde(with = "as_text")]
    pub game: GameId,
    /// `startpos` or `parallel`.
    pub start: String,
    /// Who plays first and second.
    pub players: [Controller; 2],
    /// Engines of the first and second player (the first also analyses, hints and
    /// reviews).
    pub engines: [EngineSettings; 2],
    /// How strong the engines play.
    pub strength: Strength,
    /// The clock, when the strength is [`Strength::Clock`].
    pub clock: ClockSettings,
    /// Depth of a game review's search per position (an exact solve from
    /// [`crate::review::SOLVE_EMPTIES`] empties on 8x8).
    pub review_depth: u32,
    /// Analyse the board while humans move.
    pub analyse: bool,
    /// While analysing, value every legal move (shown on its square).
    pub value_all: bool,
    /// Show the engine console.
    pub console: bool,
    /// The GGF file last opened or saved.
    pub ggf_path: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            game: GameId::Othello(Geometry::Board8x8),
            start: "startpos".into(),
            players: [Controller::Human, Controller::Engine],
            engines: [EngineSettings::default(), EngineSettings::default()],
            strength: Strength::DEFAULT,
            clock: ClockSettings::default(),
            review_depth: 12,
            analyse: false,
            value_all: true,
            console: false,
            ggf_path: "game.ggf".into(),
        }
    }
}

/// Game ids and algorithms are stored by name, as the protocol writes them.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<T: Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    pub(super) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr<Err: Display>,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(D::Error::custom)
    }
}

/// An optional algorithm is stored by name, or as `null` when none is named.
mod optional_text {
    use protocol::Algorithm;
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Algorithm>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match value {
            Some(a) => s.collect_str(a),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<Algorithm>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|name| name.parse().map_err(D::Error::custom))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_sent_only_when_asked_for_and_old_settings_load() {
        let mut e = EngineSettings::default();
        assert!(e.options().iter().all(|(name, _)| name != "Threads"));
        e.threads = 2;
        assert!(e.options().contains(&("Threads".into(), "2".into())));
        // Saved before the setting existed: one thread.
        let old = r#"{"endpoint":"builtin","algorithm":"mtdf","depth":0,"movetime_ms":1000,"hash_mib":64}"#;
        let e: EngineSettings = serde_json::from_str(old).unwrap();
        assert_eq!(e.threads, 1);
        assert_eq!(e.kalah_db_seeds, 0);
        assert!(e.options().iter().all(|(name, _)| name != "KalahDatabase"));
        let e = EngineSettings {
            kalah_db_seeds: 16,
            ..e
        };
        assert!(e.options().contains(&("KalahDatabase".into(), "16".into())));
    }

    #[test]
    fn every_option_the_gui_sends_is_one_the_engine_declares() {
        let e = EngineSettings {
            threads: 2,
            kalah_db_seeds: 16,
            ..EngineSettings::default()
        };
        let sent: Vec<String> = e.options().into_iter().map(|(name, _)| name).collect();
        assert_eq!(sent, ["Hash", "PassInfo", "Threads", "KalahDatabase"]);
        for name in &sent {
            assert!(
                engine::core::option_names().any(|declared| declared == name),
                "the GUI sets {name}, which the engine does not declare"
            );
        }
    }

    #[test]
    fn a_go_names_an_algorithm_only_when_the_user_picked_one() {
        // Settings of before: every `go` named MTD(f), so the engine never used its book.
        let old = r#"{"endpoint":"builtin","algorithm":"mtdf","depth":0,"movetime_ms":1000,"hash_mib":64}"#;
        let e: EngineSettings = serde_json::from_str(old).unwrap();
        assert_eq!(e.go().algorithm, None);
        let picked = EngineSettings {
            search_algorithm: Some(Algorithm::NegaScout),
            ..e
        };
        assert_eq!(picked.go().algorithm, Some(Algorithm::NegaScout));
        let saved = serde_json::to_string(&picked).unwrap();
        let loaded: EngineSettings = serde_json::from_str(&saved).unwrap();
        assert_eq!(loaded, picked);
    }
}
