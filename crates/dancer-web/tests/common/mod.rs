//! What the API tests share: a real server on an ephemeral loopback port
//! (stopped when the test ends), requests through a client and as raw
//! bytes (for headers a client library sets itself).
#![allow(dead_code)]

use dancer_web::{AppState, Config};
use reqwest::{Client, StatusCode};
use serde_json::Value;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A server for one test, stopped when dropped.
pub struct Srv {
    pub base: String,
    pub port: u16,
    pub state: Arc<AppState>,
    pub http: Client,
    pub stop: Option<tokio::sync::oneshot::Sender<()>>,
    pub done: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

pub fn config() -> Config {
    Config {
        port: 0,
        jobs: 2,
        ..Config::default()
    }
}

/// A server with [`config`] as `change` leaves it.
pub async fn start_with(change: impl FnOnce(&mut Config)) -> Srv {
    let mut c = config();
    change(&mut c);
    start(c).await
}

pub async fn start(config: Config) -> Srv {
    let server = dancer_web::bind(config).await.expect("binds");
    let port = server.addr().port();
    let state = server.state();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let done = tokio::spawn(server.run(async move {
        let _ = rx.await;
    }));
    Srv {
        base: format!("http://127.0.0.1:{port}"),
        port,
        state,
        http: Client::new(),
        stop: Some(tx),
        done: Some(done),
    }
}

/// Sends a request: its status and JSON body (null when it is not JSON).
pub async fn answer(req: reqwest::RequestBuilder) -> (StatusCode, Value) {
    let r = req.send().await.expect("answer");
    let status = r.status();
    (status, r.json().await.unwrap_or(Value::Null))
}

impl Srv {
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        answer(self.http.post(self.url(path)).json(&body)).await
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        answer(self.http.get(self.url(path))).await
    }

    pub async fn delete(&self, path: &str) -> (StatusCode, Value) {
        answer(self.http.delete(self.url(path))).await
    }

    /// The event stream of job `id`, as it comes.
    pub async fn events(&self, id: &str) -> reqwest::Response {
        self.http
            .get(self.url(&format!("/api/jobs/{id}/events")))
            .send()
            .await
            .unwrap()
    }

    /// Raw bytes of a POST with a given content type.
    pub async fn post_raw(&self, path: &str, ctype: &str, body: Vec<u8>) -> (StatusCode, Value) {
        answer(
            self.http
                .post(self.url(path))
                .header("content-type", ctype)
                .body(body),
        )
        .await
    }

    /// A job's record once it is done (waits up to `secs`).
    pub async fn wait_done(&self, id: &str, secs: u64) -> Value {
        let end = Instant::now() + Duration::from_secs(secs);
        loop {
            let (s, v) = self.get(&format!("/api/jobs/{id}")).await;
            assert_eq!(s, StatusCode::OK, "{v}");
            if v["state"] == "done" {
                return v;
            }
            assert!(Instant::now() < end, "job {id} not done in {secs} s: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    pub async fn wait_state(&self, id: &str, state: &str) {
        let end = Instant::now() + Duration::from_secs(30);
        loop {
            let (_, v) = self.get(&format!("/api/jobs/{id}")).await;
            if v["state"] == state {
                return;
            }
            assert!(Instant::now() < end, "job {id} never {state}: {v}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Waits until no job thread is alive.
    pub async fn threads_end(&self) {
        let end = Instant::now() + Duration::from_secs(5);
        while self.state.jobs.live_threads() > 0 {
            assert!(Instant::now() < end, "job threads still alive");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Waits until no job thread is alive, then stops the server.
    pub async fn finish(self) {
        self.threads_end().await;
        self.shutdown().await;
    }

    pub async fn shutdown(mut self) {
        if let Some(tx) = self.stop.take() {
            let _ = tx.send(());
        }
        if let Some(d) = self.done.take() {
            tokio::time::timeout(Duration::from_secs(10), d)
                .await
                .expect("stops in time")
                .expect("joins")
                .expect("serves");
        }
    }
}

/// A raw HTTP/1.1 request (for headers a client library sets itself).
pub async fn raw(port: u16, request: &str) -> (u16, String) {
    raw_to("127.0.0.1", port, request).await
}

/// A raw `GET path` with `host` as its Host header (and the connection
/// closed after it).
pub fn get_request(path: &str, host: &str) -> String {
    format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n")
}

/// A raw answer (as [`raw`] gives it) with the status `want` and `says`
/// in its text (`what` names the request in a failure).
#[track_caller]
pub fn raw_says((code, text): (u16, String), want: u16, says: &str, what: &str) {
    assert_eq!(code, want, "{what}: {text}");
    assert!(text.contains(says), "{what}: {text}");
}

/// A raw request to `ip`.
pub async fn raw_to(ip: &'static str, port: u16, request: &str) -> (u16, String) {
    let request = request.to_string();
    tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect((ip, port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        s.write_all(request.as_bytes()).unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).unwrap();
        let text = String::from_utf8_lossy(&buf).to_string();
        let status = text[9..12].parse().unwrap();
        (status, text)
    })
    .await
    .unwrap()
}

/// A 400 `bad_value` answer whose message says `says` (`what` names the
/// request in a failure).
#[track_caller]
pub fn bad_value(st: StatusCode, v: &Value, says: &str, what: &str) {
    assert_eq!(
        (st, kind(v)),
        (StatusCode::BAD_REQUEST, "bad_value"),
        "{what}: {v}"
    );
    let message = v["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{what}: {v}");
}

pub fn kind(v: &Value) -> &str {
    v["error"]["kind"].as_str().unwrap_or("")
}
