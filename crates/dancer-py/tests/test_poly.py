"""Polyforms from Python: counts against the catalogue's published ones,
placements that tile the board, pictures, and the example script."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import dancer

HERE = Path(__file__).resolve().parent


def test_catalogue_counts_and_placements() -> None:
    assert "pentomino-3x20" in dancer.poly.catalogue()
    p = dancer.poly.Puzzle.catalogue("pentomino-3x20")
    assert p.grid == "square"
    assert (p.count(), p.count(unique=True)) == (8, 2)
    sols = p.solutions(unique=True)
    assert len(sols) == 2
    for s in sols:
        cells = [tuple(c) for _, cs in s.placements for c in cs]
        assert len(cells) == len(set(cells)) == 60  # every cell once
        assert {x for x, _ in cells} == set(range(20)) and {y for _, y in cells} == set(range(3))
        assert sorted(n for n, _ in s.placements) == sorted(set(n for n, _ in s.placements))
    assert len(p.solutions(limit=3)) == 3


def test_pictures() -> None:
    s = dancer.poly.Puzzle.catalogue("pentomino-3x20").solutions(limit=1)[0]
    svg = s._repr_svg_()
    assert "<svg" in svg[:100] and svg.rstrip().endswith("</svg>") and svg.count("<text") >= 12
    png = s.png(cell=8)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError):
        s.svg(cell=0)


def test_toml_and_errors() -> None:
    soma = dancer.poly.Puzzle.catalogue("soma")
    assert soma.count(unique=True) == 240
    with pytest.raises(ValueError, match="catalogue"):
        dancer.poly.Puzzle.catalogue("no-such-puzzle")
    with pytest.raises(ValueError):
        dancer.poly.Puzzle.from_toml("[board]\nrect = [3, -1]\n")


def test_the_example_script(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(HERE.parent / "examples" / "tile_and_draw.py"), str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert "8 solutions, 2 up to symmetry" in out.stdout
    assert "Scott's problem: 65 solutions up to symmetry" in out.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pentomino-3x20-1.png",
        "pentomino-3x20-1.svg",
        "pentomino-3x20-2.png",
        "pentomino-3x20-2.svg",
    ]
