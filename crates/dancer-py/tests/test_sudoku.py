"""Sudoku from Python: solutions checked by the independent checker, counts,
ratings against Sudoku Explainer's (the calibration file), hints, batches
in input order, generated puzzles unique and of their level."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, Dict, List, Set, Tuple

import pytest
from conftest import dancer_bin, shared

import dancer

# Arto Inkala's "hardest" puzzle and its solution
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def test_solve_check_count() -> None:
    s = dancer.sudoku.solve(INKALA)
    assert len(s) == 81 and "." not in s
    dancer.sudoku.check(INKALA, s)
    assert dancer.sudoku.count(INKALA) == 1
    assert dancer.sudoku.count("." * 81, limit=10) == 10
    bad = ("1" if s[0] != "1" else "2") + s[1:]
    try:
        dancer.sudoku.check(INKALA, bad)
        raise AssertionError("a wrong answer passed")
    except ValueError:
        pass
    try:
        dancer.sudoku.solve("12")
        raise AssertionError("a bad puzzle passed")
    except ValueError as e:
        assert "length" in str(e)


def test_ratings_are_the_command_lines(tmp_path: Path) -> None:
    lines = shared("sudoku/se_rated_calibration.txt").read_text().splitlines()[:40]
    puzzles = [ln.split()[1] for ln in lines]
    got = dancer.sudoku.rate_batch(puzzles)
    exe = dancer_bin()
    if exe is None:
        if os.environ.get("CI"):
            pytest.fail("no dancer binary (build it, or set DANCER_BIN)")
        pytest.skip("no dancer binary")
    (tmp_path / "p.txt").write_text("\n".join(puzzles) + "\n")
    out = subprocess.run([exe, "sudoku", "rate", str(tmp_path / "p.txt"), "--json"], capture_output=True, text=True)
    theirs = [json.loads(ln) for ln in out.stdout.splitlines()]
    assert [(r.rating, r.level, r.hardest, r.steps) for r in got] == [
        (t["rating"], t["level"], t["hardest"], t["steps"]) for t in theirs
    ]
    one = dancer.sudoku.rate(puzzles[0])
    assert (one.rating, one.level) == (got[0].rating, got[0].level)
    assert one.hardest is not None and one.solved


def test_batches_keep_input_order() -> None:
    lines = shared("sudoku/17_clue.txt").read_text().splitlines()[:200]
    sols = dancer.sudoku.solve_batch(lines, threads=2)
    assert len(sols) == len(lines)
    for p, s in zip(lines, sols):
        assert s is not None
        dancer.sudoku.check(p, s)
    # r1c9 can only be 9, which column 9 already has: no solution
    assert dancer.sudoku.solve_batch(["12345678." + "........9" + "." * 63]) == [None]


def test_hint_and_generate() -> None:
    h = dancer.sudoku.hint(INKALA)
    assert h.technique is not None and h.text
    p = dancer.sudoku.generate(level="easy", seed=7)
    assert p == dancer.sudoku.generate(level="easy", seed=7)
    assert dancer.sudoku.count(p, limit=2) == 1
    assert dancer.sudoku.rate(p).level == "easy"


def replay(puzzle: str, steps: List[dancer.sudoku.Step], solution: str) -> Set[int]:
    """Replays a solution path on candidate sets, checking each step
    against the solution: a placement is the solution's digit, an
    elimination never removes it. Returns the cells filled."""
    cand = [{int(c)} if c not in ".0" else set(range(1, 10)) for c in puzzle]
    filled = {i for i, c in enumerate(puzzle) if c not in ".0"}
    for s in steps:
        assert s.placements or s.eliminations, s.text
        for c, d in s.placements:
            assert int(solution[c]) == d, (s.text, c, d)
            cand[c] = {d}
            filled.add(c)
        for c, d in s.eliminations:
            assert int(solution[c]) != d, (s.text, c, d)
            cand[c].discard(d)
        assert all(int(solution[i]) in cand[i] for i in range(81))
    return filled


def test_solution_path_replays() -> None:
    lines = shared("sudoku/se_rated_calibration.txt").read_text().splitlines()[:6]
    for puzzle in [INKALA] + [ln.split()[1] for ln in lines]:
        solution = dancer.sudoku.solve(puzzle)
        steps = dancer.sudoku.path(puzzle)
        rating = dancer.sudoku.rate(puzzle)
        assert len(steps) == rating.steps and rating.solved
        assert max(s.rating for s in steps) == rating.rating
        assert max(steps, key=lambda s: s.rating).technique == rating.hardest
        assert len(replay(puzzle, steps, solution)) == 81
        assert all(s.text for s in steps)


def test_hint_steps() -> None:
    solution = dancer.sudoku.solve(INKALA)
    h = dancer.sudoku.hint(INKALA)
    assert h.status == "hint" and h.step is not None and h.technique == h.step.technique
    assert h.step.cells and h.technique is not None and h.technique in h.nudge
    replay(INKALA, [h.step], solution)
    # the hint after the first one's eliminations goes on from there
    removed = list(h.eliminations)
    for _ in range(3):
        nxt = dancer.sudoku.hint(INKALA, removed=removed)
        assert nxt.step is not None
        replay(INKALA, [nxt.step], solution)
        removed += nxt.eliminations
    assert dancer.sudoku.hint(solution).status == "solved"
    assert dancer.sudoku.hint("." * 81).status == "multiple"
    with pytest.raises(ValueError, match="removed"):
        dancer.sudoku.hint(INKALA, removed=[(81, 1)])


def rows_cols_boxes(n: int, br: int, bc: int) -> List[List[int]]:
    units = [[r * n + c for c in range(n)] for r in range(n)]
    units += [[r * n + c for r in range(n)] for c in range(n)]
    for r0 in range(0, n, br):
        for c0 in range(0, n, bc):
            units.append([(r0 + r) * n + c0 + c for r in range(br) for c in range(bc)])
    return units


def holds(solution: str, puzzle: str, units: List[List[int]]) -> bool:
    """Checked here, independently: every unit holds every digit once, the
    givens are kept."""
    n = int(len(solution) ** 0.5)
    digits = "123456789ABCDEFG"[:n]
    ok = all(sorted(solution[i] for i in u) == sorted(digits) for u in units)
    return ok and all(p in ".0" or p == s for p, s in zip(puzzle, solution))


def test_variants_generate_solve_count() -> None:
    diagonals = [[i * 10 for i in range(9)], [i * 8 + 8 for i in range(9)]]
    windows = [[(r0 + r) * 9 + c0 + c for r in range(3) for c in range(3)] for r0 in (1, 5) for c0 in (1, 5)]
    # the standard boxes with two pairs of cells swapped
    jigsaw = "AAABBBCCCAAABBBCCCAADBBECCCADDBEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII"
    cases: List[Tuple[Dict[str, Any], List[List[int]]]] = [
        ({"diagonal": True}, rows_cols_boxes(9, 3, 3) + diagonals),
        ({"windoku": True}, rows_cols_boxes(9, 3, 3) + windows),
        ({"box": "2x3"}, rows_cols_boxes(6, 2, 3)),
        ({"box": "3x2", "diagonal": True}, rows_cols_boxes(6, 3, 2) + [[i * 7 for i in range(6)], [i * 5 + 5 for i in range(6)]]),
    ]
    regions: Dict[str, List[int]] = {}
    for i, ch in enumerate(jigsaw):
        regions.setdefault(ch, []).append(i)
    units9 = rows_cols_boxes(9, 3, 3)[:18] + list(regions.values())
    assert sorted(len(r) for r in regions.values()) == [9] * 9
    cases.append(({"jigsaw": jigsaw}, units9))
    exe = dancer_bin()
    for kw, units in cases:
        p = dancer.sudoku.generate(seed=11, symmetry="none", **kw)
        assert p == dancer.sudoku.generate(seed=11, symmetry="none", **kw)
        assert dancer.sudoku.count(p, **kw) == 1
        s = dancer.sudoku.solve(p, **kw)
        dancer.sudoku.check(p, s, **kw)
        assert holds(s, p, units), kw
        assert dancer.sudoku.solve_batch([p, p], **kw) == [s, s]
        assert dancer.sudoku.count_batch([p], limit=5, **kw) == [1]
        if exe is not None:
            flags = [f"--{k}" if v is True else f"--{k}={v}" for k, v in kw.items()]
            out = subprocess.run([exe, "sudoku", "count", p, *flags], capture_output=True, text=True)
            assert out.stdout.split()[0] == "1", (kw, out.stdout, out.stderr)
    # without the variant's rule the same givens have more solutions
    x = dancer.sudoku.generate(seed=3, symmetry="none", diagonal=True)
    assert dancer.sudoku.count(x, limit=2) == 2
    with pytest.raises(ValueError, match="levels"):
        dancer.sudoku.generate(level="easy", diagonal=True)
    with pytest.raises(ValueError, match="size"):
        dancer.sudoku.generate(size=9, box="2x3")
    with pytest.raises(ValueError, match="windoku"):
        dancer.sudoku.solve("." * 16, windoku=True)


def test_bad_requests_are_value_errors() -> None:
    # rules with no complete grid: nothing to generate (not a search forever)
    with pytest.raises(ValueError, match="no grid"):
        dancer.sudoku.generate(jigsaw="ccddbccdbbadbaaa", seed=1)
    with pytest.raises(ValueError, match="size"):
        dancer.sudoku.generate(size=1)
    with pytest.raises(ValueError, match="windoku"):
        dancer.sudoku.solve("." * 16, windoku=True)
    # a removal that contradicts the solution, or touches a given
    solution = dancer.sudoku.solve(INKALA)
    empty = INKALA.index(".")
    with pytest.raises(ValueError, match="solution"):
        dancer.sudoku.hint(INKALA, removed=[(empty, int(solution[empty]))])
    with pytest.raises(ValueError, match="filled"):
        dancer.sudoku.hint(INKALA, removed=[(0, 1)])
    # pairs as lists too (as JSON gives them)
    wrong = 1 if solution[empty] != "1" else 2
    assert dancer.sudoku.hint(INKALA, removed=[[empty, wrong]]).status == "hint"
    # a batch whose len() lies
    class Liar(list):  # type: ignore[type-arg]
        def __len__(self) -> int:
            return 10**12

    assert dancer.sudoku.solve_batch(Liar([INKALA])) == [solution]
    assert all(isinstance(d, int) for s in dancer.sudoku.path(INKALA)[:5] for d in s.digits)
