//! Reading a request's JSON body: [`JsonBody`], an extractor that answers
//! every bad body with the error record instead of axum's plain text.
//!
//! * no `Content-Type: application/json` (or `...+json`): `415`;
//! * more bytes than the cap (`--body-limit`, set on the router with
//!   `DefaultBodyLimit`): `413`;
//! * not JSON, or a field missing or of the wrong type: `400 bad_request`
//!   with the line and column where `serde_json` stopped.

use crate::error::{At, Error};
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

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

    async fn from_request(req: Request, state: &S) -> Result<Self, Error> {
        let json = req
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json);
        if !json {
            return Err(Error::UnsupportedMediaType);
        }
        let limit = req
            .extensions()
            .get::<BodyLimit>()
            .map_or(usize::MAX, |l| l.0);
        let bytes = Bytes::from_request(req, state).await.map_err(|r| {
            if r.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                Error::TooLarge(limit)
            } else {
                Error::bad_request(format!("cannot read the body: {r}"))
            }
        })?;
        parse(&bytes).map(JsonBody)
    }
}

/// The body cap, put in each request's extensions so that the 413 can say
/// it.
#[derive(Clone, Copy, Debug)]
pub struct BodyLimit(pub usize);

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
