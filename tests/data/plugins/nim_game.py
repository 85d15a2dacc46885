"""Nim as a searchlab plug-in: a game defined outside the package (docs/extending.md).

Normal play: players alternately take one or more objects from one heap; whoever takes the
last object wins. A state is (heaps, max_to_move); states are immutable tuples.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

from searchlab.games.protocol import Capabilities
from searchlab.games.registry import GameEntry


class Nim:
    """Nim on the given heaps (MAX moves first). Moves ``(heap, take)`` in natural order: heap
    by heap, taking 1, 2, ... objects."""

    name = "nim"
    capabilities = Capabilities(static_values=True)
    default_depth = None

    def __init__(self, heaps: Sequence[int] = (1, 2, 3), root: tuple | None = None) -> None:
        if not heaps or any(not isinstance(h, int) or h < 0 for h in heaps):
            raise ValueError(f"heaps must be non-negative integers; got {heaps!r}")
        self.heaps = tuple(heaps)
        self._root = root if root is not None else (self.heaps, True)

    def initial_state(self) -> tuple:
        return self._root

    def with_root(self, state: tuple) -> "Nim":
        """This game rooted at ``state`` (random positions)."""
        return Nim(self.heaps, state)

    def max_to_move(self, state: tuple) -> bool:
        return state[1]

    def legal_moves(self, state: tuple) -> list[tuple[int, int]]:
        return [(i, k) for i, h in enumerate(state[0]) for k in range(1, h + 1)]

    def play(self, state: tuple, move: tuple[int, int]) -> tuple:
        i, k = move
        heaps = list(state[0])
        heaps[i] -= k
        return (tuple(heaps), not state[1])

    def is_terminal(self, state: tuple) -> bool:
        return not any(state[0])

    def utility(self, state: tuple) -> float:
        # the player to move has nothing to take: the other took the last object and won
        return -1.0 if state[1] else 1.0

    def evaluate(self, state: tuple) -> float:
        # the mover wins iff the heaps' xor is non-zero (Bouton); a half-point hint
        x = 0
        for h in state[0]:
            x ^= h
        good = 0.5 if x else -0.5
        return good if state[1] else -good

    def __str__(self) -> str:
        """The root position as text (the lab's generic view shows it): one line per heap."""
        heaps, first = self._root
        lines = [f"heap {i + 1}: {'|' * h or '-'} ({h})" for i, h in enumerate(heaps)]
        return "\n".join(lines + [f"{'first' if first else 'second'} player to move"])

    def hash_key(self, state: tuple) -> int:
        digest = hashlib.blake2b(repr(state).encode(), digest_size=8).digest()
        return int.from_bytes(digest, "little")


def move_text(move: tuple[int, int]) -> str:
    """A move's name: "2-3" takes 3 from heap 2 (heaps numbered from 1)."""
    return f"{move[0] + 1}-{move[1]}"


#: the declaration an installed plug-in names in its entry points
#: ([project.entry-points."searchlab.games"] nim = "nim_game:GAME"; docs/extending.md)
GAME = GameEntry(name="nim", make=Nim, nominal_b=3, label="Nim", format_move=move_text, order=60)
