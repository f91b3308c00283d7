//! The crate's one error type and its JSON record.
//!
//! Every refusal the server makes, whatever the layer that makes it (the
//! Host and Origin check, the body reader, a handler, the job queue), is an
//! [`Error`], answered as `{"error":{"kind":..., "message":..., "line":...,
//! "column":..., "cell":...}}` with the status of `API.md`'s table. Bad
//! input is always a 4xx; `500 internal` is kept for a bug (a panic caught,
//! a worker thread lost), and the API tests make sure no input reaches it.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// Where in an input an error is: 1-based line and column, or a cell.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct At {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<String>,
}

impl At {
    /// Nowhere in particular.
    pub fn none() -> Self {
        At::default()
    }
    /// A line and a column.
    pub fn line_col(line: usize, column: usize) -> Self {
        At {
            line: Some(line.max(1)),
            column: Some(column.max(1)),
            cell: None,
        }
    }
    /// A cell, named `r1c1`.
    pub fn cell(cell: Option<String>) -> Self {
        At {
            cell,
            ..At::default()
        }
    }
}

/// Why a request is refused (or, for `Internal`, failed).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The body is not JSON, or a field is missing or of the wrong type.
    #[error("{message}")]
    BadRequest { message: String, at: At },
    /// A field is out of range.
    #[error("{0}")]
    BadValue(String),
    /// Host or Origin is not the server's own.
    #[error("{0}")]
    Forbidden(String),
    /// No such endpoint, catalogue puzzle or job.
    #[error("{0}")]
    NotFound(String),
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The body is over the cap (bytes).
    #[error("the request body is over the limit of {0} bytes")]
    TooLarge(usize),
    #[error("a POST body must be JSON (Content-Type: application/json)")]
    UnsupportedMediaType,
    /// The body did not come in time (all of it, or the next piece).
    #[error("{0}")]
    SlowBody(String),
    /// A Sudoku puzzle that breaks its rules.
    #[error("{message}")]
    InvalidPuzzle { message: String, at: At },
    /// A polyform puzzle (TOML) with an error.
    #[error("{message}")]
    InvalidPoly { message: String, at: At },
    /// An exact cover problem with an error.
    #[error("{message}")]
    InvalidProblem { message: String, at: At },
    /// A problem or puzzle too large for what was asked (watching a
    /// search step by step).
    #[error("{0}")]
    TooBig(String),
    /// A problem or puzzle that what was asked cannot take (a search with
    /// multiplicities, watched with the dancing links).
    #[error("{0}")]
    Unsupported(String),
    /// The job queue is full.
    #[error("{0}")]
    Busy(String),
    #[error("the server is shutting down")]
    ShuttingDown,
    /// The work of a request ran past its cap (seconds): it was stopped.
    #[error("the work took longer than its cap of {0} s and was stopped: give it less to do, or run it as a job (or with the command line)")]
    TooLong(u64),
    /// A bug: never the answer to an input.
    #[error("internal error: {0}")]
    Internal(String),
}

impl Error {
    /// A 400 `bad_request` with no place.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Error::BadRequest {
            message: message.into(),
            at: At::none(),
        }
    }

    /// The status and kind of `API.md`'s table.
    pub fn status_kind(&self) -> (StatusCode, &'static str) {
        match self {
            Error::BadRequest { .. } => (StatusCode::BAD_REQUEST, "bad_request"),
            Error::BadValue(_) => (StatusCode::BAD_REQUEST, "bad_value"),
            Error::Forbidden(_) => (StatusCode::FORBIDDEN, "forbidden"),
            Error::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            Error::MethodNotAllowed => (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed"),
            Error::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            Error::UnsupportedMediaType => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            Error::SlowBody(_) => (StatusCode::REQUEST_TIMEOUT, "request_timeout"),
            Error::InvalidPuzzle { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_puzzle"),
            Error::InvalidPoly { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_poly"),
            Error::InvalidProblem { .. } => (StatusCode::UNPROCESSABLE_ENTITY, "invalid_problem"),
            Error::TooBig(_) => (StatusCode::UNPROCESSABLE_ENTITY, "too_big"),
            Error::Unsupported(_) => (StatusCode::UNPROCESSABLE_ENTITY, "unsupported"),
            Error::Busy(_) => (StatusCode::TOO_MANY_REQUESTS, "busy"),
            Error::ShuttingDown => (StatusCode::SERVICE_UNAVAILABLE, "shutting_down"),
            Error::TooLong(_) => (StatusCode::UNPROCESSABLE_ENTITY, "too_long"),
            Error::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    fn at(&self) -> Option<&At> {
        match self {
            Error::BadRequest { at, .. }
            | Error::InvalidPuzzle { at, .. }
            | Error::InvalidPoly { at, .. }
            | Error::InvalidProblem { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The error record, `{"error":{...}}`.
    pub fn record(&self) -> serde_json::Value {
        #[derive(Serialize)]
        struct Inner<'a> {
            kind: &'a str,
            message: String,
            #[serde(flatten)]
            at: Option<&'a At>,
        }
        let (_, kind) = self.status_kind();
        serde_json::json!({ "error": Inner { kind, message: self.to_string(), at: self.at() } })
    }
}

impl IntoResponse for Error {
    fn into_response(self) -> Response {
        let (status, _) = self.status_kind();
        let mut res = (status, axum::Json(self.record())).into_response();
        res.headers_mut().insert(
            axum::http::header::CACHE_CONTROL,
            axum::http::HeaderValue::from_static("no-cache"),
        );
        if status == StatusCode::REQUEST_TIMEOUT {
            // the rest of the body may still come: no next request here
            res.headers_mut().insert(
                axum::http::header::CONNECTION,
                axum::http::HeaderValue::from_static("close"),
            );
        }
        res
    }
}

/// The result of a handler.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A game the library refuses, as the API says it: a puzzle without one
/// solution is an invalid puzzle, a saved game that does not load or a
/// move refused a bad value.
pub(crate) fn play_error(e: dancer_sudoku::play::PlayError) -> Error {
    use dancer_sudoku::play::PlayError;
    match e {
        PlayError::NoSolution | PlayError::NotUnique => Error::InvalidPuzzle {
            message: e.to_string(),
            at: At::none(),
        },
        PlayError::Load(_) => Error::BadValue(format!("game: {e}")),
        // the request's flag was set: its client left, the server is
        // stopping, or its cap passed (answered by `blocking`)
        PlayError::Stopped => Error::ShuttingDown,
        e => Error::BadValue(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_say_where() {
        let e = Error::BadRequest {
            message: "expected value".into(),
            at: At::line_col(3, 7),
        };
        let r = e.record();
        assert_eq!(r["error"]["kind"], "bad_request");
        assert_eq!(r["error"]["line"], 3);
        assert_eq!(r["error"]["column"], 7);
        assert!(r["error"].get("cell").is_none());
        let r = Error::Busy("full".into()).record();
        assert_eq!(r["error"]["kind"], "busy");
        assert!(r["error"].get("line").is_none());
        assert_eq!(
            Error::TooLarge(10).status_kind().0,
            StatusCode::PAYLOAD_TOO_LARGE
        );
    }
}
