//! Desktop client. For now a bare window; the full client drives the engine through the
//! protocol (see the project's issues).

use eframe::egui;

/// The application state.
#[derive(Default)]
struct GuiApp;

impl eframe::App for GuiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("gamesearch");
            ui.label("Othello and Kalah game-search engine.");
        });
    }
}

fn main() -> eframe::Result {
    eframe::run_native(
        "gamesearch",
        eframe::NativeOptions::default(),
        Box::new(|_cc| Ok(Box::new(GuiApp))),
    )
}
