"""The names ``search()`` accepts for its algorithm and engine, as plain values: validation and
the dry run read them without loading the engines' compiled code (benchmarks/startup.py)."""

from __future__ import annotations

from searchlab.algorithms import reference

#: the two-player algorithms (the reference engine's, which every engine implements)
ALGORITHMS = tuple(reference.ALGORITHMS)
#: the engines of search(engine=...)
ENGINES = ("auto", "reference", "kernel", "compiled")

__all__ = ["ALGORITHMS", "ENGINES"]
