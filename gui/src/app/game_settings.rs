//! The settings panel: the game and its strength, players, set-up and GGF files, and the
//! engines' workbench (folded), each engine's state in view.

use eframe::egui::{self, Color32, RichText};
use engine::game::GameId;
use protocol::Algorithm;

use super::{App, new_game};
use crate::engine_link::LinkStatus;
use crate::game::GameHistory;
use crate::settings::{Controller, Strength};

/// The algorithm choice that names none: the engine searches its own way (and plays from
/// its book).
const ENGINE_DEFAULT: &str = "engine's default";

impl App {
    pub(super) fn settings_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Game");
        let settings = &self.control.settings;
        let start = match (settings.game, settings.start.as_str()) {
            (GameId::Kalah(_), _) => String::new(),
            (_, "parallel") => ", parallel start".into(),
            _ => ", standard start".into(),
        };
        ui.label(format!("{}{start}", game_name(self.control.game.game())));
        let clock = new_game::clock_summary(&settings.clock);
        match &mut self.control.settings.strength {
            // A level changes from the engine's next move.
            Strength::Level(level) => new_game::level_slider(ui, level),
            Strength::Clock => {
                ui.label(clock);
            }
            Strength::Custom => {
                ui.label("Each engine's own settings (Engine section)");
            }
        }
        ui.separator();
        ui.heading("Players");
        let names = self.control.side_names();
        for (name, player) in names.iter().zip(&mut self.control.settings.players) {
            ui.horizontal(|ui| {
                ui.label(format!("{name}:"));
                ui.radio_value(player, Controller::Human, format!("{name} human"));
                ui.radio_value(player, Controller::Engine, format!("{name} engine"));
            });
        }
        ui.checkbox(
            &mut self.control.settings.analyse,
            "Analyse while humans play",
        );
        ui.checkbox(
            &mut self.control.settings.value_all,
            "Show every move's value while analysing",
        );
        ui.separator();
        ui.heading("Set up");
        let l = ui.label("Position or game");
        ui.add(egui::TextEdit::multiline(&mut self.setup_text).desired_rows(2))
            .labelled_by(l.id);
        if ui.button("Load position").clicked() {
            match GameHistory::parse(self.control.game.game(), &self.setup_text) {
                Ok(game) => self.control.load(game),
                Err(e) => self.control.message = format!("Cannot set up: {e}"),
            }
        }
        ui.separator();
        let l = ui.label("GGF file");
        ui.text_edit_singleline(&mut self.control.settings.ggf_path)
            .labelled_by(l.id);
        ui.horizontal(|ui| {
            if ui.button("Open GGF").clicked() {
                self.control.open_ggf();
            }
            if ui.button("Save GGF").clicked() {
                self.control.save_ggf();
            }
        });
        ui.separator();
        // For engine developers: folded until opened. Each engine's state, and its
        // restart, stay in view below it.
        egui::CollapsingHeader::new("Engine")
            .default_open(false)
            .show(ui, |ui| {
                for (side, name) in names.iter().enumerate() {
                    self.engine_settings(ui, side, name);
                    ui.separator();
                }
            });
        for (side, name) in names.iter().enumerate() {
            self.engine_status(ui, side, name);
        }
    }

    fn engine_settings(&mut self, ui: &mut egui::Ui, side: usize, name: &str) {
        ui.heading(format!("{name}'s engine"));
        let kalah = matches!(self.control.settings.game, GameId::Kalah(_));
        let e = &mut self.control.settings.engines[side];
        let l = ui.label(format!(
            "{name} engine (builtin, a command, or tcp:host:port)"
        ));
        ui.text_edit_singleline(&mut e.endpoint).labelled_by(l.id);
        egui::ComboBox::from_label(format!("{name} algorithm"))
            .selected_text(e.search_algorithm.map_or(ENGINE_DEFAULT, Algorithm::name))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut e.search_algorithm, None, ENGINE_DEFAULT);
                for a in Algorithm::ALL {
                    ui.selectable_value(&mut e.search_algorithm, Some(a), a.name());
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
            let l = ui.label(format!("{name} threads"));
            let cores = u32::try_from(engine::cores::available_cores()).unwrap_or(u32::MAX);
            ui.add(egui::DragValue::new(&mut e.threads).range(1..=cores))
                .labelled_by(l.id);
        });
        if kalah {
            ui.horizontal(|ui| {
                let l = ui.label(format!("{name} Kalah database seeds (0: the engine's own)"));
                ui.add(egui::DragValue::new(&mut e.kalah_db_seeds).range(0..=20))
                    .labelled_by(l.id)
                    .on_hover_text(
                        "Boards with at most this many seeds are valued exactly; the engine \
                         builds the database at its first Kalah search (about 3 s for 16 seeds \
                         on 6 pits). 0: our engine solves with the installed database \
                         (see the analysis panel), or builds a small one for a large board",
                    );
            });
        }
        if ui
            .button(format!("Apply to {name}'s engine"))
            .on_hover_text("Restart the engine with these settings")
            .clicked()
        {
            self.control.restart_engine(side);
        }
    }

    /// A side's engine: running, starting, or stopped (and why), with a restart when it
    /// stopped or hangs.
    fn engine_status(&mut self, ui: &mut egui::Ui, side: usize, name: &str) {
        let link = &self.control.links[side];
        let (text, colour) = match &link.status {
            LinkStatus::Off => (
                format!("{name}'s engine: not started"),
                ui.visuals().weak_text_color(),
            ),
            LinkStatus::Connecting => (
                format!("{name}'s engine: starting..."),
                ui.visuals().text_color(),
            ),
            LinkStatus::Ready(engine) => (
                format!("{name}'s engine: {engine}, ready"),
                Color32::from_rgb(60, 160, 80),
            ),
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
        let stuck = matches!(link.status, LinkStatus::Failed(_)) || link.seems_hung();
        if stuck && ui.button(format!("Restart {name}'s engine")).clicked() {
            self.control.restart_engine(side);
        }
    }
}

/// `8x8 Othello`, `Kalah, 6 pits of 4 seeds`.
fn game_name(game: GameId) -> String {
    match game {
        GameId::Othello(g) => format!("{}x{} Othello", g.columns(), g.rows()),
        GameId::Kalah(rules) => format!("Kalah, {} pits of {} seeds", rules.pits, rules.seeds),
    }
}
