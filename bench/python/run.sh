#!/usr/bin/env bash
# Runs dancer's Python benchmarks (bench/python) from scratch: a virtual
# environment with the peers (requirements.txt) and dancer built from
# crates/dancer-py, the dancer binary, then count.py, sudoku.py, overhead.py
# and interrupt.py in that order. Markdown tables on standard output (and in
# $OUT/NAME.md), every sample in $OUT/NAME.json.
#
#   bench/python/run.sh                 # from anywhere in the checkout
#   VENV=/tmp/venv RUNS=3 bench/python/run.sh
#
# Environment: VENV (default target/bench-venv), PYTHON (the interpreter that
# makes the venv, default python3), OUT (default target/bench-python), RUNS
# (count.py's and overhead.py's runs; default theirs: 5 and 7), DANCER_SHARED
# (the shared data; default ../shared beside the checkout or above it),
# DANCER_BIN (default ${CARGO_TARGET_DIR:-target}/release/dancer).
# Exit status: 1 when a script failed (a wrong count or answer), else 0.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

VENV="${VENV:-target/bench-venv}"
PYTHON="${PYTHON:-python3}"
OUT="${OUT:-target/bench-python}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating the virtual environment $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi
py="$VENV/bin/python"

echo "== installing the peers (bench/python/requirements.txt)" >&2
"$py" -m pip install --quiet -r bench/python/requirements.txt
echo "== building and installing dancer's Python package (crates/dancer-py)" >&2
"$py" -m pip install --quiet ./crates/dancer-py
echo "== building the dancer binary" >&2
cargo build --release -p dancer-cli
export DANCER_BIN="${DANCER_BIN:-${CARGO_TARGET_DIR:-target}/release/dancer}"

mkdir -p "$OUT"
status=0
run() {
    local name="$1"
    shift
    echo "== bench/python/$name.py $*" >&2
    "$py" "bench/python/$name.py" "$@" --json "$OUT/$name.json" | tee "$OUT/$name.md" || status=1
}
run count ${RUNS:+"$RUNS"}
run sudoku
run overhead ${RUNS:+"$RUNS"}
run interrupt
echo "== tables in $OUT/*.md, samples in $OUT/*.json" >&2
exit "$status"
