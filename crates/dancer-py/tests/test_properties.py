"""Properties with planted solutions (hypothesis): a problem built around a
known exact cover has it among its solutions; the count equals brute
force; permuting items and options changes nothing but the order."""

from __future__ import annotations

import itertools
import random
from typing import FrozenSet, List, Tuple

from hypothesis import given, settings
from hypothesis import strategies as st

import dancer

Case = Tuple[List[List[int]], List[int]]


@st.composite
def planted(draw: st.DrawFn) -> Case:
    """Items 0..n-1 cut into blocks (the planted solution), plus random
    options; returns the options and the planted ones' numbers."""
    n = draw(st.integers(1, 9))
    items = list(range(n))
    random.Random(draw(st.integers(0, 2**32))).shuffle(items)
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
    blocks = [items[a:b] for a, b in zip([0] + cuts, cuts + [n])]
    extra = draw(st.lists(st.sets(st.integers(0, n - 1), min_size=1), max_size=8))
    options = blocks + [sorted(e) for e in extra]
    order = draw(st.permutations(range(len(options))))
    shuffled = [options[k] for k in order]
    planted_at = [order.index(k) for k in range(len(blocks))]
    return shuffled, planted_at


def brute(options: List[List[int]], n: int) -> int:
    count = 0
    for r in range(1, len(options) + 1):
        for c in itertools.combinations(options, r):
            cells = [i for o in c for i in o]
            if sorted(cells) == list(range(n)):
                count += 1
    return count


@settings(max_examples=150, deadline=None)
@given(planted())
def test_planted_solution_is_found(case: Case) -> None:
    options, planted_at = case
    n = max(i for o in options for i in o) + 1
    p = dancer.Problem(options, primary=range(n))
    p.verify(planted_at)
    want: FrozenSet[FrozenSet[Tuple[int, ...]]] = frozenset(
        frozenset(tuple(options[k]) for k in planted_at) for _ in [0]
    )
    found = {frozenset(tuple(o) for o in s) for s in p.solutions()}
    assert want <= found
    assert p.count() == brute(options, n) == len(list(p.solutions()))


@settings(max_examples=60, deadline=None)
@given(planted(), st.randoms(use_true_random=False))
def test_permuting_items_and_options_keeps_the_solutions(case: Case, rnd: random.Random) -> None:
    options, _ = case
    n = max(i for o in options for i in o) + 1
    rename = list(range(n))
    rnd.shuffle(rename)
    renamed = [[rename[i] for i in o] for o in options]
    order = list(range(len(options)))
    rnd.shuffle(order)
    moved = [renamed[k] for k in order]
    a = dancer.Problem(options, primary=range(n))
    b = dancer.Problem(moved, primary=rnd.sample(range(n), n))
    sa = {frozenset(tuple(sorted(o)) for o in s) for s in a.solutions()}
    sb = {frozenset(tuple(sorted(rename.index(i) for i in o)) for o in s) for s in b.solutions()}
    assert sa == sb
    assert a.count() == b.count()
    given_options = {tuple(sorted(o)) for o in options}
    assert all(o in given_options for s in sa for o in s)
