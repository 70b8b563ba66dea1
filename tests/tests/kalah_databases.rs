//! Kalah databases found without being asked: `engine kalah-db install` and `list` on the
//! data directory, `KalahDatabase auto` (the default) using what is installed there, the
//! one-time hint when nothing is, and the larger table of a solve within the server's pool.

use std::path::Path;
use std::process::{Command, Stdio};

use e2e_tests::{PipedEngine, RawConnection, TcpServer, engine_binary};
use engine::data_dir::DATA_DIR_ENV;
use protocol::{Info, Message, Proof};

/// Runs the engine binary with `args` in the data directory `data`; its stdout.
fn run(data: &Path, args: &[&str]) -> String {
    let output = Command::new(engine_binary())
        .args(args)
        .env(DATA_DIR_ENV, data)
        .stderr(Stdio::inherit())
        .output()
        .expect("the engine runs");
    assert!(output.status.success(), "engine {args:?} failed");
    String::from_utf8(output.stdout).unwrap()
}

/// The final `info` line (the one with `hashfull`) of a search.
fn final_info(lines: &[String]) -> Info {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" hashfull "))
        .expect("a final info line");
    match line.parse() {
        Ok(Message::Info(info)) => info,
        other => panic!("{line}: {other:?}"),
    }
}

#[test]
fn an_installed_database_is_listed_and_auto_solves_with_it() {
    let data = tempfile::tempdir().unwrap();
    let listed = run(data.path(), &["kalah-db", "list"]);
    assert!(listed.contains("no Kalah database"), "{listed}");
    let installed = run(data.path(), &["kalah-db", "install", "3", "--seeds", "12"]);
    assert!(installed.contains("kalah3-12.db"), "{installed}");
    let listed = run(data.path(), &["kalah-db", "list"]);
    assert!(
        listed.contains("kalah3-12.db: 3 pits, at most 12 seeds, empty capture"),
        "{listed}"
    );

    let mut engine = PipedEngine::start_with_env(&[], &[(DATA_DIR_ENV, data.path())]);
    engine.send(b"position kalah3x4 startpos\ngo solve\n");
    let with = engine.until("bestmove");
    assert!(
        with.iter().any(|l| l
            == "info string KalahDatabase auto: 3 pits, at most 12 seeds, empty capture, game ends when either side is empty"),
        "{with:?}"
    );
    let with_db = final_info(&with);
    let score = with_db.score.unwrap();
    assert_eq!(score.proof, Proof::Solved);
    assert!(with_db.tbhits.is_some_and(|n| n > 0), "{with_db}");
    // The same value without it, and no database read.
    engine.send(
        b"setoption name KalahDatabase value none\nnewgame\nposition kalah3x4 startpos\ngo solve\n",
    );
    let without_db = final_info(&engine.until("bestmove"));
    assert_eq!(without_db.tbhits, None, "{without_db}");
    assert_eq!(without_db.score, Some(score));
}

#[test]
fn an_interrupted_install_resumes_and_a_damaged_one_is_refused() {
    let data = tempfile::tempdir().unwrap();
    let kalah = data.path().join("kalah");
    std::fs::create_dir_all(&kalah).unwrap();
    // An install of 4 pits and 14 seeds cut short in its layer of 10 seeds.
    let full = run(data.path(), &["kalah-db", "install", "4", "--seeds", "14"]);
    assert!(full.contains("kalah4-14.db"), "{full}");
    let built = std::fs::read(kalah.join("kalah4-14.db")).unwrap();
    // The partial file: the header and the values of whole layers, then part of one
    // (a plain file's bytes are the header, the values, then a CRC-32).
    let layers_to_9 = engine::search::kalah::database_positions(4, 9) as usize;
    let cut = 20 + layers_to_9 + 1000;
    std::fs::remove_file(kalah.join("kalah4-14.db")).unwrap();
    std::fs::write(kalah.join("kalah4-14.db.partial"), &built[..cut]).unwrap();
    let listed = run(data.path(), &["kalah-db", "list"]);
    assert!(
        listed.contains("kalah4-14.db.partial: unfinished install of 4 pits, at most 14 seeds")
            && listed.contains("10 of 15 layers built"),
        "{listed}"
    );
    let resumed = Command::new(engine_binary())
        .args(["kalah-db", "install", "4", "--seeds", "14"])
        .env(DATA_DIR_ENV, data.path())
        .output()
        .unwrap();
    assert!(resumed.status.success());
    let progress = String::from_utf8(resumed.stderr).unwrap();
    assert!(
        progress.contains("seeds 0..=9 kept from the unfinished install"),
        "{progress}"
    );
    assert_eq!(
        std::fs::read(kalah.join("kalah4-14.db")).unwrap(),
        built,
        "the resumed install wrote the same database"
    );
    assert!(!kalah.join("kalah4-14.db.partial").exists());

    // A partial file whose values are out of range is refused, not built upon.
    let mut damaged = built[..cut].to_vec();
    damaged[20 + 500] = 100;
    std::fs::remove_file(kalah.join("kalah4-14.db")).unwrap();
    std::fs::write(kalah.join("kalah4-14.db.partial"), damaged).unwrap();
    let refused = Command::new(engine_binary())
        .args(["kalah-db", "install", "4", "--seeds", "14"])
        .env(DATA_DIR_ENV, data.path())
        .output()
        .unwrap();
    assert!(!refused.status.success());
    let reason = String::from_utf8(refused.stderr).unwrap();
    assert!(reason.contains("damaged"), "{reason}");
}

/// Without `--data-dir`, the data directory is where TCP clients may name files.
#[test]
fn tcp_clients_may_name_the_installed_databases() {
    let data = tempfile::tempdir().unwrap();
    run(data.path(), &["kalah-db", "install", "3", "--seeds", "8"]);
    let server = TcpServer::start_with_env(&[], &[(DATA_DIR_ENV, data.path())]);
    let mut raw = RawConnection::connect(&server);
    raw.send("setoption name KalahDatabase value kalah/kalah3-8.db\nisready\n");
    assert_eq!(raw.until("readyok"), ["readyok"]);
    raw.send("setoption name KalahDatabase value /etc/passwd\nisready\n");
    let refused = raw.until("readyok");
    assert!(
        refused[0]
            .starts_with("error option KalahDatabase: a TCP client may name only files under"),
        "{refused:?}"
    );
}

/// A large board with nothing installed: the solve says once how to install a database,
/// and builds a small one in memory meanwhile (stopped here).
#[test]
fn a_solve_without_a_database_says_once_how_to_install_one() {
    let data = tempfile::tempdir().unwrap();
    let mut engine = PipedEngine::start_with_env(&[], &[(DATA_DIR_ENV, data.path())]);
    engine.send(b"position kalah6x4 startpos\ngo solve\n");
    let hint = engine.until("info string no Kalah database installed");
    let hint = hint.last().unwrap();
    assert!(
        hint.contains("`engine kalah-db install 6`") && hint.contains("24 seeds"),
        "{hint}"
    );
    engine.until("info string KalahDatabase: boards of 4 seeds built");
    engine.send(b"stop\n");
    engine.until("bestmove");
    engine.send(b"go solve\n");
    engine.until("info string KalahDatabase: boards of 4 seeds built");
    engine.send(b"stop\nisready\n");
    let second = engine.until("readyok");
    assert!(
        !second
            .iter()
            .any(|l| l.contains("no Kalah database installed")),
        "said once: {second:?}"
    );
}

/// A solve of a large Kalah board asks for `KalahSolveHash`, and gets what the pool has
/// left when another session holds the rest; the pool's limit holds.
#[test]
fn a_solve_table_takes_only_what_the_pool_has_left() {
    let server = TcpServer::start(&["--table-memory", "96", "--max-hash", "64", "--hash", "16"]);
    let mut first = RawConnection::connect(&server);
    first.send("position kalah6x4 startpos\ngo solve\n");
    let lines = first.until("info string KalahDatabase: boards of 4 seeds built");
    assert!(
        !lines.iter().any(|l| l.contains("KalahSolveHash")),
        "the first solve gets its 64 MiB: {lines:?}"
    );
    let mut second = RawConnection::connect(&server);
    second.send("position kalah6x4 startpos\ngo solve\n");
    let lines = second.until("info string KalahSolveHash");
    assert!(
        lines
            .last()
            .unwrap()
            .contains("KalahSolveHash 64 MiB asked, 32 available"),
        "{lines:?}"
    );
    // A third session cannot have even its Hash of 16 MiB.
    let mut third = RawConnection::connect(&server);
    third.send("position kalah6x4 startpos\ngo solve\n");
    let refused = third.until("error");
    assert!(
        refused.last().unwrap().contains("table memory exhausted"),
        "{refused:?}"
    );
    for connection in [&mut first, &mut second] {
        connection.send("stop\n");
        connection.until("bestmove");
    }
}
