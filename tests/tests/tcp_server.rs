//! The TCP server under load: many clients at once, clients that vanish mid-search, and
//! the limits (connections, table memory) that keep a misbehaving client from exhausting
//! the machine.

use std::thread;
use std::time::{Duration, Instant};

use e2e_tests::{PATIENCE, TcpServer, test_position};
use engine::search::{self, Limits, SearchParams, SelectivitySchedule, TranspositionTable};
use engine::with_position;
use protocol::{Client, ClientError, Command, Go, Message, PositionStart};

const CLIENTS: u64 = 50;

fn position_command(moves: &[String]) -> Command {
    Command::Position {
        game: "othello8x8".into(),
        start: PositionStart::StartPos,
        moves: moves.to_vec(),
    }
}

fn go_depth(depth: u32) -> Go {
    Go {
        depth: Some(depth),
        ..Go::default()
    }
}

/// Polls `condition` until it holds or `PATIENCE` runs out.
fn eventually(mut condition: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + PATIENCE;
    while Instant::now() < deadline {
        if condition() {
            return true;
        }
        thread::sleep(Duration::from_millis(50));
    }
    false
}

#[test]
fn fifty_clients_search_at_once_and_each_gets_its_own_answer() {
    let server = TcpServer::start(&["--hash", "8"]);
    let workers: Vec<_> = (0..CLIENTS)
        .map(|i| {
            let mut client = server.connect();
            thread::spawn(move || {
                let (position, moves) = test_position("othello8x8", i, 8 + (i % 20) as usize);
                client.handshake(PATIENCE).unwrap();
                client.command(&position_command(&moves), PATIENCE).unwrap();
                let outcome = client.search(&go_depth(5), PATIENCE).unwrap();
                let mut tt = TranspositionTable::new(8);
                let expected = with_position!(position, p => {
                    // The server's default options: selective, as for play.
                    let params = SearchParams { selectivity: SelectivitySchedule::PLAY, ..SearchParams::default() };
                    let r = search::search(&p, &mut tt, &params,
                        &Limits::depth_or_exact(Some(5)), &mut |_| {});
                    (r.best_move.map(|m| m.to_string()), r.score.value, r.stats.nodes)
                });
                let last = outcome.final_info().unwrap();
                assert_eq!(
                    (
                        outcome.best.mv.clone(),
                        last.score.unwrap().value,
                        last.nodes.unwrap()
                    ),
                    expected,
                    "client {i}"
                );
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
}

#[test]
fn vanished_clients_have_their_searches_stopped_and_memory_freed() {
    let mut server = TcpServer::start(&["--hash", "16", "--table-memory", "2048"]);
    // Baseline: the server after one client has come and gone.
    let mut warm = server.connect();
    warm.command(&position_command(&[]), PATIENCE).unwrap();
    warm.search(&go_depth(2), PATIENCE).unwrap();
    drop(warm);
    thread::sleep(Duration::from_millis(200));
    let baseline = server.resident_kib();

    // Clients that start long searches and vanish without a word.
    let clients: Vec<Client> = (0..CLIENTS)
        .map(|i| {
            let mut client = server.connect();
            let (_, moves) = test_position("othello8x8", i, 10);
            client.command(&position_command(&moves), PATIENCE).unwrap();
            client
                .send_line(if i % 2 == 0 {
                    "go infinite"
                } else {
                    "go depth 40"
                })
                .unwrap();
            client
        })
        .collect();
    // Every session has its table now (16 MiB each).
    assert!(
        eventually(|| server.resident_kib() > baseline + 400 * 1024),
        "the tables were allocated: {} KiB over a baseline of {baseline} KiB",
        server.resident_kib()
    );
    drop(clients);
    assert!(
        eventually(|| server.resident_kib() < baseline + 32 * 1024),
        "memory back near the baseline of {baseline} KiB: now {} KiB",
        server.resident_kib()
    );
    assert!(server.is_running());
    // The server still serves.
    let mut client = server.connect();
    client.command(&position_command(&[]), PATIENCE).unwrap();
    assert!(
        client
            .search(&go_depth(3), PATIENCE)
            .unwrap()
            .best
            .mv
            .is_some()
    );
}

#[test]
fn table_memory_is_shared_and_returned_when_a_client_leaves() {
    let server = TcpServer::start(&["--hash", "48", "--table-memory", "64"]);
    let mut first = server.connect();
    first.command(&position_command(&[]), PATIENCE).unwrap();
    first.send_line("go infinite id hog").unwrap();
    first.sync(PATIENCE).unwrap();

    let mut second = server.connect();
    second.command(&position_command(&[]), PATIENCE).unwrap();
    match second.search(&go_depth(2), PATIENCE) {
        Err(ClientError::Refused(reason)) => assert!(reason.contains("table memory"), "{reason}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // Within the pool, a smaller table is fine.
    second
        .command(&"setoption name Hash value 16".parse().unwrap(), PATIENCE)
        .unwrap();
    assert!(second.search(&go_depth(2), PATIENCE).is_ok());
    // Hash above the pool itself is refused by setoption.
    second.send_line("setoption name Hash value 65").unwrap();
    assert!(matches!(
        second.next_message(PATIENCE).unwrap(),
        Message::Error(_)
    ));

    // When the first client vanishes, its share comes back.
    drop(first);
    second
        .command(&"setoption name Hash value 48".parse().unwrap(), PATIENCE)
        .unwrap();
    assert!(eventually(|| second.search(&go_depth(2), PATIENCE).is_ok()));
}

#[test]
fn connections_over_the_limit_are_told_and_closed() {
    let server = TcpServer::start(&["--max-connections", "2"]);
    let mut a = server.connect();
    let mut b = server.connect();
    a.sync(PATIENCE).unwrap();
    b.sync(PATIENCE).unwrap();
    let c = server.connect();
    match c.next_message(PATIENCE).unwrap() {
        Message::Error(reason) => assert!(reason.contains("too many connections"), "{reason}"),
        other => panic!("expected an error, got '{other}'"),
    }
    assert!(matches!(
        c.next_message(PATIENCE),
        Err(ClientError::Closed(_))
    ));
    // Once a client leaves, a new one is served.
    drop(a);
    assert!(eventually(|| {
        let mut d = server.connect();
        d.sync(Duration::from_secs(10)).is_ok()
    }));
    b.sync(PATIENCE).unwrap();
}

#[test]
fn bad_server_arguments_fail_with_one_line() {
    let out = std::process::Command::new(e2e_tests::engine_binary())
        .args(["--listen", "nowhere:port"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad listen address"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let out = std::process::Command::new(e2e_tests::engine_binary())
        .args(["--hash", "100", "--table-memory", "50"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--hash"));
}
