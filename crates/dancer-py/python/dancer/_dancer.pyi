"""Type stubs of dancer's native module (re-exported by ``dancer``)."""

from typing import Any, Hashable, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

ENGINES: List[str]

class ParseError(ValueError):
    """Text that breaks its format's rules."""

    line: int
    column: int
    message: str

class Stats:
    """Counters of a search."""

    @property
    def count(self) -> int: ...
    @property
    def nodes(self) -> int: ...
    @property
    def updates(self) -> int: ...
    @property
    def engine(self) -> str: ...
    @property
    def complete(self) -> bool: ...

class SolutionIter(Iterator[List[Any]]):
    """The solutions of a problem, found as they are asked for."""

    def __iter__(self) -> "SolutionIter": ...
    def __next__(self) -> List[Any]: ...
    def close(self) -> None:
        """Stops the search; the iterator ends."""

class Problem:
    """An exact cover problem."""

    def __init__(
        self,
        options: Iterable[Iterable[Hashable]],
        secondary: Optional[Iterable[Hashable]] = None,
        primary: Optional[Iterable[Hashable]] = None,
        bounds: Optional[Mapping[Hashable, Tuple[int, int]]] = None,
    ) -> None: ...
    @staticmethod
    def from_dlx(text: str) -> "Problem": ...
    @staticmethod
    def from_matrix(matrix: Any, secondary: int = 0) -> "Problem": ...
    @property
    def n_options(self) -> int: ...
    @property
    def n_items(self) -> int: ...
    @property
    def n_primary(self) -> int: ...
    def count(self, engine: str = "auto", threads: int = 1) -> int: ...
    def stats(self, engine: str = "auto", threads: int = 1) -> Stats: ...
    def solutions(self, limit: Optional[int] = None, engine: str = "auto") -> SolutionIter: ...
    def first(self, engine: str = "auto") -> Optional[List[Any]]: ...
    def verify(self, options: Sequence[int]) -> None: ...
