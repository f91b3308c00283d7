//! `dancer serve`: the web app (`dancer_web`) on a local port.
//!
//! Thin: the flags become a `dancer_web::Config`, the server runs on a
//! tokio runtime until a signal, and the signal comes through the one
//! handler of `interrupt.rs` (a cancel flag, polled here): the server then
//! stops taking work, cancels its jobs and ends; the command exits 0. A
//! second signal ends the program at once (130), as everywhere.

use crate::args::{parse_seconds, whole_in};
use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port, printed at start)
    #[arg(long, default_value = "8080")]
    pub port: u16,
    /// Address to listen on; anything but loopback lets other machines in
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// Open the page in a browser
    #[arg(long)]
    pub open: bool,
    /// Jobs (long searches) running at once, 1 to 256 (default: one per core)
    #[arg(long, value_name = "N", value_parser = |s: &str| whole_in(s, 1, dancer_web::MAX_JOBS, ""))]
    pub jobs: Option<usize>,
    /// Jobs waiting at most; more are refused (429)
    #[arg(long, value_name = "N", default_value = "64", value_parser = |s: &str| whole_in(s, 0, 1_000_000, ""))]
    pub queue: usize,
    /// The most time one job may run, in seconds
    #[arg(long, value_name = "SECONDS", default_value = "600", value_parser = parse_seconds)]
    pub job_time: f64,
    /// The most solutions one job keeps (it counts on past them)
    #[arg(long, value_name = "N", default_value = "1000", value_parser = |s: &str| whole_in(s, 1, 1_000_000, ""))]
    pub job_solutions: usize,
    /// The most time the work of one request may take, in seconds (a
    /// batch: ten times this; 422 beyond; long searches are jobs)
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = parse_seconds)]
    pub work_time: f64,
    /// The largest request body, in bytes (413 beyond)
    #[arg(long, value_name = "BYTES", default_value = "1048576", value_parser = |s: &str| whole_in(s, 1024, 1 << 30, " bytes"))]
    pub body_limit: usize,
    /// Serve the page's files from DIR instead of the binary (for page
    /// developers; also DANCER_ASSETS)
    #[arg(long, value_name = "DIR", hide = true)]
    pub assets: Option<PathBuf>,
}

/// Runs the server; the exit code: 0 after a clean stop, 2 on an error.
pub fn main(args: ServeArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::from(crate::output::EXIT_FOUND),
        Err(e) => {
            eprintln!("dancer: error: {e:#}");
            ExitCode::from(crate::output::EXIT_ERROR)
        }
    }
}

fn run(args: ServeArgs) -> Result<()> {
    let defaults = dancer_web::Config::default();
    let config = dancer_web::Config {
        bind: args.bind,
        port: args.port,
        jobs: args.jobs.unwrap_or(defaults.jobs),
        queue: args.queue,
        job_time: Duration::try_from_secs_f64(args.job_time).context("--job-time")?,
        job_solutions: args.job_solutions,
        job_orphan: defaults.job_orphan,
        body_limit: args.body_limit,
        work_time: Duration::try_from_secs_f64(args.work_time).context("--work-time")?,
        batch_time: Duration::try_from_secs_f64(args.work_time * 10.0).context("--work-time")?,
        assets: (args.assets).or_else(|| std::env::var_os("DANCER_ASSETS").map(PathBuf::from)),
        // the times a client has to send a request, and the connections
        // served at once
        ..defaults
    };
    // the signal handler's flag: set by the first Ctrl-C or SIGTERM
    let stop = crate::interrupt::cancel_flag();
    let started = |server: &dancer_web::Server| {
        let url = server.url();
        if !server.addr().ip().is_loopback() {
            eprintln!(
                "dancer: warning: listening on {}: anyone who can reach this address can use the server",
                server.addr()
            );
        }
        eprintln!("dancer: serving on {url} (Ctrl-C to stop)");
        let _ = std::io::stderr().flush();
        if args.open {
            open(&url);
        }
    };
    dancer_web::run_until(config, stop, started, || eprintln!("dancer: stopping"))?;
    eprintln!("dancer: stopped");
    Ok(())
}

/// Opens `url` in the desktop's browser, or says it could not.
fn open(url: &str) {
    let tool = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    let r = std::process::Command::new(tool)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(e) = r {
        eprintln!("dancer: could not open a browser ({tool}: {e}); open {url} yourself");
    }
}
