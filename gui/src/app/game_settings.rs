//! The settings panel: board, start, players, engines, set-up and GGF files.

use eframe::egui::{self, Color32, RichText};
use engine::game::GameId;
use engine::game::kalah::{KalahRules, MAX_PITS, MAX_SEEDS};
use engine::game::othello::Geometry;
use protocol::Algorithm;

use super::App;
use crate::engine_link::LinkStatus;
use crate::game::GameHistory;
use crate::settings::Controller;

/// The algorithm choice that names none: the engine searches its own way (and plays from
/// its book).
const ENGINE_DEFAULT: &str = "engine's default";

impl App {
    pub(super) fn settings_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Game");
        let before = (
            self.control.settings.game,
            self.control.settings.start.clone(),
        );
        egui::ComboBox::from_label("Board")
            .selected_text(board_label(self.control.settings.game))
            .show_ui(ui, |ui| {
                for g in Geometry::ALL {
                    ui.selectable_value(
                        &mut self.control.settings.game,
                        GameId::Othello(g),
                        g.id(),
                    );
                }
                if let (GameId::Othello(_), Ok(kalah)) =
                    (self.control.settings.game, KalahRules::new(6, 6))
                {
                    ui.selectable_value(
                        &mut self.control.settings.game,
                        GameId::Kalah(kalah),
                        "kalah",
                    );
                }
            });
        if let GameId::Kalah(rules) = self.control.settings.game {
            let (mut pits, mut seeds) = (rules.pits, rules.seeds);
            ui.horizontal(|ui| {
                let l = ui.label("Pits");
                ui.add(egui::DragValue::new(&mut pits).range(1..=MAX_PITS))
                    .labelled_by(l.id);
                let l = ui.label("Seeds");
                ui.add(egui::DragValue::new(&mut seeds).range(1..=MAX_SEEDS))
                    .labelled_by(l.id);
            });
            // Sizes within the drag ranges; the rule variant is kept.
            self.control.settings.game = GameId::Kalah(KalahRules {
                pits,
                seeds,
                ..rules
            });
            self.control.settings.start = "startpos".into();
        } else {
            ui.horizontal(|ui| {
                ui.radio_value(
                    &mut self.control.settings.start,
                    "startpos".into(),
                    "Standard start",
                );
                ui.radio_value(
                    &mut self.control.settings.start,
                    "parallel".into(),
                    "Parallel start",
                );
            });
        }
        if before
            != (
                self.control.settings.game,
                self.control.settings.start.clone(),
            )
        {
            self.control.new_game();
        }
        ui.separator();
        ui.heading("Players");
        let names = self.control.side_names();
        for (name, player) in names.iter().zip(&mut self.control.settings.players) {
            ui.horizontal(|ui| {
                ui.label(*name);
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
        let link = &self.control.links[side];
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
            self.control.restart_engine(side);
        }
    }
}

/// The board's name in the list (every Kalah size is "kalah", sized below it).
fn board_label(game: GameId) -> &'static str {
    match game {
        GameId::Othello(g) => g.id(),
        GameId::Kalah(_) => "kalah",
    }
}
