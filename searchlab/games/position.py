"""Searching from any position (``FromState``, ``rooted``): re-exported from their place in the
bottom layer, searchlab.contracts.position (docs/architecture.md)."""

from __future__ import annotations

from searchlab.contracts.position import FromState, rooted

__all__ = ["FromState", "rooted"]
