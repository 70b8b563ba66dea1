//! The application: settings, the game, one engine link per side, and the panels.

use std::sync::Arc;

use eframe::egui::{self, Color32, RichText};
use egui_plot::{Line, Plot};
use engine::game::kalah::{MAX_PITS, MAX_SEEDS};
use engine::game::othello::Geometry;
use engine::game::{AnyPosition, GameId, Side};
use protocol::{Algorithm, Bound, Go, Info, Proof};

use crate::board::{self, Overlay};
use crate::engine_link::{EngineLink, LinkEvent, LinkStatus, Purpose};
use crate::game::{GameRecord, RecordError};
use crate::settings::{Controller, EngineSettings, Settings};

/// The whole application state.
pub struct App {
    /// What the user chose (persisted).
    pub settings: Settings,
    game: GameRecord,
    links: [EngineLink; 2],
    /// The last thing worth telling the user (refusals, passes, errors).
    message: String,
    setup_text: String,
    /// Scores from the first player's view, by ply (from the engines' searches).
    scores: Vec<(usize, i32)>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl App {
    /// An app with these settings; `repaint` wakes the UI when an engine sends a line.
    #[must_use]
    pub fn new(settings: Settings, repaint: Arc<dyn Fn() + Send + Sync>) -> App {
        let game = new_game(&settings).unwrap_or_else(|_| {
            GameRecord::new(GameId::Othello(Geometry::Board8x8), "startpos")
                .expect("the standard start exists")
        });
        App {
            settings,
            game,
            links: [EngineLink::default(), EngineLink::default()],
            message: String::new(),
            setup_text: String::new(),
            scores: Vec::new(),
            repaint,
        }
    }

    /// The app as eframe creates it, with the settings of the last run.
    #[must_use]
    pub fn from_creation(cc: &eframe::CreationContext<'_>) -> App {
        let settings = cc
            .storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        let ctx = cc.egui_ctx.clone();
        App::new(settings, Arc::new(move || ctx.request_repaint()))
    }

    /// The game on the board.
    #[must_use]
    pub fn game(&self) -> &GameRecord {
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

    fn side_names(&self) -> [&'static str; 2] {
        match self.game.game() {
            GameId::Othello(_) => ["Black", "White"],
            GameId::Kalah(_) => ["South", "North"],
        }
    }

    fn to_move(&self) -> usize {
        usize::from(self.game.position().side_to_move() == Side::Second)
    }

    /// Starts a new game with the current settings.
    pub fn new_game(&mut self) {
        match new_game(&self.settings) {
            Ok(game) => self.replace_game(game),
            Err(e) => self.message = e.to_string(),
        }
    }

    fn replace_game(&mut self, game: GameRecord) {
        for link in &mut self.links {
            link.abandon();
            if link.is_open() {
                link.send(&protocol::Command::NewGame);
            }
        }
        self.game = game;
        self.scores.clear();
        self.message.clear();
    }

    /// Plays a move for the side to move (a human's click or an engine's answer).
    fn play(&mut self, mv: &str) {
        let names = self.side_names();
        let mover = names[self.to_move()];
        match self.game.play(mv) {
            Ok(()) => {
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
        let position = self.game.position();
        let ply = self.game.cursor();
        // A search for a position no longer on the board is dropped.
        for link in &mut self.links {
            if link.search.as_ref().is_some_and(|s| s.ply != ply) {
                link.abandon();
            }
        }
        if position.is_terminal() {
            for link in &mut self.links {
                link.abandon();
            }
            return;
        }
        let side = self.to_move();
        if self.settings.players[side] == Controller::Engine {
            self.links[1 - side].abandon_if(Purpose::Analysis);
            let engine = self.settings.engines[side].clone();
            self.ensure_started(side, &engine);
            let waiting = self.waiting_for_other(side);
            let link = &mut self.links[side];
            if link.is_open() && link.search.is_none() && !waiting {
                link.search(&self.game, engine.go(), Purpose::Move);
            }
        } else if self.settings.analyse {
            let engine = self.settings.engines[0].clone();
            self.ensure_started(0, &engine);
            let link = &mut self.links[0];
            if link.is_open() && link.search.is_none() {
                let go = Go {
                    algorithm: engine.go().algorithm,
                    infinite: true,
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

    /// True while the other side's engine still owes a move for this ply (never twice).
    fn waiting_for_other(&self, side: usize) -> bool {
        self.links[1 - side]
            .search
            .as_ref()
            .is_some_and(|s| s.purpose == Purpose::Move)
    }

    fn ensure_started(&mut self, side: usize, engine: &EngineSettings) {
        if self.links[side].status == LinkStatus::Off {
            let repaint = Arc::clone(&self.repaint);
            self.links[side].start(&engine.endpoint, &engine.options(), repaint);
        }
    }

    fn on_event(&mut self, side: usize, event: LinkEvent) {
        match event {
            LinkEvent::BestMove { purpose, ply, mv } => {
                if let Some(score) = self.links[side].last_search.as_ref().and_then(final_score) {
                    let first_view = if self.to_move() == 0 { score } else { -score };
                    self.scores.retain(|(p, _)| *p != ply);
                    self.scores.push((ply, first_view));
                    self.scores.sort_unstable();
                }
                let ours = purpose == Purpose::Move
                    && ply == self.game.cursor()
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
                            self.play(&mv);
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

    /// Draws the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.tick();
        egui::Panel::top("toolbar").show(ui, |ui| self.toolbar(ui));
        egui::Panel::left("settings")
            .resizable(true)
            .default_size(260.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.settings_panel(ui));
            });
        egui::Panel::right("analysis")
            .resizable(true)
            .default_size(320.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| self.analysis_panel(ui));
            });
        if self.settings.console {
            egui::Panel::bottom("console")
                .resizable(true)
                .default_size(160.0)
                .show(ui, |ui| self.console(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| self.board_panel(ui));
        // Searches report by channel; keep looking while one runs.
        if self.links.iter().any(|l| l.search.is_some()) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.new_game();
            }
            if ui.button("Undo").clicked() {
                self.undo();
            }
            if ui.button("Redo").clicked() {
                self.game.redo();
            }
            let engine_thinking = self.links.iter().any(|l| {
                l.search
                    .as_ref()
                    .is_some_and(|s| s.purpose == Purpose::Move)
            });
            if ui
                .add_enabled(engine_thinking, egui::Button::new("Move now"))
                .clicked()
            {
                for link in &mut self.links {
                    link.move_now();
                }
            }
            if ui.button("Copy position").clicked() {
                ui.ctx().copy_text(format!(
                    "{} {}",
                    self.game.game(),
                    self.game.position_text()
                ));
            }
            if ui.button("Copy game").clicked() {
                ui.ctx().copy_text(self.game.record_text());
            }
            ui.checkbox(&mut self.settings.console, "Engine console");
        });
    }

    /// Takes back one move; against an engine, back to the human's last turn.
    fn undo(&mut self) {
        self.game.undo();
        let humans = self.settings.players.contains(&Controller::Human);
        while humans
            && self.settings.players[self.to_move()] == Controller::Engine
            && self.game.undo()
        {}
    }

    fn settings_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Game");
        let before = (self.settings.game.clone(), self.settings.start.clone());
        egui::ComboBox::from_label("Board")
            .selected_text(board_label(&self.settings.game))
            .show_ui(ui, |ui| {
                for g in Geometry::ALL {
                    ui.selectable_value(&mut self.settings.game, g.id().to_string(), g.id());
                }
                if !self.settings.game.starts_with("kalah") {
                    ui.selectable_value(&mut self.settings.game, "kalah6x6".to_string(), "kalah");
                }
            });
        if let Ok(GameId::Kalah(rules)) = self.settings.game.parse::<GameId>() {
            let (mut pits, mut seeds) = (rules.pits, rules.seeds);
            ui.horizontal(|ui| {
                let l = ui.label("Pits");
                ui.add(egui::DragValue::new(&mut pits).range(1..=MAX_PITS))
                    .labelled_by(l.id);
                let l = ui.label("Seeds");
                ui.add(egui::DragValue::new(&mut seeds).range(1..=MAX_SEEDS))
                    .labelled_by(l.id);
            });
            self.settings.game = format!("kalah{pits}x{seeds}");
            self.settings.start = "startpos".into();
        } else {
            ui.horizontal(|ui| {
                ui.radio_value(
                    &mut self.settings.start,
                    "startpos".into(),
                    "Standard start",
                );
                ui.radio_value(
                    &mut self.settings.start,
                    "parallel".into(),
                    "Parallel start",
                );
            });
        }
        if before != (self.settings.game.clone(), self.settings.start.clone()) {
            self.new_game();
        }
        ui.separator();
        ui.heading("Players");
        let names = self.side_names();
        for (name, player) in names.iter().zip(&mut self.settings.players) {
            ui.horizontal(|ui| {
                ui.label(*name);
                ui.radio_value(player, Controller::Human, format!("{name} human"));
                ui.radio_value(player, Controller::Engine, format!("{name} engine"));
            });
        }
        ui.checkbox(&mut self.settings.analyse, "Analyse while humans play");
        for (side, name) in names.iter().enumerate() {
            ui.separator();
            self.engine_settings(ui, side, name);
        }
        ui.separator();
        ui.heading("Set up");
        let l = ui.label("Position or game");
        ui.add(egui::TextEdit::multiline(&mut self.setup_text).desired_rows(2))
            .labelled_by(l.id);
        if ui.button("Load position").clicked() {
            match GameRecord::parse(self.game.game(), &self.setup_text) {
                Ok(game) => self.load(game),
                Err(e) => self.message = format!("Cannot set up: {e}"),
            }
        }
        ui.separator();
        let l = ui.label("GGF file");
        ui.text_edit_singleline(&mut self.settings.ggf_path)
            .labelled_by(l.id);
        ui.horizontal(|ui| {
            if ui.button("Open GGF").clicked() {
                self.open_ggf();
            }
            if ui.button("Save GGF").clicked() {
                self.save_ggf();
            }
        });
    }

    fn load(&mut self, game: GameRecord) {
        self.settings.game = game.game().to_string();
        self.replace_game(game);
    }

    /// Opens the first game of the GGF file.
    fn open_ggf(&mut self) {
        let path = self.settings.ggf_path.clone();
        let game = std::fs::read_to_string(&path)
            .map_err(|e| format!("cannot read {path}: {e}"))
            .and_then(|text| engine::ggf::parse_games(&text).map_err(|e| format!("{path}: {e}")))
            .and_then(|games| GameRecord::from_ggf(&games[0]).map_err(|e| e.to_string()));
        match game {
            Ok(game) => {
                self.load(game);
                self.message = format!("Opened {path}.");
            }
            Err(e) => self.message = format!("Cannot open the game: {e}"),
        }
    }

    /// Writes the game on the board to the GGF file (replacing it).
    fn save_ggf(&mut self) {
        let path = self.settings.ggf_path.clone();
        let [black, white] = [0, 1].map(|side| match self.settings.players[side] {
            Controller::Human => "human".to_string(),
            Controller::Engine => match &self.links[side].status {
                LinkStatus::Ready(name) => name.clone(),
                _ => "engine".to_string(),
            },
        });
        let saved = self
            .game
            .to_ggf(&black, &white)
            .map_err(|e| e.to_string())
            .and_then(|ggf| std::fs::write(&path, format!("{ggf}\n")).map_err(|e| e.to_string()));
        self.message = match saved {
            Ok(()) => format!("Saved the game to {path}."),
            Err(e) => format!("Cannot save the game: {e}"),
        };
    }

    fn engine_settings(&mut self, ui: &mut egui::Ui, side: usize, name: &str) {
        ui.heading(format!("{name}'s engine"));
        let e = &mut self.settings.engines[side];
        let l = ui.label(format!(
            "{name} engine (builtin, a command, or tcp:host:port)"
        ));
        ui.text_edit_singleline(&mut e.endpoint).labelled_by(l.id);
        egui::ComboBox::from_label(format!("{name} algorithm"))
            .selected_text(e.algorithm.clone())
            .show_ui(ui, |ui| {
                for a in Algorithm::ALL {
                    ui.selectable_value(&mut e.algorithm, a.name().to_string(), a.name());
                }
            });
        ui.horizontal(|ui| {
            let l = ui.label(format!("{name} depth (0: engine decides)"));
            ui.add(egui::DragValue::new(&mut e.depth).range(0..=60))
                .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label(format!("{name} ms per move (0: none)"));
            ui.add(
                egui::DragValue::new(&mut e.movetime_ms)
                    .range(0..=600_000)
                    .speed(50),
            )
            .labelled_by(l.id);
        });
        ui.horizontal(|ui| {
            let l = ui.label(format!("{name} table MiB"));
            ui.add(egui::DragValue::new(&mut e.hash_mib).range(1..=4096))
                .labelled_by(l.id);
        });
        let link = &self.links[side];
        let (text, colour) = match &link.status {
            LinkStatus::Off => ("not started".to_string(), ui.visuals().weak_text_color()),
            LinkStatus::Connecting => ("starting...".to_string(), ui.visuals().text_color()),
            LinkStatus::Ready(engine) => {
                (format!("ready: {engine}"), Color32::from_rgb(60, 160, 80))
            }
            LinkStatus::Failed(why) => (
                format!("{name}'s engine stopped: {why}"),
                Color32::from_rgb(220, 70, 60),
            ),
        };
        ui.label(RichText::new(text).color(colour));
        if link.seems_hung() {
            ui.label(
                RichText::new(format!("{name}'s engine is not answering."))
                    .color(Color32::from_rgb(220, 140, 40)),
            );
        }
        let label = if matches!(link.status, LinkStatus::Failed(_)) || link.seems_hung() {
            format!("Restart {name}'s engine")
        } else {
            format!("Apply to {name}'s engine")
        };
        if ui.button(label).clicked() {
            let engine = self.settings.engines[side].clone();
            let repaint = Arc::clone(&self.repaint);
            self.links[side].start(&engine.endpoint, &engine.options(), repaint);
        }
    }

    fn board_panel(&mut self, ui: &mut egui::Ui) {
        let position = self.game.position();
        let names = self.side_names();
        let status = self.status_line(&position, names);
        ui.label(RichText::new(status).strong());
        if !self.message.is_empty() {
            ui.label(RichText::new(self.message.clone()).color(Color32::from_rgb(230, 150, 60)));
        }
        let side = self.to_move();
        let human = self.settings.players[side] == Controller::Human && !position.is_terminal();
        let legal = position.legal_moves();
        if human && legal == ["pass"] {
            ui.label(format!("{} has no legal move.", names[side]));
            if ui.button("Pass").clicked() {
                self.play("pass");
            }
        }
        // The PV of the search for this position, or the rest of the one whose first
        // move was just played.
        let cursor = self.game.cursor();
        let last = self.game.last_move().map(str::to_string);
        let pv = self
            .links
            .iter()
            .filter_map(EngineLink::shown_search)
            .find_map(|s| {
                let pv = &s.iterations.last()?.pv;
                if s.ply == cursor {
                    Some(pv.clone())
                } else if s.ply + 1 == cursor && pv.first() == last.as_ref() {
                    Some(pv[1..].to_vec())
                } else {
                    None
                }
            })
            .unwrap_or_default();
        let overlay = Overlay {
            legal: if human { legal } else { Vec::new() },
            last_move: self.game.last_move().map(str::to_string),
            flipped: self
                .game
                .previous()
                .map(|before| board::flipped(&before, &position))
                .unwrap_or_default(),
            pv,
        };
        if let Some(mv) = board::show(ui, &position, &overlay) {
            if !human {
                self.message = format!("It is the engine's turn ({}).", names[side]);
            } else if overlay.legal.contains(&mv) {
                self.play(&mv);
            } else {
                self.message = format!("{mv} is not a legal move here.");
            }
        }
    }

    fn status_line(&self, position: &AnyPosition, names: [&str; 2]) -> String {
        if position.is_terminal() {
            let score = position.final_score();
            let first = if self.to_move() == 0 { score } else { -score };
            return match first.signum() {
                1 => format!("Game over: {} wins by {first}.", names[0]),
                -1 => format!("Game over: {} wins by {}.", names[1], -first),
                _ => "Game over: a draw.".to_string(),
            };
        }
        let side = self.to_move();
        let who = match self.settings.players[side] {
            Controller::Human => "your move",
            Controller::Engine => "engine thinking",
        };
        format!(
            "{} to move ({who}), move {}",
            names[side],
            self.game.cursor() + 1
        )
    }

    fn analysis_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Search");
        let shown = self
            .links
            .iter()
            .filter_map(EngineLink::shown_search)
            .max_by_key(|s| s.started);
        match shown.and_then(|s| s.iterations.last().map(|i| (s, i))) {
            Some((search, info)) => {
                egui::Grid::new("search").num_columns(2).show(ui, |ui| {
                    let row = |ui: &mut egui::Ui, k: &str, v: String| {
                        ui.label(k);
                        ui.label(v);
                        ui.end_row();
                    };
                    row(
                        ui,
                        "Depth",
                        info.depth.map_or("-".into(), |d| d.to_string()),
                    );
                    row(ui, "Score", info.score.map_or("-".into(), score_text));
                    row(
                        ui,
                        "Nodes",
                        info.nodes.map_or("-".into(), |n| n.to_string()),
                    );
                    row(
                        ui,
                        "Nodes/s",
                        info.nps.map_or("-".into(), |n| n.to_string()),
                    );
                    row(
                        ui,
                        "Table hits",
                        info.tthits.map_or("-".into(), |n| n.to_string()),
                    );
                    row(
                        ui,
                        "For",
                        match search.purpose {
                            Purpose::Move => "the engine's move".into(),
                            Purpose::Analysis => "analysis".into(),
                        },
                    );
                });
                ui.label(format!("PV: {}", info.pv.join(" ")));
                bounds_plot(ui, &search.passes, &search.iterations);
            }
            None => {
                ui.label("No search yet.");
            }
        }
        ui.separator();
        ui.heading("Score over the game");
        let points: Vec<[f64; 2]> = self
            .scores
            .iter()
            .map(|&(ply, score)| [ply as f64, f64::from(score)])
            .collect();
        Plot::new("scores")
            .height(120.0)
            .allow_scroll(false)
            .show(ui, |plot| {
                let name = format!("{} ahead", self.side_names()[0]);
                plot.points(egui_plot::Points::new(name.clone(), points.clone()).radius(2.5));
                plot.line(Line::new(name, points));
            });
        ui.separator();
        ui.heading("Moves");
        let mut jump = None;
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(self.game.cursor() == 0, "start")
                .clicked()
            {
                jump = Some(0);
            }
            for (i, mv) in self.game.all_moves().iter().enumerate() {
                let text = format!("{}. {mv}", i + 1);
                if ui
                    .selectable_label(self.game.cursor() == i + 1, text)
                    .clicked()
                {
                    jump = Some(i + 1);
                }
            }
        });
        if let Some(n) = jump {
            self.game.jump(n);
        }
    }

    fn console(&self, ui: &mut egui::Ui) {
        ui.heading("Engine console");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (side, link) in self.links.iter().enumerate() {
                    for line in &link.console {
                        let arrow = if line.outgoing { ">" } else { "<" };
                        ui.monospace(format!("{side}{arrow} {}", line.text));
                    }
                }
            });
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.settings);
    }
}

fn new_game(settings: &Settings) -> Result<GameRecord, RecordError> {
    let id: GameId = settings.game.parse()?;
    GameRecord::new(id, &settings.start)
}

fn board_label(game: &str) -> String {
    if game.starts_with("kalah") {
        "kalah".into()
    } else {
        game.to_string()
    }
}

/// `+4`, `+4 (at least)`, `+12 (solved)`, `+2 (proven win)`.
fn score_text(score: protocol::Score) -> String {
    let bound = match score.bound {
        Bound::Exact => "",
        Bound::Lower => " (at least)",
        Bound::Upper => " (at most)",
    };
    let proof = match (score.proof, score.value.signum()) {
        (Proof::Heuristic, _) => "",
        (Proof::Solved, _) => " (solved)",
        (Proof::Wld, 1) => " (proven win)",
        (Proof::Wld, -1) => " (proven loss)",
        (Proof::Wld, _) => " (proven draw)",
    };
    format!("{:+}{bound}{proof}", score.value)
}

fn final_score(search: &crate::engine_link::Search) -> Option<i32> {
    search
        .iterations
        .last()
        .and_then(|i: &Info| i.score)
        .map(|s| s.value)
}

/// MTD(f)'s bounds pass by pass, and each iteration's score.
fn bounds_plot(ui: &mut egui::Ui, passes: &[(f64, i32, i32, u32)], iterations: &[Info]) {
    let lower: Vec<[f64; 2]> = passes
        .iter()
        .map(|&(x, lo, _, _)| [x, f64::from(lo)])
        .collect();
    let upper: Vec<[f64; 2]> = passes
        .iter()
        .map(|&(x, _, hi, _)| [x, f64::from(hi)])
        .collect();
    let mut pass_of_depth = Vec::new();
    for &(x, _, _, depth) in passes {
        pass_of_depth.push((depth, x));
    }
    let scores: Vec<[f64; 2]> = iterations
        .iter()
        .filter_map(|i| {
            let depth = match i.depth? {
                protocol::Depth::Plies(d) => d,
                protocol::Depth::End => u32::MAX,
            };
            let x = pass_of_depth
                .iter()
                .filter(|(d, _)| *d == depth)
                .map(|(_, x)| *x)
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))?;
            Some([x, f64::from(i.score?.value)])
        })
        .collect();
    ui.label("MTD(f) bounds, pass by pass");
    Plot::new("bounds")
        .height(140.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("upper bound", upper));
            plot.line(Line::new("lower bound", lower));
            plot.points(egui_plot::Points::new("iteration score", scores).radius(3.0));
        });
}

impl EngineLink {
    /// Abandons the running search if it has this purpose.
    pub fn abandon_if(&mut self, purpose: Purpose) {
        if self.search.as_ref().is_some_and(|s| s.purpose == purpose) {
            self.abandon();
        }
    }
}
