//! A session's output: lines queued for the client's writer, bounded in bytes. Sending
//! never waits, so neither the session nor its search thread can be held up by a client
//! that does not read; a client that falls more than the limit behind is cut off instead.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tokio::io::{AsyncWrite, AsyncWriteExt};
use tokio::sync::{Notify, mpsc};

/// The sending side, shared by the session and its search thread.
#[derive(Clone, Debug)]
pub(crate) struct Output {
    lines: mpsc::UnboundedSender<String>,
    state: Arc<State>,
}

/// The writer's side of the queue.
#[derive(Debug)]
pub(crate) struct Queue {
    lines: mpsc::UnboundedReceiver<String>,
    state: Arc<State>,
}

#[derive(Debug)]
struct State {
    /// Bytes queued and not yet written.
    queued: AtomicUsize,
    limit: usize,
    overflowed: AtomicBool,
    /// Writing failed: the client closed its end (a closed stdout, a reset socket).
    closed: AtomicBool,
    /// Notified when the output overflows or closes.
    cut: Notify,
}

/// An output queue that holds at most `limit` bytes not yet written.
pub(crate) fn channel(limit: usize) -> (Output, Queue) {
    let (tx, rx) = mpsc::unbounded_channel();
    let state = Arc::new(State {
        queued: AtomicUsize::new(0),
        limit,
        overflowed: AtomicBool::new(false),
        closed: AtomicBool::new(false),
        cut: Notify::new(),
    });
    (
        Output {
            lines: tx,
            state: Arc::clone(&state),
        },
        Queue { lines: rx, state },
    )
}

impl Output {
    /// Queues a line (without its newline). A line that would take the queue past its
    /// limit is dropped and marks the output as overflowed; so is every line after it.
    pub(crate) fn send(&self, line: String) {
        let state = &self.state;
        if state.overflowed.load(Ordering::Relaxed) || state.closed.load(Ordering::Relaxed) {
            return;
        }
        let len = line.len() + 1;
        if state.queued.fetch_add(len, Ordering::Relaxed) + len > state.limit {
            state.overflowed.store(true, Ordering::Relaxed);
            state.cut_off();
            return;
        }
        // Fails only when the writer is gone with the client; the reader ends the session.
        let _ = self.lines.send(line);
    }

    /// True once the client fell too far behind.
    pub(crate) fn overflowed(&self) -> bool {
        self.state.overflowed.load(Ordering::Relaxed)
    }

    /// Resolves when the client falls too far behind, or its end of the output is closed:
    /// either way nothing more reaches it, and the session ends.
    pub(crate) async fn cut_off(&self) {
        let state = &self.state;
        while !self.overflowed() && !state.closed.load(Ordering::Relaxed) {
            state.cut.notified().await;
        }
    }
}

impl State {
    fn cut_off(&self) {
        // One waiter (the session's reader); a stored permit covers a late one.
        self.cut.notify_one();
    }
}

impl Queue {
    /// Writes queued lines to `writer` until every sender is gone (then shuts the writer
    /// down) or writing fails.
    pub(crate) async fn write_to<W: AsyncWrite + Unpin>(mut self, mut writer: W) {
        while let Some(line) = self.lines.recv().await {
            let mut batch = line;
            batch.push('\n');
            while let Ok(more) = self.lines.try_recv() {
                batch.push_str(&more);
                batch.push('\n');
            }
            if writer.write_all(batch.as_bytes()).await.is_err() || writer.flush().await.is_err() {
                self.state.closed.store(true, Ordering::Relaxed);
                self.state.cut_off();
                return;
            }
            self.state.queued.fetch_sub(batch.len(), Ordering::Relaxed);
        }
        // Tell a TCP client that nothing more comes; the client may be gone already.
        let _ = writer.shutdown().await;
    }
}

impl crate::fronts::LineOut for Output {
    fn send(&self, line: String) {
        Output::send(self, line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lines_past_the_limit_are_dropped_and_reported() {
        let (out, queue) = channel(10);
        out.send("12345".into());
        assert!(!out.overflowed());
        out.send("123456".into());
        assert!(out.overflowed());
        out.send("1".into());
        out.cut_off().await;
        drop(out);
        let mut written = Vec::new();
        queue.write_to(&mut written).await;
        assert_eq!(written, b"12345\n");
    }

    /// A writer whose other end is closed.
    struct Closed;

    impl AsyncWrite for Closed {
        fn poll_write(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
            _: &[u8],
        ) -> std::task::Poll<std::io::Result<usize>> {
            std::task::Poll::Ready(Err(std::io::ErrorKind::BrokenPipe.into()))
        }

        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }

        fn poll_shutdown(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<std::io::Result<()>> {
            std::task::Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn a_closed_output_cuts_the_session_off() {
        let (out, queue) = channel(1000);
        let writer = tokio::spawn(queue.write_to(Closed));
        out.send("info depth 1".into());
        out.cut_off().await;
        assert!(!out.overflowed(), "closed, not overflowed");
        writer.await.unwrap();
    }

    #[tokio::test]
    async fn written_lines_make_room_again() {
        let (out, queue) = channel(10);
        let writer = tokio::spawn(async move {
            let mut written = Vec::new();
            queue.write_to(&mut written).await;
            written
        });
        for _ in 0..100 {
            out.send("1234".into());
            tokio::task::yield_now().await;
            while out.state.queued.load(Ordering::Relaxed) > 0 {
                tokio::task::yield_now().await;
            }
        }
        assert!(!out.overflowed());
        drop(out);
        assert_eq!(writer.await.unwrap().len(), 500);
    }
}
