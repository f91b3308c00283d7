//! Slurm job arrays for sharded runs: the scripts that `dancer slurm`
//! writes, and the checks on what goes into them.
//!
//! A run of N parts is two batch jobs:
//!
//! * **the array** (`array.sbatch`, `sbatch --array=1-N`): task K runs
//!   `dancer ... --shard K/N --shard-out DIR/parts/K.json` with its own
//!   checkpoint (`DIR/checkpoints/K.json`, or, for a Sudoku batch, the part
//!   file itself). A task that finds its checkpoint goes on from it, so a
//!   task killed by its time limit, by `scancel` or by a node failure, then
//!   requeued or resubmitted, ends with the same part as one that never
//!   stopped. A part whose search is complete but found nothing is a
//!   success (exit 0), so that the merge's `afterok` holds;
//! * **the merge** (`merge.sbatch`, `--dependency=afterok:ARRAY`):
//!   `dancer merge` of the N parts into `DIR/result.txt` (written to a
//!   temporary name, then renamed: a result file is always whole), its
//!   summary in `DIR/logs/merge.err`.
//!
//! The task's shell waits for dancer through a signal: Slurm sends SIGTERM
//! to every process of the job at its time limit and at `scancel`, and
//! dancer, which gets it too, writes its last checkpoint and a part file
//! marked incomplete before it ends (exit 130); the shell's trap only keeps
//! the shell alive until then (it runs after dancer ends), so that the job
//! step does not end, and take dancer with it, first. The trap is a
//! command, not `''`: a signal ignored by the shell would be ignored by
//! dancer too.
//!
//! Everything written into a script is checked here first: Slurm's time,
//! memory and partition forms ([`check_time`], [`check_memory`],
//! [`check_partition`]), the number of tasks (1 to [`MAX_TASKS`]), and
//! every argument quoted for the shell ([`shell_quote`]).

use std::fmt::Write as _;
use std::path::PathBuf;

/// The most tasks an array may have: Slurm's own largest `MaxArraySize`
/// is 4,000,001, but clusters set it far lower (1,001 by default); beyond
/// this, parts are better made bigger.
pub const MAX_TASKS: usize = 100_000;

/// What the parts of a run are, which says how a task resumes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parts {
    /// `dancer solve --shard`: a checkpoint beside each part
    /// (`--checkpoint`, then `--resume`).
    Search,
    /// `dancer sudoku ... --shard`: the part file is its own checkpoint
    /// (`--resume` the part).
    Sudoku,
}

/// A job array and its merge, as `dancer slurm` writes them.
#[derive(Clone, Debug)]
pub struct SlurmJob {
    /// The job's name (the merge's is this with `-merge`).
    pub name: String,
    /// The run's folder (absolute): `parts/`, `checkpoints/`, `logs/`,
    /// `result.txt`.
    pub dir: PathBuf,
    /// Where the tasks run (absolute): relative paths in `command` are
    /// read from here.
    pub workdir: PathBuf,
    /// The dancer program the tasks run (absolute).
    pub dancer: PathBuf,
    /// The arguments of a task's dancer, without the shard's flags (these
    /// are added): `["solve", "big.dlx", "--count", "--threads", "4"]`.
    pub command: Vec<String>,
    /// How the parts resume.
    pub parts: Parts,
    /// Arguments of `dancer merge` after the files (`--json`).
    pub merge_args: Vec<String>,
    /// N.
    pub tasks: usize,
    pub partition: Option<String>,
    pub time: Option<String>,
    pub cpus_per_task: usize,
    pub memory: Option<String>,
}

/// What the tasks of a run run, from the wrapped command (the dancer
/// command line given after `--`, which the front end has read and
/// checked): the arguments of a task's dancer, the kind of its parts, the
/// arguments of the merge, and the job's name unless one is given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Task {
    /// [`SlurmJob::command`]: `--threads CPUS` added unless the command
    /// sets its threads.
    pub command: Vec<String>,
    pub parts: Parts,
    /// [`SlurmJob::merge_args`]: `--json` for a search's NDJSON summary;
    /// none for a Sudoku batch, whose merge prints its parts' outputs as
    /// they were made.
    pub merge_args: Vec<String>,
    /// From the input's file name ([`job_name`]).
    pub name: String,
}

impl Task {
    /// The wrapped command `args` as it is (`solve FILE --count ...`,
    /// `sudoku solve FILE ...`): its parts of kind `parts`, named after
    /// `input`; `json` (a search's) and `threads` (whether the command
    /// sets them) as it says, `cpus` the CPUs of a task.
    pub fn new(
        parts: Parts,
        args: &[String],
        input: &str,
        json: bool,
        threads: bool,
        cpus: usize,
    ) -> Task {
        let mut command = args.to_vec();
        if !threads {
            command.extend(["--threads".to_string(), cpus.to_string()]);
        }
        let json = json && parts == Parts::Search;
        Task {
            command,
            parts,
            merge_args: if json { vec!["--json".into()] } else { vec![] },
            name: job_name(input),
        }
    }

    /// `poly solve PUZZLE --count` in parts: its tasks run `solve
    /// problem.dlx --count --engine ENGINE` on the puzzle's exact cover
    /// problem, which the front end writes into the run's folder
    /// ([`NewRun::write`](crate::NewRun::write)), whose path then
    /// replaces `command[1]`.
    pub fn poly(puzzle: &str, engine: &str, json: bool, threads: bool, cpus: usize) -> Task {
        let mut args: Vec<String> = ["solve", "problem.dlx", "--count", "--engine", engine]
            .map(String::from)
            .to_vec();
        if json {
            args.push("--json".into());
        }
        Task::new(Parts::Search, &args, puzzle, json, threads, cpus)
    }
}

/// A job's name from its input's file name: letters, digits, `_`, `-`
/// and `.` kept, anything else `_` (`dancer` when nothing is left).
pub fn job_name(path: &str) -> String {
    let s: String = std::path::Path::new(path)
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

/// What stops a Slurm run, in data: a value that cannot go into a job
/// script, a run's folder that cannot take a new run (see
/// [`NewRun::write`](crate::NewRun::write)), a run that cannot be read,
/// submitted or waited for ([`RunFolder`](crate::RunFolder)). The paths are
/// as the caller gave them; the front end says what to do about it (which
/// flag, which command) around these words.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// A value (`text`, as given) not of the form Slurm reads for it
    /// (`what.form()`).
    #[error("{what} {text:?}: expected {}", what.form())]
    Form { what: JobValue, text: String },
    /// A number out of its range, 1 to `max`.
    #[error("{what} {n}: expected 1 to {max}")]
    Count {
        what: JobValue,
        n: usize,
        max: usize,
    },
    #[error("{0}: a path in a job script must be valid UTF-8 without line breaks")]
    Path(String),
    #[error("{0}: the run's folder cannot have a backslash in its path (Slurm reads one in --output as an escape, and drops it)")]
    Backslash(String),
    /// A file or folder of the run that could not be read, made, written
    /// or removed.
    #[error("cannot {op} {}", path.display())]
    File {
        op: FileOp,
        path: PathBuf,
        source: std::io::Error,
    },
    /// The dancer program the tasks are to run (`path`, as given) cannot
    /// be found.
    #[error("{}: not found: {io}", path.display())]
    Dancer { path: PathBuf, io: std::io::Error },
    /// This program's path cannot be found (the tasks run it).
    #[error("cannot find this program's path")]
    Program(#[source] std::io::Error),
    /// The run's folder is something else than a folder.
    #[error("{}: not a folder", .0.display())]
    NotAFolder(PathBuf),
    /// The run's folder holds files and no run's record (refused unless
    /// forced).
    #[error("{}: a folder dancer slurm did not make (it holds files, and no run's job.json)", .0.display())]
    Foreign(PathBuf),
    /// The run's folder holds a run with results: `results` (parts,
    /// checkpoints, the result), relative to `dir` (refused unless forced).
    #[error("{}: holds a run with results ({})", dir.display(), listed(results))]
    Results { dir: PathBuf, results: Vec<PathBuf> },
    /// In a folder that holds no run, `file` is at a name the run writes.
    #[error("{}: {} is not a file of a dancer slurm run, and the run would write it: move it away", dir.display(), file.display())]
    NotARunFile { dir: PathBuf, file: PathBuf },
    /// `file` is at a name the new run writes, and not the older run's.
    #[error("{}: {} is not a file of the older run there, and the new run would write it: move it away", dir.display(), file.display())]
    NotTheOlderRuns { dir: PathBuf, file: PathBuf },
    /// `file`, at the name of the older run's part, checkpoint or result,
    /// is not one dancer wrote (never removed).
    #[error("{}: {} is not a part, checkpoint or result dancer wrote: move it away", dir.display(), file.display())]
    NotDancers { dir: PathBuf, file: PathBuf },
    /// A run's folder that cannot be found.
    #[error("{}: no such run folder", dir.display())]
    NoRun {
        dir: PathBuf,
        source: std::io::Error,
    },
    /// A run's `job.json` that is not a run's record ([`RunRecord::from_json`]).
    #[error("{}: {why}", file.display())]
    Record { file: PathBuf, why: String },
    /// A Slurm command (`sbatch`, `squeue`) that cannot be run.
    #[error("cannot run {program}: {io} (is Slurm installed here?)")]
    Spawn {
        program: &'static str,
        io: std::io::Error,
    },
    /// `sbatch ARGS` refused the job: what it said.
    #[error("sbatch {} failed: {stderr}", args.join(" "))]
    Sbatch { args: Vec<String>, stderr: String },
    /// What `sbatch --parsable` printed has no job id ([`parse_job_id`]).
    #[error("sbatch printed no job id: {0:?}")]
    NoJobId(String),
    /// The run in this folder has no merge job yet.
    #[error("{}: not submitted yet", .0.display())]
    NotSubmitted(PathBuf),
    /// A task of the array failed, so the merge waits for ever: the
    /// parts `missing` are to run again.
    #[error(
        "a task of the array failed, so merge job {merge} will never run; parts to run again: {}",
        array_ranges(missing)
    )]
    NeverMerged {
        dir: PathBuf,
        merge: u64,
        missing: Vec<usize>,
    },
    /// The merge job ended, and wrote no result (its log says why).
    #[error("merge job {merge} ended without a result: see {}", log.display())]
    NoResult { merge: u64, log: PathBuf },
}

/// What was done to a file of the run, in [`ClusterError::File`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileOp {
    Read,
    Create,
    Write,
    Remove,
}

impl std::fmt::Display for FileOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileOp::Read => "read",
            FileOp::Create => "create",
            FileOp::Write => "write",
            FileOp::Remove => "remove",
        })
    }
}

/// The first three of `files`, and `...` when there are more.
fn listed(files: &[PathBuf]) -> String {
    let mut s: Vec<String> = files
        .iter()
        .take(3)
        .map(|f| f.display().to_string())
        .collect();
    if files.len() > 3 {
        s.push("...".into());
    }
    s.join(", ")
}

/// Which value of a job a [`ClusterError`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JobValue {
    /// The time limit of a task.
    Time,
    /// The memory of a task.
    Memory,
    /// The partition (or partitions).
    Partition,
    /// The job's name.
    Name,
    /// The number of tasks of the array.
    Tasks,
    /// The CPUs of a task.
    CpusPerTask,
}

impl JobValue {
    /// The form Slurm reads for this value, as `expected ...` ends.
    pub fn form(self) -> &'static str {
        match self {
            JobValue::Time => "minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS",
            JobValue::Memory => "a whole number with an optional unit K, M, G or T (e.g. 4G)",
            JobValue::Partition => "letters, digits, '_', '-' or '.' (several separated by commas)",
            JobValue::Name => "letters, digits, '_', '-' or '.'",
            JobValue::Tasks | JobValue::CpusPerTask => "a whole number",
        }
    }
}

impl std::fmt::Display for JobValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            JobValue::Time => "time limit",
            JobValue::Memory => "memory",
            JobValue::Partition => "partition",
            JobValue::Name => "job name",
            JobValue::Tasks => "number of tasks",
            JobValue::CpusPerTask => "CPUs per task",
        })
    }
}

fn bad_form(what: JobValue, text: &str) -> ClusterError {
    ClusterError::Form {
        what,
        text: text.to_string(),
    }
}

/// Checks a Slurm time limit: `minutes`, `MM:SS`, `HH:MM:SS`, `D-HH`,
/// `D-HH:MM` or `D-HH:MM:SS` (`UNLIMITED` and `INFINITE` too).
pub fn check_time(s: &str) -> Result<(), ClusterError> {
    let bad = || bad_form(JobValue::Time, s);
    if s == "UNLIMITED" || s == "INFINITE" {
        return Ok(());
    }
    let num = |t: &str| !t.is_empty() && t.len() <= 9 && t.bytes().all(|b| b.is_ascii_digit());
    let (days, rest) = match s.split_once('-') {
        Some((d, r)) => (Some(d), r),
        None => (None, s),
    };
    if days.is_some_and(|d| !num(d)) {
        return Err(bad());
    }
    let fields: Vec<&str> = rest.split(':').collect();
    let ok = fields.iter().all(|f| num(f))
        && match days {
            // D-HH, D-HH:MM, D-HH:MM:SS
            Some(_) => (1..=3).contains(&fields.len()),
            // minutes, MM:SS, HH:MM:SS
            None => (1..=3).contains(&fields.len()),
        };
    if ok {
        Ok(())
    } else {
        Err(bad())
    }
}

/// Checks a Slurm memory size: a whole number, optionally followed by
/// `K`, `M`, `G` or `T` (megabytes without one).
pub fn check_memory(s: &str) -> Result<(), ClusterError> {
    let digits = s.trim_end_matches(['K', 'M', 'G', 'T', 'k', 'm', 'g', 't']);
    let unit = s.len() - digits.len();
    if unit <= 1
        && !digits.is_empty()
        && digits.len() <= 12
        && digits.bytes().all(|b| b.is_ascii_digit())
    {
        Ok(())
    } else {
        Err(bad_form(JobValue::Memory, s))
    }
}

fn plain_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 128
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b))
}

/// Checks a partition name (or several, separated by commas).
pub fn check_partition(s: &str) -> Result<(), ClusterError> {
    if s.split(',').all(plain_name) {
        Ok(())
    } else {
        Err(bad_form(JobValue::Partition, s))
    }
}

/// Checks a job name.
pub fn check_name(s: &str) -> Result<(), ClusterError> {
    if plain_name(s) {
        Ok(())
    } else {
        Err(bad_form(JobValue::Name, s))
    }
}

/// Checks the numbers and Slurm values of a job: 1 to [`MAX_TASKS`]
/// tasks, 1 to 4,096 CPUs a task, and the time, memory and partition
/// forms.
pub fn check_values(
    tasks: usize,
    cpus_per_task: usize,
    time: Option<&str>,
    memory: Option<&str>,
    partition: Option<&str>,
) -> Result<(), ClusterError> {
    if tasks == 0 || tasks > MAX_TASKS {
        return Err(ClusterError::Count {
            what: JobValue::Tasks,
            n: tasks,
            max: MAX_TASKS,
        });
    }
    if cpus_per_task == 0 || cpus_per_task > 4096 {
        return Err(ClusterError::Count {
            what: JobValue::CpusPerTask,
            n: cpus_per_task,
            max: 4096,
        });
    }
    if let Some(t) = time {
        check_time(t)?;
    }
    if let Some(m) = memory {
        check_memory(m)?;
    }
    if let Some(p) = partition {
        check_partition(p)?;
    }
    Ok(())
}

/// `s` as one word for a POSIX shell: as it is when it is made of safe
/// characters only, else in single quotes (a `'` inside as `'\''`).
pub fn shell_quote(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-./=:,+@%".contains(&b));
    if safe {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The job id in what `sbatch --parsable` printed (`1234` or
/// `1234;cluster`).
pub fn parse_job_id(out: &str) -> Option<u64> {
    let first = out.trim().lines().next()?;
    let id = first.split(';').next()?.trim();
    id.parse().ok().filter(|&n| n > 0)
}

impl SlurmJob {
    /// Checks every value that goes into the scripts.
    pub fn check(&self) -> Result<(), ClusterError> {
        check_name(&self.name)?;
        check_values(
            self.tasks,
            self.cpus_per_task,
            self.time.as_deref(),
            self.memory.as_deref(),
            self.partition.as_deref(),
        )?;
        for p in [&self.workdir, &self.dancer] {
            path_text(p)?;
        }
        check_dir(&self.dir)
    }

    fn dir_text(&self, sub: &str) -> String {
        format!("{}/{sub}", self.dir.display())
    }

    /// A file of the run's folder as an `#SBATCH --output` or `--error`
    /// pattern: Slurm replaces `%a`, `%j`, ... there, so a `%` of the
    /// folder's own name is written `%%`; `file` is the pattern's own part.
    fn log_pattern(&self, file: &str) -> String {
        format!(
            "{}/logs/{file}",
            self.dir.display().to_string().replace('%', "%%")
        )
    }

    /// The `#SBATCH` lines both jobs share.
    fn common_lines(&self, s: &mut String) {
        if let Some(p) = &self.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        let _ = writeln!(
            s,
            "#SBATCH --chdir={}",
            shell_quote(&self.workdir.display().to_string())
        );
    }

    /// The array's script: task K runs part K.
    pub fn array_script(&self) -> String {
        let mut s = String::new();
        let q = |p: String| shell_quote(&p);
        let _ = writeln!(s, "#!/bin/bash");
        let _ = writeln!(s, "#SBATCH --job-name={}", self.name);
        let _ = writeln!(s, "#SBATCH --array=1-{}", self.tasks);
        let _ = writeln!(s, "#SBATCH --ntasks=1");
        let _ = writeln!(s, "#SBATCH --cpus-per-task={}", self.cpus_per_task);
        if let Some(m) = &self.memory {
            let _ = writeln!(s, "#SBATCH --mem={m}");
        }
        if let Some(t) = &self.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        self.common_lines(&mut s);
        let _ = writeln!(s, "#SBATCH --requeue");
        let _ = writeln!(s, "#SBATCH --open-mode=append");
        let _ = writeln!(s, "#SBATCH --output={}", q(self.log_pattern("%a.out")));
        let _ = writeln!(s, "#SBATCH --error={}", q(self.log_pattern("%a.err")));
        let _ = writeln!(s, "#");
        let _ = writeln!(
            s,
            "# Written by `dancer slurm`: part K of {} of the run in {}.",
            self.tasks,
            self.dir.display()
        );
        let _ = writeln!(
            s,
            "# A task goes on from its checkpoint: run again, it ends with the same part."
        );
        let _ = writeln!(
            s,
            "# Parts to run again (missing, or stopped before the end):"
        );
        let _ = writeln!(
            s,
            "#   dancer slurm --resubmit {}",
            shell_quote(&self.dir.display().to_string())
        );
        let _ = writeln!(s, "set -u");
        let _ = writeln!(
            s,
            "k=${{SLURM_ARRAY_TASK_ID:?submit with sbatch --array=1-{}}}",
            self.tasks
        );
        let _ = writeln!(s, "part={}/$k.json", q(self.dir_text("parts")));
        let resume = match self.parts {
            Parts::Search => {
                let _ = writeln!(s, "checkpoint={}/$k.json", q(self.dir_text("checkpoints")));
                "if [ -e \"$checkpoint\" ]; then go_on=(--resume \"$checkpoint\"); \
                 else go_on=(--checkpoint \"$checkpoint\"); fi"
            }
            Parts::Sudoku => {
                "if [ -e \"$part\" ]; then go_on=(--resume \"$part\"); else go_on=(); fi"
            }
        };
        let _ = writeln!(s, "{resume}");
        let _ = writeln!(
            s,
            "# keeps the shell until dancer, signalled too, has saved its part"
        );
        let _ = writeln!(s, "trap ':' TERM INT HUP");
        let mut line = q(self.dancer.display().to_string());
        for a in &self.command {
            line.push(' ');
            line.push_str(&shell_quote(a));
        }
        let _ = writeln!(
            s,
            "{line} --shard \"$k/{}\" --shard-out \"$part\" \"${{go_on[@]}}\"",
            self.tasks
        );
        let _ = writeln!(s, "rc=$?");
        match self.parts {
            Parts::Search => {
                let _ = writeln!(
                    s,
                    "# 1: the part is searched and has no solution: a success for the merge"
                );
                let _ = writeln!(s, "if [ \"$rc\" -eq 1 ]; then exit 0; fi");
            }
            Parts::Sudoku => {
                let _ = writeln!(
                    s,
                    "# 1 and 2: puzzles with no solution, several, or invalid ones, the merge's"
                );
                let _ = writeln!(
                    s,
                    "# to report; the part is done when its file says it is complete (then"
                );
                let _ = writeln!(s, "# --resume ends 0 at once; 2 is an error otherwise)");
                let _ = writeln!(s, "if [ \"$rc\" -eq 1 ]; then exit 0; fi");
                let _ = writeln!(
                    s,
                    "if [ \"$rc\" -eq 2 ] && [ -e \"$part\" ] && {line} --shard \"$k/{}\" --resume \"$part\" 2>/dev/null; then exit 0; fi",
                    self.tasks
                );
            }
        }
        let _ = writeln!(s, "exit \"$rc\"");
        s
    }

    /// The merge's script (submitted with `--dependency=afterok:ARRAY`).
    pub fn merge_script(&self) -> String {
        let mut s = String::new();
        let q = |p: String| shell_quote(&p);
        let _ = writeln!(s, "#!/bin/bash");
        let _ = writeln!(s, "#SBATCH --job-name={}-merge", self.name);
        let _ = writeln!(s, "#SBATCH --ntasks=1");
        let _ = writeln!(s, "#SBATCH --cpus-per-task=1");
        if let Some(t) = &self.time {
            let _ = writeln!(s, "#SBATCH --time={t}");
        }
        self.common_lines(&mut s);
        let _ = writeln!(s, "#SBATCH --output={}", q(self.log_pattern("merge.out")));
        let _ = writeln!(s, "#SBATCH --error={}", q(self.log_pattern("merge.err")));
        let _ = writeln!(s, "#");
        let _ = writeln!(
            s,
            "# Written by `dancer slurm`: adds up the {} parts into {}.",
            self.tasks,
            self.dir_text("result.txt")
        );
        let _ = writeln!(s, "set -u");
        let _ = writeln!(s, "parts=()");
        let _ = writeln!(
            s,
            "for ((k = 1; k <= {}; k++)); do parts+=({}/\"$k.json\"); done",
            self.tasks,
            q(self.dir_text("parts"))
        );
        let mut line = q(self.dancer.display().to_string());
        line.push_str(" merge \"${parts[@]}\"");
        for a in &self.merge_args {
            line.push(' ');
            line.push_str(&shell_quote(a));
        }
        let _ = writeln!(s, "{line} > {}", q(self.dir_text("result.txt.tmp")));
        let _ = writeln!(s, "rc=$?");
        // 2 is a refusal (nothing printed), or, of a Sudoku batch, the
        // exit of a batch with invalid puzzles (its answers printed)
        let kept = match self.parts {
            Parts::Search => "[ \"$rc\" -le 1 ]".to_string(),
            Parts::Sudoku => format!(
                "[ \"$rc\" -le 1 ] || {{ [ \"$rc\" -eq 2 ] && [ -s {} ]; }}",
                q(self.dir_text("result.txt.tmp"))
            ),
        };
        let _ = writeln!(
            s,
            "if {kept}; then mv {} {}; fi",
            q(self.dir_text("result.txt.tmp")),
            q(self.dir_text("result.txt"))
        );
        let _ = writeln!(s, "exit \"$rc\"");
        s
    }
}

/// What `dancer slurm` keeps in `DIR/job.json` for `--resubmit`: the
/// number of parts, their kind, and the last jobs submitted.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RunRecord {
    /// Always [`RUN`].
    pub format: String,
    pub tasks: usize,
    /// `"search"` or `"sudoku"`.
    pub parts: String,
    #[serde(default)]
    pub array_job: Option<u64>,
    #[serde(default)]
    pub merge_job: Option<u64>,
}

/// The `format` of `job.json`.
pub const RUN: &str = "dancer-slurm";

impl RunRecord {
    /// Reads `job.json`, checked: its format, 1 to [`MAX_TASKS`] tasks, a
    /// known kind of parts.
    pub fn from_json(text: &str) -> Result<RunRecord, String> {
        let r: RunRecord = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if r.format != RUN {
            return Err(format!("not a dancer slurm run (format {:?})", r.format));
        }
        if r.tasks == 0 || r.tasks > MAX_TASKS {
            return Err(format!("tasks {}: expected 1 to {MAX_TASKS}", r.tasks));
        }
        r.kind()?;
        Ok(r)
    }

    /// The kind of parts.
    pub fn kind(&self) -> Result<Parts, String> {
        match self.parts.as_str() {
            "search" => Ok(Parts::Search),
            "sudoku" => Ok(Parts::Sudoku),
            p => Err(format!("parts {p:?}: expected \"search\" or \"sudoku\"")),
        }
    }

    /// The record of a run of `tasks` parts of kind `parts`.
    pub fn new(tasks: usize, parts: Parts) -> RunRecord {
        RunRecord {
            format: RUN.into(),
            tasks,
            parts: match parts {
                Parts::Search => "search",
                Parts::Sudoku => "sudoku",
            }
            .into(),
            array_job: None,
            merge_job: None,
        }
    }
}

/// `3-5,9`: the numbers `ks` (sorted, 1 or more) as `sbatch --array`
/// ranges ([`ToRerun::array`](crate::parts::ToRerun::array)'s form).
pub fn array_ranges(ks: &[usize]) -> String {
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for &k in ks {
        match ranges.last_mut() {
            Some((_, b)) if b.checked_add(1) == Some(k) => *b = k,
            _ => ranges.push((k, k)),
        }
    }
    crate::parts::ToRerun {
        n: ks.last().copied().unwrap_or(0),
        ranges,
        incomplete: Vec::new(),
    }
    .array()
}

/// Checks the run's folder (as a full path) for the scripts: text that
/// goes into them, and no backslash (Slurm drops one from `--output`).
/// Called before the folder is made, and again on the job.
pub fn check_dir(dir: &std::path::Path) -> Result<(), ClusterError> {
    let text = path_text(dir)?;
    if text.contains('\\') {
        return Err(ClusterError::Backslash(text));
    }
    Ok(())
}

/// A path as it is written into a script.
fn path_text(p: &std::path::Path) -> Result<String, ClusterError> {
    match p.to_str() {
        Some(s) if !s.contains(['\n', '\r', '\0']) => Ok(s.to_string()),
        _ => Err(ClusterError::Path(p.display().to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_memories_and_names() {
        for t in [
            "30",
            "30:00",
            "2:00:00",
            "1-0",
            "1-12:00",
            "7-00:00:00",
            "INFINITE",
        ] {
            assert!(check_time(t).is_ok(), "{t}");
        }
        for t in [
            "",
            "1h",
            "1:2:3:4",
            "-1",
            "1-",
            "1-2:3:4:5",
            "1;rm",
            "a:b",
            "1 0",
        ] {
            assert!(check_time(t).is_err(), "{t}");
        }
        for m in ["4G", "512M", "1000", "2T", "64k"] {
            assert!(check_memory(m).is_ok(), "{m}");
        }
        for m in ["", "G", "4GB", "1.5G", "-1", "4G;x", "99999999999999G"] {
            assert!(check_memory(m).is_err(), "{m}");
        }
        assert!(check_partition("debug,long").is_ok());
        assert!(check_partition("a b").is_err());
        assert!(check_partition("a,").is_err());
        assert!(check_name("x$(id)").is_err());
        assert!(check_name("q13.run-1").is_ok());
        // the library's words: the value, with data, and no flag of any
        // front end (the command line names its own)
        assert!(matches!(
            check_time("1h"),
            Err(ClusterError::Form { what: JobValue::Time, ref text }) if text == "1h"
        ));
        for e in [
            check_time("1h").unwrap_err(),
            check_memory("4GB").unwrap_err(),
            check_partition("a b").unwrap_err(),
            check_name("x$(id)").unwrap_err(),
            check_values(0, 1, None, None, None).unwrap_err(),
            check_values(1, 0, None, None, None).unwrap_err(),
        ] {
            assert!(!e.to_string().contains("--"), "{e}");
        }
        assert_eq!(
            check_memory("4GB").unwrap_err().to_string(),
            "memory \"4GB\": expected a whole number with an optional unit K, M, G or T (e.g. 4G)"
        );
        assert_eq!(
            check_values(1, 0, None, None, None)
                .unwrap_err()
                .to_string(),
            "CPUs per task 0: expected 1 to 4096"
        );
    }

    #[test]
    fn what_a_task_runs() {
        let args = ["sudoku", "check", "my puzzles.txt", "--json"].map(String::from);
        let t = Task::new(Parts::Sudoku, &args, "dir/my puzzles.txt", true, false, 4);
        assert_eq!(t.command[..4], args);
        assert_eq!(t.command[4..], ["--threads", "4"]);
        assert_eq!(
            t.merge_args,
            Vec::<String>::new(),
            "a batch's merge prints its parts"
        );
        assert_eq!(t.name, "my_puzzles");
        let t = Task::new(Parts::Search, &args[..2], "q.dlx", true, true, 4);
        assert_eq!(
            (t.command.len(), &t.merge_args[..]),
            (2, &["--json".to_string()][..])
        );
        let t = Task::poly("pentomino-6x10", "dlx", false, false, 1);
        assert_eq!(
            t.command,
            [
                "solve",
                "problem.dlx",
                "--count",
                "--engine",
                "dlx",
                "--threads",
                "1"
            ]
        );
        assert_eq!(
            (t.parts, t.name.as_str()),
            (Parts::Search, "pentomino-6x10")
        );
        for (path, name) in [
            ("a/b/q13.dlx", "q13"),
            ("x$(id).txt", "x__id_"),
            ("", "dancer"),
            ("/", "dancer"),
        ] {
            assert_eq!(job_name(path), name, "{path}");
        }
    }

    #[test]
    fn the_words_of_a_refused_run_name_no_flag() {
        let dir = PathBuf::from("runs/q");
        for e in [
            ClusterError::NotAFolder(dir.clone()),
            ClusterError::Foreign(dir.clone()),
            ClusterError::Results {
                dir: dir.clone(),
                results: (1..=4).map(|k| format!("parts/{k}.json").into()).collect(),
            },
            ClusterError::NotSubmitted(dir.clone()),
            ClusterError::NeverMerged {
                dir: dir.clone(),
                merge: 7,
                missing: vec![2, 3, 5],
            },
        ] {
            let s = e.to_string();
            assert!(s.starts_with("runs/q: ") || s.starts_with("a task"), "{s}");
            assert!(!s.contains("--"), "{s}");
        }
        assert!(ClusterError::Results {
            dir: dir.clone(),
            results: (1..=4).map(|k| format!("parts/{k}.json").into()).collect()
        }
        .to_string()
        .ends_with("(parts/1.json, parts/2.json, parts/3.json, ...)"));
        assert!(ClusterError::NeverMerged {
            dir,
            merge: 7,
            missing: vec![2, 3, 5]
        }
        .to_string()
        .ends_with("merge job 7 will never run; parts to run again: 2-3,5"));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("plain/path-1.dlx"), "plain/path-1.dlx");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("$(id)"), "'$(id)'");
    }

    #[test]
    fn ranges_and_records() {
        assert_eq!(array_ranges(&[]), "");
        assert_eq!(array_ranges(&[1, 2, 3, 4]), "1-4");
        assert_eq!(array_ranges(&[3, 5, 6, 9]), "3,5-6,9");
        let r = RunRecord::new(4, Parts::Sudoku);
        let text = serde_json::to_string(&r).unwrap();
        assert_eq!(RunRecord::from_json(&text), Ok(r));
        for bad in [
            r#"{"format":"x","tasks":4,"parts":"search"}"#,
            r#"{"format":"dancer-slurm","tasks":0,"parts":"search"}"#,
            r#"{"format":"dancer-slurm","tasks":100000000000,"parts":"search"}"#,
            r#"{"format":"dancer-slurm","tasks":4,"parts":"other"}"#,
            "[]",
        ] {
            assert!(RunRecord::from_json(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn job_ids() {
        assert_eq!(parse_job_id("1234\n"), Some(1234));
        assert_eq!(parse_job_id("77;cluster\n"), Some(77));
        assert_eq!(parse_job_id("Submitted batch job 5"), None);
        assert_eq!(parse_job_id(""), None);
        assert_eq!(parse_job_id("0"), None);
    }

    fn job(parts: Parts) -> SlurmJob {
        SlurmJob {
            name: "q".into(),
            dir: "/runs/q 13".into(),
            workdir: "/home/me".into(),
            dancer: "/usr/bin/dancer".into(),
            command: vec!["solve".into(), "my file.dlx".into(), "--count".into()],
            parts,
            merge_args: vec![],
            tasks: 4,
            partition: Some("debug".into()),
            time: Some("1:00:00".into()),
            cpus_per_task: 2,
            memory: Some("1G".into()),
        }
    }

    #[test]
    fn scripts() {
        let j = job(Parts::Search);
        assert!(j.check().is_ok());
        let a = j.array_script();
        for line in [
            "#SBATCH --array=1-4",
            "#SBATCH --cpus-per-task=2",
            "#SBATCH --mem=1G",
            "#SBATCH --time=1:00:00",
            "#SBATCH --partition=debug",
            "#SBATCH --chdir=/home/me",
            "#SBATCH --requeue",
            "#SBATCH --output='/runs/q 13/logs/%a.out'",
            "checkpoint='/runs/q 13/checkpoints'/$k.json",
            "trap ':' TERM INT HUP",
            "/usr/bin/dancer solve 'my file.dlx' --count --shard \"$k/4\" --shard-out \"$part\" \"${go_on[@]}\"",
        ] {
            assert!(a.lines().any(|l| l == line), "{line} not in\n{a}");
        }
        let s = job(Parts::Sudoku).array_script();
        assert!(s.contains("go_on=(--resume \"$part\")"), "{s}");
        assert!(!s.contains("checkpoint="), "{s}");
        let m = j.merge_script();
        assert!(m.contains("#SBATCH --job-name=q-merge"), "{m}");
        assert!(
            m.contains(
                "for ((k = 1; k <= 4; k++)); do parts+=('/runs/q 13/parts'/\"$k.json\"); done"
            ),
            "{m}"
        );
        let mut bad = j.clone();
        bad.tasks = 0;
        assert!(bad.check().is_err());
        bad.tasks = MAX_TASKS + 1;
        assert!(bad.check().is_err());
        let mut bad = j.clone();
        bad.time = Some("1:00;rm -rf /".into());
        assert!(bad.check().is_err());
        let mut bad = j.clone();
        bad.dir = "/a\nb".into();
        assert!(bad.check().is_err());
        let mut bad = j.clone();
        bad.dir = "/a\\b".into();
        assert!(matches!(bad.check(), Err(ClusterError::Backslash(_))));
        // Slurm's patterns: a '%' of the folder's name is written '%%' in
        // --output and --error (nowhere else: the shell lines and --chdir
        // take it as it is)
        let mut pct = j;
        pct.dir = "/runs/d%a".into();
        pct.workdir = "/home/100%".into();
        let a = pct.array_script();
        assert!(
            a.contains("#SBATCH --output=/runs/d%%a/logs/%a.out\n"),
            "{a}"
        );
        assert!(
            a.contains("#SBATCH --error=/runs/d%%a/logs/%a.err\n"),
            "{a}"
        );
        assert!(a.contains("#SBATCH --chdir=/home/100%\n"), "{a}");
        assert!(a.contains("part=/runs/d%a/parts/$k.json"), "{a}");
        let m = pct.merge_script();
        assert!(
            m.contains("#SBATCH --output=/runs/d%%a/logs/merge.out\n"),
            "{m}"
        );
    }
}
