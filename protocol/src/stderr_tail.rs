//! The last lines an engine wrote on its standard error, kept so that a fault (a crash, a
//! stall) can say what the engine said before it.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

/// Lines kept.
pub const STDERR_TAIL_LINES: usize = 20;

/// Longest line kept, in characters (longer lines are cut).
const MAX_LINE_CHARS: usize = 500;

#[derive(Default)]
struct Tail {
    lines: VecDeque<String>,
    closed: bool,
}

/// Reads an engine's standard error on a thread of its own and keeps its last
/// [`STDERR_TAIL_LINES`] lines.
#[derive(Clone)]
pub struct StderrTail {
    shared: Arc<(Mutex<Tail>, Condvar)>,
}

impl std::fmt::Debug for StderrTail {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StderrTail").finish_non_exhaustive()
    }
}

impl StderrTail {
    /// Starts reading `source`; with `echo`, every line is also written to our own
    /// standard error, as if the engine shared it.
    pub fn capture(source: impl Read + Send + 'static, echo: bool) -> StderrTail {
        let tail = StderrTail {
            shared: Arc::new((Mutex::new(Tail::default()), Condvar::new())),
        };
        let shared = Arc::clone(&tail.shared);
        thread::spawn(move || {
            let mut reader = BufReader::new(source);
            let mut buf = Vec::new();
            while let Ok(n) = reader.read_until(b'\n', &mut buf) {
                if n == 0 {
                    break;
                }
                if echo {
                    // Our own stderr closed is no reason to stop keeping the tail.
                    let _ = std::io::stderr().write_all(&buf);
                }
                let line: String = String::from_utf8_lossy(&buf)
                    .trim_end_matches(['\n', '\r'])
                    .chars()
                    .take(MAX_LINE_CHARS)
                    .collect();
                buf.clear();
                let mut t = shared.0.lock().unwrap_or_else(PoisonError::into_inner);
                if t.lines.len() == STDERR_TAIL_LINES {
                    t.lines.pop_front();
                }
                t.lines.push_back(line);
            }
            shared
                .0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .closed = true;
            shared.1.notify_all();
        });
        tail
    }

    /// The last lines, oldest first, after waiting at most `wait` for the engine to close
    /// its standard error (an engine that crashed may still have lines in flight).
    #[must_use]
    pub fn lines(&self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let (lock, closed) = &*self.shared;
        let mut t = lock.lock().unwrap_or_else(PoisonError::into_inner);
        while !t.closed {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            t = closed
                .wait_timeout(t, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        t.lines.iter().cloned().collect()
    }

    /// `detail`, followed by the last lines (if any) joined with ` | `.
    #[must_use]
    pub fn annotate(&self, detail: &str, wait: Duration) -> String {
        let lines = self.lines(wait);
        if lines.is_empty() {
            detail.to_string()
        } else {
            format!("{detail}; its last stderr lines: {}", lines.join(" | "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines_and_cuts_long_ones() {
        let mut text = String::new();
        for i in 0..30 {
            text.push_str(&format!("line {i}\n"));
        }
        text.push_str(&"x".repeat(2000));
        let tail = StderrTail::capture(std::io::Cursor::new(text.into_bytes()), false);
        let lines = tail.lines(Duration::from_secs(5));
        assert_eq!(lines.len(), STDERR_TAIL_LINES);
        assert_eq!(lines[0], "line 11");
        assert_eq!(lines[STDERR_TAIL_LINES - 1].len(), MAX_LINE_CHARS);
        assert!(
            tail.annotate("crashed", Duration::ZERO)
                .starts_with("crashed; its last stderr lines: line 11 | line 12")
        );
    }

    #[test]
    fn nothing_said_leaves_the_detail_alone() {
        let tail = StderrTail::capture(std::io::empty(), false);
        assert_eq!(tail.annotate("stalled", Duration::from_secs(5)), "stalled");
    }
}
