//! The jobs' runtime: the long searches (polyform puzzles, exact cover
//! problems), run on threads of their own, followed by server-sent events,
//! cancelled on request or when nobody follows them any more. The HTTP side
//! (`POST /api/jobs`, a job's record, solutions, events, cancel) is
//! `jobs.rs`; what a job does is `poly.rs`'s and `cover.rs`'s.
//!
//! * **Admission**: a job is checked (its puzzle or problem parsed) when
//!   it is posted, so that a bad one is a `422` at once. At most
//!   `--jobs` run at once (a semaphore); the others wait, at most
//!   `--queue` of them (`429 busy` beyond); a stopping server answers
//!   `503`.
//! * **Work**: each running job has one OS thread (never the async
//!   executor), which polls the job's cancellation flag through the engine
//!   (every `CANCEL_INTERVAL` nodes); a timer sets the same flag at the
//!   job's time cap. The live job threads are counted
//!   ([`Jobs::live_threads`]): the tests see them end.
//! * **Results**: the solutions kept (at most the job's `keep`, and at
//!   most [`MAX_KEPT_BYTES`] of them; the count goes on past them), the
//!   progress (nodes, fraction explored when the engine estimates it) and
//!   the summary. A finished job is kept among the last [`KEEP_DONE`], and
//!   while the finished jobs' solutions stay under [`MAX_DONE_BYTES`] in
//!   all; then it is forgotten, the oldest first. So memory stays bounded:
//!   at most `jobs` x `MAX_KEPT_BYTES` for the running ones and
//!   `MAX_DONE_BYTES` for the finished ones, whatever the caps asked for.
//! * **Events**: a stream first replays the solutions kept, then sends
//!   progress four times a second, each new solution, and `done` last.
//!   When the last stream of an unfinished job goes away (the tab was
//!   closed), the job is cancelled.
//! * **Orphans**: a job that nobody follows (no event stream open, and no
//!   `GET` of its record or solutions) for `Config::job_orphan` (30 s) is
//!   cancelled too: a tab closed before its stream connected, a script
//!   that gave up. A watchdog task per unfinished job looks once a second.

use crate::error::{Error, Result};
use dancer_core::EngineKind;
use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{watch, Semaphore};

/// Finished jobs kept (their results can still be read), the oldest
/// dropped first.
pub const KEEP_DONE: usize = 100;

/// The most bytes of solutions (as JSON) one job keeps.
pub const MAX_KEPT_BYTES: usize = 32 << 20;

/// The most bytes of solutions the finished jobs keep in all.
pub const MAX_DONE_BYTES: usize = 256 << 20;

/// How often a stream sends progress.
pub(crate) const TICK: Duration = Duration::from_millis(250);

/// Where a job is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobState {
    Queued,
    Running,
    Done,
}

impl JobState {
    pub(crate) fn name(self) -> &'static str {
        match self {
            JobState::Queued => "queued",
            JobState::Running => "running",
            JobState::Done => "done",
        }
    }
}

/// What a job's thread can see and tell.
#[derive(Debug)]
pub struct Ctx {
    /// Set to stop: by a cancel, the time cap, the last stream leaving,
    /// the server stopping. Hand it to the engine.
    pub cancel: Arc<AtomicBool>,
    /// Nodes so far.
    pub nodes: AtomicU64,
    /// Solutions so far (kept or not).
    pub solutions: AtomicU64,
    /// The fraction explored, as bits; `u64::MAX`: unknown.
    fraction: AtomicU64,
    timed_out: AtomicBool,
    keep: usize,
    job: std::sync::Weak<Job>,
    watch: Mutex<Option<Watch>>,
}

/// Where the progress of a search whose engine is out of reach comes
/// from: a function giving its nodes and fraction explored.
struct Watch(Box<dyn Fn() -> (u64, Option<f64>) + Send + Sync>);

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

impl Ctx {
    /// Sets the fraction of the search done (0.0 to 1.0).
    pub fn set_fraction(&self, f: f64) {
        self.fraction
            .store(f.clamp(0.0, 1.0).to_bits(), Ordering::Relaxed);
    }

    fn fraction(&self) -> Option<f64> {
        match self.fraction.load(Ordering::Relaxed) {
            u64::MAX => None,
            b => Some(f64::from_bits(b)),
        }
    }

    /// Takes the nodes and the fraction from `f` (when the search runs
    /// inside a library call that keeps its own counters).
    pub fn watch(&self, f: impl Fn() -> (u64, Option<f64>) + Send + Sync + 'static) {
        *self.watch.lock().unwrap_or_else(|e| e.into_inner()) = Some(Watch(Box::new(f)));
    }

    /// Reads the watched counters into the job's.
    fn refresh(&self) {
        let w = self.watch.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(Watch(f)) = &*w {
            let (nodes, fraction) = f();
            self.nodes.store(nodes, Ordering::Relaxed);
            if let Some(x) = fraction {
                self.set_fraction(x);
            }
        }
    }

    /// Counts a solution and keeps it if there is room (`make` is called
    /// only then). Returns false once the job is to stop.
    pub fn solution(&self, make: impl FnOnce(u64) -> Value) -> bool {
        let n = self.solutions.fetch_add(1, Ordering::Relaxed) + 1;
        if let Some(job) = self.job.upgrade() {
            let room = {
                let d = job.lock();
                d.kept.len() < self.keep && d.kept_bytes < MAX_KEPT_BYTES
            };
            if room {
                let v = make(n);
                let bytes = serde_json::to_string(&v).map_or(0, |t| t.len());
                let mut d = job.lock();
                d.kept.push(v);
                d.kept_bytes += bytes;
                drop(d);
                job.bump();
            }
        }
        !self.cancel.load(Ordering::Relaxed)
    }

    /// Whether the job was asked to stop.
    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// How a job's work ended (the summary is made from it and the counters).
#[derive(Debug, Default)]
pub struct Ending {
    /// The whole search was done.
    pub complete: bool,
    /// It stopped at its limit.
    pub limit: bool,
    pub updates: u64,
    pub engine: Option<String>,
    /// An error (the summary's status is then `error`).
    pub error: Option<String>,
    /// More fields of the summary (e.g. `unique`).
    pub extra: serde_json::Map<String, Value>,
}

/// A job's work: runs on the job's thread.
pub type Work = Box<dyn FnOnce(&Ctx) -> Ending + Send>;

#[derive(Debug)]
pub(crate) struct Data {
    pub(crate) state: JobState,
    pub(crate) kept: Vec<Value>,
    /// The size of `kept`, as JSON.
    kept_bytes: usize,
    pub(crate) summary: Option<Value>,
    pub(crate) streams: usize,
    /// The last sign of a client: the submission, a `GET`, a stream
    /// leaving.
    pub(crate) seen: Instant,
    started: Option<Instant>,
    ended: Option<Instant>,
}

/// One job.
#[derive(Debug)]
pub struct Job {
    pub id: String,
    pub kind: &'static str,
    ctx: Arc<Ctx>,
    data: Mutex<Data>,
    /// Bumped at each change (a solution kept, the end): streams wake up.
    pub(crate) version: watch::Sender<u64>,
}

impl Job {
    pub(crate) fn lock(&self) -> std::sync::MutexGuard<'_, Data> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn bump(&self) {
        self.version.send_modify(|v| *v += 1);
    }

    /// `PROGRESS`.
    pub(crate) fn progress(&self) -> Value {
        if self.lock().state == JobState::Running {
            self.ctx.refresh();
        }
        let d = self.lock();
        let elapsed = match (d.started, d.ended) {
            (Some(s), Some(e)) => e - s,
            (Some(s), None) => s.elapsed(),
            _ => Duration::ZERO,
        }
        .as_secs_f64();
        drop(d);
        let nodes = self.ctx.nodes.load(Ordering::Relaxed);
        let fraction = self.ctx.fraction();
        let eta = fraction
            .filter(|&f| f > 1e-3 && f < 1.0)
            .map(|f| elapsed * (1.0 - f) / f);
        json!({
            "fraction": fraction,
            "solutions": self.ctx.solutions.load(Ordering::Relaxed),
            "nodes": nodes,
            "nodes_per_s": if elapsed > 0.0 { nodes as f64 / elapsed } else { 0.0 },
            "elapsed_s": elapsed,
            "eta_s": eta,
        })
    }

    pub(crate) fn record(&self) -> Value {
        let progress = self.progress();
        let d = self.lock();
        json!({
            "id": self.id,
            "kind": self.kind,
            "state": d.state.name(),
            "progress": progress,
            "summary": d.summary,
        })
    }

    /// A client looked at the job (it is not an orphan).
    pub(crate) fn touch(&self) {
        self.lock().seen = Instant::now();
    }

    /// Asks the job to stop (a queued job stops before it starts).
    pub fn cancel(&self) {
        self.ctx.cancel.store(true, Ordering::SeqCst);
        self.bump();
    }

    pub fn state(&self) -> JobState {
        self.lock().state
    }
}

/// The jobs of a server.
#[derive(Debug, Clone)]
pub struct Jobs(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    all: Mutex<HashMap<String, Arc<Job>>>,
    /// Finished jobs, oldest first, with the bytes of their solutions.
    done: Mutex<VecDeque<(String, usize)>>,
    next: AtomicU64,
    slots: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
    live: Arc<AtomicUsize>,
    queue: usize,
    time: Duration,
    keep: usize,
    orphan: Duration,
}

/// Takes one off a counter when dropped.
struct Count(Arc<AtomicUsize>);

impl Drop for Count {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Jobs {
    pub fn new(config: &crate::Config) -> Self {
        Jobs(Arc::new(Inner {
            all: Mutex::new(HashMap::new()),
            done: Mutex::new(VecDeque::new()),
            next: AtomicU64::new(1),
            slots: Arc::new(Semaphore::new(config.jobs.max(1))),
            waiting: Arc::new(AtomicUsize::new(0)),
            live: Arc::new(AtomicUsize::new(0)),
            queue: config.queue,
            orphan: config.job_orphan,
            time: config.job_time,
            keep: config.job_solutions,
        }))
    }

    /// Job threads running now.
    pub fn live_threads(&self) -> usize {
        self.0.live.load(Ordering::SeqCst)
    }

    /// Jobs waiting for a slot.
    pub fn waiting(&self) -> usize {
        self.0.waiting.load(Ordering::SeqCst)
    }

    /// Jobs known (running, waiting, or finished and not yet forgotten).
    pub fn known(&self) -> usize {
        self.0.all.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn get(&self, id: &str) -> Option<Arc<Job>> {
        self.0
            .all
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(id)
            .cloned()
    }

    /// Cancels every job (the server is stopping).
    pub fn cancel_all(&self) {
        let all: Vec<Arc<Job>> = self
            .0
            .all
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .cloned()
            .collect();
        for j in all {
            j.cancel();
        }
    }

    /// Starts a job, or queues it; `429` when the queue is full. `time`
    /// and `keep`: what the request asked for (at most the server's caps).
    /// Call within the tokio runtime.
    pub fn start(
        &self,
        kind: &'static str,
        time: Option<f64>,
        keep: Option<usize>,
        work: Work,
    ) -> Result<Arc<Job>> {
        let inner = &self.0;
        let time = match time {
            None => inner.time,
            Some(t) if t > 0.0 && t.is_finite() => {
                Duration::try_from_secs_f64(t).map_or(inner.time, |d| d.min(inner.time))
            }
            Some(t) => return Err(Error::BadValue(format!("time must be above 0, not {t}"))),
        };
        let keep = keep.unwrap_or(inner.keep).min(inner.keep);
        // a free slot now, else a place in the queue
        let (permit, waiting) = match inner.slots.clone().try_acquire_owned() {
            Ok(p) => (Some(p), None),
            Err(_) => {
                let w = inner.waiting.fetch_add(1, Ordering::SeqCst);
                let guard = Count(inner.waiting.clone());
                if w >= inner.queue {
                    return Err(Error::Busy(format!(
                        "{} jobs are waiting already: try again later",
                        inner.queue
                    )));
                }
                (None, Some(guard))
            }
        };
        let id = format!("j{}", inner.next.fetch_add(1, Ordering::SeqCst));
        let job = Arc::new_cyclic(|weak| Job {
            id: id.clone(),
            kind,
            ctx: Arc::new(Ctx {
                cancel: Arc::new(AtomicBool::new(false)),
                nodes: AtomicU64::new(0),
                solutions: AtomicU64::new(0),
                fraction: AtomicU64::new(u64::MAX),
                timed_out: AtomicBool::new(false),
                keep,
                job: weak.clone(),
                watch: Mutex::new(None),
            }),
            data: Mutex::new(Data {
                state: JobState::Queued,
                kept: Vec::new(),
                kept_bytes: 0,
                summary: None,
                streams: 0,
                seen: Instant::now(),
                started: None,
                ended: None,
            }),
            version: watch::channel(0).0,
        });
        inner
            .all
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, job.clone());
        tokio::spawn(watchdog(Arc::downgrade(&job), inner.orphan));
        match permit {
            Some(p) => inner.clone().run(job.clone(), p, time, work),
            None => {
                let inner = inner.clone();
                let j = job.clone();
                tokio::spawn(async move {
                    let _waiting = waiting;
                    loop {
                        tokio::select! {
                            p = inner.slots.clone().acquire_owned() => {
                                match p {
                                    Ok(p) if !j.ctx.cancelled() => inner.clone().run(j, p, time, work),
                                    _ => inner.finish(&j, Ending::default()),
                                }
                                return;
                            }
                            _ = tokio::time::sleep(Duration::from_millis(50)) => {
                                if j.ctx.cancelled() {
                                    inner.finish(&j, Ending::default());
                                    return;
                                }
                            }
                        }
                    }
                });
            }
        }
        Ok(job)
    }
}

/// Cancels the job once nobody has followed it for `orphan` (see the
/// module's notes); ends with the job.
async fn watchdog(job: std::sync::Weak<Job>, orphan: Duration) {
    let every = (orphan / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
    loop {
        tokio::time::sleep(every).await;
        let Some(job) = job.upgrade() else {
            return;
        };
        let d = job.lock();
        if d.state == JobState::Done {
            return;
        }
        let orphaned = d.streams == 0 && d.seen.elapsed() > orphan;
        drop(d);
        if orphaned {
            job.cancel();
            return;
        }
    }
}

impl Inner {
    /// Runs `work` on a thread of its own, holding the slot `permit`.
    fn run(
        self: Arc<Self>,
        job: Arc<Job>,
        permit: tokio::sync::OwnedSemaphorePermit,
        time: Duration,
        work: Work,
    ) {
        {
            let mut d = job.lock();
            d.state = JobState::Running;
            d.started = Some(Instant::now());
        }
        job.bump();
        // the time cap
        let ctx = job.ctx.clone();
        let timer = tokio::spawn(async move {
            tokio::time::sleep(time).await;
            ctx.timed_out.store(true, Ordering::SeqCst);
            ctx.cancel.store(true, Ordering::SeqCst);
        });
        self.live.fetch_add(1, Ordering::SeqCst);
        let live = Count(self.live.clone());
        let j = job.clone();
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("dancer-{}", job.id))
            .spawn(move || {
                // dropped in reverse order: the thread stops counting as
                // live before its slot goes to the next job, so that the
                // live threads never exceed the slots
                let _permit = permit;
                let _live = live;
                let ctx = j.ctx.clone();
                let ending = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&ctx)))
                    .unwrap_or_else(|_| Ending {
                        error: Some("the search failed (a bug: please report it)".into()),
                        ..Ending::default()
                    });
                timer.abort();
                me.finish(&j, ending);
            });
        if let Err(e) = spawned {
            self.finish(
                &job,
                Ending {
                    error: Some(format!("cannot start a thread: {e}")),
                    ..Ending::default()
                },
            );
        }
    }

    /// Writes the summary, marks the job done, wakes its streams, and
    /// forgets the oldest finished jobs beyond [`KEEP_DONE`].
    fn finish(&self, job: &Job, e: Ending) {
        let ctx = &job.ctx;
        ctx.refresh();
        let status = if e.error.is_some() {
            "error"
        } else if e.complete {
            "complete"
        } else if e.limit {
            "limit"
        } else if ctx.timed_out.load(Ordering::SeqCst) {
            "timeout"
        } else {
            "cancelled"
        };
        {
            let mut d = job.lock();
            if d.state == JobState::Done {
                return;
            }
            let now = Instant::now();
            d.ended = Some(now);
            if d.started.is_none() {
                d.started = Some(now);
            }
            let elapsed = (now - d.started.unwrap_or(now)).as_secs_f64();
            let mut s = json!({
                "status": status,
                "solutions": ctx.solutions.load(Ordering::Relaxed),
                "nodes": ctx.nodes.load(Ordering::Relaxed),
                "updates": e.updates,
                "elapsed_s": elapsed,
                "engine": e.engine,
                "message": e.error,
                "kept": d.kept.len(),
            });
            if let Some(obj) = s.as_object_mut() {
                obj.extend(e.extra);
            }
            d.summary = Some(s);
            d.state = JobState::Done;
        }
        if e.complete {
            ctx.set_fraction(1.0);
        }
        job.bump();
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let bytes = job.lock().kept_bytes;
        done.push_back((job.id.clone(), bytes));
        let gone = evict(&mut done, KEEP_DONE, MAX_DONE_BYTES);
        let mut all = self.all.lock().unwrap_or_else(|e| e.into_inner());
        for old in gone {
            all.remove(&old);
        }
    }
}

/// Takes the oldest finished jobs off `done` while there are more than
/// `most` or their solutions pass `bytes` in all (the newest always stays:
/// its client is reading it); returns their ids.
fn evict(done: &mut VecDeque<(String, usize)>, most: usize, bytes: usize) -> Vec<String> {
    let mut total: usize = done.iter().map(|(_, b)| b).sum();
    let mut gone = Vec::new();
    while done.len() > most || (total > bytes && done.len() > 1) {
        let Some((old, b)) = done.pop_front() else {
            break;
        };
        total -= b;
        gone.push(old);
    }
    gone
}

/// What a job request is made into: its kind, its time and keep caps,
/// and its work (see `jobs.rs`'s `submit`).
pub type JobParts = (&'static str, Option<f64>, Option<usize>, Work);

/// A job's mode.
pub(crate) fn solve_mode(mode: Option<&str>) -> Result<bool> {
    match mode.unwrap_or("solve") {
        "solve" => Ok(true),
        "count" => Ok(false),
        m => Err(Error::BadValue(format!(
            "mode must be solve or count, not {m:?}"
        ))),
    }
}

pub(crate) fn limit_of(limit: Option<u64>) -> Result<Option<u64>> {
    match limit {
        Some(0) => Err(Error::BadValue("limit must be at least 1".into())),
        l => Ok(l),
    }
}

/// A job's engine by its name (`auto` when none).
pub(crate) fn engine_of(e: Option<&str>) -> Result<EngineKind> {
    e.unwrap_or("auto")
        .parse()
        .map_err(|e: dancer_core::UnknownEngine| Error::BadValue(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_jobs_are_forgotten_by_count_and_by_bytes() {
        let mut done: VecDeque<(String, usize)> = (1..=5).map(|i| (format!("j{i}"), 10)).collect();
        // five of 10 bytes: at most 3 jobs
        assert_eq!(evict(&mut done, 3, 1000), ["j1", "j2"]);
        // 30 bytes in all, at most 15: the oldest go until 10 are left
        assert_eq!(evict(&mut done, 3, 15), ["j3", "j4"]);
        assert_eq!(done.len(), 1);
        // the newest stays, however large
        done.push_back(("big".into(), 1 << 30));
        assert_eq!(evict(&mut done, 3, 15), ["j5"]);
        assert_eq!(done.front().map(|d| d.0.as_str()), Some("big"));
        assert!(evict(&mut done, 3, 15).is_empty());
    }
}
