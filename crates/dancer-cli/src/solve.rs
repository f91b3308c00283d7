//! `dancer solve`.

use crate::input::{read_problem, Format};
use crate::Found;
use anyhow::{bail, Result};
use clap::Args;
use dancer_core::{solve, verify, EngineKind, Flow, OptionId, SolveOptions};
use dancer_formats::json::{SolutionLine, SummaryLine};
use std::io::{BufWriter, ErrorKind, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Args)]
pub struct SolveArgs {
    /// Problem file (DLX format, or JSON if it ends in .json); - or nothing for standard input
    pub file: Option<String>,
    /// Count solutions without printing them
    #[arg(long)]
    pub count: bool,
    /// Stop after N solutions
    #[arg(long, value_name = "N")]
    pub limit: Option<u64>,
    /// Print statistics: nodes, updates, maximum level, per-level profile, time
    #[arg(long)]
    pub stats: bool,
    /// Print NDJSON: a line per solution, then a summary line
    #[arg(long)]
    pub json: bool,
    /// Search engine
    #[arg(long, default_value = "dlx", value_parser = parse_engine)]
    pub engine: EngineKind,
    /// Input format (default: by extension, else dlx)
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Check every solution independently of the engine
    #[arg(long)]
    pub verify: bool,
}

fn parse_engine(s: &str) -> Result<EngineKind, String> {
    s.parse()
        .map_err(|e: dancer_core::UnknownEngine| e.to_string())
}

pub fn run(args: SolveArgs) -> Result<Found> {
    let parsed = read_problem(args.file.as_deref(), args.format)?;
    let problem = &parsed.problem;
    let cancel = Arc::new(AtomicBool::new(false));
    {
        let c = cancel.clone();
        // If the handler cannot be installed, Ctrl-C simply kills the process;
        // solutions already printed are kept either way.
        let _ = ctrlc::set_handler(move || c.store(true, Ordering::Relaxed));
    }
    let opts = SolveOptions {
        engine: args.engine,
        limit: args.limit,
        cancel: Some(cancel.clone()),
    };
    let stdout = std::io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 16, stdout);
    let mut write_error: Option<std::io::Error> = None;
    let mut bad: Option<String> = None;
    let mut first = true;
    let mut line = String::new();
    let mut sink = |sol: &[OptionId]| {
        if args.verify {
            if let Err(e) = verify(problem, sol) {
                bad = Some(format!("engine produced an invalid solution {sol:?}: {e}"));
                return Flow::Stop;
            }
        }
        if args.count {
            return Flow::Continue;
        }
        let r = if args.json {
            serde_json::to_writer(&mut out, &SolutionLine::new(sol))
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
        } else {
            line.clear();
            if !first {
                line.push('\n');
            }
            first = false;
            for &o in sol {
                line.push_str(&problem.option_text(o));
                line.push('\n');
            }
            out.write_all(line.as_bytes())
        };
        match r {
            Ok(()) => Flow::Continue,
            Err(e) => {
                write_error = Some(e);
                Flow::Stop
            }
        }
    };
    let outcome = solve(problem, &opts, &mut sink)?;
    if let Some(msg) = bad {
        bail!(msg);
    }
    let s = &outcome.stats;
    match write_error {
        Some(e) if e.kind() == ErrorKind::BrokenPipe => {
            return Ok(if s.solutions > 0 {
                Found::Some
            } else {
                Found::None
            });
        }
        Some(e) => bail!("cannot write the output: {e}"),
        None => {}
    }
    if args.json {
        let mut summary = SummaryLine::new(s, outcome.complete);
        if args.stats {
            summary.max_level = Some(s.max_level());
            summary.profile = Some(s.profile_trimmed().to_vec());
        }
        let r = serde_json::to_writer(&mut out, &summary)
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n"));
        if let Err(e) = r.and_then(|()| out.flush()) {
            if e.kind() != ErrorKind::BrokenPipe {
                bail!("cannot write the output: {e}");
            }
        }
    } else {
        if let Err(e) = out.flush() {
            if e.kind() != ErrorKind::BrokenPipe {
                bail!("cannot write the output: {e}");
            }
        }
        if args.count {
            println!("{}", s.solutions);
        }
    }
    let secs = s.elapsed.as_secs_f64();
    let how = if outcome.complete {
        "complete"
    } else if outcome.cancelled {
        "interrupted: incomplete"
    } else {
        "stopped at the limit: incomplete"
    };
    eprintln!(
        "{} solution{}, {} nodes, {} updates, {:.3} s ({how})",
        s.solutions,
        if s.solutions == 1 { "" } else { "s" },
        s.nodes,
        s.updates,
        secs
    );
    if args.stats {
        eprintln!(
            "engine {}; {} items ({} primary), {} options, {} entries",
            args.engine,
            problem.n_items(),
            problem.n_primary(),
            problem.n_options(),
            problem.n_entries()
        );
        eprintln!("maximum level {}", s.max_level());
        if secs > 0.0 {
            eprintln!(
                "{:.0} nodes/s, {:.0} updates/s",
                s.nodes as f64 / secs,
                s.updates as f64 / secs
            );
        }
        eprintln!("nodes per level:");
        for (l, n) in s.profile_trimmed().iter().enumerate() {
            eprintln!("  {l:3} {n:12}");
        }
    }
    Ok(if s.solutions > 0 {
        Found::Some
    } else {
        Found::None
    })
}
