//! The Host and Origin checks, and the headers every answer gets.
//!
//! A page elsewhere on the web can make a browser send requests to
//! `127.0.0.1`: by DNS rebinding (a name of its own that now points here:
//! the `Host` header then carries that name) or as a plain cross-site
//! request (the `Origin` header then names the other page). So a request
//! is served only when its `Host` is one of the server's own names with
//! its port (`127.0.0.1:PORT`, `localhost:PORT`, `[::1]:PORT`, the `--bind`
//! address), and when it has an `Origin`, that is `http://` and one of
//! those. The list is made once the port is known (after binding).
//!
//! A request with two `Host` or two `Origin` headers is refused (`400`):
//! only one can be the one a check looked at. A body announced larger than
//! the cap (`Content-Length`) is refused (`413`) before a byte of it is
//! read: the client would otherwise hold the connection open until it sent
//! them.
//!
//! A server bound to all addresses (`--bind 0.0.0.0` or `::`) also answers
//! to the address a connection really reached, written as an IP literal
//! (`192.168.1.5:8080`), so that other machines can use it by its address:
//! a rebinding page can only send its own name there, never an IP it does
//! not know. (Names other than `localhost` are refused: use the address.)

use crate::error::Error;
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, HOST, ORIGIN};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The `Host` values the server answers to, lower case.
pub fn own_hosts(addr: SocketAddr) -> Vec<String> {
    let port = addr.port();
    let mut hosts = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
    ];
    let bound = host_of(addr);
    if !addr.ip().is_unspecified() && !hosts.contains(&bound) {
        hosts.push(bound);
    }
    hosts
}

/// The local address a connection reached (put in each request's
/// extensions as axum's connect info by the server's accept loop).
#[derive(Clone, Copy, Debug)]
pub struct Reached(pub Option<SocketAddr>);

/// `addr` as a Host header writes it: `1.2.3.4:80`, `[::1]:80`.
fn host_of(addr: SocketAddr) -> String {
    match addr.ip() {
        IpAddr::V4(ip) => format!("{ip}:{}", addr.port()),
        IpAddr::V6(ip) => format!("[{ip}]:{}", addr.port()),
    }
}

/// Refuses a request whose Host or Origin is not the server's own.
pub async fn check(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let mut hosts = state.hosts.clone();
    let reached = req
        .extensions()
        .get::<axum::extract::ConnectInfo<Reached>>()
        .and_then(|c| c.0 .0);
    if let Some(addr) = reached {
        let h = host_of(addr);
        if !hosts.contains(&h) {
            hosts.push(h);
        }
    }
    let hosts = &hosts;
    for (name, header) in [("Host", HOST), ("Origin", ORIGIN)] {
        if req.headers().get_all(&header).iter().count() > 1 {
            return Error::bad_request(format!("the request has more than one {name} header"))
                .into_response();
        }
    }
    let limit = state.config.body_limit;
    let announced = req
        .headers()
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.trim().parse::<u64>());
    match announced {
        Some(Ok(n)) if n > limit as u64 => return Error::TooLarge(limit).into_response(),
        Some(Err(_)) => {
            return Error::bad_request("the Content-Length header is not a number of bytes")
                .into_response()
        }
        _ => {}
    }
    let host = req
        .headers()
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_ascii_lowercase);
    let Some(host) = host.filter(|h| hosts.contains(h)) else {
        return Error::Forbidden(
            "this server only answers to its own address (the Host header is not it)".into(),
        )
        .into_response();
    };
    if let Some(origin) = req.headers().get(ORIGIN) {
        let ok = origin
            .to_str()
            .ok()
            .map(str::to_ascii_lowercase)
            .and_then(|o| o.strip_prefix("http://").map(str::to_string))
            .is_some_and(|o| hosts.contains(&o));
        if !ok {
            return Error::Forbidden(format!(
                "requests from other pages are refused (Origin is not http://{host})"
            ))
            .into_response();
        }
    }
    let mut req = req;
    req.extensions_mut().insert(crate::body::BodyRules {
        limit,
        time: state.config.body_time,
        idle: state.config.body_idle,
    });
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts() {
        let h = own_hosts("127.0.0.1:8080".parse().unwrap());
        assert_eq!(h, ["127.0.0.1:8080", "localhost:8080", "[::1]:8080"]);
        let h = own_hosts("192.168.1.5:80".parse().unwrap());
        assert!(h.contains(&"192.168.1.5:80".to_string()));
        let h = own_hosts("0.0.0.0:80".parse().unwrap());
        assert_eq!(h.len(), 3);
        assert_eq!(host_of("[fe80::1]:8080".parse().unwrap()), "[fe80::1]:8080");
        assert_eq!(host_of("10.0.0.2:80".parse().unwrap()), "10.0.0.2:80");
    }
}
