//! The lines NBoard expects: `search <pv> <eval> 0 <depth>` and `=== <mv>/<eval>/<time>`.

use protocol::{Depth, Info, Proof};

/// A move as GGF writes it: `F5`, `PA` for a pass.
fn ggf_move(mv: &str) -> String {
    if mv == "pass" {
        "PA".into()
    } else {
        mv.to_ascii_uppercase()
    }
}

/// `search F5-D6-C3 -1.00 0 12`, with depth `100%` for an exact solve and `100%W` for a
/// win/loss/draw proof (NBoard then shows the value as exact, or as a win, loss or draw);
/// a search to the end counts the `empties` left. A selective search's depth carries its
/// confidence, as Edax writes it: `14@87%`.
pub(super) fn search_line(info: &Info, empties: u32) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| ggf_move(m)).collect();
    let score = info.score.unwrap_or_default();
    let plies = match info.depth {
        Some(Depth::End) => empties,
        Some(Depth::Plies(n)) => n,
        None => 0,
    };
    let depth = match (score.proof, info.selectivity) {
        (Proof::Solved, _) => "100%".to_string(),
        (Proof::Wld, _) => "100%W".to_string(),
        (Proof::Heuristic, Some(level)) if plies > 0 => format!("{plies}@{level}%"),
        (Proof::Heuristic, _) => plies.to_string(),
    };
    format!(
        "search {} {:.2} 0 {depth}",
        pv.join("-"),
        f64::from(score.value)
    )
}

/// `book F5 -1.00 1234 0`: a move of the opening book, its value and the recorded games
/// that played it (depth 0: the value is the book's, not a search's).
pub(super) fn book_line(info: &Info, games: u64) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| ggf_move(m)).collect();
    let value = info.score.map_or(0, |s| s.value);
    format!("book {} {:.2} {games} 0", pv.join("-"), f64::from(value))
}

/// `=== F5/-1.00/0.52`: the move chosen, its value for the mover, seconds taken.
pub(super) fn chosen(mv: &str, value: i32, seconds: f64) -> String {
    format!("=== {}/{:.2}/{seconds:.2}", ggf_move(mv), f64::from(value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{Bound, Score};

    fn info(depth: Depth, proof: Proof, selectivity: Option<u32>) -> Info {
        Info {
            depth: Some(depth),
            selectivity,
            score: Some(Score {
                value: -3,
                bound: Bound::Exact,
                proof,
            }),
            pv: vec!["f5".into(), "pass".into()],
            ..Info::default()
        }
    }

    #[test]
    fn depths_say_how_the_score_is_known() {
        let line = |depth, proof, selectivity, empties| {
            search_line(&info(depth, proof, selectivity), empties)
        };
        let (plies, end) = (Depth::Plies(14), Depth::End);
        let heuristic = Proof::Heuristic;
        assert_eq!(line(plies, heuristic, None, 30), "search F5-PA -3.00 0 14");
        assert_eq!(
            line(plies, heuristic, Some(87), 30),
            "search F5-PA -3.00 0 14@87%"
        );
        assert_eq!(
            line(end, heuristic, Some(87), 9),
            "search F5-PA -3.00 0 9@87%"
        );
        assert_eq!(
            line(end, Proof::Solved, None, 9),
            "search F5-PA -3.00 0 100%"
        );
        assert_eq!(line(end, Proof::Wld, None, 9), "search F5-PA -3.00 0 100%W");
        let book = Info {
            book: Some(1234),
            ..info(plies, heuristic, None)
        };
        assert_eq!(book_line(&book, 1234), "book F5-PA -3.00 1234 0");
    }
}
