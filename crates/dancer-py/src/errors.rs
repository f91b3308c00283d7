//! The library's errors as Python exceptions.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    dancer,
    ParseError,
    PyValueError,
    "Text that breaks its format's rules: `line` and `column` (from 1) say where, `message` what."
);

/// A `ParseError` at `line`, `column`, with its message.
pub fn parse_error(py: Python<'_>, message: &str, line: usize, column: usize) -> PyErr {
    let err = ParseError::new_err(format!("line {line}, column {column}: {message}"));
    let value = err.value(py);
    // setting attributes on a fresh exception object cannot fail
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("message", message);
    err
}

/// A value Python handed in that the library does not take.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A limit Python handed in: at least 1 when given, as the command line's
/// `--limit` (a limit of 0 would answer 0 or nothing without a search,
/// and be taken for a result).
pub fn limit(limit: Option<u64>) -> PyResult<Option<u64>> {
    match limit {
        Some(0) => Err(PyValueError::new_err(
            "limit=0: at least 1 (or None for no limit)",
        )),
        l => Ok(l),
    }
}
