//! `dancer slurm`: a sharded run as a Slurm job array and a dependent
//! merge, in the command line's words. The scripts, the checks on their
//! values, the run's folder and its jobs are `dancer_runs`' (`slurm`,
//! `NewRun`, `RunFolder`); here: reading the wrapped command (the dancer
//! command line a task runs, parsed by dancer's own parser), the flags
//! and the messages.

use crate::args::JsonArg;
use crate::input::{read_file, MAX_SMALL, MAX_TEXT};
use crate::output::{Found, Out};
use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, FromArgMatches};
use dancer_formats::ndjson::SlurmRecord;
use dancer_runs::slurm::{self, ClusterError as E, JobValue, Parts, Task};
use dancer_runs::{NewRun, RunFolder};
use std::path::{Path, PathBuf};

/// `dancer slurm --help`.
pub const LONG_ABOUT: &str = include_str!("../help/slurm.txt").trim_ascii_end();

#[derive(Args)]
pub struct SlurmArgs {
    /// The parts: the array's tasks (1 to 100000)
    #[arg(long, value_name = "N", required_unless_present_any = ["resubmit", "wait"])]
    pub tasks: Option<usize>,
    /// The run's folder (default: slurm-NAME)
    #[arg(long, value_name = "DIR", conflicts_with_all = ["resubmit", "wait"])]
    pub dir: Option<PathBuf>,
    /// The job's name (default: from the input's file name)
    #[arg(long, conflicts_with = "resubmit")]
    pub name: Option<String>,
    /// Slurm partition
    #[arg(long)]
    pub partition: Option<String>,
    /// Time limit of a task (and of the merge): minutes, HH:MM:SS, D-HH:MM, ...
    #[arg(long)]
    pub time: Option<String>,
    /// CPUs of a task (and dancer's --threads, unless the command sets them)
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        conflicts_with = "resubmit"
    )]
    pub cpus_per_task: usize,
    /// Memory of a task: 4G, 512M, ...
    #[arg(long, value_name = "SIZE", conflicts_with = "resubmit")]
    pub mem: Option<String>,
    /// Submit the array and the merge (else only write the scripts)
    #[arg(long)]
    pub submit: bool,
    /// Submit again the parts of the run in DIR that are missing or
    /// stopped before the end, and a new merge after them
    #[arg(long, value_name = "DIR", conflicts_with = "wait")]
    pub resubmit: Option<PathBuf>,
    /// Wait for the merge of the run in DIR, then print its result (exit
    /// 2 when a task failed: the merge would never run)
    #[arg(long, value_name = "DIR")]
    pub wait: Option<PathBuf>,
    /// The dancer program the tasks run (default: this one)
    #[arg(long, value_name = "PATH", conflicts_with = "resubmit")]
    pub dancer: Option<PathBuf>,
    /// Write the run into a folder that holds a run with results (its
    /// own parts, checkpoints and result are removed first), or files of
    /// yours (they stay; none may have the name of a file of the run)
    #[arg(long, conflicts_with_all = ["resubmit", "wait"])]
    pub force: bool,
    #[command(flatten)]
    pub json: JsonArg,
    /// The dancer command a task runs, after `--`: solve FILE --count, poly
    /// solve PUZZLE --count, sudoku solve|count|check FILE
    #[arg(last = true, value_name = "COMMAND", required_unless_present_any = ["resubmit", "wait"])]
    pub command: Vec<String>,
}

/// What the library says, in the command line's words: the flag that
/// gave a value, what to do about a folder or a run.
fn error(e: E) -> anyhow::Error {
    let flag = |what| match what {
        JobValue::Time => "--time",
        JobValue::Memory => "--mem",
        JobValue::Partition => "--partition",
        JobValue::Name => "--name",
        JobValue::Tasks => "--tasks",
        JobValue::CpusPerTask => "--cpus-per-task",
    };
    match e {
        E::Form { what, ref text } => anyhow!("{} {text:?}: expected {}", flag(what), what.form()),
        E::Count { what, n, max } => anyhow!("{} {n}: expected 1 to {max}", flag(what)),
        E::NotAFolder(_) | E::NotARunFile { .. } => anyhow!("--dir {e}"),
        E::NotTheOlderRuns { .. } | E::NotDancers { .. } => anyhow!("--dir {e}"),
        E::Dancer { .. } => anyhow!("--dancer {e}"),
        E::Foreign(_) => anyhow!("--dir {e}: give a new or empty folder, or --force to write the run beside them (none is removed)"),
        E::Results { .. } => anyhow!("--dir {e}: a new run there would remove them; give another folder, or --force to remove that run's own files (nothing else is touched)"),
        E::NotSubmitted(ref d) => anyhow!("{e} (dancer slurm --resubmit {} submits it)", d.display()),
        E::NeverMerged { ref dir, .. } => anyhow!("{e} (dancer slurm --resubmit {})", dir.display()),
        e => e.into(),
    }
}

pub fn run(args: SlurmArgs, out: &mut Out) -> Result<Found> {
    let open = |dir| RunFolder::open(dir, |job| read_file(job, MAX_SMALL));
    if let Some(dir) = &args.wait {
        if !args.command.is_empty() || args.tasks.is_some() || args.submit {
            bail!("--wait DIR waits for the run in DIR: no --tasks, --submit or command");
        }
        out.text(&read_file(&open(dir)?.wait().map_err(error)?, MAX_TEXT)?)?;
        return Ok(Found::Some);
    }
    if let Some(dir) = &args.resubmit {
        if !args.command.is_empty() || args.tasks.is_some() {
            bail!("--resubmit DIR takes the run as it was written: no --tasks and no command");
        }
        if args.partition.is_some() || args.time.is_some() {
            bail!("--resubmit submits the scripts as written: change --partition or --time by writing the run again");
        }
        let mut run = open(dir)?;
        let (missing, tasks) = (run.missing(), run.record().tasks);
        let (n, ranges) = (missing.len(), slurm::array_ranges(&missing));
        let sep = if missing.is_empty() { "" } else { ": " };
        eprintln!("{n} of {tasks} parts to run again{sep}{ranges}");
        return submit(&args, out, &mut run, &missing);
    }
    let tasks = args.tasks.expect("required without --resubmit");
    let workdir = std::env::current_dir().context("cannot read the current folder")?;
    let (task, problem) = wrapped(&args.command, args.cpus_per_task)?;
    let new = NewRun {
        task,
        name: args.name.clone(),
        dir: args.dir.clone(),
        workdir,
        dancer: args.dancer.clone(),
        tasks,
        cpus_per_task: args.cpus_per_task,
        time: args.time.clone(),
        memory: args.mem.clone(),
        partition: args.partition.clone(),
        force: args.force,
    };
    let mut run = new.write(problem.as_deref()).map_err(error)?;
    let script = |s| run.dir().join(s).display().to_string();
    let (array, merge) = (script("array.sbatch"), script("merge.sbatch"));
    eprintln!("wrote {array} ({tasks} tasks) and {merge}");
    submit(&args, out, &mut run, &(1..=tasks).collect::<Vec<_>>())
}

/// Submits the parts `ks` of the run and a merge after them (with
/// `--submit`, `--resubmit`), and says so, or how to submit them.
fn submit(args: &SlurmArgs, out: &mut Out, run: &mut RunFolder, ks: &[usize]) -> Result<Found> {
    let go = args.submit || args.resubmit.is_some();
    let jobs = go.then(|| run.submit(ks)).transpose().map_err(error)?;
    let array = slurm::array_ranges(ks);
    match jobs.map(|j| (j.array_job, j.merge_job)) {
        Some((Some(a), m)) => eprintln!(
            "submitted array job {a} (tasks {array}) and merge job {m} (after it ends well)"
        ),
        Some((None, m)) => eprintln!("every part is done: submitted merge job {m}"),
        None => eprintln!(
            "to submit: dancer slurm --resubmit {} (the parts not yet done: all of them now)",
            run.dir().display()
        ),
    }
    let result = run.result().display().to_string();
    if args.json.json {
        out.record(&SlurmRecord {
            dir: run.dir().display().to_string(),
            tasks: run.record().tasks,
            array: if go { array } else { String::new() },
            array_job: jobs.and_then(|j| j.array_job),
            merge_job: jobs.map(|j| j.merge_job),
            result,
        })?;
    } else if let Some(j) = jobs {
        let array_job = j.array_job.map(|a| format!("{a} ")).unwrap_or_default();
        out.line(&format!("{array_job}{}", j.merge_job))?;
        eprintln!("the result will be in {result}");
    }
    Ok(Found::Some)
}

/// Reads the wrapped command with dancer's own parser, and refuses what
/// cannot run in parts: what its tasks run, and for a polyform puzzle the
/// DLX text of its problem (every placement, no symmetry broken: the
/// count of `poly solve --count`), written into the run's folder.
fn wrapped(command: &[String], cpus: usize) -> Result<(Task, Option<Vec<u8>>)> {
    let after = |e: clap::Error| anyhow!("the command after --: {}", e.render().to_string().trim());
    let argv = std::iter::once("dancer".to_string()).chain(command.iter().cloned());
    let matches = crate::command().try_get_matches_from(argv).map_err(after)?;
    let task = |parts, input: String, json, threads: &crate::args::ThreadsArg| {
        Task::new(parts, command, &input, json, threads.given(), cpus)
    };
    match crate::Cli::from_arg_matches(&matches).map_err(after)?.command {
        crate::Command::Solve(a) => {
            let file = input_file(a.file.as_deref(), "the problem")?;
            let why = ": solutions printed by tasks that were stopped and run again would repeat";
            let flags = [
                (a.shard.is_some(), "--shard"),
                (a.shard_out.is_some(), "--shard-out"),
                (a.checkpoint.is_some(), "--checkpoint"),
                (a.resume.is_some(), "--resume"),
                (a.limit.is_some(), "--limit"),
                (a.memo, "--memo"),
                (a.ordered, "--ordered"),
            ];
            refuse(a.count, why, " (dancer slurm sets the shards and checkpoints)", &flags)?;
            Ok((task(Parts::Search, file, a.json.json, &a.threads), None))
        }
        crate::Command::Poly(crate::poly::PolyCommand::Solve(a)) => {
            let pictures = a.svg.is_some() || a.png.is_some() || a.sheet.is_some();
            let flags = [
                (a.unique, "--unique"),
                (a.limit.is_some(), "--limit"),
                (a.memo, "--memo"),
                (pictures, "pictures"),
            ];
            refuse(a.count, "", "", &flags)?;
            let model = dancer_poly::model::Model::new(crate::poly::load(&a.puzzle)?)?;
            let name = &model.puzzle.name;
            let note = format!("{name}: every placement, no symmetry broken (dancer slurm)");
            let mut text = Vec::new();
            dancer_formats::dlx::write(&model.cover(false).problem, &mut text, Some(&note))?;
            let (engine, threads) = (a.engine.engine.name(), a.threads.given());
            let task = Task::poly(&a.puzzle, engine, a.json.json, threads, cpus);
            Ok((task, Some(text)))
        }
        crate::Command::Sudoku(cmd) => {
            use crate::sudoku::SudokuCommand as S;
            let common = match &cmd {
                S::Solve(a) => &a.common,
                S::Count(a) => &a.common,
                S::Check(a) => &a.common,
                _ => bail!("the command after --: dancer slurm runs sudoku solve, count and check"),
            };
            let file = input_file(common.input.as_deref(), "the puzzles")?;
            if crate::sudoku::shard_flags_given(&cmd) {
                bail!("the command after --: --shard, --shard-out and --resume are dancer slurm's to set");
            }
            Ok((task(Parts::Sudoku, file, false, &common.threads), None))
        }
        _ => bail!("the command after --: dancer slurm runs `solve FILE --count`, `poly solve PUZZLE --count` and `sudoku solve|count|check FILE`"),
    }
}

/// Refuses a command of a run in parts that is not a count (`why` it must
/// be), or that sets a flag of `flags` (`why_not`).
fn refuse(count: bool, why: &str, why_not: &str, flags: &[(bool, &str)]) -> Result<()> {
    if !count {
        bail!("the command after --: add --count (the parts of a run are counts{why})");
    }
    if let Some((_, flag)) = flags.iter().find(|(given, _)| *given) {
        bail!("the command after --: {flag} is not for a run in parts{why_not}");
    }
    Ok(())
}

/// The wrapped command's input: a file (tasks cannot read standard
/// input).
fn input_file(f: Option<&str>, what: &str) -> Result<String> {
    match f {
        None | Some("-") => {
            bail!("the command after --: {what} must be a file (tasks cannot read standard input)")
        }
        Some(f) if !Path::new(f).is_file() => bail!("the command after --: {f}: no such file"),
        Some(f) => Ok(f.to_string()),
    }
}
