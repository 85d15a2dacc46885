"""Games in studies: which positions a game study searches, and how a worker rebuilds them.

A game study's *instances* are positions (DESIGN.md, "Seeds"):

- ``tictactoe``: ``start``, the empty board (one position);
- ``connect4``: a Pons benchmark file shipped in ``searchlab/data/connect4/`` (``Test_L1_R1``,
  ``Test_L2_R1``, ``Test_L3_R1``: 1000 positions each, as move strings);
- ``othello``: ``random``: ``sweep.instances`` positions, each after ``game.ply`` uniformly
  random moves from the start (``searchlab.games.othello.random_position``), the seed of
  position i derived from the experiment's root seed and (game, source, ply, i);
- ``chess``: an EPD suite shipped in ``searchlab/data/chess/`` (``wac``, ``bk``);
- ``hex``: the board size ``NxN`` (``1x1`` .. ``11x11``): ``sweep.instances`` positions, each after
  ``game.ply`` uniformly random moves from the empty board
  (``searchlab.games.hex.random_position``), seeded like Othello's.

File sources with ``game.sample = n`` take the first n positions of a seeded permutation of the
file (the permutation derives from the root seed and (game, source) only), so a smaller sample
is a prefix of a larger one and position i is the same whatever n; ``sample`` null / ``all``
takes every position in file order. Every position's ``seed`` column derives from the root seed
and its identity (game, source, ply, instance): the same position for every depth, algorithm
and ordering (paired comparisons). Tasks carry the position's text (moves, FEN, EPD line, seed),
so workers never read the data files.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union, overload

from searchlab.experiment.seeds import derive_seed
from searchlab.games.registry import GameEntry, entry, entry_from_target, game_names


@dataclass(frozen=True)
class GameSpec:
    """A game study's game and position source (plain values)."""

    name: str
    positions: str
    sample: Optional[int] = None          # None = all (file sources)
    ply: Optional[int] = None             # random sources (othello, hex)
    depths: Optional[tuple] = None        # search depths for this game (None = sweep.d)
    target: Optional[str] = None          # a config's game._target_ (a plug-in game class)
    params: tuple = ()                    # its keyword arguments, sorted (key, value) pairs

    def entry(self) -> GameEntry:
        """This game's registry entry (a ``_target_`` game: the entry built from it)."""
        if self.target is not None:
            return entry_from_target(self.name, self.target, dict(self.params), self.positions)
        return entry(self.name)

    def identity(self) -> dict[str, Any]:
        d: dict[str, Any] = {"game": self.name, "positions": self.positions}
        if self.entry().source_kind == "random":
            d["ply"] = self.ply
        if self.target is not None:      # plug-ins only: built-ins' identities stay as stored
            d["target"] = self.target
            if self.params:
                d["params"] = [list(p) for p in self.params]
        return d


@dataclass(frozen=True)
class Position:
    """One position of a game study (an instance)."""

    instance: int
    id: str             # the `position` column: moves, EPD id, or "ply20#3"
    seed: int           # the `seed` column (random sources: the random play's seed)
    text: str = ""      # file sources: the position's text (connect4 moves, chess FEN)
    epd: str = ""       # chess: the EPD line (solutions)


def position_identity(spec: GameSpec, instance: int) -> str:
    return json.dumps({**spec.identity(), "instance": instance}, sort_keys=True)


class RandomPositions(Sequence):
    """The ``n`` seeded random positions of a ``random`` source, built when read: a study of
    10^6 Othello positions is validated, planned from its sizes (``--cfg job``, ``--plan``) and
    guarded without deriving 10^6 seeds; position i is the same whichever way it is read."""

    def __init__(self, spec: GameSpec, root_seed: int, n: int) -> None:
        self.spec, self.root_seed, self.n = spec, root_seed, n

    def __len__(self) -> int:
        return self.n

    @overload
    def __getitem__(self, i: int) -> Position: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Position, ...]: ...

    def __getitem__(self, i: Union[int, slice]) -> Union[Position, tuple[Position, ...]]:
        if isinstance(i, slice):
            return tuple(self[k] for k in range(*i.indices(self.n)))
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(f"position {i} of {self.n}")
        return Position(i, f"ply{self.spec.ply}#{i}",
                        derive_seed(self.root_seed, position_identity(self.spec, i)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RandomPositions):
            return (self.spec, self.root_seed, self.n) == (other.spec, other.root_seed, other.n)
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash((self.spec, self.root_seed, self.n))

    def __repr__(self) -> str:
        return f"RandomPositions({self.spec.name} ply {self.spec.ply}, {self.n} positions)"


def select_positions(spec: GameSpec, root_seed: int,
                     instances: int) -> Sequence[Position]:
    """The positions of a game study, in instance order (ValueError on a bad source); a random
    source's are a lazy :class:`RandomPositions`."""
    def seed(i: int) -> int:
        return derive_seed(root_seed, position_identity(spec, i))

    e = spec.entry()
    if e.source_kind == "start":
        return (Position(0, "start", seed(0)),)
    if e.source_kind == "random":
        return RandomPositions(spec, root_seed, instances)
    entries = list(e.load_positions(spec.positions))
    order = list(range(len(entries)))
    if spec.sample is not None:
        import numpy as np      # here: a study without a file sample validates without numpy

        perm_seed = derive_seed(root_seed, json.dumps({**spec.identity(), "sample": True},
                                                      sort_keys=True))
        order = [int(k) for k in np.random.default_rng(perm_seed).permutation(len(entries))]
        order = order[:spec.sample]
    return tuple(Position(i, entries[k][0], seed(i), entries[k][1], entries[k][2])
                 for i, k in enumerate(order))


def make_game(spec: GameSpec, pos: Position) -> Any:
    """The Game rooted at ``pos`` (MAX = the side to move there)."""
    e = spec.entry()
    if e.source_kind == "start":
        return e.start()
    if e.source_kind == "random":
        return e.random(spec.positions, int(spec.ply), int(pos.seed))
    return e.from_text(pos.text)


def sample_game(name: str, spec: Optional[GameSpec] = None) -> Any:
    """A game object of this kind (its start position), for checking ordering names."""
    return (spec.entry() if spec is not None else entry(name)).start()


def hex_size(source: str) -> int:
    """The board size n of a hex position source ``"NxN"``."""
    return int(source.split("x")[0])


def average_branching(game: Any) -> float:
    """The measured average branching factor b̄ of a position: legal moves per non-terminal
    position over the root and its children (ply 0 and 1), i.e. (n1 + n2) / (1 + m1) where n1
    is the root's move count, n2 the children's move counts summed, m1 the non-terminal
    children. NaN at a terminal root."""
    root = game.initial_state()
    if game.is_terminal(root):
        return float("nan")
    moves = game.legal_moves(root)
    total, positions = len(moves), 1
    for m in moves:
        child = game.play(root, m)
        if not game.is_terminal(child):
            total += len(game.legal_moves(child))
            positions += 1
    return total / positions


def format_move(game_name: Optional[str], move: Any) -> Optional[str]:
    """The `best_move` column: trees str(int), Othello square names, chess UCI, else str."""
    if move is None:
        return None
    if game_name is None:
        try:
            return str(int(move))
        except (TypeError, ValueError):
            return str(move)
    fmt = entry(game_name).format_move if game_name in game_names() else None
    return fmt(move) if fmt is not None else str(move)
