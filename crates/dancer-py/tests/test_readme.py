"""The README's "From Python" section: every Python example runs as
written."""

from __future__ import annotations

import re

from conftest import ROOT


def examples() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## From Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, re.S)


def test_every_example_runs() -> None:
    found = examples()
    assert len(found) >= 2
    for code in found:
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
