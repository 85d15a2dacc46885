"""The Game protocol and its Capabilities flags: re-exported from their place in the bottom
layer, searchlab.contracts.protocol (docs/architecture.md), for code that imports them here."""

from __future__ import annotations

from searchlab.contracts.protocol import (CHANCE, CLASSICAL, NPLAYER, Capabilities, ChanceGame,
                                          Game, MultiPlayerGame, UnsupportedError)

__all__ = ["Capabilities", "CLASSICAL", "CHANCE", "NPLAYER", "Game", "ChanceGame",
           "MultiPlayerGame", "UnsupportedError"]
