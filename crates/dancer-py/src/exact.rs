//! `dancer.Problem`: an exact cover problem built from Python values,
//! from Knuth's DLX text, or from a 0/1 matrix, and what can be asked of
//! it. The problem itself is the library's ([`dancer_core::Problem`]);
//! beside it the options as the caller gave them (Python objects), so that
//! a solution comes back in the caller's own terms.

use crate::errors::{parse_error, value_error};
use crate::iter::SolutionIter;
use crate::wait::interruptible;
use dancer_core::parallel::UnitResult;
use dancer_core::{EngineKind, OptionId, Problem as Core, ProblemBuilder};
use dancer_runs::plan::{RunHooks, RunOptions, RunPlan};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The engines a call may name, `auto` first.
pub const ENGINES: [&str; 6] = ["auto", "dlx", "dlxm", "bitset", "bitmrv", "memo"];

/// An exact cover problem: choose options (each a set of items) so that
/// every primary item is covered exactly once (or within its bounds) and
/// every secondary item at most once (or by options that agree on its
/// colour).
///
/// `Problem(options, secondary=(), primary=None, bounds=None)`: `options`
/// is a list of options, each a list of items; an item is any hashable
/// value. Every item not named in `secondary` is primary; `primary` gives
/// their order (and may name items no option covers). An entry
/// `"name:colour"` colours the secondary item `name`, as in Knuth's
/// format. `bounds` maps a primary item to `(least, most)`, the times it
/// is to be covered.
#[pyclass(module = "dancer", name = "Problem", frozen)]
pub struct Problem {
    core: Arc<Core>,
    /// The options as given, in order.
    given: Vec<Py<PyAny>>,
}

/// Counters of a search.
#[pyclass(module = "dancer", name = "Stats", frozen, get_all)]
pub struct Stats {
    /// Solutions found (the exact count, an `int` of any size).
    pub count: Py<PyAny>,
    /// Nodes of the search tree (options tried), or memo entries counted.
    pub nodes: u64,
    /// Links changed (items and option entries unlinked); 0 for memos.
    pub updates: u64,
    /// The engine that ran (`memo` for memoized counting).
    pub engine: String,
    /// Whether the search ran to its end.
    pub complete: bool,
}

#[pymethods]
impl Stats {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "Stats(count={}, nodes={}, updates={}, engine={:?}, complete={})",
            self.count.bind(py),
            self.nodes,
            self.updates,
            self.engine,
            if self.complete { "True" } else { "False" }
        )
    }
}

/// The item name the library is given for a Python item: its `str` when
/// that is a name Knuth's format allows and is not taken, else `#k`.
fn item_name(
    item: &Bound<'_, PyAny>,
    k: usize,
    taken: &mut std::collections::HashSet<String>,
) -> String {
    let text = item.str().map(|s| s.to_string()).unwrap_or_default();
    let fits = !text.is_empty()
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c == ':' || c == '|' || c == '#');
    let name = if fits && !taken.contains(&text) {
        text
    } else {
        format!("#{k}")
    };
    taken.insert(name.clone());
    name
}

/// Items by their Python value: `ids` maps each to its index.
struct Items<'py> {
    ids: Bound<'py, PyDict>,
    values: Vec<Bound<'py, PyAny>>,
    secondary: Vec<bool>,
    /// The first `n_primary` items are primary.
    n_primary: usize,
}

impl<'py> Items<'py> {
    fn new(py: Python<'py>) -> Self {
        Items {
            ids: PyDict::new(py),
            values: Vec::new(),
            secondary: Vec::new(),
            n_primary: 0,
        }
    }

    fn get(&self, item: &Bound<'py, PyAny>) -> PyResult<Option<usize>> {
        self.ids.get_item(item)?.map(|v| v.extract()).transpose()
    }

    fn add(&mut self, item: &Bound<'py, PyAny>, secondary: bool) -> PyResult<usize> {
        if let Some(k) = self.get(item)? {
            return Ok(k);
        }
        let k = self.values.len();
        self.ids.set_item(item, k)?;
        self.values.push(item.clone());
        self.secondary.push(secondary);
        Ok(k)
    }

    /// An entry of an option: its item and colour (`name:colour` on a
    /// secondary item).
    fn entry(&self, e: &Bound<'py, PyAny>) -> PyResult<Option<(usize, Option<String>)>> {
        if let Some(k) = self.get(e)? {
            return Ok(Some((k, None)));
        }
        if e.is_instance_of::<PyString>() {
            let s: String = e.extract()?;
            if let Some((name, colour)) = s.rsplit_once(':') {
                let key = PyString::new(e.py(), name);
                if let Some(k) = self.get(key.as_any())? {
                    if self.secondary[k] && !colour.is_empty() {
                        return Ok(Some((k, Some(colour.to_string()))));
                    }
                }
            }
        }
        Ok(None)
    }
}

/// Each option as given, with its entries.
type Row<'py> = (Bound<'py, PyAny>, Vec<Bound<'py, PyAny>>);

/// The options, each with its entries: `ValueError` for what is no list
/// of lists.
fn rows_of<'py>(options: &Bound<'py, PyAny>) -> PyResult<Vec<Row<'py>>> {
    let given: Vec<Bound<'py, PyAny>> = (options.try_iter()?)
        .collect::<PyResult<_>>()
        .map_err(|_| PyValueError::new_err("options: a list of options, each a list of items"))?;
    (given.into_iter().enumerate())
        .map(|(k, o)| {
            let row = (o.try_iter())
                .map_err(|_| PyValueError::new_err(format!("option {k} is not a list of items")))?
                .collect::<PyResult<_>>()?;
            Ok((o, row))
        })
        .collect()
}

impl<'py> Items<'py> {
    /// The items: those named primary, then the others of the options in
    /// order of first appearance (a `name:colour` of a secondary item is
    /// no new item), then the secondary ones.
    fn declared(
        py: Python<'py>,
        rows: &[Row<'py>],
        secondary: Option<&Bound<'py, PyAny>>,
        primary: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Items<'py>> {
        let mut items = Items::new(py);
        if let Some(p) = primary {
            for item in p.try_iter()? {
                items.add(&item?, false)?;
            }
        }
        let second = PyDict::new(py);
        let mut order = Vec::new();
        if let Some(s) = secondary {
            for item in s.try_iter()? {
                let item = item?;
                if items.get(&item)?.is_some() {
                    let r = item.repr()?;
                    return Err(PyValueError::new_err(format!(
                        "item {r} is named both primary and secondary"
                    )));
                }
                second.set_item(&item, true)?;
                order.push(item);
            }
        }
        for e in rows.iter().flat_map(|(_, row)| row) {
            if second.contains(e)? || items.get(e)?.is_some() {
                continue;
            }
            if e.is_instance_of::<PyString>() {
                let s: String = e.extract()?;
                if s.rsplit_once(':')
                    .is_some_and(|(n, _)| second.contains(n).unwrap_or(false))
                {
                    continue;
                }
            }
            items.add(e, false)?;
        }
        items.n_primary = items.values.len();
        for s in &order {
            items.add(s, true)?;
        }
        Ok(items)
    }

    /// The library's problem: the items declared (with their bounds), then
    /// the options.
    fn build(&self, rows: &[Row<'py>], bounds: Option<&Bound<'py, PyDict>>) -> PyResult<Core> {
        let mut b = ProblemBuilder::new();
        let ids = self.declare(&mut b, bounds)?;
        for (k, (_, row)) in rows.iter().enumerate() {
            b.begin_option();
            for e in row {
                let Some((item, colour)) = self.entry(e)? else {
                    let r = e.repr()?;
                    return Err(PyValueError::new_err(format!(
                        "option {k} names {r}, which is no item"
                    )));
                };
                let c = match colour {
                    Some(c) => b.color(&c).map_err(value_error)?,
                    None => 0,
                };
                b.push(ids[item], c)
                    .map_err(|e| PyValueError::new_err(format!("option {k}: {e}")))?;
            }
            b.end_option();
        }
        b.build().map_err(value_error)
    }

    /// Declares the items in `b`, primary ones with their bounds; their
    /// ids.
    fn declare(
        &self,
        b: &mut ProblemBuilder,
        bounds: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Vec<dancer_core::ItemId>> {
        if let Some(bd) = bounds {
            for (k, _) in bd.iter() {
                if self.get(&k)?.is_none_or(|i| i >= self.n_primary) {
                    let r = k.repr()?;
                    return Err(PyValueError::new_err(format!(
                        "bounds name {r}, which is no primary item"
                    )));
                }
            }
        }
        let mut taken = std::collections::HashSet::new();
        let mut ids = Vec::with_capacity(self.values.len());
        for (k, v) in self.values.iter().enumerate() {
            let name = item_name(v, k, &mut taken);
            let bound = match bounds {
                Some(bd) if k < self.n_primary => bd.get_item(v)?,
                _ => None,
            };
            let id = match bound {
                _ if k >= self.n_primary => b.secondary(&name),
                Some(lohi) => {
                    let (lo, hi): (u32, u32) = lohi.extract().map_err(|_| {
                        let r = v.repr().map(|r| r.to_string()).unwrap_or_default();
                        PyValueError::new_err(format!(
                            "bounds of {r}: a pair (least, most) of counts"
                        ))
                    })?;
                    b.primary_bounded(&name, lo, hi)
                }
                None => b.primary(&name),
            };
            ids.push(id.map_err(value_error)?);
        }
        Ok(ids)
    }
}

fn engine_kind(engine: &str) -> PyResult<(EngineKind, bool)> {
    if engine == "memo" {
        return Ok((EngineKind::Auto, true));
    }
    engine
        .parse::<EngineKind>()
        .map(|k| (k, false))
        .map_err(|_| {
            PyValueError::new_err(format!(
                "unknown engine {engine:?}: one of {}",
                ENGINES.join(", ")
            ))
        })
}

fn threads_allowed(threads: usize) -> PyResult<usize> {
    dancer_core::parallel::threads_allowed(threads).map_err(value_error)
}

/// Hooks of a counting run: nothing to keep.
struct Quiet;
impl RunHooks for Quiet {
    fn unit(&self, _r: &UnitResult) {}
}

impl Problem {
    fn from_core(py: Python<'_>, core: Core, given: Vec<Py<PyAny>>) -> PyResult<Problem> {
        let _ = py;
        Ok(Problem {
            core: Arc::new(core),
            given,
        })
    }

    /// The options of a solution, as given.
    fn options_of(&self, py: Python<'_>, sol: &[OptionId]) -> Vec<Py<PyAny>> {
        sol.iter().map(|&o| self.given[o].clone_ref(py)).collect()
    }

    /// The count and counters, as `count` and `stats` run them.
    fn counted(&self, py: Python<'_>, engine: &str, threads: usize) -> PyResult<Stats> {
        let (kind, memo) = engine_kind(engine)?;
        let threads = threads_allowed(threads)?;
        let core = self.core.clone();
        let result = interruptible(py, move |cancel: Arc<AtomicBool>| {
            let opts = RunOptions {
                engine: kind,
                count: true,
                memo,
                threads,
                cancel: Some(cancel),
                tick: Duration::from_millis(100),
                ..RunOptions::default()
            };
            match opts.plan(&core).map_err(|e| e.to_string())? {
                RunPlan::Memo(run) => {
                    let out = dancer_core::memo::count(&core, &run.options(None))
                        .map_err(|e| e.to_string())?;
                    Ok((
                        out.count.to_string(),
                        out.stats.entries,
                        0,
                        "memo".to_string(),
                        out.complete,
                    ))
                }
                RunPlan::Search(run) => {
                    let out = run.run(&core, &Quiet).map_err(|e| e.to_string())?;
                    Ok((
                        out.stats.solutions.to_string(),
                        out.stats.nodes,
                        out.stats.updates,
                        run.engine.name().to_string(),
                        out.complete,
                    ))
                }
            }
        })?;
        let (count, nodes, updates, engine, complete) =
            result.map_err(|e: String| PyValueError::new_err(e))?;
        let count = py
            .get_type::<pyo3::types::PyInt>()
            .call1((count,))?
            .unbind();
        Ok(Stats {
            count,
            nodes,
            updates,
            engine,
            complete,
        })
    }
}

#[pymethods]
impl Problem {
    #[new]
    #[pyo3(signature = (options, secondary=None, primary=None, bounds=None))]
    fn new(
        py: Python<'_>,
        options: &Bound<'_, PyAny>,
        secondary: Option<&Bound<'_, PyAny>>,
        primary: Option<&Bound<'_, PyAny>>,
        bounds: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Problem> {
        let rows = rows_of(options)?;
        let items = Items::declared(py, &rows, secondary, primary)?;
        let core = items.build(&rows, bounds)?;
        let given = rows.into_iter().map(|(o, _)| o.unbind()).collect();
        Problem::from_core(py, core, given)
    }

    /// A problem in Knuth's DLX text format (the first line its items,
    /// primary then `|` then secondary; each further line an option).
    /// Each solution's options come back as lists of their entries'
    /// strings. Raises `ParseError` (with `line` and `column`) where the
    /// text breaks the format.
    #[staticmethod]
    fn from_dlx(py: Python<'_>, text: &str) -> PyResult<Problem> {
        let parsed = dancer_formats::dlx::read_str(text, "<text>").map_err(|e| match e {
            dancer_formats::FormatError::Syntax { at, message } => {
                parse_error(py, &message, at.line, at.col)
            }
            e => value_error(e),
        })?;
        let core = parsed.problem;
        let given = (0..core.n_options())
            .map(|o| {
                let words: Vec<String> = core
                    .option_text(o)
                    .split_whitespace()
                    .map(str::to_string)
                    .collect();
                PyList::new(py, words).map(|l| l.into_any().unbind())
            })
            .collect::<PyResult<_>>()?;
        Problem::from_core(py, core, given)
    }

    /// A problem from a 0/1 matrix (a numpy array or a list of rows):
    /// each row an option, each column an item; the last `secondary`
    /// columns are secondary items. A solution comes back as its rows'
    /// indices.
    #[staticmethod]
    #[pyo3(signature = (matrix, secondary=0))]
    fn from_matrix(
        py: Python<'_>,
        matrix: &Bound<'_, PyAny>,
        secondary: usize,
    ) -> PyResult<Problem> {
        let matrix = match matrix.hasattr("tolist")? {
            true => matrix.call_method0("tolist")?,
            false => matrix.clone(),
        };
        let rows: Vec<Vec<i64>> = matrix.extract().map_err(|_| {
            PyValueError::new_err("matrix: rows of 0s and 1s (a 2-dimensional array)")
        })?;
        let cols = rows.first().map_or(0, Vec::len);
        if secondary > cols {
            return Err(PyValueError::new_err(format!(
                "{secondary} secondary columns, but the matrix has {cols}"
            )));
        }
        let mut b = ProblemBuilder::new();
        for c in 0..cols {
            let name = format!("c{c}");
            let id = match c < cols - secondary {
                true => b.primary(&name),
                false => b.secondary(&name),
            };
            id.map_err(value_error)?;
        }
        for (r, row) in rows.iter().enumerate() {
            if row.len() != cols {
                return Err(PyValueError::new_err(format!(
                    "row {r} has {} entries, row 0 has {cols}",
                    row.len()
                )));
            }
            if let Some(c) = row.iter().position(|&v| v != 0 && v != 1) {
                return Err(PyValueError::new_err(format!(
                    "row {r}, column {c}: {}, not 0 or 1",
                    row[c]
                )));
            }
            let entries = (row.iter().enumerate())
                .filter(|(_, &v)| v == 1)
                .map(|(c, _)| (c, 0));
            b.option_ids(entries)
                .map_err(|e| PyValueError::new_err(format!("row {r}: {e}")))?;
        }
        let core = b.build().map_err(value_error)?;
        let given = (0..rows.len())
            .map(|r| -> PyResult<Py<PyAny>> { Ok(r.into_pyobject(py)?.into_any().unbind()) })
            .collect::<PyResult<_>>()?;
        Problem::from_core(py, core, given)
    }

    /// The number of options.
    #[getter]
    fn n_options(&self) -> usize {
        self.core.n_options()
    }

    /// The number of items, primary and secondary.
    #[getter]
    fn n_items(&self) -> usize {
        self.core.n_items()
    }

    /// The number of primary items.
    #[getter]
    fn n_primary(&self) -> usize {
        self.core.n_primary()
    }

    /// The number of solutions, exactly (an `int` of any size): counted
    /// as `dancer solve --count` counts, with memos where they pay
    /// (`engine="auto"`), or with the engine named (`dlx`, `dlxm`,
    /// `bitset`, `bitmrv`, `memo`), on `threads` threads. Ctrl-C raises
    /// `KeyboardInterrupt`.
    #[pyo3(signature = (engine="auto", threads=1))]
    fn count(&self, py: Python<'_>, engine: &str, threads: usize) -> PyResult<Py<PyAny>> {
        let s = self.counted(py, engine, threads)?;
        if !s.complete {
            return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped"));
        }
        Ok(s.count)
    }

    /// Counts as `count` does and returns the counters too: `Stats` with
    /// `count`, `nodes`, `updates`, `engine` and `complete`.
    #[pyo3(signature = (engine="auto", threads=1))]
    fn stats(&self, py: Python<'_>, engine: &str, threads: usize) -> PyResult<Stats> {
        self.counted(py, engine, threads)
    }

    /// The solutions, one at a time, as the search finds them (a lazy
    /// iterator; at most `limit` of them): each the list of its options in
    /// the form they were given. Dropping the iterator stops the search.
    #[pyo3(signature = (limit=None, engine="auto"))]
    fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        engine: &str,
    ) -> PyResult<SolutionIter> {
        let limit = crate::errors::limit(limit)?;
        let (kind, memo) = engine_kind(engine)?;
        if memo {
            return Err(PyValueError::new_err(
                "the memoizing counter only counts: name another engine to list solutions",
            ));
        }
        let kind = kind.resolve(&self.core).map_err(value_error)?;
        let given = self.given.iter().map(|g| g.clone_ref(py)).collect();
        SolutionIter::start(self.core.clone(), given, kind, limit)
    }

    /// The first solution (in the engine's order), or None.
    #[pyo3(signature = (engine="auto"))]
    fn first(&self, py: Python<'_>, engine: &str) -> PyResult<Option<Vec<Py<PyAny>>>> {
        let (kind, memo) = engine_kind(engine)?;
        if memo {
            return Err(PyValueError::new_err("the memoizing counter only counts"));
        }
        let kind = kind.resolve(&self.core).map_err(value_error)?;
        let core = self.core.clone();
        let found = interruptible(py, move |cancel| {
            let mut engine = kind.build(&core).map_err(|e| e.to_string())?;
            engine.set_cancel(cancel);
            Ok::<_, String>(engine.next_solution().map(<[OptionId]>::to_vec))
        })?
        .map_err(|e: String| PyValueError::new_err(e))?;
        Ok(found.map(|s| self.options_of(py, &s)))
    }

    /// The ZDD of every solution, made by the memoizing counter (within
    /// `memory` bytes for its memos; a default share of this machine's
    /// when None): count, iterate and draw uniformly random solutions from
    /// it. Raises `ValueError` for a problem the counter does not take.
    #[pyo3(signature = (memory=None))]
    fn zdd(&self, py: Python<'_>, memory: Option<u64>) -> PyResult<crate::zdd::Zdd> {
        let given = self.given.iter().map(|g| g.clone_ref(py)).collect();
        crate::zdd::Zdd::of(py, self.core.clone(), given, memory)
    }

    /// Part `k` of `n` (from 1) of the count, split as `dancer solve
    /// --shard K/N` splits it: `dancer.merge` adds the parts up.
    #[pyo3(signature = (k, n, engine="auto", threads=1))]
    fn shard(
        &self,
        py: Python<'_>,
        k: usize,
        n: usize,
        engine: &str,
        threads: usize,
    ) -> PyResult<crate::shards::Shard> {
        crate::shards::Shard::run(py, self.core.clone(), k, n, engine, threads)
    }

    /// Every step of Knuth's Algorithm X on this problem, as the `dlx`
    /// engine takes them (dancing links): a list of dicts, the records of
    /// `dancer solve --trace --json`. Each has `step` (from 1), `level`
    /// and `action`: `choose` (`item`, `len`, `items`), `cover` and
    /// `uncover` (`item`, `links`), `hide` and `unhide` (`item`, `option`,
    /// `entries`, `links`), `try` (`item`, `option`, `entries`, `k`, `n`:
    /// option k of n), `solution` (`options`, `number`), `backtrack`
    /// (`item`), `purify` and `unpurify` (`item`, `color`). At most
    /// `limit` steps; `moves=True` keeps only choose, try, solution and
    /// backtrack. Options are numbered from 0 in the order given. Raises
    /// `ValueError` for multiplicities (which dancing links do not take);
    /// `MemoryError` when the list would take more than this process can
    /// get (take the steps one at a time with `steps`); Ctrl-C raises
    /// `KeyboardInterrupt`.
    #[pyo3(signature = (limit=100_000, moves=false))]
    fn trace(&self, py: Python<'_>, limit: u64, moves: bool) -> PyResult<Py<PyAny>> {
        crate::trace::steps(py, self.core.clone(), limit, moves)
    }

    /// The steps of `trace`, one at a time as the search makes them (a
    /// lazy iterator; at most `limit` of them, all when None): any number
    /// of steps in the memory of a few. Dropping the iterator stops the
    /// search.
    #[pyo3(signature = (limit=None, moves=false))]
    fn steps(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        moves: bool,
    ) -> PyResult<crate::trace::TraceSteps> {
        crate::trace::TraceSteps::start(py, self.core.clone(), limit, moves)
    }

    /// Checks a solution, given as option numbers (0-based, in the order
    /// the options were given), against the problem itself, not an engine:
    /// returns None, or raises `ValueError` saying what is wrong.
    fn verify(&self, options: Vec<usize>) -> PyResult<()> {
        if let Some(&o) = options.iter().find(|&&o| o >= self.core.n_options()) {
            return Err(PyValueError::new_err(format!(
                "option {o}: the problem has {} options",
                self.core.n_options()
            )));
        }
        dancer_core::verify(&self.core, &options).map_err(value_error)
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem({} options, {} items of which {} primary)",
            self.core.n_options(),
            self.core.n_items(),
            self.core.n_primary()
        )
    }
}
