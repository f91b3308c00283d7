#!/usr/bin/env python3
"""`dancer solve` (engine auto, one thread) against Knuth's DLX1 and SSXC1,
side by side: CONTRIBUTING.md's table of families ("auto / best Knuth").

Knuth's programs are built for measurement only, outside the repository,
never committed (CWEB sources: dlx1.w, ssxc1.w, gb_flip.w; ctangle is in
Debian's texlive-binaries):

    ctangle dlx1.w && ctangle ssxc1.w && ctangle gb_flip.w
    gcc -O2 -o dlx1 dlx1.c gb_flip.c && gcc -O2 -o ssxc1 ssxc1.c

Usage (from the repository root, after `cargo build --release -p dancer-cli`):

    python3 bench/knuth.py --dlx1 PATH --ssxc1 PATH [--repeat 5] [PROBLEM ...]

A PROBLEM is
  NAME.dlx or a path        a DLX file (NAME alone: ../shared/data/dlx/NAME.dlx)
  poly:PUZZLE               `dancer poly export PUZZLE` (a built-in name or a TOML file)
  poly-all:PUZZLE           the same with --no-symmetry-breaking
  gen:KIND:N                `dancer gen KIND N` (queens, langford, ...)
With none, CONTRIBUTING.md's rows (pentomino boards, Scott, npent-5x5x5, queens,
Langford).

Every run is a fresh process; the programs go round-robin (DLX1, SSXC1,
dancer, DLX1, ...) so that a slow spell of the machine hits all alike. The
time is the CPU time of the whole process (user + system, from wait4's
rusage: microseconds, not GNU time's hundredths), start-up, reading and
search together; each cell is the median, and the spread column gives
max/min - 1 of each program's runs, a measure of the noise. DLX1 and SSXC1
run with their default verbosity (their totals on stderr, no solutions
printed); dancer as `dancer solve FILE --count --threads 1`. With --json
FILE every run's CPU and wall seconds go to FILE too, a record a problem.

Knuth's programs take item names of at most 8 characters, and neither takes
colours (`x:c`) nor multiplicities (`u:v|x`). A file with longer names is
renamed for them (items numbered in base 36, same order, so the same search
tree); an item `0:1|x` (a piece that may be left out) is a secondary item
for them, as Knuth writes such problems; a file with colours or other
multiplicities is shown as unsupported. The
counts must agree: a row whose programs disagree says MISMATCH and the
script exits with status 1.
"""
import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time

DEFAULT = [
    "pent-6x10",
    "pent-6x10-sym",
    "poly:pentomino-5x12",
    "poly-all:scott",
    "poly:npent-5x5x5",
    "queens-13",
    "gen:queens:14",
    "langford-11",
    "gen:langford:12",
]


def run(cmd, stdin_path, timeout):
    """One process: (cpu seconds, wall seconds, max rss KiB, stdout, stderr) or None on timeout."""
    with open(stdin_path if stdin_path else os.devnull, "rb") as fin, tempfile.TemporaryFile() as fout, tempfile.TemporaryFile() as ferr:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdin=fin, stdout=fout, stderr=ferr, start_new_session=True)
        deadline = start + timeout
        while True:
            pid, status, ru = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                os.killpg(p.pid, signal.SIGKILL)
                os.wait4(p.pid, 0)
                p.returncode = -9
                return None
            time.sleep(0.002)
        wall = time.monotonic() - start
        p.returncode = os.waitstatus_to_exitcode(status)
        fout.seek(0)
        ferr.seek(0)
        out, err = fout.read().decode(errors="replace"), ferr.read().decode(errors="replace")
        if p.returncode not in (0, 1):  # dancer exits 1 when there is no solution
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {err.strip()[-400:]}")
        return ru.ru_utime + ru.ru_stime, wall, ru.ru_maxrss, out, err


def make_problem(spec, dancer, shared, tmp):
    """(label, path of the DLX file)."""
    def export(args, label):
        path = os.path.join(tmp, re.sub(r"[^A-Za-z0-9._-]", "_", label) + ".dlx")
        with open(path, "wb") as f:
            subprocess.run([dancer] + args, stdout=f, check=True)
        return label, path

    if spec.startswith("poly:"):
        return export(["poly", "export", spec[5:]], spec[5:])
    if spec.startswith("poly-all:"):
        return export(["poly", "export", spec[9:], "--no-symmetry-breaking"], spec[9:] + " (all)")
    if spec.startswith("gen:"):
        _, kind, n = spec.split(":")
        return export(["gen", kind, n], f"{kind}-{n}")
    if os.path.exists(spec):
        return os.path.basename(spec).removesuffix(".dlx"), spec
    path = os.path.join(shared, spec + ".dlx")
    if not os.path.exists(path):
        sys.exit(f"no such problem: {spec} (looked for {path})")
    return spec + " (shared)", path


def for_knuth(path, tmp):
    """A file DLX1 and SSXC1 read: (path, note) or (None, why not)."""
    lines = open(path).read().split("\n")
    head = next(i for i, l in enumerate(lines) if l.strip() and not l.lstrip().startswith("|"))
    items = lines[head].split()
    notes = []
    optional = [t for t in items if t.startswith("0:1|")]
    if optional:
        # a primary item to cover at most once is a secondary item
        cut = items.index("|") if "|" in items else len(items)
        plain = [t for t in items[:cut] if t not in optional]
        items = plain + ["|"] + [t[4:] for t in optional] + items[cut + 1:]
        notes.append("items 0:1 made secondary")
    if any("|" in t and t != "|" for t in items):
        return None, "multiplicities"
    names = [t for t in items if t != "|"]
    if any(":" in t for l in lines[head + 1:] for t in l.split()):
        return None, "colours"
    if all(len(n) <= 8 for n in names) and not notes:
        return path, ""

    def base36(k):
        s = ""
        while True:
            k, r = divmod(k, 36)
            s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
            if k == 0:
                return s

    if all(len(n) <= 8 for n in names):
        short = {n: n for n in names}
    else:
        short = {n: base36(i) for i, n in enumerate(names)}
        notes.append("item names renamed to 8 characters or fewer")
    out = [" ".join(short.get(t, t) for t in items)]
    for l in lines[head + 1:]:
        if l.strip() and not l.lstrip().startswith("|"):
            out.append(" ".join(short[t] for t in l.split()))
    renamed = os.path.join(tmp, os.path.basename(path).removesuffix(".dlx") + "-short.dlx")
    with open(renamed, "w") as f:
        f.write("\n".join(out) + "\n")
    return renamed, "; ".join(notes)


def knuth_count(err):
    m = re.search(r"Altogether (\d+) solutions?", err)
    return int(m.group(1)) if m else None


def fmt_s(x):
    if x is None:
        return "-"
    return f"{x:.3f} s" if x < 1 else (f"{x:.2f} s" if x < 10 else f"{x:.1f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dlx1", required=True)
    ap.add_argument("--ssxc1", required=True)
    ap.add_argument("--dancer", default="target/release/dancer")
    ap.add_argument("--shared", default="../shared/data/dlx")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", metavar="FILE", help="also write one JSON record per problem (every run's times) to FILE")
    ap.add_argument("problems", nargs="*")
    a = ap.parse_args()

    tmp = tempfile.mkdtemp()
    bad = False
    records = open(a.json, "w") if a.json else None
    print(f"One thread, CPU seconds of whole processes, medians of {a.repeat}, round-robin.\n")
    print("| problem | solutions | DLX1 | SSXC1 | auto (its pick) | auto / best Knuth | spread DLX1 / SSXC1 / auto |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for spec in a.problems or DEFAULT:
        label, path = make_problem(spec, a.dancer, a.shared, tmp)
        kpath, note = for_knuth(path, tmp)
        progs = {"auto": ([a.dancer, "solve", path, "--count", "--threads", "1"], None)}
        if kpath:
            progs = {"DLX1": ([a.dlx1], kpath), "SSXC1": ([a.ssxc1], kpath), **progs}
        times = {k: [] for k in progs}
        walls = {k: [] for k in progs}
        counts, picks, timed_out = {}, [], set()
        for _ in range(a.repeat):
            for name, (cmd, stdin) in progs.items():
                if name in timed_out:
                    continue
                r = run(cmd, stdin, a.timeout)
                if r is None:
                    timed_out.add(name)
                    continue
                cpu, wall, _rss, out, err = r
                times[name].append(cpu)
                walls[name].append(wall)
                if name == "auto":
                    counts[name] = int(out.split()[0])
                    m = re.search(r"^(engine \w+|memo)", err, re.M)
                    picks.append(m.group(1).removeprefix("engine ") if m else "?")
                else:
                    counts[name] = knuth_count(err)
        med = {k: (statistics.median(v) if v and k not in timed_out else None) for k, v in times.items()}
        spread = {k: (max(v) / min(v) - 1 if v and min(v) > 0 else None) for k, v in times.items()}
        knuth = [med[k] for k in ("DLX1", "SSXC1") if med.get(k) is not None]
        ratio = med["auto"] / min(knuth) if knuth and med["auto"] is not None else None
        agree = len(set(counts.values())) <= 1
        bad |= not agree
        sols = counts.get("auto", next(iter(counts.values()), None))
        # auto weighs engines by random probes: say every pick it made
        pick = ", ".join(f"{e} {picks.count(e)}x" if len(set(picks)) > 1 else e
                         for e in sorted(set(picks), key=lambda e: -picks.count(e)))
        if records:
            print(json.dumps({"problem": label, "file": path, "solutions": sols, "counts": counts,
                              "agree": agree, "picks": picks, "cpu": times, "wall": walls,
                              "median": med, "ratio": ratio, "timeout": sorted(timed_out),
                              "knuth_input": note or None}), file=records, flush=True)

        def cell(k):
            if k not in progs:
                return f"unsupported ({note})"
            return f"over {a.timeout:g} s" if k in timed_out else fmt_s(med[k])

        def pct(k):
            return "-" if spread.get(k) is None else f"{100 * spread[k]:.0f}%"

        extra = "" if agree else f" **MISMATCH** {counts}"
        if note and kpath:
            extra += f" ({note})"
        print(f"| {label}{extra} | {'-' if sols is None else f'{sols:,}'} | {cell('DLX1')} | {cell('SSXC1')} | {cell('auto')} ({pick}) | "
              f"{'-' if ratio is None else f'{ratio:.2f}'} | {pct('DLX1')} / {pct('SSXC1')} / {pct('auto')} |",
              flush=True)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
