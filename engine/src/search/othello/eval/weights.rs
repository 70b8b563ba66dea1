//! The trained 8x8 evaluation's weights: one table per game phase, the file they live in,
//! and the evaluation itself (docs/evaluation.md).
//!
//! File format (the whole file zlib-compressed, so a damaged file fails its checksum):
//! the magic `GSPATW01` (the linear model alone) or `GSPATW02` (with a [`network`](super::network)), then
//! little-endian `u32`s for the phases, the parameters per phase and the scale (weight
//! units per disc), then `phases * parameters` `i16` weights, phase by phase in the order of
//! [`Layout::param`]. `GSPATW02` goes on with the network: `u32`s for its hidden units and
//! its first and last phases, `parameters * hidden` `i8` entries, parameter by parameter,
//! then per phase `hidden` `i16` biases, `hidden` `i16` output weights and an `i32` offset.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, LazyLock};

use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;
use thiserror::Error;

use super::globals;
use super::network::{HIDDEN, Head, MAX_CORRECTION, PatternNet};
use super::patterns::{
    FEATURE_TABLE_LEN, INDEX_COUNT, LAYOUT, SHAPE_TABLE_LEN, SHAPES_LEN, feature_count, indices,
    linear_sum_and_indices, shape_entry, sum_at_indices,
};
use crate::game::othello::Othello;

/// Discs on the board per game phase: each phase has its own weights. (Two discs a
/// phase, thirty phases, were measured three times and not kept: docs/evaluation.md.)
pub const PHASE_DISCS: usize = 4;

/// Game phases, by discs on the board: 4-7, 8-11, ..., 60-64.
pub const PHASES: usize = 60 / PHASE_DISCS;

/// The largest weights file read: the raw weights and network (8.0 MB today; zlib makes
/// them smaller) with room for larger models.
const MAX_FILE: crate::files::SizeLimit = crate::files::SizeLimit {
    what: "weights file",
    bytes: 64 << 20,
};

/// Weight units per disc.
pub const SCALE: i32 = 128;

/// The linear model's file.
const MAGIC: &[u8; 8] = b"GSPATW01";

/// The linear model and a network.
const MAGIC_NET: &[u8; 8] = b"GSPATW02";

/// The bytes of one head in a file: biases, output weights, offset.
const HEAD_BYTES: usize = 4 * HIDDEN + 4;

/// The weights shipped with the engine (trained by `engine train`, docs/evaluation.md).
static BUILTIN_FILE: &[u8] = include_bytes!("../../../../data/othello8x8.weights");

/// The phase of a position with `empties` empty squares.
#[must_use]
pub fn phase(empties: u32) -> usize {
    ((60 - empties.min(60) as usize) / PHASE_DISCS).min(PHASES - 1)
}

/// The phases whose discs come within `margin` discs of a position's with `empties` empty
/// squares: the phases a trainer that shares positions between neighbouring phases
/// (`engine train --phase-margin`) fits on it.
#[must_use]
pub fn phases_within(empties: u32, margin: u32) -> std::ops::RangeInclusive<usize> {
    phase(empties.saturating_add(margin))..=phase(empties.saturating_sub(margin))
}

/// The discs on the board in `phase`: its first and last counts.
#[must_use]
pub fn phase_discs(phase: usize) -> (usize, usize) {
    let first = 4 + PHASE_DISCS * phase;
    let last = if phase + 1 == PHASES {
        64
    } else {
        first + PHASE_DISCS - 1
    };
    (first, last)
}

/// The ordering-key term (lower first) of the opponent's evaluation `raw` (weight units)
/// after a move: `weight` key units per 1/16 disc, offset and clamped into `0..8192`.
/// Both searches weigh a reply fewer for the opponent as 128 key units.
#[inline]
#[must_use]
pub(crate) fn ordering_term(raw: i32, weight: i32) -> u32 {
    (weight * (raw / (SCALE / 16)) + 4096).clamp(0, 8191) as u32
}

/// A weights file that cannot be used.
#[derive(Debug, Error)]
pub enum WeightsError {
    /// A file that may not be read (not a regular file, too large) or cannot be.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The file cannot be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file's path.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// The bytes are not a weights file of this engine's patterns.
    #[error("not a weights file for this engine: {0}")]
    Format(String),
}

/// Trained pattern weights for every phase, ready to evaluate with.
#[derive(Clone)]
pub struct PatternWeights {
    /// `PHASES * Layout::params` trained parameters.
    params: Vec<i16>,
    /// The shapes' parameters spread over their table indices, as bytes
    /// ([`shape_entry`]): `PHASES * SHAPE_TABLE_LEN`.
    shapes: Vec<i8>,
    /// The whole-board features' parameters: `PHASES * FEATURE_TABLE_LEN`.
    features: Vec<i16>,
    /// The network's correction, where it was trained.
    net: Option<PatternNet>,
}

impl std::fmt::Debug for PatternWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternWeights({} parameters, {:?})",
            self.params.len(),
            self.net
        )
    }
}

impl PatternWeights {
    /// Parameters per phase.
    #[must_use]
    pub fn params_per_phase() -> usize {
        LAYOUT.params
    }

    /// Weights from `PHASES * params_per_phase()` parameters.
    ///
    /// # Panics
    /// When the length is wrong.
    #[must_use]
    pub fn from_params(params: Vec<i16>) -> PatternWeights {
        let layout = &*LAYOUT;
        assert_eq!(params.len(), PHASES * layout.params, "parameter count");
        let (shape_params, feature_params) = layout.param.split_at(SHAPES_LEN as usize);
        let mut shapes = Vec::with_capacity(PHASES * SHAPE_TABLE_LEN);
        let mut features = Vec::with_capacity(PHASES * FEATURE_TABLE_LEN);
        for phase in params.chunks(layout.params) {
            shapes.extend(shape_params.iter().map(|&p| shape_entry(phase[p as usize])));
            // The padding past the last shape's table.
            shapes.resize(shapes.len() + SHAPE_TABLE_LEN - shape_params.len(), 0);
            features.extend(feature_params.iter().map(|&p| phase[p as usize]));
        }
        PatternWeights {
            params,
            shapes,
            features,
            net: None,
        }
    }

    /// These weights with `net`'s correction added in the phases it covers.
    #[must_use]
    pub fn with_net(self, net: Option<PatternNet>) -> PatternWeights {
        PatternWeights { net, ..self }
    }

    /// The network, if these weights have one.
    #[must_use]
    pub fn net(&self) -> Option<&PatternNet> {
        self.net.as_ref()
    }

    /// Table indices read per position (pattern copies, then whole-board features): the
    /// length of [`PatternWeights::features`]' output.
    #[must_use]
    pub fn feature_count() -> usize {
        feature_count()
    }

    /// The parameter (in one phase's numbering) that each pattern copy of the position
    /// `(me, opp)` reads: the trainer's sparse features.
    pub fn features(me: u64, opp: u64, out: &mut [u32]) {
        indices(me, opp, out);
        for o in out {
            *o = LAYOUT.param[*o as usize];
        }
    }

    /// The trained parameters, phase by phase.
    #[must_use]
    pub fn params(&self) -> &[i16] {
        &self.params
    }

    /// The weights shipped in the binary.
    ///
    /// # Panics
    /// If the shipped file is damaged (a test decodes it).
    #[must_use]
    pub fn builtin() -> Arc<PatternWeights> {
        static BUILTIN: LazyLock<Arc<PatternWeights>> = LazyLock::new(|| {
            Arc::new(PatternWeights::decode(BUILTIN_FILE).expect("the shipped weights decode"))
        });
        Arc::clone(&BUILTIN)
    }

    /// Reads a weights file.
    ///
    /// # Errors
    /// When it cannot be read or is not a weights file of these patterns.
    pub fn load(path: &Path) -> Result<PatternWeights, WeightsError> {
        let bytes = crate::files::read(path, MAX_FILE)?;
        PatternWeights::decode(&bytes).map_err(|e| match e {
            WeightsError::Format(why) => WeightsError::Format(format!("{}: {why}", path.display())),
            io => io,
        })
    }

    /// Writes a weights file.
    ///
    /// # Errors
    /// When it cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), WeightsError> {
        std::fs::write(path, self.encode()).map_err(|source| WeightsError::Io {
            path: path.display().to_string(),
            source,
        })
    }

    /// The file's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut raw = Vec::with_capacity(20 + 2 * self.params.len());
        raw.extend_from_slice(if self.net.is_some() { MAGIC_NET } else { MAGIC });
        for n in [PHASES, LAYOUT.params, SCALE as usize] {
            raw.extend_from_slice(&(n as u32).to_le_bytes());
        }
        for w in &self.params {
            raw.extend_from_slice(&w.to_le_bytes());
        }
        if let Some(net) = &self.net {
            let (first, last) = net.phases();
            for n in [HIDDEN, first, last] {
                raw.extend_from_slice(&(n as u32).to_le_bytes());
            }
            raw.extend(net.params().iter().flatten().map(|&e| e as u8));
            for head in net.heads() {
                for w in head.bias.iter().chain(&head.out) {
                    raw.extend_from_slice(&w.to_le_bytes());
                }
                raw.extend_from_slice(&head.offset.to_le_bytes());
            }
        }
        let mut z = ZlibEncoder::new(Vec::new(), Compression::best());
        z.write_all(&raw).expect("writing to memory");
        z.finish().expect("writing to memory")
    }

    /// Weights from a file's bytes.
    ///
    /// # Errors
    /// [`WeightsError::Format`] saying what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<PatternWeights, WeightsError> {
        let format = |why: &str| WeightsError::Format(why.to_string());
        let linear_end = 20 + 2 * PHASES * LAYOUT.params;
        let net_most = 12 + HIDDEN * LAYOUT.params + PHASES * HEAD_BYTES;
        let mut raw = Vec::with_capacity(linear_end);
        ZlibDecoder::new(bytes)
            .take((linear_end + net_most) as u64 + 1)
            .read_to_end(&mut raw)
            .map_err(|e| WeightsError::Format(format!("damaged or not compressed ({e})")))?;
        let with_net = match raw.get(..8) {
            Some(m) if m == MAGIC => false,
            Some(m) if m == MAGIC_NET => true,
            _ => return Err(format("no GSPATW01 or GSPATW02 header")),
        };
        if raw.len() < 20 {
            return Err(format("truncated header"));
        }
        let field = |i: usize| u32::from_le_bytes(raw[8 + 4 * i..12 + 4 * i].try_into().unwrap());
        let (phases, params, scale) = (field(0), field(1), field(2));
        if (phases as usize, params as usize, scale as i32) != (PHASES, LAYOUT.params, SCALE) {
            return Err(WeightsError::Format(format!(
                "made for {phases} phases of {params} parameters at scale {scale}; \
                 this engine uses {PHASES} of {} at {SCALE}",
                LAYOUT.params
            )));
        }
        let wrong_length = || format("wrong length (truncated or trailing data)");
        if raw.len() < linear_end || (!with_net && raw.len() != linear_end) {
            return Err(wrong_length());
        }
        let weights = raw[20..linear_end]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect();
        let net = if with_net {
            Some(decode_net(&raw[linear_end..]).ok_or_else(wrong_length)??)
        } else {
            None
        };
        Ok(PatternWeights::from_params(weights).with_net(net))
    }

    /// The sum of the weights of `(me, opp)` with `empties` empty squares, in weight units:
    /// the linear model alone (what the searches order moves by; the network's correction
    /// would cost more than it orders better).
    #[inline]
    #[must_use]
    pub fn raw(&self, me: u64, opp: u64, empties: u32) -> i32 {
        self.raw_with_moves(me, opp, empties, globals::both_moves(me, opp))
    }

    /// [`raw`](Self::raw) of a position whose legal moves are known: `moves` (the side to
    /// move's, the opponent's): the linear model alone.
    #[inline]
    #[must_use]
    pub fn raw_with_moves(&self, me: u64, opp: u64, empties: u32, moves: [u64; 2]) -> i32 {
        let phase = phase(empties);
        sum_at_indices(
            me,
            opp,
            moves,
            &self.shapes[phase * SHAPE_TABLE_LEN..],
            &self.features[phase * FEATURE_TABLE_LEN..],
        )
    }

    /// The evaluation of an 8x8 position in discs, from the side to move.
    #[inline]
    #[must_use]
    pub fn evaluate(&self, position: &Othello) -> i32 {
        self.evaluate_with_moves(position, position.both_moves())
    }

    /// [`evaluate`](Self::evaluate) of a position whose legal moves are known: `moves`
    /// (the side to move's, the opponent's).
    #[inline]
    #[must_use]
    pub fn evaluate_with_moves(&self, position: &Othello, moves: [u64; 2]) -> i32 {
        self.evaluate_within(position, moves, -i32::MAX, i32::MAX)
    }

    /// [`evaluate_with_moves`](Self::evaluate_with_moves) as a search with the window
    /// `(lo, hi)` needs it, fail-soft: the evaluation itself, or where the network's
    /// largest correction cannot bring the linear value into the window, a bound on it
    /// beyond the window (at most `lo`, at least the evaluation; at least `hi`, at most the
    /// evaluation), found without the network.
    #[inline]
    #[must_use]
    pub fn evaluate_within(&self, position: &Othello, moves: [u64; 2], lo: i32, hi: i32) -> i32 {
        let empties = position.empty().count_ones();
        let (me, opp) = (position.me(), position.opp());
        let phase = phase(empties);
        let discs = |raw: i32| (raw + SCALE / 2).div_euclid(SCALE).clamp(-62, 62);
        let Some(net) = self.net.as_ref().filter(|net| net.covers(phase)) else {
            return discs(self.raw_with_moves(me, opp, empties, moves));
        };
        let mut indices = [0; INDEX_COUNT];
        let linear = linear_sum_and_indices(
            me,
            opp,
            moves,
            &self.shapes[phase * SHAPE_TABLE_LEN..],
            &self.features[phase * FEATURE_TABLE_LEN..],
            &mut indices,
        );
        // Rounding to discs keeps order, so the bounds hold in discs too.
        let most = discs(linear + MAX_CORRECTION);
        if most <= lo {
            return most;
        }
        let least = discs(linear - MAX_CORRECTION);
        if least >= hi {
            return least;
        }
        discs(linear + net.correction(phase, &indices))
    }
}

/// The network of a file's bytes after the linear weights: `None` when their length is
/// wrong.
fn decode_net(bytes: &[u8]) -> Option<Result<PatternNet, WeightsError>> {
    let field = |i: usize| {
        let b = bytes.get(4 * i..4 * i + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?) as usize)
    };
    let (hidden, first, last) = (field(0)?, field(1)?, field(2)?);
    if hidden != HIDDEN {
        return Some(Err(WeightsError::Format(format!(
            "a network of {hidden} hidden units; this engine reads {HIDDEN}"
        ))));
    }
    if first > last || last >= PHASES {
        return Some(Err(WeightsError::Format(format!(
            "a network over phases {first}-{last}; the game has 0-{}",
            PHASES - 1
        ))));
    }
    let table_end = 12 + HIDDEN * LAYOUT.params;
    let heads_bytes = bytes.get(table_end..)?;
    if bytes.len() < table_end || heads_bytes.len() != (last - first + 1) * HEAD_BYTES {
        return None;
    }
    let params = bytes[12..table_end]
        .chunks_exact(HIDDEN)
        .map(|row| std::array::from_fn(|k| row[k] as i8))
        .collect();
    let heads = heads_bytes
        .chunks_exact(HEAD_BYTES)
        .map(|h| {
            let word = |i: usize| i16::from_le_bytes([h[2 * i], h[2 * i + 1]]);
            Head {
                bias: std::array::from_fn(word),
                out: std::array::from_fn(|k| word(HIDDEN + k)),
                offset: i32::from_le_bytes(h[4 * HIDDEN..].try_into().expect("four bytes")),
            }
        })
        .collect();
    Some(
        PatternNet::new((first, last), params, heads)
            .map_err(|e| WeightsError::Format(e.to_string())),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PatternWeights {
        let params = (0..PHASES * LAYOUT.params)
            .map(|i| (i % 97) as i16 - 48)
            .collect();
        PatternWeights::from_params(params)
    }

    fn sample_with_net() -> PatternWeights {
        sample().with_net(Some(PatternNet::random((3, 13), 9)))
    }

    #[test]
    fn files_round_trip() {
        for w in [sample(), sample_with_net()] {
            let back = PatternWeights::decode(&w.encode()).unwrap();
            assert_eq!(back.params(), w.params());
            assert_eq!((&back.shapes, &back.features), (&w.shapes, &w.features));
            assert_eq!(back.net(), w.net());
        }
        assert_eq!(&inflate(&sample().encode())[..8], MAGIC);
        assert_eq!(&inflate(&sample_with_net().encode())[..8], MAGIC_NET);
    }

    fn inflate(bytes: &[u8]) -> Vec<u8> {
        let mut raw = Vec::new();
        ZlibDecoder::new(bytes).read_to_end(&mut raw).unwrap();
        raw
    }

    fn deflate(raw: &[u8]) -> Vec<u8> {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::fast());
        z.write_all(raw).unwrap();
        z.finish().unwrap()
    }

    #[test]
    fn damaged_networks_are_refused() {
        let raw = inflate(&sample_with_net().encode());
        let net_at = 20 + 2 * PHASES * LAYOUT.params;
        let mut wrong_hidden = raw.clone();
        wrong_hidden[net_at] = 8;
        let mut wrong_phases = raw.clone();
        wrong_phases[net_at + 8] = 15;
        let mut big_output = raw.clone();
        // The first head's first output weight.
        let out_at = net_at + 12 + HIDDEN * LAYOUT.params + 2 * HIDDEN;
        big_output[out_at..out_at + 2].copy_from_slice(&3000i16.to_le_bytes());
        let mut linear_magic = raw.clone();
        linear_magic[..8].copy_from_slice(MAGIC);
        for (what, bad, says) in [
            ("truncated", raw[..raw.len() - 1].to_vec(), "wrong length"),
            ("trailing", [&raw[..], &[0]].concat(), "wrong length"),
            (
                "no heads",
                raw[..net_at + 12 + HIDDEN * LAYOUT.params].to_vec(),
                "wrong length",
            ),
            ("no network", raw[..net_at].to_vec(), "wrong length"),
            ("8 hidden units", wrong_hidden, "8 hidden units"),
            ("phases 3-15", wrong_phases, "phases 3-15"),
            ("a large output weight", big_output, "output weight"),
            ("a network in a linear file", linear_magic, "wrong length"),
        ] {
            match PatternWeights::decode(&deflate(&bad)) {
                Err(WeightsError::Format(why)) => assert!(why.contains(says), "{what}: {why}"),
                other => panic!("{what}: {other:?}"),
            }
        }
    }

    /// The positions before the end of the random games of `seeds`.
    fn unfinished_positions(seeds: std::ops::Range<u64>) -> Vec<Othello> {
        use crate::game::Game;
        use crate::search::othello::tests::random_game_positions;
        seeds
            .flat_map(random_game_positions)
            .filter(|p| !p.is_terminal())
            .collect()
    }

    #[test]
    fn a_windowed_evaluation_is_the_evaluation_or_a_bound_beyond_the_window() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let weights = PatternWeights::builtin();
        let with_net = sample_with_net();
        let positions = unfinished_positions(0..60);
        let mut rng = StdRng::seed_from_u64(66);
        let (mut bounds, mut exact) = (0, 0);
        for w in [&*weights, &with_net] {
            for p in &positions {
                let moves = p.both_moves();
                let value = w.evaluate_with_moves(p, moves);
                assert_eq!(value, w.evaluate(p));
                for _ in 0..4 {
                    let lo = rng.random_range(-40..40);
                    let hi = lo + rng.random_range(1..12);
                    let got = w.evaluate_within(p, moves, lo, hi);
                    crate::search::assert_fail_soft(got, value, (lo, hi), &p.to_string());
                    if got == value {
                        exact += 1
                    } else {
                        bounds += 1
                    }
                }
            }
        }
        // Both kinds of answer occur.
        assert!(
            bounds > 100 && exact > 100,
            "{bounds} bounds, {exact} evaluations"
        );
    }

    #[test]
    fn the_network_corrects_only_its_phases_and_by_at_most_its_limit() {
        let linear = sample();
        let with_net = sample_with_net();
        let mut corrected = 0;
        for p in unfinished_positions(100..140) {
            let (a, b) = (linear.evaluate(&p), with_net.evaluate(&p));
            let phase = phase(p.empty().count_ones());
            if (3..=13).contains(&phase) {
                assert!((a - b).abs() <= MAX_CORRECTION / SCALE + 1, "{p}: {a} {b}");
                corrected += usize::from(a != b);
            } else {
                assert_eq!(a, b, "{p}");
            }
        }
        assert!(corrected > 100, "{corrected}");
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().encode();
        let mut flipped = bytes.clone();
        let mid = flipped.len() / 2;
        flipped[mid] ^= 0x40;
        for (what, bad) in [
            ("empty", Vec::new()),
            ("truncated", bytes[..bytes.len() / 2].to_vec()),
            ("a flipped bit", flipped),
            ("not compressed", b"GSPATW01 plain text".to_vec()),
        ] {
            assert!(
                matches!(PatternWeights::decode(&bad), Err(WeightsError::Format(_))),
                "{what}"
            );
        }
        let mut z = ZlibEncoder::new(Vec::new(), Compression::fast());
        z.write_all(b"GSPATW01\x0f\0\0\0\x01\0\0\0\x80\0\0\0")
            .unwrap();
        let err = PatternWeights::decode(&z.finish().unwrap()).unwrap_err();
        assert!(
            err.to_string()
                .contains("made for 15 phases of 1 parameters"),
            "{err}"
        );
    }

    #[test]
    fn a_missing_file_says_which() {
        let err = PatternWeights::load(Path::new("/nonexistent/w.bin")).unwrap_err();
        assert!(err.to_string().starts_with("/nonexistent/w.bin: "), "{err}");
    }

    #[test]
    fn the_shipped_weights_load() {
        let w = PatternWeights::builtin();
        assert!(w.params().iter().any(|&p| p != 0));
    }

    #[test]
    fn phases_cover_the_game() {
        assert_eq!(phase(60), 0);
        assert_eq!(phase(57), 0);
        assert_eq!(phase(56), 1);
        assert_eq!(phase(4), 14);
        assert_eq!(phase(0), 14);
        // Every count of discs in exactly the phase that says it holds it.
        for discs in 4..=64 {
            let (first, last) = phase_discs(phase(64 - discs));
            assert!((first..=last).contains(&(discs as usize)), "{discs} discs");
        }
        assert_eq!(phase_discs(0), (4, 7));
        assert_eq!(phase_discs(PHASES - 1), (60, 64));
    }

    #[test]
    fn phases_within_a_margin_are_those_whose_discs_come_that_near() {
        for margin in 0..=5 {
            for empties in 0..=60u32 {
                let discs = 64 - empties as usize;
                let within = phases_within(empties, margin);
                for p in 0..PHASES {
                    let (first, last) = phase_discs(p);
                    let near = first <= discs + margin as usize && discs <= last + margin as usize;
                    assert_eq!(
                        within.contains(&p),
                        near,
                        "{empties} empties, margin {margin}, phase {p}"
                    );
                }
            }
        }
    }
}
