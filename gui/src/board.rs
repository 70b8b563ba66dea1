//! Drawing the board and turning clicks into moves. Every square and pit is a widget with
//! an accessible label (its move name), so screen readers and tests can find it.

use eframe::egui::{self, Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use engine::game::kalah::Kalah;
use engine::game::othello::Othello;
use engine::game::{AnyPosition, Game, Side};

/// Room for the coordinates around an Othello board.
const MARGIN: f32 = 18.0;

/// The ring around the move a Hint shows.
const HINT_COLOUR: Color32 = Color32::from_rgb(90, 200, 255);

/// What the board shows besides the position.
#[derive(Clone, Debug, Default)]
pub struct Overlay {
    /// Legal moves to mark (only for a human to move).
    pub legal: Vec<String>,
    /// The last move.
    pub last_move: Option<String>,
    /// Squares flipped by the last move (Othello).
    pub flipped: Vec<String>,
    /// The engine's principal variation, numbered on the board.
    pub pv: Vec<String>,
    /// Moves valued by the analysis (multi-PV), with their scores for the side to move.
    pub values: Vec<(String, i32)>,
    /// The best of them.
    pub best: Option<String>,
    /// The opening book's moves, with their book values for the side to move.
    pub book: Vec<(String, i32)>,
    /// The engine's move shown on demand (Hint).
    pub hint: Option<String>,
}

impl Overlay {
    /// The analysis value of `name`, if any.
    fn value(&self, name: &str) -> Option<i32> {
        self.values.iter().find(|(m, _)| m == name).map(|&(_, v)| v)
    }

    /// A square's accessible label: its name, and whether it is legal, its value, the best.
    fn label(&self, name: &str) -> String {
        let mut notes = Vec::new();
        if self.legal.iter().any(|m| m == name) {
            notes.push("legal".to_string());
        }
        if let Some(v) = self.value(name) {
            notes.push(format!("value {v:+}"));
            if self.best.as_deref() == Some(name) {
                notes.push("best".into());
            }
        }
        if let Some(&(_, v)) = self.book.iter().find(|(m, _)| m == name) {
            notes.push(format!("book {v:+}"));
        }
        if self.hint.as_deref() == Some(name) {
            notes.push("hint".into());
        }
        if notes.is_empty() {
            name.to_string()
        } else {
            format!("{name} ({})", notes.join(", "))
        }
    }
}

/// The name of an Othello square (`a1` top-left).
#[must_use]
pub fn square_name(square: u32) -> String {
    format!(
        "{}{}",
        char::from(b'a' + (square % 8) as u8),
        square / 8 + 1
    )
}

/// Shows `position`; returns the move name of a clicked square or pit.
pub fn show(ui: &mut egui::Ui, position: &AnyPosition, overlay: &Overlay) -> Option<String> {
    match position {
        AnyPosition::Othello(p) => othello(ui, p, overlay),
        AnyPosition::Kalah(p) => kalah(ui, p, overlay),
    }
}

fn othello(ui: &mut egui::Ui, p: &Othello, overlay: &Overlay) -> Option<String> {
    let g = p.geometry();
    let (rows, cols) = (g.rows() as f32, g.columns() as f32);
    let available = ui.available_size();
    let cell = ((available.x - MARGIN) / cols)
        .min((available.y - MARGIN) / rows)
        .clamp(24.0, 80.0);
    let (area, _) = ui.allocate_exact_size(
        Vec2::new(cell * cols + MARGIN, cell * rows + MARGIN),
        Sense::hover(),
    );
    let board = Rect::from_min_size(
        area.min + Vec2::splat(MARGIN),
        Vec2::new(cell * cols, cell * rows),
    );
    let painter = ui.painter_at(area);
    let mut clicked = None;
    for row in 0..g.rows() {
        for col in 0..g.columns() {
            let square = row * 8 + col;
            if g.mask() & (1 << square) == 0 {
                continue;
            }
            let name = square_name(square);
            let rect = Rect::from_min_size(
                board.min + Vec2::new(col as f32 * cell, row as f32 * cell),
                Vec2::splat(cell),
            );
            let response =
                ui.interact(rect, ui.scope_id().with(("square", square)), Sense::click());
            let legal = overlay.legal.contains(&name);
            let label = overlay.label(&name);
            response
                .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
            if response.clicked() {
                clicked = Some(name.clone());
            }
            let green = if response.hovered() && legal {
                Color32::from_rgb(40, 130, 70)
            } else {
                Color32::from_rgb(30, 110, 60)
            };
            painter.rect_filled(rect, 0.0, green);
            painter.rect_stroke(
                rect,
                0.0,
                Stroke::new(1.0, Color32::from_gray(20)),
                StrokeKind::Inside,
            );
            let centre = rect.center();
            let radius = cell * 0.4;
            if p.black() & (1 << square) != 0 {
                painter.circle_filled(centre, radius, Color32::from_gray(15));
            } else if p.white() & (1 << square) != 0 {
                painter.circle_filled(centre, radius, Color32::from_gray(235));
            } else if legal {
                painter.circle_filled(
                    centre,
                    cell * 0.1,
                    Color32::from_rgba_unmultiplied(0, 0, 0, 90),
                );
            }
            if overlay.flipped.contains(&name) {
                painter.circle_stroke(
                    centre,
                    radius * 0.5,
                    Stroke::new(2.0, Color32::from_rgb(200, 160, 40)),
                );
            }
            if overlay.last_move.as_deref() == Some(name.as_str()) {
                painter.circle_filled(centre, cell * 0.08, Color32::from_rgb(220, 40, 40));
            }
            if overlay.hint.as_deref() == Some(name.as_str()) {
                painter.circle_stroke(centre, radius, Stroke::new(3.0, HINT_COLOUR));
            }
            if let Some(&(_, v)) = overlay.book.iter().find(|(m, _)| *m == name) {
                // The book's value along the square's top edge, above the search's.
                painter.text(
                    rect.center_top() + Vec2::new(0.0, cell * 0.04),
                    egui::Align2::CENTER_TOP,
                    format!("book {v:+}"),
                    egui::FontId::proportional(cell * 0.18),
                    Color32::from_rgb(150, 210, 255),
                );
            }
            if let Some(v) = overlay.value(&name) {
                // Every move's value on its square, the best one in gold.
                let best = overlay.best.as_deref() == Some(name.as_str());
                let colour = if best {
                    Color32::from_rgb(250, 210, 60)
                } else {
                    Color32::from_gray(225)
                };
                painter.text(
                    centre,
                    egui::Align2::CENTER_CENTER,
                    format!("{v:+}"),
                    egui::FontId::proportional(cell * if best { 0.34 } else { 0.28 }),
                    colour,
                );
                if best {
                    painter.rect_stroke(
                        rect.shrink(2.0),
                        2.0,
                        Stroke::new(2.0, colour),
                        StrokeKind::Inside,
                    );
                }
            } else if overlay.values.is_empty()
                && let Some(i) = overlay.pv.iter().position(|m| *m == name)
            {
                let colour = if i % 2 == 0 {
                    Color32::from_rgba_unmultiplied(240, 200, 60, 200)
                } else {
                    Color32::from_rgba_unmultiplied(120, 180, 255, 200)
                };
                painter.text(
                    centre,
                    egui::Align2::CENTER_CENTER,
                    (i + 1).to_string(),
                    egui::FontId::proportional(cell * 0.35),
                    colour,
                );
            }
        }
    }
    // Coordinates: letters above, numbers to the left.
    let font = egui::FontId::proportional(12.0);
    let colour = ui.visuals().text_color();
    for col in 0..g.columns() {
        let at = Pos2::new(board.min.x + (col as f32 + 0.5) * cell, board.min.y - 3.0);
        let letter = char::from(b'a' + col as u8).to_string();
        painter.text(
            at,
            egui::Align2::CENTER_BOTTOM,
            letter,
            font.clone(),
            colour,
        );
    }
    for row in 0..g.rows() {
        let at = Pos2::new(board.min.x - 5.0, board.min.y + (row as f32 + 0.5) * cell);
        let number = (row + 1).to_string();
        painter.text(at, egui::Align2::RIGHT_CENTER, number, font.clone(), colour);
    }
    clicked
}

fn kalah(ui: &mut egui::Ui, p: &Kalah, overlay: &Overlay) -> Option<String> {
    let pits = usize::from(p.rules().pits);
    let board = p.board();
    let available = ui.available_size();
    let cell = ((available.x - 20.0) / (pits as f32 + 2.0)).clamp(30.0, 90.0);
    let (area, _) = ui.allocate_exact_size(
        Vec2::new(cell * (pits as f32 + 2.0), cell * 2.2),
        Sense::hover(),
    );
    let painter = ui.painter_at(area);
    painter.rect_filled(area, 12.0, Color32::from_rgb(120, 80, 40));
    let mut clicked = None;
    let to_move = p.side_to_move();
    let mut pit = |index: usize, side: Side, number: usize, centre: Pos2| {
        let rect = Rect::from_center_size(centre, Vec2::splat(cell * 0.85));
        let name = number.to_string();
        let playable = to_move == side;
        let legal = playable && overlay.legal.contains(&name);
        let response = ui.interact(rect, ui.scope_id().with(("pit", index)), Sense::click());
        let who = if side == Side::First {
            "South"
        } else {
            "North"
        };
        // Pit numbers repeat on both sides: the overlay (legal moves, values) is the mover's.
        let label = if playable {
            format!("{who} pit {}", overlay.label(&name))
        } else {
            format!("{who} pit {name}")
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
        if response.clicked() && playable {
            clicked = Some(name.clone());
        }
        let fill = if legal && response.hovered() {
            Color32::from_rgb(170, 120, 70)
        } else {
            Color32::from_rgb(150, 100, 55)
        };
        painter.circle_filled(centre, cell * 0.4, fill);
        if playable && overlay.last_move.as_deref() == Some(name.as_str()) {
            painter.circle_stroke(
                centre,
                cell * 0.4,
                Stroke::new(2.0, Color32::from_rgb(220, 40, 40)),
            );
        }
        if playable && overlay.hint.as_deref() == Some(name.as_str()) {
            painter.circle_stroke(centre, cell * 0.45, Stroke::new(3.0, HINT_COLOUR));
        }
        let value = overlay.value(&name).filter(|_| playable);
        let seeds_at = centre - Vec2::new(0.0, if value.is_some() { cell * 0.1 } else { 0.0 });
        painter.text(
            seeds_at,
            egui::Align2::CENTER_CENTER,
            board[index].to_string(),
            egui::FontId::proportional(cell * 0.35),
            Color32::WHITE,
        );
        if let Some(v) = value {
            let best = overlay.best.as_deref() == Some(name.as_str());
            painter.text(
                centre + Vec2::new(0.0, cell * 0.2),
                egui::Align2::CENTER_CENTER,
                format!("{v:+}"),
                egui::FontId::proportional(cell * 0.2),
                if best {
                    Color32::from_rgb(250, 210, 60)
                } else {
                    Color32::from_gray(225)
                },
            );
        }
    };
    // South's pits along the bottom, left to right; North's along the top, right to left.
    for i in 0..pits {
        let x = area.min.x + cell * (i as f32 + 1.5);
        pit(i, Side::First, i + 1, Pos2::new(x, area.max.y - cell * 0.6));
        let xn = area.min.x + cell * ((pits - 1 - i) as f32 + 1.5);
        pit(
            pits + 1 + i,
            Side::Second,
            i + 1,
            Pos2::new(xn, area.min.y + cell * 0.6),
        );
    }
    for (index, x, who) in [
        (pits, area.max.x - cell * 0.5, "South store"),
        (2 * pits + 1, area.min.x + cell * 0.5, "North store"),
    ] {
        let rect = Rect::from_center_size(
            Pos2::new(x, area.center().y),
            Vec2::new(cell * 0.8, cell * 1.8),
        );
        let response = ui.interact(rect, ui.scope_id().with(("store", index)), Sense::hover());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Label, true, format!("{who}: {}", board[index]))
        });
        painter.rect_filled(rect, 10.0, Color32::from_rgb(150, 100, 55));
        painter.text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            board[index].to_string(),
            egui::FontId::proportional(cell * 0.4),
            Color32::WHITE,
        );
    }
    clicked
}

/// Squares whose disc changed colour between two Othello positions.
#[must_use]
pub fn flipped(before: &AnyPosition, after: &AnyPosition) -> Vec<String> {
    match (before, after) {
        (AnyPosition::Othello(a), AnyPosition::Othello(b)) => {
            let changed = (a.black() & b.white()) | (a.white() & b.black());
            (0..64)
                .filter(|s| changed & (1 << s) != 0)
                .map(square_name)
                .collect()
        }
        _ => Vec::new(),
    }
}
