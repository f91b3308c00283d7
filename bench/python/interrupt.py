"""Ctrl-C latency: how long a long dancer call takes to raise
KeyboardInterrupt after SIGINT.

For each case a child Python process (this script with --child CASE) builds
its input, prints "ready" just before the long call and makes it; the parent
waits --delay seconds (default 0.4) after "ready", notes time.monotonic() and
sends SIGINT; the child catches KeyboardInterrupt and prints time.monotonic()
at once. CLOCK_MONOTONIC is system-wide on Linux, so the two clocks compare:
the latency is the difference (signal delivery, dancer noticing it, stopping
its threads, freeing what it built, raising). --trials per case (default 10),
median and max in milliseconds; the goal is under 100 ms.

Cases:

- count-1: `Problem.count(threads=1)` on queens-15 (2,279,184 solutions, a few seconds);
- count-all: `Problem.count(threads=os.cpu_count())` on queens-16 (14,772,512);
- list: `list(Problem.solutions())` on queens-15;
- solve_batch: `dancer.sudoku.solve_batch(puzzles, threads=None)` on 17_clue.txt repeated to
  --batch-puzzles puzzles (default 2,000,000);
- rate: `dancer.sudoku.rate(...)` of the first puzzle of forum_hardest_1905_11plus.txt (seconds).

A trial whose child does not answer within --timeout seconds (default 30) is
killed and counted as a timeout. A case whose latency passes --stop-over
seconds (default 1) stops after that trial (the next ones would say the same,
slowly). A call that ends before the signal makes the trial invalid: the call
is too short on this machine.

    python bench/python/interrupt.py [--trials 10] [--cases count-1,list] [--json PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

import benchlib  # noqa: E402

CASES = {
    "count-1": "Problem.count(threads=1), queens-15",
    "count-all": "Problem.count(threads=os.cpu_count()), queens-16",
    "list": "list(Problem.solutions()), queens-15",
    "solve_batch": "sudoku.solve_batch(threads=None), 17_clue repeated",
    "rate": "sudoku.rate, forum_hardest_1905_11plus line 1",
}


def queens(n: int) -> Tuple[List[str], List[str], List[List[str]]]:
    """n queens: rows and columns primary, diagonals secondary (the file's order: rows, columns)."""
    primary = [f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]
    secondary = [f"a{s}" for s in range(2 * n - 1)] + [f"b{d}" for d in range(2 * n - 1)]
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}"] for i in range(n) for j in range(n)]
    return primary, secondary, options


def child(case: str, batch_puzzles: int) -> int:
    """Builds the case's input, says "ready", makes the call; prints when it was interrupted."""
    import dancer

    # Ctrl-C raises KeyboardInterrupt even where the parent was started
    # with SIGINT ignored (a background job of a script), which Python
    # would otherwise keep
    signal.signal(signal.SIGINT, signal.default_int_handler)

    call: Callable[[], object]
    if case in ("count-1", "count-all", "list"):
        n = 16 if case == "count-all" else 15
        primary, secondary, options = queens(n)
        p = dancer.Problem(options, secondary=secondary, primary=primary)
        if case == "list":
            call = lambda: list(p.solutions())  # noqa: E731
        else:
            t = 1 if case == "count-1" else benchlib.cores()
            call = lambda: p.count(threads=t)  # noqa: E731
    elif case == "solve_batch":
        base = benchlib.read_sudoku("17_clue.txt")
        puzzles = (base * (batch_puzzles // len(base) + 1))[:batch_puzzles]
        call = lambda: dancer.sudoku.solve_batch(puzzles, threads=None)  # noqa: E731
    elif case == "rate":
        puzzle = benchlib.read_sudoku("forum_hardest_1905_11plus.txt")[0]
        call = lambda: dancer.sudoku.rate(puzzle)  # noqa: E731
    else:
        print(f"unknown case {case}", file=sys.stderr)
        return 2
    print("ready", flush=True)
    start = time.monotonic()
    try:
        out = call()
    except KeyboardInterrupt:
        now = time.monotonic()
        print(f"interrupted {now!r} {now - start!r}", flush=True)
        return 0
    print(f"finished {time.monotonic()!r}", flush=True)
    del out
    return 0


class Trial(NamedTuple):
    latency: Optional[float]  # seconds; None when the trial did not give one
    outcome: str  # interrupted, timeout, too-short, error
    call: Optional[float] = None  # seconds from the call's start to KeyboardInterrupt


def readline(stream: Any, deadline: float) -> Optional[str]:
    """A line from the child's stdout, or None at the deadline (the pipe is read unbuffered: os.read)."""
    buf = b""
    fd = stream.fileno()
    while not buf.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 1)
        if not chunk:
            return buf.decode() if buf else None
        buf += chunk
    return buf.decode()


def trial(case: str, delay: float, timeout: float, batch_puzzles: int) -> Trial:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", case, "--batch-puzzles", str(batch_puzzles)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        line = readline(proc.stdout, time.monotonic() + 120)
        if line is None or line.strip() != "ready":
            proc.kill()
            err = proc.communicate()[1].decode(errors="replace").strip()
            return Trial(None, f"error: no 'ready' ({line!r}) {err[-500:]}")
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        line = readline(proc.stdout, sent + timeout)
        if line is None:
            proc.kill()
            proc.communicate()
            return Trial(None, "timeout")
        word, *when = line.split()
        proc.communicate(timeout=timeout)
        if word == "interrupted":
            return Trial(float(when[0]) - sent, "interrupted", float(when[1]))
        if word == "finished" and float(when[0]) < sent:
            return Trial(None, "too-short")
        return Trial(None, f"error: {line.strip()!r}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--trials", type=int, default=10, help="trials per case (default 10)")
    ap.add_argument("--cases", default=",".join(CASES), help="comma-separated subset of: " + ", ".join(CASES))
    ap.add_argument("--delay", type=float, default=0.4, help="seconds from 'ready' to SIGINT (default 0.4)")
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds a child has to answer SIGINT (default 30)")
    ap.add_argument("--goal-ms", type=float, default=100.0, help="the latency aimed at, ms (default 100)")
    ap.add_argument("--batch-puzzles", type=int, default=2_000_000, help="solve_batch's puzzles (default 2,000,000)")
    ap.add_argument("--stop-over", type=float, default=1.0, metavar="S",
                    help="a case whose latency passes S seconds stops after that trial (default 1; 0: never)")
    ap.add_argument("--check", action="store_true", help="exit 1 when a case misses the goal")
    ap.add_argument("--json", type=Path, metavar="PATH", help="write every trial to PATH as JSON")
    ap.add_argument("--child", metavar="CASE", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        return child(a.child, a.batch_puzzles)
    cases = [c for c in a.cases.split(",") if c]
    if set(cases) - set(CASES):
        ap.error(f"unknown cases: {', '.join(sorted(set(cases) - set(CASES)))}")
    if a.trials < 1:
        ap.error("--trials must be at least 1")

    benchlib.import_dancer()
    if "solve_batch" in cases:
        benchlib.data_file("sudoku", "17_clue.txt")
    if "rate" in cases:
        benchlib.data_file("sudoku", "forum_hardest_1905_11plus.txt")
    benchlib.print_header("Ctrl-C latency of long dancer calls")
    print(f"{a.trials} trials per case; SIGINT {a.delay:g} s after the child's 'ready'; goal under {a.goal_ms:g} ms\n", flush=True)

    results: Dict[str, List[Trial]] = {}
    for case in cases:
        trials: List[Trial] = []
        for _ in range(a.trials):
            t = trial(case, a.delay, a.timeout, a.batch_puzzles)
            trials.append(t)
            shown = f"{t.latency * 1000:.1f} ms (call {t.call:.2f} s)" if t.latency is not None and t.call else t.outcome
            print(f"  {case}: {shown}", file=sys.stderr, flush=True)
            if t.outcome != "interrupted" or (a.stop_over > 0 and t.latency is not None and t.latency > a.stop_over):
                break
        results[case] = trials

    head = ["case", "call", "trials", "median ms", "max ms", "call s until raised (median)", f"under {a.goal_ms:g} ms"]
    rows: List[List[str]] = []
    missed: List[str] = []
    for case, trials in results.items():
        lat = [t.latency * 1000 for t in trials if t.latency is not None]
        other = [t.outcome for t in trials if t.latency is None]
        good = bool(lat) and not other and max(lat) < a.goal_ms
        if not good:
            missed.append(case)
        note = "yes" if good else "**no**"
        if other:
            note += f" ({', '.join(dict.fromkeys(other))})"
        if lat and a.stop_over > 0 and max(lat) > a.stop_over * 1000 and len(trials) < a.trials:
            note += f" (stopped after {len(trials)}: over {a.stop_over:g} s)"
        calls = [t.call for t in trials if t.call is not None]
        rows.append([
            case,
            CASES[case],
            str(len(trials)),
            f"{benchlib.median(lat):.1f}" if lat else "—",
            f"{max(lat):.1f}" if lat else "—",
            f"{benchlib.median(calls):.2f}" if calls else "—",
            note,
        ])
    print(benchlib.markdown(head, rows, [False, False, True, True, True, True, False]))
    print()
    if any(t.outcome == "too-short" for ts in results.values() for t in ts):
        print("too-short: the call ended before the signal; this machine needs a longer call.\n")

    if a.json:
        dump: Dict[str, Any] = {
            "script": "bench/python/interrupt.py",
            "machine": benchlib.machine(),
            "delay_s": a.delay,
            "results": {
                case: [{"latency_s": t.latency, "outcome": t.outcome, "call_s": t.call} for t in trials] for case, trials in results.items()
            },
        }
        a.json.write_text(json.dumps(dump, indent=1) + "\n")
        print(f"trials written to {a.json}")
    return 1 if missed and a.check else 0


if __name__ == "__main__":
    sys.exit(main())
