//! Arbitrary lines and byte strings fed to live sessions on every transport (stdin, TCP,
//! NBoard mode), with arbitrary Unicode in every field of every command: the engine
//! answers each bad line, never panics, never hangs, and still answers `isready` (NBoard:
//! `ping`) after. `FUZZ_CASES` sets the number of cases per transport (48 by default; the
//! release check in `docs/reliability.md` runs many more).

use e2e_tests::{PATIENCE, PipedEngine, TcpServer, stdio_engine};
use proptest::prelude::*;
use proptest::test_runner::TestRunner;
use protocol::{Client, Command, Message};

/// Words of the protocol, so that generated lines get past the first word often.
const WORDS: &[&str] = &[
    "hello",
    "setoption",
    "name",
    "value",
    "Hash",
    "MidDepth",
    "PassInfo",
    "true",
    "position",
    "othello8x8",
    "othello4x4",
    "kalah6x4",
    "octagon",
    "startpos",
    "parallel",
    "moves",
    "e6",
    "f5",
    "pass",
    "3",
    "go",
    "depth",
    "movetime",
    "nodes",
    "time",
    "inc",
    "solve",
    "wld",
    "infinite",
    "id",
    "mtdf",
    "negascout",
    "negamax",
    "stop",
    "isready",
    "newgame",
    "1",
    "0",
    "-1",
    "99999999999999999999",
    "X",
    "O",
    "S",
    "--------",
    "\u{e9}",
    "\t",
];

/// Every field of every command, `{}` standing for an arbitrary word.
const TEMPLATES: &[&str] = &[
    "{}",
    "hello {}",
    "setoption name {} value 1",
    "setoption name Hash value {}",
    "setoption name PassInfo value {}",
    "position {} startpos",
    "position othello8x8 {}",
    "position othello8x8 {} X",
    "position kalah6x4 {} S",
    "position othello8x8 startpos moves {}",
    "position kalah6x4 startpos moves 1 {}",
    "go {}",
    "go depth {}",
    "go movetime {}",
    "go nodes {}",
    "go time {} inc 10",
    "go time 100 inc {}",
    "go id {} depth 2",
    "stop {}",
    "isready {}",
    "newgame {}",
    "quit {}",
];

/// The same for NBoard mode.
const NBOARD_TEMPLATES: &[&str] = &[
    "{}",
    "nboard {}",
    "set depth {}",
    "set game {}",
    "set game (;GM[Othello]BO[8 {}]B[F5];)",
    "set game (;GM[Othello]B[{}];)",
    "set contempt {}",
    "move {}",
    "hint {}",
    "ping {}",
    "learn {}",
    "analyze {}",
    "go {}",
];

/// A word of arbitrary Unicode (any character but whitespace, controls included).
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\S{1,12}",
        "\\PC{1,4}",
        prop::sample::select(WORDS).prop_map(str::to_string)
    ]
}

fn filled(templates: &'static [&'static str]) -> impl Strategy<Value = Vec<u8>> {
    (prop::sample::select(templates), word())
        .prop_map(|(template, word)| template.replace("{}", &word).into_bytes())
}

fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(WORDS), 0..10)
            .prop_map(|w| w.join(" ").into_bytes()),
        prop::collection::vec(any::<u8>().prop_filter("one line", |&b| b != b'\n'), 0..120),
        "\\PC{0,80}".prop_map(String::into_bytes),
        filled(TEMPLATES),
    ]
}

fn nboard_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>().prop_filter("one line", |&b| b != b'\n'), 0..120),
        filled(NBOARD_TEMPLATES),
    ]
}

fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(48)
}

/// Sends the lines (never a `quit`), then expects `readyok` within the patience, and an
/// `error` before it for every line the protocol cannot read (bytes that are not UTF-8,
/// or text that is no command): one reply per bad line, at least (a command that reads
/// well may still be refused, an illegal move say).
fn survives(client: &mut Client, lines: &[Vec<u8>]) -> Result<(), TestCaseError> {
    let (mut bad, mut readies) = (0, 0);
    for line in lines.iter().filter(|l| !is_quit(l)) {
        bad += line.split(|&b| b == b'\n').filter(|l| is_bad(l)).count();
        readies += line
            .split(|&b| b == b'\n')
            .filter(|l| is_isready(l))
            .count();
        let mut bytes = line.clone();
        bytes.push(b'\n');
        client.send_bytes(&bytes).unwrap();
    }
    // Whatever is running now (a search may be), isready is answered at once; the last
    // `readyok` is ours, after every line sent (earlier ones answer generated `isready`s).
    client.send_line("isready").unwrap();
    let mut errors = 0;
    loop {
        match client.next_message(PATIENCE) {
            Ok(Message::ReadyOk) if readies == 0 => break,
            Ok(Message::ReadyOk) => readies -= 1,
            Ok(Message::Error(_)) => errors += 1,
            Ok(_) => {}
            Err(e) => return Err(TestCaseError::fail(format!("no readyok: {e}"))),
        }
    }
    prop_assert!(errors >= bad, "{errors} errors for {bad} bad lines");
    Ok(())
}

/// True for a line that is `isready` (answered with a `readyok`).
fn is_isready(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|l| l.parse::<Command>() == Ok(Command::IsReady))
}

/// True for a line the engine must answer with an `error`: not UTF-8, or not a command
/// (blank lines are ignored).
fn is_bad(line: &[u8]) -> bool {
    match std::str::from_utf8(line) {
        Err(_) => true,
        Ok(text) => !text.trim().is_empty() && text.parse::<Command>().is_err(),
    }
}

/// One server for every TCP case (owned by the test, so it is stopped after it), each
/// case a connection of its own.
#[test]
fn a_tcp_session_survives_any_input() {
    let server = TcpServer::start(&["--table-memory", "256", "--hash", "4"]);
    let mut runner = TestRunner::new(ProptestConfig::with_cases(cases()));
    let lines = prop::collection::vec(line(), 1..25);
    let result = runner.run(&lines, |lines| {
        let mut client = server.connect();
        survives(&mut client, &lines)?;
        drop(client);
        // The server lives on and serves the next client.
        let mut next = server.connect();
        prop_assert!(next.sync(PATIENCE).is_ok());
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// True for a line the session would take as `quit` (which would end it, as it should).
fn is_quit(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|l| l.parse::<Command>() == Ok(Command::Quit))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn a_live_session_survives_any_input(lines in prop::collection::vec(line(), 1..25)) {
        let mut client = stdio_engine(&["--table-memory", "64", "--hash", "4"]);
        survives(&mut client, &lines)?;
        client.send_line("stop").unwrap();
        prop_assert!(client.quit(PATIENCE).is_some_and(|s| s.success()), "clean exit");
    }

    #[test]
    fn an_nboard_session_survives_any_input(lines in prop::collection::vec(nboard_line(), 1..25)) {
        let mut engine = PipedEngine::start(&["--nboard", "--hash", "4"]);
        engine.send(b"nboard 2\n");
        for line in &lines {
            let mut bytes = line.clone();
            bytes.push(b'\n');
            engine.send(&bytes);
        }
        engine.send(b"ping 4242\n");
        let answered = engine.until("pong 4242");
        prop_assert_eq!(answered.last().map(String::as_str), Some("pong 4242"));
        prop_assert!(engine.running());
    }
}
