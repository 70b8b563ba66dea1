//! Running totals of a match, per engine and per pairing, and the final report.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;

use super::fault::FaultKind;
use super::record::{GameRecord, Termination};
use super::stats::{Elo, Pentanomial, Sprt, SprtState, Wdl, elo};

/// What one engine did.
#[derive(Clone, Debug, Default)]
struct EngineTotals {
    as_first: Wdl,
    as_second: Wdl,
    faults: BTreeMap<&'static str, u32>,
}

/// Results between two engines, from the first-named one's (the lower index) view.
#[derive(Clone, Debug, Default)]
struct PairTotals {
    wdl: Wdl,
    pairs: Pentanomial,
    /// Points of the first-named engine in half-finished pairs, by pair number.
    open_pairs: HashMap<usize, f64>,
}

/// Totals of a match so far.
#[derive(Clone, Debug)]
pub struct Tally {
    names: Vec<String>,
    engines: Vec<EngineTotals>,
    pairings: BTreeMap<(usize, usize), PairTotals>,
    games: usize,
}

impl Tally {
    /// An empty tally for these engines.
    #[must_use]
    pub fn new(names: Vec<String>) -> Tally {
        Tally {
            engines: vec![EngineTotals::default(); names.len()],
            names,
            pairings: BTreeMap::new(),
            games: 0,
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> usize {
        self.games
    }

    /// The engines' names.
    #[must_use]
    pub fn names(&self) -> &[String] {
        &self.names
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// Counts a finished game (records naming unknown engines are ignored).
    pub fn add(&mut self, record: &GameRecord) {
        let (Some(first), Some(second)) = (self.index(&record.first), self.index(&record.second))
        else {
            return;
        };
        self.games += 1;
        let first_points = record.result.first_points();
        self.engines[first].as_first.add(first_points);
        self.engines[second].as_second.add(1.0 - first_points);
        if let (Termination::Fault, Some(fault)) = (record.termination, &record.fault)
            && let Some(who) = self.index(&fault.engine)
        {
            *self.engines[who]
                .faults
                .entry(fault.kind.name())
                .or_default() += 1;
        }
        let (a, b, a_points) = if first < second {
            (first, second, first_points)
        } else {
            (second, first, 1.0 - first_points)
        };
        let pair = self.pairings.entry((a, b)).or_default();
        pair.wdl.add(a_points);
        // Games 2k and 2k+1 of the schedule play one opening with colours swapped.
        let pair_number = record.index / 2;
        match pair.open_pairs.remove(&pair_number) {
            Some(other) => pair.pairs.add(other + a_points),
            None => {
                pair.open_pairs.insert(pair_number, a_points);
            }
        }
    }

    /// The record of `names[0]` against `names[1]` (the first pairing), for progress lines.
    #[must_use]
    pub fn headline(&self) -> String {
        let Some(((a, b), pair)) = self.pairings.iter().next() else {
            return "no games yet".into();
        };
        let w = pair.wdl;
        format!(
            "{} {:.1}-{:.1} {}  {}",
            self.names[*a],
            w.points(),
            w.flipped().points(),
            self.names[*b],
            elo_text(elo(&w))
        )
    }

    /// The SPRT state of the first pairing (pentanomial when pairs are complete).
    #[must_use]
    pub fn sprt(&self, sprt: &Sprt) -> (f64, SprtState) {
        let llr = self.pairings.values().next().map_or(0.0, |p| {
            if p.pairs.pairs() > 0 {
                sprt.llr_pentanomial(&p.pairs)
            } else {
                sprt.llr_trinomial(&p.wdl)
            }
        });
        (llr, sprt.state(llr))
    }

    /// The SPRT's line of the report (no newline): the first pairing's log-likelihood
    /// ratio, its bounds and the verdict.
    #[must_use]
    pub fn sprt_line(&self, sprt: &Sprt) -> String {
        let (llr, state) = self.sprt(sprt);
        let (low, high) = sprt.bounds();
        let verdict = match state {
            SprtState::Continue => "undecided",
            SprtState::H0 => "H0 accepted",
            SprtState::H1 => "H1 accepted",
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} in [{low:.2}, {high:.2}]: {verdict}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        )
    }

    /// The final report.
    #[must_use]
    pub fn report(&self, sprt: Option<&Sprt>) -> String {
        let mut out = String::new();
        let width = self.names.iter().map(String::len).max().unwrap_or(6).max(6);
        let _ = writeln!(
            out,
            "{:<width$}  games     W     D     L  score   as first (W-D-L)  as second (W-D-L)  faults",
            "engine"
        );
        for (name, e) in self.names.iter().zip(&self.engines) {
            let all = Wdl {
                wins: e.as_first.wins + e.as_second.wins,
                draws: e.as_first.draws + e.as_second.draws,
                losses: e.as_first.losses + e.as_second.losses,
            };
            let percent = if all.games() == 0 {
                "-".to_string()
            } else {
                format!("{:.1}%", 100.0 * all.points() / f64::from(all.games()))
            };
            let faults = if e.faults.is_empty() {
                "none".to_string()
            } else {
                FaultKind::ALL
                    .iter()
                    .filter_map(|k| e.faults.get(k.name()).map(|n| format!("{} {n}", k.name())))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let _ = writeln!(
                out,
                "{name:<width$}  {:>5} {:>5} {:>5} {:>5} {percent:>6}   {:>16}  {:>17}  {faults}",
                all.games(),
                all.wins,
                all.draws,
                all.losses,
                wdl_text(&e.as_first),
                wdl_text(&e.as_second),
            );
        }
        for ((a, b), pair) in &self.pairings {
            let _ = writeln!(
                out,
                "\n{} vs {}: {} (W-D-L {} from {}'s view)",
                self.names[*a],
                self.names[*b],
                elo_text(elo(&pair.wdl)),
                wdl_text(&pair.wdl),
                self.names[*a],
            );
            let p = pair.pairs.0;
            let _ = writeln!(
                out,
                "  pentanomial (pairs scoring 0, 1/2, 1, 3/2, 2 for {}): [{}, {}, {}, {}, {}]: {}",
                self.names[*a],
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                elo_text(pair.pairs.elo()),
            );
        }
        if let Some(sprt) = sprt {
            let _ = writeln!(out, "\n{}", self.sprt_line(sprt));
        }
        out
    }
}

fn wdl_text(w: &Wdl) -> String {
    format!("{}-{}-{}", w.wins, w.draws, w.losses)
}

/// `Elo +70.4 [+37.4, +104.8]`, with `>=`/`<=` when every game went one way.
fn elo_text(e: Option<Elo>) -> String {
    match e {
        None => "Elo n/a (nothing played yet)".into(),
        Some(e) => {
            let mark = match (e.clamped, e.elo > 0.0) {
                (false, _) => "",
                (true, true) => ">= ",
                (true, false) => "<= ",
            };
            format!(
                "Elo {mark}{:+.1} [{:+.1}, {:+.1}] (95%)",
                e.elo, e.low, e.high
            )
        }
    }
}
