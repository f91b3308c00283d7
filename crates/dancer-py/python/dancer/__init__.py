"""dancer: exact cover with dancing links and its relatives.

Build a problem from Python values, Knuth's DLX text or a 0/1 matrix, and
count its solutions exactly (an ``int`` of any size), list them lazily, or
check one::

    import dancer

    p = dancer.Problem([["a", "b"], ["b", "c"], ["c"], ["a"]])
    p.count()                # 2
    list(p.solutions())      # [[['a', 'b'], ['c']], [['b', 'c'], ['a']]]

Sudoku puzzles (a line of text, ``.`` for an empty cell)::

    dancer.sudoku.solve(puzzle)          # the solved grid, as a line
    dancer.sudoku.rate(puzzle).rating    # Sudoku Explainer's rating

Long calls release the GIL and stop on Ctrl-C (``KeyboardInterrupt``).
Errors are exceptions: :class:`ParseError` (a ``ValueError`` with
``line`` and ``column``) for text that breaks its format, ``ValueError``
for values the library does not take.
"""

import sys as _sys

from ._dancer import ENGINES, ParseError, Problem, Shard, SolutionIter, Stats, TraceSteps, Zdd, merge, poly, sudoku

# `import dancer.sudoku` finds the native submodule
_sys.modules[__name__ + ".sudoku"] = sudoku
_sys.modules[__name__ + ".poly"] = poly

__all__ = ["ENGINES", "ParseError", "Problem", "Shard", "SolutionIter", "Stats", "TraceSteps", "Zdd", "merge", "poly", "sudoku"]
