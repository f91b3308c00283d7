//! JSON: problems as JSON documents. (The NDJSON records `dancer` prints
//! are [`crate::ndjson`]'s.)
//!
//! A problem:
//!
//! ```json
//! {"primary": ["A", "B"], "secondary": ["X"], "options": [["A", "X:red"], ["B"]]}
//! ```
//!
//! Entries are written as in the DLX format, `name` or `name:colour`, and
//! primary items may carry DLX3 multiplicities, `"2:3|name"`.

use crate::{Diagnostic, Error, Location, Parsed};
use dancer_core::{BuildError, Problem, ProblemBuilder};
use serde::{Deserialize, Serialize};
use std::io::Read;

/// A problem as a JSON document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProblemDoc {
    pub primary: Vec<String>,
    #[serde(default)]
    pub secondary: Vec<String>,
    pub options: Vec<Vec<String>>,
}

impl ProblemDoc {
    pub fn from_problem(p: &Problem) -> Self {
        ProblemDoc {
            primary: (0..p.n_primary())
                .map(|i| p.item_name(i).to_string())
                .collect(),
            secondary: (p.n_primary()..p.n_items())
                .map(|i| p.item_name(i).to_string())
                .collect(),
            options: (0..p.n_options())
                .map(|k| {
                    p.option(k)
                        .entries()
                        .map(|e| {
                            if e.color == 0 {
                                p.item_name(e.item).to_string()
                            } else {
                                format!("{}:{}", p.item_name(e.item), p.color_name(e.color))
                            }
                        })
                        .collect()
                })
                .collect(),
        }
    }

    /// Builds the problem. Errors name the JSON path (`options[3][1]`).
    pub fn to_problem(&self, file: &str) -> Result<Parsed, Error> {
        let at = |path: String, e: &dyn std::fmt::Display| Error::Syntax {
            at: Location {
                file: file.to_string(),
                line: 0,
                col: 0,
            },
            message: format!("{path}: {e}"),
        };
        let mut b = ProblemBuilder::new();
        for (i, n) in self.primary.iter().enumerate() {
            // DLX3 multiplicities, as in the text format: "2:3|name"
            let r = match crate::dlx::multiplicity(n) {
                Some(Ok((u, v, name))) => b.primary_bounded(name, u, v),
                Some(Err(msg)) => return Err(at(format!("primary[{i}]"), &msg)),
                None => b.primary(n),
            };
            r.map_err(|e| at(format!("primary[{i}]"), &e))?;
        }
        for (i, n) in self.secondary.iter().enumerate() {
            b.secondary(n)
                .map_err(|e| at(format!("secondary[{i}]"), &e))?;
        }
        let mut warnings = Vec::new();
        for (k, opt) in self.options.iter().enumerate() {
            b.begin_option();
            for (j, tok) in opt.iter().enumerate() {
                let (name, color) = match tok.split_once(':') {
                    Some((n, c)) => (n, Some(c)),
                    None => (tok.as_str(), None),
                };
                b.push_named(name, color).map_err(|e| {
                    let msg: String = match e {
                        BuildError::UnknownItem { name, .. } => format!("unknown item {name:?}"),
                        BuildError::RepeatedItem { name, .. } => {
                            format!("item {name:?} appears twice in this option")
                        }
                        BuildError::ColorOnPrimary { name, .. } => {
                            format!("colour given for primary item {name:?}")
                        }
                        e => e.to_string(),
                    };
                    at(format!("options[{k}][{j}]"), &msg)
                })?;
            }
            let o = b.end_option();
            if !b.is_active(o) {
                warnings.push(Diagnostic {
                    at: Location {
                        file: file.to_string(),
                        line: 0,
                        col: 0,
                    },
                    message: format!("options[{k}] has no primary items; it is ignored"),
                });
            }
        }
        let problem = b.build().map_err(|e| at("primary".to_string(), &e))?;
        Ok(Parsed { problem, warnings })
    }
}

/// Reads a problem from a JSON document.
pub fn read<R: Read>(input: R, file: &str) -> Result<Parsed, Error> {
    let doc: ProblemDoc = serde_json::from_reader(input).map_err(|e| {
        if e.is_io() {
            Error::Io {
                file: file.to_string(),
                source: e.into(),
            }
        } else {
            Error::at(file, e.line(), e.column(), e.to_string())
        }
    })?;
    doc.to_problem(file)
}

/// Writes a problem as a JSON document.
pub fn to_string(problem: &Problem) -> String {
    serde_json::to_string(&ProblemDoc::from_problem(problem)).expect("serialisable")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let text =
            r#"{"primary":["A","B"],"secondary":["X"],"options":[["A","X:red"],["B"],["X"]]}"#;
        let p = read(text.as_bytes(), "p.json").unwrap();
        assert_eq!(p.warnings.len(), 1);
        assert_eq!(p.problem.option_text(0), "A X:red");
        assert_eq!(to_string(&p.problem), text);
    }

    #[test]
    fn errors_name_the_place() {
        let e = read(
            r#"{"primary":["A"],"options":[["A"],["A","Q"]]}"#.as_bytes(),
            "p.json",
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "p.json:0: options[1][1]: unknown item \"Q\"");
        let e = read(
            "{\"primary\":[\"A\"],\n \"options\": [[\"A\"]\n".as_bytes(),
            "p.json",
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("p.json:3:"), "{e}");
    }
}
