//! The application window: the [`GameControl`] and its panels, one file each under
//! `app/`.

mod analysis;
mod board_panel;
mod console;
mod game_settings;
mod new_game;
mod review;
mod toolbar;

use std::sync::Arc;

use eframe::egui;

use crate::control::GameControl;
use crate::settings::Settings;

/// The game under control, and what only the window holds.
pub struct App {
    control: GameControl,
    /// The set-up text field.
    setup_text: String,
    /// The new-game dialog's settings while it is open.
    new_game: Option<Settings>,
}

impl App {
    /// An app with these settings; `repaint` wakes the UI when an engine sends a line.
    #[must_use]
    pub fn new(settings: Settings, repaint: Arc<dyn Fn() + Send + Sync>) -> App {
        App {
            control: GameControl::new(settings, repaint),
            setup_text: String::new(),
            new_game: None,
        }
    }

    /// The game, its engines and settings, as the panels drive them.
    #[must_use]
    pub fn control(&self) -> &GameControl {
        &self.control
    }

    /// The same, to change (a test switches a side's engine, as the settings panel does).
    pub fn control_mut(&mut self) -> &mut GameControl {
        &mut self.control
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

    /// Draws the whole window.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        self.control.tick();
        self.new_game_dialog(&ui.ctx().clone());
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
        if self.control.settings.console {
            egui::Panel::bottom("console")
                .resizable(true)
                .default_size(160.0)
                .show(ui, |ui| self.console(ui));
        }
        egui::CentralPanel::default().show(ui, |ui| self.board_panel(ui));
        // Searches report by channel, and a clock runs: keep looking.
        let clock_runs = self.control.clock().is_some_and(|c| c.running().is_some());
        if clock_runs || self.control.links.iter().any(|l| l.search.is_some()) {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.show(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, eframe::APP_KEY, &self.control.settings);
    }
}
