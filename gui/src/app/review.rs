//! The review section: "Analyse game" with its depth, progress and cancel; then the
//! largest mistakes (a click goes to the position) and every move's loss.

use eframe::egui;

use super::App;
use crate::review::Review;

impl App {
    pub(super) fn review_section(&mut self, ui: &mut egui::Ui) {
        ui.heading("Review");
        if self.control.reviewing() {
            let fraction = self.control.review().map_or(0.0, Review::fraction);
            ui.add(
                egui::ProgressBar::new(fraction)
                    .show_percentage()
                    .text(format!("Valuing every move: {:.0}%", fraction * 100.0)),
            );
            if ui.button("Cancel review").clicked() {
                self.control.cancel_review();
            }
        } else {
            ui.horizontal(|ui| {
                let has_moves = !self.control.game.all_moves().is_empty();
                if ui
                    .add_enabled(has_moves, egui::Button::new("Analyse game"))
                    .on_hover_text(
                        "Value every move of the game with the first player's engine: \
                         each move's loss against the best one",
                    )
                    .clicked()
                {
                    self.control.start_review();
                }
                let l = ui.label("Review depth");
                ui.add(egui::DragValue::new(&mut self.control.settings.review_depth).range(1..=30))
                    .labelled_by(l.id)
                    .on_hover_text(format!(
                        "Depth of each position's search; 8x8 positions of {} empties or \
                         fewer are solved exactly",
                        crate::review::SOLVE_EMPTIES
                    ));
            });
        }
        let Some(review) = self.control.review() else {
            return;
        };
        let names = self.control.side_names();
        let mistakes = review.mistakes();
        let mut jump = None;
        if mistakes.is_empty() {
            if review.is_finished() {
                ui.label("No move lost anything.");
            }
        } else {
            ui.label(format!(
                "Largest mistakes ({} lost against the best move):",
                self.control.unit()
            ));
            for m in &mistakes {
                let mover = review.game().position_at(m.ply).side_to_move();
                let name = names[usize::from(mover == engine::game::Side::Second)];
                let exact = if m.exact { ", exact" } else { "" };
                let text = format!(
                    "{}. {} ({name}) lost {}{exact}: best {}",
                    m.ply + 1,
                    m.played,
                    m.loss,
                    m.best
                );
                if ui
                    .button(text)
                    .on_hover_text("Go to the position, with its moves valued")
                    .clicked()
                {
                    jump = Some(m.ply);
                }
            }
        }
        egui::CollapsingHeader::new("Every move's loss")
            .default_open(false)
            .show(ui, |ui| {
                egui::Grid::new("losses").num_columns(3).show(ui, |ui| {
                    for (ply, mv) in review.game().all_moves().iter().enumerate() {
                        ui.label(format!("{}. {mv}", ply + 1));
                        let valued = review.position(ply);
                        ui.label(
                            valued
                                .and_then(|p| p.value_of(mv))
                                .map_or("-".into(), |v| format!("{v:+}")),
                        );
                        ui.label(review.loss(ply).map_or(String::new(), |l| {
                            if l > 0 {
                                format!("lost {l}")
                            } else {
                                "best".into()
                            }
                        }));
                        ui.end_row();
                    }
                });
            });
        if let Some(ply) = jump {
            self.control.go_to_reviewed(ply);
        }
    }
}
