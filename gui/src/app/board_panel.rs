//! The board panel: whose move it is, the disc (or store) count, the message, the board with legal moves, the last
//! move, flips and the principal variation.

use eframe::egui::{self, Color32, RichText};
use engine::game::{AnyPosition, Game, Side};

use super::App;
use crate::board::{self, Overlay};
use crate::clock::clock_text;
use crate::control::Analysis;
use crate::engine_link::EngineLink;
use crate::settings::Controller;

impl App {
    pub(super) fn board_panel(&mut self, ui: &mut egui::Ui) {
        let position = self.control.game.position();
        let names = self.control.side_names();
        let status = self.status_line(&position, names);
        ui.label(RichText::new(status).strong());
        self.clocks(ui, names);
        if let Some(text) = self.reviewed_move_text() {
            ui.label(text);
        }
        if !self.control.message.is_empty() {
            ui.label(
                RichText::new(self.control.message.clone()).color(Color32::from_rgb(230, 150, 60)),
            );
        }
        let side = self.control.to_move();
        let human =
            self.control.settings.players[side] == Controller::Human && !self.control.over();
        let legal = position.legal_moves();
        if human && legal == ["pass"] {
            ui.label(format!("{} has no legal move.", names[side]));
            if ui.button("Pass").clicked() {
                self.control.play("pass");
            }
        }
        // The line of what the panels show of this position (the rest of it, when its
        // first move was just played).
        let pv = match self.control.analysis_here() {
            Analysis::Search(s) | Analysis::LedHere(s) => s.line_from(&position).map(<[_]>::to_vec),
            // The review's values of every move are on the board instead.
            Analysis::Reviewed(_) | Analysis::Nothing => None,
        }
        .unwrap_or_default();
        let searches: Vec<_> = self
            .control
            .links
            .iter()
            .filter_map(EngineLink::shown_search)
            .collect();
        // Every move's value, from an analysis of this very position.
        let analysis = searches
            .iter()
            .find(|s| s.is_of(&position) && !s.values.is_empty());
        let mut values: Vec<(String, i32)> = analysis
            .map(|s| {
                s.values
                    .shown()
                    .iter()
                    .filter_map(|(mv, info)| Some((mv.clone(), info.score?.value)))
                    .collect()
            })
            .unwrap_or_default();
        // The book's values, from the analysis of this position that received them.
        let book: Vec<(String, i32)> = searches
            .iter()
            .find(|s| s.is_of(&position) && !s.book.is_empty())
            .map(|s| s.book.iter().map(|(m, v)| (m.clone(), *v)).collect())
            .unwrap_or_default();
        let mut best = analysis.and_then(|s| s.values.best().map(str::to_string));
        // A reviewed position shows the review's values.
        if let Some(reviewed) = self
            .control
            .reviewed_here()
            .filter(|r| !r.values.is_empty())
        {
            values.clone_from(&reviewed.values);
            best = reviewed.best().map(|(mv, _)| mv.to_string());
        }
        let overlay = Overlay {
            legal: if human { legal } else { Vec::new() },
            last_move: self.control.game.last_move().map(str::to_string),
            flipped: self
                .control
                .game
                .previous()
                .map(|before| board::flipped(&before, &position))
                .unwrap_or_default(),
            pv,
            values,
            best,
            book,
            hint: self.control.hint_shown().map(str::to_string),
        };
        if let Some(mv) = board::show(ui, &position, &overlay) {
            if !human {
                self.control.message = format!("It is the engine's turn ({}).", names[side]);
            } else if overlay.legal.contains(&mv) {
                self.control.play(&mv);
            } else {
                self.control.message = format!("{mv} is not a legal move here.");
            }
        }
    }

    /// At a reviewed position: the move played there against the best.
    fn reviewed_move_text(&self) -> Option<String> {
        let reviewed = self.control.reviewed_here()?;
        let cursor = self.control.game.cursor();
        let played = self.control.review()?.game().all_moves().get(cursor)?;
        let value = reviewed.value_of(played)?;
        let (best, best_value) = reviewed.best()?;
        let exact = if reviewed.exact { " (exact)" } else { "" };
        Some(if best_value > value {
            format!(
                "Review: move {} was {played} ({value:+}); best {best} ({best_value:+}): {} lost{exact}.",
                cursor + 1,
                best_value - value
            )
        } else {
            format!(
                "Review: move {} was {played} ({value:+}), a best move{exact}.",
                cursor + 1
            )
        })
    }

    /// Each side's clock, the running one marked.
    fn clocks(&self, ui: &mut egui::Ui, names: [&str; 2]) {
        let Some(clock) = self.control.clock() else {
            return;
        };
        ui.horizontal(|ui| {
            for (side, name) in names.iter().enumerate() {
                let text = format!("{name} {}", clock_text(clock.left(side)));
                let running = clock.running() == Some(side);
                let out = clock.left(side).is_zero();
                let text = RichText::new(if running { format!("▶ {text}") } else { text })
                    .monospace()
                    .size(18.0);
                let text = if out {
                    text.color(Color32::from_rgb(220, 70, 60))
                } else if running {
                    text.strong()
                } else {
                    text
                };
                ui.label(text);
                ui.add_space(16.0);
            }
        });
    }

    fn status_line(&self, position: &AnyPosition, names: [&str; 2]) -> String {
        let counts = tally(position, names);
        if let Some(side) = self.control.flag_fell() {
            return format!(
                "Game over: {} wins on time, {}'s flag fell ({counts}).",
                names[1 - side],
                names[side]
            );
        }
        if position.is_terminal() {
            let score = position.final_score();
            let first = if self.control.to_move() == 0 {
                score
            } else {
                -score
            };
            let result = match first.signum() {
                1 => format!("Game over: {} wins by {first}", names[0]),
                -1 => format!("Game over: {} wins by {}", names[1], -first),
                _ => "Game over: a draw".to_string(),
            };
            return format!("{result} ({counts}).");
        }
        let side = self.control.to_move();
        let who = match self.control.settings.players[side] {
            Controller::Human => "your move",
            Controller::Engine if self.control.looking_back() => {
                "the engine waits while you look back: Redo to the last move to go on"
            }
            Controller::Engine => "engine thinking",
        };
        format!(
            "{} to move ({who}), move {}; {counts}",
            names[side],
            self.control.game.cursor() + 1
        )
    }
}

/// What each side holds, as a player counts it: Othello's discs, Kalah's stores.
fn tally(position: &AnyPosition, names: [&str; 2]) -> String {
    let (what, [first, second]) = match position {
        AnyPosition::Othello(p) => {
            let (mover, other) = (p.me().count_ones(), p.opp().count_ones());
            let counts = if p.side_to_move() == Side::First {
                [mover, other]
            } else {
                [other, mover]
            };
            ("discs", counts)
        }
        AnyPosition::Kalah(p) => ("stores", [p.store(Side::First), p.store(Side::Second)]),
    };
    format!("{what}: {} {first}, {} {second}", names[0], names[1])
}
