//! An engine that speaks NBoard (Edax, NTest, Egaroucid, or ours with `--nboard`), driven
//! through `set game` / `go` / `===`, with `ping`/`pong` to keep the conversation in step.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError};
use protocol::{Depth, Info, Score};

use super::fault::{Fault, FaultKind, Reply};
use crate::ggf::GgfGame;

/// A running NBoard engine.
pub struct NboardEngine {
    child: Child,
    input: ChildStdin,
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
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| fault(FaultKind::Crash, format!("cannot start '{program}': {e}")))?;
        let (Some(input), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(fault(FaultKind::Crash, "no pipes to the engine"));
        };
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
            lines,
            pings: 0,
        };
        engine.send("nboard 2")?;
        engine.sync(timeout)?;
        Ok(engine)
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
        let mut info = None;
        loop {
            let line = self.next_line(deadline, "move")?;
            if let Some(rest) = line.strip_prefix("search ") {
                info = search_info(rest).or(info);
            } else if let Some(rest) = line.strip_prefix("===") {
                let mv = chosen_move(rest)
                    .ok_or_else(|| fault(FaultKind::Protocol, format!("cannot read '{line}'")))?;
                return Ok(Reply {
                    mv: Some(mv),
                    info,
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

/// The move of `=== F5/-1.00/0.5` (or Edax's `=== F5 -1.00 0.5`), in our notation.
fn chosen_move(rest: &str) -> Option<String> {
    let token = rest.split(['/', ' ']).find(|t| !t.is_empty())?;
    Some(if token.eq_ignore_ascii_case("PA") {
        "pass".into()
    } else {
        token.to_ascii_lowercase()
    })
}

/// Score and depth of `search <pv> <eval> 0 <depth> ...`.
fn search_info(rest: &str) -> Option<Info> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let eval: f64 = words.get(1)?.parse().ok()?;
    let depth = words
        .get(3)
        .and_then(|d| d.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .map(Depth::Plies);
    Some(Info {
        depth,
        score: Some(Score {
            value: eval.round() as i32,
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
        assert_eq!(chosen_move(" D6/-1.00/0.0").as_deref(), Some("d6"));
        assert_eq!(chosen_move(" F5 -1.00 0.0").as_deref(), Some("f5"));
        assert_eq!(chosen_move(" PA").as_deref(), Some("pass"));
        assert_eq!(chosen_move(" "), None);
        let info = search_info("F5-D6 -2.00 0 20@100%").unwrap();
        assert_eq!(info.score.unwrap().value, -2);
        assert_eq!(info.depth, Some(Depth::Plies(20)));
    }
}
