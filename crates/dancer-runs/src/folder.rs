//! The folder of a Slurm run (`dancer slurm --dir DIR`) and its jobs:
//! preparing the folder for a new run, writing the run into it, and, for
//! a run written there, which parts are missing, submitting it again and
//! waiting for its merge.
//!
//! A run's folder holds the files of the run's own names ([`own_files`]):
//! `array.sbatch`, `merge.sbatch`, `job.json` (the [`RunRecord`]),
//! `problem.dlx` (a polyform puzzle's problem), `result.txt` (and
//! `result.txt.tmp`, the merge's output until it is whole), `parts/K.json`
//! and `checkpoints/K.json` for each part K; and `logs/`.
//!
//! What holds: nothing in a folder that dancer did not write is ever
//! removed, nor overwritten. A new run goes into a folder that is new or
//! empty, or that holds a run not yet run (its scripts are rewritten).
//! Refused unless forced: a folder of results (an older run's parts,
//! checkpoints or result), and a folder of files and no run. Forced, the
//! older run's own parts, checkpoints and result are removed, each checked
//! first to be a file dancer wrote, and anything else stays; a file of
//! someone else's at a name the new run writes is refused all the same.
//! The folder is looked at name by name (a folder of the user's is never
//! walked), and every check is made before anything is removed or written.
//!
//! Unlike the rest of this crate, this module reads and writes files and
//! runs Slurm's commands (`sbatch`, `squeue`, `scancel`) itself: a run's
//! folder and jobs are what it decides about, and nothing of them goes
//! back to the caller but data. The job's record is read through the
//! caller ([`RunFolder::open`]), so that a record that cannot be read is
//! said in the caller's words for any file; the other files are read here,
//! bounded, and one that cannot be read is not dancer's (or not done).

use crate::slurm::{
    array_ranges, check_dir, check_name, check_values, parse_job_id, ClusterError, FileOp, Parts,
    RunRecord, SlurmJob, Task,
};
use crate::{batch::PartFile, search::Saved};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The most bytes of a run's record read ([`NewRun::write`] reads an
/// older run's): that of a small file (64 MiB).
const MAX_RECORD_BYTES: u64 = 64 << 20;

/// The most bytes of a part or a checkpoint read to see whether it is
/// dancer's or done (1 GiB).
const MAX_PART_TEXT: u64 = 1 << 30;

/// A new run, as asked (the front end's flags, checked by
/// [`NewRun::write`]).
#[derive(Clone, Debug)]
pub struct NewRun {
    /// What its tasks run.
    pub task: Task,
    /// The job's name (default: [`Task::name`]).
    pub name: Option<String>,
    /// The run's folder, relative to the current folder or absolute
    /// (default: `slurm-NAME`).
    pub dir: Option<PathBuf>,
    /// Where the tasks run (absolute): the current folder.
    pub workdir: PathBuf,
    /// The dancer program the tasks run (default: this one).
    pub dancer: Option<PathBuf>,
    pub tasks: usize,
    pub cpus_per_task: usize,
    pub time: Option<String>,
    pub memory: Option<String>,
    pub partition: Option<String>,
    /// Whether a folder that holds a run with results, or files and no
    /// run, takes the run (see the module's documentation).
    pub force: bool,
}

/// A run written into its folder: the folder (absolute) and its record.
#[derive(Debug)]
pub struct RunFolder {
    dir: PathBuf,
    record: RunRecord,
    parts: Parts,
}

/// The jobs submitted: the array (none when every part was done) and the
/// merge after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Submitted {
    pub array_job: Option<u64>,
    pub merge_job: u64,
}

fn file_error(op: FileOp, path: &Path) -> impl FnOnce(std::io::Error) -> ClusterError + '_ {
    move |source| ClusterError::File {
        op,
        path: path.to_path_buf(),
        source,
    }
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), ClusterError> {
    std::fs::write(path, bytes).map_err(file_error(FileOp::Write, path))
}

/// `path` read whole as text, at most `limit` bytes (a byte order mark
/// at the start dropped); none when it cannot be.
fn read_text(path: &Path, limit: u64) -> Option<String> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .ok()?
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    if bytes.len() as u64 > limit {
        return None;
    }
    let text = String::from_utf8(bytes).ok()?;
    Some(match text.strip_prefix('\u{feff}') {
        Some(t) => t.to_string(),
        None => text,
    })
}

/// Whether something (a file, a link, anything) is at `path`.
fn present(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok()
}

/// Whether a regular file (not a link) is at `path`.
fn plain_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

/// The sub-folder a file of the run is in: `parts`, `checkpoints`, or
/// none (the folder itself).
fn sub(path: &Path) -> Option<&str> {
    match path.parent()?.file_name()?.to_str()? {
        s @ ("parts" | "checkpoints") => Some(s),
        _ => None,
    }
}

/// The files of a run's folder `dir` that dancer writes, for a run of
/// `tasks` parts: the scripts, the record, the problem, the result, and
/// part and checkpoint `K` for every `K`.
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

/// Whether `path`, a file of the run's own names, holds what dancer would
/// write there: a part or a checkpoint that reads as one (checksum
/// included); any other name of the run is dancer's by its name.
fn dancers_own(path: &Path) -> bool {
    if sub(path).is_none() {
        return true;
    }
    read_text(path, MAX_PART_TEXT)
        .is_some_and(|t| Saved::from_json(&t).is_ok() || PartFile::from_json(&t).is_ok())
}

/// Whether part file `text` of a run of kind `parts` is complete (a file
/// that does not read as a part is not: running the part again rewrites
/// it).
fn part_done(parts: Parts, text: &str) -> bool {
    match parts {
        Parts::Search => Saved::from_json(text).is_ok_and(|s| s.complete),
        Parts::Sudoku => PartFile::from_json(text).is_ok_and(|p| p.complete),
    }
}

/// Whether `dir` holds nothing but, at most, the empty `parts`,
/// `checkpoints` and `logs` folders of a run that was never written.
fn is_empty(dir: &Path) -> Result<bool, ClusterError> {
    for e in std::fs::read_dir(dir).map_err(file_error(FileOp::Read, dir))? {
        let e = e.map_err(file_error(FileOp::Read, dir))?;
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

/// Looks at the run's folder `dir` before anything is written, and says
/// which files of an older run there to remove (see the module's
/// documentation for what is refused).
fn to_clear(dir: &Path, tasks: usize, force: bool) -> Result<Vec<PathBuf>, ClusterError> {
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(file_error(FileOp::Read, dir)(e)),
        Ok(m) if !m.is_dir() => return Err(ClusterError::NotAFolder(dir.to_path_buf())),
        Ok(_) => {}
    }
    if is_empty(dir)? {
        return Ok(Vec::new());
    }
    let in_the_way = |file: &Path| (dir.to_path_buf(), file.to_path_buf());
    let record = read_text(&dir.join("job.json"), MAX_RECORD_BYTES)
        .and_then(|t| RunRecord::from_json(&t).ok());
    let Some(old) = record else {
        if !force {
            return Err(ClusterError::Foreign(dir.to_path_buf()));
        }
        return match own_files(dir, tasks).into_iter().find(|f| present(f)) {
            Some(f) => {
                let (dir, file) = in_the_way(&f);
                Err(ClusterError::NotARunFile { dir, file })
            }
            None => Ok(Vec::new()),
        };
    };
    let old_files = own_files(dir, old.tasks);
    let results: Vec<PathBuf> = old_files
        .iter()
        .filter(|f| present(f))
        .filter(|f| sub(f).is_some() || f.file_name().is_some_and(|n| n == "result.txt"))
        .cloned()
        .collect();
    if !results.is_empty() && !force {
        let results = results
            .iter()
            .map(|f| f.strip_prefix(dir).unwrap_or(f).to_path_buf())
            .collect();
        return Err(ClusterError::Results {
            dir: dir.to_path_buf(),
            results,
        });
    }
    // files at the new run's names must be the older run's own
    let older: std::collections::HashSet<&PathBuf> = old_files.iter().collect();
    for f in own_files(dir, tasks).into_iter().filter(|f| present(f)) {
        if !older.contains(&f) || !plain_file(&f) || !dancers_own(&f) {
            let (dir, file) = in_the_way(&f);
            return Err(ClusterError::NotTheOlderRuns { dir, file });
        }
    }
    if let Some(f) = results.iter().find(|f| !plain_file(f) || !dancers_own(f)) {
        let (dir, file) = in_the_way(f);
        return Err(ClusterError::NotDancers { dir, file });
    }
    let mut clear = results;
    let tmp = dir.join("result.txt.tmp");
    if tmp.is_file() {
        clear.push(tmp);
    }
    Ok(clear)
}

impl NewRun {
    /// Checks the run and writes it into its folder, in this order: the
    /// job's name and values ([`check_values`]), the folder's path
    /// ([`check_dir`]) and what is in it (see the module's documentation);
    /// then `parts/`, `checkpoints/` and `logs/` are made, `problem` (a
    /// polyform puzzle's DLX text) written as `problem.dlx`, whose path
    /// replaces `command[1]`, and the paths checked ([`SlurmJob::check`]);
    /// then the older run's own files are removed (a run written again
    /// starts afresh: they were of another split or command), and the
    /// scripts and the record are written.
    pub fn write(self, problem: Option<&[u8]>) -> Result<RunFolder, ClusterError> {
        let name = self.name.unwrap_or(self.task.name);
        check_name(&name)?;
        let (time, memory, partition) = (self.time, self.memory, self.partition);
        let (tasks, cpus_per_task) = (self.tasks, self.cpus_per_task);
        check_values(
            tasks,
            cpus_per_task,
            time.as_deref(),
            memory.as_deref(),
            partition.as_deref(),
        )?;
        let given = match self.dir {
            Some(d) => d,
            None => PathBuf::from(format!("slurm-{name}")),
        };
        check_dir(&self.workdir.join(&given))?;
        let clear = to_clear(&given, tasks, self.force)?;
        for sub in ["parts", "checkpoints", "logs"] {
            let path = given.join(sub);
            std::fs::create_dir_all(&path).map_err(file_error(FileOp::Create, &path))?;
        }
        let dir = given
            .canonicalize()
            .map_err(file_error(FileOp::Read, &given))?;
        let dancer = match self.dancer {
            Some(d) => d
                .canonicalize()
                .map_err(|io| ClusterError::Dancer { path: d, io })?,
            None => std::env::current_exe().map_err(ClusterError::Program)?,
        };
        let mut command = self.task.command;
        if let Some(problem) = problem {
            let path = dir.join("problem.dlx");
            write(&path, problem)?;
            command[1] = path.display().to_string();
        }
        let parts = self.task.parts;
        let job = SlurmJob {
            name,
            dir,
            workdir: self.workdir,
            dancer,
            command,
            parts,
            merge_args: self.task.merge_args,
            tasks,
            partition,
            time,
            cpus_per_task,
            memory,
        };
        job.check()?;
        for f in &clear {
            std::fs::remove_file(f).map_err(file_error(FileOp::Remove, f))?;
        }
        write(&job.dir.join("array.sbatch"), job.array_script().as_bytes())?;
        write(&job.dir.join("merge.sbatch"), job.merge_script().as_bytes())?;
        let run = RunFolder {
            dir: job.dir,
            record: RunRecord::new(tasks, parts),
            parts,
        };
        run.save()?;
        Ok(run)
    }
}

/// What `squeue` says of a merge job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MergeState {
    /// It has left the queue (ended, or forgotten by the controller).
    Gone,
    /// Pending or running.
    Queued,
    /// Pending for ever: a task of the array it depends on failed.
    Never,
}

/// Reads what `squeue -h -o "%T %r" -j MERGE` printed: nothing when the
/// job has ended (squeue fails for a job that has left the controller's
/// memory), its state and reason otherwise.
fn merge_state(squeue: &str) -> MergeState {
    let text = squeue.trim();
    if text.is_empty() {
        MergeState::Gone
    } else if text.contains("DependencyNeverSatisfied") {
        MergeState::Never
    } else {
        MergeState::Queued
    }
}

/// Runs `sbatch --parsable ARGS`, and returns the job id.
fn sbatch(args: &[String]) -> Result<u64, ClusterError> {
    let out = Command::new("sbatch")
        .arg("--parsable")
        .args(args)
        .output()
        .map_err(|io| ClusterError::Spawn {
            program: "sbatch",
            io,
        })?;
    if !out.status.success() {
        return Err(ClusterError::Sbatch {
            args: args.to_vec(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        });
    }
    let text = String::from_utf8_lossy(&out.stdout);
    parse_job_id(&text).ok_or_else(|| ClusterError::NoJobId(text.trim().to_string()))
}

impl RunFolder {
    /// The run in `dir`: its record (`job.json`) read by `read`, the
    /// caller's way of reading a file whole, and checked
    /// ([`RunRecord::from_json`]).
    pub fn open<E: From<ClusterError>>(
        dir: &Path,
        read: impl FnOnce(&Path) -> Result<String, E>,
    ) -> Result<RunFolder, E> {
        let dir = dir.canonicalize().map_err(|source| ClusterError::NoRun {
            dir: dir.to_path_buf(),
            source,
        })?;
        let file = dir.join("job.json");
        let text = read(&file)?;
        let record =
            RunRecord::from_json(&text).map_err(|why| ClusterError::Record { file, why })?;
        let parts = record.kind().expect("checked by from_json");
        Ok(RunFolder { dir, record, parts })
    }

    /// The folder, absolute.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The run's record: its parts and the jobs last submitted.
    pub fn record(&self) -> &RunRecord {
        &self.record
    }

    /// The merged result's file (there once the merge has run).
    pub fn result(&self) -> PathBuf {
        self.dir.join("result.txt")
    }

    fn save(&self) -> Result<(), ClusterError> {
        let text = serde_json::to_string(&self.record).expect("plain data serialises");
        write(&self.dir.join("job.json"), text.as_bytes())
    }

    /// The parts that are missing or stopped before the end, in order.
    pub fn missing(&self) -> Vec<usize> {
        (1..=self.record.tasks)
            .filter(|k| {
                let path = self.dir.join("parts").join(format!("{k}.json"));
                let done = path.is_file()
                    && read_text(&path, MAX_PART_TEXT).is_some_and(|t| part_done(self.parts, &t));
                !done
            })
            .collect()
    }

    /// Submits the tasks `ks` of the array and a merge after them (only
    /// the merge when `ks` is empty), and records the jobs. A merge
    /// submitted before is cancelled first: waiting for an older array, it
    /// would never run (`scancel`, whose own words, if any, go to standard
    /// error as they come).
    pub fn submit(&mut self, ks: &[usize]) -> Result<Submitted, ClusterError> {
        if let Some(old) = self.record.merge_job {
            let _ = Command::new("scancel").arg(old.to_string()).status();
        }
        let script = |name: &str| self.dir.join(name).display().to_string();
        let array_job = if ks.is_empty() {
            None
        } else {
            let array = format!("--array={}", array_ranges(ks));
            Some(sbatch(&[array, script("array.sbatch")])?)
        };
        let mut margs = Vec::new();
        if let Some(a) = array_job {
            margs.push(format!("--dependency=afterok:{a}"));
        }
        margs.push(script("merge.sbatch"));
        let merge_job = sbatch(&margs)?;
        self.record.array_job = array_job;
        self.record.merge_job = Some(merge_job);
        self.save()?;
        Ok(Submitted {
            array_job,
            merge_job,
        })
    }

    /// Waits until the merge job has left the queue (asking `squeue`
    /// every second), and returns the result's file. Refused: a run not
    /// submitted, a merge that will never run (a task failed: the parts to
    /// run again are said), a merge that ended without a result.
    pub fn wait(&self) -> Result<PathBuf, ClusterError> {
        let Some(merge) = self.record.merge_job else {
            return Err(ClusterError::NotSubmitted(self.dir.clone()));
        };
        loop {
            let o = Command::new("squeue")
                .args(["-h", "-o", "%T %r", "-j", &merge.to_string()])
                .output()
                .map_err(|io| ClusterError::Spawn {
                    program: "squeue",
                    io,
                })?;
            match merge_state(&String::from_utf8_lossy(&o.stdout)) {
                MergeState::Gone => break,
                MergeState::Never => {
                    return Err(ClusterError::NeverMerged {
                        dir: self.dir.clone(),
                        merge,
                        missing: self.missing(),
                    })
                }
                MergeState::Queued => std::thread::sleep(std::time::Duration::from_secs(1)),
            }
        }
        let result = self.result();
        if !result.is_file() {
            return Err(ClusterError::NoResult {
                merge,
                log: self.dir.join("logs/merge.err"),
            });
        }
        Ok(result)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::search::ShardSpec;

    /// A search's shard result `k` of `n` (a memoized count), as its file
    /// holds it.
    pub(crate) fn shard(k: usize, n: usize, complete: bool) -> String {
        let mut b = dancer_core::ProblemBuilder::new();
        b.primary("a").unwrap();
        b.option(["a"]).unwrap();
        let r = dancer_core::memo::MemoOutcome {
            count: dancer_core::Count::from(1u64),
            complete,
            stats: dancer_core::memo::MemoStats::default(),
            split: Some(dancer_core::memo::MemoSplit {
                depth: 1,
                units: n as u64,
            }),
        };
        let saved = Saved::memo_shard(&b.build().unwrap(), (k, n), &r);
        String::from_utf8(saved.to_json()).unwrap()
    }

    /// A Sudoku batch's part `k` of `n` (of `sudoku solve` on 6 lines),
    /// as its file holds it: complete, each of its puzzles answered `K`,
    /// or not begun.
    pub(crate) fn part(k: usize, n: usize, complete: bool) -> String {
        let mut p = PartFile::new("0123456789abcdef", "solve", ShardSpec { k, n }, 6);
        if complete {
            p.complete = true;
            p.next = p.end;
            p.unique = (p.end - p.first) as u64;
            p.output = format!("{k}\n").repeat(p.end - p.first);
        }
        String::from_utf8(p.to_json()).unwrap()
    }

    /// A new, empty folder of a test's own, removed after it.
    struct Scratch(PathBuf);

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    impl std::ops::Deref for Scratch {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    fn scratch(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("dancer-runs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }

    fn put(dir: &Path, file: &str, text: &str) {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    fn record(dir: &Path, tasks: usize, parts: Parts) {
        put(
            dir,
            "job.json",
            &serde_json::to_string(&RunRecord::new(tasks, parts)).unwrap(),
        );
    }

    fn read(path: &Path) -> Result<String, ClusterError> {
        std::fs::read_to_string(path).map_err(file_error(FileOp::Read, path))
    }

    #[test]
    fn the_test_files_are_dancers() {
        assert!(part_done(Parts::Search, &shard(1, 2, true)));
        assert!(!part_done(Parts::Search, &shard(1, 2, false)));
        assert!(part_done(Parts::Sudoku, &part(1, 2, true)));
        assert!(!part_done(Parts::Sudoku, &part(1, 2, false)));
        // a part of the other kind, or no part, is not done
        assert!(!part_done(Parts::Sudoku, &shard(1, 2, true)));
        assert!(!part_done(Parts::Search, "{}"));
    }

    #[test]
    fn a_new_or_empty_folder_is_taken_as_it_is() {
        let d = scratch("new");
        assert!(to_clear(&d.join("nothing"), 2, false).unwrap().is_empty());
        assert!(to_clear(&d, 2, false).unwrap().is_empty());
        for sub in ["parts", "checkpoints", "logs"] {
            std::fs::create_dir(d.join(sub)).unwrap();
        }
        assert!(to_clear(&d, 2, false).unwrap().is_empty());
        put(&d, "notes.txt", "mine");
        assert!(
            matches!(to_clear(&d.join("notes.txt"), 2, false), Err(ClusterError::NotAFolder(p)) if p == d.join("notes.txt"))
        );
    }

    #[test]
    fn a_folder_of_someone_elses_is_refused_and_the_file_in_the_way_named() {
        let d = scratch("foreign");
        put(&d, "parts/design.cad", "mine");
        let e = to_clear(&d, 2, false).unwrap_err();
        assert!(matches!(e, ClusterError::Foreign(ref p) if *p == *d), "{e}");
        // forced: beside the files, none removed
        assert!(to_clear(&d, 2, true).unwrap().is_empty());
        // but never over a file at a name the run writes
        put(&d, "result.txt", "my result");
        let e = to_clear(&d, 2, true).unwrap_err();
        assert!(
            matches!(e, ClusterError::NotARunFile { ref file, .. } if *file == d.join("result.txt"))
        );
        assert!(
            e.to_string()
                .contains(&d.join("result.txt").display().to_string()),
            "{e}"
        );
        assert!(
            !e.to_string().contains("--"),
            "the library's words name no flag: {e}"
        );
    }

    #[test]
    fn an_older_run_with_results_is_removed_only_when_forced_and_only_its_own() {
        let d = scratch("results");
        record(&d, 3, Parts::Search);
        // not run yet: taken, its scripts rewritten
        put(&d, "array.sbatch", "#!/bin/bash");
        assert!(to_clear(&d, 3, false).unwrap().is_empty());
        put(&d, "parts/1.json", &shard(1, 3, true));
        put(&d, "checkpoints/2.json", &shard(2, 3, false));
        put(&d, "parts/design.cad", "mine");
        put(&d, "result.txt.tmp", "half");
        let e = to_clear(&d, 3, false).unwrap_err();
        let ClusterError::Results { ref results, .. } = e else {
            panic!("{e}")
        };
        let listed = [Path::new("parts/1.json"), Path::new("checkpoints/2.json")];
        assert_eq!(results, &listed);
        assert!(
            e.to_string()
                .ends_with("holds a run with results (parts/1.json, checkpoints/2.json)"),
            "{e}"
        );
        let mut clear = to_clear(&d, 2, true).unwrap();
        clear.sort();
        let mut expected = vec![
            d.join("parts/1.json"),
            d.join("checkpoints/2.json"),
            d.join("result.txt.tmp"),
        ];
        expected.sort();
        assert_eq!(clear, expected, "the user's design.cad is not the run's");
        // a file that is not dancer's at the name of the older run's part:
        // refused, where the new run writes it or not
        put(&d, "parts/2.json", "{\"mine\": true}");
        let e = to_clear(&d, 3, true).unwrap_err();
        assert!(
            matches!(e, ClusterError::NotTheOlderRuns { ref file, .. } if *file == d.join("parts/2.json")),
            "{e}"
        );
        let e = to_clear(&d, 1, true).unwrap_err();
        assert!(
            matches!(e, ClusterError::NotDancers { ref file, .. } if *file == d.join("parts/2.json")),
            "{e}"
        );
        // a part at a name the older run did not write
        std::fs::remove_file(d.join("parts/2.json")).unwrap();
        put(&d, "parts/4.json", &shard(4, 4, true));
        let e = to_clear(&d, 4, true).unwrap_err();
        assert!(
            matches!(e, ClusterError::NotTheOlderRuns { ref file, .. } if *file == d.join("parts/4.json")),
            "{e}"
        );
    }

    #[test]
    fn missing_parts_come_from_the_record_and_the_parts_there() {
        let d = scratch("missing");
        record(&d, 4, Parts::Sudoku);
        put(&d, "parts/1.json", &part(1, 4, true));
        put(&d, "parts/2.json", &part(2, 4, false));
        put(&d, "parts/3.json", "damaged");
        let run = RunFolder::open(&d, read).unwrap();
        assert_eq!(run.record().tasks, 4);
        assert_eq!(run.missing(), vec![2, 3, 4]);
        put(&d, "parts/4.json", &part(4, 4, true));
        assert_eq!(run.missing(), vec![2, 3]);
        assert!(matches!(run.wait(), Err(ClusterError::NotSubmitted(ref p)) if p == run.dir()));
    }

    #[test]
    fn a_run_that_is_not_there_or_not_a_run_is_said_so() {
        let d = scratch("open");
        let e = RunFolder::open(&d.join("nothing"), read).unwrap_err();
        assert!(
            matches!(e, ClusterError::NoRun { ref dir, .. } if *dir == d.join("nothing")),
            "{e}"
        );
        let e = RunFolder::open(&d, read).unwrap_err();
        assert!(
            matches!(
                e,
                ClusterError::File {
                    op: FileOp::Read,
                    ..
                }
            ),
            "{e}"
        );
        put(
            &d,
            "job.json",
            r#"{"format":"dancer-slurm","tasks":0,"parts":"search"}"#,
        );
        let e = RunFolder::open(&d, read).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{}: tasks 0: expected 1 to 100000",
                d.canonicalize().unwrap().join("job.json").display()
            )
        );
    }

    #[test]
    fn squeue_says_whether_the_merge_waits() {
        assert_eq!(merge_state(""), MergeState::Gone);
        assert_eq!(merge_state("  \n"), MergeState::Gone);
        assert_eq!(merge_state("PENDING Dependency\n"), MergeState::Queued);
        assert_eq!(merge_state("RUNNING None"), MergeState::Queued);
        assert_eq!(
            merge_state("PENDING DependencyNeverSatisfied\n"),
            MergeState::Never
        );
    }

    fn new_run(d: &Path, tasks: usize, force: bool) -> NewRun {
        let args = ["solve", "q.dlx", "--count"].map(String::from);
        NewRun {
            task: Task::new(Parts::Search, &args, "q.dlx", false, false, 2),
            name: None,
            dir: Some(d.join("run")),
            workdir: d.to_path_buf(),
            dancer: Some(d.join("dancer")),
            tasks,
            cpus_per_task: 2,
            time: None,
            memory: None,
            partition: None,
            force,
        }
    }

    #[test]
    fn a_run_is_written_after_every_check_and_written_again_afresh() {
        let d = scratch("write");
        put(&d, "dancer", "#!/bin/sh");
        // a value refused: nothing made
        let mut bad = new_run(&d, 2, false);
        bad.time = Some("1h".into());
        assert!(matches!(
            bad.write(None),
            Err(ClusterError::Form {
                what: crate::slurm::JobValue::Time,
                ..
            })
        ));
        let mut bad = new_run(&d, 2, false);
        bad.dancer = Some(d.join("nothing"));
        let e = bad.write(None).unwrap_err();
        assert!(
            matches!(e, ClusterError::Dancer { ref path, .. } if *path == d.join("nothing")),
            "{e}"
        );
        assert!(!d.join("run/array.sbatch").exists());
        let run = new_run(&d, 2, false).write(Some(b"p q\n")).unwrap();
        assert_eq!(run.dir(), d.join("run").canonicalize().unwrap());
        assert_eq!(run.missing(), vec![1, 2]);
        let script = std::fs::read_to_string(run.dir().join("array.sbatch")).unwrap();
        let problem = run.dir().join("problem.dlx");
        assert!(
            script.contains(&format!(" {} --count --threads 2 ", problem.display())),
            "{script}"
        );
        assert_eq!(std::fs::read_to_string(problem).unwrap(), "p q\n");
        let back = RunFolder::open(&d.join("run"), read).unwrap();
        assert_eq!(back.record(), &RunRecord::new(2, Parts::Search));
        // a part done: kept unless forced, and then removed
        put(&d, "run/parts/1.json", &shard(1, 2, true));
        assert!(matches!(
            new_run(&d, 2, false).write(None),
            Err(ClusterError::Results { .. })
        ));
        assert!(d.join("run/parts/1.json").is_file());
        new_run(&d, 3, true).write(None).unwrap();
        assert!(!d.join("run/parts/1.json").exists());
        assert_eq!(
            RunFolder::open(&d.join("run"), read)
                .unwrap()
                .record()
                .tasks,
            3
        );
    }
}
