//! The engine console: every line to and from the engines.

use eframe::egui;

use super::App;

impl App {
    pub(super) fn console(&self, ui: &mut egui::Ui) {
        ui.heading("Engine console");
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for (side, link) in self.control.links.iter().enumerate() {
                    for line in &link.console {
                        let arrow = if line.outgoing { ">" } else { "<" };
                        ui.monospace(format!("{side}{arrow} {}", line.text));
                    }
                }
            });
    }
}
