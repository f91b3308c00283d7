"""Every public name of the package has a docstring: the functions and
classes of `dancer`, `dancer.sudoku` and `dancer.poly`, and each public
method and property of each class."""

from __future__ import annotations

import inspect
from types import ModuleType
from typing import List

import dancer


def undocumented(module: ModuleType) -> List[str]:
    missing = []
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name)
        if isinstance(value, ModuleType) or not (inspect.isclass(value) or callable(value)):
            continue
        if not (value.__doc__ or "").strip():
            missing.append(f"{module.__name__}.{name}")
        if inspect.isclass(value) and not issubclass(value, BaseException):
            for attr, raw in vars(value).items():
                if attr.startswith("_"):
                    continue
                # a property's own doc; a static method's function's, not
                # staticmethod's
                member = raw if isinstance(raw, property) or inspect.isdatadescriptor(raw) else getattr(value, attr)
                if not (getattr(member, "__doc__", None) or "").strip():
                    missing.append(f"{module.__name__}.{name}.{attr}")
    return missing


def test_every_public_name_has_a_docstring() -> None:
    names = [n for m in (dancer, dancer.sudoku, dancer.poly) for n in dir(m) if not n.startswith("_")]
    assert {"Problem", "solve", "rate", "path", "Puzzle"} <= set(names)
    missing = [n for m in (dancer, dancer.sudoku, dancer.poly) for n in undocumented(m)]
    assert missing == []
