//! `Problem.steps` and `Problem.trace`: the steps of the dancing-links
//! search, as the command line's `dancer solve --trace --json` gives them
//! ([`dancer_formats::trace::StepRecord`], without its `"type"`), made
//! into Python dicts through their JSON.
//!
//! The steps are made on a worker thread a few ahead of the caller
//! ([`Stream`]), who makes each a dict: `steps` hands them out one at a
//! time, `trace` puts them in a list, and refuses with `MemoryError` a
//! list that would take more than this process can get (a search of 2^40
//! solutions has more steps than any list holds), rather than let an
//! allocation end the interpreter.

use crate::errors::value_error;
use crate::iter::Stream;
use dancer_core::engines::trace::{trace, Detail, TraceOptions};
use dancer_core::Problem;
use dancer_formats::trace::Records;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::sync::Arc;

/// The steps of a search, made on a worker thread ahead of the caller
/// (see `Problem.steps`).
#[pyclass(module = "dancer", name = "TraceSteps", frozen)]
pub struct TraceSteps {
    /// Each step's record as JSON text.
    stream: Stream<String>,
    loads: Py<PyAny>,
}

impl TraceSteps {
    /// The steps of `core`'s search, at most `limit` (None: all).
    pub fn start(
        py: Python<'_>,
        core: Arc<Problem>,
        limit: Option<u64>,
        moves: bool,
    ) -> PyResult<TraceSteps> {
        if limit == Some(0) {
            return Err(value_error("limit=0: at least 1 step (or None for all)"));
        }
        // what dancing links do not take (multiplicities) is said here
        drop(dancer_core::engines::dlx::Dlx::new(&core).map_err(value_error)?);
        let detail = if moves { Detail::Moves } else { Detail::Full };
        let stream = Stream::producing(move |tx, cancel| {
            let opts = TraceOptions {
                detail,
                limit,
                cancel: Some(cancel),
            };
            let mut records = Records::default();
            let _ = trace(&core, &opts, |s| {
                let record = records.record(&core, s);
                let text = serde_json::to_string(&record).expect("plain records serialise");
                tx.send(text).is_ok()
            });
        });
        let loads = py.import("json")?.getattr("loads")?.unbind();
        Ok(TraceSteps { stream, loads })
    }
}

#[pymethods]
impl TraceSteps {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        match self.stream.next(py)? {
            Some(text) => Ok(Some(self.loads.call1(py, (text,))?)),
            None => Ok(None),
        }
    }

    /// Stops the search; the iterator ends.
    fn close(&self) {
        self.stream.close();
    }
}

/// What a step's dict is taken to cost in a list, beyond its JSON text
/// (a dict, its keys shared, its values, the list's pointer): measured at
/// about 4 times the text in CPython 3.11, so that is the rule.
const DICT_PER_TEXT_BYTE: u64 = 4;

/// The steps of `core`'s search, at most `limit`, as a list of dicts; a
/// `MemoryError` once the list would pass half of what this process can
/// still get.
pub fn steps(py: Python<'_>, core: Arc<Problem>, limit: u64, moves: bool) -> PyResult<Py<PyAny>> {
    let steps = TraceSteps::start(py, core, Some(limit), moves)?;
    let room = dancer_core::memory::Limits::read()
        .headroom()
        .map_or(u64::MAX, |h| h / 2);
    let list = PyList::empty(py);
    let mut held = 0u64;
    while let Some(text) = steps.stream.next(py)? {
        held += 64 + DICT_PER_TEXT_BYTE * text.len() as u64;
        if held > room {
            steps.stream.close();
            return Err(pyo3::exceptions::PyMemoryError::new_err(format!(
                "the trace passed {} steps, about {} as a list: more than this process can hold; \
                 ask for fewer (limit=...), or take the steps one at a time with Problem.steps()",
                list.len(),
                dancer_core::words::bytes(held)
            )));
        }
        list.append(steps.loads.call1(py, (text,))?)?;
    }
    Ok(list.into_any().unbind())
}
