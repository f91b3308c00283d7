//! `Problem.trace`: the steps of the dancing-links search, as the command
//! line's `dancer solve --trace --json` gives them
//! ([`dancer_formats::trace::StepRecord`], without its `"type"`), made
//! into Python dicts through their JSON.

use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_core::engines::trace::{trace, Detail, TraceOptions};
use dancer_core::Problem;
use dancer_formats::trace::Records;
use pyo3::prelude::*;
use std::sync::Arc;

/// The steps of `core`'s search, at most `limit`, as a list of dicts.
pub fn steps(py: Python<'_>, core: Arc<Problem>, limit: u64, moves: bool) -> PyResult<Py<PyAny>> {
    if limit == 0 {
        return Err(value_error("limit: at least 1 step"));
    }
    let detail = if moves { Detail::Moves } else { Detail::Full };
    let text = interruptible(py, move |cancel| {
        let opts = TraceOptions {
            detail,
            limit: Some(limit),
            cancel: Some(cancel),
        };
        let mut records = Records::default();
        let mut out = Vec::new();
        trace(&core, &opts, |s| {
            out.push(records.record(&core, s));
            true
        })
        .map(|_| serde_json::to_string(&out).expect("plain records serialise"))
    })?
    .map_err(value_error)?;
    let json = py.import("json")?;
    Ok(json.call_method1("loads", (text,))?.unbind())
}
