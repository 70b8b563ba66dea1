//! Training the 8x8 pattern evaluation from game records (`engine train`), and measuring
//! an evaluation against exact scores (`engine accuracy`); docs/evaluation.md.

pub mod accuracy;
pub mod dataset;
pub mod fit;
pub mod games;
pub mod labels;
pub mod network;
pub mod probcut;
pub mod selfplay;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use dataset::{GivenLabels, LabelPolicy, Sample, is_held_out, positions_to_solve, samples};
use fit::{FitParams, fit_phase, quantise};
use games::{TrainingGame, read_games};
use network::{NetParams, train_net};

use crate::game::Side;
use crate::game::othello::{Geometry, Othello};
use crate::search::othello::eval::hand::evaluate as hand_evaluate;
use crate::search::othello::eval::network::PatternNet;
use crate::search::othello::eval::weights::{PHASES, PatternWeights, SCALE};

/// What to train on and how.
#[derive(Clone, Debug, Default)]
pub struct TrainConfig {
    /// Iterations and ridge penalty of the least-squares fit.
    pub fit: FitParams,
    /// Which positions get an exact solve as their label, instead of the game result.
    pub labels: LabelPolicy,
    /// Labels found before (`engine label`), used wherever they apply.
    pub given: GivenLabels,
    /// Threads for solving and fitting.
    pub threads: usize,
    /// Each phase is also fitted on the positions of its neighbours' whose discs come
    /// within this many of its own (0: its own alone); held-out errors stay per phase.
    pub phase_margin: u32,
    /// The linear model to keep instead of fitting one (its network, if any, dropped).
    pub linear: Option<Vec<i16>>,
    /// The network to train over the linear model, if any.
    pub net: Option<NetParams>,
}

/// One phase's figures after training.
#[derive(Clone, Debug)]
pub struct PhaseReport {
    /// The phase ([`phase_discs`](crate::search::othello::eval::weights::phase_discs) gives its discs).
    pub phase: usize,
    /// Training positions.
    pub samples: usize,
    /// Mean squared error on them before the fit (all weights 0) and after (the linear
    /// model's: the network's is reported by pass).
    pub mse: (f64, f64),
    /// Held-out positions.
    pub test_samples: usize,
    /// Mean absolute error on the held-out positions, in discs: trained, hand evaluation.
    pub test_mae: (f64, f64),
    /// The same of the trained linear model alone (without its network).
    pub linear_mae: f64,
}

/// A bar on stderr (indicatif hides it when stderr is not a terminal; its users then print
/// lines instead).
fn bar(len: usize, what: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{msg:>14} [{bar:40}] {pos}/{len} {elapsed_precise} (eta {eta})",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.set_message(what.to_string());
    bar
}

/// Runs `job`, which counts its exact solves in the counter it is given, with a bar of
/// `total` solves on stderr (without a terminal, a line at every tenth of them).
pub(crate) fn with_solve_progress<T: Send>(
    total: usize,
    what: &str,
    job: impl FnOnce(&AtomicUsize) -> T + Send,
) -> T {
    let lines = !std::io::stderr().is_terminal();
    let bar = bar(total, what);
    let solved = AtomicUsize::new(0);
    let result = std::thread::scope(|scope| {
        let job = scope.spawn(|| job(&solved));
        let mut reported = 0;
        while !job.is_finished() {
            let done = solved.load(Ordering::Relaxed);
            bar.set_position(done as u64);
            if lines && total > 0 && done * 10 / total > reported {
                reported = done * 10 / total;
                eprintln!("{what}: {done}/{total}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
        job.join().expect("solving does not panic")
    });
    bar.finish_and_clear();
    result
}

/// A sample as a position (Black to move: the evaluations see only "me" and "opp").
fn position(s: &Sample) -> Othello {
    Othello::from_bitboards(Geometry::Board8x8, s.me, s.opp, Side::First)
        .expect("a sample's discs do not overlap")
}

/// Mean absolute error of `eval` over `samples`.
fn mae(samples: &[Sample], eval: impl Fn(&Othello) -> i32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: i64 = samples
        .iter()
        .map(|s| i64::from((eval(&position(s)) - i32::from(s.label)).abs()))
        .sum();
    total as f64 / samples.len() as f64
}

/// One phase's fitted parameters (in discs) and its mean squared error before and after.
type Fitted = (Vec<f64>, (f64, f64));

/// Splits `games` into training and held-out games.
#[must_use]
pub fn split(games: &[TrainingGame]) -> (Vec<&TrainingGame>, Vec<&TrainingGame>) {
    let (test, train): (Vec<_>, Vec<_>) =
        games.iter().enumerate().partition(|(n, _)| is_held_out(*n));
    (
        train.into_iter().map(|(_, g)| g).collect(),
        test.into_iter().map(|(_, g)| g).collect(),
    )
}

/// Trains weights on the games under the folders `dirs` (taken in that order: the held-out
/// games of the first are the same whatever follows it), reporting progress on stderr.
///
/// # Errors
/// When the games cannot be read.
pub fn train(
    dirs: &[PathBuf],
    config: TrainConfig,
) -> anyhow::Result<(PatternWeights, Vec<PhaseReport>)> {
    let games = read_folders(dirs)?;
    let (train_games, test_games) = split(&games);
    Ok(train_on(&train_games, &test_games, config))
}

/// The games under the folders `dirs`, in that order (which [`split`] depends on).
///
/// # Errors
/// When the games cannot be read.
pub fn read_folders(dirs: &[PathBuf]) -> anyhow::Result<Vec<TrainingGame>> {
    let mut games = Vec::new();
    for dir in dirs {
        let found = read_games(dir)?;
        tracing::info!("{} games read from {}", found.len(), dir.display());
        games.extend(found);
    }
    Ok(games)
}

/// Trains weights on `train_games` and measures them on `test_games`.
#[must_use]
pub fn train_on(
    train_games: &[&TrainingGame],
    test_games: &[&TrainingGame],
    config: TrainConfig,
) -> (PatternWeights, Vec<PhaseReport>) {
    let threads = config.threads.max(1);
    let lines = !std::io::stderr().is_terminal();
    let to_solve = positions_to_solve(train_games, config.labels, &config.given);
    let by_phase = with_solve_progress(to_solve, "exact labels", |solved| {
        samples(
            train_games,
            config.labels,
            &config.given,
            config.phase_margin,
            threads,
            solved,
        )
    });
    // Held-out positions keep their game labels, so that errors compare across runs.
    let test_by_phase = samples(
        test_games,
        LabelPolicy::default(),
        &GivenLabels::default(),
        0,
        1,
        &AtomicUsize::new(0),
    );

    let (linear, mse) = match config.linear {
        Some(params) => {
            let linear = PatternWeights::from_params(params);
            let mse = by_phase
                .iter()
                .map(|samples| (mean_square(samples), linear_mse(samples, &linear)))
                .collect();
            (linear, mse)
        }
        None => {
            let (params, mse) = fit_linear(&by_phase, config.fit, threads, lines);
            (PatternWeights::from_params(params), mse)
        }
    };
    let net = config.net.map(|net_params| {
        let passes = bar(net_params.epochs, "network");
        let floats = train_net(&by_phase, &linear, net_params, &mut |pass, mse| {
            passes.inc(1);
            if lines {
                eprintln!("network pass {pass}: mean squared error {mse:.2}");
            }
        });
        passes.finish_and_clear();
        PatternNet::quantise(&floats).expect("the trainer's network has its shape")
    });
    let weights = linear.clone().with_net(net);
    let reports = (0..PHASES)
        .map(|phase| {
            let test = &test_by_phase[phase];
            PhaseReport {
                phase,
                samples: by_phase[phase].len(),
                mse: mse[phase],
                test_samples: test.len(),
                test_mae: (mae(test, |p| weights.evaluate(p)), mae(test, hand_evaluate)),
                linear_mae: mae(test, |p| linear.evaluate(p)),
            }
        })
        .collect();
    (weights, reports)
}

/// Fits each phase's linear model on its samples, `threads` phases at a time: the
/// parameters, phase by phase, and each phase's mean squared error before and after.
fn fit_linear(
    by_phase: &[Vec<Sample>],
    fit: FitParams,
    threads: usize,
    lines: bool,
) -> (Vec<i16>, Vec<(f64, f64)>) {
    let fitting = bar(PHASES * fit.iterations, "fitting");
    let next = AtomicUsize::new(0);
    let fitted: Mutex<Vec<Option<Fitted>>> = Mutex::new(vec![None; PHASES]);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let phase = next.fetch_add(1, Ordering::Relaxed);
                    let Some(samples) = by_phase.get(phase) else {
                        break;
                    };
                    let first = mean_square(samples);
                    let mut last = first;
                    let weights = fit_phase(samples, fit, &mut |_, mse| {
                        last = mse;
                        fitting.inc(1);
                    });
                    if lines {
                        eprintln!(
                            "phase {phase} fitted: mean squared error {first:.1} -> {last:.1}"
                        );
                    }
                    fitted.lock().expect("no panic while held")[phase] =
                        Some((weights, (first, last)));
                }
            });
        }
    });
    fitting.finish_and_clear();
    let fitted: Vec<Fitted> = fitted
        .into_inner()
        .expect("no panic while held")
        .into_iter()
        .map(|f| f.expect("every phase fitted"))
        .collect();
    let params: Vec<f64> = fitted.iter().flat_map(|f| f.0.iter().copied()).collect();
    (quantise(&params), fitted.iter().map(|f| f.1).collect())
}

/// The mean squared error, in discs, of `weights`' linear model over `samples`.
fn linear_mse(samples: &[Sample], weights: &PatternWeights) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| {
            let value = f64::from(weights.raw(s.me, s.opp, s.empties())) / f64::from(SCALE);
            (f64::from(s.label) - value).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// The mean squared label: the error of predicting 0 everywhere.
fn mean_square(samples: &[Sample]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| f64::from(s.label).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::path::Path;

    use flate2::Compression;
    use flate2::write::GzEncoder;
    use rand::{RngExt, SeedableRng, rngs::StdRng};

    use super::*;
    use crate::game::othello::OthelloMove;
    use crate::game::{Game, MoveList, Start};
    use crate::search::othello::eval::weights::phase_discs;

    /// A game played by a greedy player that sometimes plays at random.
    fn random_game(rng: &mut StdRng) -> (Vec<OthelloMove>, Othello) {
        let mut position = Othello::start(Geometry::Board8x8, Start::Standard);
        let mut moves = Vec::new();
        while !position.is_terminal() {
            let mut list = MoveList::new();
            position.generate_moves(&mut list);
            if list[0] == OthelloMove::PASS {
                position = position.play(OthelloMove::PASS);
                continue;
            }
            let mv = if rng.random_range(0..4) == 0 {
                list[rng.random_range(0..list.len())]
            } else {
                *list
                    .iter()
                    .min_by_key(|&&m| hand_evaluate(&position.play(m)))
                    .expect("a move")
            };
            moves.push(mv);
            position = position.play(mv);
        }
        (moves, position)
    }

    /// Writes 400 games: three quarters as a WTHOR file, the rest as a gzipped book.
    fn fixture(dir: &Path) {
        let mut rng = StdRng::seed_from_u64(7);
        let mut wthor = Vec::new();
        let mut book = String::new();
        for n in 0..400 {
            let (moves, end) = random_game(&mut rng);
            if n % 4 == 3 {
                let mut line = String::new();
                let mut p = Othello::start(Geometry::Board8x8, Start::Standard);
                for &m in &moves {
                    if p.moves() == 0 {
                        p = p.play(OthelloMove::PASS);
                    }
                    line += if p.side_to_move() == Side::First {
                        "+"
                    } else {
                        "-"
                    };
                    line += &m.to_string();
                    p = p.play(m);
                }
                book += &format!("{line}: {:+03} 10\n", end.disc_score());
            } else {
                let black = match end.side_to_move() {
                    Side::First => end.final_score(),
                    Side::Second => -end.final_score(),
                };
                wthor.push((moves, ((black + 64) / 2) as u8));
            }
        }
        std::fs::write(dir.join("WTH_2025.wtb"), games::write_wthor(&wthor)).unwrap();
        let mut z = GzEncoder::new(Vec::new(), Compression::fast());
        z.write_all(book.as_bytes()).unwrap();
        std::fs::write(dir.join("book.gam.gz"), z.finish().unwrap()).unwrap();
    }

    #[test]
    fn training_lowers_the_loss_and_improves_predictions() {
        let dir = tempfile::tempdir().unwrap();
        fixture(dir.path());
        let games = read_games(dir.path()).unwrap();
        assert_eq!(games.len(), 400);
        // One game file on its own reads as the folder's share of it.
        let book = read_games(&dir.path().join("book.gam.gz")).unwrap();
        let wthor = read_games(&dir.path().join("WTH_2025.wtb")).unwrap();
        assert_eq!(book.len() + wthor.len(), 400);
        assert!(!book.is_empty() && !wthor.is_empty());
        let other = dir.path().join("notes.txt");
        std::fs::write(&other, "not games").unwrap();
        let error = read_games(&other).unwrap_err().to_string();
        assert!(error.contains("not a game file"), "{error}");
        let config = TrainConfig {
            fit: FitParams {
                iterations: 15,
                lambda: 1.0,
            },
            threads: 2,
            ..TrainConfig::default()
        };
        let (weights, reports) = train(&[dir.path().to_path_buf()], config).unwrap();
        for r in &reports {
            assert!(r.samples > 0, "phase {}", r.phase);
            // The first phases hold few distinct positions (every game starts alike).
            let goal = if r.phase < 3 { 1.0 } else { 0.8 };
            assert!(r.mse.1 < goal * r.mse.0, "phase {}: {:?}", r.phase, r.mse);
        }
        // On held-out games, the fitted weights predict better than "even" in the later
        // phases, where random games are decided.
        let (_, test) = split(&games);
        let test_samples = samples(
            &test,
            LabelPolicy::default(),
            &GivenLabels::default(),
            0,
            1,
            &AtomicUsize::new(0),
        );
        for (phase, test) in test_samples.iter().enumerate().skip(10) {
            let fitted = mae(test, |p| weights.evaluate(p));
            let even = mae(test, |_| 0);
            assert!(fitted < even, "phase {phase}: {fitted} >= {even}");
        }
        // With a margin, a phase holds its own positions and its neighbours' within it.
        let shared = samples(
            &test,
            LabelPolicy::default(),
            &GivenLabels::default(),
            2,
            1,
            &AtomicUsize::new(0),
        );
        for (phase, held) in shared.iter().enumerate() {
            let (first, last) = phase_discs(phase);
            let near = |s: &&Sample| {
                let discs = 64 - s.empties() as usize;
                first <= discs + 2 && discs <= last + 2
            };
            let mut expected: Vec<Sample> = test_samples
                .iter()
                .flatten()
                .filter(near)
                .copied()
                .collect();
            let mut held = held.clone();
            held.sort_by_key(|s| (s.me, s.opp, s.label));
            expected.sort_by_key(|s| (s.me, s.opp, s.label));
            assert_eq!(held, expected, "phase {phase}");
            assert!(held.len() > test_samples[phase].len(), "phase {phase}");
        }
        // The file round-trips.
        let path = dir.path().join("w.bin");
        weights.save(&path).unwrap();
        assert_eq!(
            PatternWeights::load(&path).unwrap().params(),
            weights.params()
        );
    }

    #[test]
    fn exact_labels_come_from_the_solver() {
        let mut rng = StdRng::seed_from_u64(9);
        let (moves, end) = random_game(&mut rng);
        let black = match end.side_to_move() {
            Side::First => end.final_score(),
            Side::Second => -end.final_score(),
        };
        let bytes = games::write_wthor(&[(moves, ((black + 64) / 2) as u8)]);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.wtb"), bytes).unwrap();
        let games = read_games(dir.path()).unwrap();
        let refs: Vec<&TrainingGame> = games.iter().collect();
        let policy = LabelPolicy {
            solve_empties: 8,
            ..LabelPolicy::default()
        };
        let solved = AtomicUsize::new(0);
        let by_phase = samples(&refs, policy, &GivenLabels::default(), 0, 2, &solved);
        assert_eq!(
            solved.load(Ordering::Relaxed),
            positions_to_solve(&refs, policy, &GivenLabels::default())
        );
        let mut tt = crate::search::TranspositionTable::new(4);
        let solved: Vec<Sample> = by_phase
            .iter()
            .flatten()
            .filter(|s| s.empties() <= 8)
            .copied()
            .collect();
        for s in &solved {
            let exact = crate::search::solve_exact(&position(s), &mut tt)
                .score
                .value;
            assert_eq!(i32::from(s.label), exact);
        }
        // Exact labels given (as `engine label` finds them) replace the game's, with no
        // solve, for the positions they hold.
        let exact = GivenLabels::new(solved.iter().copied(), [], 1.0);
        let none = AtomicUsize::new(0);
        let given = samples(&refs, LabelPolicy::default(), &exact, 0, 2, &none);
        assert_eq!(none.load(Ordering::Relaxed), 0);
        let mut late: Vec<Sample> = given
            .iter()
            .flatten()
            .filter(|s| s.empties() <= 8)
            .copied()
            .collect();
        let mut expected = solved;
        late.sort_by_key(|s| (s.me, s.opp));
        expected.sort_by_key(|s| (s.me, s.opp));
        assert_eq!(late, expected);
    }
}
