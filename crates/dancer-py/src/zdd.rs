//! `Problem.zdd()`: the ZDD of every solution, made by the memoizing
//! counter (`dancer_core::memo::count_to_zdd`, the text `dancer solve
//! --zdd` writes) and read back (`dancer_core::zdd::Zdd`): its count, its
//! solutions one by one, and uniformly random ones from a seed.

use crate::iter::SolutionIter;
use crate::wait::interruptible;
use dancer_core::memo::{self, MemoOptions};
use dancer_core::zdd::{self as core_zdd, Zdd as CoreZdd};
use dancer_core::Problem as Core;
use pyo3::prelude::*;
use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// The ZDD of every solution of a problem (see `Problem.zdd`).
#[pyclass(module = "dancer", name = "Zdd", frozen)]
pub struct Zdd {
    zdd: Arc<CoreZdd>,
    /// The problem's options as given, in order.
    given: Vec<Py<PyAny>>,
}

impl Zdd {
    /// The ZDD of `core`'s solutions, whose options were given as `given`.
    pub fn of(
        py: Python<'_>,
        core: Arc<Core>,
        given: Vec<Py<PyAny>>,
        memory: Option<u64>,
    ) -> PyResult<Zdd> {
        let zdd = interruptible(py, move |cancel| {
            let opts = MemoOptions {
                memory: memory.map_or_else(memo::default_memory, |m| {
                    usize::try_from(m).unwrap_or(usize::MAX)
                }),
                cancel: Some(cancel.clone()),
                check: false,
                progress: None,
                part: None,
            };
            let mut text = Vec::new();
            let out = memo::count_to_zdd(&core, &opts, &mut text).map_err(|e| e.to_string())?;
            if !out.complete || cancel.load(Ordering::Relaxed) {
                return Err("stopped".to_string());
            }
            CoreZdd::parse(&text).map_err(|e| e.to_string())
        })?
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
        Ok(Zdd {
            zdd: Arc::new(zdd),
            given,
        })
    }
}

#[pymethods]
impl Zdd {
    /// The number of solutions, exactly.
    fn count(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let zdd = self.zdd.clone();
        let n = interruptible(py, move |cancel| {
            zdd.count(core_zdd::work_budget(), Some(&cancel))
                .map(|c| c.to_string())
                .map_err(|e| e.to_string())
        })?
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
        Ok(py.get_type::<pyo3::types::PyInt>().call1((n,))?.unbind())
    }

    /// The number of nodes.
    #[getter]
    fn nodes(&self) -> usize {
        self.zdd.nodes()
    }

    /// The solutions, one at a time (each the list of its options as
    /// given).
    fn __iter__(&self, py: Python<'_>) -> SolutionIter {
        let zdd = self.zdd.clone();
        let given = self.given.iter().map(|g| g.clone_ref(py)).collect();
        SolutionIter::producing(given, move |tx, cancel| {
            let _ = zdd.for_each(|sol| {
                if cancel.load(Ordering::Relaxed) || tx.send(sol.to_vec()).is_err() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
        })
    }

    /// `k` solutions drawn uniformly at random and independently (one may
    /// come twice), the same ones for the same `seed`, as a list: refused
    /// with `MemoryError` when `k` of them cannot be held (`samples`
    /// takes any number one at a time).
    #[pyo3(signature = (k=1, seed=0))]
    fn sample(&self, py: Python<'_>, k: u64, seed: u64) -> PyResult<Vec<Vec<Py<PyAny>>>> {
        // a draw in a list is at least a list object and its pointer
        let each = 72u64;
        let room = dancer_core::memory::Limits::read()
            .headroom()
            .map_or(u64::MAX, |h| h / 2);
        if k.saturating_mul(each) > room {
            return Err(pyo3::exceptions::PyMemoryError::new_err(format!(
                "{k} samples take at least {} as a list, more than this process can hold: \
                 ask for fewer, or take them one at a time with Zdd.samples(k, seed)",
                dancer_core::words::bytes(k.saturating_mul(each))
            )));
        }
        self.samples(py, Some(k), seed)?.collect(py)
    }

    /// Solutions drawn uniformly at random and independently, as `sample`
    /// draws them (the same for the same `seed`), one at a time (a lazy
    /// iterator; `k` of them, without end when None).
    #[pyo3(signature = (k=None, seed=0))]
    fn samples(&self, py: Python<'_>, k: Option<u64>, seed: u64) -> PyResult<SolutionIter> {
        // the counts are made here first, so that a refusal (too large)
        // is raised by this call; the worker makes them again for itself
        let zdd = self.zdd.clone();
        interruptible(py, move |cancel| {
            zdd.counted(core_zdd::work_budget(), Some(&cancel))
                .map(drop)
                .map_err(|e| e.to_string())
        })?
        .map_err(pyo3::exceptions::PyValueError::new_err)?;
        let zdd = self.zdd.clone();
        let given = self.given.iter().map(|g| g.clone_ref(py)).collect();
        Ok(SolutionIter::producing(given, move |tx, cancel| {
            let Ok(counted) = zdd.counted(core_zdd::work_budget(), Some(&cancel)) else {
                return;
            };
            let _ = counted.draw(k.unwrap_or(u64::MAX), seed, &cancel, |sol| {
                tx.send(sol.to_vec())
            });
        }))
    }

    fn __repr__(&self) -> String {
        format!("Zdd({} nodes)", self.zdd.nodes())
    }
}
