"""Sudoku: a puzzle is a line of text (81 characters for 9x9, ``.`` or
``0`` for an empty cell). Variants as keyword arguments: ``box="2x3"``,
``jigsaw=`` (one region letter a cell), ``diagonal=True``,
``windoku=True``."""

from typing import Iterable, List, Mapping, Optional, Sequence, Tuple, Union

class Rating:
    """A rating on Sudoku Explainer's scale."""

    @property
    def rating(self) -> float: ...
    @property
    def hardest(self) -> Optional[str]: ...
    @property
    def level(self) -> str: ...
    @property
    def steps(self) -> int: ...
    @property
    def solved(self) -> bool: ...

class Step:
    """One step of a solution path."""

    @property
    def technique(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def text(self) -> str: ...
    @property
    def placements(self) -> List[Tuple[int, int]]: ...
    @property
    def eliminations(self) -> List[Tuple[int, int]]: ...
    @property
    def cells(self) -> List[int]: ...
    @property
    def units(self) -> List[str]: ...
    @property
    def digits(self) -> List[int]: ...

class Hint:
    """The next step, in words."""

    @property
    def status(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def nudge(self) -> str: ...
    @property
    def step(self) -> Optional["Step"]: ...
    @property
    def technique(self) -> Optional[str]: ...
    @property
    def placements(self) -> List[Tuple[int, int]]: ...
    @property
    def eliminations(self) -> List[Tuple[int, int]]: ...

def solve(
    puzzle: str,
    *,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> str: ...
def count(
    puzzle: str,
    limit: Optional[int] = None,
    *,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> int: ...
def check(
    puzzle: str,
    solution: str,
    *,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> None: ...
def rate(puzzle: str) -> "Rating": ...
def hint(
    puzzle: str, removed: Optional[Sequence[Sequence[int]]] = None
) -> "Hint": ...
def path(puzzle: str) -> List["Step"]: ...
def generate(
    level: Optional[str] = None,
    symmetry: str = "rotate180",
    size: Optional[int] = None,
    seed: Optional[int] = None,
    *,
    minimal: bool = True,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> str: ...
def solve_batch(
    puzzles: Sequence[str],
    threads: Optional[int] = None,
    *,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> List[Optional[str]]: ...
def count_batch(
    puzzles: Sequence[str],
    limit: Optional[int] = None,
    threads: Optional[int] = None,
    *,
    box: Optional[str] = None,
    jigsaw: Optional[str] = None,
    diagonal: bool = False,
    windoku: bool = False,
) -> List[int]: ...
def rate_batch(puzzles: Sequence[str], threads: Optional[int] = None) -> List["Rating"]: ...
