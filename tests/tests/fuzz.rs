//! Arbitrary lines and byte strings fed to a live session: the engine answers each bad
//! line with an error, never panics, never hangs, and still answers `isready` after.

use e2e_tests::{PATIENCE, stdio_engine};
use proptest::prelude::*;
use protocol::{Command, Message};

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

fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(prop::sample::select(WORDS), 0..10)
            .prop_map(|w| w.join(" ").into_bytes()),
        prop::collection::vec(any::<u8>().prop_filter("one line", |&b| b != b'\n'), 0..120),
        "\\PC{0,80}".prop_map(String::into_bytes),
    ]
}

/// True for a line the session would take as `quit` (which would end it, as it should).
fn is_quit(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|l| l.parse::<Command>() == Ok(Command::Quit))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_live_session_survives_any_input(lines in prop::collection::vec(line(), 1..25)) {
        let mut client = stdio_engine(&["--table-memory", "64", "--hash", "4"]);
        for line in lines.iter().filter(|l| !is_quit(l)) {
            let mut bytes = line.clone();
            bytes.push(b'\n');
            client.send_bytes(&bytes).unwrap();
        }
        // Whatever is running now (a search may be), isready is answered at once.
        client.send_line("isready").unwrap();
        let answered = loop {
            match client.next_message(PATIENCE) {
                Ok(Message::ReadyOk) => break true,
                Ok(_) => {}
                Err(e) => {
                    eprintln!("no readyok: {e}");
                    break false;
                }
            }
        };
        prop_assert!(answered);
        client.send_line("stop").unwrap();
        prop_assert!(client.quit(PATIENCE).is_some_and(|s| s.success()), "clean exit");
    }
}
