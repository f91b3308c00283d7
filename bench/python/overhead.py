"""What calling through Python costs: the `dancer` binary against the Python
package on the same counts.

For each problem (langford-11, queens-12, queens-13, pent-6x10) and T in
(1, os.cpu_count()):

- binary: wall time of the whole process `dancer solve FILE --count
  --threads T --progress none` (subprocess.run, output captured; the count it
  prints is checked);
- Python: wall time of `dancer.Problem.from_dlx(Path(FILE).read_text())
  .count(threads=T)` in this process (reading the file included, as the
  binary reads it too).

The two alternate run by run (binary, Python, binary, ...) after one untimed
call of each, medians of RUNS (default 7). The ratio python/binary per problem
and T is the figure to watch: the goal is at most 1.10. With --check the script
exits with status 1 when a ratio is over --goal. A wrong count always exits 1.

    python bench/python/overhead.py [RUNS] [--json PATH] [--check]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict, List, NamedTuple, Optional, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402
from benchlib import Sample  # noqa: E402

PROBLEMS = {"langford-11": 35584, "queens-12": 14200, "queens-13": 73712, "pent-6x10": 9356}


class Row(NamedTuple):
    problem: str
    threads: int
    binary: List[Sample]
    python: List[Sample]

    @property
    def ratio(self) -> float:
        return benchlib.median(s.wall for s in self.python) / benchlib.median(s.wall for s in self.binary)


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_binary(exe: Path, path: Path, threads: int, expected: int) -> Sample:
    """One whole process; its CPU time from this process's children's resource usage."""
    cmd = [str(exe), "solve", str(path), "--count", "--threads", str(threads), "--progress", "none"]
    cpu = children_cpu()
    w = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - w
    cpu = children_cpu() - cpu
    if done.returncode != 0:
        print(f"{' '.join(cmd)} failed (status {done.returncode}): {done.stderr.strip()}", file=sys.stderr)
        raise SystemExit(1)
    words = done.stdout.split()
    if not words or words[0] != str(expected):
        print(f"WRONG COUNT: {' '.join(cmd)} printed {done.stdout.strip()!r}, expected {expected}", file=sys.stderr)
        raise SystemExit(1)
    return Sample(wall, cpu)


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("runs", nargs="?", type=int, default=7, help="timed runs of each (median; default 7)")
    ap.add_argument("--problems", default=",".join(PROBLEMS), help="comma-separated subset (default all four)")
    ap.add_argument("--threads", default=f"1,{benchlib.cores()}", help="thread counts (default 1,os.cpu_count())")
    ap.add_argument("--goal", type=float, default=1.10, help="the python/binary ratio aimed at (default 1.10)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a ratio is over --goal")
    ap.add_argument("--json", type=Path, metavar="PATH", help="write every sample to PATH as JSON")
    a = ap.parse_args(argv)
    if a.runs < 1:
        ap.error("RUNS must be at least 1")
    names = [n for n in a.problems.split(",") if n]
    if set(names) - set(PROBLEMS):
        ap.error(f"unknown problems: {', '.join(sorted(set(names) - set(PROBLEMS)))}")
    threads = list(dict.fromkeys(int(t) for t in a.threads.split(",") if t))

    benchlib.import_dancer()
    import dancer

    exe = benchlib.dancer_bin()
    paths = {n: benchlib.read_dlx(n)[0] for n in names}
    benchlib.print_header("The cost of Python: the dancer binary against dancer.Problem.from_dlx(...).count()")
    print(f"binary: {exe}")
    print(f"RUNS = {a.runs} (median of wall-clock seconds, binary and Python alternating)\n", flush=True)

    def python_call(path: Path, t: int, expected: int) -> Sample:
        def call() -> int:
            return dancer.Problem.from_dlx(path.read_text()).count(threads=t)

        got, s = benchlib.timed(call)
        if got != expected:
            print(f"WRONG COUNT: Python count of {path.name} at threads={t}: {got}, expected {expected}", file=sys.stderr)
            raise SystemExit(1)
        return s

    rows: List[Row] = []
    for name in names:
        path, expected = paths[name], PROBLEMS[name]
        for t in threads:
            run_binary(exe, path, t, expected)
            python_call(path, t, expected)
            b: List[Sample] = []
            p: List[Sample] = []
            for _ in range(a.runs):
                b.append(run_binary(exe, path, t, expected))
                p.append(python_call(path, t, expected))
            rows.append(Row(name, t, b, p))
            r = rows[-1]
            print(f"  {name} threads={t}: python/binary {r.ratio:.3f}", file=sys.stderr, flush=True)

    head = ["problem", "threads", "binary s", "Python s", "python / binary", f"goal <= {a.goal:.2f}", "binary CPU s", "Python CPU s"]
    out: List[List[str]] = []
    for r in rows:
        out.append([
            r.problem,
            str(r.threads),
            benchlib.fmt_s(benchlib.median(s.wall for s in r.binary)),
            benchlib.fmt_s(benchlib.median(s.wall for s in r.python)),
            f"{r.ratio:.3f}",
            "yes" if r.ratio <= a.goal else "**no**",
            benchlib.fmt_s(benchlib.median(s.cpu for s in r.binary)),
            benchlib.fmt_s(benchlib.median(s.cpu for s in r.python)),
        ])
    print("## Wall-clock seconds, median; the binary's time is its whole process\n")
    print(benchlib.markdown(head, out))
    print()

    if a.json:
        dump: Dict[str, Any] = {
            "script": "bench/python/overhead.py",
            "machine": benchlib.machine(),
            "binary": str(exe),
            "runs": a.runs,
            "results": [
                {
                    "problem": r.problem,
                    "threads": r.threads,
                    "binary_wall_s": [s.wall for s in r.binary],
                    "binary_cpu_s": [s.cpu for s in r.binary],
                    "python_wall_s": [s.wall for s in r.python],
                    "python_cpu_s": [s.cpu for s in r.python],
                    "ratio": r.ratio,
                }
                for r in rows
            ],
        }
        a.json.write_text(json.dumps(dump, indent=1) + "\n")
        print(f"samples written to {a.json}")

    over = [r for r in rows if r.ratio > a.goal]
    if over:
        print(f"over the goal of {a.goal:.2f}: " + ", ".join(f"{r.problem} threads={r.threads} ({r.ratio:.3f})" for r in over))
    return 1 if over and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
