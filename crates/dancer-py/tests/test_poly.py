"""Polyforms from Python: counts against the catalogue's published ones,
placements that tile the board, pictures, and the example script."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import sys
from pathlib import Path
from typing import Any, Dict, Sequence, Tuple

import pytest

import dancer

HERE = Path(__file__).resolve().parent


def test_catalogue_counts_and_placements() -> None:
    assert "pentomino-3x20" in dancer.poly.catalogue()
    p = dancer.poly.Puzzle.catalogue("pentomino-3x20")
    assert p.grid == "square"
    assert (p.count(), p.count(unique=True)) == (8, 2)
    sols = list(p.solutions(unique=True))
    assert len(sols) == 2
    for s in sols:
        cells = [tuple(c) for _, cs in s.placements for c in cs]
        assert len(cells) == len(set(cells)) == 60  # every cell once
        assert {x for x, _ in cells} == set(range(20)) and {y for _, y in cells} == set(range(3))
        assert sorted(n for n, _ in s.placements) == sorted(set(n for n, _ in s.placements))
    assert len(list(p.solutions(limit=3))) == 3


def test_pictures() -> None:
    s = next(dancer.poly.Puzzle.catalogue("pentomino-3x20").solutions(limit=1))
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
    assert "Soma cube: 240 solutions up to symmetry" in out.stdout
    assert "two L-tetrominoes in a 2x4 box: 2 ways" in out.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "pentomino-3x20-1.png",
        "pentomino-3x20-1.svg",
        "pentomino-3x20-2.png",
        "pentomino-3x20-2.svg",
    ]


def tiles(sol: dancer.poly.Solution, board: Sequence[Tuple[int, ...]]) -> bool:
    """Checked here: the placements cover every board cell exactly once."""
    cells = [tuple(c) for _, cs in sol.placements for c in cs]
    return sorted(cells) == sorted(board)


def test_puzzles_from_python_values() -> None:
    # the catalogue's 3 x 20 box, from a picture and a set's name
    box = dancer.poly.Puzzle("#" * 20 + "\n" + "#" * 20 + "\n" + "#" * 20, "pentominoes")
    assert (box.count(), box.count(unique=True)) == (8, 2)
    # Scott's problem from coordinates: 520 in all, 65 up to symmetry
    board = [(x, y) for x in range(8) for y in range(8) if not (3 <= x <= 4 and 3 <= y <= 4)]
    scott = dancer.poly.Puzzle(board, "pentominoes")
    assert (scott.count(), scott.count(unique=True)) == (520, 65)
    for sol in scott.solutions(limit=20):
        assert tiles(sol, board) and len(sol.placements) == 12
    # the Soma cube from layers, its pieces turned but not reflected
    soma = dancer.poly.Puzzle(["###\n###\n###"] * 3, "soma", one_sided=True)
    assert soma.grid == "cube" and soma.count(unique=True) == 240
    # pieces of your own: pictures and coordinates, with copies
    own = dancer.poly.Puzzle(
        "####\n####",
        {"L": "#.\n#.\n##", "O": [(0, 0), (1, 0), (0, 1), (1, 1)]},
        copies={"L": (0, 2), "O": "any"},
    )
    sols = list(own.solutions())
    assert len(sols) == own.count() > 0
    rect = [(x, y) for x in range(4) for y in range(2)]
    assert all(tiles(s, rect) for s in sols)
    # every solution's count of L and O is within the copies asked for
    assert all(sum(n == "L" for n, _ in s.placements) <= 2 for s in sols)
    # the same puzzle as a TOML text
    toml = dancer.poly.Puzzle.from_toml(
        '[board]\nshape = "####\\n####"\n[[piece]]\nname = "L"\nshape = "#.\\n#.\\n##"\ncount = [0, 2]\n'
        '[[piece]]\nname = "O"\nshape = "##\\n##"\ncount = "any"\n'
    )
    assert toml.count() == own.count()


@pytest.mark.parametrize("name, grid", [("hexiamond-4x9", "triangle"), ("tetrahex-4x7", "hexagon")])
def test_a_catalogue_puzzle_rebuilt_from_its_solution(name: str, grid: str) -> None:
    """The board (every cell a solution covers) and the pieces (as that
    solution places them) given back as coordinates make the same puzzle,
    on grids whose cells have three coordinates and on those with two."""
    original = dancer.poly.Puzzle.catalogue(name)
    first = next(original.solutions(limit=1))
    board = [tuple(c) for _, cs in first.placements for c in cs]
    pieces = {n: cs for n, cs in first.placements}
    again = dancer.poly.Puzzle(board, pieces, grid=grid)
    assert again.grid == original.grid == grid
    assert again.count(unique=True) == original.count(unique=True) > 0
    for sol in again.solutions(limit=10):
        assert tiles(sol, board)


@pytest.mark.parametrize(
    "board, pieces, kw, match",
    [
        ("##", {"X": [(10**9, 0)]}, {}, "out of range"),
        ("##", {"X": [(0,)]}, {}, "coordinates"),
        ("##", "hexiamonds", {}, "triangle grid"),
        ("##", "no-such-set", {}, "no piece set"),
        ("##", {"A": "#"}, {"copies": {"B": 2}}, "no such piece"),
        ("##", {"A": "#"}, {"copies": {"A": (3, 1)}}, "copies of A"),
        ("##", {"A": "#"}, {"copies": {"A": -1}}, "copies of A"),
        ("##", {"A": "#"}, {"grid": "nope"}, "unknown grid"),
        ([(0, 0, 9)], {"A": "#"}, {"grid": "hexagon"}, "not a cell"),
        ("##", 7, {}, "pieces"),
        ("##", {"A": "#.#"}, {}, "connected"),
        ("#" * 200_001, {"A": "#"}, {}, "too large"),
        ([(-(2**63), 0), (1, 0)], {"A": "##"}, {}, "out of range"),
        ([(2**64, 0)], {"A": "#"}, {}, "out of range"),
        ([(-1, 0), (0, 0)], {"A": "##"}, {}, "out of range"),
        ([b"\x00\x00"], {"A": "#"}, {}, "text"),
        ([(0, 0, 1), (1, 0, 1)], {"A": "##"}, {"grid": "square"}, r"\[0, 0, 1\] is not a cell"),
        # once: "no choice of counts of  adds up to it"
        ("#", {}, {}, r"^no pieces given: a puzzle needs at least one$"),
    ],
)
def test_bad_values_are_value_errors(board: Any, pieces: Any, kw: Dict[str, Any], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        dancer.poly.Puzzle(board, pieces, **kw)


def test_iterables_and_mappings_are_read_as_given() -> None:
    # a board given as a generator keeps its first cell
    gen = dancer.poly.Puzzle(((x, 0) for x in range(4)), {"a": "##"}, copies={"a": 2})
    assert gen.count() == dancer.poly.Puzzle([(x, 0) for x in range(4)], {"a": "##"}, copies={"a": 2}).count() == 1

    class Broken(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: Any) -> Any:
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        dancer.poly.Puzzle("#", {"a": "#"}, copies=Broken(a=5))


def test_solutions_stream_and_stop_where_they_are_left() -> None:
    """10x10 dominoes have billions of tilings: the solutions come one at a
    time, a few ahead of the caller, in flat memory; the list they were
    gathered in ended the interpreter with SIGABRT."""
    script = textwrap.dedent(
        """
        import itertools, resource
        resource.setrlimit(resource.RLIMIT_AS, (4_000_000 * 1024, 4_000_000 * 1024))
        import dancer
        board = [(x, y) for x in range(10) for y in range(10)]
        p = dancer.poly.Puzzle(board, {"D": "##"}, copies={"D": "any"})
        it = p.solutions()
        first = next(it)
        assert sorted(c for _, cs in first.placements for c in map(tuple, cs)) == sorted(board)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        n = sum(1 for _ in itertools.islice(it, 30_000))
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        it.close()
        assert next(it, None) is None
        print(n, before, after)
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    n, before, after = map(int, out.stdout.split())
    assert n == 30_000
    # KiB: the solutions taken were not kept anywhere
    assert after < before + 64 * 1024, (before, after)


def test_a_limit_of_zero_is_refused() -> None:
    p = dancer.poly.Puzzle.catalogue("pentomino-3x20")
    with pytest.raises(ValueError, match="limit=0"):
        p.solutions(limit=0)
