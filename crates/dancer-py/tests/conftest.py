"""Where the tests find the shared problem files and the command line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional

import pytest

ROOT = Path(__file__).resolve().parents[3]
SHARED = ROOT.parent / "shared" / "data"


def shared(name: str) -> Path:
    """A file of ../shared/data; the test is skipped when it is missing
    (and fails under CI, which must have it)."""
    path = SHARED / name
    if not path.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing (CI needs ../shared)")
        pytest.skip(f"{path} is missing")
    return path


def dancer_bin() -> Optional[str]:
    """The `dancer` command line: $DANCER_BIN, else the checkout's build."""
    given = os.environ.get("DANCER_BIN")
    if given:
        return given
    for kind in ("release", "debug"):
        path = ROOT / "target" / kind / "dancer"
        if path.exists():
            return str(path)
    return shutil.which("dancer")
