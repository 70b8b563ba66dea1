//! The game under the user's control, with no drawing: the settings, the game record,
//! one engine link per side, moves from clicks and from engines, undo, and GGF files. The
//! panels in `app/` show it and call it; tests drive it without a window.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use engine::data_dir::{default_data_dir, kalah_dir};
use engine::game::othello::Geometry;
use engine::game::{AnyPosition, GameId, Side};
use engine::level::Level;
use protocol::{Go, Goal, Info, MultiPv, TimeControl};

use crate::clock::GameClock;
use crate::db_install::Install;
use crate::engine_link::{EngineLink, LinkEvent, LinkStatus, Purpose, Search};
use crate::game::{GameHistory, RecordError, parse_time_control};
use crate::review::{PositionReview, Review};
use crate::settings::{ClockSettings, Controller, Settings, Strength};

/// What there is to show of the position on the board ([`GameControl::analysis_here`]).
#[derive(Clone, Copy, Debug)]
pub enum Analysis<'a> {
    /// A search of this very position (running or finished).
    Search(&'a Search),
    /// The review's values of this position, its best move's line among them.
    Reviewed(&'a PositionReview),
    /// The search whose move (its `bestmove`), just played, led to this position: the
    /// engine's last move, searched or from its book.
    LedHere(&'a Search),
    /// Nothing of this position.
    Nothing,
}

/// The game, its players and their engines.
pub struct GameControl {
    /// What the user chose (persisted).
    pub settings: Settings,
    pub(crate) game: GameHistory,
    pub(crate) links: [EngineLink; 2],
    /// The last thing worth telling the user (refusals, passes, errors).
    pub(crate) message: String,
    /// Scores from the first player's view, by ply (from the engines' searches).
    pub(crate) scores: Vec<(usize, i32)>,
    /// The data directory: the built-in engine finds installed Kalah databases in its
    /// `kalah` folder, where the GUI installs them (the engine's default:
    /// [`engine::data_dir::default_data_dir`]).
    pub data_dir: Option<PathBuf>,
    /// A Kalah database being installed.
    pub(crate) install: Option<Install>,
    /// The user asked for a solve or a hint of this position; it starts once the first
    /// engine is ready.
    asked: Option<(AnyPosition, Purpose)>,
    /// The hint last received, and the position it is for.
    hint: Option<(AnyPosition, String)>,
    /// The clocks of a game played under one.
    clock: Option<GameClock>,
    /// The game's time control, for its record: the clock it was played under, or the
    /// one its GGF file gave.
    time_control: Option<ClockSettings>,
    /// The side whose flag fell: the game is over, lost on time.
    flag_fell: Option<usize>,
    /// The review of a game, under way or done.
    review: Option<Review>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl GameControl {
    /// A game with these settings; `repaint` wakes the UI when an engine sends a line.
    #[must_use]
    pub fn new(settings: Settings, repaint: Arc<dyn Fn() + Send + Sync>) -> GameControl {
        let game = new_game(&settings).unwrap_or_else(|_| {
            GameHistory::new(GameId::Othello(Geometry::Board8x8), "startpos")
                .expect("the standard start exists")
        });
        let mut control = GameControl {
            settings,
            game,
            links: [EngineLink::default(), EngineLink::default()],
            message: String::new(),
            scores: Vec::new(),
            data_dir: default_data_dir(),
            install: None,
            asked: None,
            hint: None,
            clock: None,
            time_control: None,
            flag_fell: None,
            review: None,
            repaint,
        };
        control.set_clock();
        control
    }

    /// The clock of a new game: one when the strength is a clock.
    fn set_clock(&mut self) {
        let clocked = self.settings.strength == Strength::Clock;
        self.clock = clocked.then(|| GameClock::new(&self.settings.clock));
        self.time_control = clocked.then_some(self.settings.clock);
        self.flag_fell = None;
    }

    /// The game's clocks, if it is played under one.
    #[must_use]
    pub fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    /// The side whose flag fell, if one did.
    #[must_use]
    pub fn flag_fell(&self) -> Option<usize> {
        self.flag_fell
    }

    /// True when the game on the board is over: its end reached, or a flag fallen.
    #[must_use]
    pub fn over(&self) -> bool {
        self.flag_fell.is_some() || self.game.position().is_terminal()
    }

    /// The review of the game, under way or done.
    #[must_use]
    pub fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// True while a review runs.
    #[must_use]
    pub fn reviewing(&self) -> bool {
        self.review.as_ref().is_some_and(|r| !r.is_finished())
    }

    /// Starts valuing every move of the game with the first player's engine (the
    /// engines' own moves wait until it ends or is cancelled).
    pub fn start_review(&mut self) {
        if self.game.all_moves().is_empty() {
            self.message = "No moves to review.".into();
            return;
        }
        self.ensure_started(0);
        for link in &mut self.links {
            link.abandon();
        }
        self.review = Some(Review::new(&self.game, self.settings.review_depth));
        self.message.clear();
    }

    /// Puts the board before move `ply` (from 0) of the reviewed game, its moves valued.
    pub fn go_to_reviewed(&mut self, ply: usize) {
        let Some(review) = &self.review else {
            return;
        };
        if self.game.all_moves() != review.game().all_moves() {
            self.game = review.game().clone();
        }
        self.game.jump(ply);
    }

    /// The review's values of the position on the board, if it is one of the reviewed
    /// game's.
    #[must_use]
    pub fn reviewed_here(&self) -> Option<&PositionReview> {
        let review = self.review.as_ref()?;
        let cursor = self.game.cursor();
        let reviewed = review.game().all_moves();
        (cursor <= reviewed.len() && reviewed[..cursor] == *self.game.moves())
            .then(|| review.position(cursor))
            .flatten()
    }

    /// What the search panel and the board's line show of the position on the board:
    /// a search of this very position, else the review's values of it, else the search
    /// whose move was just played to reach it; of the searches, only those that have said
    /// something (a line or book moves).
    #[must_use]
    pub fn analysis_here(&self) -> Analysis<'_> {
        let position = self.game.position();
        // Searches that have said something: a line, or book moves.
        let searches = || {
            self.links
                .iter()
                .filter_map(EngineLink::shown_search)
                .filter(|s| !(s.iterations.is_empty() && s.book.is_empty()))
        };
        let newest = |s: &&Search| s.started;
        if let Some(search) = searches().filter(|s| s.is_of(&position)).max_by_key(newest) {
            return Analysis::Search(search);
        }
        if let Some(reviewed) = self.reviewed_here().filter(|r| r.best_line.is_some()) {
            return Analysis::Reviewed(reviewed);
        }
        searches()
            .filter(|s| s.led_to(&position))
            .max_by_key(newest)
            .map_or(Analysis::Nothing, Analysis::LedHere)
    }

    /// Stops the review; the positions valued so far stay on show.
    pub fn cancel_review(&mut self) {
        self.links[0].abandon_if(Purpose::Review);
        if let Some(review) = &mut self.review
            && !review.is_finished()
        {
            review.stop();
            self.message = "Review cancelled: the positions valued so far are shown.".into();
        }
    }

    /// The `go` of an engine's move for `side`, at the strength chosen.
    fn move_go(&self, side: usize) -> Go {
        let engine = &self.settings.engines[side];
        let go = match (self.settings.strength, &self.clock) {
            (Strength::Custom, _) => return engine.go(),
            (Strength::Clock, Some(clock)) => Go {
                time: Some(TimeControl {
                    time: millis(clock.left(side)).max(1),
                    inc: Some(millis(clock.increment())),
                }),
                ..Go::default()
            },
            (strength, _) => strength.level().go(self.game.position().empties()),
        };
        Go {
            algorithm: engine.search_algorithm,
            ..go
        }
    }

    /// The game on the board.
    #[must_use]
    pub fn game(&self) -> &GameHistory {
        &self.game
    }

    /// The status message.
    #[must_use]
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The link of a side (0: first player).
    #[must_use]
    pub fn link(&self, side: usize) -> &EngineLink {
        &self.links[side]
    }

    /// What a score counts: discs, or Kalah's seeds.
    pub(crate) fn unit(&self) -> &'static str {
        match self.game.game() {
            GameId::Othello(_) => "discs",
            GameId::Kalah(_) => "seeds",
        }
    }

    pub(crate) fn side_names(&self) -> [&'static str; 2] {
        match self.game.game() {
            GameId::Othello(_) => ["Black", "White"],
            GameId::Kalah(_) => ["South", "North"],
        }
    }

    /// True when the board shows an earlier position of the record (moves after it can
    /// be redone): engines do not move there, so a record is never cut by browsing it.
    #[must_use]
    pub fn looking_back(&self) -> bool {
        self.game.cursor() < self.game.all_moves().len()
    }

    /// True when a human plays the side to move.
    #[must_use]
    pub fn to_move_is_human(&self) -> bool {
        self.settings.players[self.to_move()] == Controller::Human
    }

    pub(crate) fn to_move(&self) -> usize {
        usize::from(self.game.position().side_to_move() == Side::Second)
    }

    /// Starts a new game with the current settings.
    pub fn new_game(&mut self) {
        match new_game(&self.settings) {
            Ok(game) => self.replace_game(game),
            Err(e) => self.message = e.to_string(),
        }
    }

    pub(crate) fn replace_game(&mut self, game: GameHistory) {
        for link in &mut self.links {
            link.abandon();
            if link.is_open() {
                link.send(&protocol::Command::NewGame);
            }
        }
        self.game = game;
        self.scores.clear();
        self.message.clear();
        self.review = None;
        self.hint = None;
        self.set_clock();
    }

    /// Plays a move for the side to move (a human's click or an engine's answer).
    pub(crate) fn play(&mut self, mv: &str) {
        let names = self.side_names();
        let side = self.to_move();
        let mover = names[side];
        if self.over() {
            self.message = "The game is over.".into();
            return;
        }
        match self.game.play(mv) {
            Ok(()) => {
                if let Some(clock) = &mut self.clock {
                    let took = clock.moved(side).as_secs_f64();
                    self.game
                        .annotate(self.game.cursor() - 1, |n| n.seconds = Some(took));
                }
                self.message = if mv == "pass" {
                    format!("{mover} has no move and passes.")
                } else {
                    String::new()
                };
                self.scores.retain(|(ply, _)| *ply < self.game.cursor());
            }
            Err(e) => self.message = format!("{mv} is not a legal move: {e}"),
        }
    }

    /// Reads engine output and starts the searches the game needs. Called every frame.
    pub fn tick(&mut self) {
        for side in 0..2 {
            for event in self.links[side].poll() {
                self.on_event(side, event);
            }
        }
        self.poll_install();
        let position = self.game.position();
        // A search for a position no longer on the board is dropped (a review's
        // positions are its own).
        for link in &mut self.links {
            if link
                .search
                .as_ref()
                .is_some_and(|s| !s.is_of(&position) && s.purpose != Purpose::Review)
            {
                link.abandon();
            }
        }
        self.tick_clock();
        if self.reviewing() {
            self.review_next();
            return;
        }
        self.start_asked();
        if self.over() {
            for link in &mut self.links {
                link.abandon();
            }
            return;
        }
        let side = self.to_move();
        if self.settings.players[side] == Controller::Engine && self.looking_back() {
            // An engine's move would replace the rest of the record: it waits.
        } else if self.settings.players[side] == Controller::Engine {
            self.links[1 - side].abandon_if(Purpose::Analysis);
            self.ensure_started(side);
            let waiting = self.waiting_for_other(side);
            let go = self.move_go(side);
            let options = self.settings.strength.options();
            let link = &mut self.links[side];
            if link.is_ready() && link.search.is_none() && !waiting {
                link.configure(&options);
                link.search(&self.game, go, Purpose::Move);
            }
        } else if self.settings.analyse {
            let engine = self.settings.engines[0].clone();
            self.ensure_started(0);
            let link = &mut self.links[0];
            // A solve's result stays on show until the position changes.
            let solved = link
                .last_search
                .as_ref()
                .is_some_and(|s| s.purpose == Purpose::Solve && s.is_of(&position));
            if link.is_ready() && link.search.is_none() && !solved {
                let go = Go {
                    algorithm: engine.search_algorithm,
                    infinite: true,
                    multipv: self.settings.value_all.then_some(MultiPv::All),
                    ..Go::default()
                };
                link.search(&self.game, go, Purpose::Analysis);
            }
        } else {
            for link in &mut self.links {
                link.abandon_if(Purpose::Analysis);
            }
        }
    }

    /// Runs the clock of the side to move while the game is played, and ends the game
    /// when a flag falls.
    fn tick_clock(&mut self) {
        let over = self.over();
        let side = self.to_move();
        let reviewing = self.reviewing();
        let Some(clock) = &mut self.clock else {
            return;
        };
        if over || reviewing {
            clock.stop();
            return;
        }
        clock.run(side);
        if clock.flag_fallen() == Some(side) {
            clock.stop();
            self.flag_fell = Some(side);
            for link in &mut self.links {
                link.abandon();
            }
            let names = self.side_names();
            self.message = format!(
                "{}'s time ran out: {} wins on time.",
                names[side],
                names[1 - side]
            );
        }
    }

    /// Starts the search of the next position the review values, once the engine is free.
    fn review_next(&mut self) {
        let Some(review) = &self.review else {
            return;
        };
        let Some(ply) = review.next_position() else {
            return;
        };
        let link = &mut self.links[0];
        if link.is_ready() && link.search.is_none() {
            link.configure(&Level::top().options());
            link.search(&review.game().at(ply), review.go(ply), Purpose::Review);
        } else if matches!(link.status, LinkStatus::Failed(_)) {
            self.message = "The review stopped: the first player's engine stopped.".into();
            self.cancel_review();
        }
    }

    /// Takes a reviewed position's values; at the review's end, its values become the
    /// game's (graph, notes) and the message says how it went.
    fn on_reviewed(&mut self, ply: usize) {
        let Some(review) = &mut self.review else {
            return;
        };
        if let Some(search) = &self.links[0].last_search {
            review.record(ply, &search.values);
        }
        let same_game = review.game().all_moves().starts_with(self.game.all_moves())
            || self.game.all_moves().starts_with(review.game().all_moves());
        if same_game {
            // The graph fills in as the review goes.
            self.scores = review.values_for_first();
        }
        if !review.is_finished() {
            return;
        }
        if same_game {
            for index in 0..review.game().all_moves().len() {
                let played = &review.game().all_moves()[index];
                if let Some(value) = review.position(index).and_then(|p| p.value_of(played)) {
                    self.game
                        .annotate(index, |n| n.value = Some(f64::from(value)));
                }
            }
        }
        let mistakes = review.mistakes();
        self.message = match mistakes.first() {
            Some(worst) => format!(
                "Review done: the largest loss is {} {}, move {} ({}).",
                worst.loss,
                self.unit(),
                worst.ply + 1,
                worst.played
            ),
            None => "Review done: no move lost anything.".into(),
        };
    }

    /// True while the other side's engine still owes a move for this ply (never twice).
    fn waiting_for_other(&self, side: usize) -> bool {
        self.links[1 - side]
            .search
            .as_ref()
            .is_some_and(|s| s.purpose == Purpose::Move)
    }

    fn ensure_started(&mut self, side: usize) {
        if self.links[side].status == LinkStatus::Off {
            self.restart_engine(side);
        }
    }

    fn on_event(&mut self, side: usize, event: LinkEvent) {
        match event {
            LinkEvent::BestMove { purpose, ply, mv } => {
                if purpose == Purpose::Review {
                    self.on_reviewed(ply);
                    return;
                }
                // The search just finished is the link's last.
                let position = self.game.position();
                let searched_here = self.links[side]
                    .last_search
                    .as_ref()
                    .is_some_and(|s| s.is_of(&position));
                if purpose == Purpose::Hint && searched_here {
                    if let Some(mv) = mv {
                        self.message = format!("Hint: {mv}.");
                        self.hint = Some((position, mv));
                    }
                    return;
                }
                if let Some(score) = self.links[side].last_search.as_ref().and_then(final_score) {
                    let first_view = if self.to_move() == 0 { score } else { -score };
                    self.scores.retain(|(p, _)| *p != ply);
                    self.scores.push((ply, first_view));
                    self.scores.sort_unstable();
                }
                let ours = purpose == Purpose::Move
                    && searched_here
                    && self.settings.players[self.to_move()] == Controller::Engine
                    && self.to_move() == side;
                if !ours {
                    return;
                }
                match mv {
                    Some(mv) => {
                        if self.game.position().play_text(&mv).is_err() {
                            self.message = format!(
                                "The engine of {} played an illegal move ({mv}); it is now played by hand.",
                                self.side_names()[side]
                            );
                            self.settings.players[side] = Controller::Human;
                        } else {
                            let value = self.links[side].last_search.as_ref().and_then(final_score);
                            self.play(&mv);
                            if let Some(value) = value {
                                self.game.annotate(self.game.cursor() - 1, |n| {
                                    n.value = Some(f64::from(value));
                                });
                            }
                        }
                    }
                    None => {
                        self.message = "The engine says the game is over, but it is not.".into();
                        self.settings.players[side] = Controller::Human;
                    }
                }
            }
            LinkEvent::Refused(reason) => {
                self.message = format!("The engine refused a command: {reason}");
            }
        }
    }

    /// Takes back one move; against an engine, back to the human's last turn.
    pub fn undo(&mut self) {
        self.game.undo();
        let humans = self.settings.players.contains(&Controller::Human);
        while humans
            && self.settings.players[self.to_move()] == Controller::Engine
            && self.game.undo()
        {}
    }

    pub(crate) fn load(&mut self, game: GameHistory) {
        self.settings.game = game.game();
        self.replace_game(game);
    }

    /// Opens the first game of the GGF file.
    pub fn open_ggf(&mut self) {
        let path = self.settings.ggf_path.clone();
        let limit = engine::files::SizeLimit::GAME_RECORDS;
        let game = engine::files::read_text(std::path::Path::new(&path), limit)
            .map_err(|e| e.to_string())
            .and_then(|text| engine::ggf::parse_games(&text).map_err(|e| format!("{path}: {e}")))
            .and_then(|games| {
                let clock = games[0].property("TI").and_then(parse_time_control);
                let game = GameHistory::from_ggf(&games[0]).map_err(|e| e.to_string())?;
                Ok((game, clock))
            });
        match game {
            Ok((game, clock)) => {
                self.load(game);
                // A record is reviewed, not played on against the clock.
                self.clock = None;
                self.time_control = clock.map(|(base_ms, increment_ms)| ClockSettings {
                    base_ms,
                    increment_ms,
                    ..self.settings.clock
                });
                self.message = format!("Opened {path}.");
            }
            Err(e) => self.message = format!("Cannot open the game: {e}"),
        }
    }

    /// Writes the game on the board to the GGF file (replacing it).
    pub fn save_ggf(&mut self) {
        let path = self.settings.ggf_path.clone();
        let strength = match self.settings.strength {
            Strength::Level(n) => format!(" level {n}"),
            Strength::Clock | Strength::Custom => String::new(),
        };
        let [black, white] = [0, 1].map(|side| match self.settings.players[side] {
            Controller::Human => "human".to_string(),
            Controller::Engine => match &self.links[side].status {
                LinkStatus::Ready(name) => format!("{name}{strength}"),
                _ => format!("engine{strength}"),
            },
        });
        let saved = self
            .game
            .to_ggf(&black, &white, self.time_control.as_ref())
            .map_err(|e| e.to_string())
            .and_then(|ggf| std::fs::write(&path, format!("{ggf}\n")).map_err(|e| e.to_string()));
        self.message = match saved {
            Ok(()) => format!("Saved the game to {path}."),
            Err(e) => format!("Cannot save the game: {e}"),
        };
    }

    /// Redoes one undone move.
    pub fn redo(&mut self) {
        self.game.redo();
    }

    /// True while an engine searches for its move.
    #[must_use]
    pub fn engine_thinking(&self) -> bool {
        self.links.iter().any(|l| {
            l.search
                .as_ref()
                .is_some_and(|s| s.purpose == Purpose::Move)
        })
    }

    /// Tells the engines searching for a move to play now.
    pub fn move_now(&mut self) {
        for link in &mut self.links {
            link.move_now();
        }
    }

    /// Solves the position on the board with the first player's engine (`go solve`, every
    /// move valued if the analysis shows every move's value); its result is shown until the
    /// position changes.
    pub fn solve(&mut self) {
        self.ask(Purpose::Solve);
    }

    /// Asks the first engine for the move it would play here at its top level, shown on
    /// the board.
    pub fn hint(&mut self) {
        self.ask(Purpose::Hint);
    }

    fn ask(&mut self, purpose: Purpose) {
        if !self.game.position().is_terminal() {
            self.ensure_started(0);
            self.asked = Some((self.game.position(), purpose));
        }
    }

    /// True from a solve's request until its end.
    #[must_use]
    pub fn solving(&self) -> bool {
        self.asked_or_running(Purpose::Solve)
    }

    /// True from a hint's request until the engine answers.
    #[must_use]
    pub fn hinting(&self) -> bool {
        self.asked_or_running(Purpose::Hint)
    }

    fn asked_or_running(&self, purpose: Purpose) -> bool {
        self.asked.is_some_and(|(_, p)| p == purpose)
            || self.links[0]
                .search
                .as_ref()
                .is_some_and(|s| s.purpose == purpose)
    }

    /// The hinted move, if the last hint is for the position on the board.
    #[must_use]
    pub fn hint_shown(&self) -> Option<&str> {
        self.hint
            .as_ref()
            .filter(|(position, _)| *position == self.game.position())
            .map(|(_, mv)| mv.as_str())
    }

    /// Abandons the solve (asked for or running).
    pub fn stop_solving(&mut self) {
        if self.asked.is_some_and(|(_, p)| p == Purpose::Solve) {
            self.asked = None;
        }
        self.links[0].abandon_if(Purpose::Solve);
    }

    /// Starts the solve or hint asked for once the engine is ready (forgotten if the
    /// position changed meanwhile).
    fn start_asked(&mut self) {
        let Some((position, purpose)) = self.asked else {
            return;
        };
        if position != self.game.position() {
            self.asked = None;
            return;
        }
        let link = &mut self.links[0];
        if !link.is_ready()
            || link
                .search
                .as_ref()
                .is_some_and(|s| s.purpose == Purpose::Move)
        {
            return;
        }
        self.asked = None;
        link.configure(&Level::top().options());
        let go = match purpose {
            Purpose::Hint => Level::top().go(None),
            _ => Go {
                goal: Goal::Solve,
                multipv: self.settings.value_all.then_some(MultiPv::All),
                ..Go::default()
            },
        };
        link.search(&self.game, go, purpose);
    }

    /// Starts installing the default Kalah database for the game's board and rules.
    pub fn install_database(&mut self) {
        if let (GameId::Kalah(rules), Some(dir), None) =
            (self.game.game(), self.kalah_dir(), &self.install)
        {
            self.install = Some(Install::start(dir, rules, Arc::clone(&self.repaint)));
        }
    }

    /// Where installed Kalah databases are.
    #[must_use]
    pub fn kalah_dir(&self) -> Option<PathBuf> {
        self.data_dir.as_deref().map(kalah_dir)
    }

    /// Stops the install (what it built is kept for the next).
    pub fn cancel_install(&self) {
        if let Some(install) = &self.install {
            install.cancel();
        }
    }

    fn poll_install(&mut self) {
        let Some(outcome) = self.install.as_ref().and_then(Install::finished) else {
            return;
        };
        self.install = None;
        self.message = match outcome {
            Ok(path) => format!(
                "Kalah database installed: {}; solves use it from now on",
                path.display()
            ),
            Err(e) => format!("Kalah database not installed: {e}"),
        };
    }

    /// (Re)starts a side's engine with its current settings.
    pub fn restart_engine(&mut self, side: usize) {
        let engine = self.settings.engines[side].clone();
        let repaint = Arc::clone(&self.repaint);
        let data_dir = self.data_dir.clone();
        self.links[side].start(&engine.endpoint, &engine.options(), data_dir, repaint);
    }
}

fn new_game(settings: &Settings) -> Result<GameHistory, RecordError> {
    GameHistory::new(settings.game, &settings.start)
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn final_score(search: &Search) -> Option<i32> {
    search
        .iterations
        .last()
        .and_then(|i: &Info| i.score)
        .map(|s| s.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn humans(game: &str) -> GameControl {
        let settings = Settings {
            game: game.parse().unwrap(),
            players: [Controller::Human, Controller::Human],
            ..Settings::default()
        };
        GameControl::new(settings, Arc::new(|| {}))
    }

    #[test]
    fn moves_undo_and_refusals_without_a_window() {
        let mut control = humans("othello8x8");
        control.play("f5");
        control.play("d6");
        assert_eq!(control.game().moves(), ["f5", "d6"]);
        control.play("a1");
        assert!(control.message().contains("a1 is not a legal move"));
        control.undo();
        assert_eq!(control.game().cursor(), 1);
        control.redo();
        assert_eq!(control.game().cursor(), 2);
        // Humans on both sides: no engine was started.
        control.tick();
        assert_eq!(control.link(0).status, LinkStatus::Off);
    }

    /// A finished search of `game`'s board whose line is `pv`.
    fn search_of(game: &GameHistory, purpose: Purpose, pv: &[&str]) -> Search {
        Search {
            id: "g0".into(),
            purpose,
            ply: game.cursor(),
            position: game.position(),
            iterations: vec![Info {
                pv: pv.iter().map(|mv| (*mv).to_string()).collect(),
                ..Info::default()
            }],
            values: crate::move_values::MoveValues::default(),
            book: std::collections::BTreeMap::new(),
            passes: Vec::new(),
            started: std::time::Instant::now(),
            limit: None,
            best: pv.first().map(|mv| (*mv).to_string()),
        }
    }

    #[test]
    fn the_panels_show_only_what_bears_on_the_position_on_the_board() {
        let mut control = humans("othello8x8");
        assert!(matches!(control.analysis_here(), Analysis::Nothing));
        // The engine searched the start and played its line's first move.
        control.links[0].last_search =
            Some(search_of(&control.game, Purpose::Move, &["f5", "d6", "c3"]));
        control.play("f5");
        let position = control.game.position();
        match control.analysis_here() {
            Analysis::LedHere(s) => assert_eq!(s.line_from(&position).unwrap(), ["d6", "c3"]),
            other => panic!("expected the search that led here, got {other:?}"),
        }
        // Another move played instead: that search says nothing of this position.
        control.undo();
        control.play("d3");
        assert!(matches!(control.analysis_here(), Analysis::Nothing));
        // A search of this very position comes first.
        control.links[1].last_search = Some(search_of(&control.game, Purpose::Analysis, &["c3"]));
        match control.analysis_here() {
            Analysis::Search(s) => {
                assert_eq!(s.line_from(&control.game.position()).unwrap(), ["c3"])
            }
            other => panic!("expected the search of this position, got {other:?}"),
        }
        // The same number of moves from another start (White to move first) is another
        // position.
        let mut other_start = humans("othello8x8");
        other_start.game = GameHistory::new(
            "othello8x8".parse().unwrap(),
            "---------------------------OX------XO--------------------------- O",
        )
        .unwrap();
        let standard = humans("othello8x8");
        other_start.links[0].last_search =
            Some(search_of(&standard.game, Purpose::Analysis, &["f5"]));
        assert!(matches!(other_start.analysis_here(), Analysis::Nothing));
    }

    #[test]
    fn a_hint_is_shown_only_at_its_position() {
        let mut control = humans("othello8x8");
        control.play("f5");
        control.hint = Some((control.game.position(), "d6".into()));
        assert_eq!(control.hint_shown(), Some("d6"));
        // As many moves, another position: the hint is not for it.
        control.undo();
        control.play("d3");
        assert_eq!(control.hint_shown(), None);
        control.undo();
        control.play("f5");
        assert_eq!(control.hint_shown(), Some("d6"));
    }

    #[test]
    fn games_go_to_ggf_and_back() {
        let dir = tempfile::tempdir().unwrap();
        let mut control = humans("othello8x8");
        control.settings.ggf_path = dir.path().join("game.ggf").display().to_string();
        control.play("f5");
        control.play("d6");
        control.save_ggf();
        assert!(
            control.message().starts_with("Saved"),
            "{}",
            control.message()
        );
        control.new_game();
        assert!(control.game().moves().is_empty());
        control.open_ggf();
        assert_eq!(control.game().moves(), ["f5", "d6"]);
        // An engine's name says its level.
        control.settings.players[1] = Controller::Engine;
        control.settings.strength = Strength::Level(3);
        control.save_ggf();
        let text = std::fs::read_to_string(&control.settings.ggf_path).unwrap();
        assert!(text.contains("PB[human]PW[engine level 3]"), "{text}");
        // Kalah has no GGF: a clear refusal, the game kept.
        let mut kalah = humans("kalah4x3");
        kalah.settings.ggf_path = control.settings.ggf_path.clone();
        kalah.play("1");
        kalah.save_ggf();
        assert!(
            kalah.message().contains("8x8 Othello"),
            "{}",
            kalah.message()
        );
        assert_eq!(kalah.game().moves(), ["1"]);
    }
}
