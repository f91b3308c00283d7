//! # dancer-web
//!
//! The web app of `dancer serve`: a JSON API over the dancer libraries and
//! the page that uses it, served on loopback by axum on tokio. Every
//! endpoint and record is written down in `API.md` beside this crate; the
//! API tests (`tests/api.rs`) check it line by line.
//!
//! The server is a thin shell: each endpoint is the library call that the
//! command line makes for the same job (`dancer_sudoku::batch`, `records`,
//! `hint`, `logic`, `generate`, `play`; `dancer_poly` catalog, parse,
//! BurrTools files, solve, take apart and render; `dancer_formats::dlx`
//! and `dancer_core`'s engines), and answers with the command line's
//! records. What it adds is what a server must:
//!
//! * **safety**: Host and Origin checks against DNS rebinding and
//!   cross-site requests (`guard.rs`), a body cap, times for a request's
//!   headers ([`Config::header_time`]) and body (`body.rs`), a cap on the
//!   connections open at once (the accept loop of [`Server::run`]: slow
//!   clients hold few of them, and not for long), one error record for
//!   every refusal ([`error`]), panics caught where they can be (never an
//!   input's answer: the workspace's release profile aborts on a panic, so
//!   a panic would end the whole server; the API tests send hostile input
//!   to every endpoint, in the test profile, where a panic is caught and
//!   is a `500` that they look for);
//! * **responsiveness**: CPU work never runs on the async executor: quick
//!   calls on tokio's blocking threads ([`blocking`]), each with a budget
//!   (a time limit, and a flag set when the client goes away or the server
//!   stops); long searches as jobs ([`Jobs`]), at most `jobs` at once, the rest in
//!   a bounded queue, each with a time cap and a cap on the solutions kept,
//!   cancelled through the flag the engines poll;
//! * **bounded memory**: bodies capped, queues capped, finished jobs kept
//!   for a while and then dropped.
//!
//! [`bind`] then [`Server::run`] (or [`serve`]) run it, [`run_until`]
//! on a runtime of its own until a flag is set; [`app`] is the router,
//! for tests.
//!
//! | module | what |
//! |---|---|
//! | `lib.rs` | the configuration ([`Config`]), the shared state ([`AppState`]), the router ([`app`]), the accept loop (connections capped, headers timed), [`blocking`] work with its cap and flag |
//! | `guard.rs` | the Host and Origin checks, the announced body size, the headers every answer gets |
//! | `body.rs` | reading a JSON body within its size and times, its errors placed |
//! | [`error`] | the one error type and its record |
//! | `assets.rs` | the page's files (embedded, or from `--assets`) |
//! | `sudoku.rs` | the Sudoku endpoints |
//! | `game.rs` | the game's endpoint |
//! | `game_killer.rs` | the killer game's JSON (start, generate, cages, hints) |
//! | `poly.rs` | the polyform endpoints and jobs (TOML puzzles, the catalogue, BurrTools files; solutions taken apart) |
//! | `cover.rs` | the exact cover endpoints and jobs |
//! | `watch.rs` | watching a search step by step: the traced exact cover problem, the polyform watch mode and its frames |
//! | `runtime.rs` | the jobs' runtime: threads, queue, caps, what is kept ([`Jobs`]) |
//! | `jobs.rs` | the jobs' endpoints: submit, record, solutions, events, cancel |

mod assets;
mod body;
mod cover;
pub mod error;
mod game;
mod game_gattai;
mod game_killer;
mod guard;
mod jobs;
mod poly;
mod runtime;
mod sudoku;
mod watch;

pub use error::{Error, Result};
pub use runtime::{JobState, Jobs};

use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::{Json, Router};
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// The most jobs that may run at once (each is a thread).
pub const MAX_JOBS: usize = 256;

/// The most connections [`Config::connections`] may allow.
pub const MAX_CONNECTIONS: usize = 65_536;

/// The most time [`Config::header_time`], [`Config::body_time`] and
/// [`Config::body_idle`] may give a client: a day.
pub const MAX_CLIENT_TIME: Duration = Duration::from_secs(86_400);

/// How the server runs (`dancer serve`'s flags).
#[derive(Clone, Debug)]
pub struct Config {
    pub bind: IpAddr,
    /// 0: any free port.
    pub port: u16,
    /// Jobs running at once (1 to [`MAX_JOBS`]; default: the cores).
    pub jobs: usize,
    /// Jobs waiting at most; more are refused with `429`.
    pub queue: usize,
    /// The most time a job may run.
    pub job_time: Duration,
    /// The most solutions a job keeps (it counts on past them).
    pub job_solutions: usize,
    /// A job nobody follows (no event stream, no `GET`) for this long is
    /// cancelled.
    pub job_orphan: Duration,
    /// Request bodies are capped at this many bytes (`413` beyond).
    pub body_limit: usize,
    /// The most time the work of a request without a time of its own may
    /// take (`new`, `check`, `solve`, `count`, ...; `422 too_long` beyond).
    pub work_time: Duration,
    /// The most time a batch may take (`422 too_long` beyond).
    pub batch_time: Duration,
    /// Serve the page's files from this folder instead of the binary.
    pub assets: Option<PathBuf>,
    /// The most time a client may take to send a request's headers; also
    /// how long a connection may stay open waiting for its next request.
    /// Past it the connection is closed (hyper's header read timeout).
    pub header_time: Duration,
    /// The most time a client may take to send a request's body, all of
    /// it (`408 request_timeout` beyond).
    pub body_time: Duration,
    /// The longest pause within a request's body (`408 request_timeout`
    /// beyond).
    pub body_idle: Duration,
    /// Connections open at once (1 to [`MAX_CONNECTIONS`]); more wait in
    /// the system's queue until one closes. With the three times above,
    /// a slow client holds one of them for a while at most.
    pub connections: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            jobs: dancer_core::parallel::cores().min(MAX_JOBS),
            queue: 64,
            job_time: Duration::from_secs(600),
            job_solutions: 1000,
            job_orphan: Duration::from_secs(30),
            body_limit: 1 << 20,
            work_time: Duration::from_secs(60),
            batch_time: Duration::from_secs(600),
            assets: None,
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(30),
            body_idle: Duration::from_secs(10),
            connections: 256,
        }
    }
}

/// What every handler shares.
pub struct AppState {
    pub config: Config,
    /// The Host values the server answers to (`guard::own_hosts`).
    pub hosts: Vec<String>,
    pub jobs: runtime::Jobs,
    /// The flags of the blocking work in progress, set all at once when
    /// the server stops.
    flags: Flags,
    stopping: AtomicBool,
    /// Connections open now.
    open: AtomicUsize,
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("config", &self.config)
            .field("hosts", &self.hosts)
            .finish_non_exhaustive()
    }
}

impl AppState {
    /// The state of a server listening on `addr`.
    pub fn new(config: Config, addr: SocketAddr) -> Arc<Self> {
        Arc::new(AppState {
            hosts: guard::own_hosts(addr),
            jobs: runtime::Jobs::new(&config),
            config,
            flags: Flags::default(),
            stopping: AtomicBool::new(false),
            open: AtomicUsize::new(0),
        })
    }

    /// Connections open now (at most [`Config::connections`]).
    pub fn connections_open(&self) -> usize {
        self.open.load(Ordering::SeqCst)
    }

    /// Requests whose work is running now (on blocking threads; a request
    /// whose client left counts until its work has seen its flag).
    pub fn work_in_progress(&self) -> usize {
        self.flags.live()
    }

    /// Stops everything: new work is refused with `503`, running work and
    /// jobs are cancelled.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        self.flags.cancel_all();
        self.jobs.cancel_all();
    }

    /// Whether the server is stopping.
    pub fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }
}

/// The cancellation flags of the work in progress (weakly held: a flag
/// whose work ended is gone).
#[derive(Default)]
struct Flags(Mutex<Vec<Weak<AtomicBool>>>);

impl Flags {
    fn new_flag(&self) -> Arc<AtomicBool> {
        let f = Arc::new(AtomicBool::new(false));
        let mut v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.retain(|w| w.strong_count() > 0);
        v.push(Arc::downgrade(&f));
        f
    }

    fn live(&self) -> usize {
        let v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        v.iter().filter(|w| w.strong_count() > 0).count()
    }

    fn cancel_all(&self) {
        let v = self.0.lock().unwrap_or_else(|e| e.into_inner());
        for f in v.iter().filter_map(Weak::upgrade) {
            f.store(true, Ordering::SeqCst);
        }
    }
}

/// Sets a flag when dropped: the request's future is dropped when its
/// client goes away, and the work it started sees the flag.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Runs `work` on one of tokio's blocking threads, never on the executor,
/// with a flag that is set when the client goes away, the server stops,
/// or [`Config::work_time`] has passed (`work` hands it to its budget, and
/// is answered `422 too_long` then): the work of a request without a time
/// of its own (check, solve, count, a polyform or exact cover check, a
/// picture, the game, a job's set-up). A panic in `work` is a `500
/// internal`.
pub async fn blocking<T, F>(state: &AppState, work: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> Result<T> + Send + 'static,
{
    blocking_within(state, state.config.work_time, work).await
}

/// [`blocking`] with a cap of its own (`cap`: a little more than the time
/// the request asked for, for work with its own time limit).
pub async fn blocking_within<T, F>(state: &AppState, cap: Duration, work: F) -> Result<T>
where
    T: Send + 'static,
    F: FnOnce(Arc<AtomicBool>) -> Result<T> + Send + 'static,
{
    if state.stopping() {
        return Err(Error::ShuttingDown);
    }
    let flag = state.flags.new_flag();
    let _guard = CancelOnDrop(flag.clone());
    let seen = flag.clone();
    let task = tokio::task::spawn_blocking(move || work(seen));
    match tokio::time::timeout(cap, task).await {
        Ok(Ok(r)) => r,
        Ok(Err(e)) => Err(Error::Internal(format!("the work failed: {e}"))),
        // the guard sets the flag as this returns: the work stops
        Err(_) => Err(Error::TooLong(cap.as_secs())),
    }
}

/// Ends work whose flag was set (the client left, the server is stopping,
/// or the cap passed: [`blocking`] answers for the last two) between two
/// of its calls: its answer is not given, it may be short. Work checks it
/// after each call that takes a while without watching the flag itself.
pub(crate) fn stopped(flag: &AtomicBool) -> Result<()> {
    if flag.load(Ordering::Relaxed) {
        return Err(Error::ShuttingDown);
    }
    Ok(())
}

/// `GET /api/health`.
async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({"ok": true, "version": env!("CARGO_PKG_VERSION")}))
}

async fn not_found(uri: axum::http::Uri) -> Error {
    Error::NotFound(format!("no such endpoint: {}", uri.path()))
}

async fn method_not_allowed() -> Error {
    Error::MethodNotAllowed
}

/// A caught panic: `500 internal` with the error record.
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> axum::response::Response {
    use axum::response::IntoResponse;
    Error::Internal("the server failed on this request (a bug: please report it)".into())
        .into_response()
}

/// The router: every endpoint of `API.md`, behind the Host/Origin check,
/// the body cap and the panic catcher.
pub fn app(state: Arc<AppState>) -> Router {
    let limit = state.config.body_limit;
    Router::new()
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/assets/{*path}", get(assets::file))
        .route("/api/health", get(health))
        .route("/api/sudoku/new", post(sudoku::new))
        .route("/api/sudoku/check", post(sudoku::check))
        .route("/api/sudoku/solve", post(sudoku::solve))
        .route("/api/sudoku/count", post(sudoku::count))
        .route("/api/sudoku/hint", post(sudoku::hint))
        .route("/api/sudoku/rate", post(sudoku::rate))
        .route("/api/sudoku/path", post(sudoku::path))
        .route("/api/sudoku/batch", post(sudoku::batch))
        .route("/api/sudoku/game", post(game::game))
        .route("/api/poly/catalog", get(poly::catalog))
        .route("/api/poly/catalog/{name}", get(poly::catalog_entry))
        .route("/api/poly/burr", post(poly::burr_problems))
        .route("/api/poly/check", post(poly::check))
        .route("/api/poly/render", post(poly::render))
        .route("/api/cover/check", post(cover::cover_check))
        .route("/api/cover/trace", post(watch::cover_trace))
        .route("/api/poly/watch", post(watch::poly_watch))
        .route("/api/poly/frame", post(watch::poly_frame))
        .route("/api/jobs", post(jobs::submit))
        .route("/api/jobs/{id}", get(jobs::status).delete(jobs::cancel))
        .route("/api/jobs/{id}/events", get(jobs::events))
        .route("/api/jobs/{id}/solutions", get(jobs::solutions))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panicked))
        .with_state(state)
}

/// A server bound to its address, not yet serving.
pub struct Server {
    listener: tokio::net::TcpListener,
    addr: SocketAddr,
    state: Arc<AppState>,
}

impl std::fmt::Debug for Server {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Server").field("addr", &self.addr).finish()
    }
}

/// Binds the address of `config` (port 0: a free one).
pub async fn bind(config: Config) -> std::io::Result<Server> {
    let invalid = |what: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, what);
    if !(1..=MAX_JOBS).contains(&config.jobs) {
        return Err(invalid(format!(
            "jobs must be from 1 to {MAX_JOBS}, not {}",
            config.jobs
        )));
    }
    if !(1..=MAX_CONNECTIONS).contains(&config.connections) {
        return Err(invalid(format!(
            "connections must be from 1 to {MAX_CONNECTIONS}, not {}",
            config.connections
        )));
    }
    for (name, t) in [
        ("header_time", config.header_time),
        ("body_time", config.body_time),
        ("body_idle", config.body_idle),
    ] {
        if !(Duration::from_millis(1)..=MAX_CLIENT_TIME).contains(&t) {
            return Err(invalid(format!(
                "{name} must be from 1 ms to {} s, not {t:?}",
                MAX_CLIENT_TIME.as_secs()
            )));
        }
    }
    let listener = tokio::net::TcpListener::bind((config.bind, config.port)).await?;
    let addr = listener.local_addr()?;
    let state = AppState::new(config, addr);
    Ok(Server {
        listener,
        addr,
        state,
    })
}

impl Server {
    /// The address it listens on (with the real port).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://127.0.0.1:PORT/` (a loopback name for an unspecified bind).
    pub fn url(&self) -> String {
        let host = match self.addr.ip() {
            ip if ip.is_unspecified() => "127.0.0.1".to_string(),
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        format!("http://{host}:{}/", self.addr.port())
    }

    pub fn state(&self) -> Arc<AppState> {
        self.state.clone()
    }

    /// Serves until `shutdown` completes; then refuses new work, cancels
    /// the running jobs and work, and waits for the connections to close
    /// (an event stream ends with its job), for [`SHUTDOWN_GRACE`] at most:
    /// work that does not watch its cancel flag (a check, a picture) or a
    /// client that keeps its connection open does not hold the stop up.
    ///
    /// At most [`Config::connections`] connections are served at once: the
    /// next one is accepted when one closes. Each is HTTP/1.1 with a time
    /// for its headers ([`Config::header_time`], which also closes a
    /// connection idle for that long); the body reader has its own times
    /// (`body.rs`). So a slow client holds a connection for a bounded
    /// time, and slow clients together never hold more than the cap.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> std::io::Result<()> {
        let Server {
            listener, state, ..
        } = self;
        let router = app(state.clone());
        let most = state.config.connections;
        let slots = Arc::new(tokio::sync::Semaphore::new(most));
        let (closing, closed) = tokio::sync::watch::channel(false);
        let mut shutdown = std::pin::pin!(shutdown);
        loop {
            let (stream, slot) = tokio::select! {
                () = &mut shutdown => break,
                a = accept(&listener, &slots) => a,
            };
            connection(stream, slot, router.clone(), &state, closed.clone());
        }
        drop(listener);
        state.stop();
        let _ = closing.send(true);
        // every slot back: every connection closed
        let all = u32::try_from(most).unwrap_or(u32::MAX);
        let _ = tokio::time::timeout(SHUTDOWN_GRACE, slots.acquire_many(all)).await;
        Ok(())
    }
}

/// The next connection, once a slot is free (the slot goes with it).
async fn accept(
    listener: &tokio::net::TcpListener,
    slots: &Arc<tokio::sync::Semaphore>,
) -> (tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit) {
    let slot = slots
        .clone()
        .acquire_owned()
        .await
        .expect("the slots are never closed");
    loop {
        match listener.accept().await {
            Ok((stream, _)) => return (stream, slot),
            // the client gave up before it was accepted
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset
                        | std::io::ErrorKind::ConnectionRefused
                ) => {}
            // out of file descriptors or memory: a while for some to close
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// A connection's hold on its slot, and its place in the count: both
/// given back when it closes.
struct Open {
    _slot: tokio::sync::OwnedSemaphorePermit,
    state: Arc<AppState>,
}

impl Drop for Open {
    fn drop(&mut self) {
        self.state.open.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves one connection on a task of its own, holding `slot` until it
/// closes; once `closed` turns true, it ends after the request in
/// progress.
fn connection(
    stream: tokio::net::TcpStream,
    slot: tokio::sync::OwnedSemaphorePermit,
    router: Router,
    state: &Arc<AppState>,
    mut closed: tokio::sync::watch::Receiver<bool>,
) {
    state.open.fetch_add(1, Ordering::SeqCst);
    let open = Open {
        _slot: slot,
        state: state.clone(),
    };
    // each request knows the address its connection reached (the Host
    // check of a server bound to all addresses)
    let reached = axum::extract::ConnectInfo(guard::Reached(stream.local_addr().ok()));
    let service = tower::ServiceExt::map_request(
        router,
        move |mut req: axum::http::Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(reached);
            req
        },
    );
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(hyper_util::rt::TokioTimer::new())
        .header_read_timeout(state.config.header_time);
    tokio::spawn(async move {
        let _open = open;
        let served = http.serve_connection(
            hyper_util::rt::TokioIo::new(stream),
            hyper_util::service::TowerToHyperService::new(service),
        );
        let mut served = std::pin::pin!(served);
        tokio::select! {
            _ = served.as_mut() => return,
            _ = closed.wait_for(|&c| c) => {}
        }
        served.as_mut().graceful_shutdown();
        let _ = served.await;
    });
}

/// Why [`run_until`] could not serve.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// `assets` holds no `index.html`.
    #[error("{}: no index.html there", .0.display())]
    NoIndex(PathBuf),
    /// The runtime's threads could not start.
    #[error("cannot start the server's threads")]
    Threads(#[source] std::io::Error),
    /// The address could not be bound.
    #[error("cannot listen on {bind}:{port}")]
    Bind {
        bind: IpAddr,
        port: u16,
        #[source]
        source: std::io::Error,
    },
    /// The server stopped on an error.
    #[error("the server failed")]
    Failed(#[source] std::io::Error),
}

/// How long a stopping server waits for its connections to close and its
/// work to end before it ends anyway.
pub const SHUTDOWN_GRACE: Duration = Duration::from_secs(3);

/// Serves `config` on a runtime of its own, blocking, until `stop` is set
/// (polled ten times a second): `started` is told the server once it
/// listens, `stopping` when the flag is seen; then the server refuses new
/// work, cancels its jobs and ends (see [`Server::run`]).
pub fn run_until(
    config: Config,
    stop: Arc<AtomicBool>,
    started: impl FnOnce(&Server),
    stopping: impl FnOnce() + Send + 'static,
) -> std::result::Result<(), ServeError> {
    if let Some(dir) = &config.assets {
        if !dir.join("index.html").is_file() {
            return Err(ServeError::NoIndex(dir.clone()));
        }
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("dancer-serve")
        .build()
        .map_err(ServeError::Threads)?;
    let served = rt.block_on(async move {
        let (bind, port) = (config.bind, config.port);
        let server = self::bind(config)
            .await
            .map_err(|source| ServeError::Bind { bind, port, source })?;
        started(&server);
        let shutdown = async move {
            while !stop.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            stopping();
        };
        server.run(shutdown).await.map_err(ServeError::Failed)
    });
    // blocking work still running (it was told to stop) is not waited for
    rt.shutdown_timeout(Duration::from_secs(1));
    served
}

/// Binds and serves until `shutdown` completes.
pub async fn serve(
    config: Config,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    bind(config).await?.run(shutdown).await
}
