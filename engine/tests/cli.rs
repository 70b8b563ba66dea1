//! The `engine` binary as a user runs it: outputs, exit codes, one-line errors.

use std::process::{Command, Output};

fn engine(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(args)
        .output()
        .expect("the engine binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn perft_prints_the_count() {
    let out = engine(&["perft", "othello", "6"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(": 8200 leaves"), "{}", stdout(&out));
}

#[test]
fn perft_from_a_position_text_starting_with_a_dash() {
    let out = engine(&[
        "perft",
        "othello4x4",
        "1",
        "--position",
        "-----OX--XO----- X",
        "--divide",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(": 4 leaves"), "{}", stdout(&out));
}

#[test]
fn solve_prints_score_move_pv_and_counters() {
    let out = engine(&["solve", "othello4x4", "startpos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("score -10 exact best"), "{text}");
    assert!(text.contains(" pv "), "{text}");
    assert!(text.contains("nodes ") && text.contains(" nps "), "{text}");
    // Progress goes to stderr, one line per iteration.
    assert!(stderr(&out).contains("depth "), "{}", stderr(&out));
}

#[test]
fn kalah_databases_are_built_read_and_used_by_solve() {
    let dir = std::env::temp_dir().join(format!("kalah-db-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("k3.db");
    let path = file.to_str().unwrap();
    for storage in [&[][..], &["--plain"][..]] {
        let out = engine(&[&["kalah-db", "build", "3", "12", "-o", path][..], storage].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(
            stdout(&out).contains("3 pits, at most 12 seeds"),
            "{}",
            stdout(&out)
        );
        // A line per layer of seeds built.
        assert!(stderr(&out).contains("seeds  12:"), "{}", stderr(&out));
        let out = engine(&["kalah-db", "info", path]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains("18564 positions"), "{}", stdout(&out));
        let out = engine(&["solve", "kalah3x3", "startpos", "--kalah-db", path]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stdout(&out).contains("score +2 exact"), "{}", stdout(&out));
    }
    // Another board size or rule set, and a file that is not a database: one-line errors.
    for (game, db) in [
        ("kalah4x3", path),
        ("kalah3x3-noemptycapture", path),
        ("kalah3x3", "Cargo.toml"),
    ] {
        let out = engine(&["solve", game, "startpos", "--kalah-db", db]);
        assert!(!out.status.success(), "{game} {db}");
        assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    }
    // Built in memory.
    let out = engine(&["solve", "kalah4x3", "startpos", "--kalah-db", "10"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("score +8 exact"), "{}", stdout(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_a_kalah_position() {
    let out = engine(&["solve", "kalah2x3", "startpos"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("score -2 exact"), "{}", stdout(&out));
}

#[test]
fn bad_input_fails_with_one_line() {
    for args in [
        &["perft", "chess", "3"][..],
        &["solve", "othello4x4", "XO X"],
        &["solve", "kalah", "parallel"],
        &["solve", "othello", "startpos", "--algorithm", "minimax"],
        &["solve", "--file", "/nonexistent/suite.txt"],
        &["compare", "5x5"],
        &["bench", "--ffo", "--range", "1", "2"],
    ] {
        let out = engine(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
        assert!(!lines.is_empty(), "{args:?}: no reason given");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        if args[0] != "perft" && !args.contains(&"--algorithm") {
            assert_eq!(lines.len(), 1, "{args:?}: {err}");
        }
    }
}

#[test]
fn solve_file_checks_the_scores() {
    let dir = tempfile::tempdir().unwrap();
    let dir = dir.path();
    let good = dir.join("good.obf");
    let bad = dir.join("bad.obf");
    let line = "--O-XO----XXOXX---XOXXX-X-OXXOOOXXXXXOO-XOXOOX-OXOOXXXX-XOOOOO-X X";
    let e1 = "---XO-XO--O-XXOXOOOOOOXX-OOXOXXXOOOOOXXX-XOOO-XXXXXXO--XOXXXXX-- X";
    std::fs::write(&good, format!("{e1}; F1:-28;\n")).unwrap();
    std::fs::write(&bad, format!("{e1}; F1:+28;\n{line}\n")).unwrap();
    let out = engine(&["solve", "--file", good.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = engine(&["solve", "--file", bad.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("different score"), "{}", stderr(&out));
    // bench runs the same files, with a table of times.
    let out = engine(&["bench", "--file", good.to_str().unwrap(), "--hash", "16"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("total: 1 positions"),
        "{}",
        stdout(&out)
    );
    let out = engine(&["bench", "--file", bad.to_str().unwrap(), "--hash", "16"]);
    assert!(!out.status.success());
    assert!(stdout(&out).contains("WRONG"), "{}", stdout(&out));
}
