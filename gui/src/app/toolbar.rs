//! The toolbar: new game, undo, redo, move now, copy.

use eframe::egui;

use super::App;

impl App {
    pub(super) fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("New game").clicked() {
                self.new_game();
            }
            if ui.button("Undo").clicked() {
                self.undo();
            }
            if ui.button("Redo").clicked() {
                self.redo();
            }
            if ui
                .add_enabled(self.engine_thinking(), egui::Button::new("Move now"))
                .clicked()
            {
                self.move_now();
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
}
