"""Tile and draw, as in a notebook: the pentominoes in a 3 x 20 box, the
count up to symmetry, each solution's pieces and its picture.

Run it with the package installed (pip install ./crates/dancer-py):
    python crates/dancer-py/examples/tile_and_draw.py [OUT_FOLDER]
In Jupyter, a solution left at the end of a cell draws itself.
"""

from __future__ import annotations

import sys
from pathlib import Path

import dancer


def main(out: Path) -> int:
    puzzle = dancer.poly.Puzzle.catalogue("pentomino-3x20")
    print(puzzle, "on the", puzzle.grid, "grid")
    total, unique = puzzle.count(), puzzle.count(unique=True)
    print(f"{total} solutions, {unique} up to symmetry")
    out.mkdir(parents=True, exist_ok=True)
    for k, solution in enumerate(puzzle.solutions(unique=True), 1):
        print(f"solution {k}:", " ".join(name for name, _ in solution.placements))
        (out / f"pentomino-3x20-{k}.svg").write_text(solution.svg())
        (out / f"pentomino-3x20-{k}.png").write_bytes(solution.png(cell=16))
    # a puzzle of your own, as a TOML text: Scott's problem, the 12
    # pentominoes in an 8 x 8 square without its centre
    scott = dancer.poly.Puzzle.from_toml(SCOTT)
    print("Scott's problem:", scott.count(unique=True), "solutions up to symmetry")
    # a puzzle of Python values: the Soma cube, its three layers drawn as
    # pictures, the pieces turned but not reflected
    soma = dancer.poly.Puzzle(["###\n###\n###"] * 3, "soma", one_sided=True)
    print("Soma cube:", soma.count(unique=True), "solutions up to symmetry")
    # and pieces of your own, by picture or by coordinates
    own = dancer.poly.Puzzle("####\n####", {"L": "#.\n#.\n##", "O": [(0, 0), (1, 0), (0, 1), (1, 1)]}, copies={"L": 2, "O": 0})
    print("two L-tetrominoes in a 2x4 box:", own.count(), "ways")
    print("drawn into", out)
    return 0 if (total, unique) == (8, 2) else 1


SCOTT = """
name = "Scott's pentomino problem"
[board]
rect = [8, 8]
holes = [[3, 3], [4, 3], [3, 4], [4, 4]]
[[piece]]
set = "pentominoes"
"""


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else "tilings")))
