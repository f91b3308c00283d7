#!/usr/bin/env bash
# Counting against Knuth's DLX6, side by side (docs/memos-and-zdds.md: "Counting with
# memos"). DLX6 is built for measurement only, never committed:
#
#   ctangle dlx6.w && gcc -O2 -o dlx6 dlx6.c gb_flip.c
#
# Usage: bench/memo.sh DLX6 [REPEATS]   (from the repository root, after
# `cargo build --release -p dancer-cli`; needs GNU time at /usr/bin/time)
#
# For each problem, round-robin REPEATS times: DLX6, `dancer solve --count`
# (auto: memos where they pay, else the engine it picks; one thread) and
# `dancer solve --count --memo`. Prints a Markdown table: median seconds of
# the whole process and the largest resident memory (MB), and the ratios to
# DLX6. A run over TIMEOUT seconds (default 120) is stopped and shown as such.
set -euo pipefail
dlx6=${1:?usage: bench/memo.sh DLX6 [REPEATS]}
reps=${2:-3}
timeout=${TIMEOUT:-120}
dancer=${DANCER:-target/release/dancer}
shared=${SHARED:-../shared/data/dlx}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the problems: DLX files, made by dancer where they are not shared
board() { # NAME W H: dominoes on a W x H board
    printf 'name = "%s"\n[board]\nrect = [%s, %s]\n[[piece]]\nname = "D"\nshape = "##"\ncount = "any"\n' "$1" "$2" "$3" > "$tmp/$1.toml"
    "$dancer" poly export "$tmp/$1.toml" --no-symmetry-breaking > "$tmp/$1.dlx"
}
for n in 8 10 12 14 16; do board "dominoes-${n}x$n" "$n" "$n"; done
cp "$shared/pent-6x10.dlx" "$shared/pent-6x10-sym.dlx" "$shared/queens-13.dlx" \
    "$shared/langford-11.dlx" "$tmp/"
"$dancer" poly export pentomino-5x12 > "$tmp/pentomino-5x12.dlx"
"$dancer" poly export scott --no-symmetry-breaking > "$tmp/scott-all.dlx"
"$dancer" gen langford 12 > "$tmp/langford-12.dlx"
printf 'name = "pentacube box"\n[board]\nbox = [6, 5, 2]\n[[piece]]\nset = "pentominoes"\n' > "$tmp/box.toml"
"$dancer" poly export "$tmp/box.toml" --no-symmetry-breaking > "$tmp/pentacube-2x5x6.dlx"
problems="dominoes-8x8 dominoes-10x10 dominoes-12x12 dominoes-14x14 dominoes-16x16
pent-6x10 pent-6x10-sym pentomino-5x12 scott-all queens-13 langford-11 langford-12
pentacube-2x5x6"

# one run: "seconds maxrss_kb" (or "timeout")
one() {
    if /usr/bin/time -o "$tmp/time" -f "%e %M" timeout "$timeout" "$@" > "$tmp/out" 2> "$tmp/err"; then
        tail -1 "$tmp/time"
    else
        echo timeout
    fi
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "timeout")}'; }

echo "| problem | solutions | DLX6 s (MB) | auto s (MB, pick) | --memo s (MB) | auto / DLX6 | memo / DLX6 |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for p in $problems; do
    f="$tmp/$p.dlx"
    : > "$tmp/k"; : > "$tmp/a"; : > "$tmp/m"
    sols="" pick=""
    for _ in $(seq "$reps"); do
        one "$dlx6" < "$f" >> "$tmp/k"   # DLX6 reads standard input
        one "$dancer" solve --count --threads 1 "$f" >> "$tmp/a"
        sols=$(cat "$tmp/out")
        pick=$(grep -oE '^(memo|engine [a-z]+)' "$tmp/err" | head -1)
        one "$dancer" solve --count --memo "$f" >> "$tmp/m"
    done
    cell() { # FILE: "median (MB)"
        if grep -q timeout "$1"; then echo "over $timeout"; return; fi
        local s mb
        s=$(awk '{print $1}' "$1" | median)
        mb=$(awk '{print $2}' "$1" | sort -g | tail -1)
        echo "$s ($((mb / 1024)))"
    }
    ratio() { # FILE: median / DLX6's median
        if grep -q timeout "$1" || grep -q timeout "$tmp/k"; then echo "-"; return; fi
        awk -v a="$(awk '{print $1}' "$1" | median)" -v k="$(awk '{print $1}' "$tmp/k" | median)" \
            'BEGIN { if (k > 0) printf "%.2f", a / k; else print "-" }'
    }
    echo "| $p | $sols | $(cell "$tmp/k") | $(cell "$tmp/a"), $pick | $(cell "$tmp/m") | $(ratio "$tmp/a") | $(ratio "$tmp/m") |"
done
