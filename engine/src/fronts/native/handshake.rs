//! What the engine says about itself in answer to `hello`.

use protocol::{Algorithm, Message, PROTOCOL_VERSION};

use crate::ENGINE_NAME;
use crate::core::EngineOptions;
use crate::game::kalah::{MAX_PITS, MAX_SEEDS};
use crate::game::othello::Geometry;

/// Rule suffixes every Kalah id accepts.
const KALAH_SUFFIXES: [&str; 2] = ["-noemptycapture", "-endwhenstuck"];

/// The handshake, from `id name` to `hellook`.
pub(crate) fn messages(options: &EngineOptions) -> Vec<Message> {
    let mut out = vec![
        Message::IdName(ENGINE_NAME.to_string()),
        Message::IdVersion(env!("CARGO_PKG_VERSION").to_string()),
        Message::Protocol(PROTOCOL_VERSION),
    ];
    out.extend(Geometry::ALL.iter().map(|g| Message::Game {
        id: g.to_string(),
        suffixes: Vec::new(),
    }));
    for pits in 1..=MAX_PITS {
        for seeds in 1..=MAX_SEEDS {
            out.push(Message::Game {
                id: format!("kalah{pits}x{seeds}"),
                suffixes: KALAH_SUFFIXES.iter().map(ToString::to_string).collect(),
            });
        }
    }
    out.push(Message::Algorithms(Algorithm::ALL.to_vec()));
    out.extend(options.specs().into_iter().map(Message::Option));
    out.push(Message::HelloOk);
    out
}
