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
        &["bench", "--nodes", "1000"],
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
    // A missing file: its path and the system's reason, once each.
    for args in [
        &["bench", "--eval-file", "/nonexistent/w.weights"][..],
        &["label", "info", "/nonexistent/l.lab"],
    ] {
        let out = engine(args);
        assert!(!out.status.success(), "{args:?} succeeded");
        let err = stderr(&out);
        assert_eq!(err.matches("/nonexistent/").count(), 1, "{args:?}: {err}");
        assert_eq!(err.matches("No such file").count(), 1, "{args:?}: {err}");
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
    // Within a node budget the scores are compared, not checked (the known +28 is wrong),
    // and the summary says how far each search got: with 14 and 16 empties, a move to
    // play is an exact solve, which a million nodes finish.
    let out = engine(&[
        "bench",
        "--file",
        bad.to_str().unwrap(),
        "--hash",
        "16",
        "--nodes",
        "1000000",
        "--selectivity",
        "58",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("against the known scores: 1 of 1 scores differ"),
        "{text}"
    );
    assert!(
        text.contains(
            "reached: 2 exact proofs, 0 win/loss/draw proofs, probable solves none, 0 short of the end"
        ),
        "{text}"
    );
}

#[test]
fn solve_wld_gives_the_sign_of_the_exact_score() {
    // 4x4 is lost by 10, 4x6 won by 16 (docs/algorithms.md).
    for (game, bound) in [("othello4x4", "score <=-"), ("othello4x6", "score >=+")] {
        let out = engine(&["solve", game, "startpos", "--wld"]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(
            text.contains(bound) && text.contains(" wld best "),
            "{game}: {text}"
        );
    }
}

#[test]
fn compare_runs_every_algorithm_to_the_same_value() {
    let out = engine(&["compare", "4x4", "--depth", "4"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let sections: Vec<&str> = text
        .split("\n\n")
        .filter(|s| !s.trim().is_empty())
        .collect();
    assert_eq!(sections.len(), 2, "both starts: {text}");
    for section in sections {
        let algorithms = ["negamax", "alphabeta", "negaalpha", "negascout", "mtdf"];
        let rows: Vec<Vec<&str>> = section
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .filter(|r| r.first().is_some_and(|w| algorithms.contains(w)))
            .collect();
        assert_eq!(rows.len(), 11, "{section}");
        // The value is the first number after the algorithm's name and its "+table"s.
        let values: Vec<i32> = rows
            .iter()
            .map(|r| r.iter().find_map(|w| w.parse().ok()).unwrap())
            .collect();
        assert!(values.iter().all(|&v| v == values[0]), "{section}");
        // Alpha-beta evaluates fewer leaves than negamax.
        let evaluations = |name: &str| -> u64 {
            let row = rows
                .iter()
                .find(|r| r.len() > 3 && r[0] == name && r[1].parse::<i32>().is_ok());
            row.unwrap()[2].parse().unwrap()
        };
        assert!(
            evaluations("alphabeta") < evaluations("negamax"),
            "{section}"
        );
    }
}

/// Random 8x8 games as a WTHOR file (its format: docs/evaluation.md), each labelled with
/// its final score as its "theoretical" score at 24 empties.
fn random_games_wthor(count: usize, seed: u64) -> Vec<u8> {
    use engine::game::othello::{Geometry, Othello, OthelloMove};
    use engine::game::{Game, MoveList, Start};
    let mut state = seed | 1;
    let mut bytes = vec![20, 26, 1, 1];
    bytes.extend(u32::try_from(count).unwrap().to_le_bytes());
    bytes.extend([0, 0, 0xea, 0x07, 8, 0, 24, 0]);
    for _ in 0..count {
        let mut record = vec![0; 68];
        let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut played = 0;
        while !position.is_terminal() {
            let mut moves = MoveList::new();
            position.generate_moves(&mut moves);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mv: OthelloMove = moves[(state % moves.len() as u64) as usize];
            if let Some(square) = mv.index() {
                record[8 + played] = u8::try_from(10 * (square / 8 + 1) + square % 8 + 1).unwrap();
                played += 1;
            }
            position = position.play(mv);
        }
        // Black's discs, the empty squares going to the winner.
        let (black, white) = (position.black().count_ones(), position.white().count_ones());
        let black = match black.cmp(&white) {
            std::cmp::Ordering::Greater => 64 - white,
            std::cmp::Ordering::Less => black,
            std::cmp::Ordering::Equal => 32,
        };
        record[7] = u8::try_from(black).unwrap();
        bytes.extend(record);
    }
    bytes
}

/// A temporary folder holding a `games` folder of `count` random games (a WTHOR file).
fn games_folder(count: usize, seed: u64) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir_all(&games).unwrap();
    std::fs::write(games.join("random.wtb"), random_games_wthor(count, seed)).unwrap();
    (dir, games)
}

/// `label solve` writes exact labels and `label search` searched ones, which `label info`
/// reads back and `train --labels` trains on; a second run resumes with nothing left to do.
#[test]
fn labels_are_solved_listed_and_trained_on() {
    let (dir, games) = games_folder(200, 5);
    let labels = dir.path().join("l.lab");
    let solve = || {
        engine(&[
            "label",
            "solve",
            games.to_str().unwrap(),
            "--empties",
            "8-9",
            "-o",
            labels.to_str().unwrap(),
        ])
    };
    let out = solve();
    assert!(out.status.success(), "{}", stderr(&out));
    let info = engine(&["label", "info", labels.to_str().unwrap()]);
    let text = stdout(&info);
    assert!(text.contains("empties 8-9, shard 1/1"), "{text}");
    let count = |e: u32| -> usize {
        let line = text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{e} empties")))
            .unwrap_or_else(|| panic!("{text}"));
        line.rsplit(' ').next().unwrap().parse().unwrap()
    };
    assert!(count(8) > 100 && count(9) > 100, "{text}");
    let again = solve();
    assert!(
        stderr(&again).contains(&format!("{0}/{0} labelled", count(8) + count(9))),
        "{}",
        stderr(&again)
    );
    let searched = dir.path().join("s.lab");
    let out = engine(&[
        "label",
        "search",
        games.to_str().unwrap(),
        "--empties",
        "30",
        "--depth",
        "2",
        "-o",
        searched.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let info = stdout(&engine(&["label", "info", searched.to_str().unwrap()]));
    assert!(
        info.contains("empties 30-30, shard 1/1, search depth 2 at 87%"),
        "{info}"
    );
    let found = info
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("30 empties: "))
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("{info}"));
    assert!(found > 10, "{info}");
    let weights = dir.path().join("w.weights");
    let out = engine(&[
        "train",
        games.to_str().unwrap(),
        "-o",
        weights.to_str().unwrap(),
        "--iterations",
        "5",
        "--labels",
        labels.to_str().unwrap(),
        "--labels",
        searched.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "labels read: {} exact, {found} searched",
            count(8) + count(9)
        )),
        "{}",
        stderr(&out)
    );
}

/// `train` fits the linear model and the network over it; `--no-net` the linear model
/// alone; `--linear F` keeps F's linear model and trains only the network; bad network
/// settings are refused with a reason.
#[test]
fn train_fits_the_network_over_a_linear_model_or_without_one() {
    use engine::search::othello::eval::PatternWeights;
    let (dir, games) = games_folder(80, 12);
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let train = |extra: &[&str]| {
        let output = path("out.weights");
        let mut args = vec!["train", games.to_str().unwrap(), "-o", &output];
        args.extend(["--iterations", "3"]);
        if !extra.contains(&"--net-epochs") {
            args.extend(["--net-epochs", "1"]);
        }
        args.extend(extra);
        engine(&args)
    };
    let (linear, both, over) = (
        path("linear.weights"),
        path("both.weights"),
        path("over.weights"),
    );
    for (extra, file) in [
        (vec!["--no-net"], &linear),
        (vec![], &both),
        (vec!["--linear", linear.as_str()], &over),
    ] {
        let out = train(&extra);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        assert!(stdout(&out).contains("mae linear"), "{}", stdout(&out));
        std::fs::rename(path("out.weights"), file).unwrap();
    }
    let load = |file: &str| PatternWeights::load(std::path::Path::new(file)).unwrap();
    let (linear, both, over) = (load(&linear), load(&both), load(&over));
    assert!(linear.net().is_none());
    assert_eq!(both.net().map(|n| n.phases()), Some((3, 13)));
    // Over a given linear model: that model, unchanged, with a network.
    assert_eq!(over.params(), linear.params());
    assert!(over.net().is_some());
    for (extra, says) in [
        (vec!["--net-phases", "5", "3"], "--net-phases must be"),
        (vec!["--net-phases", "3", "15"], "--net-phases must be"),
        (vec!["--net-epochs", "0"], "--net-epochs must be at least 1"),
        (
            vec!["--linear", "/nonexistent/w.weights"],
            "/nonexistent/w.weights",
        ),
    ] {
        let out = train(&extra);
        assert!(!out.status.success(), "{extra:?}");
        assert!(stderr(&out).contains(says), "{extra:?}: {}", stderr(&out));
    }
}

/// `selfplay` writes games that a second run resumes and `train` reads beside other
/// folders; another seed in the same file is refused.
#[test]
fn self_play_games_are_resumed_and_trained_on() {
    let (dir, games) = games_folder(100, 9);
    let played = dir.path().join("selfplay");
    std::fs::create_dir_all(&played).unwrap();
    let file = played.join("sp.gam");
    let selfplay_into = |file: &std::path::Path, games: &str, seed: &str, extra: &[&str]| {
        let mut args = vec![
            "selfplay",
            "-o",
            file.to_str().unwrap(),
            "--games",
            games,
            "--depth",
            "2",
            "--solve-empties",
            "6",
            "--seed",
            seed,
        ];
        args.extend(extra);
        engine(&args)
    };
    let selfplay = |games: &str, seed: &str| selfplay_into(&file, games, seed, &[]);
    let out = selfplay("30", "1");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains(": 30 games (shard 1/1)"),
        "{}",
        stdout(&out)
    );
    let out = selfplay("40", "1");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("30/40 games"), "{}", stderr(&out));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 41, "{text}");
    assert!(
        text.starts_with("# engine selfplay: opening plies 10, depth 2"),
        "{text}"
    );
    let out = selfplay("40", "2");
    assert!(!out.status.success());
    assert!(stderr(&out).contains("another run"), "{}", stderr(&out));
    // Balanced openings are another run too, and name their bound in their own file.
    let out = selfplay_into(&file, "40", "1", &["--balanced", "2"]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("another run"), "{}", stderr(&out));
    let balanced = dir.path().join("balanced.gam");
    let out = selfplay_into(&balanced, "3", "1", &["--balanced", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&balanced).unwrap();
    assert!(
        text.starts_with("# engine selfplay: opening plies 10 within 2 discs, depth 2"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 4, "{text}");

    let weights = dir.path().join("w.weights");
    let train = |folders: &[&std::path::Path]| {
        let mut args = vec!["train"];
        args.extend(folders.iter().map(|f| f.to_str().unwrap()));
        args.extend(["-o", weights.to_str().unwrap(), "--iterations", "2"]);
        let out = engine(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        // The positions of the first phase, which every game passes through.
        stdout(&out)
            .lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .nth(2)
            .unwrap()
            .parse::<usize>()
            .unwrap()
    };
    let alone = train(&[&games]);
    let both = train(&[&games, &played]);
    // 38 of the 40 games train (one in twenty is held out), each with 4 positions of 4-7 discs.
    assert_eq!(both - alone, 38 * 4);
    // Games whose random openings are marked train on the positions after them only: none
    // of the first phase's, before the twelfth ply.
    let marked = dir.path().join("marked");
    std::fs::create_dir_all(&marked).unwrap();
    let extra = ["--opening-plies", "12-20", "--unlabelled-openings"];
    let out = selfplay_into(&marked.join("rp.gam"), "20", "1", &extra);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(marked.join("rp.gam")).unwrap();
    assert!(
        text.starts_with("# engine selfplay: opening plies 12-20 (unlabelled), depth 2"),
        "{text}"
    );
    assert!(
        text.lines().skip(1).all(|line| line.contains(" random ")),
        "{text}"
    );
    assert_eq!(train(&[&games, &marked]), alone);
    for bad in ["20-12", "51", "ten"] {
        let out = selfplay_into(&marked.join("bad.gam"), "2", "1", &["--opening-plies", bad]);
        assert!(!out.status.success());
        assert!(stderr(&out).contains("--opening-plies"), "{}", stderr(&out));
    }

    // `accuracy` measures on the held-out games of the same folders: the WTHOR records'
    // by default (with their theoretical scores at 24 empties), or the `*.gam` files':
    // games 107 and 127, the 8th and the 28th self-play games.
    let accuracy = |extra: &[&str]| {
        let mut args = vec![
            "accuracy",
            games.to_str().unwrap(),
            played.to_str().unwrap(),
        ];
        args.extend(["--empties", "10", "--positions", "50"]);
        args.extend(extra);
        let out = engine(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
            .lines()
            .skip(1)
            .map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    let records = accuracy(&[]);
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[0][..3], ["24", "WTHOR", "5"], "{records:?}");
    assert_eq!(records[1][..3], ["10", "solver", "5"], "{records:?}");
    let engine_games = accuracy(&["--games", "gam"]);
    assert_eq!(engine_games.len(), 1, "{engine_games:?}");
    assert_eq!(
        engine_games[0][..3],
        ["10", "solver", "2"],
        "{engine_games:?}"
    );
    // With a cache of solves: the same figures, made and then read from it; a file that
    // is not one is refused with a one-line reason.
    let cache = dir.path().join("solves.lab");
    let cached = ["--games", "gam", "--cache", cache.to_str().unwrap()];
    assert_eq!(accuracy(&cached), engine_games);
    let size = std::fs::metadata(&cache).unwrap().len();
    assert_eq!(size, 16 + 2 * 17, "a header and two records");
    assert_eq!(accuracy(&cached), engine_games);
    assert_eq!(std::fs::metadata(&cache).unwrap().len(), size);
    // Read only, it measures what it holds: nothing at 12 empties.
    let only = [&cached[..], &["--cached-only", "--empties", "12"]].concat();
    let measured = accuracy(&only);
    assert_eq!(measured[0], engine_games[0]);
    assert_eq!(measured[1], ["12", "solver", "0", "-", "-"], "{measured:?}");
    assert_eq!(std::fs::metadata(&cache).unwrap().len(), size);
    // `--choices`: every move of those positions solved into the cache, then read from
    // it; a line per count of empties with the shipped and the hand evaluations' regret
    // and error between moves, then the hand's difference from the shipped.
    let choices = [&cached[..], &["--choices"]].concat();
    let table = accuracy(&choices);
    assert_eq!(table.len(), 5, "{table:?}");
    assert_eq!(table[1][..2], ["10", "2"], "{table:?}");
    for cell in &table[1][2..] {
        let (regret, between) = cell.split_once('/').unwrap();
        assert!(regret.parse::<f64>().unwrap() >= 0.0, "{table:?}");
        assert!(between.parse::<f64>().unwrap() >= 0.0, "{table:?}");
    }
    assert_eq!(table[4][..2], ["10", "2"], "{table:?}");
    assert!(table[4][2].contains('±'), "{table:?}");
    let grown = std::fs::metadata(&cache).unwrap().len();
    assert!(grown > size, "the moves' solves kept");
    let read_only = [&choices[..], &["--cached-only"]].concat();
    assert_eq!(accuracy(&read_only), table);
    assert_eq!(std::fs::metadata(&cache).unwrap().len(), grown);
    let bad = dir.path().join("bad.lab");
    std::fs::write(&bad, "not labels\n").unwrap();
    let out = engine(&[
        "accuracy",
        games.to_str().unwrap(),
        played.to_str().unwrap(),
        "--games",
        "gam",
        "--empties",
        "10",
        "--cache",
        bad.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(err.contains("not a labels file"), "{err}");
}

#[test]
fn train_fits_weights_that_accuracy_and_the_engine_use() {
    let (dir, games) = games_folder(1500, 7);
    let weights = dir.path().join("random.weights");
    let weights = weights.to_str().unwrap();
    let out = engine(&[
        "train",
        games.to_str().unwrap(),
        "-o",
        weights,
        "--iterations",
        "10",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // A row per phase: the fit lowers the training error below that of zero weights.
    let rows: Vec<Vec<f64>> = text
        .lines()
        .skip(1)
        .filter(|l| !l.starts_with("wrote"))
        .map(|l| {
            l.split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect()
        })
        .collect();
    assert!(rows.len() >= 10, "{text}");
    for row in &rows {
        // phase, positions, mse 0, mse fit, ...
        assert!(row[3] < row[2], "the fit did not lower the error: {text}");
    }
    assert!(text.contains("wrote "), "{text}");
    // `accuracy` measures those weights on the held-out games: the row of solved
    // positions at 10 empties, with another error than the shipped weights make. Its
    // columns: the trained evaluations' errors (one per weights), then the hand one's.
    let accuracy = |extra: &[&str]| {
        let args = [
            &[
                "accuracy",
                games.to_str().unwrap(),
                "--empties",
                "10",
                "--positions",
                "20",
            ][..],
            extra,
        ]
        .concat();
        let out = engine(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let row = text
            .lines()
            .find(|l| l.split_whitespace().take(2).eq(["10", "solver"]))
            .unwrap_or_else(|| panic!("{text}"))
            .to_string();
        let words: Vec<String> = row.split_whitespace().map(String::from).collect();
        assert_eq!(words[2], "20", "{text}");
        words[3..words.len() - 1].to_vec()
    };
    let trained = accuracy(&["--eval-file", weights]);
    let shipped = accuracy(&[]);
    assert_eq!((trained.len(), shipped.len()), (1, 1));
    assert_ne!(trained, shipped);
    // Several weights share one set of solves, a column each, in the order given.
    let shipped_file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/othello8x8.weights");
    let both = accuracy(&["--eval-file", weights, "--eval-file", shipped_file]);
    assert_eq!(both, [trained, shipped].concat());
    // Earlier in the game the reference is a deep search's value: a row of its own, and
    // the only one with `--empties` given no value.
    let out = engine(&[
        "accuracy",
        games.to_str().unwrap(),
        "--empties",
        "--searched",
        "30",
        "--search-depth",
        "4",
        "--positions",
        "20",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let searched: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|words| words.starts_with(&["30", "depth", "4"]))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(searched[3], "20", "{text}");
    let error: f64 = searched[4].parse().unwrap();
    assert!((0.0..64.0).contains(&error), "{text}");
    assert!(!text.contains("solver"), "{text}");
    let out = engine(&["accuracy", games.to_str().unwrap(), "--empties"]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("nothing to measure"),
        "{}",
        stderr(&out)
    );
    // The engine searches with them (`--eval-file`, and the option `EvalFile`): another
    // evaluation, another mid-game value than the shipped weights give.
    let search = |args: &[&str], input: &str| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let script = format!("{input}position othello8x8 startpos moves f5 d6 c3\ngo depth 5\n");
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), script.as_bytes()).unwrap();
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        let text = stdout(&out);
        assert!(!text.contains("error"), "{text}");
        let last = text.lines().rfind(|l| l.starts_with("info")).unwrap();
        last.split(" score ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let trained = search(&["--eval-file", weights], "");
    assert_ne!(trained, search(&[], ""));
    let option = format!("setoption name EvalFile value {weights}\n");
    assert_eq!(search(&[], &option), trained);
    assert_eq!(
        search(&[], "setoption name Eval value hand\n"),
        search(&["--eval", "hand"], "")
    );
    let out = engine(&[
        "solve",
        "othello8x8",
        "startpos",
        "--eval-file",
        "Cargo.toml",
    ]);
    assert!(!out.status.success());
    assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    // Multi-ProbCut's sample for these weights: searched and evaluated with them, so
    // other values than the shipped weights'; resumed only with them; and fitted.
    let sample = |file: &std::path::Path, with: &[&str]| {
        let args = [
            &[
                "probcut",
                "sample",
                games.to_str().unwrap(),
                "-o",
                file.to_str().unwrap(),
                "--positions",
                "40",
                "--depth",
                "6",
                "--min-empties",
                "20",
                "--max-empties",
                "40",
                "--threads",
                "1",
            ][..],
            with,
        ]
        .concat();
        engine(&args)
    };
    let (theirs, shipped) = (
        dir.path().join("theirs.txt"),
        dir.path().join("shipped.txt"),
    );
    for (file, with) in [(&theirs, &["--eval-file", weights][..]), (&shipped, &[])] {
        let out = sample(file, with);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let lines = |file: &std::path::Path| std::fs::read_to_string(file).unwrap();
    assert_eq!(lines(&theirs).lines().count(), 40);
    assert!(lines(&theirs).lines().all(|l| l.contains(" eval ")));
    assert_ne!(lines(&theirs), lines(&shipped));
    let out = sample(&theirs, &[]);
    assert!(!out.status.success());
    assert!(stderr(&out).contains("other weights"), "{}", stderr(&out));
    assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    let out = sample(&theirs, &["--eval-file", weights]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains("40 already in"), "{}", stderr(&out));
    let model = dir.path().join("model.txt");
    let out = engine(&[
        "probcut",
        "fit",
        theirs.to_str().unwrap(),
        "-o",
        model.to_str().unwrap(),
        "--min-count",
        "5",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(lines(&model).contains("\nsigma "), "{}", lines(&model));
}

#[test]
fn a_book_is_built_resumed_sharded_deepened_added_to_and_shown() {
    let (dir, games) = games_folder(200, 3);
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let build = |out: &str, shard: &str| {
        engine(&[
            "book",
            "build",
            games.to_str().unwrap(),
            "-o",
            out,
            "--plies",
            "4",
            "--min-games",
            "3",
            "--depth",
            "2",
            "--shard",
            shard,
            "--threads",
            "2",
        ])
    };
    let out = build(&path("b.gsb"), "1/1");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("positions, ") && text.contains("main line"),
        "{text}"
    );
    let whole = std::fs::read(path("b.gsb")).unwrap();
    // Run again, it resumes with nothing left to search, and the book is unchanged.
    let again = build(&path("b.gsb"), "1/1");
    assert!(stderr(&again).contains("resuming"), "{}", stderr(&again));
    assert_eq!(std::fs::read(path("b.gsb")).unwrap(), whole);
    // Two shards merged make the same book.
    for (shard, name) in [("1/2", "s1.gsb"), ("2/2", "s2.gsb")] {
        assert!(build(&path(name), shard).status.success());
    }
    let merged = engine(&[
        "book",
        "merge",
        &path("s1.gsb"),
        &path("s2.gsb"),
        "-o",
        &path("m.gsb"),
    ]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(std::fs::read(path("m.gsb")).unwrap(), whole);
    // Its moves in a position; the four first moves are one by symmetry.
    let shown = stdout(&engine(&[
        "book",
        "show",
        "startpos",
        "--book",
        &path("b.gsb"),
    ]));
    let values: Vec<&str> = shown
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert_eq!(values.len(), 4, "{shown}");
    assert!(values.iter().all(|v| *v == values[0]), "{shown}");
    let far = stdout(&engine(&[
        "book",
        "show",
        "startpos moves f5 f6 e6 f4 e3 c5",
        "--book",
        &path("b.gsb"),
    ]));
    assert_eq!(far.trim(), "not in the book");
    // Deepening and adding a game grow it.
    let count = |book: &str| -> usize {
        let info = stdout(&engine(&["book", "info", book]));
        info.split(": ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let before = count(&path("b.gsb"));
    let deepened = engine(&[
        "book",
        "deepen",
        &path("b.gsb"),
        "--positions",
        "5",
        "--depth",
        "2",
    ]);
    assert!(deepened.status.success(), "{}", stderr(&deepened));
    assert!(count(&path("b.gsb")) >= before + 5);
    let ggf = dir.path().join("g.ggf");
    std::fs::write(
        &ggf,
        "(;GM[Othello]PC[test]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]W[D6]B[C3]W[D3]B[C4];)",
    )
    .unwrap();
    // The game goes to the book as built (4 plies), not the deepened one: its fifth
    // position is then surely new, whatever lines deepening chose.
    let before = count(&path("m.gsb"));
    let added = engine(&[
        "book",
        "add",
        &path("m.gsb"),
        ggf.to_str().unwrap(),
        "--plies",
        "5",
        "--depth",
        "2",
    ]);
    assert!(added.status.success(), "{}", stderr(&added));
    assert!(count(&path("m.gsb")) > before);
    let line = stdout(&engine(&[
        "book",
        "show",
        "startpos moves f5 d6 c3 d3",
        "--book",
        &path("m.gsb"),
    ]));
    assert!(
        line.starts_with("move"),
        "the game's fifth position is in the book: {line}"
    );
    // A damaged book is refused with one line, as is a missing one.
    let mut damaged = std::fs::read(path("b.gsb")).unwrap();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(path("d.gsb"), damaged).unwrap();
    for book in [path("d.gsb"), path("missing.gsb")] {
        let out = engine(&["book", "info", &book]);
        assert!(!out.status.success());
        assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    }
}

#[test]
fn kalah_db_list_of_an_unreadable_data_directory_fails_in_one_line() {
    // A data directory that is a file: its `kalah` folder cannot be read (a permission
    // would not stop root, who runs CI).
    let file = tempfile::NamedTempFile::new().unwrap();
    let path = file.path().to_str().unwrap();
    let out = engine(&["kalah-db", "list", "--data-dir", path]);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot read the data directory"),
        "{stderr}"
    );
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "no 'no Kalah database' when it could not look"
    );
    // A data directory with no databases yet is no error.
    let empty = tempfile::tempdir().unwrap();
    let out = engine(&[
        "kalah-db",
        "list",
        "--data-dir",
        empty.path().to_str().unwrap(),
    ]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("no Kalah database"));
}

/// The shipped Multi-ProbCut models are what their commands (in each file's header) make
/// of the shipped samples, whatever weights the build ships: a sample records the
/// evaluations its fit uses.
#[test]
fn probcut_fits_of_the_shipped_samples_reproduce_the_shipped_models() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let dir = tempfile::tempdir().unwrap();
    for (command, sample, model) in [
        ("fit", "probcut-sample.txt", "probcut.txt"),
        ("fit-end", "probcut-end-sample.txt", "probcut-end.txt"),
    ] {
        let out = dir.path().join(model);
        let output = engine(&[
            "probcut",
            command,
            &format!("{data}/{sample}"),
            "-o",
            out.to_str().unwrap(),
            "--min-count",
            "30",
        ]);
        assert!(output.status.success(), "{}", stderr(&output));
        let shipped = std::fs::read_to_string(format!("{data}/{model}")).unwrap();
        let made = std::fs::read_to_string(&out)
            .unwrap()
            .replace(out.to_str().unwrap(), &format!("engine/data/{model}"))
            .replace(&format!("{data}/"), "engine/data/");
        assert_eq!(made, shipped, "{command}");
    }
}
