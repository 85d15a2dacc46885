"""Primitives for what a game does not have: re-exported from their place in the bottom layer,
searchlab.contracts.compiled_stubs (docs/architecture.md), for code that imports them here."""

from __future__ import annotations

from searchlab.contracts.compiled_stubs import (never_noisy, no_capture_gain, no_noisy_moves,
                                                no_null_move, no_order_key, null_move_always,
                                                null_move_never)

__all__ = ["no_order_key", "never_noisy", "no_null_move", "null_move_never", "no_noisy_moves",
           "no_capture_gain", "null_move_always"]
