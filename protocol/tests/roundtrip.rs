//! Property tests: every command and message reads back as itself, and no line, however
//! malformed, makes the parser panic.

use proptest::prelude::*;
use protocol::{
    Algorithm, BestMove, Bound, Command, Depth, Go, Goal, Info, Message, MultiPv, OptionKind,
    OptionSpec, PassInfo, PositionStart, Proof, Score, TimeControl,
};

fn word() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9,.+-]{1,8}"
}

fn words(max: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(word(), 0..max)
}

/// A word that `position` does not read as a keyword (a game id or a position text
/// cannot be `startpos`, `parallel` or `moves`).
fn plain_word() -> impl Strategy<Value = String> {
    word().prop_filter("a position keyword", |w| {
        !matches!(w.as_str(), "startpos" | "parallel" | "moves")
    })
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(plain_word(), 1..5).prop_map(|w| w.join(" "))
}

fn algorithm() -> impl Strategy<Value = Algorithm> {
    prop::sample::select(Algorithm::ALL.to_vec())
}

fn go() -> impl Strategy<Value = Go> {
    (
        (
            prop::option::of(algorithm()),
            prop::option::of(1u32..=protocol::MAX_DEPTH),
            prop::option::of(1u64..100_000),
            prop::option::of(1u64..u64::MAX),
        ),
        (
            prop::option::of((0u64..1_000_000, prop::option::of(0u64..10_000))),
            prop::sample::select(vec![Goal::Heuristic, Goal::Solve, Goal::Wld]),
            any::<bool>(),
            prop::option::of(word()),
            prop::option::of(prop_oneof![
                (1u32..300).prop_map(MultiPv::Best),
                Just(MultiPv::All),
            ]),
        ),
    )
        .prop_map(
            |((algorithm, depth, movetime, nodes), (time, goal, infinite, id, multipv))| {
                let mut go = Go {
                    algorithm,
                    depth,
                    movetime,
                    nodes,
                    time: time.map(|(time, inc)| TimeControl { time, inc }),
                    goal,
                    infinite,
                    id,
                    multipv,
                };
                if goal != Goal::Heuristic {
                    go.depth = None;
                }
                let limited = go.depth.is_some()
                    || go.movetime.is_some()
                    || go.nodes.is_some()
                    || go.time.is_some()
                    || go.goal != Goal::Heuristic;
                go.infinite = infinite && !limited;
                go
            },
        )
}

fn command() -> impl Strategy<Value = Command> {
    prop_oneof![
        prop::option::of(0u32..5).prop_map(|version| Command::Hello { version }),
        (word(), word()).prop_map(|(name, value)| Command::SetOption { name, value }),
        (
            plain_word(),
            prop_oneof![
                Just(PositionStart::StartPos),
                Just(PositionStart::Parallel),
                text().prop_map(PositionStart::Text),
            ],
            words(6),
        )
            .prop_map(|(game, start, moves)| Command::Position { game, start, moves }),
        go().prop_map(Command::Go),
        Just(Command::Stop),
        Just(Command::IsReady),
        Just(Command::NewGame),
        Just(Command::Quit),
    ]
    .prop_filter("free text made of protocol words", Command::is_well_formed)
}

fn score() -> impl Strategy<Value = Score> {
    (
        -200i32..200,
        prop::sample::select(vec![Bound::Exact, Bound::Lower, Bound::Upper]),
        prop::sample::select(vec![Proof::Heuristic, Proof::Solved, Proof::Wld]),
    )
        .prop_map(|(value, bound, proof)| Score {
            value,
            bound,
            proof,
        })
}

fn info() -> impl Strategy<Value = Info> {
    (
        (
            prop::option::of(word()),
            prop::option::of(prop_oneof![
                (0u32..300).prop_map(Depth::Plies),
                Just(Depth::End)
            ]),
            prop::option::of((1u32..40, -100i32..100, -100i32..100)),
            prop::option::of(score()),
            prop::option::of(1u32..100),
            prop::option::of(1u32..=100),
        ),
        (
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(any::<u64>()),
            prop::option::of(0u32..=1000),
            prop::option::of(any::<u64>()),
        ),
        words(8),
        prop::option::of(text()),
    )
        .prop_map(
            |(
                (id, depth, pass, score, multipv, selectivity),
                (nodes, nps, time, tthits, tbhits, hashfull, book),
                pv,
                string,
            )| {
                let pass = pass.map(|(number, beta, lo)| PassInfo {
                    number,
                    beta,
                    interval: (lo, lo + 1),
                });
                match string {
                    Some(string) => Info {
                        id,
                        string: Some(string),
                        ..Info::default()
                    },
                    None => Info {
                        id,
                        book,
                        depth,
                        selectivity,
                        multipv,
                        pass,
                        score,
                        nodes,
                        nps,
                        time,
                        tthits,
                        tbhits,
                        hashfull,
                        string: None,
                        pv,
                    },
                }
            },
        )
}

fn message() -> impl Strategy<Value = Message> {
    prop_oneof![
        text().prop_map(Message::IdName),
        text().prop_map(Message::IdVersion),
        any::<u32>().prop_map(Message::Protocol),
        (word(), words(3)).prop_map(|(id, suffixes)| Message::Game { id, suffixes }),
        prop::collection::vec(algorithm(), 0..6).prop_map(Message::Algorithms),
        (
            word(),
            any::<i64>(),
            any::<i64>(),
            any::<i64>(),
            any::<bool>(),
            0..4u8,
            word(),
            words(4)
        )
            .prop_map(|(name, default, min, max, check, kind, text, values)| {
                Message::Option(OptionSpec {
                    name,
                    kind: match kind {
                        0 => OptionKind::Spin { default, min, max },
                        1 => OptionKind::Check { default: check },
                        2 => OptionKind::Combo {
                            default: text,
                            values,
                        },
                        _ => OptionKind::String { default: text },
                    },
                })
            }),
        Just(Message::HelloOk),
        Just(Message::ReadyOk),
        info().prop_map(Message::Info),
        (prop::option::of(word()), prop::option::of(word()))
            .prop_map(|(mv, id)| Message::BestMove(BestMove { mv, id })),
        text().prop_map(Message::Error),
    ]
    .prop_filter("free text made of protocol words", Message::is_well_formed)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn commands_round_trip(command in command()) {
        let line = command.to_string();
        prop_assert_eq!(line.parse::<Command>(), Ok(command), "{}", line);
    }

    #[test]
    fn messages_round_trip(message in message()) {
        let line = message.to_string();
        prop_assert_eq!(line.parse::<Message>(), Ok(message), "{}", line);
    }

    #[test]
    fn parsed_lines_print_in_canonical_form(line in "[ a-z0-9\t-]{0,40}") {
        // Whatever reads back, prints, and reads back again as the same value.
        if let Ok(command) = line.parse::<Command>() {
            prop_assert_eq!(command.to_string().parse::<Command>(), Ok(command));
        }
        if let Ok(message) = line.parse::<Message>() {
            prop_assert_eq!(message.to_string().parse::<Message>(), Ok(message));
        }
    }

    #[test]
    fn arbitrary_text_never_panics(line in "\\PC{0,200}") {
        let _ = line.parse::<Command>();
        let _ = line.parse::<Message>();
    }

    #[test]
    fn keyword_soup_never_panics(words in prop::collection::vec(prop::sample::select(vec![
        "go", "depth", "movetime", "nodes", "time", "inc", "solve", "wld", "infinite", "id",
        "mtdf", "position", "startpos", "parallel", "moves", "info", "score", "pass", "beta",
        "interval", "lowerbound", "upperbound", "solved", "pv", "string", "bestmove", "none",
        "option", "name", "type", "spin", "check", "default", "min", "max", "1", "-3", "x",
    ]), 0..12)) {
        let line = words.join(" ");
        if let Ok(command) = line.parse::<Command>() {
            prop_assert_eq!(command.to_string().parse::<Command>(), Ok(command));
        }
        if let Ok(message) = line.parse::<Message>() {
            prop_assert_eq!(message.to_string().parse::<Message>(), Ok(message));
        }
    }
}
