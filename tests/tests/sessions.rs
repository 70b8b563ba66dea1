//! Protocol sessions against the real binary, each scenario over a stdin/stdout pipe and
//! over TCP: handshake, searches checked against the library, stop, isready during a
//! search, every kind of bad input, and the session still working afterwards.

use std::time::{Duration, Instant};

use e2e_tests::{PATIENCE, TcpServer, stdio_engine, test_position};
use engine::game::AnyPosition;
use engine::search::{
    self, Limits, SearchParams, Selectivity, SelectivitySchedule, TranspositionTable,
};
use engine::with_position;
use protocol::{
    Algorithm, Client, ClientError, Command, Depth, Go, Message, OptionKind, PositionStart, Proof,
};

/// Runs a scenario over both transports.
macro_rules! both_transports {
    ($($name:ident),* $(,)?) => {
        mod stdio {
            $(
                #[test]
                fn $name() {
                    super::$name(&mut e2e_tests::stdio_engine(&["--table-memory", "512"]));
                }
            )*
        }
        mod tcp {
            $(
                #[test]
                fn $name() {
                    // Files named by options are the subject of hostile_clients.rs.
                    let server = e2e_tests::TcpServer::start(&[
                        "--table-memory",
                        "512",
                        "--allow-remote-files",
                    ]);
                    super::$name(&mut server.connect());
                }
            )*
        }
    };
}

both_transports!(
    handshake_describes_the_engine,
    searches_agree_with_the_library,
    every_algorithm_finds_the_negamax_value,
    mtdf_pass_lines_show_the_bounds_converging,
    multipv_values_the_best_moves_each_with_its_line,
    stop_ends_an_infinite_search_and_isready_answers_during_it,
    every_bad_input_is_answered_and_the_session_goes_on,
    newgame_makes_a_search_repeat_exactly,
    position_during_a_search_stops_it_first,
    a_finished_game_gets_bestmove_none,
    kalah_and_clock_searches,
    kalah_database_option_solves_and_refuses_what_it_cannot_use,
    the_opening_book_answers_moves_and_shows_in_analysis,
    a_timed_endgame_search_solves_probably_then_exactly,
    a_depth_that_reaches_the_end_solves_exactly_as_the_library_does,
);

fn position_command(game: &str, moves: &[String]) -> Command {
    Command::Position {
        game: game.into(),
        start: PositionStart::StartPos,
        moves: moves.to_vec(),
    }
}

fn go(depth: u32, id: &str) -> Go {
    Go {
        depth: Some(depth),
        id: Some(id.into()),
        ..Go::default()
    }
}

/// What our library finds at `depth` with a fresh table of the session's default size.
fn library_search(position: &AnyPosition, depth: u32, params: &SearchParams) -> (String, i32, u64) {
    let mut tt = TranspositionTable::new(64);
    with_position!(position, p => {
        let r = search::search(p, &mut tt, params, &Limits::depth_or_exact(Some(depth)), &mut |_| {});
        (r.best_move.map(|m| m.to_string()).unwrap_or_default(), r.score.value, r.stats.nodes)
    })
}

/// Sends a line and expects exactly one `error` before the `readyok` of a sync.
fn expect_error(client: &mut Client, line: &[u8], reason_contains: &str) {
    client.send_bytes(line).unwrap();
    client.send_line("isready").unwrap();
    match client.next_message(PATIENCE).unwrap() {
        Message::Error(reason) => assert!(
            reason.contains(reason_contains),
            "{}: '{reason}' should mention '{reason_contains}'",
            String::from_utf8_lossy(line)
        ),
        other => panic!(
            "{}: expected an error, got '{other}'",
            String::from_utf8_lossy(line)
        ),
    }
    assert_eq!(client.next_message(PATIENCE).unwrap(), Message::ReadyOk);
}

fn handshake_describes_the_engine(client: &mut Client) {
    let hs = client.handshake(PATIENCE).unwrap();
    assert_eq!(hs.name, engine::ENGINE_NAME);
    assert_eq!(hs.protocol, protocol::PROTOCOL_VERSION);
    assert!(!hs.version.is_empty());
    for game in [
        "othello8x8",
        "othello6x6",
        "othello4x4",
        "othello4x6",
        "octagon",
    ] {
        assert!(hs.games.iter().any(|(id, _)| id == game), "{game}");
    }
    let kalah = hs
        .games
        .iter()
        .filter(|(id, _)| id.starts_with("kalah"))
        .count();
    assert_eq!(kalah, 36);
    assert_eq!(hs.algorithms, Algorithm::ALL.to_vec());
    let hash = hs.options.iter().find(|o| o.name == "Hash").unwrap();
    assert!(matches!(
        hash.kind,
        OptionKind::Spin {
            default: 64,
            min: 1,
            max: 512
        }
    ));
    for name in [
        "MidDepth",
        "WldEmpties",
        "ExactEmpties",
        "SolverEmpties",
        "PassInfo",
    ] {
        assert!(hs.options.iter().any(|o| o.name == name), "{name}");
    }
    client.send_line("hello 2").unwrap();
    match client.next_message(PATIENCE).unwrap() {
        Message::Error(reason) => assert!(reason.contains("unsupported protocol version 2")),
        other => panic!("expected an error, got '{other}'"),
    }
}

/// The session's searches are the library's: at the default selectivity, then full width.
fn searches_agree_with_the_library(client: &mut Client) {
    for seed in 0..8 {
        let selectivity = if seed < 4 {
            SelectivitySchedule::PLAY
        } else {
            Selectivity::FULL.into()
        };
        if seed == 4 {
            let option = Command::SetOption {
                name: "Selectivity".into(),
                value: Selectivity::FULL.to_string(),
            };
            client.command(&option, PATIENCE).unwrap();
        }
        let (position, moves) = test_position("othello8x8", seed, 12);
        client.command(&Command::NewGame, PATIENCE).unwrap();
        client
            .command(&position_command("othello8x8", &moves), PATIENCE)
            .unwrap();
        let outcome = client
            .search(&go(7, &format!("s{seed}")), PATIENCE)
            .unwrap();
        let params = SearchParams {
            selectivity,
            ..SearchParams::default()
        };
        let (best, value, nodes) = library_search(&position, 7, &params);
        if selectivity.is_selective() {
            let (_, _, full) = library_search(&position, 7, &SearchParams::default());
            assert!(
                nodes < full,
                "the default search is selective: {nodes} nodes, {full} full width"
            );
        }
        assert_eq!(outcome.best.mv.as_deref(), Some(best.as_str()));
        let level = selectivity.for_time(None);
        let percent = (level != Selectivity::FULL).then(|| level.percent());
        assert!(
            outcome.infos.iter().all(|i| i.selectivity == percent),
            "every line says the search's confidence when selective: {:?}",
            outcome.infos
        );
        let last = outcome.final_info().unwrap();
        assert_eq!(last.score.unwrap().value, value);
        assert_eq!(last.nodes, Some(nodes), "same search, same node count");
        assert_eq!(last.pv.first(), Some(&best));
        let depths: Vec<Depth> = outcome.infos.iter().filter_map(|i| i.depth).collect();
        assert_eq!(depths.first(), Some(&Depth::Plies(1)));
        assert!(depths.contains(&Depth::Plies(7)));
        assert!(
            outcome
                .infos
                .iter()
                .all(|i| i.id.as_deref() == Some(&*format!("s{seed}")))
        );
    }
}

fn every_algorithm_finds_the_negamax_value(client: &mut Client) {
    let (position, moves) = test_position("othello6x6", 7, 8);
    let negamax = SearchParams {
        algorithm: Some(Algorithm::Negamax),
        ..SearchParams::default()
    };
    let (_, value, _) = library_search(&position, 4, &negamax);
    for algorithm in Algorithm::ALL {
        // A cleared table each time: no search reads another's entries back.
        client.command(&Command::NewGame, PATIENCE).unwrap();
        client
            .command(&position_command("othello6x6", &moves), PATIENCE)
            .unwrap();
        let go = Go {
            algorithm: Some(algorithm),
            ..go(4, algorithm.name())
        };
        let outcome = client.search(&go, PATIENCE).unwrap();
        let score = outcome.final_info().unwrap().score.unwrap();
        assert_eq!(score.value, value, "{algorithm}");
        assert!(
            outcome.infos.iter().all(|i| i.selectivity.is_none()),
            "6x6 has no ProbCut model: full width, whatever the option"
        );
        assert!(
            position
                .play_text(outcome.best.mv.as_deref().unwrap())
                .is_ok()
        );
    }
}

fn multipv_values_the_best_moves_each_with_its_line(client: &mut Client) {
    let (position, moves) = test_position("othello8x8", 3, 10);
    client
        .command(&position_command("othello8x8", &moves), PATIENCE)
        .unwrap();
    let legal = position.legal_moves();
    for (k, expected) in [
        (protocol::MultiPv::Best(3), 3.min(legal.len())),
        (protocol::MultiPv::All, legal.len()),
    ] {
        let go = Go {
            multipv: Some(k),
            ..go(3, "ranks")
        };
        let outcome = client.search(&go, PATIENCE).unwrap();
        // Each iteration: ranks 1..=expected, each line's PV starting with its own move.
        for depth in 1..=3 {
            let lines: Vec<_> = outcome
                .infos
                .iter()
                .filter(|i| i.depth == Some(Depth::Plies(depth)) && i.multipv.is_some())
                .collect();
            let ranks: Vec<u32> = lines.iter().filter_map(|i| i.multipv).collect();
            assert_eq!(
                ranks,
                (1..=expected as u32).collect::<Vec<_>>(),
                "{k} depth {depth}"
            );
            let mut firsts: Vec<&String> = lines.iter().map(|i| &i.pv[0]).collect();
            let scores: Vec<i32> = lines.iter().map(|i| i.score.unwrap().value).collect();
            assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
            firsts.sort();
            firsts.dedup();
            assert_eq!(firsts.len(), expected);
            assert!(firsts.iter().all(|m| legal.contains(m)));
        }
        // The best move is rank 1's.
        let best = outcome.best.mv.clone().unwrap();
        let first = outcome
            .infos
            .iter()
            .rev()
            .find(|i| i.multipv == Some(1))
            .unwrap();
        assert_eq!(first.pv[0], best);
    }
    // Without multipv no line carries the field.
    let plain = client.search(&go(3, "plain"), PATIENCE).unwrap();
    assert!(plain.infos.iter().all(|i| i.multipv.is_none()));
}

fn mtdf_pass_lines_show_the_bounds_converging(client: &mut Client) {
    let (_, moves) = test_position("othello8x8", 3, 10);
    client
        .command(&position_command("othello8x8", &moves), PATIENCE)
        .unwrap();
    // MTD(f) named: Othello's own search (NegaScout) makes no passes.
    let mtdf = |id| Go {
        algorithm: Some(Algorithm::Mtdf),
        ..go(4, id)
    };
    let quiet = client.search(&mtdf("quiet"), PATIENCE).unwrap();
    assert!(quiet.infos.iter().all(|i| i.pass.is_none()));
    client
        .command(
            &"setoption name PassInfo value true".parse().unwrap(),
            PATIENCE,
        )
        .unwrap();
    client.command(&Command::NewGame, PATIENCE).unwrap();
    client
        .command(&position_command("othello8x8", &moves), PATIENCE)
        .unwrap();
    let outcome = client.search(&mtdf("loud"), PATIENCE).unwrap();
    let passes: Vec<_> = outcome.infos.iter().filter(|i| i.pass.is_some()).collect();
    assert!(passes.len() >= 4, "at least one pass per iteration");
    for info in &passes {
        let pass = info.pass.unwrap();
        let (lo, hi) = pass.interval;
        assert!(lo <= hi && (-64..=64).contains(&lo) && (-64..=64).contains(&hi));
        let score = info.score.unwrap();
        assert_ne!(
            score.bound,
            protocol::Bound::Exact,
            "a pass only bounds the value"
        );
    }
    // The last pass of each iteration closes the interval on the iteration's score.
    let mut closed = 0;
    for pair in outcome.infos.windows(2) {
        if let (Some(pass), None) = (pair[0].pass, pair[1].pass)
            && pair[0].depth == pair[1].depth
        {
            let value = pair[1].score.unwrap().value;
            assert_eq!(pass.interval, (value, value));
            closed += 1;
        }
    }
    assert_eq!(closed, 4, "one per iteration");
    let final_score = quiet.final_info().unwrap().score;
    assert_eq!(outcome.final_info().unwrap().score, final_score);
}

/// How long a `stop` may take here. The protocol promises 50 ms and the benchmark
/// measures it; a loaded test machine gets more room, but a search that ignores `stop`
/// would take far longer.
const STOP_PATIENCE: Duration = Duration::from_secs(10);

/// Sends `stop` and returns the `bestmove` with the last `info` before it, checking that
/// it came promptly.
fn stop_promptly(client: &mut Client) -> (protocol::BestMove, Option<protocol::Info>) {
    let stopped_at = Instant::now();
    client.send_line("stop").unwrap();
    let mut last_info = None;
    let best = loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::Info(info) => last_info = Some(info),
            Message::BestMove(best) => break best,
            other => panic!("unexpected '{other}'"),
        }
    };
    assert!(
        stopped_at.elapsed() < STOP_PATIENCE,
        "{:?}",
        stopped_at.elapsed()
    );
    (best, last_info)
}

fn stop_ends_an_infinite_search_and_isready_answers_during_it(client: &mut Client) {
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    client.send_line("go infinite id forever").unwrap();
    // The search is running: wait for its first iteration.
    let first = client.next_message(PATIENCE).unwrap();
    assert!(matches!(first, Message::Info(_)), "{first}");
    std::thread::sleep(Duration::from_millis(300));
    client.send_line("isready").unwrap();
    loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::ReadyOk => break,
            Message::Info(_) => {}
            other => panic!("expected readyok while the search runs, got '{other}'"),
        }
    }
    let (best, last_info) = stop_promptly(client);
    assert_eq!(best.id.as_deref(), Some("forever"));
    let info = last_info.expect("an info before bestmove");
    assert!(info.score.is_some() && info.pv.first() == best.mv.as_ref());
    // Exactly one bestmove: a second stop has nothing to stop.
    client.send_line("stop").unwrap();
    client.sync(PATIENCE).unwrap();
}

fn every_bad_input_is_answered_and_the_session_goes_on(client: &mut Client) {
    expect_error(client, b"fly to the moon\n", "unknown command 'fly'");
    expect_error(client, b"go\n", "no position");
    expect_error(client, b"position chess startpos\n", "unknown game");
    expect_error(client, b"position othello8x8 XXO X\n", "malformed position");
    expect_error(client, b"position kalah6x4 parallel\n", "parallel");
    expect_error(
        client,
        b"position othello8x8 startpos moves e6 e6\n",
        "move 2",
    );
    expect_error(client, b"position othello8x8 startpos moves z9\n", "move 1");
    expect_error(client, b"position othello8x8\n", "missing");
    expect_error(client, b"setoption name Hash value lots\n", "Hash");
    expect_error(client, b"setoption name Hash value 0\n", "Hash");
    expect_error(
        client,
        b"setoption name Colour value red\n",
        "unknown option",
    );
    expect_error(
        client,
        b"setoption name PassInfo value maybe\n",
        "true or false",
    );
    expect_error(client, b"go depth 0\n", "depth");
    expect_error(client, b"go depth -3\n", "depth");
    expect_error(client, b"go infinite depth 3\n", "cannot be combined");
    expect_error(client, b"go solve wld\n", "twice");
    expect_error(client, b"go sideways\n", "unexpected 'sideways'");
    expect_error(client, b"hello 99\n", "unsupported protocol version");
    expect_error(client, b"isready please\n", "unexpected 'please'");
    expect_error(client, b"bestmove e6\n", "unknown command 'bestmove'");
    expect_error(client, b"go \xff\xfe\n", "UTF-8");
    expect_error(
        client,
        &[b'x'; 70_000]
            .iter()
            .chain(b"\n")
            .copied()
            .collect::<Vec<_>>(),
        "too long",
    );
    // A busy session refuses a second go and keeps the first.
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    client.send_line("go infinite id busy").unwrap();
    client.send_line("go depth 2").unwrap();
    client.send_line("isready").unwrap();
    // The running search's lines may come first (in this book position, the book's
    // moves are sent as the analysis starts).
    let next_not_running = || loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::Info(i) if i.id.as_deref() == Some("busy") => {}
            other => break other,
        }
    };
    match next_not_running() {
        Message::Error(reason) => assert!(reason.contains("busy"), "{reason}"),
        other => panic!("expected the busy error, got '{other}'"),
    }
    match next_not_running() {
        Message::ReadyOk => {}
        other => panic!("expected readyok, got '{other}'"),
    }
    client.send_line("stop").unwrap();
    loop {
        if let Message::BestMove(best) = client.next_message(PATIENCE).unwrap() {
            assert_eq!(best.id.as_deref(), Some("busy"));
            break;
        }
    }
    // Blank lines and CRLF are fine.
    client.send_bytes(b"\r\n   \n\tisready\r\n").unwrap();
    assert_eq!(client.next_message(PATIENCE).unwrap(), Message::ReadyOk);
    // And the session still searches.
    let outcome = client.search(&go(3, "after"), PATIENCE).unwrap();
    assert!(outcome.best.mv.is_some());
}

fn newgame_makes_a_search_repeat_exactly(client: &mut Client) {
    let (_, moves) = test_position("othello8x8", 11, 20);
    let mut nodes = Vec::new();
    for round in 0..2 {
        client.command(&Command::NewGame, PATIENCE).unwrap();
        client
            .command(&position_command("othello8x8", &moves), PATIENCE)
            .unwrap();
        let outcome = client
            .search(&go(6, &format!("r{round}")), PATIENCE)
            .unwrap();
        nodes.push(outcome.final_info().unwrap().nodes.unwrap());
    }
    assert_eq!(nodes[0], nodes[1]);
    // newgame also forgets the position.
    client.command(&Command::NewGame, PATIENCE).unwrap();
    match client.search(&go(2, "none"), PATIENCE) {
        Err(ClientError::Refused(reason)) => assert!(reason.contains("no position")),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

fn position_during_a_search_stops_it_first(client: &mut Client) {
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    client.send_line("go infinite id old").unwrap();
    client.send(&position_command("othello6x6", &[])).unwrap();
    client.send_line("go depth 3 id new").unwrap();
    // The old search's bestmove comes first (an 8x8 move), then the new search's output,
    // all of it for the 6x6 position.
    let old = loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::BestMove(best) => break best,
            Message::Info(info) => assert_eq!(info.id.as_deref(), Some("old"), "{info}"),
            other => panic!("before the old bestmove: {other}"),
        }
    };
    assert_eq!(old.id.as_deref(), Some("old"), "{old}");
    let eight = test_position("othello8x8", 0, 0).0.legal_moves();
    assert!(
        eight.contains(old.mv.as_ref().unwrap()),
        "the old search's move {old} is legal on 8x8"
    );
    let mut infos = Vec::new();
    let new = loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::BestMove(best) => break best,
            Message::Info(info) => infos.push(info),
            other => panic!("during the new search: {other}"),
        }
    };
    assert_eq!(new.id.as_deref(), Some("new"), "{new}");
    assert!(!infos.is_empty() && infos.iter().all(|i| i.id.as_deref() == Some("new")));
    let six = test_position("othello6x6", 0, 0).0.legal_moves();
    let (_, value, _) = library_search(
        &test_position("othello6x6", 0, 0).0,
        3,
        &SearchParams::default(),
    );
    assert!(
        six.contains(new.mv.as_ref().unwrap()),
        "{new} is a legal first move on 6x6 ({six:?})"
    );
    assert_eq!(
        infos.last().and_then(|i| i.score).map(|s| s.value),
        Some(value),
        "the 6x6 value at depth 3"
    );
}

fn a_finished_game_gets_bestmove_none(client: &mut Client) {
    let (position, moves) = test_position("othello4x4", 5, 40);
    assert!(position.is_terminal());
    client
        .command(&position_command("othello4x4", &moves), PATIENCE)
        .unwrap();
    let outcome = client.search(&Go::default(), PATIENCE).unwrap();
    assert_eq!(outcome.best.mv, None);
    let score = outcome.final_info().unwrap().score.unwrap();
    assert_eq!(score.proof, Proof::Solved);
    assert_eq!(outcome.best.to_string(), "bestmove none");
}

fn kalah_and_clock_searches(client: &mut Client) {
    let (position, moves) = test_position("kalah6x4", 2, 6);
    client
        .command(&position_command("kalah6x4", &moves), PATIENCE)
        .unwrap();
    let outcome = client.search(&go(6, "k"), PATIENCE).unwrap();
    let (best, value, _) = library_search(&position, 6, &SearchParams::default());
    assert_eq!(outcome.best.mv, Some(best));
    assert_eq!(outcome.final_info().unwrap().score.unwrap().value, value);
    // A clock: the engine budgets a share of it and answers.
    let clock = "go time 2000 inc 10 id clock".parse::<Command>().unwrap();
    let Command::Go(clock) = clock else {
        unreachable!()
    };
    let started = Instant::now();
    let outcome = client.search(&clock, PATIENCE).unwrap();
    assert!(outcome.best.mv.is_some());
    // Within the clock: the move's limit is a quarter of it, so four times that is slack
    // for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_millis(2000),
        "a move of a 2 s clock took {:?}",
        started.elapsed()
    );
    // Solving a small game proves its value.
    client
        .command(&position_command("othello4x4", &[]), PATIENCE)
        .unwrap();
    let solve = Go {
        goal: protocol::Goal::Solve,
        ..Go::default()
    };
    let outcome = client.search(&solve, PATIENCE).unwrap();
    let score = outcome.final_info().unwrap().score.unwrap();
    assert_eq!((score.value, score.proof), (-10, Proof::Solved));
}

fn kalah_database_option_solves_and_refuses_what_it_cannot_use(client: &mut Client) {
    let hs = client.handshake(PATIENCE).unwrap();
    let option = hs.options.iter().find(|o| o.name == "KalahDatabase");
    assert!(
        matches!(option.map(|o| &o.kind), Some(OptionKind::String { default }) if default == "auto"),
        "{option:?}"
    );
    expect_error(
        client,
        b"setoption name KalahDatabase value /nonexistent/kalah.db\n",
        "/nonexistent/kalah.db",
    );
    client
        .send_line("setoption name KalahDatabase value 12")
        .unwrap();
    let (position, moves) = test_position("kalah4x4", 1, 4);
    client
        .command(&position_command("kalah4x4", &moves), PATIENCE)
        .unwrap();
    let solve = Go {
        goal: protocol::Goal::Solve,
        id: Some("kdb".into()),
        ..Go::default()
    };
    let outcome = client.search(&solve, PATIENCE).unwrap();
    let score = outcome.final_info().unwrap().score.unwrap();
    let mut tt = TranspositionTable::new(16);
    let AnyPosition::Kalah(k) = &position else {
        unreachable!()
    };
    let exact = search::solve_exact(k, &mut tt);
    assert_eq!(
        (score.value, score.proof),
        (exact.score.value, Proof::Solved)
    );
    assert!(outcome.best.mv.is_some());
    // A depth-limited search with the database answers too.
    let outcome = client.search(&go(3, "kdb3"), PATIENCE).unwrap();
    assert!(outcome.best.mv.is_some());
    // `stop` ends a search still building its database (tens of seconds for this one)
    // as fast as any other: the bestmove comes, and the session goes on.
    client
        .send_line("setoption name KalahDatabase value 21")
        .unwrap();
    client
        .command(&position_command("kalah6x6", &[]), PATIENCE)
        .unwrap();
    client.send_line("go solve id building").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (best, _) = stop_promptly(client);
    assert_eq!(best.id.as_deref(), Some("building"));
    assert!(best.mv.is_some());
    client
        .send_line("setoption name KalahDatabase value none")
        .unwrap();
    client.sync(PATIENCE).unwrap();
}

#[test]
fn end_of_piped_input_finishes_the_search_first() {
    use std::io::Write;
    let mut child = std::process::Command::new(e2e_tests::engine_binary())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position othello8x8 startpos\ngo depth 6\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("bestmove "), "{text}");
    assert!(
        text.contains("info depth 6 "),
        "the search ran to its depth: {text}"
    );
}

#[test]
fn quit_during_a_search_sends_its_bestmove_and_exits() {
    let mut client = stdio_engine(&[]);
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    client.send_line("go infinite id q").unwrap();
    client.send_line("quit").unwrap();
    loop {
        match client.next_message(PATIENCE) {
            Ok(Message::BestMove(best)) => {
                assert_eq!(best.id.as_deref(), Some("q"));
                break;
            }
            Ok(_) => {}
            Err(e) => panic!("expected bestmove before the end: {e}"),
        }
    }
    assert!(matches!(
        client.next_message(PATIENCE),
        Err(ClientError::Closed(_))
    ));
    assert!(client.quit(PATIENCE).is_some_and(|s| s.success()));
}

#[test]
fn tcp_quit_closes_the_connection_and_the_server_goes_on() {
    let mut server = TcpServer::start(&[]);
    let mut client = server.connect();
    client.send_line("quit").unwrap();
    assert!(matches!(
        client.next_message(PATIENCE),
        Err(ClientError::Closed(_))
    ));
    assert!(server.is_running());
    let mut again = server.connect();
    again.sync(PATIENCE).unwrap();
}

/// Many `go`/`stop` cycles with 4 and 8 threads over one session: every `go` gets exactly
/// its own `bestmove`, none hangs, and searches of every kind (infinite, timed, exact
/// solves) stop when told.
#[test]
fn parallel_searches_survive_many_go_stop_cycles() {
    let server = TcpServer::start(&["--table-memory", "512", "--max-threads", "8"]);
    let mut client = server.connect();
    let hs = client.handshake(PATIENCE).unwrap();
    let threads = hs.options.iter().find(|o| o.name == "Threads").unwrap();
    assert!(matches!(
        threads.kind,
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 8
        }
    ));
    let starts = [
        "startpos moves f5 d6 c3 d3 c4",
        "--------------------OOOOXX--XOOOXOX-XXOXOOXXXXXXOXXXXXOOOOX--XO- X",
    ];
    for cycle in 0..40 {
        let threads = if cycle % 2 == 0 { 4 } else { 8 };
        client
            .send_line(&format!("setoption name Threads value {threads}"))
            .unwrap();
        client
            .send_line(&format!("position othello8x8 {}", starts[cycle % 2]))
            .unwrap();
        let id = format!("c{cycle}");
        let go = match cycle % 4 {
            0 => format!("go infinite id {id}"),
            1 => format!("go solve id {id}"),
            2 => format!("go movetime 5000 id {id}"),
            _ => format!("go depth 30 id {id}"),
        };
        client.send_line(&go).unwrap();
        std::thread::sleep(Duration::from_millis(20 + 7 * (cycle as u64 % 5)));
        let stopped_at = Instant::now();
        client.send_line("stop").unwrap();
        let best = loop {
            match client.next_message(PATIENCE).unwrap() {
                Message::BestMove(best) => break best,
                Message::Info(_) => {}
                other => panic!("cycle {cycle}: unexpected '{other}'"),
            }
        };
        assert_eq!(best.id.as_deref(), Some(id.as_str()), "cycle {cycle}");
        assert!(best.mv.is_some(), "cycle {cycle}");
        assert!(
            stopped_at.elapsed() < STOP_PATIENCE,
            "cycle {cycle}: {:?}",
            stopped_at.elapsed()
        );
    }
    // Nothing is left running: the session answers at once and a new search works.
    client.sync(PATIENCE).unwrap();
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    client.send_line("go depth 6 id last").unwrap();
    let best = loop {
        match client.next_message(PATIENCE).unwrap() {
            Message::BestMove(best) => break best,
            Message::Info(_) => {}
            other => panic!("unexpected '{other}'"),
        }
    };
    assert_eq!(best.id.as_deref(), Some("last"));
}

/// Two sessions that ask for more threads than the server has left are told so and
/// search with fewer; a Threads above the cap is refused.
#[test]
fn max_threads_caps_all_sessions() {
    let server = TcpServer::start(&["--table-memory", "512", "--max-threads", "3"]);
    let mut first = server.connect();
    let mut second = server.connect();
    for client in [&mut first, &mut second] {
        client.send_line("setoption name Threads value 3").unwrap();
        client
            .command(&position_command("othello8x8", &[]), PATIENCE)
            .unwrap();
    }
    expect_error(&mut first, b"setoption name Threads value 4\n", "1..=3");
    first.send_line("go infinite id a").unwrap();
    assert!(matches!(
        first.next_message(PATIENCE).unwrap(),
        Message::Info(_)
    ));
    second.send_line("go depth 4 id b").unwrap();
    let note = match second.next_message(PATIENCE).unwrap() {
        Message::Info(info) => info.string.expect("an info string first"),
        other => panic!("unexpected '{other}'"),
    };
    assert!(
        note.contains("Threads 3 asked, 1 available of the server's 3"),
        "{note}"
    );
    loop {
        match second.next_message(PATIENCE).unwrap() {
            Message::BestMove(best) => {
                assert_eq!(best.id.as_deref(), Some("b"));
                break;
            }
            Message::Info(_) => {}
            other => panic!("unexpected '{other}'"),
        }
    }
    first.send_line("stop").unwrap();
    loop {
        if let Message::BestMove(_) = first.next_message(PATIENCE).unwrap() {
            break;
        }
    }
    // Both searches ended: their threads are free again, and no note is sent.
    second.send_line("go depth 4 id c").unwrap();
    match second.next_message(PATIENCE).unwrap() {
        Message::Info(info) => assert!(info.string.is_none(), "{info}"),
        other => panic!("unexpected '{other}'"),
    }
    second.sync(PATIENCE).unwrap();
}

/// The book (option `OwnBook`, on by default) answers a `go` that plays a move, sends its
/// moves before an analysis, and leaves fixed-depth searches alone.
fn the_opening_book_answers_moves_and_shows_in_analysis(client: &mut Client) {
    let hs = client.handshake(PATIENCE).unwrap();
    for name in ["OwnBook", "BookFile", "BookRandomness"] {
        assert!(hs.options.iter().any(|o| o.name == name), "{name}");
    }
    let moves = vec!["f5".to_string()];
    client
        .command(&position_command("othello8x8", &moves), PATIENCE)
        .unwrap();
    let AnyPosition::Othello(position) = test_start_after(&moves) else {
        unreachable!()
    };
    let expected = engine::book::Book::builtin().moves(&position);
    assert!(expected.len() >= 2, "the book holds the first moves");
    let play = Go {
        movetime: Some(10_000),
        id: Some("b".into()),
        ..Go::default()
    };
    let outcome = client.search(&play, PATIENCE).unwrap();
    let info = outcome.final_info().unwrap();
    assert_eq!(outcome.best.mv, Some(expected[0].mv.to_string()));
    assert_eq!(info.book, Some(u64::from(expected[0].games)));
    assert_eq!(info.score.unwrap().value, expected[0].value);
    assert_eq!(
        (info.depth, info.nodes),
        (None, None),
        "not searched: {info}"
    );
    // A fixed depth is a search.
    let outcome = client.search(&go(3, "d"), PATIENCE).unwrap();
    let info = outcome.final_info().unwrap();
    assert_eq!((info.book, info.depth), (None, Some(Depth::Plies(3))));
    // Analysis: the book's moves, best first, then the search's lines.
    client.send_line("go infinite id a").unwrap();
    for m in &expected {
        let Message::Info(info) = client.next_message(PATIENCE).unwrap() else {
            panic!("a book line first");
        };
        assert_eq!(info.book, Some(u64::from(m.games)));
        assert_eq!(info.pv, vec![m.mv.to_string()]);
        assert_eq!(info.score.unwrap().value, m.value);
    }
    let Message::Info(info) = client.next_message(PATIENCE).unwrap() else {
        panic!("the search's line");
    };
    assert!(info.book.is_none() && info.depth.is_some(), "{info}");
    stop_promptly(client);
    // Randomness: after f5 the book values d6 -1, f6 -2, f4 -8; a margin of one disc
    // plays d6 or f6, each of them (40 unseeded draws miss one with odds of 2 in 10^12).
    client
        .send_line("setoption name BookRandomness value 1")
        .unwrap();
    let played: std::collections::BTreeSet<String> = (0..40)
        .map(|_| client.search(&play, PATIENCE).unwrap().best.mv.unwrap())
        .collect();
    assert_eq!(played, ["d6".to_string(), "f6".to_string()].into());
    client
        .send_line("setoption name BookRandomness value 0")
        .unwrap();
    // A book file of the first move's positions only: loaded, and used (after f5 d6 the
    // shipped book answers, this one does not; at the start both do).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("first-move.gsb");
    let shipped = engine::book::Book::builtin();
    let first_move = shipped
        .entries()
        .iter()
        .filter(|(key, _)| {
            engine::game::Game::empties(&engine::book::position_of(**key)) >= Some(59)
        })
        .map(|(key, entry)| (*key, *entry))
        .collect();
    engine::book::write_book(&engine::book::Book::new(first_move), &path).unwrap();
    let two = vec!["f5".to_string(), "d6".to_string()];
    client
        .command(&position_command("othello8x8", &two), PATIENCE)
        .unwrap();
    let outcome = client.search(&play_quickly(), PATIENCE).unwrap();
    assert!(
        outcome.final_info().unwrap().book.is_some(),
        "the shipped book"
    );
    client
        .command(
            &Command::SetOption {
                name: "BookFile".into(),
                value: path.display().to_string(),
            },
            PATIENCE,
        )
        .unwrap();
    let outcome = client.search(&play_quickly(), PATIENCE).unwrap();
    assert!(outcome.final_info().unwrap().book.is_none(), "searched");
    client
        .command(&position_command("othello8x8", &[]), PATIENCE)
        .unwrap();
    let outcome = client.search(&play, PATIENCE).unwrap();
    assert!(
        outcome.final_info().unwrap().book.is_some(),
        "the file's book"
    );
    client
        .send_line("setoption name BookFile value <builtin>")
        .unwrap();
    // Off: searched.
    client
        .send_line("setoption name OwnBook value false")
        .unwrap();
    let outcome = client.search(&play_quickly(), PATIENCE).unwrap();
    assert!(outcome.final_info().unwrap().book.is_none());
    expect_error(
        client,
        b"setoption name BookFile value /nonexistent/book.gsb\n",
        "BookFile",
    );
    expect_error(
        client,
        b"setoption name BookRandomness value 65\n",
        "BookRandomness",
    );
}

/// A `go` that plays a move in a short time.
fn play_quickly() -> Go {
    Go {
        movetime: Some(50),
        ..Go::default()
    }
}

/// The 8x8 position after `moves` from the start.
fn test_start_after(moves: &[String]) -> AnyPosition {
    let game: engine::game::GameId = "othello8x8".parse().unwrap();
    let mut position = game.position("startpos").unwrap();
    for mv in moves {
        position = position.play_text(mv).unwrap();
    }
    position
}

/// Sets FFO #40 (20 empties, +38 for the side to move) and returns it.
fn set_ffo40(client: &mut Client) -> engine::suite::SuitePosition {
    let ffo40 = engine::suite::ffo().swap_remove(0);
    let position = Command::Position {
        game: "othello8x8".into(),
        start: PositionStart::Text(ffo40.position.to_string()),
        moves: Vec::new(),
    };
    client.command(&position, PATIENCE).unwrap();
    ffo40
}

/// With a time limit near the end, the default (selective) search first reads the end with
/// its cuts, a probable solve reported as a heuristic score at `depth end` with its
/// confidence, then proves it: FFO #40 (20 empties, a win by 38) is in the win/loss/draw
/// range.
fn a_timed_endgame_search_solves_probably_then_exactly(client: &mut Client) {
    set_ffo40(client);
    let go = Go {
        movetime: Some(20_000),
        id: Some("end".into()),
        ..Go::default()
    };
    let outcome = client.search(&go, PATIENCE).unwrap();
    let ends: Vec<(Proof, Option<u32>)> = outcome
        .infos
        .iter()
        .filter(|i| i.depth == Some(Depth::End) && i.pass.is_none())
        .filter_map(|i| Some((i.score?.proof, i.selectivity)))
        .collect();
    let probable = ends.iter().position(|&e| {
        e == (
            Proof::Heuristic,
            Some(
                SelectivitySchedule::PLAY
                    .for_time(Some(Duration::from_secs(20)))
                    .percent(),
            ),
        )
    });
    let proven = ends.iter().position(|&e| e == (Proof::Wld, None));
    assert!(
        probable.is_some() && probable < proven,
        "a probable solve, then the proof: {ends:?}"
    );
    let last = outcome.final_info().unwrap().score.unwrap();
    assert_eq!((last.proof, last.value.signum()), (Proof::Wld, 1));
}

/// One search-or-solve policy for every front: `go depth 30` on FFO #40 (20 empties) is an
/// exact solve, as the library's search to depth 30 with the engine's selectivity is (and
/// as NBoard's `set depth 30` is, in engine/tests/nboard.rs).
fn a_depth_that_reaches_the_end_solves_exactly_as_the_library_does(client: &mut Client) {
    let ffo40 = set_ffo40(client);
    let outcome = client.search(&go(30, "deep"), PATIENCE).unwrap();
    let score = outcome.final_info().unwrap().score.unwrap();
    assert_eq!(
        (score.proof, Some(score.value)),
        (Proof::Solved, ffo40.score)
    );
    let params = SearchParams {
        selectivity: SelectivitySchedule::PLAY,
        ..SearchParams::default()
    };
    let mut tt = TranspositionTable::new(64);
    let library = search::search(
        &ffo40.position,
        &mut tt,
        &params,
        &Limits::depth_or_exact(Some(30)),
        &mut |_| {},
    );
    assert_eq!(library.score.proof, Proof::Solved);
    assert_eq!(Some(library.score.value), ffo40.score);
}
