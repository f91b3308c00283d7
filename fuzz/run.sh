#!/usr/bin/env bash
# A short fuzzing check of every target: fuzz/run.sh [SECONDS] [TARGET...]
#
# Runs each fuzz target (all of them unless some are named) for SECONDS
# (default 60) with cargo-fuzz (libFuzzer, AddressSanitizer, debug
# assertions and overflow checks on), starting from a scratch copy of its
# committed corpus (fuzz/work/TARGET; fuzz/corpus/ is never written), with
# its dictionary. Prints per target the executions, executions per second
# and coverage, and exits non-zero when a target found a crash, a panic, a
# timeout or an out-of-memory: the input is then in fuzz/artifacts/TARGET/
# (see fuzz/README.md for minimising it), the log in fuzz/logs/TARGET.log.
#
# Needs the nightly toolchain and a C++ compiler (for libFuzzer); installs
# nightly (with rustup) and cargo-fuzz if they are missing, and nothing
# else. Works as root. Environment: FUZZ_TIMEOUT (seconds one
# input may take before it counts as a timeout, default 10), FUZZ_RSS_MB
# (default 2048).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: fuzz/run.sh [SECONDS] [TARGET...]" >&2
    exit 2
fi
shift || true

all_targets=(dlx_text json_problem sudoku_text poly_toml burr_file burr_shape shard_files zdd_text sudoku_parts output_paths solution_stream)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=("${all_targets[@]}")
fi

# Per target: its dictionary and the longest input worth generating (each
# target also skips larger inputs itself).
dict_of() {
    case "$1" in
        dlx_text) echo fuzz/dict/dlx.dict ;;
        json_problem) echo fuzz/dict/json.dict ;;
        sudoku_text) echo fuzz/dict/sudoku.dict ;;
        poly_toml) echo fuzz/dict/toml.dict ;;
        burr_file) echo fuzz/dict/burr.dict ;;
        burr_shape) echo fuzz/dict/burr_shape.dict ;;
        shard_files) echo fuzz/dict/shard.dict ;;
        zdd_text) echo fuzz/dict/zdd.dict ;;
        sudoku_parts) echo fuzz/dict/sudoku_parts.dict ;;
        output_paths) echo fuzz/dict/output_paths.dict ;;
        solution_stream) echo fuzz/dict/solution_stream.dict ;;
        *) echo "unknown fuzz target $1 (known: ${all_targets[*]})" >&2; exit 2 ;;
    esac
}
max_len_of() {
    case "$1" in
        dlx_text | json_problem) echo 2048 ;;
        sudoku_text | poly_toml | burr_file) echo 1024 ;;
        shard_files | sudoku_parts) echo 4096 ;;
        zdd_text) echo 2048 ;;
        output_paths | burr_shape) echo 512 ;;
        solution_stream) echo 64 ;;
    esac
}
for t in "${targets[@]}"; do dict_of "$t" > /dev/null; done

if ! cargo +nightly --version > /dev/null 2>&1; then
    if command -v rustup > /dev/null; then
        echo "== installing the nightly toolchain"
        rustup toolchain install nightly --profile minimal
    else
        echo "fuzz/run.sh: the nightly toolchain is needed (rustup toolchain install nightly)" >&2
        exit 2
    fi
fi
if ! cargo +nightly fuzz --version > /dev/null 2>&1; then
    echo "== installing cargo-fuzz"
    cargo install cargo-fuzz --locked
fi

echo "== building the fuzz targets"
cargo +nightly fuzz build

mkdir -p fuzz/logs fuzz/work
status=0
summary=()
for t in "${targets[@]}"; do
    work="fuzz/work/$t"
    rm -rf "$work"
    mkdir -p "$work" "fuzz/artifacts/$t"
    cp fuzz/corpus/"$t"/* "$work"/
    log="fuzz/logs/$t.log"
    echo "== $t: ${seconds}s, corpus $(ls "$work" | wc -l) files, log $log"
    # crashes, timeouts, out-of-memory inputs (slow units are only reported)
    failures() { ls "fuzz/artifacts/$t" | { grep -v '^slow-unit-' || true; } | wc -l; }
    slow_units() { ls "fuzz/artifacts/$t" | grep -c '^slow-unit-' || true; }
    before=$(failures)
    slow_before=$(slow_units)
    rc=0
    cargo +nightly fuzz run "$t" "$work" -- \
        -dict="$(dict_of "$t")" \
        -max_total_time="$seconds" \
        -max_len="$(max_len_of "$t")" \
        -rss_limit_mb="${FUZZ_RSS_MB:-2048}" \
        -timeout="${FUZZ_TIMEOUT:-10}" \
        -print_final_stats=1 \
        > "$log" 2>&1 || rc=$?
    stat() { grep -a "^stat::$1:" "$log" | tail -1 | awk '{print $2}'; }
    runs=$(stat number_of_executed_units)
    eps=$(stat average_exec_per_sec)
    rss=$(stat peak_rss_mb)
    # libFuzzer's last status line: "#N DONE cov: C ft: F corp: K/S ..."
    last=$(grep -aE '^#[0-9]+' "$log" | tail -1 || true)
    cov=$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<< "$last")
    ft=$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<< "$last")
    corp=$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<< "$last")
    after=$(failures)
    slow=$(( $(slow_units) - slow_before ))
    line="$t: ${runs:-?} runs, ${eps:-?} exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}, peak rss ${rss:-?} MB"
    if [ "$slow" -gt 0 ]; then
        line="$line, $slow slow unit(s) in fuzz/artifacts/$t/ (over 10 s, not failures)"
    fi
    if [ "$rc" -ne 0 ] || [ "$after" -gt "$before" ]; then
        status=1
        newest=$(ls -t "fuzz/artifacts/$t" | { grep -v '^slow-unit-' || true; } | head -1)
        what=$(grep -aE "^==[0-9]+== ERROR|panicked at|ERROR: libFuzzer" "$log" | head -2 | tr '\n' ' ' || true)
        line="$line: FAILED (exit $rc) ${what}-> fuzz/artifacts/$t/${newest:-?}"
        # the panic message, for the summary
        grep -a -A3 "panicked at" "$log" | head -8 || true
    else
        line="$line: ok"
    fi
    echo "$line"
    summary+=("$line")
done

echo "== summary (${seconds}s per target)"
printf '%s\n' "${summary[@]}"
exit "$status"
