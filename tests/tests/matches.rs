//! The match runner end to end: real matches over both transports, engines that crash,
//! play illegal moves or never answer, and an interrupted match resumed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use e2e_tests::{TcpServer, engine_binary};
use engine::game::Game;
use engine::match_runner::{GameRecord, GameResult, Termination, read_results};

/// `engine match` with `args`: its output, and whether it succeeded as `succeeds` says.
fn match_output<S: AsRef<std::ffi::OsStr>>(args: &[S], succeeds: bool) -> Output {
    let out = Command::new(engine_binary())
        .arg("match")
        .args(args)
        .output()
        .expect("the engine runs");
    assert_eq!(
        out.status.success(),
        succeeds,
        "stdout: {}\nstderr: {}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn run_match<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    match_output(args, true)
}

/// `engine match` with `args`, which must fail: its output.
fn refused_match<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    match_output(args, false)
}

fn results(path: &Path) -> Vec<GameRecord> {
    read_results(path).unwrap()
}

/// The time in ms of each move of the side that moved first (0) or second (1) in `game`.
fn move_times(game: &GameRecord, side: usize) -> Vec<u64> {
    game.moves
        .iter()
        .skip(side)
        .step_by(2)
        .map(|p| p.time_ms)
        .collect()
}

/// The position a game record ends in, its moves replayed by our rules.
fn replayed(g: &GameRecord) -> engine::game::AnyPosition {
    let game: engine::game::GameId = g.game.parse().unwrap();
    let mut position = engine::match_runner::Opening::parse(game, &g.opening)
        .unwrap()
        .position;
    for ply in &g.moves {
        position = position.play_text(&ply.mv).unwrap();
    }
    position
}

fn fixture(mode: &str) -> String {
    format!("cmd='{} {mode}'", env!("CARGO_BIN_EXE_fixture-engine"))
}

#[test]
fn a_match_over_both_transports_plays_legal_complete_games() {
    let server = TcpServer::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("games.jsonl");
    let out = run_match(&[
        "--game",
        "othello6x6",
        "--engine",
        "name=child depth=2",
        "--engine",
        &format!("name=tcp depth=3 algorithm=negascout tcp={}", server.addr),
        "--opening-plies",
        "2",
        "--concurrency",
        "2",
        "--results",
        file.to_str().unwrap(),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    let games = results(&file);
    // Every distinct 2-ply opening twice, colours swapped.
    assert_eq!(games.len() % 2, 0);
    assert!(games.len() >= 8, "{}", games.len());
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        // The runner's rules agree with the record: replay it.
        assert!(replayed(g).is_terminal());
        let score = g.score.unwrap();
        assert_eq!(GameResult::of_score(score), g.result);
    }
    for name in ["child", "tcp"] {
        assert!(report.contains(name), "{report}");
    }
    assert!(report.contains("pentanomial"), "{report}");
    assert!(
        !report.contains("NaN") && !report.contains("inf"),
        "{report}"
    );
}

#[test]
fn crashes_illegal_moves_and_silence_lose_and_are_counted() {
    let out = run_match(&[
        "--game",
        "othello6x6",
        "--engine",
        "name=good depth=2",
        "--engine",
        &format!("name=crasher {}", fixture("crash 3")),
        "--engine",
        &format!("name=cheat {}", fixture("illegal")),
        "--engine",
        &format!("name=mute {}", fixture("silent")),
        "--gauntlet",
        "--opening-plies",
        "1",
        "--move-timeout",
        "1000",
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    let line = |name: &str| {
        report
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {report}"))
            .to_string()
    };
    // Gauntlet: good plays 4 openings x 2 colours against each of the three.
    assert!(
        line("good ").contains("   24    24     0     0 100.0%"),
        "{report}"
    );
    assert!(line("crasher").ends_with("crash 8"), "{report}");
    assert!(line("cheat").ends_with("illegal 8"), "{report}");
    assert!(line("mute").ends_with("stall 8"), "{report}");
}

#[test]
fn a_resumed_match_ends_with_the_same_totals() {
    let dir = tempfile::tempdir().unwrap();
    let args = |file: &Path| -> Vec<String> {
        [
            "--game",
            "othello4x4",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=3 algorithm=negascout",
            "--opening-plies",
            "2",
            "--results",
            file.to_str().unwrap(),
        ]
        .iter()
        .map(ToString::to_string)
        .collect()
    };
    let full = dir.path().join("full.jsonl");
    let whole = run_match(&args(&full));
    let all = std::fs::read_to_string(&full).unwrap();
    let lines: Vec<&str> = all.lines().collect();
    assert!(lines.len() >= 4);
    // Interrupted after three games, in the middle of writing the fourth.
    let cut = dir.path().join("cut.jsonl");
    let partial = &lines[3][..lines[3].len() / 2];
    std::fs::write(
        &cut,
        format!("{}\n{}\n{}\n{partial}", lines[0], lines[1], lines[2]),
    )
    .unwrap();
    // Without --resume the runner refuses to mix matches.
    let refused = refused_match(&args(&cut));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    let mut resume = args(&cut);
    resume.push("--resume".into());
    let resumed = run_match(&resume);
    assert_eq!(
        String::from_utf8_lossy(&resumed.stdout),
        String::from_utf8_lossy(&whole.stdout),
        "same report"
    );
    let mut a = results(&full);
    let mut b = results(&cut);
    a.sort_by_key(|g| g.index);
    b.sort_by_key(|g| g.index);
    let strip = |games: &[GameRecord]| -> Vec<(usize, String, String, GameResult, Option<i32>)> {
        games
            .iter()
            .map(|g| {
                (
                    g.index,
                    g.first.clone(),
                    g.opening.clone(),
                    g.result,
                    g.score,
                )
            })
            .collect()
    };
    assert_eq!(strip(&a), strip(&b));
}

#[test]
fn the_seeds_kalah_preset_prints_every_pairing() {
    let out = run_match(&["--preset", "paper-kalah"]);
    let text = String::from_utf8_lossy(&out.stdout);
    for algorithm in ["negascout", "mtdf"] {
        assert!(
            text.contains(&format!("{algorithm} with a transposition table")),
            "{text}"
        );
    }
    // 49 pairings per algorithm, each with a score and two evaluation counts.
    let rows = text
        .lines()
        .filter(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            w.len() == 5 && w[0].parse::<u32>().is_ok() && w[4].parse::<u64>().is_ok_and(|n| n > 0)
        })
        .count();
    assert_eq!(rows, 98, "{text}");
}

#[test]
fn bad_match_arguments_fail_with_one_line() {
    for args in [
        vec!["--engine", "name=a depth=2"],
        vec!["--engine", "name=a", "--engine", "name=a"],
        vec!["--engine", "depth=0", "--engine", "depth=2"],
        vec!["--engine", "a", "--engine", "b", "--sprt", "0,10"],
        vec![
            "--engine", "name=a", "--engine", "name=b", "--clock", "fast",
        ],
        vec![
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--openings-file",
            "/no/such/file",
        ],
        // Millions of distinct positions: refused at once, not enumerated.
        vec![
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--opening-plies",
            "12",
        ],
        // Past the end of every game.
        vec![
            "--engine",
            "name=a",
            "--engine",
            "name=b",
            "--opening-plies",
            "200",
            "--games",
            "2",
        ],
    ] {
        let out = refused_match(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
    // Engines that cannot play at all: refused before any game, not lost game by game.
    for spec in [
        "name=a cmd=/no/such/engine",
        "name=a nboard=/no/such/engine",
        "name=a tcp=127.0.0.1:1",
        "name=a option.NoSuchOption=1",
    ] {
        let out = refused_match(&["--engine", spec, "--engine", "name=b"]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{spec}: {err}");
        assert!(err.contains("engine a cannot play: "), "{spec}: {err}");
        assert!(out.stdout.is_empty(), "{spec}: games were played");
    }
}

#[test]
fn openings_from_the_book_and_a_clear_error_for_a_bad_spec() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("book.jsonl");
    run_match(&[
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--openings",
        "book:6:4",
        "--games",
        "4",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    assert_eq!(games.len(), 4);
    let book = engine::book::Book::builtin();
    for g in &games {
        let opening =
            engine::match_runner::Opening::parse(g.game.parse().unwrap(), &g.opening).unwrap();
        assert_eq!(opening.moves.len(), 6, "{}", g.opening);
        let engine::game::AnyPosition::Othello(p) = opening.position else {
            unreachable!()
        };
        let value = book.value(&engine::book::key_of(&p).unwrap()).unwrap();
        assert!(value.abs() <= 4, "{}: {value}", g.opening);
    }
    for spec in [
        "book:6",
        "xot:6:4",
        "book:6:99",
        "book:6:4:/nonexistent/book.gsb",
    ] {
        let out = refused_match(&[
            "--engine",
            "depth=1",
            "--engine",
            "depth=1",
            "--games",
            "2",
            "--openings",
            spec,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{spec}: {err}");
    }
}

#[test]
fn an_nboard_engine_plays_the_same_games_as_the_native_one() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine_binary().display().to_string();
    let play = |second: &str, name: &str| -> Vec<GameRecord> {
        let file = dir.path().join(format!("{name}.jsonl"));
        run_match(&[
            "--engine",
            "name=first depth=3",
            "--engine",
            &format!("name=second depth=3 {second}"),
            "--opening-plies",
            "2",
            "--games",
            "6",
            "--results",
            file.to_str().unwrap(),
            "--ggf",
            dir.path().join(format!("{name}.ggf")).to_str().unwrap(),
        ]);
        let mut games = results(&file);
        games.sort_by_key(|g| g.index);
        games
    };
    let native = play("", "native");
    // NBoard's `go` plays from the book at any depth (its GUI's level); the native `go
    // depth 3` searches: compare the fronts' searches with the book off.
    let nboard = play(&format!("nboard='{engine} --nboard --no-book'"), "nboard");
    assert_eq!(native.len(), 6);
    for (a, b) in native.iter().zip(&nboard) {
        let moves = |g: &GameRecord| g.moves.iter().map(|p| p.mv.clone()).collect::<Vec<_>>();
        assert_eq!(moves(a), moves(b), "game {}", a.index);
        assert_eq!((a.result, a.score), (b.result, b.score));
        assert_eq!(b.termination, Termination::Normal);
    }
    // The GGF records replay to the same results.
    let text = std::fs::read_to_string(dir.path().join("nboard.ggf")).unwrap();
    let records = engine::ggf::parse_games(&text).unwrap();
    assert_eq!(records.len(), 6);
    for (ggf, game) in records.iter().zip(&nboard) {
        assert!(ggf.final_position().is_terminal());
        assert_eq!(ggf.property("PB"), Some(game.first.as_str()));
        assert_eq!(
            ggf.property("RE"),
            Some(format!("{:+}.000", game.score.unwrap()).as_str())
        );
    }
}

#[test]
fn an_nboard_engine_that_answers_only_with_its_chosen_line_is_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("edax-like.jsonl");
    let fixture = env!("CARGO_BIN_EXE_fixture-engine");
    run_match(&[
        "--engine",
        "name=ours depth=1",
        "--engine",
        &format!("name=edax-like nboard='{fixture} nboard'"),
        "--opening-plies",
        "1",
        "--games",
        "2",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        // Ours always reports a depth; the fixture's moves have none, but the score of
        // its `===` line and the nodes of its `nodestats`.
        let theirs: Vec<_> = g.moves.iter().filter(|p| p.depth.is_none()).collect();
        assert!(2 * theirs.len() + 1 >= g.moves.len(), "{g:?}");
        for ply in theirs {
            assert_eq!((ply.score, ply.nodes), (Some(3), Some(4242)), "{g:?}");
        }
    }
}

#[test]
fn a_crashing_engine_s_last_stderr_lines_are_in_the_fault() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("crash.jsonl");
    run_match(&[
        "--game",
        "othello6x6",
        "--engine",
        "name=good depth=1",
        "--engine",
        &format!("name=dying {}", fixture("stderr-crash")),
        "--opening-plies",
        "1",
        "--games",
        "2",
        "--results",
        file.to_str().unwrap(),
    ]);
    for g in results(&file) {
        let fault = g.fault.expect("the fixture dies in every game");
        assert_eq!(fault.engine, "dying");
        assert!(
            fault
                .detail
                .contains("fixture: loading weights | fixture: fatal: out of memory"),
            "{}",
            fault.detail
        );
    }
}

#[test]
fn the_start_up_time_limit_is_an_option() {
    let slow = format!("name=slow {}", fixture("slow-start 1500"));
    let args = |limit: &'static str| -> Vec<String> {
        [
            "--game",
            "othello4x4",
            "--engine",
            "name=quick depth=1",
            "--engine",
            &slow,
            "--opening-plies",
            "1",
            "--games",
            "2",
            "--start-timeout",
            limit,
        ]
        .iter()
        .map(ToString::to_string)
        .collect()
    };
    let patient = run_match(&args("10000"));
    let report = String::from_utf8_lossy(&patient.stdout);
    assert!(!report.contains("stall"), "{report}");
    let hasty = run_match(&args("300"));
    let report = String::from_utf8_lossy(&hasty.stdout);
    assert!(report.contains("stall 2"), "{report}");
}

#[test]
fn shards_merged_give_the_whole_match_game_for_game() {
    let dir = tempfile::tempdir().unwrap();
    let args = |file: &Path, shard: Option<&str>| -> Vec<String> {
        let mut args: Vec<String> = [
            "--game",
            "othello4x4",
            "--engine",
            "name=a depth=1",
            "--engine",
            "name=b depth=2",
            "--engine",
            "name=c depth=3 algorithm=negascout",
            "--opening-plies",
            "2",
            "--seed",
            "7",
            "--results",
            file.to_str().unwrap(),
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        if let Some(s) = shard {
            args.extend(["--shard".to_string(), s.to_string()]);
        }
        args
    };
    let whole_file = dir.path().join("whole.jsonl");
    let whole = run_match(&args(&whole_file, None));
    let shards: Vec<_> = (1..=3)
        .map(|i| dir.path().join(format!("shard{i}.jsonl")))
        .collect();
    for (i, file) in shards.iter().enumerate() {
        run_match(&args(file, Some(&format!("{}/3", i + 1))));
    }
    let sizes: Vec<usize> = shards.iter().map(|f| results(f).len()).collect();
    assert!(sizes.iter().all(|&n| n > 0 && n % 2 == 0), "{sizes:?}");
    let merged_file = dir.path().join("merged.jsonl");
    let shard_paths: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let merge_args = [Path::new("merge"), Path::new("-o"), &merged_file];
    let merged = run_match(&[&merge_args[..], &shard_paths].concat());
    assert_eq!(
        String::from_utf8_lossy(&merged.stdout),
        String::from_utf8_lossy(&whole.stdout),
        "the same report"
    );
    let untimed = |mut games: Vec<GameRecord>| {
        games.sort_by_key(|g| g.index);
        for g in &mut games {
            for ply in &mut g.moves {
                ply.time_ms = 0;
            }
        }
        games
    };
    assert_eq!(
        untimed(results(&merged_file)),
        untimed(results(&whole_file))
    );
    // Files of different matches do not merge.
    let other = dir.path().join("other.jsonl");
    let mut other_args = args(&other, None);
    other_args[3] = "name=a depth=2".into();
    run_match(&other_args);
    let refused = refused_match(&[Path::new("merge"), &whole_file, &other]);
    assert!(String::from_utf8_lossy(&refused.stderr).contains("differs"));
    // `combine` counts them together, each file's pairs within it: the shards give the
    // whole match's report, and two matches give the sum of their games.
    let combine = |files: &[&Path]| {
        let out = run_match(&[&[Path::new("combine")], files].concat());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(
        combine(&shard_paths),
        String::from_utf8_lossy(&whole.stdout)
    );
    // A missing file (a mistyped name) is an error, not a match of no games.
    let missing = dir.path().join("missing.jsonl");
    for action in ["merge", "combine"] {
        let out = refused_match(&[Path::new(action), &whole_file, &missing]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("cannot read") && err.contains("missing.jsonl"),
            "{action}: {err}"
        );
    }
    let games_of = |report: &str, name: &str| -> usize {
        report
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {report}"))
    };
    let both = combine(&[&whole_file, &other]);
    let whole_report = String::from_utf8_lossy(&whole.stdout);
    assert_eq!(
        games_of(&both, "a"),
        games_of(&whole_report, "a")
            + results(&other)
                .iter()
                .filter(|g| g.first == "a" || g.second == "a")
                .count()
    );
    // `--same OLD=NEW` counts two names as one engine: the whole match played again with
    // `a` named `a2` combines with it as the whole match does with itself.
    let again = dir.path().join("again.jsonl");
    let mut again_args = args(&again, None);
    again_args[3] = "name=a2 depth=1".into();
    run_match(&again_args);
    let same = |pair: &'static str| {
        [
            Path::new("combine"),
            Path::new("--same"),
            Path::new(pair),
            &whole_file,
            &again,
        ]
    };
    assert_eq!(
        String::from_utf8_lossy(&run_match(&same("a2=a")).stdout),
        combine(&[&whole_file, &whole_file])
    );
    // Engines that played each other, a name no game has, and malformed pairs are refused.
    for (pair, why) in [
        ("a2=b", "played"),
        ("q=a", "no game"),
        ("a2", "OLD=NEW"),
        ("a2=a2", "OLD=NEW"),
    ] {
        let err = String::from_utf8_lossy(&refused_match(&same(pair)).stderr).into_owned();
        assert!(err.contains(why), "{pair}: {err}");
    }
}

#[test]
fn a_fallen_flag_loses_under_the_clock() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clock.jsonl");
    // 4x4 games give each side up to 6 moves: 6 x 250 ms is past a 1 s clock.
    let out = run_match(&[
        "--game",
        "othello4x4",
        "--engine",
        "name=quick depth=2",
        "--engine",
        &format!("name=slow {}", fixture("slow 250")),
        "--clock",
        "1000+0",
        "--opening-plies",
        "0",
        "--results",
        file.to_str().unwrap(),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    let games = results(&file);
    assert_eq!(games.len(), 2, "{report}");
    for g in &games {
        assert_eq!(g.termination, Termination::Fault, "{g:?}");
        let slow_first = g.first == "slow";
        let expected = if slow_first {
            GameResult::SecondWins
        } else {
            GameResult::FirstWins
        };
        assert_eq!(g.result, expected, "{g:?}");
        // The flag fell on the fourth move or later: three fit in the second.
        let slow_moves = move_times(g, usize::from(!slow_first)).len();
        assert!(slow_moves >= 3, "{g:?}");
    }
    let slow = report.lines().find(|l| l.starts_with("slow")).unwrap();
    assert!(slow.ends_with("time 2"), "{report}");
}

#[test]
fn adjudicated_games_end_with_the_exact_score() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("adjudicated.jsonl");
    run_match(&[
        "--game",
        "othello6x6",
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=2",
        "--opening-plies",
        "2",
        "--adjudicate",
        "12",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    assert!(games.len() >= 8, "{}", games.len());
    for g in &games {
        assert_eq!(g.termination, Termination::Adjudicated, "{g:?}");
        let position = replayed(g);
        assert_eq!(position.empties(), Some(12), "{g:?}");
        let engine::game::AnyPosition::Othello(p) = position else {
            panic!("an Othello game")
        };
        let mut tt = engine::search::TranspositionTable::new(16);
        let exact = engine::search::search(
            &p,
            &mut tt,
            &engine::search::SearchParams::default(),
            &engine::search::Limits::depth_or_exact(None),
            &mut |_| {},
        )
        .score
        .value;
        let first = match p.side_to_move() {
            engine::game::Side::First => exact,
            engine::game::Side::Second => -exact,
        };
        assert_eq!(g.score, Some(first), "{g:?}");
        assert_eq!(GameResult::of_score(first), g.result);
    }
}

#[test]
fn rounds_and_an_openings_file_set_the_schedule() {
    let dir = tempfile::tempdir().unwrap();
    let openings = dir.path().join("openings.txt");
    std::fs::write(&openings, "startpos moves d5\n\nstartpos moves b3\n").unwrap();
    let file = dir.path().join("rounds.jsonl");
    run_match(&[
        "--game",
        "othello6x6",
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--openings-file",
        openings.to_str().unwrap(),
        "--rounds",
        "3",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    // Two openings, each with colours swapped, three times over.
    assert_eq!(games.len(), 2 * 2 * 3);
    for opening in ["startpos moves d5", "startpos moves b3"] {
        let of_it: Vec<_> = games.iter().filter(|g| g.opening == opening).collect();
        assert_eq!(of_it.len(), 6, "{opening}: {games:?}");
        let a_first = of_it.iter().filter(|g| g.first == "a").count();
        assert_eq!(a_first, 3, "colours swapped in every round");
    }
}

#[test]
fn deep_openings_are_drawn_for_the_games_asked() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.jsonl");
    run_match(&[
        "--engine",
        "name=a depth=1",
        "--engine",
        "name=b depth=1",
        "--opening-plies",
        "12",
        "--games",
        "6",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    assert_eq!(games.len(), 6);
    let mut openings: Vec<&str> = games.iter().map(|g| g.opening.as_str()).collect();
    openings.sort_unstable();
    openings.dedup();
    assert_eq!(
        openings.len(),
        3,
        "three openings, each with colours swapped"
    );
    for opening in openings {
        assert_eq!(opening.split(' ').count(), 2 + 12, "{opening}");
    }
}

#[test]
fn sprt_stops_a_one_sided_match_early() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("sprt.jsonl");
    // A depth-4 search against a depth-1 one on 6x6, under the test, then `more` options.
    let one_sided = |more: &[&Path]| {
        let options = [
            "--game",
            "othello6x6",
            "--engine",
            "name=strong depth=4",
            "--engine",
            "name=weak depth=1 option.Eval=hand",
            "--opening-plies",
            "3",
            "--games",
            "400",
            "--sprt",
            "0,100,0.05,0.05",
        ]
        .map(Path::new);
        run_match(&[&options[..], more].concat())
    };
    let out = one_sided(&[Path::new("--results"), &file]);
    let report = String::from_utf8_lossy(&out.stdout);
    let games = results(&file);
    assert!(games.len() < 400, "{} games: {report}", games.len());
    assert!(report.contains("H1 accepted"), "{report}");
    // The same test read back from the file, and from the file cut in two at a pair's
    // end (as a test that went on in a second match): the same verdict and LLR.
    let verdict = |report: &str| -> String {
        let line = report.lines().find(|l| l.starts_with("SPRT "));
        line.unwrap_or_else(|| panic!("no SPRT line in {report}"))
            .to_owned()
    };
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let cut = lines.len() / 4 * 2;
    let (first, second) = (
        dir.path().join("first.jsonl"),
        dir.path().join("second.jsonl"),
    );
    std::fs::write(&first, lines[..cut].join("\n") + "\n").unwrap();
    std::fs::write(&second, lines[cut..].join("\n") + "\n").unwrap();
    let sprt = ["--sprt", "0,100,0.05,0.05"].map(Path::new);
    for action in [
        [&[Path::new("merge"), &file], &sprt[..]].concat(),
        [&[Path::new("combine"), &first, &second], &sprt[..]].concat(),
    ] {
        let out = run_match(&action);
        assert_eq!(
            verdict(&String::from_utf8_lossy(&out.stdout)),
            verdict(&report),
            "{action:?}"
        );
    }
    // A negative bound reads as a value, not as an option.
    let out = run_match(&[
        Path::new("combine"),
        &first,
        &second,
        Path::new("--sprt"),
        Path::new("-100,0,0.05,0.05"),
    ]);
    let below = verdict(&String::from_utf8_lossy(&out.stdout));
    assert!(
        below.starts_with("SPRT elo0=-100 elo1=0 ") && below.ends_with("H1 accepted"),
        "{below}"
    );
    // It stopped at the game that decided, not a game later: without its last pair (the
    // games paired by colours decide it) the test is still open.
    assert_eq!(lines.len() % 2, 0, "{report}");
    let open = dir.path().join("open.jsonl");
    std::fs::write(&open, lines[..lines.len() - 2].join("\n") + "\n").unwrap();
    let out = run_match(&[&[Path::new("combine"), &open], &sprt[..]].concat());
    assert!(
        verdict(&String::from_utf8_lossy(&out.stdout)).ends_with("undecided"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The test gone on from the match's later games in a new match of the same schedule
    // (`--sprt-after`): it counts them, so it decides once it has replayed the games
    // before them (the whole match's pairs), and reads back from the two files as it
    // said when it stopped.
    let after = dir.path().join("after.jsonl");
    let out = one_sided(&[
        Path::new("--sprt-after"),
        &second,
        Path::new("--results"),
        &after,
    ]);
    let continued = String::from_utf8_lossy(&out.stdout);
    let played = results(&after).len();
    assert!(played <= cut, "{played} games: {continued}");
    assert!(
        continued.contains(&format!(
            "The SPRT counts {} games: {} of earlier matches, {played} of this one.",
            games.len() - cut + played,
            games.len() - cut
        )),
        "{continued}"
    );
    assert!(verdict(&continued).ends_with("H1 accepted"), "{continued}");
    let combined = run_match(&[Path::new("combine"), &second, &after, sprt[0], sprt[1]]);
    assert_eq!(
        verdict(&String::from_utf8_lossy(&combined.stdout)),
        verdict(&continued)
    );
    // Earlier games of other engines, or no such file: one line, before any game.
    for (engine, earlier) in [
        ("name=other depth=1", first.clone()),
        ("name=weak depth=1", dir.path().join("none.jsonl")),
    ] {
        let out = refused_match(&[
            "--game",
            "othello6x6",
            "--engine",
            "name=strong depth=1",
            "--engine",
            engine,
            "--sprt",
            "0,100,0.05,0.05",
            "--sprt-after",
            earlier.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{engine}: {err}");
        assert!(out.stdout.is_empty(), "{engine}: games were played");
    }
}

/// Our engine in the native protocol under a match clock, its opening book off so that it
/// searches every move with the time manager: no flag falls, and no side uses more than
/// its clock (a 3 s clock; the engine's moves take at most a quarter of what is left).
#[test]
fn the_native_engine_keeps_to_the_match_clock() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clock.jsonl");
    let out = run_match(&[
        "--engine",
        "name=a option.OwnBook=false",
        "--engine",
        "name=b option.OwnBook=false",
        "--clock",
        "3000+20",
        "--opening-plies",
        "0",
        "--results",
        file.to_str().unwrap(),
    ]);
    let report = String::from_utf8_lossy(&out.stdout);
    let games = results(&file);
    assert_eq!(games.len(), 2, "{report}");
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        for side in 0..2 {
            let moves = move_times(g, side);
            let allowed = 3000 + 20 * moves.len() as u64;
            let used: u64 = moves.iter().sum();
            assert!(
                used <= allowed,
                "side {side} used {used} ms of {allowed}: {g:?}"
            );
        }
    }
}

/// Under `--clock`, an NBoard engine is told its clock as the NBoard GUI does (`TI` in the
/// record): our engine in NBoard mode, given no depth, would search to `MidDepth` 10 a
/// move (tens of milliseconds, past a 1.5 s clock within a game); told its clock, it
/// shares the time out and its flag never falls.
#[test]
fn an_nboard_engine_keeps_to_the_match_clock() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("clock.jsonl");
    let engine = engine_binary().display().to_string();
    run_match(&[
        "--engine",
        &format!("name=nb nboard='{engine} --nboard'"),
        "--engine",
        "name=quick depth=1",
        "--clock",
        "1500+0",
        "--opening-plies",
        "1",
        "--results",
        file.to_str().unwrap(),
    ]);
    let games = results(&file);
    assert_eq!(games.len(), 8, "4 first moves, colours swapped");
    for g in &games {
        assert_eq!(g.termination, Termination::Normal, "{g:?}");
        let nb_first = g.first == "nb";
        let used: u64 = move_times(g, usize::from(!nb_first)).iter().sum();
        assert!(used <= 1500, "the NBoard engine used {used} ms of 1500");
    }
}
