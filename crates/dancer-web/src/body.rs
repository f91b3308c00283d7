//! Reading a request's JSON body: [`JsonBody`], an extractor that answers
//! every bad body with the error record instead of axum's plain text.
//!
//! * no `Content-Type: application/json` (or `...+json`): `415`;
//! * more bytes than the cap (`--body-limit`): `413`;
//! * a body that does not come in time, all of it within
//!   [`Config::body_time`](crate::Config::body_time) and no pause within
//!   it over [`Config::body_idle`](crate::Config::body_idle):
//!   `408 request_timeout` (and the connection is closed), so that a
//!   client that sends a byte a second holds no connection for long;
//! * not JSON, or a field missing or of the wrong type: `400 bad_request`
//!   with the line and column where `serde_json` stopped.

use crate::error::{At, Error};
use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use std::time::Duration;
use tokio::time::Instant;

/// A JSON body of type `T`.
#[derive(Debug)]
pub struct JsonBody<T>(pub T);

/// Whether a `Content-Type` is JSON.
fn is_json(value: &str) -> bool {
    let mime = value.split(';').next().unwrap_or("").trim();
    mime.eq_ignore_ascii_case("application/json")
        || mime
            .rsplit_once('+')
            .is_some_and(|(t, suffix)| t.starts_with("application/") && suffix == "json")
}

/// Parses `bytes` as a `T`, the error saying where.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    serde_json::from_slice(bytes).map_err(|e| {
        let message = match e.classify() {
            serde_json::error::Category::Eof => format!("the JSON body ends too soon: {e}"),
            _ => format!("bad JSON body: {e}"),
        };
        Error::BadRequest {
            message,
            at: At::line_col(e.line(), e.column()),
        }
    })
}

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
{
    type Rejection = Error;

    async fn from_request(req: Request, _: &S) -> Result<Self, Error> {
        let json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json);
        if !json {
            return Err(Error::UnsupportedMediaType);
        }
        let rules = req
            .extensions()
            .get::<BodyRules>()
            .copied()
            .unwrap_or_default();
        let announced = req
            .headers()
            .get(CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        let bytes = read(req.into_body(), rules, announced).await?;
        parse(&bytes).map(JsonBody)
    }
}

/// What a body must keep to: its cap in bytes, the time for all of it and
/// the longest pause within it. Put in each request's extensions (by
/// `guard.rs`), so that the errors can say them.
#[derive(Clone, Copy, Debug)]
pub struct BodyRules {
    pub limit: usize,
    pub time: Duration,
    pub idle: Duration,
}

impl Default for BodyRules {
    fn default() -> Self {
        let c = crate::Config::default();
        BodyRules {
            limit: c.body_limit,
            time: c.body_time,
            idle: c.body_idle,
        }
    }
}

/// Seconds as a message says them: `10 s`, `0.5 s`.
fn secs(d: Duration) -> String {
    format!("{} s", (d.as_secs_f64() * 1000.0).round() / 1000.0)
}

/// `d` from now (a day at most past the clock's end).
fn after(d: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(d)
        .unwrap_or_else(|| now + crate::MAX_CLIENT_TIME)
}

/// Reads a body whole within `rules` (`announced`: its `Content-Length`,
/// for the messages).
async fn read(body: Body, rules: BodyRules, announced: Option<u64>) -> Result<Vec<u8>, Error> {
    let deadline = after(rules.time);
    let mut stream = body.into_data_stream();
    let mut bytes = Vec::new();
    let of = announced.map_or(String::new(), |n| format!(" of {n}"));
    loop {
        let idle_end = after(rules.idle);
        let wait = idle_end.min(deadline);
        match tokio::time::timeout_at(wait, stream.next()).await {
            Ok(None) => return Ok(bytes),
            Ok(Some(Ok(chunk))) => {
                if bytes.len() + chunk.len() > rules.limit {
                    return Err(Error::TooLarge(rules.limit));
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(Some(Err(e))) => {
                return Err(Error::bad_request(format!("cannot read the body: {e}")))
            }
            Err(_) if wait < idle_end => {
                return Err(Error::SlowBody(format!(
                    "the request body did not come whole within {}: {}{of} bytes came",
                    secs(rules.time),
                    bytes.len()
                )))
            }
            Err(_) => {
                return Err(Error::SlowBody(format!(
                    "the request body stopped coming: nothing for {} after {}{of} bytes",
                    secs(rules.idle),
                    bytes.len()
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        assert!(is_json("application/json"));
        assert!(is_json("application/json; charset=utf-8"));
        assert!(is_json("Application/JSON"));
        assert!(is_json("application/problem+json"));
        assert!(!is_json("text/plain"));
        assert!(!is_json("application/x-www-form-urlencoded"));
    }

    #[test]
    fn errors_say_where() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct P {
            puzzle: String,
        }
        let e = parse::<P>(b"{\n  \"puzzle\": 12\n}").unwrap_err();
        match e {
            Error::BadRequest { at, .. } => {
                assert_eq!(at.line, Some(2));
                assert!(at.column.unwrap() > 1);
            }
            e => panic!("{e:?}"),
        }
        assert!(matches!(
            parse::<P>(b"{\"puzzle\":"),
            Err(Error::BadRequest { .. })
        ));
    }
}
