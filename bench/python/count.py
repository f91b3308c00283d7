"""Counting and listing side by side: dancer's Python package against the
Python exact cover packages that can take each problem.

Problems: langford-11, queens-12, queens-13, pent-6x10 (shared/data/dlx), and
a coloured problem made here: the n x n 0/1 matrices whose every row and
column sums to n/2 (n = 6 by default: 297,200, OEIS A001501), as exact cover
with colours: primary items r0..r5 and c0..c5, a secondary item x{i}{j} per
cell, and for each line and each of its C(6,3) = 20 patterns w an option
`r{i} x{i}0:{w0} ... x{i}5:{w5}` (and `c{j} x0{j}:{w0} ...`).

Peers: exact-cover (primary items only), dxz (primary items only), xcover
(secondary items; colours with colored=True), miniexact (algorithm X, or
algorithm C when there are colours). A peer takes every problem it can.
dancer counts at threads=1 and at threads=os.cpu_count(); it lists with
`list(Problem.solutions())`, which is sequential.

Every count and every number of solutions listed is checked against the known
answer; a mismatch is marked in the table and the script exits with status 1.

Timing: wall clock (time.perf_counter) of the whole call, building the problem
from Python lists included (reading and parsing the file is not), median of
RUNS; CPU time (time.process_time, all threads) for the record. Before the
timed runs each runner solves a small problem of the same kind (numba compiles
xcover then) and makes one untimed full call; if that call takes more than
--slow seconds it is kept as a sample and the runner makes --slow-runs calls
in all on that problem instead of RUNS (the table marks such cells).

    python bench/python/count.py [RUNS] [--json PATH] [--modes count,list]
                                 [--problems NAME,...] [--peers NAME,...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Sized, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402
from benchlib import Dlx, Sample  # noqa: E402

FILES = {"langford-11": 35584, "queens-12": 14200, "queens-13": 73712, "pent-6x10": 9356}
# the coloured problem's counts by n (n x n, every line sums to n // 2)
COLOURED = {4: 90, 5: 2040, 6: 297200}
# listing all solutions: where that is reasonable
LISTED = {"langford-11", "queens-12", "colour"}
# a small problem of the same kind, solved once before the timed runs (numba compiles xcover then)
# (a DLX file in shared/data/dlx, or the text itself; the count)
WARMUP = {
    "primary": ("| TAOCP 7.2.2 (5)\na b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n", 1),
    "secondary": ("queens-8", 92),
    "colour": ("toycolor", 1),
}


class Problem(NamedTuple):
    name: str
    dlx: Dlx
    expected: int
    listed: bool


def kind(d: Dlx) -> str:
    if d.coloured:
        return "colour"
    return "secondary" if d.secondary else "primary"


def coloured_problem(n: int) -> Dlx:
    """The n x n 0/1 matrices with n // 2 ones in every row and column, as exact cover with colours."""
    k = n // 2
    patterns = [w for w in itertools.product("01", repeat=n) if w.count("1") == k]
    options: List[List[str]] = []
    for i in range(n):
        for w in patterns:
            options.append([f"r{i}"] + [f"x{i}{j}:{w[j]}" for j in range(n)])
    for j in range(n):
        for w in patterns:
            options.append([f"c{j}"] + [f"x{i}{j}:{w[i]}" for i in range(n)])
    primary = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    secondary = [f"x{i}{j}" for i in range(n) for j in range(n)]
    return Dlx(primary, secondary, options)


def bool_matrix(d: Dlx) -> Any:
    """The 0/1 matrix of a problem with primary items only (options x items, numpy bool)."""
    import numpy as np

    col = {x: i for i, x in enumerate(d.primary)}
    m = np.zeros((len(d.options), len(d.primary)), dtype=np.bool_)
    for r, o in enumerate(d.options):
        m[r, [col[x] for x in o]] = True
    return m


class Runner:
    """One implementation: which problems it refuses (and why), a count call, a listing call."""

    name = ""

    def refuses(self, d: Dlx, mode: str) -> Optional[str]:
        return None

    def count(self, d: Dlx) -> Callable[[], int]:
        raise NotImplementedError

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        raise NotImplementedError


class Dancer(Runner):
    def __init__(self, threads: int, label: str) -> None:
        import dancer

        self.dancer = dancer
        self.threads = threads
        self.name = label

    def refuses(self, d: Dlx, mode: str) -> Optional[str]:
        if mode == "list" and self.threads != 1:
            return "Problem.solutions() is sequential"
        return None

    def count(self, d: Dlx) -> Callable[[], int]:
        dancer, t = self.dancer, self.threads
        return lambda: dancer.Problem(d.options, secondary=d.secondary, primary=d.primary).count(threads=t)

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        dancer = self.dancer
        return lambda: list(dancer.Problem(d.options, secondary=d.secondary, primary=d.primary).solutions())


class ExactCover(Runner):
    name = "exact-cover"

    def __init__(self) -> None:
        import exact_cover  # type: ignore[import-untyped]

        self.ec = exact_cover

    def refuses(self, d: Dlx, mode: str) -> Optional[str]:
        return "primary items only" if d.secondary else None

    def count(self, d: Dlx) -> Callable[[], int]:
        ec = self.ec
        return lambda: int(ec.get_solution_count(bool_matrix(d)))

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        ec = self.ec
        # a set of tuples of option indices (it counts first, then fills an array of that size)
        return lambda: ec.get_all_solutions(bool_matrix(d))  # type: ignore[no-any-return, unused-ignore]


class Dxz(Runner):
    name = "dxz"

    def __init__(self) -> None:
        import dxz  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self.dxz = dxz

    def refuses(self, d: Dlx, mode: str) -> Optional[str]:
        return "primary items only" if d.secondary else None

    def count(self, d: Dlx) -> Callable[[], int]:
        dxz = self.dxz

        def run() -> int:
            m = bool_matrix(d)
            return int(dxz.dxz_count(m.shape[0], m.shape[1], m.ravel().astype(int).tolist()))

        return run

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        dxz = self.dxz

        def run() -> Sized:
            m = bool_matrix(d)
            return dxz.dxz_solve(m.shape[0], m.shape[1], m.ravel().astype(int).tolist(), 0)  # type: ignore[no-any-return]

        return run


class Xcover(Runner):
    name = "xcover"

    def __init__(self) -> None:
        import xcover  # type: ignore[import-untyped]

        self.xcover = xcover

    def count(self, d: Dlx) -> Callable[[], int]:
        covers, coloured = self.xcover.covers, d.coloured
        return lambda: sum(1 for _ in covers(d.options, primary=d.primary, secondary=d.secondary, colored=coloured))

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        covers, coloured = self.xcover.covers, d.coloured
        return lambda: list(covers(d.options, primary=d.primary, secondary=d.secondary, colored=coloured))


class Miniexact(Runner):
    """Algorithm X (miniexacts_x) without colours, algorithm C (miniexacts_c) with them: an option's
    coloured item is added as add(item, colour), the option closed by add(0)."""

    name = "miniexact"

    def __init__(self) -> None:
        import miniexact  # type: ignore[import-untyped]

        self.mx = miniexact

    def build(self, d: Dlx) -> Any:
        if not d.coloured:
            x = self.mx.miniexacts_x()
            ids = {name: x.primary(name) for name in d.primary}
            ids.update({name: x.secondary(name) for name in d.secondary})
            for o in d.options:
                x.add([ids[name] for name in o])
            return x
        x = self.mx.miniexacts_c()
        ids = {name: x.primary(name) for name in d.primary}
        ids.update({name: x.secondary(name) for name in d.secondary})
        colours: Dict[str, int] = {}
        for o in d.options:
            for it in o:
                name, _, colour = it.partition(":")
                if colour:
                    c = colours.get(colour)
                    if c is None:
                        c = colours[colour] = x.color(colour)
                    x.add(ids[name], c)
                else:
                    x.add(ids[name])
            x.add(0)
        return x

    def count(self, d: Dlx) -> Callable[[], int]:
        def run() -> int:
            x = self.build(d)
            n = 0
            while x.solve() == 10:
                n += 1
            return n

        return run

    def listing(self, d: Dlx) -> Callable[[], Sized]:
        def run() -> Sized:
            x = self.build(d)
            out: List[List[int]] = []
            while x.solve() == 10:
                out.append(list(x.selected_options()))
            return out

        return run


PEERS: Dict[str, Callable[[], Runner]] = {
    "exact-cover": ExactCover,
    "xcover": Xcover,
    "miniexact": Miniexact,
    "dxz": Dxz,
}


class Result(NamedTuple):
    mode: str
    problem: str
    runner: str
    expected: int
    got: Optional[int]
    samples: List[Sample]
    first_kept: bool  # the first (untimed) call took over --slow seconds and is the first sample
    refused: Optional[str]
    error: Optional[str]  # a wrong answer on the warm-up problem

    @property
    def ok(self) -> bool:
        return self.refused is not None or (self.error is None and self.got == self.expected)

    @property
    def wall(self) -> Optional[float]:
        return benchlib.median(s.wall for s in self.samples) if self.samples and self.ok else None

    @property
    def cpu(self) -> Optional[float]:
        return benchlib.median(s.cpu for s in self.samples) if self.samples and self.ok else None


def measure(
    runner: Runner, p: Problem, mode: str, runs: int, slow: float, slow_runs: int, warmups: Dict[str, Tuple[Dlx, int]]
) -> Result:
    refused = runner.refuses(p.dlx, mode)
    if refused is not None:
        return Result(mode, p.name, runner.name, p.expected, None, [], False, refused, None)

    def call(d: Dlx) -> Callable[[], object]:
        return runner.count(d) if mode == "count" else runner.listing(d)

    def size(out: object) -> int:
        # the list is measured and freed after the timer stops: listing is timed, not deallocation
        return out if isinstance(out, int) else len(out)  # type: ignore[arg-type]

    # a small problem of the same kind first (numba's compilation, imports, first allocations)
    small, small_expected = warmups[kind(p.dlx)]
    n = size(call(small)())
    if n != small_expected:
        return Result(mode, p.name, runner.name, p.expected, None, [], False, None, f"warm-up problem: {n} != {small_expected}")
    f = call(p.dlx)
    samples: List[Sample] = []
    out, s = benchlib.timed(f)
    got = size(out)
    del out
    first_kept = s.wall > slow
    if first_kept:
        samples.append(s)
    want = slow_runs if first_kept else runs
    while got == p.expected and len(samples) < want:
        out, s = benchlib.timed(f)
        got = size(out)
        del out
        samples.append(s)
    return Result(mode, p.name, runner.name, p.expected, got, samples, first_kept, None, None)


def table(results: List[Result], mode: str, peers: Sequence[str], d1: str, dn: str, cpu: bool) -> str:
    head = ["problem (solutions)"] + list(peers) + [d1, dn]
    if not cpu:
        head += [f"fastest peer / {dn}", f"fastest peer / {d1}"]
    rows: List[List[str]] = []
    for prob in dict.fromkeys(r.problem for r in results if r.mode == mode):
        by = {r.runner: r for r in results if r.mode == mode and r.problem == prob}
        expected = next(iter(by.values())).expected
        row = [f"{prob} ({expected:,})"]
        for who in [*peers, d1, dn]:
            r = by.get(who)
            if r is None or r.refused is not None:
                row.append("—")
            elif not r.ok:
                row.append(f"**MISMATCH** {r.error or r.got}")
            else:
                v = r.cpu if cpu else r.wall
                cell = benchlib.fmt_s(v)
                if r.first_kept:
                    cell += f" ({len(r.samples)} run{'s' if len(r.samples) > 1 else ''})"
                row.append(cell)
        if not cpu:
            peer_times = [t for t in (by[w].wall for w in peers if w in by) if t is not None]
            best = min(peer_times) if peer_times else None
            for who in (dn, d1):
                r = by.get(who)
                t = r.wall if r is not None else None
                row.append(benchlib.fmt_ratio(best / t) if best is not None and t else "—")
        rows.append(row)
    return benchlib.markdown(head, rows)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("runs", nargs="?", type=int, default=5, help="timed runs per runner and problem (median; default 5)")
    ap.add_argument("--json", type=Path, metavar="PATH", help="write every sample to PATH as JSON")
    ap.add_argument("--modes", default="count,list", help="count, list or both (default count,list)")
    ap.add_argument("--problems", help="a comma-separated subset of: " + ", ".join([*FILES, "colour"]) + " (default all)")
    ap.add_argument("--peers", help="a comma-separated subset of: " + ", ".join(PEERS) + " (default all installed)")
    ap.add_argument("--colour-size", type=int, default=6, choices=sorted(COLOURED), help="n of the coloured n x n problem (default 6)")
    ap.add_argument("--slow", type=float, default=3.0, help="seconds over which a first call counts as slow (default 3)")
    ap.add_argument("--slow-runs", type=int, default=1, help="calls in all for a slow runner on a problem (default 1)")
    ap.add_argument("--threads", type=int, default=benchlib.cores(), help="dancer's 'all cores' thread count (default os.cpu_count())")
    a = ap.parse_args(argv)
    if a.runs < 1 or a.slow_runs < 1:
        ap.error("RUNS and --slow-runs must be at least 1")
    modes = [m for m in a.modes.split(",") if m]
    if not set(modes) <= {"count", "list"}:
        ap.error("--modes takes count and list")
    wanted = a.problems.split(",") if a.problems else [*FILES, "colour"]
    unknown = set(wanted) - {*FILES, "colour"}
    if unknown:
        ap.error(f"unknown problems: {', '.join(sorted(unknown))}")
    wanted_peers = a.peers.split(",") if a.peers else list(PEERS)
    if set(wanted_peers) - set(PEERS):
        ap.error(f"unknown peers: {', '.join(sorted(set(wanted_peers) - set(PEERS)))}")

    benchlib.import_dancer()
    problems: List[Problem] = []
    for name in wanted:
        if name == "colour":
            n = a.colour_size
            label = f"colour-{n}x{n}"
            problems.append(Problem(label, coloured_problem(n), COLOURED[n], "colour" in LISTED))
        else:
            problems.append(Problem(name, benchlib.read_dlx(name)[1], FILES[name], name in LISTED))
    warmups = {
        k: (benchlib.parse_dlx(f) if "\n" in f else benchlib.read_dlx(f)[1], n) for k, (f, n) in WARMUP.items()
    }

    benchlib.print_header("Counting and listing from Python: dancer and its peers")
    d1, dn = "dancer 1 thread", f"dancer {a.threads} threads"
    print(f"RUNS = {a.runs} (median of wall-clock seconds; a runner whose first call takes over {a.slow:g} s "
          f"makes {a.slow_runs} call{'s' if a.slow_runs > 1 else ''} in all there, marked in the table)")
    runners: List[Runner] = []
    peers: List[str] = []
    for name in wanted_peers:
        try:
            runners.append(PEERS[name]())
            peers.append(name)
        except ImportError as e:
            print(f"- {name}: not installed ({e}); left out")
    runners += [Dancer(1, d1), Dancer(a.threads, dn)]
    print(flush=True)

    results: List[Result] = []
    for mode in modes:
        for p in problems:
            if mode == "list" and not p.listed:
                continue
            for r in runners:
                res = measure(r, p, mode, a.runs, a.slow, a.slow_runs, warmups)
                results.append(res)
                state = res.refused or (f"{benchlib.fmt_s(res.wall)} s" if res.ok else f"MISMATCH: {res.error or f'{res.got} != {res.expected}'}")
                print(f"  {mode} {p.name} {r.name}: {state}", file=sys.stderr, flush=True)

    for mode in modes:
        title = {"count": "Counting: `count()` or the peer's count", "list": "Listing every solution as Python lists"}[mode]
        print(f"## {title} (wall seconds, median)\n")
        print(table(results, mode, peers, d1, dn, cpu=False))
        print("\nCPU seconds (median, every thread):\n")
        print(table(results, mode, peers, d1, dn, cpu=True))
        print()
    refusals: Dict[Tuple[str, str], List[str]] = {}
    for res in results:
        if res.refused:
            where = refusals.setdefault((res.runner, res.refused), [])
            if res.problem not in where:
                where.append(res.problem)
    if refusals:
        print("Not taken (—):\n")
        for (who, why), where in refusals.items():
            print(f"- {who}: {', '.join(where)} ({why})")
        print()

    if a.json:
        dump = {
            "script": "bench/python/count.py",
            "machine": benchlib.machine(),
            "runs": a.runs,
            "slow_s": a.slow,
            "slow_runs": a.slow_runs,
            "results": [
                {
                    "mode": r.mode,
                    "problem": r.problem,
                    "runner": r.runner,
                    "expected": r.expected,
                    "got": r.got,
                    "ok": r.ok,
                    "error": r.error,
                    "refused": r.refused,
                    "first_call_kept": r.first_kept,
                    "wall_s": [s.wall for s in r.samples],
                    "cpu_s": [s.cpu for s in r.samples],
                    "median_wall_s": r.wall,
                    "median_cpu_s": r.cpu,
                }
                for r in results
            ],
        }
        a.json.write_text(json.dumps(dump, indent=1) + "\n")
        print(f"samples written to {a.json}")

    bad = [r for r in results if not r.ok]
    for b in bad:
        print(f"MISMATCH: {b.runner} {b.mode} {b.problem}: {b.error or f'{b.got}, expected {b.expected}'}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
