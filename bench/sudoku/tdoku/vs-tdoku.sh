#!/usr/bin/env bash
# `dancer sudoku solve --threads 1` (the whole process: start, reading,
# solving to 2 solutions, checking every answer, writing) against tdoku's
# solver loop (loop.cc: puzzles read first, only the loop timed, limit 2),
# side by side: REPEAT rounds (default 9) alternating the two on each public
# set in ../shared/data/sudoku; prints the median puzzles/s (CPU time) of
# each and the median of the rounds' ratios (dancer's rate over tdoku's).
#
# tdoku (BSD 2-clause) is not ours and is never committed here. Point
# TDOKU_SRC at a checkout of github.com/t-dillon/tdoku (its src/ and
# include/ are enough); the loop is built with g++ -O3 -march=native.
#
#   TDOKU_SRC=/path/to/tdoku bench/sudoku/tdoku/vs-tdoku.sh
#   REPEAT=5 TDOKU_SRC=... bench/sudoku/tdoku/vs-tdoku.sh serg_benchmark
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
data="$root/../shared/data/sudoku"
repeat="${REPEAT:-9}"
if [ -z "${TDOKU_SRC:-}" ] || [ ! -f "$TDOKU_SRC/src/solver_dpll_triad_simd.cc" ]; then
    echo "SKIPPED: set TDOKU_SRC to a tdoku checkout (src/solver_dpll_triad_simd.cc)"
    exit 0
fi
if [ ! -d "$data" ]; then
    echo "SKIPPED: $data is absent (the shared puzzle sets live in shared/ beside the checkout)"
    exit 0
fi
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(17_clue magictour_top1465 forum_hardest_1905_11plus serg_benchmark)

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
g++ -O3 -march=native -std=c++17 -I"$TDOKU_SRC/src" -I"$TDOKU_SRC/include" -o "$out/tdoku-loop" \
    "$here/loop.cc" "$TDOKU_SRC/src/solver_dpll_triad_simd.cc" "$TDOKU_SRC/src/util.cc"
cargo build --release --quiet --manifest-path "$root/Cargo.toml" -p dancer-cli
dancer="$root/target/release/dancer"

python3 - "$repeat" "$out/tdoku-loop" "$dancer" "$data" "${files[@]}" <<'PY'
import json, os, resource, statistics as st, subprocess, sys

repeat, tdoku, dancer, data = int(sys.argv[1]), *sys.argv[2:5]

def cpu(args):
    """CPU seconds (user + system) of one child process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"{args} exited {p.returncode}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p.stdout

print(f"{'set':27} {'tdoku loop p/s':>14} {'dancer solve p/s':>16} {'ratio':>6}")
for stem in sys.argv[5:]:
    path = os.path.join(data, stem + ".txt")
    with open(path) as f:
        n = sum(1 for l in f if len(l.strip()) >= 81 and not l.startswith("#"))
    t_rates, d_rates = [], []
    for _ in range(repeat):
        _, o = cpu([tdoku, path])
        t_rates.append(n / json.loads(o)["cpu_seconds"])
        t, _ = cpu([dancer, "sudoku", "solve", "--threads", "1", path])
        d_rates.append(n / t)
    ratio = st.median(d / t for d, t in zip(d_rates, t_rates))
    print(f"{stem:27} {st.median(t_rates):14.0f} {st.median(d_rates):16.0f} {ratio:6.2f}")
PY
