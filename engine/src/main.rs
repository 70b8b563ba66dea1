//! The `engine` command line: the protocol server, perft, solve, compare, bench.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    restore_sigpipe();
    return_tables_to_the_system();
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ENGINE_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("engine: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, so printing into a closed pipe (`engine ... | head`) would panic;
/// restore the default so the process ends quietly like any command-line tool.
#[allow(unsafe_code)]
fn restore_sigpipe() {
    // Safety: called first thing in main, before any other thread exists; setting a
    // signal's disposition to SIG_DFL has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// glibc raises its mmap threshold to the size of any large block freed, after which
/// transposition tables come from the heap of the thread that made them and stay with
/// the process when freed. A server whose sessions come and go must give their tables
/// back, so large blocks are always mapped on their own (and unmapped when freed).
#[allow(unsafe_code)]
fn return_tables_to_the_system() {
    const ONE_MIB: libc::c_int = 1 << 20;
    // Safety: called first thing in main, before any other thread exists or allocates;
    // mallopt only changes allocator parameters, and a failure leaves the defaults.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, ONE_MIB);
    }
}
