//! An engine that speaks NBoard (Edax, NTest, Egaroucid, or ours with `--nboard`), driven
//! through `set game` / `go` / `===`, with `ping`/`pong` to keep the conversation in step.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use protocol::{Depth, Info, Proof, Score, StderrTail};

use super::fault::{Fault, FaultKind, Reply};
use crate::ggf::GgfGame;

/// A running NBoard engine.
pub struct NboardEngine {
    child: Child,
    input: ChildStdin,
    stderr: Option<StderrTail>,
    lines: Receiver<String>,
    pings: u64,
}

fn fault(kind: FaultKind, detail: impl Into<String>) -> Fault {
    Fault {
        kind,
        detail: detail.into(),
    }
}

impl NboardEngine {
    /// Starts `command` and checks that it answers `ping` within `timeout`.
    ///
    /// # Errors
    /// A crash fault when it cannot be started, a stall when it does not answer.
    pub fn start(command: &[String], timeout: Duration) -> Result<NboardEngine, Fault> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| fault(FaultKind::Crash, "empty NBoard command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| fault(FaultKind::Crash, format!("cannot start '{program}': {e}")))?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(fault(FaultKind::Crash, "no pipes to the engine"));
        };
        let stderr = child.stderr.take().map(|e| StderrTail::capture(e, false));
        let (tx, lines) = crossbeam_channel::unbounded();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        let mut engine = NboardEngine {
            child,
            input,
            stderr,
            lines,
            pings: 0,
        };
        engine.send("nboard 2")?;
        match engine.sync(timeout) {
            Ok(()) => Ok(engine),
            Err(f) => Err(f.with_stderr(engine.stderr_tail())),
        }
    }

    /// The engine's last lines on its standard error.
    #[must_use]
    pub fn stderr_tail(&self) -> Option<&StderrTail> {
        self.stderr.as_ref()
    }

    fn send(&mut self, line: &str) -> Result<(), Fault> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|e| fault(FaultKind::Crash, format!("engine input closed: {e}")))
    }

    fn next_line(&self, deadline: Instant, what: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => {
                Err(fault(FaultKind::Stall, format!("no {what} in time")))
            }
            Err(RecvTimeoutError::Disconnected) => {
                Err(fault(FaultKind::Crash, "the engine closed its output"))
            }
        }
    }

    /// `ping n`, then reads up to `pong n`: everything before it is stale.
    fn sync(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"))?;
        let deadline = Instant::now() + timeout;
        let pong = format!("pong {n}");
        while self.next_line(deadline, "pong")?.trim() != pong {}
        Ok(())
    }

    /// Asks for a move at the end of `game`, searching to `depth` if given.
    ///
    /// # Errors
    /// A fault: crash, stall, or a `===` line that cannot be read.
    pub fn choose(
        &mut self,
        game: &GgfGame,
        depth: Option<u32>,
        timeout: Duration,
    ) -> Result<Reply, Fault> {
        if let Some(d) = depth {
            self.send(&format!("set depth {d}"))?;
        }
        self.send(&format!("set game {game}"))?;
        self.sync(timeout)?;
        let asked = Instant::now();
        self.send("go")?;
        let deadline = asked + timeout;
        let mut info: Option<Info> = None;
        let mut nodes = None;
        loop {
            let line = self.next_line(deadline, "move")?;
            if let Some(rest) = line.strip_prefix("search ") {
                info = search_info(rest).or(info);
            } else if let Some(rest) = line.strip_prefix("nodestats ") {
                nodes = rest
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .or(nodes);
            } else if let Some(rest) = line.strip_prefix("===") {
                let (mv, eval) = chosen_move(rest)
                    .ok_or_else(|| fault(FaultKind::Protocol, format!("cannot read '{line}'")))?;
                return Ok(Reply {
                    mv: Some(mv),
                    info: reply_info(info, eval, nodes),
                    elapsed: asked.elapsed(),
                });
            }
        }
    }
}

impl Drop for NboardEngine {
    fn drop(&mut self) {
        // The engine may be gone already; kill and reap it either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of `=== F5/-1.00/0.5` (or Edax's `=== F5 -1.00 0.5`), in our notation, and
/// the evaluation given with it, if any.
fn chosen_move(rest: &str) -> Option<(String, Option<f64>)> {
    let rest = rest.trim();
    // `mv/eval/time` (a field may be empty), or Edax's `mv eval time`.
    let mut tokens: Box<dyn Iterator<Item = &str>> = if rest.contains('/') {
        Box::new(rest.split('/').map(str::trim))
    } else {
        Box::new(rest.split_whitespace())
    };
    let token = tokens.next().filter(|t| !t.is_empty())?;
    let mv = if token.eq_ignore_ascii_case("PA") {
        "pass".into()
    } else {
        token.to_ascii_lowercase()
    };
    let eval = tokens
        .next()
        .and_then(|e| e.parse::<f64>().ok())
        .filter(|e| e.is_finite());
    Some((mv, eval))
}

/// What the move's record gets: the last `search` line's depth and score, the `===`
/// line's evaluation when it gives one (some engines, Edax among them, send no `search`
/// line), and the nodes of the last `nodestats`.
fn reply_info(search: Option<Info>, eval: Option<f64>, nodes: Option<u64>) -> Option<Info> {
    if search.is_none() && eval.is_none() && nodes.is_none() {
        return None;
    }
    let mut info = search.unwrap_or_default();
    if let Some(eval) = eval {
        let value = eval.round() as i32;
        // The search line's proof holds only for the value it proved.
        if info.score.is_none_or(|s| s.value != value) {
            info.score = Some(Score {
                value,
                ..Score::default()
            });
        }
    }
    info.nodes = nodes.or(info.nodes);
    Some(info)
}

/// Score and depth of `search <pv> <eval> 0 <depth> ...`: the depth `100%` is an exact
/// solve, `100%W` a win/loss/draw proof, `<n>` or `<n>@<p>%` a search of n plies.
fn search_info(rest: &str) -> Option<Info> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let eval: f64 = words.get(1)?.parse().ok()?;
    let field = words.get(3).copied().unwrap_or_default();
    let (depth, proof) = match field {
        "100%" => (Some(Depth::End), Proof::Solved),
        "100%W" => (Some(Depth::End), Proof::Wld),
        _ => (
            field
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .and_then(|d| d.parse().ok())
                .map(Depth::Plies),
            Proof::Heuristic,
        ),
    };
    Some(Info {
        depth,
        score: Some(Score {
            value: eval.round() as i32,
            proof,
            ..Score::default()
        }),
        ..Info::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_chosen_moves_and_search_lines() {
        assert_eq!(
            chosen_move(" D6/-1.00/0.0"),
            Some(("d6".into(), Some(-1.0)))
        );
        assert_eq!(
            chosen_move(" F5 -1.00 0.0"),
            Some(("f5".into(), Some(-1.0)))
        );
        assert_eq!(chosen_move(" PA"), Some(("pass".into(), None)));
        assert_eq!(chosen_move(" C4//1.5"), Some(("c4".into(), None)));
        assert_eq!(chosen_move(" "), None);
        let info = search_info("F5-D6 -2.00 0 20@73%").unwrap();
        assert_eq!(info.score.unwrap().value, -2);
        assert_eq!(info.depth, Some(Depth::Plies(20)));
        let exact = search_info("F5-D6 -2.00 0 100%").unwrap();
        assert_eq!(exact.depth, Some(Depth::End));
        assert_eq!(exact.score.unwrap().proof, Proof::Solved);
        let wld = search_info("F5-D6 2.00 0 100%W").unwrap();
        assert_eq!(wld.score.unwrap().proof, Proof::Wld);
    }

    #[test]
    fn the_chosen_line_and_nodestats_fill_the_record() {
        // Edax: no search line, the evaluation on `===`.
        let info = reply_info(None, Some(3.0), Some(1234)).unwrap();
        assert_eq!(info.score.unwrap().value, 3);
        assert_eq!(info.nodes, Some(1234));
        // A proven search line keeps its proof when `===` agrees, not when it differs.
        let solved = search_info("F5 4.00 0 100%");
        let agreed = reply_info(solved.clone(), Some(4.0), None).unwrap();
        assert_eq!(agreed.score.unwrap().proof, Proof::Solved);
        let differs = reply_info(solved, Some(2.0), None).unwrap();
        assert_eq!(
            differs.score.unwrap(),
            Score {
                value: 2,
                ..Score::default()
            }
        );
        assert_eq!(reply_info(None, None, None), None);
    }
}
