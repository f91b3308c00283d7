"""ZDDs from Python: the count, every solution once, and uniform samples
that a seed repeats."""

from __future__ import annotations

import itertools
from collections import Counter
from typing import Any, List

import pytest

import dancer


def strip(n: int) -> List[List[Any]]:
    """Domino tilings of a 2 x n strip (Fibonacci(n + 1) of them)."""
    return [[(0, i), (1, i)] for i in range(n)] + [[(r, i), (r, i + 1)] for r in range(2) for i in range(n - 1)]


def test_count_iterate_sample() -> None:
    opts = strip(10)
    p = dancer.Problem(opts)
    z = p.zdd()
    assert z.count() == p.count() == 89
    assert z.nodes > 0
    sols = list(z)
    assert len(sols) == 89
    assert len({frozenset(map(tuple, s)) for s in sols}) == 89
    for s in sols:
        p.verify([opts.index(o) for o in s])
    a, b = z.sample(5, seed=11), z.sample(5, seed=11)
    assert a == b and len(a) == 5
    for s in a:
        p.verify([opts.index(o) for o in s])


def test_samples_are_uniform() -> None:
    # 2 x 3: three tilings, each drawn about a third of the time
    p = dancer.Problem(strip(3))
    draws = Counter(frozenset(map(tuple, s)) for s in p.zdd().sample(3000, seed=5))
    assert len(draws) == 3
    assert all(800 < n < 1200 for n in draws.values())


def test_counts_past_64_bits() -> None:
    z = dancer.Problem(strip(120)).zdd()
    a, b = 1, 1
    for _ in range(119):
        a, b = b, a + b
    assert z.count() == b > 2**64
    assert len(z.sample(3, seed=1)[0]) > 0


def test_a_sample_too_large_for_a_list_is_refused_and_samples_stream() -> None:
    """`sample(10**12)` asked for 3 GiB at once and ended the interpreter;
    it raises `MemoryError` before drawing, and `samples` draws as many as
    are taken, the same ones for the same seed."""
    z = dancer.Problem([[1], [2], [1, 2]]).zdd()
    with pytest.raises(MemoryError, match="samples"):
        z.sample(10**12)
    it = z.samples(10**12, seed=3)
    first = list(itertools.islice(it, 1000))
    it.close()
    # the two solutions: options [1] and [2], or [1, 2]
    assert len(first) == 1000 and {tuple(sorted(map(tuple, s))) for s in first} == {((1,), (2,)), ((1, 2),)}
    assert first[:20] == [list(s) for s in z.sample(20, seed=3)]
    assert len(list(z.samples(7))) == 7
