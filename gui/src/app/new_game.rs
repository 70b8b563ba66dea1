//! The new-game dialog: which game, the player's colour, and the engine's strength (a
//! level, a clock, or each engine's own settings).

use eframe::egui;
use engine::game::GameId;
use engine::game::kalah::{KalahRules, MAX_PITS, MAX_SEEDS};
use engine::game::othello::Geometry;
use engine::level::{Level, TOP};

use super::App;
use crate::clock::clock_text;
use crate::settings::{ClockSettings, Controller, Settings, Strength};

/// Who the person at the board plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seat {
    First,
    Second,
    Both,
    Neither,
}

impl Seat {
    fn of(players: [Controller; 2]) -> Seat {
        match players {
            [Controller::Human, Controller::Engine] => Seat::First,
            [Controller::Engine, Controller::Human] => Seat::Second,
            [Controller::Human, Controller::Human] => Seat::Both,
            [Controller::Engine, Controller::Engine] => Seat::Neither,
        }
    }

    fn players(self) -> [Controller; 2] {
        match self {
            Seat::First => [Controller::Human, Controller::Engine],
            Seat::Second => [Controller::Engine, Controller::Human],
            Seat::Both => [Controller::Human, Controller::Human],
            Seat::Neither => [Controller::Engine, Controller::Engine],
        }
    }
}

impl App {
    /// Opens the dialog on the current settings.
    pub(super) fn open_new_game(&mut self) {
        self.new_game = Some(self.control.settings.clone());
    }

    /// The dialog, while open: "Start game" starts the game it describes, "Cancel"
    /// leaves everything as it was.
    pub(super) fn new_game_dialog(&mut self, ctx: &egui::Context) {
        let Some(draft) = &mut self.new_game else {
            return;
        };
        let mut start = false;
        let mut cancel = false;
        let modal = egui::Modal::new(egui::Id::unique("new game")).show(ctx, |ui| {
            ui.set_width(360.0);
            ui.heading("New game");
            game_choice(ui, draft);
            ui.separator();
            seat_choice(ui, draft);
            ui.separator();
            strength_choice(ui, &mut draft.strength, &mut draft.clock);
            ui.separator();
            ui.horizontal(|ui| {
                start = ui.button("Start game").clicked();
                cancel = ui.button("Cancel").clicked();
            });
        });
        if start {
            self.control.settings = draft.clone();
            self.new_game = None;
            self.control.new_game();
        } else if cancel || modal.should_close() {
            self.new_game = None;
        }
    }
}

/// The board (and start), or Kalah with its size.
fn game_choice(ui: &mut egui::Ui, settings: &mut Settings) {
    egui::ComboBox::from_label("Board")
        .selected_text(board_label(settings.game))
        .show_ui(ui, |ui| {
            for g in Geometry::ALL {
                ui.selectable_value(&mut settings.game, GameId::Othello(g), g.id());
            }
            if let (GameId::Othello(_), Ok(kalah)) = (settings.game, KalahRules::new(6, 6)) {
                ui.selectable_value(&mut settings.game, GameId::Kalah(kalah), "kalah");
            }
        });
    if let GameId::Kalah(rules) = settings.game {
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
        settings.game = GameId::Kalah(KalahRules {
            pits,
            seeds,
            ..rules
        });
        settings.start = "startpos".into();
    } else {
        ui.horizontal(|ui| {
            ui.radio_value(&mut settings.start, "startpos".into(), "Standard start");
            ui.radio_value(&mut settings.start, "parallel".into(), "Parallel start");
        });
    }
}

fn seat_choice(ui: &mut egui::Ui, settings: &mut Settings) {
    let [first, second] = match settings.game {
        GameId::Othello(_) => ["Black", "White"],
        GameId::Kalah(_) => ["South", "North"],
    };
    let mut seat = Seat::of(settings.players);
    ui.label("You play");
    ui.horizontal_wrapped(|ui| {
        ui.radio_value(&mut seat, Seat::First, first);
        ui.radio_value(&mut seat, Seat::Second, second);
        ui.radio_value(&mut seat, Seat::Both, "both sides");
        ui.radio_value(&mut seat, Seat::Neither, "neither (engine against engine)");
    });
    settings.players = seat.players();
}

/// A level, a clock, or each engine's own settings.
pub(super) fn strength_choice(
    ui: &mut egui::Ui,
    strength: &mut Strength,
    clock: &mut ClockSettings,
) {
    ui.label("The engine's strength");
    let mut level = match *strength {
        Strength::Level(n) => n,
        _ => Strength::DEFAULT.level().number,
    };
    ui.horizontal(|ui| {
        ui.radio_value(strength, Strength::Level(level), "Level");
        ui.radio_value(strength, Strength::Clock, "Clock");
        ui.radio_value(strength, Strength::Custom, "Engine settings");
    });
    match strength {
        Strength::Level(n) => {
            level_slider(ui, &mut level);
            *n = level;
        }
        Strength::Clock => clock_choice(ui, clock),
        Strength::Custom => {
            ui.label("Each engine's depth and time per move, set in the Engine section.");
        }
    }
}

/// The level, with what it does.
pub(super) fn level_slider(ui: &mut egui::Ui, level: &mut u8) {
    ui.horizontal(|ui| {
        let l = ui.label("Engine level");
        ui.add(egui::Slider::new(level, 1..=TOP)).labelled_by(l.id);
    });
    if let Some(l) = Level::get(*level) {
        let top = if l.number == TOP {
            " (the full engine)"
        } else {
            ""
        };
        ui.label(format!("Level {}: {}{top}", l.number, l.describe()));
    }
}

fn clock_choice(ui: &mut egui::Ui, clock: &mut ClockSettings) {
    let mut minutes = clock.base_ms as f64 / 60_000.0;
    let mut increment = clock.increment_ms as f64 / 1000.0;
    ui.horizontal(|ui| {
        let l = ui.label("Minutes per side");
        ui.add(
            egui::DragValue::new(&mut minutes)
                .range(0.5..=180.0)
                .speed(0.5),
        )
        .labelled_by(l.id);
        let l = ui.label("Seconds added per move");
        ui.add(
            egui::DragValue::new(&mut increment)
                .range(0.0..=60.0)
                .speed(0.5),
        )
        .labelled_by(l.id);
    });
    clock.base_ms = (minutes * 60_000.0).round() as u64;
    clock.increment_ms = (increment * 1000.0).round() as u64;
    ui.checkbox(&mut clock.flag_loses, "A side whose time runs out loses");
    ui.label(format!(
        "{}; the engine plays at full strength on its clock.",
        clock_summary(clock)
    ));
}

/// The clock in a line: `Clock: 5:00 + 3 s a move`.
pub(super) fn clock_summary(clock: &ClockSettings) -> String {
    let flag = if clock.flag_loses {
        ""
    } else {
        " (no loss on time)"
    };
    format!(
        "Clock: {} + {} s a move{flag}",
        clock_text(std::time::Duration::from_millis(clock.base_ms)),
        clock.increment_ms as f64 / 1000.0
    )
}

/// The board's name in the list (every Kalah size is "kalah", sized below it).
fn board_label(game: GameId) -> &'static str {
    match game {
        GameId::Othello(g) => g.id(),
        GameId::Kalah(_) => "kalah",
    }
}
