"""Sudoku from Python: solutions checked by the independent checker, counts,
ratings against Sudoku Explainer's (the calibration file), hints, batches
in input order, generated puzzles unique and of their level."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

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
