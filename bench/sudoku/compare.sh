#!/usr/bin/env bash
# Side-by-side Sudoku benchmark: dancer_sudoku::fast9 against the `sudoku`
# crate, on the public puzzle sets in ../shared/data/sudoku (beside the
# checkout). Builds both runners, runs them alternately (dancer, crate,
# dancer, ...) REPEAT times (default 5) on each file, one process at a time,
# and prints the median puzzles/s of each, the ratio, and the solution-count
# classes, which must agree with each other and with what each set is known
# to be. Exits 1 on any disagreement or wrong solution, 0 otherwise (also
# when the shared sets are absent: then it says SKIPPED).
#
#   bench/sudoku/compare.sh                 # all four sets, 5 rounds
#   REPEAT=3 bench/sudoku/compare.sh 17_clue  # some sets only
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
data="$root/../shared/data/sudoku"
repeat="${REPEAT:-5}"

if [ ! -d "$data" ]; then
    echo "SKIPPED: $data is absent (the shared puzzle sets live in shared/ beside the checkout)"
    exit 0
fi

# file stem -> expected class of every puzzle
declare -A expect=(
    [17_clue]=unique
    [magictour_top1465]=unique
    [forum_hardest_1905_11plus]=unique
    [serg_benchmark]=multiple
)
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(17_clue magictour_top1465 forum_hardest_1905_11plus serg_benchmark)

echo "== building (release: lto fat, codegen-units 1, opt-level 3, panic abort)"
cargo build --release --quiet --manifest-path "$here/Cargo.toml"
bin="$here/target/release"

field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p"; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

status=0
printf '\n%-28s %9s %14s %14s %7s %14s %14s %7s  %s\n' file puzzles "dancer p/s" "crate p/s" ratio "dancer cpu p/s" "crate cpu p/s" ratio "unique/multiple/none"
for stem in "${files[@]}"; do
    f="$data/$stem.txt"
    if [ ! -f "$f" ]; then
        echo "SKIPPED: $f is absent"
        continue
    fi
    dw="" cw="" dc="" cc="" dcls="" ccls="" n=""
    for _ in $(seq "$repeat"); do
        if ! d=$("$bin/runner-dancer-fast9" "$f"); then
            echo "FAILED: runner-dancer-fast9 $f (wrong solution?)" >&2
            status=1
        fi
        c=$("$bin/runner-sudoku-crate" "$f")
        dw="$dw $(echo "$d" | field puzzles_per_second)"
        cw="$cw $(echo "$c" | field puzzles_per_second)"
        dc="$dc $(echo "$d" | field cpu_puzzles_per_second)"
        cc="$cc $(echo "$c" | field cpu_puzzles_per_second)"
        n=$(echo "$d" | field puzzles)
        dcls="$(echo "$d" | field unique)/$(echo "$d" | field multiple)/$(echo "$d" | field none)"
        ccls="$(echo "$c" | field unique)/$(echo "$c" | field multiple)/$(echo "$c" | field none)"
    done
    mdw=$(echo "$dw" | median); mcw=$(echo "$cw" | median)
    ratio=$(awk -v a="$mdw" -v b="$mcw" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')
    if echo "$dc" | grep -q null; then
        mdc="n/a"; mcc="n/a"; cratio="n/a"
    else
        mdc=$(echo "$dc" | median); mcc=$(echo "$cc" | median)
        cratio=$(awk -v a="$mdc" -v b="$mcc" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')
    fi
    printf '%-28s %9s %14.0f %14.0f %7s %14s %14s %7s  dancer %s, crate %s\n' \
        "$stem" "$n" "$mdw" "$mcw" "$ratio" "$mdc" "$mcc" "$cratio" "$dcls" "$ccls"
    case "${expect[$stem]:-}" in
        unique) want="$n/0/0" ;;
        multiple) want="0/$n/0" ;;
        *) want="$dcls" ;;
    esac
    if [ "$dcls" != "$ccls" ] || [ "$dcls" != "$want" ]; then
        echo "MISMATCH on $stem: dancer $dcls, crate $ccls, expected $want" >&2
        status=1
    fi
done
echo
echo "p/s: median puzzles per second of $repeat runs (wall clock; cpu: the process's CPU time),"
echo "stop at 2 solutions; ratio = dancer / crate. Classes: unique/multiple/none."
exit $status
