//! The jobs' endpoints: `POST /api/jobs` (a polyform or exact cover job,
//! checked when posted: see `poly.rs` and `cover.rs`), `GET /api/jobs/{id}`,
//! its solutions and events, `DELETE` to cancel. The jobs themselves run
//! in `runtime.rs`.

use crate::body::JsonBody;
use crate::error::{Error, Result};
use crate::runtime::{Job, JobState, TICK};
use crate::AppState;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::IntoResponse;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// A job spec: `{"kind":"poly"|"cover", ...}` (see `poly.rs` and `cover.rs`).
#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Spec {
    Poly(crate::poly::PolySpec),
    Cover(crate::cover::CoverSpec),
}

/// `POST /api/jobs`.
pub async fn submit(
    State(s): State<Arc<AppState>>,
    JsonBody(spec): JsonBody<Spec>,
) -> Result<impl IntoResponse> {
    if s.stopping() {
        return Err(Error::ShuttingDown);
    }
    // parse and check on a blocking thread: a large puzzle takes a while
    let (kind, time, keep, work) = crate::blocking(&s, move |flag| match spec {
        Spec::Poly(p) => crate::poly::poly_job(p, &flag),
        Spec::Cover(c) => crate::cover::cover_job(c, &flag),
    })
    .await?;
    let job = s.jobs.start(kind, time, keep, work)?;
    let state = job.state().name();
    Ok((
        StatusCode::ACCEPTED,
        Json(json!({"id": job.id, "state": state})),
    ))
}

fn find(s: &AppState, id: &str) -> Result<Arc<Job>> {
    s.jobs
        .get(id)
        .ok_or_else(|| Error::NotFound(format!("no such job: {id}")))
}

/// `GET /api/jobs/{id}`.
pub async fn status(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<Value>> {
    let job = find(&s, &id)?;
    job.touch();
    Ok(Json(job.record()))
}

/// `DELETE /api/jobs/{id}`: cancels, and answers once the job is done
/// (its thread has ended, or it never started).
pub async fn cancel(State(s): State<Arc<AppState>>, Path(id): Path<String>) -> Result<Json<Value>> {
    let job = find(&s, &id)?;
    job.cancel();
    let mut rx = job.version.subscribe();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while job.state() != JobState::Done {
        if tokio::time::timeout_at(deadline, rx.changed())
            .await
            .is_err()
        {
            break;
        }
    }
    Ok(Json(job.record()))
}

#[derive(Deserialize)]
pub struct From {
    #[serde(default)]
    from: usize,
}

/// `GET /api/jobs/{id}/solutions?from=N`.
pub async fn solutions(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
    q: std::result::Result<Query<From>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>> {
    let Query(q) = q.map_err(|e| Error::BadValue(format!("from: {e}")))?;
    let job = find(&s, &id)?;
    job.touch();
    let d = job.lock();
    let from = q.from.min(d.kept.len());
    let page: Vec<Value> = d.kept[from..].iter().take(1000).cloned().collect();
    let next = from + page.len();
    Ok(Json(json!({"solutions": page, "next": next})))
}

/// A stream's hold on its job: when the last one goes while the job is
/// not done, the job is cancelled.
struct Follower(Arc<Job>);

impl Follower {
    fn new(job: Arc<Job>) -> Self {
        job.lock().streams += 1;
        Follower(job)
    }
}

impl Drop for Follower {
    fn drop(&mut self) {
        let mut d = self.0.lock();
        d.streams -= 1;
        d.seen = Instant::now();
        let last = d.streams == 0 && d.state != JobState::Done;
        drop(d);
        if last {
            self.0.cancel();
        }
    }
}

/// Where a stream is.
struct Cursor {
    follower: Follower,
    rx: watch::Receiver<u64>,
    sent: usize,
    finished: bool,
    last_progress: Option<Instant>,
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}

/// `GET /api/jobs/{id}/events`.
pub async fn events(
    State(s): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<impl IntoResponse> {
    let job = find(&s, &id)?;
    let rx = job.version.subscribe();
    let cursor = Cursor {
        follower: Follower::new(job),
        rx,
        sent: 0,
        finished: false,
        last_progress: None,
    };
    let stream = futures_util::stream::unfold(cursor, |mut c| async move {
        if c.finished {
            return None;
        }
        loop {
            let job = c.follower.0.clone();
            let (next, done, summary) = {
                let d = job.lock();
                (
                    d.kept.get(c.sent).cloned(),
                    d.state == JobState::Done,
                    d.summary.clone(),
                )
            };
            if let Some(sol) = next {
                c.sent += 1;
                return Some((
                    Ok::<_, std::convert::Infallible>(event("solution", &sol)),
                    c,
                ));
            }
            let due = c.last_progress.is_none_or(|t| t.elapsed() >= TICK);
            if done {
                c.finished = true;
                let summary = summary.unwrap_or(Value::Null);
                return Some((Ok(event("done", &summary)), c));
            }
            if due {
                c.last_progress = Some(Instant::now());
                return Some((Ok(event("progress", &job.progress())), c));
            }
            let wait = TICK.saturating_sub(c.last_progress.map_or(TICK, |t| t.elapsed()));
            let _ = tokio::time::timeout(wait, c.rx.changed()).await;
        }
    });
    let mut res = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(Duration::from_secs(10)))
        .into_response();
    res.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-cache"),
    );
    Ok(res)
}
