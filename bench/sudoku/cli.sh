#!/usr/bin/env bash
# The Sudoku command line against the library loop it calls: for each public
# set in ../shared/data/sudoku, REPEAT rounds (default 7) of
#   runner-dancer-fast9 FILE            (fast9 alone: parsed first, loop timed)
#   dancer sudoku solve --threads 1 FILE > out      (whole process)
#   dancer sudoku count --limit 2 --threads 1 FILE > out
# and the batch's own throughput line on 1 and 2 threads (wall clock, from
# after reading the input to the last line written). Prints medians and the
# ratios: CLI CPU time of the whole process against the runner's CPU time of
# its loop, per round, then the median of the rounds' ratios; 2 threads
# against 1. Needs python3 (for the CPU time of each child, in microseconds).
# Exits 0, also when the shared sets are absent (then it says SKIPPED).
#
#   bench/sudoku/cli.sh                     # all four sets, 7 rounds
#   REPEAT=3 bench/sudoku/cli.sh 17_clue    # some sets only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
data="$root/../shared/data/sudoku"
repeat="${REPEAT:-7}"

if [ ! -d "$data" ]; then
    echo "SKIPPED: $data is absent (the shared puzzle sets live in shared/ beside the checkout)"
    exit 0
fi
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(17_clue magictour_top1465 forum_hardest_1905_11plus serg_benchmark)

echo "== building the runner and dancer (release)"
cargo build --release --quiet --manifest-path "$here/Cargo.toml" -p runner-dancer-fast9
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p dancer-cli
runner="$here/target/release/runner-dancer-fast9"
dancer="$root/target/release/dancer"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

python3 - "$repeat" "$runner" "$dancer" "$out" "$data" "${files[@]}" <<'PY'
import json, os, re, resource, statistics as st, subprocess, sys

repeat, runner, dancer, out, data = int(sys.argv[1]), *sys.argv[2:6]
files = sys.argv[6:]

def cpu(args, stdout):
    """CPU seconds (user + system) of one child process, and its stderr."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(stdout, "w") as f:
        p = subprocess.run(args, stdout=f, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"{args} exited {p.returncode}: {p.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p.stderr

def rate(stderr):
    return float(re.search(r"([0-9.]+) puzzles/s", stderr).group(1))

print(f"{'set':27} {'fast9 loop':>10} {'solve':>9} {'ratio':>5} {'count2':>9} {'ratio':>5}"
      f" {'1 thread':>9} {'2 threads':>9} {'ratio':>5}")
for stem in files:
    path = os.path.join(data, stem + ".txt")
    with open(path) as f:
        n = sum(1 for l in f if l.strip() and not l.lstrip().startswith("#"))
    lib, solve, count, one, two = [], [], [], [], []
    for _ in range(repeat):
        r = json.loads(subprocess.run([runner, path], capture_output=True, text=True, check=True).stdout)
        lib.append(r["cpu_puzzles_per_second"] or r["puzzles_per_second"])
        t, _ = cpu([dancer, "sudoku", "solve", "--threads", "1", path], os.path.join(out, "solve"))
        solve.append(n / t)
        t, _ = cpu([dancer, "sudoku", "count", "--limit", "2", "--threads", "1", path],
                   os.path.join(out, "count"))
        count.append(n / t)
        for threads, acc in ((1, one), (2, two)):
            _, err = cpu([dancer, "sudoku", "solve", "--threads", str(threads), path],
                         os.path.join(out, "threads"))
            acc.append(rate(err))
    ratio = lambda a, b: st.median(x / y for x, y in zip(a, b))
    print(f"{stem:27} {st.median(lib):10.0f} {st.median(solve):9.0f} {ratio(solve, lib):5.2f}"
          f" {st.median(count):9.0f} {ratio(count, lib):5.2f}"
          f" {st.median(one):9.0f} {st.median(two):9.0f} {ratio(two, one):5.2f}")
PY
