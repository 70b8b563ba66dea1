//! A misbehaving engine for the match runner's tests. It speaks the protocol well enough
//! to start a game and plays the first legal move, except as its mode says:
//!
//! - `crash <n>`: exits without a word at its n-th `go`;
//! - `illegal`: answers every `go` with a move that is not legal (or `none`);
//! - `silent`: never answers `go`.

use std::io::{BufRead, Write};

use engine::game::{AnyPosition, GameId};
use protocol::{BestMove, Command, Info, Message, Score};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("", String::as_str);
    let crash_at: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut say = |m: Message| {
        let _ = writeln!(out, "{m}");
        let _ = out.flush();
    };
    let mut position: Option<AnyPosition> = None;
    let mut gos = 0;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        match line.parse::<Command>() {
            Ok(Command::Hello { .. }) => {
                say(Message::IdName(format!("fixture-{mode}")));
                say(Message::IdVersion("0".into()));
                say(Message::Protocol(protocol::PROTOCOL_VERSION));
                say(Message::HelloOk);
            }
            Ok(Command::IsReady) => say(Message::ReadyOk),
            Ok(Command::Position { game, start, moves }) => {
                let id: GameId = game.parse().expect("fixture games are valid");
                let mut p = id
                    .position(start.as_word())
                    .expect("fixture positions are valid");
                for mv in moves {
                    p = p.play_text(&mv).expect("fixture moves are legal");
                }
                position = Some(p);
            }
            Ok(Command::Go(go)) => {
                gos += 1;
                let legal = position.map(|p| p.legal_moves()).unwrap_or_default();
                let mv = match mode {
                    "crash" if gos >= crash_at => std::process::exit(3),
                    "silent" => continue,
                    "illegal" => Some("z9".to_string()),
                    _ => legal.first().cloned(),
                };
                say(Message::Info(Info {
                    id: go.id.clone(),
                    depth: Some(protocol::Depth::Plies(1)),
                    score: Some(Score::default()),
                    pv: mv.iter().cloned().collect(),
                    ..Info::default()
                }));
                say(Message::BestMove(BestMove { mv, id: go.id }));
            }
            Ok(Command::Quit) => return,
            _ => {}
        }
    }
}
