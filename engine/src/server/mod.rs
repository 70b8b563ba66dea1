//! The server: carries a front's lines ([`crate::fronts`]) over stdin/stdout or TCP, one
//! session per client.
//!
//! Each session reads lines on the async runtime (tokio) and gives them to its front,
//! which answers what needs no search at once (`isready`, errors) and hands searches to
//! its engine's search thread ([`crate::core`]); output from both goes through one queue
//! to the client (see [`output`]). Every resource a client can make the server hold is
//! bounded by a field of [`ServerConfig`]: line length, connections, table memory (all
//! sessions, and one session), output not yet read, and time a connection may sit idle.

mod config;
mod lines;
mod output;

use std::future::Future;
use std::io::Write as _;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

pub use crate::core::{EngineDefaults, FileAccess};
pub use config::ServerConfig;

use crate::core::{Ending, Shared};
use crate::fronts::{BadLine, Flow, Front, Lines, Protocol};
use lines::{Line, LineReader};

/// How long a TCP session's last output may take to reach a client that stopped reading.
const LAST_WRITE: Duration = Duration::from_secs(10);

/// Serves one session of `protocol` on stdin/stdout until `quit` or the end of input (a
/// search still running then is finished first, unless it is `go infinite`). `first` is
/// input already read from stdin (the first line, read to choose the protocol).
///
/// # Errors
/// When the runtime cannot be started.
pub fn serve_stdio(config: ServerConfig, first: Vec<u8>, protocol: Protocol) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let shared = Shared::new(config.engine.clone());
    runtime.block_on(run_session(
        std::io::Cursor::new(first).chain(tokio::io::stdin()),
        tokio::io::stdout(),
        shared,
        &config,
        // A native client that closes its input still gets its answer; NBoard's GUI is gone.
        match protocol {
            Protocol::Native => Ending::Drain,
            Protocol::Nboard => Ending::Stop,
        },
        Connection::Stdio(protocol),
    ));
    // Tokio reads stdin with a blocking read that cannot be cancelled: do not wait for it.
    runtime.shutdown_background();
    Ok(())
}

/// Serves TCP clients on `addr` (`port` alone binds loopback) until the process ends.
/// Prints `listening <address>` on stdout once bound.
///
/// # Errors
/// When the address cannot be read or bound.
pub fn serve_tcp(addr: &str, config: ServerConfig) -> anyhow::Result<()> {
    let addr = listen_address(addr)?;
    let listener =
        std::net::TcpListener::bind(addr).with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    // Whoever started the server may not read its output; serving goes on regardless.
    let mut stdout = std::io::stdout();
    let _ = writeln!(stdout, "listening {bound}").and_then(|()| stdout.flush());
    tracing::info!(%bound, "listening");
    serve_listener(listener, config)
}

/// Starts a server on a free loopback port on a thread of its own and returns its address:
/// an engine inside a frontend's process, reached through the same protocol.
///
/// # Errors
/// When no port can be bound or the thread cannot start.
pub fn serve_in_background(config: ServerConfig) -> anyhow::Result<SocketAddr> {
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0)).context("cannot bind loopback")?;
    let bound = listener.local_addr()?;
    std::thread::Builder::new()
        .name("engine-server".into())
        .spawn(move || {
            if let Err(e) = serve_listener(listener, config) {
                tracing::error!(error = %e, "in-process engine server ended");
            }
        })
        .context("cannot start the engine server thread")?;
    Ok(bound)
}

fn serve_listener(listener: std::net::TcpListener, config: ServerConfig) -> anyhow::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        let listener = TcpListener::from_std(listener)?;
        let connections = Arc::new(Semaphore::new(config.max_connections));
        let max_connections = config.max_connections;
        let shared = Shared::new(config.engine.clone());
        let transport = Arc::new(config);
        loop {
            let (stream, peer) = match listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of file descriptors and the like: wait rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            // Lines are small and answers should leave at once.
            let _ = stream.set_nodelay(true);
            let Ok(permit) = Arc::clone(&connections).try_acquire_owned() else {
                tracing::warn!(%peer, "refused: too many connections");
                tokio::spawn(refuse(stream, max_connections));
                continue;
            };
            let shared = Arc::clone(&shared);
            let transport = Arc::clone(&transport);
            tokio::spawn(async move {
                tracing::info!(%peer, "connected");
                let (reader, writer) = stream.into_split();
                let connection = Connection::Tcp { _slot: permit };
                run_session(
                    reader,
                    writer,
                    Arc::clone(&shared),
                    &transport,
                    Ending::Stop,
                    connection,
                )
                .await;
                let tables = shared.tables_mib();
                tracing::info!(%peer, tables_mib = tables, "disconnected");
            });
        }
    })
}

/// `7000` means `127.0.0.1:7000`; anything else must be `host:port`.
fn listen_address(addr: &str) -> anyhow::Result<SocketAddr> {
    if let Ok(port) = addr.parse::<u16>() {
        return Ok(SocketAddr::from(([127, 0, 0, 1], port)));
    }
    use std::net::ToSocketAddrs;
    addr.to_socket_addrs()
        .with_context(|| format!("bad listen address '{addr}' (expected host:port or a port)"))?
        .next()
        .with_context(|| format!("listen address '{addr}' resolves to nothing"))
}

async fn refuse(mut stream: tokio::net::TcpStream, limit: usize) {
    let line = format!("error too many connections (the limit is {limit}); try again later\n");
    // The client may be gone already; there is nothing else to do for it.
    let _ = stream.write_all(line.as_bytes()).await;
    let _ = stream.shutdown().await;
}

/// Where a session's client is.
enum Connection {
    Stdio(Protocol),
    /// A TCP client; the permit is its connection slot, held (never read) until dropped.
    Tcp {
        _slot: OwnedSemaphorePermit,
    },
}

async fn run_session<R, W>(
    reader: R,
    writer: W,
    shared: Arc<Shared>,
    config: &ServerConfig,
    at_end_of_input: Ending,
    connection: Connection,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (out, queue) = output::channel(config.max_output_bytes);
    let mut writer = tokio::spawn(queue.write_to(writer));
    let (tcp, protocol) = match connection {
        Connection::Stdio(protocol) => (false, protocol),
        Connection::Tcp { .. } => (true, Protocol::Native),
    };
    // A frontend on stdin owns the engine process: it is never idle too long, and its
    // output is written to the end however slowly it reads.
    let (idle_timeout, last_write) = if tcp {
        (config.idle_timeout, Some(LAST_WRITE))
    } else {
        (None, None)
    };
    let max_line = config.max_line_bytes;
    let files = if tcp {
        config.remote_files.clone()
    } else {
        FileAccess::Any
    };
    let lines: Lines = Arc::new(out.clone());
    match Front::new(protocol, lines, &shared, files) {
        Ok(mut session) => {
            let mut lines = LineReader::new(BufReader::new(reader), max_line);
            let ending = loop {
                let idle = idle_timeout.map(|after| session.idle(after));
                let line = tokio::select! {
                    line = lines.next() => line,
                    () = out.cut_off() => {
                        tracing::info!("the client's output is closed or not read: closing");
                        break Ending::Stop;
                    }
                    () = wait_or_never(idle) => {
                        session.closing("idle for too long: closing the connection");
                        break Ending::Stop;
                    }
                };
                match line {
                    Ok(Some(Line::Text(text))) => {
                        if session.handle_line(&text).await == Flow::Quit {
                            break Ending::Stop;
                        }
                    }
                    Ok(Some(Line::TooLong)) => session.bad_line(BadLine::TooLong(max_line)),
                    Ok(Some(Line::NotUtf8)) => session.bad_line(BadLine::NotUtf8),
                    Ok(None) => break at_end_of_input,
                    Err(e) => {
                        tracing::debug!(error = %e, "read failed");
                        break Ending::Stop;
                    }
                }
            };
            // The client is gone or done: its slot is free for the next one at once.
            drop(connection);
            session.finish(ending).await;
        }
        Err(e) => {
            tracing::error!(error = %e, "cannot start a search thread");
            out.send(format!("error cannot start a search thread: {e}"));
        }
    }
    let overflowed = out.overflowed();
    drop(out);
    // The writer ends once every queued line is written; a client that does not read
    // gets no more time.
    let written = match last_write {
        _ if overflowed => false,
        Some(limit) => tokio::time::timeout(limit, &mut writer).await.is_ok(),
        None => (&mut writer).await.is_ok(),
    };
    if !written {
        writer.abort();
    }
}

/// Waits for `future`, or forever when there is none.
async fn wait_or_never(future: Option<impl Future<Output = ()>>) {
    match future {
        Some(future) => future.await,
        None => std::future::pending().await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_port_binds_loopback() {
        assert_eq!(
            listen_address("7000").unwrap(),
            "127.0.0.1:7000".parse().unwrap()
        );
        assert_eq!(
            listen_address("0.0.0.0:7000").unwrap(),
            "0.0.0.0:7000".parse().unwrap()
        );
        assert!(listen_address("nowhere").is_err());
    }
}
