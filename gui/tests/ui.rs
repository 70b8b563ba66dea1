//! The real UI driven through its accessibility tree (egui_kittest): a game against the
//! built-in engine, illegal clicks, undo, game over, set-up, and an engine that dies.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use engine::game::Game;
use gui::App;
use gui::engine_link::LinkStatus;
use gui::settings::{ClockSettings, Controller, Settings, Strength};
use protocol::Algorithm;

/// The data directory of this test process: the built-in engine is started once per
/// process, with the data directory of the first app that starts it.
fn data_dir() -> PathBuf {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| tempfile::tempdir().unwrap())
        .path()
        .to_path_buf()
}

fn harness(settings: Settings) -> Harness<'static, App> {
    let mut app = App::new(settings, Arc::new(|| {}));
    app.control_mut().data_dir = Some(data_dir());
    Harness::builder()
        .with_size((1400.0, 900.0))
        // A grid whose column grows (a longer depth such as `12@87%` arriving) takes a
        // frame or two more to settle than egui_kittest's default of 4.
        .with_max_steps(8)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn settings(game: &str, players: [Controller; 2]) -> Settings {
    // Each engine's own settings: a quick fixed depth.
    let mut s = Settings {
        game: game.parse().unwrap(),
        players,
        strength: Strength::Custom,
        ..Settings::default()
    };
    for e in &mut s.engines {
        e.depth = 3;
        e.movetime_ms = 0;
        e.hash_mib = 8;
    }
    s
}

/// Steps the UI until `done` holds (engine replies arrive on other threads).
fn wait_until(h: &mut Harness<'static, App>, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(h.state()) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    h.step();
}

#[test]
fn a_human_move_gets_the_engines_reply() {
    let mut h = harness(settings(
        "othello6x6",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    let mv = h.state().control().game().position().legal_moves()[0].clone();
    h.get_by_label(&format!("{mv} (legal)")).click();
    // The reply may come within the click's own frames.
    wait_until(&mut h, "the engine's reply", |app| {
        app.control().game().cursor() == 2
    });
    assert_eq!(h.state().control().game().moves()[0], mv);
    let reply = &h.state().control().game().moves()[1];
    // The engine's move is legal (the app checked it) and shown as the last move.
    assert!(h.query_by_label_contains("Black to move").is_some());
    assert!(matches!(
        h.state().control().link(1).status,
        LinkStatus::Ready(_)
    ));
    // The search was shown: its principal variation starts with the reply.
    assert!(
        h.query_by_label_contains(&format!("PV: {reply}")).is_some(),
        "no PV starting with {reply} shown"
    );
}

/// Starts a game in which the engine moves first and checks that its first move came from
/// the book: the engine's `info book` lines named it, no search ran, and the search panel
/// says so. Returns the lines sent to the engine.
fn first_move_from_the_book(s: Settings) -> Vec<String> {
    let mut h = harness(s);
    h.run();
    wait_until(&mut h, "the engine's first move", |app| {
        app.control().game().cursor() == 1
    });
    let played = h.state().control().game().moves()[0].clone();
    let search = h.state().control().link(0).last_search.as_ref().unwrap();
    assert!(
        search.book.contains_key(&played),
        "{played} was not a book move: {:?}",
        search.book
    );
    assert!(search.iterations.is_empty(), "answered without a search");
    let book: Vec<String> = search
        .book
        .iter()
        .map(|(mv, value)| format!("{mv} {value:+}"))
        .collect();
    let shown = format!("From the opening book: {}", book.join(", "));
    assert!(h.query_by_label(&shown).is_some(), "'{shown}' not shown");
    sent(&h, 0)
}

#[test]
fn the_engine_plays_from_its_opening_book_as_with_any_other_front() {
    let mut s = settings("othello8x8", [Controller::Engine, Controller::Human]);
    s.engines[0].depth = 0;
    s.engines[0].movetime_ms = 5_000;
    first_move_from_the_book(s);
}

#[test]
fn hint_shows_the_engines_move_on_the_board_until_a_move_is_played() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    h.get_by_label("Hint").click();
    h.run();
    wait_until(&mut h, "the hint", |app| {
        app.control().hint_shown().is_some()
    });
    let hint = h.state().control().hint_shown().unwrap().to_string();
    assert!(
        h.state()
            .control()
            .game()
            .position()
            .legal_moves()
            .contains(&hint)
    );
    // Ringed on its square (which may also show its book value).
    let square = h
        .query_all_by_label_contains(&format!("{hint} (legal"))
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.ends_with(", hint)"));
    let square = square.expect("the hinted square is marked");
    assert!(
        h.query_by_label_contains(&format!("Hint: {hint}"))
            .is_some()
    );
    // Played, the hint is gone: it was for the position before.
    h.get_by_label(&square).click();
    h.run();
    assert_eq!(h.state().control().hint_shown(), None);
}

#[test]
fn an_illegal_click_is_refused_and_undo_takes_a_move_back() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Human],
    ));
    h.run();
    h.get_by_label("a1").click();
    h.run();
    assert!(h.state().control().game().moves().is_empty());
    assert!(
        h.state()
            .control()
            .message()
            .contains("a1 is not a legal move"),
        "{}",
        h.state().control().message()
    );
    assert!(
        h.query_by_label_contains("a1 is not a legal move")
            .is_some()
    );
    h.get_by_label("f5 (legal)").click();
    h.run();
    h.get_by_label("d6 (legal)").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["f5", "d6"]);
    assert!(
        h.query_by_label_contains("discs: Black 3, White 3")
            .is_some()
    );
    h.get_by_label("Undo").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["f5"]);
    assert!(
        h.query_by_label_contains("discs: Black 4, White 1")
            .is_some()
    );
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["f5", "d6"]);
    // The move list jumps back.
    h.get_by_label("1. f5").click();
    h.run();
    assert_eq!(h.state().control().game().cursor(), 1);
}

#[test]
fn setting_up_a_position_and_playing_to_the_end() {
    let mut h = harness(settings(
        "othello4x4",
        [Controller::Human, Controller::Human],
    ));
    h.run();
    // A 4x4 game one move from its end.
    let (position, moves) = e2e_position();
    let text = format!("othello4x4 startpos moves {}", moves.join(" "));
    h.get_by_label("Position or game").focus();
    h.get_by_label("Position or game").type_text(&text);
    h.step();
    h.get_by_label("Load position").click();
    h.run();
    assert_eq!(h.state().control().game().moves().len(), moves.len());
    let last = position.legal_moves()[0].clone();
    h.get_by_label(&format!("{last} (legal)")).click();
    h.run();
    h.step();
    assert!(h.state().control().game().position().is_terminal());
    // The disc count adds up: a full 4x4 board, or the empties the game ended with.
    assert_final_count_adds_up(&h, 16);
}

/// At a game's end, the status line's disc count is the board's, and with the empty
/// squares it makes the board's size.
fn assert_final_count_adds_up(h: &Harness<'static, App>, squares: u32) {
    let engine::game::AnyPosition::Othello(end) = h.state().control().game().position() else {
        unreachable!()
    };
    let (black, white) = if end.side_to_move() == engine::game::Side::First {
        (end.me().count_ones(), end.opp().count_ones())
    } else {
        (end.opp().count_ones(), end.me().count_ones())
    };
    assert_eq!(black + white + end.empty().count_ones(), squares);
    assert!(h.query_by_label_contains("Game over").is_some());
    assert!(
        h.query_by_label_contains(&format!("discs: Black {black}, White {white})"))
            .is_some()
    );
}

/// A 4x4 game played by first legal moves up to one move before its end.
fn e2e_position() -> (engine::game::AnyPosition, Vec<String>) {
    let id: engine::game::GameId = "othello4x4".parse().unwrap();
    let mut p = id.position("startpos").unwrap();
    let mut line: Vec<(engine::game::AnyPosition, String)> = Vec::new();
    while !p.is_terminal() {
        let mv = p.legal_moves()[0].clone();
        line.push((p, mv.clone()));
        p = p.play_text(&mv).unwrap();
    }
    // Back up to the last position whose move is not a pass.
    while line.last().is_some_and(|(_, mv)| mv == "pass") {
        line.pop();
    }
    let (before, _) = line.pop().unwrap();
    (before, line.into_iter().map(|(_, mv)| mv).collect())
}

#[test]
fn an_engine_that_dies_is_reported_and_the_game_is_kept() {
    let mut s = settings("othello8x8", [Controller::Engine, Controller::Human]);
    s.engines[0].endpoint = "sh -c 'exit 3'".into();
    let mut h = harness(s);
    wait_until(&mut h, "the failure", |app| {
        matches!(app.control().link(0).status, LinkStatus::Failed(_))
    });
    assert!(
        h.query_by_label_contains("Black's engine stopped")
            .is_some()
    );
    assert!(h.query_by_label("Restart Black's engine").is_some());
    assert_eq!(h.state().control().game().cursor(), 0, "the game is kept");
    // Switching that side to the built-in engine and restarting recovers.
    h.state_mut().control_mut().settings.engines[0].endpoint = "builtin".into();
    h.get_by_label("Restart Black's engine").click();
    wait_until(&mut h, "the restarted engine's move", |app| {
        app.control().game().cursor() == 1
    });
}

#[test]
fn kalah_pits_are_played_by_clicking() {
    let mut h = harness(settings("kalah6x4", [Controller::Human, Controller::Human]));
    h.run();
    h.get_by_label("South pit 3 (legal)").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["3"]);
    // The last seed of pit 3 lands in the store: South moves again.
    assert!(h.query_by_label_contains("South to move").is_some());
}

#[test]
fn a_kalah_engine_with_a_database_replies() {
    let mut s = settings("kalah4x3", [Controller::Human, Controller::Engine]);
    s.engines[1].kalah_db_seeds = 10;
    let mut h = harness(s);
    h.run();
    // The setting is offered for Kalah, one per engine, in the Engine section.
    h.get_by_label("Engine").click();
    h.run();
    assert!(
        h.query_all_by_label_contains("Kalah database seeds")
            .count()
            >= 2
    );
    h.get_by_label("South pit 1 (legal)").click();
    h.run();
    wait_until(&mut h, "the engine's reply", |app| {
        app.control().game().position().side_to_move() == engine::game::Side::First
            && app.control().game().cursor() >= 2
    });
    assert!(matches!(
        h.state().control().link(1).status,
        LinkStatus::Ready(_)
    ));
}

/// A Kalah board without a database offers to install one; the install shows its progress,
/// then the database, and a solve says its score came with the database's help.
#[test]
fn a_kalah_database_is_installed_from_the_gui_and_solves_use_it() {
    let mut h = harness(settings("kalah2x3", [Controller::Human, Controller::Human]));
    h.run();
    assert!(
        h.query_by_label_contains("No Kalah database installed for 2 pits")
            .is_some()
    );
    h.get_by_label("Install the Kalah database (16 seeds, 5 kB)")
        .click();
    h.run();
    wait_until(&mut h, "the install", |app| {
        app.control().message().contains("Kalah database installed")
    });
    assert!(
        h.query_by_label_contains("Kalah database: kalah2-16.db")
            .is_some()
    );
    h.get_by_label("Solve").click();
    h.run();
    // While it runs (or until the engine is ready) the button stops it; a 2-pit board
    // solves at once, so only the end is checked.
    wait_until(&mut h, "the solve", |app| {
        app.control().link(0).search.is_none() && app.control().link(0).last_search.is_some()
    });
    assert!(
        h.query_by_label_contains("(solved with the database)")
            .is_some(),
        "the score says a database valued it"
    );
}

/// A solve of the opening runs until stopped: the Solve button becomes Stop solving.
#[test]
fn a_long_solve_is_stopped_from_its_button() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Human],
    ));
    h.run();
    h.get_by_label("Solve").click();
    h.run();
    wait_until(&mut h, "the solve to start", |app| {
        app.control().link(0).search.is_some()
    });
    h.get_by_label("Stop solving").click();
    h.run();
    assert!(h.state().control().link(0).search.is_none());
    assert!(h.query_by_label("Solve").is_some());
    // The engine stopped too: its `bestmove` came (the console shows it), after the stop.
    wait_until(&mut h, "the engine's bestmove after the stop", |app| {
        let console = &app.control().link(0).console;
        let stop = console.iter().rposition(|l| l.outgoing && l.text == "stop");
        stop.is_some_and(|at| {
            console
                .iter()
                .skip(at)
                .any(|l| !l.outgoing && l.text.starts_with("bestmove"))
        })
    });
}

#[test]
fn every_control_has_an_accessible_label() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    let unlabeled: Vec<String> = h
        .query_all(egui_kittest::kittest::by().predicate(|n| {
            use egui::accesskit::Role;
            matches!(
                n.role(),
                Role::Button
                    | Role::CheckBox
                    | Role::RadioButton
                    | Role::TextInput
                    | Role::SpinButton
                    | Role::ComboBox
            )
        }))
        .filter(|n| {
            n.accesskit_node()
                .label()
                .is_none_or(|l| l.trim().is_empty())
        })
        .map(|n| format!("{:?}", n.accesskit_node().role()))
        .collect();
    assert!(unlabeled.is_empty(), "unlabeled controls: {unlabeled:?}");
}

#[test]
fn games_are_saved_and_opened_as_ggf() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Human],
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.ggf");
    h.state_mut().control_mut().settings.ggf_path = path.display().to_string();
    h.run();
    for mv in ["f5", "d6"] {
        h.get_by_label(&format!("{mv} (legal)")).click();
        h.run();
    }
    h.get_by_label("Save GGF").click();
    h.run();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.starts_with("(;GM[Othello]") && text.contains("B[F5]W[D6]"),
        "{text}"
    );
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("Start game").click();
    h.run();
    assert!(h.state().control().game().moves().is_empty());
    h.get_by_label("Open GGF").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["f5", "d6"]);
    std::fs::remove_file(&path).ok();
    // A Kalah game cannot be saved as GGF, and says so.
    let mut k = harness(settings("kalah6x4", [Controller::Human, Controller::Human]));
    k.run();
    k.get_by_label("Save GGF").click();
    k.run();
    assert!(
        k.state().control().message().contains("Cannot save"),
        "{}",
        k.state().control().message()
    );
}

/// Steps the UI until every one of `labels` shows a value.
fn wait_for_values(h: &mut Harness<'static, App>, labels: &[String]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !labels.iter().all(|l| {
        h.query_by_label_contains(&format!("{l} (legal, value "))
            .is_some()
    }) {
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {labels:?}"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The squares or pits shown with a value: (name, value, marked best).
fn shown_values(h: &Harness<'static, App>) -> Vec<(String, i32, bool)> {
    h.query_all_by_label_contains(" (legal, value ")
        .filter_map(|n| {
            let label = n.accesskit_node().label()?;
            let (name, notes) = label.split_once(" (legal, value ")?;
            let notes = notes.strip_suffix(')')?;
            // A book value, when the move has one, comes last.
            let notes = notes.split(", book ").next()?;
            let (value, best) = match notes.strip_suffix(", best") {
                Some(value) => (value, true),
                None => (notes, false),
            };
            Some((name.to_string(), value.parse().ok()?, best))
        })
        .collect()
}

#[test]
fn analysis_writes_the_book_value_on_every_book_move() {
    let mut s = settings("othello8x8", [Controller::Human, Controller::Human]);
    s.analyse = true;
    let mut h = harness(s);
    let book = engine::book::Book::builtin();
    let start: engine::game::GameId = "othello8x8".parse().unwrap();
    let engine::game::AnyPosition::Othello(position) = start.position("startpos").unwrap() else {
        unreachable!()
    };
    let expected = book.moves(&position);
    assert_eq!(expected.len(), 4);
    let deadline = Instant::now() + Duration::from_secs(30);
    for m in &expected {
        let label = format!("book {:+})", m.value);
        while !h.query_all_by_label_contains(&label).any(|n| {
            n.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(&m.mv.to_string()))
        }) {
            assert!(Instant::now() < deadline, "no book value on {}", m.mv);
            h.step();
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn analysis_shows_every_legal_move_s_value_and_the_best() {
    let mut s = settings("othello8x8", [Controller::Human, Controller::Human]);
    s.analyse = true;
    let mut h = harness(s);
    // The four opening moves, each labelled with its value once the analysis has them.
    let squares = ["c4", "d3", "e6", "f5"].map(String::from);
    wait_for_values(&mut h, &squares);
    let values = shown_values(&h);
    assert_eq!(values.len(), 4, "{values:?}");
    let best: Vec<_> = values.iter().filter(|v| v.2).collect();
    assert_eq!(best.len(), 1, "one best move: {values:?}");
    assert_eq!(
        best[0].1,
        values.iter().map(|v| v.1).max().unwrap(),
        "the best has the highest value: {values:?}"
    );
    // Switched off, the next analysis shows only the best move's line: no values.
    h.get_by_label("Show every move's value while analysing")
        .click();
    h.step();
    h.get_by_label_contains("f5 (legal").click();
    h.run();
    assert_eq!(h.state().control().game().moves(), ["f5"]);
    let replies = ["d6", "f4", "f6"].map(|mv| format!("PV: {mv}"));
    let deadline = Instant::now() + Duration::from_secs(30);
    while !replies
        .iter()
        .any(|pv| h.query_by_label_contains(pv).is_some())
    {
        assert!(
            Instant::now() < deadline,
            "no analysis of the position after f5"
        );
        h.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    let values = shown_values(&h);
    assert!(values.is_empty(), "values shown: {values:?}");
    // Kalah: the mover's pits, not the other side's pits of the same numbers.
    let mut k = settings("kalah6x4", [Controller::Human, Controller::Human]);
    k.analyse = true;
    let mut h = harness(k);
    let pits: Vec<String> = (1..=6).map(|i| format!("South pit {i}")).collect();
    wait_for_values(&mut h, &pits);
    assert!(h.query_by_label_contains("North pit 1 (").is_none());
    let values = shown_values(&h);
    assert_eq!(values.len(), 6, "{values:?}");
    assert_eq!(values.iter().filter(|v| v.2).count(), 1, "{values:?}");
}

/// Clicks the first legal move (or the pass) while it is the human's turn.
fn play_first_legal_move(h: &mut Harness<'static, App>) {
    let legal = h.state().control().game().position().legal_moves();
    if legal == ["pass"] {
        h.get_by_label("Pass").click();
    } else {
        h.get_by_label(&format!("{} (legal)", legal[0])).click();
    }
    h.run();
}

/// The lines the app sent to a side's engine.
fn sent(h: &Harness<'static, App>, side: usize) -> Vec<String> {
    h.state()
        .control()
        .link(side)
        .console
        .iter()
        .filter(|l| l.outgoing)
        .map(|l| l.text.clone())
        .collect()
}

#[test]
fn a_whole_game_at_the_lowest_level_ends_with_a_result_that_adds_up() {
    let mut s = settings("othello8x8", [Controller::Human, Controller::Engine]);
    s.strength = Strength::Level(1);
    let mut h = harness(s);
    h.run();
    let deadline = Instant::now() + Duration::from_secs(120);
    while !h.state().control().over() {
        assert!(Instant::now() < deadline, "the game did not end");
        if h.state().control().to_move_is_human() {
            play_first_legal_move(&mut h);
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    h.run();
    // Level 1's settings went to the engine: depth 1, no book.
    let lines = sent(&h, 1);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("go ") && l.contains("depth 1"))
    );
    assert!(lines.contains(&"setoption name OwnBook value false".to_string()));
    assert_final_count_adds_up(&h, 64);
}

#[test]
fn at_the_top_level_the_engines_first_move_comes_from_its_book() {
    let mut s = settings("othello8x8", [Controller::Engine, Controller::Human]);
    s.strength = Strength::Level(engine::level::TOP);
    let lines = first_move_from_the_book(s);
    assert!(lines.contains(&"setoption name OwnBook value true".to_string()));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("go ") && l.contains("movetime 1000"))
    );
}

/// Replays a side's clock from the seconds each of its moves took: it never runs out.
fn assert_within_clock(h: &Harness<'static, App>, clock: ClockSettings) {
    let game = h.state().control().game();
    let mut left = [clock.base_ms as f64 / 1000.0; 2];
    for (i, mv) in game.moves().iter().enumerate() {
        let side = usize::from(game.position_at(i).side_to_move() == engine::game::Side::Second);
        let took = game.note(i).seconds.expect("every move's time is kept");
        assert!(
            took < left[side],
            "move {} ({mv}) took {took:.3} s with {:.3} s left",
            i + 1,
            left[side]
        );
        left[side] += clock.increment_ms as f64 / 1000.0 - took;
    }
}

#[test]
fn under_a_short_clock_every_engine_move_keeps_within_its_clock() {
    let clock = ClockSettings {
        base_ms: 4_000,
        increment_ms: 100,
        flag_loses: true,
    };
    let mut s = settings("othello8x8", [Controller::Engine, Controller::Engine]);
    s.strength = Strength::Clock;
    s.clock = clock;
    let mut h = harness(s);
    let deadline = Instant::now() + Duration::from_secs(60);
    while !h.state().control().over() {
        assert!(Instant::now() < deadline, "the game did not end");
        h.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    h.run();
    assert_eq!(h.state().control().flag_fell(), None);
    assert!(h.state().control().game().position().is_terminal());
    assert_within_clock(&h, clock);
    // Each engine was told its clock.
    for side in 0..2 {
        assert!(
            sent(&h, side)
                .iter()
                .any(|l| l.starts_with("go ") && l.contains(" time ") && l.contains("inc 100"))
        );
    }
}

#[test]
fn a_human_whose_flag_falls_loses_unless_that_is_turned_off() {
    let mut s = settings("othello8x8", [Controller::Human, Controller::Engine]);
    s.strength = Strength::Clock;
    s.clock = ClockSettings {
        base_ms: 300,
        increment_ms: 0,
        flag_loses: true,
    };
    let mut h = harness(s.clone());
    wait_until(&mut h, "Black's flag", |app| {
        app.control().flag_fell() == Some(0)
    });
    assert!(
        h.query_by_label_contains("Game over: White wins on time")
            .is_some()
    );
    // The board takes no more moves.
    h.get_by_label("f5").click();
    h.run();
    assert!(h.state().control().game().moves().is_empty());
    // With the loss on time turned off, the clock stops at zero and the game goes on.
    s.clock.flag_loses = false;
    let mut h = harness(s);
    h.run();
    std::thread::sleep(Duration::from_millis(400));
    h.run();
    assert_eq!(h.state().control().flag_fell(), None);
    assert!(h.query_by_label_contains("Black 0:00.0").is_some());
    h.get_by_label("f5 (legal)").click();
    // The engine's reply may come within the same frames as the click, so wait for it:
    // the game goes on past a fallen flag, for both sides.
    wait_until(&mut h, "the engine's reply", |app| {
        app.control().game().moves().len() >= 2
    });
    assert_eq!(h.state().control().game().moves()[0], "f5");
    assert_eq!(h.state().control().flag_fell(), None);
}

/// Every move's exact value for the mover, by our library's solver.
fn exact_values(position: &engine::game::AnyPosition) -> Vec<(String, i32)> {
    let mut tt = engine::search::TranspositionTable::new(16);
    position
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let child = position.play_text(&mv).unwrap();
            let value = match child {
                _ if child.is_terminal() => -child.final_score(),
                engine::game::AnyPosition::Othello(c) => {
                    -engine::search::solve_exact(&c, &mut tt).score.value
                }
                engine::game::AnyPosition::Kalah(_) => unreachable!(),
            };
            (mv, value)
        })
        .collect()
}

#[test]
fn a_review_lists_a_known_mistake_with_its_exact_loss() {
    // 14 empties (engine/data/endgames.txt e1): the review solves every position.
    let start = "---XO-XO--O-XXOXOOOOOOXX-OOXOXXXOOOOOXXX-XOOO-XXXXXXO--XOXXXXX-- X";
    let id: engine::game::GameId = "othello8x8".parse().unwrap();
    let p0 = id.position(start).unwrap();
    let best = |values: &[(String, i32)]| values.iter().max_by_key(|(_, v)| *v).unwrap().clone();
    let (first, _) = best(&exact_values(&p0));
    let p1 = p0.play_text(&first).unwrap();
    let values = exact_values(&p1);
    let (best_reply, best_value) = best(&values);
    let (mistake, worst) = values.iter().min_by_key(|(_, v)| *v).unwrap().clone();
    let loss = best_value - worst;
    assert!(loss > 0, "the position has a mistake to make: {values:?}");
    let p2 = p1.play_text(&mistake).unwrap();
    let (third, _) = best(&exact_values(&p2));
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Human],
    ));
    h.run();
    let text = format!("othello8x8 {start} moves {first} {mistake} {third}");
    h.get_by_label("Position or game").focus();
    h.get_by_label("Position or game").type_text(&text);
    h.step();
    h.get_by_label("Load position").click();
    h.run();
    h.get_by_label("Analyse game").click();
    h.run();
    wait_until(&mut h, "the review", |app| {
        app.control().review().is_some_and(|r| r.is_finished())
    });
    let listed = format!("2. {mistake} (White) lost {loss}, exact: best ");
    let button = h
        .query_by_label_contains(&listed)
        .and_then(|n| n.accesskit_node().label())
        .unwrap_or_else(|| panic!("no '{listed}' listed"));
    // Another move may share the best value; the one named is one of them.
    let named = button.rsplit(' ').next().unwrap().to_string();
    assert!(
        values.iter().any(|(m, v)| *m == named && *v == best_value),
        "{named} is not a best move of {values:?} ({best_reply} is)"
    );
    // The loss is in the move list too, and a click on the mistake goes to its position,
    // its moves valued on the board.
    assert!(
        h.query_by_label_contains(&format!("2. {mistake} (-{loss})"))
            .is_some()
    );
    h.get_by_label(&button).click();
    h.run();
    assert_eq!(h.state().control().game().cursor(), 1);
    assert!(
        h.query_by_label_contains(&format!("Review: move 2 was {mistake} ({worst:+}); best "))
            .is_some()
    );
    for (mv, value) in &values {
        assert!(
            h.query_by_label_contains(&format!("{mv} (legal, value {value:+}"))
                .is_some(),
            "{mv} should show {value:+}"
        );
    }
    // The search panel shows the review of this position, not the review's last search
    // (of the position after move 2).
    let third_values = exact_values(&p2);
    let pv = h
        .query_by_label_contains("PV: ")
        .and_then(|n| n.accesskit_node().value())
        .expect("a PV on show");
    let line: Vec<&str> = pv["PV: ".len()..].split(' ').collect();
    assert!(
        values.iter().any(|(m, v)| m == line[0] && *v == best_value),
        "the PV {pv} does not start with a best move of {values:?}"
    );
    // The review's last search would show a best move of the next position with its value:
    // none of those is a best move of this one with the same value.
    let (_, third_best) = best(&third_values);
    assert!(
        third_best != best_value
            || !third_values
                .iter()
                .any(|(m, v)| *v == third_best && values.iter().any(|(n, w)| n == m && *w == *v)),
        "the two positions share a best move and value: the test cannot tell them apart"
    );
    assert!(
        h.query_by_label(&format!("{best_value:+} (solved)"))
            .is_some()
    );
}

#[test]
fn looking_back_at_a_game_the_engine_waits_and_the_record_is_kept() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    h.get_by_label("f5 (legal)").click();
    h.run();
    wait_until(&mut h, "the engine's reply", |app| {
        app.control().game().cursor() == 2
    });
    // Back at White's turn: the engine would cut the record if it moved there.
    h.get_by_label("1. f5").click();
    h.run();
    std::thread::sleep(Duration::from_millis(300));
    h.run();
    assert_eq!(h.state().control().game().cursor(), 1);
    assert_eq!(h.state().control().game().all_moves().len(), 2);
    assert!(h.query_by_label_contains("the engine waits").is_some());
    h.get_by_label("Redo").click();
    h.run();
    assert_eq!(h.state().control().game().cursor(), 2);
    assert!(
        h.query_by_label_contains("Black to move (your move)")
            .is_some()
    );
}

#[test]
fn the_new_game_dialog_sets_the_colour_and_the_clock() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    h.get_by_label("f5 (legal)").click();
    h.run();
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("White").click();
    h.get_by_label("Clock").click();
    h.run();
    assert!(h.query_by_label("Minutes per side").is_some());
    h.get_by_label("Start game").click();
    h.run();
    let control = h.state().control();
    assert_eq!(
        control.settings.players,
        [Controller::Engine, Controller::Human]
    );
    assert_eq!(control.settings.strength, Strength::Clock);
    assert!(control.clock().is_some());
    // Both clocks on show at five minutes; the engine, Black, moves first on its clock.
    // Its book move can come at once or after a loaded machine's delay, before these
    // checks or after: Black's clock may have run, and may have its 3 s increment, and
    // White's may have started. So each reads five minutes, less at most a minute, plus at
    // most one increment: 4:00 to 5:03.
    for side in ["Black", "White"] {
        let reading = h
            .query_all_by_label_contains(&format!("{side} "))
            // A label's text is its value.
            .filter_map(|n| n.accesskit_node().value())
            .find_map(|text| {
                // `Black 5:00`, or `▶ Black 4:59` while it runs.
                let (_, time) = text.split_once(&format!("{side} "))?;
                let (m, s) = time.split_once(':')?;
                Some(m.parse::<u64>().ok()? * 60 + s.parse::<u64>().ok()?)
            });
        assert!(
            reading.is_some_and(|seconds| (240..=303).contains(&seconds)),
            "{side}'s clock is not on show at five minutes: {reading:?} s"
        );
    }
    wait_until(&mut h, "the engine's first move", |app| {
        app.control().game().cursor() == 1
    });
    // Cancel leaves everything as it was.
    h.get_by_label("New game").click();
    h.run();
    h.get_by_label("both sides").click();
    h.get_by_label("Cancel").click();
    h.run();
    assert_eq!(
        h.state().control().settings.players,
        [Controller::Engine, Controller::Human]
    );
    assert_eq!(h.state().control().game().cursor(), 1);
}

#[test]
fn the_workbench_is_folded_until_opened() {
    let mut h = harness(settings(
        "othello8x8",
        [Controller::Human, Controller::Engine],
    ));
    h.run();
    assert!(h.query_by_label("Black algorithm").is_none());
    h.get_by_label("f5 (legal)").click();
    h.run();
    wait_until(&mut h, "the engine's reply", |app| {
        app.control().game().cursor() == 2
    });
    // The engine's state is in view; its settings and the MTD(f) plot are folded.
    assert!(h.query_by_label_contains("White's engine: ").is_some());
    assert!(
        h.query_by_label_contains("MTD(f) bounds, pass by pass")
            .is_none()
    );
    h.get_by_label("MTD(f) bounds").click();
    h.get_by_label("Engine").click();
    h.run();
    // The engine's default search in Othello (NegaScout) sends no passes: the panel says so.
    assert!(
        h.query_by_label_contains("No MTD(f) passes in this search")
            .is_some()
    );
    assert!(h.query_by_label("Black algorithm").is_some());
    // With MTD(f) asked for, its passes are plotted.
    h.state_mut().control_mut().settings.engines[1].search_algorithm = Some(Algorithm::Mtdf);
    let mv = h.state().control().game().position().legal_moves()[0].clone();
    h.get_by_label(&format!("{mv} (legal)")).click();
    h.run();
    wait_until(&mut h, "the engine's second reply", |app| {
        app.control().game().cursor() == 4
    });
    assert!(
        h.query_by_label_contains("MTD(f) bounds, pass by pass")
            .is_some()
    );
}
