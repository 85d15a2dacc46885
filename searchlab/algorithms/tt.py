"""The transposition table of the reference search.

An entry holds (key, depth, value, bound, best move): ``depth`` is the *remaining* depth the
value was searched to, ``bound`` says what the value is (EXACT, LOWER: true value >= value,
UPPER: true value <= value) and ``value`` is from MAX's point of view. searchlab's values are
functions of the position alone (a game's utility may depend on the moves played so far only
through the state itself, e.g. Connect Four's stone count), so entries need no ply adjustment:
a win stored at one ply means the same win at any other.

Replacement: the table has ``size`` slots (a power of two), a key's slot is ``key % size``; a
new entry replaces the slot's entry when it belongs to the same key, was searched at least as
deep, or the slot's entry is from an earlier search (``new_search`` ages the table). That is the
classic "depth-preferred, aged" scheme.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Hashable

from searchlab.errors import InvalidParameterError
from searchlab.limits import MAX_TT_SIZE, excerpt

EXACT, LOWER, UPPER = 0, 1, 2


@dataclass(frozen=True)
class Entry:
    key: int
    depth: int
    value: float
    bound: int
    move: Hashable | None
    age: int


class TranspositionTable:
    """Fixed-size table with probe/store counters (probes, hits, cutoffs, stores).

    With ``values=False`` it keeps only best moves (move ordering for iterative deepening);
    probes then never return a value.
    """

    def __init__(self, size: int = 1 << 16, values: bool = True) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1 or size & (size - 1) \
                or size > MAX_TT_SIZE:
            raise InvalidParameterError(f"tt_size must be a power of two in [1, {MAX_TT_SIZE}] "
                                        f"(searchlab.limits.MAX_TT_SIZE); got {excerpt(size)}")
        self.size, self.values = size, values
        self.slots: list[Entry | None] = [None] * size
        self.age = 0
        self.probes = self.hits = self.cutoffs = self.stores = 0

    def new_search(self) -> None:
        """Age the table: entries of earlier searches become replaceable."""
        self.age += 1

    def entry(self, key: int) -> Entry | None:
        e = self.slots[key % self.size]
        return e if e is not None and e.key == key else None

    def probe(self, key: int, depth: int, alpha: float, beta: float) -> float | None:
        """A value that settles the node for window (alpha, beta) at remaining ``depth``, or None.

        Only entries searched at least as deep are used; a LOWER bound settles a node only
        when it fails high (>= beta), an UPPER bound only when it fails low (<= alpha).
        """
        self.probes += 1
        e = self.entry(key)
        if e is None:
            return None
        self.hits += 1
        if not self.values or e.depth < depth:
            return None
        if e.bound == EXACT or (e.bound == LOWER and e.value >= beta) or \
                (e.bound == UPPER and e.value <= alpha):
            self.cutoffs += 1
            return e.value
        return None

    def move(self, key: int) -> Hashable | None:
        e = self.entry(key)
        return None if e is None else e.move

    def store(self, key: int, depth: int, value: float, alpha: float, beta: float,
              move: Hashable | None) -> None:
        """Store a node's result; the bound follows from the window it was searched with."""
        bound = UPPER if value <= alpha else LOWER if value >= beta else EXACT
        i = key % self.size
        old = self.slots[i]
        if old is None or old.key == key or depth >= old.depth or old.age != self.age:
            self.slots[i] = Entry(key, depth, value, bound, move, self.age)
            self.stores += 1
