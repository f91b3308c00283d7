"""The Python examples of the README, of the guide's Python chapter
(docs/python.md) and of the package's own README: every one runs as
written."""

from __future__ import annotations

import re

from conftest import ROOT


def examples(name: str) -> list[str]:
    text = (ROOT / name).read_text()
    return re.findall(r"```python\n(.*?)```", text, re.S)


def test_every_example_runs() -> None:
    for name, least in (("README.md", 1), ("docs/python.md", 2), ("crates/dancer-py/README.md", 1)):
        found = examples(name)
        assert len(found) >= least, name
        for code in found:
            exec(compile(code, name, "exec"), {"__name__": "readme"})
