//! Shards: `Problem.shard(k, n)` runs part `k` of `n` of a search (the
//! split `dancer solve --shard K/N` makes, so parts made here and by the
//! command line are the same records), and `dancer.merge` adds the parts
//! up exactly, after the checks `dancer merge` makes (one problem, one
//! split, every part once).

use crate::errors::value_error;
use crate::wait::interruptible;
use dancer_core::parallel::UnitResult;
use dancer_core::{EngineKind, Problem as Core};
use dancer_runs::plan::{RunHooks, RunOptions, RunPlan};
use dancer_runs::search::{self, Saved, ShardSpec};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::Duration;

/// One part of a sharded search: its result record.
#[pyclass(module = "dancer", name = "Shard", frozen)]
pub struct Shard {
    saved: Saved,
}

struct Quiet;
impl RunHooks for Quiet {
    fn unit(&self, _r: &UnitResult) {}
}

fn int(py: Python<'_>, digits: String) -> PyResult<Py<PyAny>> {
    Ok(py
        .get_type::<pyo3::types::PyInt>()
        .call1((digits,))?
        .unbind())
}

impl Shard {
    pub fn run(
        py: Python<'_>,
        core: Arc<Core>,
        k: usize,
        n: usize,
        engine: &str,
        threads: usize,
    ) -> PyResult<Shard> {
        if n == 0 || k == 0 || k > n {
            return Err(PyValueError::new_err(format!(
                "shard {k} of {n}: k must be from 1 to n"
            )));
        }
        let kind: EngineKind = engine.parse().map_err(|_| {
            PyValueError::new_err(format!(
                "unknown engine {engine:?} for a shard: one of auto, dlx, dlxm, bitset, bitmrv"
            ))
        })?;
        let threads = dancer_core::parallel::threads_allowed(threads).map_err(value_error)?;
        let saved = interruptible(py, move |cancel| {
            let opts = RunOptions {
                engine: kind,
                count: true,
                threads,
                shard: Some(ShardSpec { k, n }),
                cancel: Some(cancel),
                tick: Duration::from_millis(100),
                ..RunOptions::default()
            };
            match opts.plan(&core).map_err(|e| e.to_string())? {
                RunPlan::Search(run) => {
                    let out = run.run(&core, &Quiet).map_err(|e| e.to_string())?;
                    if !out.complete {
                        return Err("stopped".to_string());
                    }
                    out.shard.ok_or_else(|| "no shard record".to_string())
                }
                RunPlan::Memo(_) => {
                    Err("the memoizing counter's parts are not made from Python".to_string())
                }
            }
        })?
        .map_err(PyValueError::new_err)?;
        Ok(Shard { saved })
    }
}

#[pymethods]
impl Shard {
    /// This part's number, from 1.
    #[getter]
    fn k(&self) -> Option<usize> {
        self.saved.shard
    }

    /// The number of parts.
    #[getter]
    fn n(&self) -> Option<usize> {
        self.saved.shards
    }

    /// The solutions this part found.
    #[getter]
    fn count(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        int(py, self.saved.solutions.to_string())
    }

    /// The nodes this part searched.
    #[getter]
    fn nodes(&self) -> u64 {
        self.saved.nodes
    }

    /// The record as the command line writes it (JSON, with its checksum).
    fn to_json(&self) -> String {
        String::from_utf8_lossy(&self.saved.to_json()).into_owned()
    }

    /// A part's record read back (from `to_json`, or a file `dancer solve
    /// --shard` wrote); `ValueError` when it is damaged.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<Shard> {
        let saved = Saved::from_json(text).map_err(value_error)?;
        if saved.shard.is_none() {
            return Err(PyValueError::new_err("a checkpoint, not a shard's result"));
        }
        Ok(Shard { saved })
    }

    fn __repr__(&self) -> String {
        format!(
            "Shard({} of {}, {} solutions)",
            self.saved.shard.unwrap_or(0),
            self.saved.shards.unwrap_or(0),
            self.saved.solutions
        )
    }
}

/// The exact total of the parts of a sharded search; `ValueError` when a
/// part is missing or twice, or the parts are of different problems or
/// splits.
#[pyfunction]
pub fn merge(py: Python<'_>, shards: Vec<PyRef<'_, Shard>>) -> PyResult<Py<PyAny>> {
    let parts: Vec<(String, Saved)> = shards
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("part {i}"), s.saved.clone()))
        .collect();
    let merged = search::merge(&parts).map_err(value_error)?;
    if !merged.complete {
        return Err(PyValueError::new_err("a part is incomplete"));
    }
    int(py, merged.solutions.to_string())
}
