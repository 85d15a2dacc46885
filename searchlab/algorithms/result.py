"""The search result records (``SearchResult``, ``MultiResult``): re-exported from their place
in the bottom layer, searchlab.contracts.result (docs/architecture.md)."""

from __future__ import annotations

from searchlab.contracts.result import MultiResult, SearchResult

__all__ = ["SearchResult", "MultiResult"]
