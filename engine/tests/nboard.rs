//! NBoard mode as a frontend sees it: a transcript per command, the specification's
//! example session, and `ping` arriving in the middle of a search.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

const EXAMPLE_GAME: &str = "(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)";

struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line, within a generous time.
    fn line(&self) -> String {
        self.lines
            .recv_timeout(Duration::from_secs(30))
            .expect("the engine answers")
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.line();
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    /// True when nothing arrives for a while.
    fn quiet(&self) -> bool {
        matches!(
            self.lines.recv_timeout(Duration::from_millis(300)),
            Err(RecvTimeoutError::Timeout)
        )
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn started() -> Engine {
    started_with(&[])
}

fn started_with(args: &[&str]) -> Engine {
    let mut e = Engine::start(args);
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname gamesearch");
    // Ready at once: the GUI shows "Loading" until a status line.
    assert_eq!(e.line(), "status");
    e
}

#[test]
fn the_specification_example_session() {
    let mut e = started();
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 6");
    e.send("ping 1");
    assert_eq!(e.line(), "pong 1");
    e.send("go");
    let lines = e.until("===");
    assert_eq!(lines[0], "status thinking");
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats ")),
        "{lines:?}"
    );
    let chosen = lines.last().unwrap();
    // `=== <move>/<eval>/<time>`, a legal move of the position.
    let fields: Vec<&str> = chosen["=== ".len()..].split('/').collect();
    assert_eq!(fields.len(), 3, "{chosen}");
    let legal = [
        "C3", "C4", "C6", "D6", "D7", "E3", "F3", "F8", "G3", "G4", "G5", "G6",
    ];
    assert!(legal.contains(&fields[0]), "{chosen}");
    fields[1].parse::<f64>().unwrap();
    fields[2].parse::<f64>().unwrap();
    // The search lines come from iterative deepening, one per depth, up to 6, each with
    // the search's confidence as Edax gives it (selective: 58% by default).
    let depths: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| l.split(' ').nth(4).unwrap())
        .collect();
    assert_eq!(
        depths,
        ["1@58%", "2@58%", "3@58%", "4@58%", "5@58%", "6@58%"]
    );
    assert_eq!(e.line(), "status");
    // The engine does not play its own move: the board waits for `move`.
    e.send("ping 2");
    assert_eq!(e.line(), "pong 2");
}

/// NBoard GUIs set no options: `--selectivity` chooses the confidence of NBoard mode.
#[test]
fn the_command_line_sets_the_selectivity_nboard_cannot() {
    for (args, depth) in [
        (&["--selectivity", "95"][..], "4@95%"),
        (&["--selectivity", "100"], "4"),
    ] {
        let mut e = started_with(args);
        e.send(&format!("set game {EXAMPLE_GAME}"));
        e.send("set depth 4");
        e.send("go");
        let lines = e.until("===");
        let last = lines
            .iter()
            .filter(|l| l.starts_with("search "))
            .map(|l| l.split(' ').nth(4).unwrap())
            .next_back();
        assert_eq!(last, Some(depth), "{args:?}: {lines:?}");
    }
}

#[test]
fn the_same_depth_gives_the_same_move_as_the_native_protocol() {
    // NBoard's `go` plays from the book at any depth; the native `go depth` searches.
    let mut e = started_with(&["--no-book"]);
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 5");
    e.send("go");
    let chosen = e.until("===").pop().unwrap();
    let mut native = Engine::start(&[]);
    native.send("position othello8x8 startpos moves f5 f6 d3 c5 e6 f7 e7 f4");
    native.send("go depth 5");
    let best = native.until("bestmove").pop().unwrap();
    let mv = chosen["=== ".len()..]
        .split('/')
        .next()
        .unwrap()
        .to_ascii_lowercase();
    assert_eq!(best, format!("bestmove {mv}"));
}

/// One game, every move chosen at depth 4 by an NBoard session and by a native one, each
/// keeping its table from move to move: the same moves, scores and node counts.
#[test]
fn a_game_through_both_protocols_is_the_same_game() {
    // The searches compared: NBoard's book off (a native `go depth` never uses it).
    let mut nboard = started_with(&["--no-book"]);
    nboard.send("set game (;GM[Othello]PC[test]BO[8 ---------------------------O*------*O--------------------------- *];)");
    nboard.send("set depth 4");
    let mut native = Engine::start(&[]);
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..24 {
        nboard.send("go");
        let lines = nboard.until("===");
        let nodes = nodestats(&lines).pop().unwrap();
        let chosen = lines.last().unwrap()["=== ".len()..].to_string();
        let mut fields = chosen.split('/');
        let mv = fields.next().unwrap().to_ascii_lowercase();
        let score: f64 = fields.next().unwrap().parse().unwrap();
        native.send(&format!(
            "position othello8x8 startpos moves {}",
            moves.join(" ")
        ));
        native.send("go depth 4");
        let lines = native.until("bestmove");
        let last = &lines[lines.len() - 2];
        let word = |name: &str| {
            let words: Vec<&str> = last.split_whitespace().collect();
            let at = words.iter().position(|w| *w == name).unwrap();
            words[at + 1].to_string()
        };
        let mv = if mv == "pa" { "pass".to_string() } else { mv };
        assert_eq!(
            lines.last().unwrap(),
            &format!("bestmove {mv}"),
            "ply {ply}"
        );
        let native_score: f64 = word("score").parse().unwrap();
        assert_eq!(native_score, score, "ply {ply}: {last}");
        assert_eq!(word("nodes"), nodes.to_string(), "ply {ply}: {last}");
        nboard.send(&format!("move {mv}"));
        moves.push(mv);
    }
}

/// With the book (the default), a move in a book position comes from it at once, and a
/// hint lists the book's moves as `book` lines before the search's `search` lines.
#[test]
fn moves_and_hints_come_from_the_opening_book() {
    let book = engine::book::Book::builtin();
    let start = engine::game::othello::Othello::start(
        engine::game::othello::Geometry::Board8x8,
        engine::game::Start::Standard,
    );
    let expected = book.moves(&start);
    let mut e = started();
    e.send("set game (;GM[Othello]PC[test]BO[8 ---------------------------O*------*O--------------------------- *];)");
    e.send("set depth 12");
    e.send("go");
    let lines = e.until("===");
    assert!(!lines.iter().any(|l| l.starts_with("search")), "{lines:?}");
    let chosen = lines.last().unwrap();
    assert_eq!(
        chosen,
        &format!(
            "=== {}/{:.2}/0.00",
            expected[0].mv.to_string().to_ascii_uppercase(),
            f64::from(expected[0].value)
        )
    );
    e.send("hint 4");
    let lines = e.until("search");
    let books: Vec<&String> = lines.iter().filter(|l| l.starts_with("book ")).collect();
    assert_eq!(books.len(), expected.len(), "{lines:?}");
    for (line, m) in books.iter().zip(&expected) {
        assert_eq!(
            **line,
            format!(
                "book {} {:.2} {} 0",
                m.mv.to_string().to_ascii_uppercase(),
                f64::from(m.value),
                m.games
            )
        );
    }
    // Off the book (`--no-book`), the same move is searched.
    let mut searched = started_with(&["--no-book"]);
    searched.send("set game (;GM[Othello]PC[test]BO[8 ---------------------------O*------*O--------------------------- *];)");
    searched.send("set depth 2");
    searched.send("go");
    let lines = searched.until("===");
    assert!(lines.iter().any(|l| l.starts_with("search")), "{lines:?}");
}

#[test]
fn ping_stops_a_search_before_pong() {
    let mut e = started();
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 40");
    e.send("go");
    assert_eq!(e.line(), "status thinking");
    e.line(); // the first iteration: the search is running
    e.send("ping 7");
    let lines = e.until("pong");
    assert_eq!(lines.last().unwrap(), "pong 7");
    assert!(!lines.iter().any(|l| l.starts_with("===")), "{lines:?}");
    // Nothing of the stopped search follows the pong.
    let after: Vec<String> =
        std::iter::from_fn(|| e.lines.recv_timeout(Duration::from_millis(300)).ok()).collect();
    assert!(
        after
            .iter()
            .all(|l| !l.starts_with("search") && !l.starts_with("===")),
        "{after:?}"
    );
}

#[test]
fn hint_move_learn_analyze_and_exact_solves() {
    let mut e = started();
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 3");
    e.send("hint 1");
    let lines = e.until("status");
    assert!(
        lines.iter().filter(|l| l.starts_with("search ")).count() >= 3,
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("===")));
    e.send("move D6/0.00/1.5");
    e.send("move pa");
    assert!(e.line().starts_with("status cannot play 'pa'"));
    e.send("learn");
    assert_eq!(e.line(), "learned");
    e.send("analyze");
    let lines = e.until("status");
    // Nine moves made (example + D6): positions 9 down to 0.
    let made: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("analysis "))
        .map(|l| l.split(' ').nth(1).unwrap())
        .collect();
    assert_eq!(made, ["9", "8", "7", "6", "5", "4", "3", "2", "1", "0"]);
    // FFO #40 (20 empties) with depth 30: the search reaches the end, an exact solve.
    let ffo40 =
        "(;GM[Othello]BO[8 O--OOOO*-OOOOOO*OO**OOO*OO*OOO**OOOOOO**---OOOO*----O--*-------- *];)";
    e.send(&format!("set game {ffo40}"));
    e.send("set depth 30");
    e.send("hint 1");
    let lines = e.until("status");
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("search "))
        .unwrap();
    // A proven result is `100%`, which NBoard shows as exact.
    assert!(last.ends_with(" 0 100%"), "{last}");
    assert!(last.contains(" 38.00 "), "FFO #40 is +38: {last}");
    // `analysis` values are from Black's view: +38 before and after Black's best move,
    // though White is to move after it.
    e.send("move A2");
    e.send("analyze");
    let lines = e.until("status");
    let values: Vec<&str> = lines
        .iter()
        .filter(|l| l.starts_with("analysis "))
        .map(String::as_str)
        .collect();
    assert_eq!(values, ["analysis 1 38.00", "analysis 0 38.00"]);
}

#[test]
fn a_move_keeps_to_the_games_clock() {
    let mut e = started();
    // One second for each side, and depth 20 asked: the clock wins.
    let game = EXAMPLE_GAME.replace("TI[15:00]", "TI[0:01]");
    e.send(&format!("set game {game}"));
    e.send("set depth 20");
    let asked = std::time::Instant::now();
    e.send("go");
    let lines = e.until("===");
    // Within the clock: the move's limit is a quarter of it, so four times that is slack
    // for a loaded machine.
    assert!(
        asked.elapsed() < Duration::from_secs(1),
        "a move of a one-second game took {:?}: {lines:?}",
        asked.elapsed()
    );
}

/// The node counts of the `nodestats` lines among `lines`.
fn nodestats(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("nodestats "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

#[test]
fn nodestats_every_second_during_a_long_hint() {
    let mut e = started();
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 40");
    e.send("hint 1");
    // Two reports, then stop: whatever the machine's speed.
    let mut lines = e.until("nodestats");
    lines.extend(e.until("nodestats"));
    e.send("ping 9");
    lines.extend(e.until("pong"));
    let stats = nodestats(&lines);
    assert!(stats.len() >= 2, "{lines:?}");
    assert!(stats[0] > 0, "{stats:?}");
    assert!(
        stats.windows(2).all(|w| w[0] < w[1]),
        "a running search counts more nodes every second: {stats:?}"
    );
    // An `analyze` searches position after position; its counts add up across them: the
    // report after a position's `analysis` line counts that position's nodes too. (Reports
    // never go backwards, so a count that restarted with each position would repeat the
    // last report's number here rather than grow.)
    // Each try searches deeper, so that on a fast machine too some position's analysis
    // ends between two reports before the whole analysis does.
    let (before, after, lines) = [26, 30, 34]
        .into_iter()
        .find_map(|depth| report_around_a_position_end(&mut e, depth))
        .expect("some analysis lasts long enough to report around a position's end");
    assert!(
        after > before,
        "{before} nodes, then {after} after a position ended: {lines:?}"
    );
    e.send("ping 10");
    let stats = nodestats(&e.until("pong"));
    assert!(stats.iter().all(|&n| n > after), "{after} then {stats:?}");
}

/// Runs an `analyze` at `depth` until a `nodestats` report follows a position's `analysis`
/// line that itself followed a report: the two counts and the lines before. `None` when
/// the analysis ends first (too fast at this depth).
fn report_around_a_position_end(e: &mut Engine, depth: u32) -> Option<(u64, u64, Vec<String>)> {
    e.send(&format!("set depth {depth}"));
    e.send("analyze");
    let mut lines = Vec::new();
    // The last report, and whether a position's analysis ended since.
    let mut before = None;
    let mut ended_since = false;
    loop {
        let line = e.line();
        if line == "status" {
            return None;
        }
        if let Some(count) = nodestats(std::slice::from_ref(&line)).first().copied() {
            if let Some(before) = before.filter(|_| ended_since) {
                return Some((before, count, lines));
            }
            before = Some(count);
            ended_since = false;
        } else if line.starts_with("analysis ") {
            ended_since = true;
        }
        lines.push(line);
    }
}

#[test]
fn bad_known_commands_get_a_status_and_unknown_lines_nothing() {
    let mut e = started();
    e.send("go");
    assert_eq!(e.line(), "status no game: send set game first");
    e.send("set game (;GM[Othello]B[Z9];)");
    assert!(
        e.line()
            .starts_with("status cannot read the game: GGF move 1")
    );
    e.send("set depth deep");
    assert!(e.line().starts_with("status set depth needs"));
    e.send("hint");
    assert!(e.line().starts_with("status hint needs"));
    e.send("set contempt many");
    assert!(e.line().starts_with("status set contempt needs"));
    e.send("set contempt 50");
    e.send("frobnicate 3");
    e.send("set colour blue");
    assert!(e.quiet(), "unknown lines are ignored");
    e.send("ping 1");
    assert_eq!(e.line(), "pong 1");
}

#[test]
fn nboard_mode_by_flag_and_version_mismatch() {
    let mut e = Engine::start(&["--nboard"]);
    e.send("ping 3");
    assert_eq!(e.line(), "pong 3");
    let mut old = Engine::start(&[]);
    old.send("nboard 1");
    assert!(
        old.line()
            .starts_with("status this engine speaks NBoard protocol 2")
    );
    assert_eq!(old.line(), "set myname gamesearch");
    assert_eq!(old.line(), "status");
}

#[test]
fn hint_64_values_every_move() {
    let mut e = started();
    e.send(&format!("set game {EXAMPLE_GAME}"));
    e.send("set depth 2");
    e.send("hint 64");
    let lines = e.until("status");
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    // Two iterations, a line for each of White's 11 legal moves in each, best first.
    assert_eq!(searches.len(), 22, "{lines:?}");
    let mut moves: Vec<&str> = searches[11..]
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().split('-').next().unwrap())
        .collect();
    let values: Vec<f64> = searches[11..]
        .iter()
        .map(|l| l.split(' ').nth(2).unwrap().parse().unwrap())
        .collect();
    assert!(values.windows(2).all(|w| w[0] >= w[1]), "{values:?}");
    moves.sort_unstable();
    assert_eq!(
        moves,
        [
            "B5", "B6", "C4", "C6", "D6", "G3", "G4", "G5", "G6", "G7", "G8"
        ]
    );
}

/// NBoard mode obeys the server's limits: here the output a frontend may leave unread.
/// A GUI that sends and never reads ends the session, instead of the engine queueing
/// without end or blocking on a full pipe forever.
#[test]
fn a_frontend_that_never_reads_ends_the_session() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["--nboard", "--max-output-bytes", "100000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    // 200,000 pongs (2.6 MB): far more than the limit and a pipe's buffer. An engine that
    // stops reading would block this writer, not the test.
    std::thread::spawn(move || {
        let pings = "ping 123456789\n".repeat(1000);
        for _ in 0..200 {
            if input.write_all(pings.as_bytes()).is_err() {
                return; // the session ended already
            }
        }
    });
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("the engine is still waiting for its output to be read");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}
