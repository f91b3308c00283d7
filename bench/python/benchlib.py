"""What the Python benchmarks share: where the checkout, the shared data and
the `dancer` binary are, reading Knuth's DLX format, timing, the header every
script prints and small formatting helpers.

Not a benchmark itself; the scripts beside it import it (they put their own
folder first on sys.path when run as `python bench/python/NAME.py`).
"""

from __future__ import annotations

import gc
import importlib.metadata
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, Iterable, List, NamedTuple, NoReturn, Optional, Sequence, Tuple, TypeVar

T = TypeVar("T")

# bench/python/benchlib.py -> the checkout's root
ROOT = Path(__file__).resolve().parents[2]

# the packages whose versions every script prints (distribution names)
PACKAGES = ["dancer", "exact-cover", "xcover", "miniexact", "dxz", "py-sudoku", "numpy", "numba"]


def die(message: str, code: int = 2) -> NoReturn:
    """Stops the script with a message on standard error (status 2: something it needs is missing)."""
    print(f"{Path(sys.argv[0]).name}: {message}", file=sys.stderr)
    sys.exit(code)


def shared_dir() -> Path:
    """The shared data folder (the one holding data/dlx and data/sudoku): $DANCER_SHARED, else ../shared
    beside the checkout, else the first shared/ with a data/ folder in a parent of the checkout (a git
    worktree may sit deeper than the main checkout)."""
    env = os.environ.get("DANCER_SHARED")
    if env:
        p = Path(env).expanduser()
        if (p / "data").is_dir():
            return p.resolve()
        die(f"DANCER_SHARED={env} has no data/ folder (it should be the shared folder that holds data/dlx and data/sudoku)")
    beside = ROOT.parent / "shared"
    if (beside / "data").is_dir():
        return beside.resolve()
    for parent in [ROOT, *ROOT.parents]:
        cand = parent / "shared"
        if (cand / "data").is_dir():
            return cand.resolve()
    die(
        f"the shared data was not found: no shared/data at {beside} nor in any parent of {ROOT}; "
        "set DANCER_SHARED to the shared folder (the one holding data/dlx and data/sudoku)"
    )


def data_file(*parts: str) -> Path:
    """A file under shared/data, or exit 2 saying which is missing."""
    p = shared_dir().joinpath("data", *parts)
    if not p.is_file():
        die(f"missing data file {p} (shared data at {shared_dir()})")
    return p


def dancer_bin() -> Path:
    """The `dancer` binary: $DANCER_BIN, else target/release/dancer in the checkout; exit 2 if missing."""
    env = os.environ.get("DANCER_BIN")
    p = Path(env).expanduser() if env else ROOT / "target" / "release" / "dancer"
    if not p.is_file() or not os.access(p, os.X_OK):
        how = f"DANCER_BIN={env}" if env else f"{p}"
        die(
            f"the dancer binary was not found ({how}): build it with `cargo build --release -p dancer-cli` "
            "in the checkout, or set DANCER_BIN to its path"
        )
    return p


def import_dancer() -> None:
    """Exit 2 with a clear message when the dancer package is not installed."""
    try:
        import dancer  # noqa: F401
    except ImportError as e:
        die(f"the dancer Python package is not importable ({e}): `pip install ./crates/dancer-py` in a virtual environment")


class Dlx(NamedTuple):
    """A problem in Knuth's DLX format: item names in the file's order, options as lists of item names
    (a coloured secondary item stays `name:colour`)."""

    primary: List[str]
    secondary: List[str]
    options: List[List[str]]

    @property
    def coloured(self) -> bool:
        return any(":" in x for o in self.options for x in o)


def parse_dlx(text: str) -> Dlx:
    rows = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("|")]
    if not rows:
        raise ValueError("no item line")
    head = rows[0]
    cut = head.index("|") if "|" in head else len(head)
    return Dlx(head[:cut], head[cut + 1 :], rows[1:])


def read_dlx(name: str) -> Tuple[Path, Dlx]:
    """NAME (shared/data/dlx/NAME.dlx) or a path; the path and the parsed problem."""
    p = Path(name)
    if not p.is_file():
        p = data_file("dlx", name if name.endswith(".dlx") else name + ".dlx")
    return p, parse_dlx(p.read_text())


def read_sudoku(name: str) -> List[str]:
    """Puzzles of a set under shared/data/sudoku (or a path), one per line."""
    p = Path(name)
    if not p.is_file():
        p = data_file("sudoku", name)
    return [ln.strip() for ln in p.read_text().splitlines() if ln.strip()]


class Sample(NamedTuple):
    wall: float
    cpu: float


def timed(f: Callable[[], T], collect: bool = True) -> Tuple[T, Sample]:
    """Calls f once: its result, wall-clock (perf_counter) and CPU (process_time, every thread) seconds.
    A garbage collection first, so that one run does not pay for the garbage of the one before."""
    if collect:
        gc.collect()
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return out, Sample(time.perf_counter() - w, time.process_time() - c)


def median(xs: Iterable[float]) -> float:
    return float(statistics.median(list(xs)))


def cores() -> int:
    return os.cpu_count() or 1


def versions(names: Sequence[str] = PACKAGES) -> Dict[str, Optional[str]]:
    out: Dict[str, Optional[str]] = {}
    for n in names:
        try:
            out[n] = importlib.metadata.version(n)
        except importlib.metadata.PackageNotFoundError:
            out[n] = None
    return out


def machine() -> Dict[str, object]:
    return {
        "cores": cores(),
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": cpu_model(),
        "versions": versions(),
    }


def cpu_model() -> str:
    try:
        for ln in Path("/proc/cpuinfo").read_text().splitlines():
            if ln.startswith("model name"):
                return ln.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def print_header(title: str) -> None:
    m = machine()
    vs = m["versions"]
    assert isinstance(vs, dict)
    print(f"# {title}\n")
    print(f"- machine: {m['cores']} cores (os.cpu_count()), {m['processor']}, {m['platform']}")
    print(f"- Python {m['python']} ({m['implementation']})")
    print("- packages: " + ", ".join(f"{k} {v if v else '(not installed)'}" for k, v in vs.items()))
    print(flush=True)


def fmt_s(x: Optional[float]) -> str:
    """Seconds, three significant figures."""
    if x is None:
        return "—"
    return f"{x:.0f}" if x >= 1000 else f"{x:.3g}"


def fmt_ratio(x: Optional[float]) -> str:
    if x is None:
        return "—"
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x"


def markdown(header: Sequence[str], rows: Sequence[Sequence[str]], right: Optional[Sequence[bool]] = None) -> str:
    """A Markdown table; columns right-aligned where `right` says (default: every column but the first)."""
    if right is None:
        right = [False] + [True] * (len(header) - 1)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---:" if r else "---" for r in right) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)
