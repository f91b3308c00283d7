//! `dancer slurm`: a sharded run as a Slurm job array and a dependent
//! merge. The scripts and the checks on their values are
//! `dancer_runs::slurm`'s; here: reading the wrapped command (the
//! dancer command line a task runs, parsed by dancer's own parser), making
//! the run's folder, calling `sbatch`, and `--resubmit`.

use crate::args::JsonArg;
use crate::output::{Found, Out};
use anyhow::{bail, Context, Result};
use clap::{Args, FromArgMatches};
use dancer_formats::ndjson::SlurmRecord;
use dancer_runs::slurm::{self, ClusterError, JobValue, Parts, RunRecord, SlurmJob};
use std::path::{Path, PathBuf};
use std::process::Command;

/// `dancer slurm --help`.
pub const LONG_ABOUT: &str = "\
Write, and with --submit submit, a Slurm job array that runs a dancer command
in N parts, and a job that merges them when all have ended well.

Put the command you would run on one machine after `--`:

  dancer slurm --tasks 64 --time 2:00:00 --submit -- solve big.dlx --count
  dancer slurm --tasks 8 --submit -- poly solve pentomino-6x10 --count
  dancer slurm --tasks 16 --submit -- sudoku solve puzzles.txt

The commands: `solve FILE --count` (a DLX or JSON problem), `poly solve
PUZZLE --count` (its exact cover problem, every solution, is written into the
run's folder) and `sudoku solve|count|check FILE` (a batch, split by lines; the
merged output is that of one run, in input order).

The run's folder (--dir) gets array.sbatch and merge.sbatch, parts/K.json,
checkpoints/K.json, logs/ and, once merged, result.txt. It must be new or
empty, or hold a run not yet run: a run with results, or a folder of yours,
needs --force, which removes only that run's own parts, checkpoints and
result, and never a file dancer did not write. Task K runs
`dancer ... --shard K/N --shard-out DIR/parts/K.json` with its own checkpoint:
a task killed by its time limit, by scancel or by a node failure goes on from
its checkpoint when it runs again (requeued, or resubmitted). The merge runs
after the array ended well (--dependency=afterok); when a task failed,
`dancer slurm --resubmit DIR` submits the parts that are missing or stopped
before the end, and a new merge after them.

Tasks run where dancer slurm was run (sbatch --chdir), with --threads set to
--cpus-per-task unless the command sets it.";

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

/// The flag that gives a job's value.
fn flag(what: JobValue) -> &'static str {
    match what {
        JobValue::Time => "--time",
        JobValue::Memory => "--mem",
        JobValue::Partition => "--partition",
        JobValue::Name => "--name",
        JobValue::Tasks => "--tasks",
        JobValue::CpusPerTask => "--cpus-per-task",
    }
}

/// A value that cannot go into a job script, in the command line's words:
/// the flag that gave it.
fn cluster_error(e: ClusterError) -> anyhow::Error {
    match e {
        ClusterError::Form { what, text } => {
            anyhow::anyhow!("{} {text:?}: expected {}", flag(what), what.form())
        }
        ClusterError::Count { what, n, max } => {
            anyhow::anyhow!("{} {n}: expected 1 to {max}", flag(what))
        }
        e => e.into(),
    }
}

pub fn run(args: SlurmArgs, out: &mut Out) -> Result<Found> {
    if let Some(dir) = &args.wait {
        if !args.command.is_empty() || args.tasks.is_some() || args.submit {
            bail!("--wait DIR waits for the run in DIR: no --tasks, --submit or command");
        }
        return wait(dir, out);
    }
    if let Some(dir) = &args.resubmit {
        if !args.command.is_empty() || args.tasks.is_some() {
            bail!("--resubmit DIR takes the run as it was written: no --tasks and no command");
        }
        return resubmit(
            dir,
            args.partition.as_deref(),
            args.time.as_deref(),
            &args,
            out,
        );
    }
    let tasks = args.tasks.expect("required without --resubmit");
    let cwd = std::env::current_dir().context("cannot read the current folder")?;
    let plan = wrapped(&args.command, args.cpus_per_task)?;
    let name = match &args.name {
        Some(n) => n.clone(),
        None => plan.name.clone(),
    };
    slurm::check_name(&name).map_err(cluster_error)?;
    // the values checked before anything is written (the paths are, once
    // the run's folder exists: `SlurmJob::check`)
    slurm::check_values(
        tasks,
        args.cpus_per_task,
        args.time.as_deref(),
        args.mem.as_deref(),
        args.partition.as_deref(),
    )
    .map_err(cluster_error)?;
    let dir = args
        .dir
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("slurm-{name}")));
    slurm::check_dir(&cwd.join(&dir)).map_err(cluster_error)?;
    // what is there already: nothing of anyone else's is lost
    let clear = prepare_folder(&dir, tasks, args.force)?;
    for sub in ["parts", "checkpoints", "logs"] {
        std::fs::create_dir_all(dir.join(sub))
            .with_context(|| format!("cannot create {}", dir.join(sub).display()))?;
    }
    let dir = dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    let dancer = match &args.dancer {
        Some(d) => d
            .canonicalize()
            .with_context(|| format!("--dancer {}: not found", d.display()))?,
        None => std::env::current_exe().context("cannot find this program's path")?,
    };
    let mut command = plan.command;
    if let Some(problem) = plan.problem {
        // a polyform puzzle: its exact cover problem, in the run's folder
        let path = dir.join("problem.dlx");
        std::fs::write(&path, problem)
            .with_context(|| format!("cannot write {}", path.display()))?;
        command[1] = path.display().to_string();
    }
    let job = SlurmJob {
        name,
        dir: dir.clone(),
        workdir: cwd,
        dancer,
        command,
        parts: plan.parts,
        merge_args: plan.merge_args,
        tasks,
        partition: args.partition.clone(),
        time: args.time.clone(),
        cpus_per_task: args.cpus_per_task,
        memory: args.mem.clone(),
    };
    job.check().map_err(cluster_error)?;
    // a run written again over an older one starts afresh: its parts and
    // checkpoints were of another split or command (only the files of
    // that run, checked to be dancer's own, are removed)
    for f in clear {
        std::fs::remove_file(&f).with_context(|| format!("cannot remove {}", f.display()))?;
    }
    write(&dir.join("array.sbatch"), &job.array_script())?;
    write(&dir.join("merge.sbatch"), &job.merge_script())?;
    let mut record = RunRecord::new(tasks, plan.parts);
    write(&dir.join("job.json"), &serde_json::to_string(&record)?)?;
    eprintln!(
        "wrote {} ({} tasks) and {}",
        dir.join("array.sbatch").display(),
        tasks,
        dir.join("merge.sbatch").display()
    );
    let all: Vec<usize> = (1..=tasks).collect();
    let (array_job, merge_job) = if args.submit {
        submit(&dir, &all, &mut record)?
    } else {
        eprintln!(
            "to submit: dancer slurm --resubmit {} (the parts not yet done: all of them now)",
            dir.display()
        );
        (None, None)
    };
    report(
        &args.json,
        out,
        &dir,
        tasks,
        &all,
        array_job,
        merge_job,
        args.submit,
    )?;
    Ok(Found::Some)
}

/// What the wrapped command becomes.
struct Wrapped {
    /// A task's arguments (the shard's flags are added by the script).
    command: Vec<String>,
    parts: Parts,
    merge_args: Vec<String>,
    /// The default job name.
    name: String,
    /// For a polyform puzzle: the DLX text of its problem (written into
    /// the run's folder, whose path replaces `command[1]`).
    problem: Option<Vec<u8>>,
}

/// Reads the wrapped command with dancer's own parser, and refuses what
/// cannot run in parts.
fn wrapped(command: &[String], cpus: usize) -> Result<Wrapped> {
    let mut argv = vec!["dancer".to_string()];
    argv.extend(command.iter().cloned());
    let matches = crate::command()
        .try_get_matches_from(&argv)
        .map_err(|e| anyhow::anyhow!("the command after --: {}", e.render().to_string().trim()))?;
    let cli = crate::Cli::from_arg_matches(&matches)
        .map_err(|e| anyhow::anyhow!("the command after --: {}", e.render().to_string().trim()))?;
    let threads = |given: bool, mut c: Vec<String>| {
        if !given {
            c.push("--threads".into());
            c.push(cpus.to_string());
        }
        c
    };
    match cli.command {
        crate::Command::Solve(a) => {
            let file = input_file(a.file.as_deref(), "the problem")?;
            refuse_in_parts_solve(&a)?;
            Ok(Wrapped {
                command: threads(a.threads.given(), command.to_vec()),
                parts: Parts::Search,
                merge_args: if a.json.json { vec!["--json".into()] } else { vec![] },
                name: job_name(&file),
                problem: None,
            })
        }
        crate::Command::Poly(crate::poly::PolyCommand::Solve(a)) => {
            let (c, problem) = wrap_poly(&a)?;
            Ok(Wrapped {
                command: threads(a.threads.given(), c),
                parts: Parts::Search,
                merge_args: if a.json.json { vec!["--json".into()] } else { vec![] },
                name: job_name(&a.puzzle),
                problem: Some(problem),
            })
        }
        crate::Command::Sudoku(cmd) => {
            let common = match &cmd {
                crate::sudoku::SudokuCommand::Solve(a) => &a.common,
                crate::sudoku::SudokuCommand::Count(a) => &a.common,
                crate::sudoku::SudokuCommand::Check(a) => &a.common,
                _ => bail!("the command after --: dancer slurm runs sudoku solve, count and check"),
            };
            let file = input_file(common.input.as_deref(), "the puzzles")?;
            if crate::sudoku::shard_flags_given(&cmd) {
                bail!("the command after --: --shard, --shard-out and --resume are dancer slurm's to set");
            }
            Ok(Wrapped {
                command: threads(common.threads.given(), command.to_vec()),
                parts: Parts::Sudoku,
                merge_args: vec![],
                name: job_name(&file),
                problem: None,
            })
        }
        _ => bail!("the command after --: dancer slurm runs `solve FILE --count`, `poly solve PUZZLE --count` and `sudoku solve|count|check FILE`"),
    }
}

/// A job's name from its input's file name: letters, digits, `_`, `-`
/// and `.` kept, anything else `_` (`dancer` when nothing is left).
fn job_name(path: &str) -> String {
    let s: String = Path::new(path)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "dancer".to_string()
    } else {
        s
    }
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

/// Refuses a `solve` that cannot run in parts: not a count, or with the
/// flags dancer slurm sets or a run in parts cannot keep.
fn refuse_in_parts_solve(a: &crate::solve::SolveArgs) -> Result<()> {
    if !a.count {
        bail!("the command after --: add --count (the parts of a run are counts: solutions printed by tasks that were stopped and run again would repeat)");
    }
    for (given, flag) in [
        (a.shard.is_some(), "--shard"),
        (a.shard_out.is_some(), "--shard-out"),
        (a.checkpoint.is_some(), "--checkpoint"),
        (a.resume.is_some(), "--resume"),
        (a.limit.is_some(), "--limit"),
        (a.memo, "--memo"),
        (a.ordered, "--ordered"),
    ] {
        if given {
            bail!("the command after --: {flag} is not for a run in parts (dancer slurm sets the shards and checkpoints)");
        }
    }
    Ok(())
}

/// A `poly solve --count` in parts: the `solve` its tasks run (without
/// `--threads`) and the exact cover problem they run it on (every
/// placement, no symmetry broken: the count of `poly solve --count`).
fn wrap_poly(a: &crate::poly::SolveArgs) -> Result<(Vec<String>, Vec<u8>)> {
    if !a.count {
        bail!("the command after --: add --count (the parts of a run are counts)");
    }
    for (given, flag) in [
        (a.unique, "--unique"),
        (a.limit.is_some(), "--limit"),
        (a.memo, "--memo"),
        (
            a.svg.is_some() || a.png.is_some() || a.sheet.is_some(),
            "pictures",
        ),
    ] {
        if given {
            bail!("the command after --: {flag} is not for a run in parts");
        }
    }
    let model = dancer_poly::model::Model::new(crate::poly::load(&a.puzzle)?)?;
    let cover = model.cover(false);
    let mut text = Vec::new();
    let note = format!(
        "{}: every placement, no symmetry broken (dancer slurm)",
        model.puzzle.name
    );
    dancer_formats::dlx::write(&cover.problem, &mut text, Some(&note))?;
    let mut c = vec![
        "solve".to_string(),
        "problem.dlx".to_string(),
        "--count".to_string(),
        "--engine".to_string(),
        a.engine.engine.name().to_string(),
    ];
    if a.json.json {
        c.push("--json".into());
    }
    Ok((c, text))
}

/// The files of a run's folder that dancer writes, for a run of `tasks`
/// parts: the scripts, the record, the problem, the result, and part and
/// checkpoint `K` for every `K`.
fn own_files(dir: &Path, tasks: usize) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = [
        "array.sbatch",
        "merge.sbatch",
        "job.json",
        "problem.dlx",
        "result.txt",
        "result.txt.tmp",
    ]
    .iter()
    .map(|f| dir.join(f))
    .collect();
    for k in 1..=tasks {
        files.push(dir.join("parts").join(format!("{k}.json")));
        files.push(dir.join("checkpoints").join(format!("{k}.json")));
    }
    files
}

/// Whether `path` is a file dancer's run writes there and holds what it
/// would (a part, a checkpoint, or another file of the run's own names).
fn dancers_own(path: &Path) -> bool {
    let sub = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str());
    if !matches!(sub, Some("parts" | "checkpoints")) {
        return true;
    }
    let Ok(text) = crate::input::read_file(path, crate::input::MAX_TEXT) else {
        return false;
    };
    dancer_runs::search::Saved::from_json(&text).is_ok()
        || dancer_runs::batch::PartFile::from_json(&text).is_ok()
}

/// Looks at the run's folder before anything is written, and says which
/// files of an older run there to remove. A new folder, or an empty one, is
/// taken as it is; a folder of an older run without results too (its
/// scripts are rewritten). Refused without `force`: a folder holding a run
/// with results (parts, checkpoints or result.txt), or files dancer did not
/// write. With `force`: the older run's own files are removed (each
/// checked to be dancer's), anything else stays, and a file of someone
/// else's at a name the run writes is still refused.
fn prepare_folder(dir: &Path, tasks: usize, force: bool) -> Result<Vec<PathBuf>> {
    let shown = dir.display();
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {shown}")),
        Ok(m) if !m.is_dir() => bail!("--dir {shown}: not a folder"),
        Ok(_) => {}
    }
    if is_empty(dir)? {
        return Ok(Vec::new());
    }
    // a file at a name the run writes, if any (the names are looked at one
    // by one: a folder of yours is never walked)
    let present = |files: &[PathBuf]| -> Vec<PathBuf> {
        files
            .iter()
            .filter(|f| std::fs::symlink_metadata(f).is_ok())
            .cloned()
            .collect()
    };
    let record = crate::input::read_file(&dir.join("job.json"), crate::input::MAX_SMALL)
        .ok()
        .and_then(|t| RunRecord::from_json(&t).ok());
    let Some(old) = record else {
        if !force {
            bail!(
                "--dir {shown}: a folder dancer slurm did not make (it holds files, and no run's job.json): give a new or empty folder, or --force to write the run beside them (none is removed)"
            );
        }
        if let Some(f) = present(&own_files(dir, tasks)).first() {
            bail!(
                "--dir {shown}: {} is not a file of a dancer slurm run, and the run would write it: move it away",
                f.display()
            );
        }
        return Ok(Vec::new());
    };
    let old_files = own_files(dir, old.tasks);
    let results: Vec<PathBuf> = present(&old_files)
        .into_iter()
        .filter(|f| {
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let sub = f
                .parent()
                .and_then(|p| p.file_name())
                .and_then(|n| n.to_str());
            name == "result.txt" || matches!(sub, Some("parts" | "checkpoints"))
        })
        .collect();
    if !results.is_empty() && !force {
        bail!(
            "--dir {shown}: holds a run with results ({}{}): a new run there would remove them; give another folder, or --force to remove that run's own files (nothing else is touched)",
            results
                .iter()
                .take(3)
                .map(|f| f.strip_prefix(dir).unwrap_or(f).display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if results.len() > 3 { ", ..." } else { "" }
        );
    }
    // files at the new run's names must be the older run's own
    let older: std::collections::HashSet<&PathBuf> = old_files.iter().collect();
    for f in present(&own_files(dir, tasks)) {
        let plain = std::fs::symlink_metadata(&f).is_ok_and(|m| m.is_file());
        if !older.contains(&f) || !plain || !dancers_own(&f) {
            bail!(
                "--dir {shown}: {} is not a file of the older run there, and the new run would write it: move it away",
                f.display()
            );
        }
    }
    let mut clear = Vec::new();
    for f in results {
        if !std::fs::symlink_metadata(&f).is_ok_and(|m| m.is_file()) || !dancers_own(&f) {
            bail!(
                "--dir {shown}: {} is not a part, checkpoint or result dancer wrote: move it away",
                f.display()
            );
        }
        clear.push(f);
    }
    if dir.join("result.txt.tmp").is_file() {
        clear.push(dir.join("result.txt.tmp"));
    }
    Ok(clear)
}

/// Whether `dir` holds nothing but, at most, the empty `parts`,
/// `checkpoints` and `logs` folders of a run that was never written.
fn is_empty(dir: &Path) -> Result<bool> {
    for e in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let e = e.with_context(|| format!("cannot read {}", dir.display()))?;
        let name = e.file_name();
        let sub = matches!(name.to_str(), Some("parts" | "checkpoints" | "logs"));
        let empty_dir = e.file_type().is_ok_and(|t| t.is_dir())
            && std::fs::read_dir(e.path()).is_ok_and(|mut d| d.next().is_none());
        if !(sub && empty_dir) {
            return Ok(false);
        }
    }
    Ok(true)
}

fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `sbatch --parsable ARGS`, and returns the job id.
fn sbatch(args: &[String]) -> Result<u64> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|e| anyhow::anyhow!("cannot run sbatch: {e} (is Slurm installed here?)"))?;
    if !out.status.success() {
        bail!(
            "sbatch {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    slurm::parse_job_id(&text)
        .with_context(|| format!("sbatch printed no job id: {:?}", text.trim()))
}

/// Submits the tasks `ks` of the array in `dir` and a merge after them
/// (only the merge when `ks` is empty), and records the jobs.
fn submit(dir: &Path, ks: &[usize], record: &mut RunRecord) -> Result<(Option<u64>, Option<u64>)> {
    let script = |name: &str| dir.join(name).display().to_string();
    let array_job = if ks.is_empty() {
        None
    } else {
        Some(sbatch(&[
            format!("--array={}", slurm::array_ranges(ks)),
            script("array.sbatch"),
        ])?)
    };
    let mut margs = Vec::new();
    if let Some(a) = array_job {
        margs.push(format!("--dependency=afterok:{a}"));
    }
    margs.push(script("merge.sbatch"));
    let merge_job = sbatch(&margs)?;
    record.array_job = array_job;
    record.merge_job = Some(merge_job);
    write(&dir.join("job.json"), &serde_json::to_string(record)?)?;
    match array_job {
        Some(a) => eprintln!(
            "submitted array job {a} (tasks {}) and merge job {merge_job} (after it ends well)",
            slurm::array_ranges(ks)
        ),
        None => eprintln!("every part is done: submitted merge job {merge_job}"),
    }
    Ok((array_job, Some(merge_job)))
}

#[allow(clippy::too_many_arguments)]
fn report(
    json: &JsonArg,
    out: &mut Out,
    dir: &Path,
    tasks: usize,
    ks: &[usize],
    array_job: Option<u64>,
    merge_job: Option<u64>,
    submitted: bool,
) -> Result<()> {
    let result = dir.join("result.txt").display().to_string();
    if json.json {
        out.record(&SlurmRecord {
            dir: dir.display().to_string(),
            tasks,
            array: if submitted {
                slurm::array_ranges(ks)
            } else {
                String::new()
            },
            array_job,
            merge_job,
            result,
        })?;
    } else if submitted {
        let ids: Vec<String> = array_job
            .into_iter()
            .chain(merge_job)
            .map(|j| j.to_string())
            .collect();
        out.line(&ids.join(" "))?;
        eprintln!("the result will be in {result}");
    }
    Ok(())
}

/// Whether part file `text` of a run of kind `parts` is complete (a file
/// that cannot be read is not: running the part again rewrites it).
fn part_done(parts: Parts, text: &str) -> bool {
    match parts {
        Parts::Search => dancer_runs::search::Saved::from_json(text).is_ok_and(|s| s.complete),
        Parts::Sudoku => dancer_runs::batch::PartFile::from_json(text).is_ok_and(|p| p.complete),
    }
}

/// Reads a run's `job.json`.
fn read_run(dir: &Path) -> Result<(PathBuf, RunRecord)> {
    let dir = dir
        .canonicalize()
        .with_context(|| format!("{}: no such run folder", dir.display()))?;
    let job_file = dir.join("job.json");
    let text = crate::input::read_file(&job_file, crate::input::MAX_SMALL)?;
    let record =
        RunRecord::from_json(&text).map_err(|e| anyhow::anyhow!("{}: {e}", job_file.display()))?;
    Ok((dir, record))
}

/// The parts of a run that are missing or stopped before the end.
fn missing_parts(dir: &Path, record: &RunRecord) -> Result<Vec<usize>> {
    let parts = record.kind().map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut missing = Vec::new();
    for k in 1..=record.tasks {
        let path = dir.join("parts").join(format!("{k}.json"));
        let done = path.is_file()
            && crate::input::read_file(&path, crate::input::MAX_TEXT)
                .is_ok_and(|t| part_done(parts, &t));
        if !done {
            missing.push(k);
        }
    }
    Ok(missing)
}

/// `--wait DIR`: until the merge job has left the queue; then its result.
fn wait(dir: &Path, out: &mut Out) -> Result<Found> {
    let (dir, record) = read_run(dir)?;
    let Some(merge) = record.merge_job else {
        bail!(
            "{}: not submitted yet (dancer slurm --resubmit {} submits it)",
            dir.display(),
            dir.display()
        );
    };
    loop {
        let o = Command::new("squeue")
            .args(["-h", "-o", "%T %r", "-j", &merge.to_string()])
            .output()
            .map_err(|e| anyhow::anyhow!("cannot run squeue: {e} (is Slurm installed here?)"))?;
        let text = String::from_utf8_lossy(&o.stdout).trim().to_string();
        // nothing: the job has ended (squeue fails for a job that has
        // left the controller's memory)
        if text.is_empty() {
            break;
        }
        if text.contains("DependencyNeverSatisfied") {
            let missing = missing_parts(&dir, &record)?;
            bail!(
                "a task of the array failed, so merge job {merge} will never run; parts to run again: {} (dancer slurm --resubmit {})",
                slurm::array_ranges(&missing),
                dir.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_secs(1));
    }
    let result = dir.join("result.txt");
    if !result.is_file() {
        bail!(
            "merge job {merge} ended without a result: see {}",
            dir.join("logs/merge.err").display()
        );
    }
    let text = crate::input::read_file(&result, crate::input::MAX_TEXT)?;
    out.text(&text)?;
    Ok(Found::Some)
}

/// `--resubmit DIR`.
fn resubmit(
    dir: &Path,
    partition: Option<&str>,
    time: Option<&str>,
    args: &SlurmArgs,
    out: &mut Out,
) -> Result<Found> {
    if partition.is_some() || time.is_some() {
        bail!("--resubmit submits the scripts as written: change --partition or --time by writing the run again");
    }
    let (dir, mut record) = read_run(dir)?;
    let missing = missing_parts(&dir, &record)?;
    eprintln!(
        "{} of {} parts to run again{}",
        missing.len(),
        record.tasks,
        if missing.is_empty() {
            String::new()
        } else {
            format!(": {}", slurm::array_ranges(&missing))
        }
    );
    // the merge still waiting for the old array would never run
    if let Some(old) = record.merge_job {
        let _ = Command::new("scancel").arg(old.to_string()).status();
    }
    let (array_job, merge_job) = submit(&dir, &missing, &mut record)?;
    report(
        &args.json,
        out,
        &dir,
        record.tasks,
        &missing,
        array_job,
        merge_job,
        true,
    )?;
    Ok(Found::Some)
}
