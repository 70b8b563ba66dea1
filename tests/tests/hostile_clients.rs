//! What an adversarial audit did to the engine, each a test against the real binary: text
//! that cut a character, memory past the pool, output nobody reads, a flood of queued
//! jobs, a closed stderr, idle and churning connections, the order of `bestmove` and
//! `readyok`, and NBoard mode's input.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use e2e_tests::{PATIENCE, PipedEngine, RawConnection, TcpServer, engine_binary, stdio_engine};
use protocol::{Message, OptionKind};

// 1. A game id whose 6th byte falls inside a character panicked at `s[..5]`.

#[test]
fn a_game_id_cut_inside_a_character_is_an_error_on_stdin() {
    let mut engine = PipedEngine::start(&[]);
    for id in [
        "\u{e9}\u{e9}\u{e9}",
        "kala\u{e9}",
        "\u{1F600}\u{1F600}",
        "kalah\u{e9}",
    ] {
        engine.send(format!("position {id} startpos\nisready\n").as_bytes());
        let lines = engine.until("readyok");
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("error position:"), "{lines:?}");
    }
    assert!(engine.running());
}

#[test]
fn a_game_id_cut_inside_a_character_is_an_error_over_tcp() {
    let server = TcpServer::start(&[]);
    let mut raw = RawConnection::connect(&server);
    raw.send("position \u{e9}\u{e9}\u{e9} startpos\nposition othello8x8 startpos\ngo infinite\nisready\n");
    let lines = raw.until("readyok");
    assert!(lines[0].starts_with("error position:"), "{lines:?}");
    raw.send("stop\n");
    raw.until("bestmove");
}

// 2. Memory past the pool and past any bound.

/// Four sessions at once: a large table, then many `newgame`s and a small table. The
/// pool must count the large table until it is really freed, so the server never holds
/// more than its pool (it held 1 GiB of 256 MiB tables with a pool of 260 MiB). `stop`
/// waits for the last search, so the `readyok` after it comes once all work is done.
#[test]
fn tables_stay_within_the_pool_while_newgames_are_queued() {
    let server = TcpServer::start(&["--table-memory", "260"]);
    let baseline = server.resident_kib();
    let mut script =
        String::from("setoption name Hash value 256\nposition othello8x8 startpos\ngo depth 1\n");
    script.push_str(&"newgame\n".repeat(600));
    script.push_str(
        "setoption name Hash value 1\nposition othello8x8 startpos\ngo depth 1\nstop\nisready\n",
    );
    let pid = server.pid();
    let sampling = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let sampling = std::sync::Arc::clone(&sampling);
        std::thread::spawn(move || {
            let mut peak = 0;
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                peak = peak.max(e2e_tests::resident_kib(pid));
                std::thread::sleep(Duration::from_millis(10));
            }
            peak
        })
    };
    // One after the other, as the audit did: each client starts once the one before has
    // had its large table and moved on to a small one.
    let started = Instant::now();
    let mut waiting = Vec::new();
    for _ in 0..4 {
        let mut raw = RawConnection::connect(&server);
        raw.send(&script);
        let first = raw.until("bestmove");
        std::thread::sleep(Duration::from_millis(200));
        waiting.push(std::thread::spawn(move || {
            let mut lines = first;
            lines.extend(raw.until("readyok"));
            lines
        }));
    }
    while !waiting.iter().all(std::thread::JoinHandle::is_finished) {
        assert!(
            started.elapsed() < PATIENCE * 4,
            "the sessions never finished"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let peak = sampler.join().unwrap();
    let mut accepted_large = 0;
    for client in waiting.drain(..) {
        let lines = client.join().unwrap();
        if !lines[0].starts_with("error table memory exhausted") {
            accepted_large += 1;
        }
    }
    assert!(accepted_large >= 1);
    let grown_mib = peak.saturating_sub(baseline) / 1024;
    assert!(
        grown_mib <= 260 + 40,
        "tables of a 260 MiB pool grew the server by {grown_mib} MiB"
    );
}

#[test]
fn one_session_cannot_take_the_whole_pool() {
    // The default cap, below the 4096 MiB pool; then `--max-hash`.
    for (args, cap) in [(&[][..], 1024), (&["--max-hash", "100"][..], 100)] {
        let mut client = stdio_engine(args);
        let handshake = client.handshake(PATIENCE).unwrap();
        let hash = handshake
            .options
            .iter()
            .find(|o| o.name == "Hash")
            .expect("a Hash option");
        let OptionKind::Spin { max, .. } = hash.kind else {
            panic!("Hash is a spin option: {hash}");
        };
        assert_eq!(max, cap, "{args:?}");
        client
            .send_line(&format!("setoption name Hash value {}", cap + 1))
            .unwrap();
        client.send_line("isready").unwrap();
        assert!(
            matches!(client.next_message(PATIENCE), Ok(Message::Error(e)) if e.contains("Hash")),
            "Hash {} is refused",
            cap + 1
        );
        client
            .command(
                &format!("setoption name Hash value {cap}").parse().unwrap(),
                PATIENCE,
            )
            .expect("the cap itself is accepted");
    }
}

/// Errors quote the client's words; a 65,000-byte word is not echoed whole.
#[test]
fn error_lines_do_not_echo_long_input() {
    let server = TcpServer::start(&[]);
    let mut raw = RawConnection::connect(&server);
    raw.send(&format!("{}\nisready\n", "x".repeat(65_000)));
    let lines = raw.until("readyok");
    assert!(lines[0].starts_with("error "), "{}", &lines[0][..20]);
    assert!(
        lines[0].len() < 600,
        "an error line of {} bytes",
        lines[0].len()
    );
}

/// A client that sends and never reads is disconnected once its unread output passes the
/// limit (`--max-output-bytes`), instead of the server queueing without end or dropping
/// lines: what it does receive is every answer in order, up to the cut.
#[test]
fn a_client_that_never_reads_is_cut_off() {
    const LIMIT: usize = 1 << 20;
    let server = TcpServer::start(&["--max-output-bytes", &LIMIT.to_string()]);
    let stream = TcpStream::connect(&server.addr).unwrap();
    let mut writer = stream.try_clone().unwrap();
    // A server that stops reading instead would block this writer: time out, and fail.
    writer.set_write_timeout(Some(PATIENCE)).unwrap();
    // Each line gets its own answer (an error quoting it): 2,000,000 answers of about
    // 30 bytes, far more than the limit and the socket buffers.
    let lines = 2_000_000;
    let sender = std::thread::spawn(move || {
        for chunk in 0..lines / 1000 {
            let text: String = (chunk * 1000..(chunk + 1) * 1000)
                .map(|i| format!("x{i}\n"))
                .collect();
            if let Err(e) = writer.write_all(text.as_bytes()) {
                return Some(e.kind());
            }
        }
        let _ = writer.shutdown(Shutdown::Write);
        None
    });
    // Start reading only once the server has had every chance to fall behind.
    let write_error = sender.join().unwrap();
    assert!(
        !matches!(
            write_error,
            Some(ErrorKind::WouldBlock | ErrorKind::TimedOut)
        ),
        "the server stopped reading instead of closing the connection"
    );
    let mut reader = stream;
    reader.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut received = Vec::new();
    let mut buf = vec![0; 1 << 16];
    let ended = loop {
        match reader.read(&mut buf) {
            Ok(0) => break None,
            Ok(n) => received.extend_from_slice(&buf[..n]),
            Err(e) => break Some(e.kind()),
        }
    };
    assert!(
        !matches!(ended, Some(ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "the connection stayed open ({} bytes received)",
        received.len()
    );
    let text = String::from_utf8_lossy(&received);
    // The last line may be cut short by the close.
    let whole: Vec<&str> = text
        .split_inclusive('\n')
        .filter(|l| l.ends_with('\n'))
        .collect();
    assert!(
        whole.len() < lines,
        "all {} answers were queued for a client that did not read",
        whole.len()
    );
    for (i, line) in whole.iter().enumerate() {
        assert_eq!(
            *line,
            format!("error unknown command 'x{i}'\n"),
            "answer {i}: none may be missing or out of order"
        );
    }
    let mut other = server.connect();
    other.sync(PATIENCE).expect("the server serves others");
}

/// A million queued `newgame`s used to delay a `stop` by over 30 s, and later a `stop`
/// waited for the table that a `newgame` or a new `Hash` asked for to be cleared or made
/// (0.1-0.7 s for 1 GiB). Any number of clears cost one, and a stopped search does not
/// wait for it. Timed against what a search's clear costs on this machine, now.
/// The two tests that time 1 GiB tables run one at a time: side by side, each would time
/// the other's memory traffic.
static GIB_TABLES: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn stop_stays_fast_after_a_flood_of_newgames() {
    let _alone = GIB_TABLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut engine = PipedEngine::start(&["--hash", "1024", "--table-memory", "1024"]);
    let mut script = String::from("position othello8x8 startpos\ngo depth 1\n");
    script.push_str(&"newgame\n".repeat(200_000));
    script.push_str("position othello8x8 startpos\nisready\n");
    engine.send(script.as_bytes());
    engine.until("bestmove");
    engine.until("readyok");
    let searched = |engine: &mut PipedEngine, script: &str| {
        engine.send(format!("{script}position othello8x8 startpos\ngo depth 1\n").as_bytes());
        let asked = Instant::now();
        engine.until("bestmove");
        asked.elapsed()
    };
    let stopped = |engine: &mut PipedEngine, script: &str| {
        engine.send(
            format!("{script}position othello8x8 startpos\ngo infinite\nisready\n").as_bytes(),
        );
        engine.until("readyok");
        let asked = Instant::now();
        engine.send(b"stop\n");
        engine.until("bestmove");
        asked.elapsed()
    };
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (mut clear, mut stop_clear, mut make, mut stop_make) = (vec![], vec![], vec![], vec![]);
    for _ in 0..5 {
        // A search after a `newgame` clears the 1 GiB table first; a stop does not wait.
        clear.push(searched(&mut engine, "newgame\n"));
        stop_clear.push(stopped(&mut engine, "newgame\n"));
        // A search with a new `Hash` makes a table of that size first.
        make.push(searched(&mut engine, "setoption name Hash value 512\n"));
        stop_make.push(stopped(&mut engine, "setoption name Hash value 1024\n"));
        searched(&mut engine, "");
    }
    for (what, work, stops) in [("clear", clear, stop_clear), ("make", make, stop_make)] {
        let (work, stop) = (median(work), median(stops));
        assert!(
            stop * 4 < work,
            "a stop took {stop:?} where a search's {what} of its table takes {work:?} (medians)"
        );
    }
}

/// A move's time counts from its `go`, the table's clear and making included: a search of
/// 30 ms after a `newgame` (a 1 GiB table to clear) answers well within what the clear
/// alone takes; the rest of the clear waits for later searches.
#[test]
fn a_move_s_time_includes_the_table_s_clear() {
    let _alone = GIB_TABLES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut engine = PipedEngine::start(&["--hash", "1024", "--table-memory", "1024"]);
    let searched = |engine: &mut PipedEngine, go: &str| {
        engine.send(format!("newgame\nposition othello8x8 startpos\n{go}\n").as_bytes());
        let asked = Instant::now();
        engine.until("bestmove");
        asked.elapsed()
    };
    // The table made in full, then the clears a depth-1 search waits for.
    searched(&mut engine, "go depth 1");
    let median = |mut times: Vec<Duration>| {
        times.sort();
        times[times.len() / 2]
    };
    let (mut clear, mut timed) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        clear.push(searched(&mut engine, "go depth 1"));
        timed.push(searched(&mut engine, "go movetime 30"));
    }
    let (clear, timed) = (median(clear), median(timed));
    assert!(
        timed * 2 < clear,
        "a 30 ms move took {timed:?}, where a clear takes {clear:?} (medians)"
    );
}

#[test]
fn out_of_range_depths_are_refused() {
    let mut engine = PipedEngine::start(&[]);
    engine.send(b"position othello4x4 startpos\ngo depth 2147483648\nisready\n");
    let lines = engine.until("readyok");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("error depth:"), "{lines:?}");
}

// 3. Logging must never kill the server.

#[test]
fn a_closed_stderr_does_not_kill_the_server() {
    let mut child = Command::new(engine_binary())
        .args(["--listen", "127.0.0.1:0", "--max-connections", "1"])
        .env("ENGINE_LOG", "info")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let addr = first.trim().strip_prefix("listening ").unwrap().to_string();
    // As `engine --listen ... 2>&1 | head -1` does: both pipes close.
    drop(child.stderr.take());
    let server = TcpServer::adopt(child, addr);
    let mut first = server.connect();
    first.sync(PATIENCE).unwrap();
    // Over the limit: the refusal is logged to the closed stderr.
    let mut refused = RawConnection::connect(&server);
    assert!(refused.line().is_some_and(|l| l.contains("too many")));
    first.sync(PATIENCE).expect("the server still serves");
}

// 4. Slots and slow clients.

#[test]
fn idle_connections_are_closed_and_their_slots_freed() {
    let server = TcpServer::start(&["--idle-timeout", "1", "--max-connections", "3"]);
    let mut silent = RawConnection::connect(&server);
    let mut dripping = RawConnection::connect(&server);
    let mut analysing = RawConnection::connect(&server);
    analysing.send("position othello8x8 startpos\ngo infinite\n");
    // A byte every 200 ms never makes a line: the connection is idle all along and is
    // closed about a second in, long before the drip would end (a server that counted
    // every byte as activity would wait for the drip to stop).
    let started = Instant::now();
    dripping
        .writer
        .set_read_timeout(Some(Duration::from_millis(1)))
        .unwrap();
    let mut peek = [0; 1];
    loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "a connection that never sent a line was not closed while it dripped bytes"
        );
        // Written until the server closes; a write after that may fail.
        let _ = dripping.writer.write_all(b"i");
        std::thread::sleep(Duration::from_millis(200));
        match dripping.writer.peek(&mut peek) {
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            _ => break,
        }
    }
    dripping.writer.set_read_timeout(Some(PATIENCE)).unwrap();
    let idle = |raw: &mut RawConnection| {
        let line = raw.line();
        assert!(
            line.as_deref().is_some_and(|l| l.contains("idle")),
            "{line:?}"
        );
        assert_eq!(raw.line(), None, "closed after saying why");
    };
    idle(&mut silent);
    idle(&mut dripping);
    // A running search is not idleness.
    analysing.send("isready\n");
    analysing.until("readyok");
    analysing.send("stop\n");
    analysing.until("bestmove");
    let mut next = server.connect();
    next.sync(PATIENCE)
        .expect("a freed slot serves a new client");
}

#[test]
fn slots_are_free_as_soon_as_connections_close() {
    let server = TcpServer::start(&["--max-connections", "4"]);
    let mut refused = 0;
    for _ in 0..2000 {
        let mut raw = RawConnection::connect(&server);
        raw.send("isready\n");
        if raw.line().as_deref() != Some("readyok") {
            refused += 1;
        }
    }
    assert_eq!(refused, 0, "connections refused below the limit");
}

// 5. Protocol promises.

/// `stop`, `position` and `newgame` complete the search, `bestmove` sent, before the next
/// command: a `readyok` after them never comes before that `bestmove`.
#[test]
fn readyok_never_overtakes_the_bestmove_of_an_ended_search() {
    let mut engine = PipedEngine::start(&[]);
    let enders = [
        "stop\n",
        "position othello8x8 startpos\n",
        "newgame\nposition othello8x8 startpos\n",
    ];
    let mut script = String::from("position othello8x8 startpos\n");
    let rounds = 600;
    for i in 0..rounds {
        script.push_str("go depth 30\n");
        script.push_str(enders[i % enders.len()]);
        script.push_str("isready\n");
    }
    engine.send(script.as_bytes());
    let mut bestmoves = 0;
    for readyoks in 1..=rounds {
        for line in engine.until("readyok") {
            if line.starts_with("bestmove") {
                bestmoves += 1;
            }
        }
        assert_eq!(bestmoves, readyoks, "a readyok came before its bestmove");
    }
}

#[test]
fn nboard_mode_survives_bad_lines() {
    let mut engine = PipedEngine::start(&["--nboard", "--max-line-bytes", "65536"]);
    engine.send(b"nboard 2\n\xff\xfe bad\nping 1\n");
    let lines = engine.until("pong");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status") && l.contains("UTF-8")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong 1");
    let mut long = vec![b'a'; 1 << 20];
    long.push(b'\n');
    engine.send(&long);
    engine.send(b"ping\n");
    let lines = engine.until("pong");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status") && l.contains("too long")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "pong", "no trailing space");
    assert!(engine.running());
}

// 6. Files named by remote clients.

/// Over TCP, `EvalFile` and `KalahDatabase` name only files under `--data-dir`, with the
/// same refusal whether a file exists or not; on stdin any file.
#[test]
fn tcp_clients_name_files_only_under_the_data_directory() {
    let refusal = |server: &TcpServer, name: &str, path: &str| {
        let mut raw = RawConnection::connect(server);
        raw.send(&format!("setoption name {name} value {path}\nisready\n"));
        let lines = raw.until("readyok");
        assert_eq!(lines.len(), 2, "{name} {path} was accepted: {lines:?}");
        lines[0].clone()
    };
    let closed = TcpServer::start(&[]);
    for name in ["EvalFile", "KalahDatabase", "BookFile"] {
        let exists = refusal(&closed, name, "/etc/passwd");
        assert!(exists.contains("--data-dir"), "{exists}");
        assert_eq!(exists, refusal(&closed, name, "/no/such/file"));
    }
    let dir = tempfile::tempdir().unwrap();
    let weights = dir.path().join("mine.weights");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../engine/data/othello8x8.weights"
        ),
        &weights,
    )
    .unwrap();
    let open = TcpServer::start(&["--data-dir", dir.path().to_str().unwrap()]);
    let mut raw = RawConnection::connect(&open);
    for path in ["mine.weights", weights.to_str().unwrap()] {
        raw.send(&format!("setoption name EvalFile value {path}\nisready\n"));
        assert_eq!(raw.until("readyok"), ["readyok"], "{path}");
    }
    for path in ["/etc/passwd", "../mine.weights"] {
        let line = refusal(&open, "EvalFile", path);
        assert!(line.contains("--data-dir"), "{line}");
    }
    // A local client names any file.
    let mut engine = PipedEngine::start(&[]);
    engine.send(
        format!(
            "setoption name EvalFile value {}\nisready\n",
            weights.display()
        )
        .as_bytes(),
    );
    assert_eq!(engine.until("readyok"), ["readyok"]);
}

// 5. A closed stdout, and files that are not files.

/// With `go infinite` running and the client's end of stdout closed, the engine kept
/// searching (a core burnt until killed): output that cannot be written ends the session
/// as the end of its input does, and the process exits.
#[test]
fn a_closed_stdout_ends_the_session_and_its_search() {
    let mut child = Command::new(engine_binary())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    input
        .write_all(b"position othello8x8 startpos moves f5 d6\ngo infinite\n")
        .unwrap();
    let mut first = String::new();
    output.read_line(&mut first).unwrap();
    assert!(first.starts_with("info"), "{first}");
    drop(output);
    // Standard input stays open: only the closed output can end the session.
    let deadline = Instant::now() + PATIENCE;
    while child.try_wait().unwrap().is_none() {
        assert!(
            Instant::now() < deadline,
            "the engine still runs with its stdout closed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(input);
}

/// `/dev/zero` named as a book, weights, a suite or openings grew the engine until the
/// kernel killed it: every file is refused unless it is a regular file within its format's
/// size, in one line, before anything is allocated.
#[test]
fn files_that_are_not_regular_files_are_refused_in_one_line() {
    for args in [
        &["book", "info", "/dev/zero"][..],
        &["book", "show", "--book", "/dev/zero"],
        &[
            "solve",
            "--eval-file",
            "/dev/zero",
            "othello8x8",
            "startpos",
        ],
        &["bench", "--file", "/dev/zero"],
    ] {
        let out = Command::new(engine_binary()).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(
            stderr.contains("/dev/zero is not a regular file"),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
    }
    let mut engine = PipedEngine::start(&[]);
    for option in ["BookFile", "EvalFile", "KalahDatabase"] {
        engine.send(format!("setoption name {option} value /dev/zero\nisready\n").as_bytes());
        let lines = engine.until("readyok");
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(
            lines[0].starts_with(&format!("error option {option}: "))
                && lines[0].contains("/dev/zero is not a regular file"),
            "{lines:?}"
        );
    }
}
