#!/usr/bin/env bash
# How the memoized count of the domino tilings of an n x n board grows with
# n: CSV on standard output (n, count, sub-problems solved, cache hits,
# seconds of the whole process (median), seconds of the count itself as its
# summary says (median), the process's largest resident memory in MB, the
# cache's peak in MB). The guide's plot (docs/memo-growth.svg, in docs/memos-and-zdds.md) is drawn
# from it by bench/plot-memo-growth.py.
#
# Usage: bench/memo-growth.sh [MAX_N] [REPEATS]   (from the repository root,
# after `cargo build --release -p dancer-cli`; GNU time at /usr/bin/time)
set -euo pipefail
max=${1:-20}
reps=${2:-3}
dancer=${DANCER:-target/release/dancer}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "n,count,nodes,hits,seconds,count_seconds,rss_mb,cache_mb"
for ((n = 2; n <= max; n += 2)); do
    printf 'name = "dominoes"\n[board]\nrect = [%s, %s]\n[[piece]]\nname = "D"\nshape = "##"\ncount = "any"\n' "$n" "$n" > "$tmp/b.toml"
    "$dancer" poly export "$tmp/b.toml" --no-symmetry-breaking > "$tmp/b.dlx"
    : > "$tmp/runs"
    : > "$tmp/counts"
    for _ in $(seq "$reps"); do
        /usr/bin/time -o "$tmp/time" -f "%e %M" "$dancer" solve "$tmp/b.dlx" --count --memo --json > "$tmp/out" 2> /dev/null
        cat "$tmp/time" >> "$tmp/runs"
        grep -oE '"seconds":[0-9.e-]+' "$tmp/out" | cut -d: -f2 >> "$tmp/counts"
    done
    csecs=$(sort -g "$tmp/counts" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    secs=$(awk '{print $1}' "$tmp/runs" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    rss=$(awk '{print $2}' "$tmp/runs" | sort -g | tail -1)
    # the summary record: {"type":"summary","solutions":N,"nodes":N,...,"memo":{"hits":N,...,"peak_bytes":N,...}}
    rec=$(cat "$tmp/out")
    field() { echo "$rec" | grep -oE "\"$1\":[0-9]+" | head -1 | cut -d: -f2; }
    echo "$n,$(field solutions),$(field nodes),$(field hits),$secs,$csecs,$((rss / 1024)),$(awk -v b="$(field peak_bytes)" 'BEGIN { printf "%.3f", b / 1048576 }')"
done
