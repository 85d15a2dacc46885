"""The compiled search engine: the reference engine's search, written once in numba against a
*compiled game interface*, run on any game or tree model that supplies compiled primitives.

The contract (what a game supplies: ``CompiledGame``, ``Primitives``, ``compiled_game``) is
searchlab.contracts.compiled, in the bottom layer (docs/architecture.md); it is re-exported here
for code written against this place, and ``stubs`` re-exports searchlab.contracts.compiled_stubs.

The engine
==========

``searchlab.algorithms.compiled_engine``: ``supports(game, algorithm, ordering, pruning,
depth)`` says whether the compiled engine runs a combination; ``run(game, ...)`` runs it and
returns the same SearchResult as the reference (``engine="compiled"``); its docstring lists
what is covered. The numba search itself is ``_engine.py`` here, a template that
``specialise.py`` copies per game with the game's primitives as its globals, so that numba
caches the compiled engine on disk (a warm process loads it in about a second).

The chance and n-player families
================================

The same pattern serves the other two search families: ``chance.py`` and ``nplayer.py`` here
(re-exporting
searchlab.contracts.compiled_chance and compiled_nplayer) state what a chance game and an
n-player game supply, ``_chance_engine.py`` and
``_nplayer_engine.py`` are their searches (templates), and ``family.py`` specialises a template
per game with specialise.py's cache. Their public wrappers are
searchlab.algorithms.chance_compiled and multiplayer_compiled.
"""

from __future__ import annotations

from searchlab.contracts.compiled import CompiledGame, Primitives, compiled_game

__all__ = ["CompiledGame", "Primitives", "compiled_game"]
