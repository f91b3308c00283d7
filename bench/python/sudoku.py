"""A batch of Sudoku puzzles from Python: dancer.sudoku against py-sudoku and
the exact cover packages.

dancer solves the first N puzzles of a set (default 1000 of 17_clue.txt) with
`sudoku.solve_batch(puzzles, threads=1)`, `solve_batch(puzzles, threads=None)`
(every core) and a Python loop of `sudoku.solve`. The peers are much slower
and solve the first P puzzles (default 100): py-sudoku
(`Sudoku(3, 3, board=...).solve()`), and exact-cover, xcover, miniexact and
dxz on the standard exact cover of each puzzle: 324 items (cell, row-digit,
column-digit, box-digit), an option per cell and digit, and a given cell keeps
only its given digit's option; each finds the first solution (exact-cover's
get_exact_cover, next() of xcover's covers, miniexact's first solve(), dxz's
dxz_solve with a limit of 1). Building the exact cover from the puzzle's text
and reading the answer back are inside the timed call.

dancer runs on the peers' prefix too, so every ratio compares the same
puzzles. Every answer is checked here (a filled grid whose rows, columns and
boxes hold 1-9 once each, agreeing with the givens); a wrong or missing answer
exits with status 1.

    python bench/python/sudoku.py [-n 1000] [-p 100] [--runs 5] [--json PATH]
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402
from benchlib import Sample  # noqa: E402

Solver = Callable[[List[str]], List[Optional[str]]]


def check(puzzle: str, answer: Optional[str]) -> Optional[str]:
    """None when `answer` solves `puzzle`, else what is wrong."""
    if answer is None:
        return "no answer"
    if len(answer) != 81 or any(ch not in "123456789" for ch in answer):
        return f"not a filled 9x9 grid: {answer!r}"
    for i, (p, a) in enumerate(zip(puzzle, answer)):
        if p in "123456789" and p != a:
            return f"cell {i} is given {p}, answered {a}"
    digits = set("123456789")
    for k in range(9):
        row = {answer[9 * k + j] for j in range(9)}
        col = {answer[9 * j + k] for j in range(9)}
        br, bc = 3 * (k // 3), 3 * (k % 3)
        box = {answer[9 * (br + i) + bc + j] for i in range(3) for j in range(3)}
        if row != digits or col != digits or box != digits:
            return f"row, column or box {k} does not hold 1-9 once each"
    return None


# The exact cover of a puzzle: items 0..323 (cell r*9+c, then row-digit, column-digit, box-digit);
# the options as lists of items and, for each, the (cell, digit) it places.
def exact_cover(puzzle: str) -> Tuple[List[List[int]], List[Tuple[int, int]]]:
    options: List[List[int]] = []
    places: List[Tuple[int, int]] = []
    for cell in range(81):
        r, c = divmod(cell, 9)
        b = 3 * (r // 3) + c // 3
        ch = puzzle[cell]
        for d in (int(ch),) if ch in "123456789" else range(1, 10):
            options.append([cell, 81 + 9 * r + d - 1, 162 + 9 * c + d - 1, 243 + 9 * b + d - 1])
            places.append((cell, d))
    return options, places


def grid(places: List[Tuple[int, int]], chosen: Sequence[int]) -> str:
    g = ["."] * 81
    for o in chosen:
        cell, d = places[int(o)]
        g[cell] = str(d)
    return "".join(g)


def one_by_one(solve: Callable[[str], Optional[str]]) -> Solver:
    return lambda puzzles: [solve(p) for p in puzzles]


def dancer_runners(threads_all: Optional[int]) -> Dict[str, Solver]:
    from dancer import sudoku

    return {
        "dancer solve_batch 1 thread": lambda ps: sudoku.solve_batch(ps, threads=1),
        "dancer solve_batch all cores": lambda ps: sudoku.solve_batch(ps, threads=threads_all),
        "dancer solve loop": one_by_one(sudoku.solve),
    }


def import_py_sudoku() -> Any:
    """py-sudoku's package is named `sudoku`, like this script: import it with this script's folder
    off sys.path, so that `sudoku` is the package, not this file."""
    here = Path(__file__).resolve().parent
    saved = sys.path[:]
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    mine = sys.modules.get("sudoku")
    if mine is not None and Path(getattr(mine, "__file__", "") or "").resolve() == Path(__file__).resolve():
        del sys.modules["sudoku"]
    try:
        return importlib.import_module("sudoku")
    finally:
        sys.path[:] = saved


def py_sudoku() -> Solver:
    Sudoku = import_py_sudoku().Sudoku

    def solve(p: str) -> Optional[str]:
        board = [[int(ch) if ch in "123456789" else 0 for ch in p[9 * r : 9 * r + 9]] for r in range(9)]
        out = Sudoku(3, 3, board=board).solve().board
        if any(v is None for row in out for v in row):
            return None
        return "".join(str(v) for row in out for v in row)

    return one_by_one(solve)


def exact_cover_peer() -> Solver:
    import numpy as np
    import exact_cover as ec  # type: ignore[import-untyped]

    def solve(p: str) -> Optional[str]:
        options, places = exact_cover(p)
        m = np.zeros((len(options), 324), dtype=np.bool_)
        for i, o in enumerate(options):
            m[i, o] = True
        try:
            return grid(places, ec.get_exact_cover(m).tolist())
        except ec.error.NoSolution:
            return None

    return one_by_one(solve)


def xcover_peer() -> Solver:
    import xcover  # type: ignore[import-untyped]

    items = list(range(324))

    def solve(p: str) -> Optional[str]:
        options, places = exact_cover(p)
        first = next(xcover.covers(options, primary=items), None)
        return None if first is None else grid(places, first)

    return one_by_one(solve)


def miniexact_peer() -> Solver:
    import miniexact  # type: ignore[import-untyped]

    names = [f"i{k}" for k in range(324)]

    def solve(p: str) -> Optional[str]:
        options, places = exact_cover(p)
        x = miniexact.miniexacts_x()
        ids = [x.primary(n) for n in names]
        index: Dict[int, int] = {}  # miniexact's option number (from add) -> ours
        for i, o in enumerate(options):
            index[x.add([ids[k] for k in o])] = i
        if x.solve() != 10:
            return None
        return grid(places, [index[k] for k in x.selected_options()])

    return one_by_one(solve)


def dxz_peer() -> Solver:
    import dxz  # type: ignore[import-not-found, import-untyped, unused-ignore]

    def solve(p: str) -> Optional[str]:
        options, places = exact_cover(p)
        flat = [0] * (len(options) * 324)
        for i, o in enumerate(options):
            for k in o:
                flat[324 * i + k] = 1
        found = dxz.dxz_solve(len(options), 324, flat, 1)
        return grid(places, found[0]) if found else None

    return one_by_one(solve)


PEERS: Dict[str, Callable[[], Solver]] = {
    "py-sudoku": py_sudoku,
    "exact-cover": exact_cover_peer,
    "xcover": xcover_peer,
    "miniexact": miniexact_peer,
    "dxz": dxz_peer,
}


class Result(NamedTuple):
    runner: str
    puzzles: int
    samples: List[Sample]
    errors: List[str]

    @property
    def wall(self) -> float:
        return benchlib.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return benchlib.median(s.cpu for s in self.samples)

    @property
    def rate(self) -> float:
        return self.puzzles / self.wall if self.wall > 0 else float("inf")


def measure(name: str, solve: Solver, puzzles: List[str], runs: int) -> Result:
    solve(puzzles[:1])  # once untimed: imports, numba's compilation
    samples: List[Sample] = []
    errors: List[str] = []
    for _ in range(runs):
        answers, s = benchlib.timed(lambda: solve(puzzles))
        samples.append(s)
        if len(answers) != len(puzzles):
            errors.append(f"{len(answers)} answers to {len(puzzles)} puzzles")
        for i, (p, ans) in enumerate(zip(puzzles, answers)):
            why = check(p, ans)
            if why:
                errors.append(f"puzzle {i + 1} ({p}): {why}")
        if errors:
            break
    return Result(name, len(puzzles), samples, errors)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--set", default="17_clue.txt", help="a set in shared/data/sudoku, or a path (default 17_clue.txt)")
    ap.add_argument("-n", "--puzzles", type=int, default=1000, help="dancer's prefix of the set (default 1000)")
    ap.add_argument("-p", "--peer-puzzles", type=int, default=100, help="the peers' prefix (default 100)")
    ap.add_argument("--runs", type=int, default=5, help="timed runs of each dancer call (median; default 5)")
    ap.add_argument("--peer-runs", type=int, default=1, help="timed runs of each peer (median; default 1)")
    ap.add_argument("--threads", type=int, default=None, help="solve_batch's 'all cores' threads (default None: every core)")
    ap.add_argument("--peers", help="a comma-separated subset of: " + ", ".join(PEERS) + " (default all installed)")
    ap.add_argument("--json", type=Path, metavar="PATH", help="write every sample to PATH as JSON")
    a = ap.parse_args(argv)
    if min(a.puzzles, a.peer_puzzles, a.runs, a.peer_runs) < 1:
        ap.error("prefixes and runs must be at least 1")
    wanted = a.peers.split(",") if a.peers else list(PEERS)
    if set(wanted) - set(PEERS):
        ap.error(f"unknown peers: {', '.join(sorted(set(wanted) - set(PEERS)))}")

    benchlib.import_dancer()
    puzzles = benchlib.read_sudoku(a.set)
    big = puzzles[: a.puzzles]
    small = puzzles[: min(a.peer_puzzles, len(big))]
    if len(big) < a.puzzles:
        print(f"note: the set has {len(puzzles)} puzzles, fewer than -n {a.puzzles}", file=sys.stderr)

    benchlib.print_header("Sudoku from Python: dancer.sudoku and its peers")
    print(f"set {a.set}: dancer on the first {len(big)} puzzles (median of {a.runs} runs) and on the first "
          f"{len(small)}; the peers on the first {len(small)} (median of {a.peer_runs} run{'s' if a.peer_runs > 1 else ''})")
    peers: Dict[str, Solver] = {}
    for name in wanted:
        try:
            peers[name] = PEERS[name]()
        except ImportError as e:
            print(f"- {name}: not installed ({e}); left out")
    print(flush=True)

    results: List[Result] = []
    dancer = dancer_runners(a.threads)
    for name, f in dancer.items():
        for ps in dict.fromkeys([len(big), len(small)]):
            results.append(measure(name, f, puzzles[:ps], a.runs))
            r = results[-1]
            print(f"  {name} {ps}: {r.rate:,.0f} puzzles/s", file=sys.stderr, flush=True)
    for name, f in peers.items():
        results.append(measure(name, f, small, a.peer_runs))
        r = results[-1]
        print(f"  {name} {len(small)}: {r.rate:,.1f} puzzles/s", file=sys.stderr, flush=True)

    def rate_of(name: str, n: int) -> Optional[float]:
        return next((r.rate for r in results if r.runner == name and r.puzzles == n and not r.errors), None)

    b1, ball = "dancer solve_batch 1 thread", "dancer solve_batch all cores"
    head = ["runner", "puzzles", "runs", "wall s", "CPU s", "puzzles/s", f"{b1} / this", f"{ball} / this"]
    rows: List[List[str]] = []
    for r in results:
        if r.errors:
            rows.append([r.runner, str(r.puzzles), str(len(r.samples)), "**WRONG**", "", "", "", ""])
            continue
        ratios = []
        for who in (b1, ball):
            d = rate_of(who, r.puzzles)
            ratios.append(benchlib.fmt_ratio(d / r.rate) if d is not None and r.runner != who else "—")
        rows.append([r.runner, str(r.puzzles), str(len(r.samples)), benchlib.fmt_s(r.wall), benchlib.fmt_s(r.cpu),
                     f"{r.rate:,.0f}" if r.rate >= 100 else f"{r.rate:.1f}", *ratios])
    print(f"## {a.set}: puzzles per second (wall clock), ratios on the same puzzles\n")
    print(benchlib.markdown(head, rows, [False] + [True] * (len(head) - 1)))
    print()

    if a.json:
        dump: Dict[str, Any] = {
            "script": "bench/python/sudoku.py",
            "machine": benchlib.machine(),
            "set": a.set,
            "results": [
                {
                    "runner": r.runner,
                    "puzzles": r.puzzles,
                    "wall_s": [s.wall for s in r.samples],
                    "cpu_s": [s.cpu for s in r.samples],
                    "puzzles_per_s": None if r.errors else r.rate,
                    "errors": r.errors[:20],
                }
                for r in results
            ],
        }
        a.json.write_text(json.dumps(dump, indent=1) + "\n")
        print(f"samples written to {a.json}")

    bad = [r for r in results if r.errors]
    for r in bad:
        print(f"WRONG: {r.runner} on {r.puzzles} puzzles: {len(r.errors)} error(s), first: {r.errors[0]}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
