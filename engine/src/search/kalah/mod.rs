//! Kalah's search: move ordering, the exact solver a search to the end hands over to, and
//! the endgame databases it reads.

mod database;
mod eval;
mod pits;
mod solver;

pub use database::{
    AutoContext, DatabaseCache, DatabaseError, DatabaseSource, Installed, InstalledContent,
    KalahDatabase, MAX_DATABASE_SEEDS, Storage, auto_build_seeds, best_installed,
    database_positions, default_install_seeds, installed_name, list_installed,
};

use std::sync::Arc;

use super::{Algorithm, DEPTH_TO_END, Searchable, SolverContext, Thresholds};
use crate::game::kalah::{Kalah, KalahMove};
use crate::game::{Game, MoveList};
use pits::{PitRules, Pits};
use solver::KalahSolver;

/// A search at least this many turns deep is a solve: the solver plays every line to the
/// end without counting turns (few games last this long; those that do are solved to
/// their end too). Far below the search's depth to the end, so that the searches of a principal
/// variation below a solve's root are solves too.
pub const SOLVE_DEPTH: i32 = DEPTH_TO_END / 2;

impl Searchable for Kalah {
    /// MTD(f): its evaluation is cheap and it needs fewer of them than NegaScout, as the
    /// papers found (docs/algorithms.md §001); at 100 ms a move NegaScout scored -8.7 Elo
    /// against it (200 games).
    const DEFAULT_ALGORITHM: Algorithm = Algorithm::Mtdf;

    /// Moves that earn another move first (nearest the store first: it leaves the others'
    /// counts as they are), then captures, largest first, then the rest, nearest the store
    /// first.
    fn order_moves(
        &self,
        moves: &mut MoveList<KalahMove>,
        _depth: i32,
        _selective: bool,
        _: &Self::Resources,
    ) {
        let rules = PitRules::of(self.rules());
        let pits = Pits::of(self);
        moves.sort_by_key(|mv| {
            let pit = usize::from(mv.number()) - 1;
            let distance = (rules.pits - pit) as i32;
            match pits.kind(&rules, pit) {
                (true, _) => (0, distance),
                (false, Some(gain)) => (1, -gain),
                (false, None) => (2, distance),
            }
        });
    }

    fn database_value(&self, database: &Option<Arc<KalahDatabase>>) -> Option<i32> {
        database.as_ref().and_then(|db| db.value(self))
    }

    /// A database's value whenever it covers the board (at any depth: it is exact), else
    /// the exact solver when the search goes at least [`SOLVE_DEPTH`] turns deep: it gets
    /// to the end without counting turns, bounded by the seeds.
    fn solve_endgame(
        &self,
        depth: i32,
        alpha: i32,
        beta: i32,
        _: &Thresholds,
        ctx: &mut SolverContext<'_>,
        database: &Option<Arc<KalahDatabase>>,
    ) -> Option<i32> {
        if let Some(v) = self.database_value(database) {
            ctx.stats.database_hits += 1;
            return Some(v);
        }
        if depth < SOLVE_DEPTH {
            return None;
        }
        let rules = PitRules::of(self.rules());
        let db = database.as_deref().filter(|db| db.serves(&rules));
        let pits = Pits::of(self);
        let (own, other) = pits.sides(rules.pits);
        let side = self.side_to_move();
        let stores = self.store(side) as i32 - self.store(side.opponent()) as i32;
        let mut solver = KalahSolver::new(ctx, rules, db);
        Some(stores + solver.solve(&pits, own + other, alpha - stores, beta - stores))
    }
}
