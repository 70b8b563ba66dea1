//! The analysis panel: what is known of the position on the board (its search, its review
//! or the search whose move led to it: depth, score, nodes, PV), MTD(f)'s bounds pass
//! by pass, the score over the game, and the move list.

use eframe::egui;
use egui_plot::{Line, Plot};
use protocol::{Bound, Depth, Info, Proof};

use super::App;
use crate::control::Analysis;
use crate::db_install::{DatabaseState, database_state, install_size};
use crate::engine_link::{PassBounds, Purpose};
use engine::game::GameId;
use engine::game::kalah::KalahRules;

impl App {
    pub(super) fn analysis_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Search");
        let over = self.control.game.position().is_terminal();
        if self.control.solving() {
            if ui.button("Stop solving").clicked() {
                self.control.stop_solving();
            }
        } else if ui
            .add_enabled(!over, egui::Button::new("Solve"))
            .on_hover_text("Solve the position exactly with the first player's engine")
            .clicked()
        {
            self.control.solve();
        }
        if let GameId::Kalah(rules) = self.control.game.game() {
            self.kalah_database(ui, rules);
        }
        match self.control.analysis_here() {
            Analysis::Search(search) | Analysis::LedHere(search) => {
                match search.iterations.last() {
                    Some(info) => {
                        search_rows(ui, info, purpose_text(search.purpose));
                        let limit = self.control.game.start_position().max_score();
                        // For engine developers: folded until opened.
                        egui::CollapsingHeader::new("MTD(f) bounds")
                            .default_open(false)
                            .show(ui, |ui| {
                                bounds_plot(ui, &search.passes, &search.iterations, limit);
                            });
                    }
                    // A book move is played without a search: its book is what there is.
                    None => {
                        let moves: Vec<String> = search
                            .book
                            .iter()
                            .map(|(mv, value)| format!("{mv} {value:+}"))
                            .collect();
                        ui.label(format!("From the opening book: {}", moves.join(", ")));
                    }
                }
            }
            Analysis::Reviewed(reviewed) => {
                if let Some(info) = &reviewed.best_line {
                    search_rows(ui, info, purpose_text(Purpose::Review));
                }
            }
            Analysis::Nothing => {
                ui.label("No search of this position yet.");
            }
        }
        ui.separator();
        self.review_section(ui);
        ui.separator();
        ui.heading("Score over the game");
        let points: Vec<[f64; 2]> = self
            .control
            .scores
            .iter()
            .map(|&(ply, score)| [ply as f64, f64::from(score)])
            .collect();
        Plot::new("scores")
            .height(120.0)
            .allow_scroll(false)
            .show(ui, |plot| {
                let name = format!("{} ahead", self.control.side_names()[0]);
                plot.points(egui_plot::Points::new(name.clone(), points.clone()).radius(2.5));
                plot.line(Line::new(name, points));
            });
        ui.separator();
        ui.heading("Moves");
        let mut jump = None;
        ui.horizontal_wrapped(|ui| {
            if ui
                .selectable_label(self.control.game.cursor() == 0, "start")
                .clicked()
            {
                jump = Some(0);
            }
            let review = self.control.review();
            for (i, mv) in self.control.game.all_moves().iter().enumerate() {
                let loss = review
                    .filter(|r| r.game().all_moves().get(i) == Some(mv))
                    .and_then(|r| r.loss(i))
                    .filter(|&l| l > 0);
                let text = match loss {
                    Some(l) => format!("{}. {mv} (-{l})", i + 1),
                    None => format!("{}. {mv}", i + 1),
                };
                if ui
                    .selectable_label(self.control.game.cursor() == i + 1, text)
                    .clicked()
                {
                    jump = Some(i + 1);
                }
            }
        });
        if let Some(n) = jump {
            self.control.game.jump(n);
        }
    }
}

impl App {
    /// The Kalah database our engine would use for this board: installed, being
    /// installed (a bar and a cancel button), or an offer to install it.
    fn kalah_database(&mut self, ui: &mut egui::Ui, rules: KalahRules) {
        let Some(dir) = self.control.kalah_dir() else {
            return;
        };
        if let Some(install) = &self.control.install {
            ui.label(format!(
                "Installing the Kalah database for {} pits",
                install.rules.pits
            ));
            ui.add(egui::ProgressBar::new(install.fraction()).show_percentage());
            if ui.button("Cancel the install").clicked() {
                self.control.cancel_install();
            }
            return;
        }
        match database_state(&dir, rules) {
            DatabaseState::Installed(path, seeds) => {
                let name = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into());
                ui.label(format!(
                    "Kalah database: {name} (boards of at most {seeds} seeds)"
                ));
            }
            DatabaseState::Missing => {
                let (seeds, positions) = install_size(rules);
                ui.label(format!(
                    "No Kalah database installed for {} pits: solves of large boards take \
                     minutes instead of seconds.",
                    rules.pits
                ));
                let text = format!(
                    "Install the Kalah database ({seeds} seeds, {})",
                    size_text(positions)
                );
                if ui
                    .button(text)
                    .on_hover_text(format!(
                        "Builds it into {} on every core (minutes for 5 or 6 pits); our engine \
                         finds it there",
                        dir.display()
                    ))
                    .clicked()
                {
                    self.control.install_database();
                }
            }
        }
    }
}

/// `1.25 GB`, `30 MB`, `5 kB`.
fn size_text(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).max(1.0))
    }
}

/// The rows of one search line: depth, score, nodes, speed, table hits, what it was for,
/// and its principal variation.
fn search_rows(ui: &mut egui::Ui, info: &Info, purpose: &str) {
    egui::Grid::new("search").num_columns(2).show(ui, |ui| {
        let row = |ui: &mut egui::Ui, k: &str, v: String| {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        };
        row(ui, "Depth", depth_text(info));
        row(
            ui,
            "Score",
            info.score
                .map_or("-".into(), |s| score_text(s, info.tbhits)),
        );
        row(
            ui,
            "Nodes",
            info.nodes.map_or("-".into(), |n| n.to_string()),
        );
        row(
            ui,
            "Nodes/s",
            info.nps.map_or("-".into(), |n| n.to_string()),
        );
        row(
            ui,
            "Table hits",
            info.tthits.map_or("-".into(), |n| n.to_string()),
        );
        row(ui, "For", purpose.into());
    });
    ui.label(format!("PV: {}", info.pv.join(" ")));
}

/// What a search was for, as the panel says it.
fn purpose_text(purpose: Purpose) -> &'static str {
    match purpose {
        Purpose::Move => "the engine's move",
        Purpose::Analysis => "analysis",
        Purpose::Solve => "a solve",
        Purpose::Hint => "a hint",
        Purpose::Review => "the review",
    }
}

/// `+4`, `+4 (at least)`, `+12 (solved)`, `+10 (solved with the database)`,
/// `+2 (proven win)`; `tbhits`: positions the search read from an endgame database.
fn score_text(score: protocol::Score, tbhits: Option<u64>) -> String {
    let bound = match score.bound {
        Bound::Exact => "",
        Bound::Lower => " (at least)",
        Bound::Upper => " (at most)",
    };
    let proof = match (score.proof, score.value.signum()) {
        (Proof::Heuristic, _) => "",
        (Proof::Solved, _) if tbhits.is_some() => " (solved with the database)",
        (Proof::Solved, _) => " (solved)",
        (Proof::Wld, 1) => " (proven win)",
        (Proof::Wld, -1) => " (proven loss)",
        (Proof::Wld, _) => " (proven draw)",
    };
    format!("{:+}{bound}{proof}", score.value)
}

/// MTD(f)'s bounds pass by pass, and each iteration's score. A bound still open after a
/// pass (at the edge of the game's score range, `limit`) is drawn as an arrow from the
/// other bound in its direction, not as a point at the edge: plotted at the edge, it would
/// crush the bounds closing in on the score into a line.
fn bounds_plot(ui: &mut egui::Ui, passes: &[PassBounds], iterations: &[Info], limit: i32) {
    if passes.is_empty() {
        ui.label(
            "No MTD(f) passes in this search: the engine searched with another algorithm. \
             Pick mtdf as the engine's algorithm to see them.",
        );
        return;
    }
    let x = |p: &PassBounds| p.number as f64;
    let closed = |v: i32| v.abs() < limit;
    let lower: Vec<[f64; 2]> = passes
        .iter()
        .filter(|p| closed(p.lower))
        .map(|p| [x(p), f64::from(p.lower)])
        .collect();
    let upper: Vec<[f64; 2]> = passes
        .iter()
        .filter(|p| closed(p.upper))
        .map(|p| [x(p), f64::from(p.upper)])
        .collect();
    let scores: Vec<[f64; 2]> = iterations
        .iter()
        .filter_map(|i| {
            let last_pass = passes.iter().rev().find(|p| Some(p.depth) == i.depth)?;
            Some([x(last_pass), f64::from(i.score?.value)])
        })
        .collect();
    // Arrows a tenth of the values shown long (at least one disc or seed).
    let shown = lower.iter().chain(&upper).chain(&scores).map(|p| p[1]);
    let (lo, hi) = shown.fold((f64::MAX, f64::MIN), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let length = if lo <= hi {
        ((hi - lo) / 10.0).max(1.0)
    } else {
        1.0
    };
    let mut open_up = (Vec::new(), Vec::new());
    let mut open_down = (Vec::new(), Vec::new());
    for p in passes {
        let (lower, upper) = (f64::from(p.lower), f64::from(p.upper));
        if !closed(p.upper) && closed(p.lower) {
            open_up.0.push([x(p), lower]);
            open_up.1.push([x(p), lower + length]);
        }
        if !closed(p.lower) && closed(p.upper) {
            open_down.0.push([x(p), upper]);
            open_down.1.push([x(p), upper - length]);
        }
    }
    ui.label("MTD(f) bounds, pass by pass (arrows: a bound still open)");
    Plot::new("bounds")
        .height(140.0)
        .allow_scroll(false)
        .show(ui, |plot| {
            plot.line(Line::new("upper bound", upper));
            plot.line(Line::new("lower bound", lower));
            plot.arrows(egui_plot::Arrows::new(
                "upper bound open",
                open_up.0,
                open_up.1,
            ));
            plot.arrows(egui_plot::Arrows::new(
                "lower bound open",
                open_down.0,
                open_down.1,
            ));
            plot.points(egui_plot::Points::new("iteration score", scores).radius(3.0));
        });
}

/// An iteration's depth, with a selective search's confidence as Othello engines show it
/// (`14@87%`); a selective search to the end is a probable solve.
fn depth_text(info: &Info) -> String {
    match (info.depth, info.selectivity) {
        (None, _) => "-".into(),
        (Some(depth), None) => depth.to_string(),
        (Some(Depth::End), Some(percent)) => format!("end@{percent}% (probable)"),
        (Some(depth), Some(percent)) => format!("{depth}@{percent}%"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_their_unit() {
        assert_eq!(size_text(1_251_677_700), "1.25 GB");
        assert_eq!(size_text(30_421_755), "30 MB");
        assert_eq!(size_text(4845), "5 kB");
        assert_eq!(size_text(10), "1 kB");
    }

    #[test]
    fn a_score_says_how_it_is_known() {
        let mut score = protocol::Score {
            value: 10,
            ..protocol::Score::default()
        };
        assert_eq!(score_text(score, None), "+10");
        score.proof = Proof::Solved;
        assert_eq!(score_text(score, None), "+10 (solved)");
        assert_eq!(score_text(score, Some(5)), "+10 (solved with the database)");
        score.proof = Proof::Wld;
        score.value = -2;
        assert_eq!(score_text(score, None), "-2 (proven loss)");
    }

    #[test]
    fn a_selective_depth_shows_its_confidence() {
        let mut info = Info::default();
        assert_eq!(depth_text(&info), "-");
        info.depth = Some(Depth::Plies(14));
        assert_eq!(depth_text(&info), "14");
        info.selectivity = Some(87);
        assert_eq!(depth_text(&info), "14@87%");
        info.depth = Some(Depth::End);
        assert_eq!(depth_text(&info), "end@87% (probable)");
    }
}
