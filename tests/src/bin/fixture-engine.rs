//! A misbehaving engine for the match runner's tests. It speaks the protocol well enough
//! to start a game and plays the first legal move, except as its mode says:
//!
//! - `crash <n>`: exits without a word at its n-th `go`;
//! - `illegal`: answers every `go` with a move that is not legal (or `none`);
//! - `silent`: never answers `go`;
//! - `stderr-crash`: writes two lines on its standard error, then exits at its first `go`;
//! - `slow-start <ms>`: waits that long before answering `hello`;
//! - `slow <ms>`: waits that long before answering each `go`, whatever its clock;
//! - `nboard`: speaks NBoard as Edax does: no `search` line, `nodestats 4242 0.01`, then
//!   `=== <move> 3.00 0.0` (the evaluation on the `===` line, fields apart by spaces).

use std::io::{BufRead, Write};

use engine::game::othello::Othello;
use engine::game::{AnyPosition, Game, GameId, MoveList};
use engine::ggf::GgfGame;
use protocol::{BestMove, Command, Info, Message, Score};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map_or("", String::as_str);
    let crash_at: usize = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(1);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if mode == "nboard" {
        return nboard(&mut out);
    }
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
                if mode == "slow-start" {
                    std::thread::sleep(std::time::Duration::from_millis(crash_at as u64));
                }
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
                    "stderr-crash" => {
                        eprintln!("fixture: loading weights");
                        eprintln!("fixture: fatal: out of memory");
                        std::process::exit(3)
                    }
                    "silent" => continue,
                    "slow" => {
                        std::thread::sleep(std::time::Duration::from_millis(crash_at as u64));
                        legal.first().cloned()
                    }
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

/// The `nboard` mode: Edax's way of answering `go`.
fn nboard(out: &mut impl Write) {
    let mut say = |line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    let mut position = None;
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        let mut words = line.split_whitespace();
        match words.next() {
            Some("nboard") => say("set myname fixture-nboard"),
            Some("ping") => say(&format!("pong {}", words.next().unwrap_or_default())),
            Some("set") if words.next() == Some("game") => {
                let ggf = line.split_once("game").map_or("", |(_, g)| g.trim());
                let game: GgfGame = ggf.parse().expect("the runner sends valid records");
                position = Some(game.final_position());
            }
            Some("go") => {
                let p: Othello = position.expect("a game before go");
                let mut moves = MoveList::new();
                p.generate_moves(&mut moves);
                let mv = moves.first().map_or("PA".into(), ToString::to_string);
                say("nodestats 4242 0.01");
                say(&format!("=== {} 3.00 0.0", mv.to_ascii_uppercase()));
            }
            _ => {}
        }
    }
}
