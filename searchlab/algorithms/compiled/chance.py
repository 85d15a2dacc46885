"""The compiled chance engine's game interface (``ChancePrimitives``, ``CompiledChanceGame``):
re-exported from its place in the bottom layer, searchlab.contracts.compiled_chance
(docs/architecture.md), for code that imports it here."""

from __future__ import annotations

from searchlab.contracts.compiled_chance import ChancePrimitives, CompiledChanceGame

__all__ = ["ChancePrimitives", "CompiledChanceGame"]
