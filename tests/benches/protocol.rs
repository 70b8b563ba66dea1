//! Protocol server benchmarks, reported as ratios against baselines measured in the same
//! run (absolute times on shared machines are noisy):
//!
//! - `isready` -> `readyok` round trip over TCP on loopback, against a plain echo server;
//! - time from `stop` to `bestmove` during `go infinite`;
//! - throughput of many short searches over concurrent connections, against the same
//!   searches run in-process on one thread.
//!
//! Run with `cargo bench -p e2e-tests --bench protocol`.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

use e2e_tests::{PATIENCE, TcpServer, test_position};
use engine::search::{self, Limits, SearchParams, TranspositionTable};
use engine::with_position;
use protocol::{Command, Go, Message, PositionStart};

const ROUND_TRIPS: usize = 5000;
const STOPS: usize = 30;
const CONNECTIONS: u64 = 8;
const SEARCHES_PER_CONNECTION: u64 = 40;
const SEARCH_DEPTH: u32 = 4;
const HASH_MIB: usize = 4;

fn main() {
    let server = TcpServer::start(&["--hash", &HASH_MIB.to_string()]);
    println!(
        "protocol benchmarks (server {}, this machine, this run)",
        server.addr
    );

    let echo = echo_round_trips();
    let ours = isready_round_trips(&server);
    println!("\nround trip, {ROUND_TRIPS} samples   median        p99");
    print_latencies("TCP echo (baseline)", &echo, None);
    print_latencies("isready -> readyok", &ours, Some(&echo));

    let stops = stop_latencies(&server);
    println!("\nstop -> bestmove during go infinite, {STOPS} samples");
    print_latencies("stop latency", &stops, None);

    let baseline = in_process_searches();
    let one = served_searches(&server, 1);
    let served = served_searches(&server, CONNECTIONS);
    let total = CONNECTIONS * SEARCHES_PER_CONNECTION;
    println!(
        "\n{total} searches at depth {SEARCH_DEPTH} (8x8 positions, {HASH_MIB} MiB table each)"
    );
    let per_second = |d: Duration| total as f64 / d.as_secs_f64();
    println!(
        "  in-process, one thread (baseline)   {:>8.0} searches/s",
        per_second(baseline)
    );
    for (connections, time) in [(1, one), (CONNECTIONS, served)] {
        println!(
            "  server, {connections} connection(s)             {:>8.0} searches/s  ({:.2}x the baseline)",
            per_second(time),
            baseline.as_secs_f64() / time.as_secs_f64()
        );
    }
}

fn print_latencies(name: &str, samples: &[Duration], baseline: Option<&[Duration]>) {
    let (median, p99) = percentiles(samples);
    let ratio = baseline.map_or(String::new(), |b| {
        let (bm, bp) = percentiles(b);
        format!(
            "  ({:.1}x / {:.1}x the baseline)",
            median.as_secs_f64() / bm.as_secs_f64(),
            p99.as_secs_f64() / bp.as_secs_f64()
        )
    });
    println!("  {name:<24} {median:>10.1?} {p99:>10.1?}{ratio}");
}

fn percentiles(samples: &[Duration]) -> (Duration, Duration) {
    let mut sorted = samples.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.99))
}

/// A line echoed by a plain thread over loopback: the floor for any TCP round trip.
fn echo_round_trips() -> Vec<Duration> {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream.set_nodelay(true).unwrap();
        let mut writer = stream.try_clone().unwrap();
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if writeln!(writer, "{line}").is_err() {
                return;
            }
        }
    });
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    (0..ROUND_TRIPS)
        .map(|_| {
            let start = Instant::now();
            writer.write_all(b"isready\n").unwrap();
            line.clear();
            reader.read_line(&mut line).unwrap();
            start.elapsed()
        })
        .collect()
}

fn isready_round_trips(server: &TcpServer) -> Vec<Duration> {
    let mut client = server.connect();
    client.sync(PATIENCE).unwrap();
    (0..ROUND_TRIPS)
        .map(|_| {
            let start = Instant::now();
            client.send(&Command::IsReady).unwrap();
            assert_eq!(client.next_message(PATIENCE).unwrap(), Message::ReadyOk);
            start.elapsed()
        })
        .collect()
}

fn stop_latencies(server: &TcpServer) -> Vec<Duration> {
    let mut client = server.connect();
    let position = Command::Position {
        game: "othello8x8".into(),
        start: PositionStart::StartPos,
        moves: Vec::new(),
    };
    client.command(&position, PATIENCE).unwrap();
    (0..STOPS)
        .map(|_| {
            client.send_line("go infinite").unwrap();
            thread::sleep(Duration::from_millis(100));
            let start = Instant::now();
            client.send(&Command::Stop).unwrap();
            loop {
                if let Message::BestMove(_) = client.next_message(PATIENCE).unwrap() {
                    return start.elapsed();
                }
            }
        })
        .collect()
}

fn positions(connection: u64) -> Vec<Vec<String>> {
    (0..SEARCHES_PER_CONNECTION)
        .map(|i| test_position("othello8x8", connection * 1000 + i, 10 + (i % 30) as usize).1)
        .collect()
}

fn in_process_searches() -> Duration {
    let start = Instant::now();
    for connection in 0..CONNECTIONS {
        let mut tt = TranspositionTable::new(HASH_MIB);
        for i in 0..SEARCHES_PER_CONNECTION {
            let (position, _) =
                test_position("othello8x8", connection * 1000 + i, 10 + (i % 30) as usize);
            with_position!(position, p => {
                search::search(&p, &mut tt, &SearchParams::default(),
                    &Limits::depth_or_exact(Some(SEARCH_DEPTH)), &mut |_| {});
            });
        }
    }
    start.elapsed()
}

/// The same searches as the baseline, spread over `connections` clients at once.
fn served_searches(server: &TcpServer, connections: u64) -> Duration {
    let all: Vec<Vec<String>> = (0..CONNECTIONS).flat_map(positions).collect();
    let share = all.len().div_ceil(connections as usize);
    let clients: Vec<_> = all
        .chunks(share)
        .map(|chunk| {
            let mut client = server.connect();
            client.sync(PATIENCE).unwrap();
            (client, chunk.to_vec())
        })
        .collect();
    let start = Instant::now();
    let workers: Vec<_> = clients
        .into_iter()
        .map(|(mut client, positions)| {
            thread::spawn(move || {
                let go = Go {
                    depth: Some(SEARCH_DEPTH),
                    ..Go::default()
                };
                for moves in positions {
                    client
                        .send(&Command::Position {
                            game: "othello8x8".into(),
                            start: PositionStart::StartPos,
                            moves,
                        })
                        .unwrap();
                    client.search(&go, PATIENCE).unwrap();
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    start.elapsed()
}
