//! The page's files: embedded in the binary (the whole `assets/` folder, at
//! build time), or, for page developers, read from a folder on disk at
//! each request (`dancer serve --assets DIR` or `DANCER_ASSETS`), so that an
//! edit shows on reload without a rebuild.
//!
//! Every answer says `Cache-Control: no-cache` (the browser asks again and
//! never runs yesterday's script against today's API) and the content type
//! of its extension. Paths with `..` or other tricks never leave the folder.

use crate::error::Error;
use crate::AppState;
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use include_dir::{include_dir, Dir};
use std::sync::Arc;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets");

/// The content type of a file name.
pub fn content_type(name: &str) -> &'static str {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext.to_ascii_lowercase().as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "json" => "application/json",
        "txt" | "md" => "text/plain; charset=utf-8",
        "toml" => "text/plain; charset=utf-8",
        "woff2" => "font/woff2",
        "webmanifest" => "application/manifest+json",
        _ => "application/octet-stream",
    }
}

/// A relative path that stays inside the folder: no `..`, no absolute
/// part, no backslash, no empty or hidden segment.
fn safe(path: &str) -> Option<&str> {
    let ok = !path.is_empty()
        && !path.contains('\\')
        && !path.contains('\0')
        && path
            .split('/')
            .all(|s| !s.is_empty() && !s.starts_with('.'));
    ok.then_some(path)
}

/// The bytes of an asset, from disk or from the binary.
fn load(state: &AppState, path: &str) -> Option<Vec<u8>> {
    let path = safe(path)?;
    match &state.config.assets {
        Some(dir) => {
            let f = dir.join(path);
            f.is_file().then(|| std::fs::read(f).ok()).flatten()
        }
        None => ASSETS.get_file(path).map(|f| f.contents().to_vec()),
    }
}

fn answer(state: &AppState, path: &str) -> Response {
    match load(state, path) {
        Some(bytes) => {
            let mut res = bytes.into_response();
            let h = res.headers_mut();
            h.insert(CONTENT_TYPE, HeaderValue::from_static(content_type(path)));
            h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
            res
        }
        None => Error::NotFound(format!("no such file: /assets/{path}")).into_response(),
    }
}

/// `GET /`: the page.
pub async fn index(State(state): State<Arc<AppState>>) -> Response {
    answer(&state, "index.html")
}

/// `GET /assets/{*path}`.
pub async fn file(State(state): State<Arc<AppState>>, Path(path): Path<String>) -> Response {
    answer(&state, &path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_paths() {
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("a/b.SVG"), "image/svg+xml");
        assert!(safe("sudoku/play.js").is_some());
        assert!(safe("../Cargo.toml").is_none());
        assert!(safe("a/../../x").is_none());
        assert!(safe("/etc/passwd").is_none());
        assert!(safe(".hidden").is_none());
        assert!(ASSETS.get_file("index.html").is_some());
    }
}
