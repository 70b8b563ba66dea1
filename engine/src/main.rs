//! The `engine` command line: the protocol server (stdin/stdout, TCP, NBoard mode) and its
//! subcommands, `perft`, `solve`, `compare`, `bench`, `match`, `train`, `accuracy`,
//! `kalah-db`, `label`, `selfplay`, `book` and `probcut` (each a file in `cli/`).

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    return_tables_to_the_system();
    let args = cli::Cli::parse();
    if !args.serves() {
        restore_sigpipe();
    }
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        // Its report of a failed write is an `eprintln!`, which panics when stderr is
        // closed: a log nobody can read must not end a session.
        .log_internal_errors(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ENGINE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("engine: {}", one_line(&error));
            ExitCode::FAILURE
        }
    }
}

/// The error and its causes on one line, each said once: an error whose message already
/// ends with its cause's (`path: No such file or directory`) is not followed by it again.
fn one_line(error: &anyhow::Error) -> String {
    let mut line = String::new();
    for cause in error.chain() {
        let text = cause.to_string();
        if line.is_empty() {
            line = text;
        } else if !line.ends_with(&text) {
            line = format!("{line}: {text}");
        }
    }
    line
}

/// Rust ignores SIGPIPE, so printing a report into a closed pipe (`engine ... | head`)
/// would panic; restore the default so the process ends quietly like any command-line
/// tool. Servers keep ignoring it: a closed stdout or stderr (a log piped into `head`)
/// must not kill them, and they handle every failed write.
#[cfg(unix)]
#[allow(unsafe_code)]
fn restore_sigpipe() {
    // Safety: called at the start of main, before any other thread exists; setting a
    // signal's disposition to SIG_DFL has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// Elsewhere there is no SIGPIPE.
#[cfg(not(unix))]
fn restore_sigpipe() {}

/// glibc raises its mmap threshold to the size of any large block freed, after which
/// transposition tables come from the heap of the thread that made them and stay with
/// the process when freed. A server whose sessions come and go must give their tables
/// back, so large blocks are always mapped on their own (and unmapped when freed).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn return_tables_to_the_system() {
    const ONE_MIB: libc::c_int = 1 << 20;
    // Safety: called first thing in main, before any other thread exists or allocates;
    // mallopt only changes allocator parameters, and a failure leaves the defaults.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, ONE_MIB);
    }
}

/// Other allocators give large blocks back on their own.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn return_tables_to_the_system() {}
