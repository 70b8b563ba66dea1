//! The toolbar: new game, undo, redo, move now, copy.

use eframe::egui;

use super::App;

impl App {
    pub(super) fn toolbar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui
                .button("New game")
                .on_hover_text("Choose the game, your colour and the engine's strength")
                .clicked()
            {
                self.open_new_game();
            }
            if ui.button("Undo").clicked() {
                self.control.undo();
            }
            if ui.button("Redo").clicked() {
                self.control.redo();
            }
            let humans_turn = self.control.to_move_is_human();
            if ui
                .add_enabled(
                    humans_turn && !self.control.over() && !self.control.hinting(),
                    egui::Button::new("Hint"),
                )
                .on_hover_text("Show the move the first player's engine would play")
                .clicked()
            {
                self.control.hint();
            }
            if ui
                .add_enabled(
                    self.control.engine_thinking(),
                    egui::Button::new("Move now"),
                )
                .clicked()
            {
                self.control.move_now();
            }
            if ui.button("Copy position").clicked() {
                ui.ctx().copy_text(format!(
                    "{} {}",
                    self.control.game.game(),
                    self.control.game.position_text()
                ));
            }
            if ui.button("Copy game").clicked() {
                ui.ctx().copy_text(self.control.game.record_text());
            }
            ui.checkbox(&mut self.control.settings.console, "Engine console");
        });
    }
}
