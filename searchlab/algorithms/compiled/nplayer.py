"""The compiled n-player engine's game interface (``NPlayerPrimitives``, ``CompiledNPlayerGame``):
re-exported from its place in the bottom layer, searchlab.contracts.compiled_nplayer
(docs/architecture.md), for code that imports it here."""

from __future__ import annotations

from searchlab.contracts.compiled_nplayer import CompiledNPlayerGame, NPlayerPrimitives

__all__ = ["NPlayerPrimitives", "CompiledNPlayerGame"]
