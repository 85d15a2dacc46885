"""The synthetic n-player tree of docs/chance-tree-spec.md ("n-player trees"): a
MultiPlayerGame (searchlab.contracts.protocol) with i.i.d. or constant-sum value vectors."""

from __future__ import annotations

from typing import Any

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import GOLDEN, MASK64, VECTOR_SALT, mix64, root_key, unit
from searchlab.trees import nplayer_compiled
from searchlab.trees.base import check_int


class NPlayerTree:
    """Uniform tree for ``players`` >= 2: branching b, depth d plies, player 0 moves at the
    root and players move in turn (0, 1, ..., n-1, 0, ...).

    Keys: root mix64(seed + GOLDEN); the child after move i (0..b-1) by player p is
    mix64(key + (p·b + i + 1)·GOLDEN) (for p = 0 the i.i.d. tree's scheme). Leaf vectors
    (component j of the leaf with key k; z_j = mix64((k XOR VECTOR_SALT) + (j + 1)·GOLDEN)):

    - values="iid", levels=0: unit(z_j) in [0, 1); levels=K >= 1: z_j mod K (float);
    - values="constsum": ``total`` points, point t (0..total-1) going to player
      mix64((k XOR VECTOR_SALT) + (t + 1)·GOLDEN) mod n: integers >= 0 summing to ``total``.

    State: (key, ply, mover). ``with_mover`` (for best-reply search) sets the mover.
    """

    model = "nplayer"
    has_static = False

    def __init__(self, players: int, b: int, d: int, seed: int = 0, values: str = "iid",
                 levels: int = 0, total: int = 12) -> None:
        self.n_players = check_int("players", players, 2)
        self.capabilities = Capabilities(two_player=self.n_players == 2, zero_sum=False,
                                         constant_sum=True, with_mover=True, family_compiled=True)
        self.b = check_int("b", b, 1)
        self.d = check_int("d", d, 0)
        self.seed = check_int("seed", seed, 0)
        if values not in ("iid", "constsum"):
            raise InvalidParameterError(f"values must be 'iid' or 'constsum'; got {values!r}")
        self.values = values
        self.levels = check_int("levels", levels, 0)
        self.total = check_int("total", total, 1)
        self.root_key = root_key(self.seed)

    @property
    def name(self) -> str:
        v = f"levels={self.levels}" if self.values == "iid" else f"total={self.total}"
        return f"nplayer(n={self.n_players}, b={self.b}, d={self.d}, seed={self.seed}, {self.values}, {v})"

    default_depth = property(lambda self: self.d)

    def leaf_total(self, state: tuple, depth: float) -> int | None:
        """The constant sum of every leaf's payoffs (constsum), else None."""
        return self.total if self.values == "constsum" else None

    def initial_state(self) -> tuple[int, int, int]:
        return (self.root_key, 0, 0)

    def to_move(self, state: tuple[int, int, int]) -> int:
        return state[2]

    def with_mover(self, state: tuple[int, int, int], player: int) -> tuple[int, int, int]:
        return (state[0], state[1], player)

    def legal_moves(self, state: tuple) -> range:
        return range(0) if state[1] >= self.d else range(self.b)

    def play(self, state: tuple[int, int, int], i: int) -> tuple[int, int, int]:
        key, ply, p = state
        return (mix64((key + (p * self.b + i + 1) * GOLDEN) & MASK64), ply + 1, (p + 1) % self.n_players)

    def is_terminal(self, state: tuple) -> bool:
        return state[1] >= self.d

    def utility_vector(self, state: tuple) -> tuple[float, ...]:
        base = state[0] ^ VECTOR_SALT
        n = self.n_players
        if self.values == "constsum":
            v = [0] * n
            for t in range(self.total):
                v[mix64((base + (t + 1) * GOLDEN) & MASK64) % n] += 1
            return tuple(float(x) for x in v)
        zs = [mix64((base + (j + 1) * GOLDEN) & MASK64) for j in range(n)]
        if self.levels:
            return tuple(float(z % self.levels) for z in zs)
        return tuple(unit(z) for z in zs)

    def evaluate_vector(self, state: tuple) -> tuple[float, ...]:
        raise UnsupportedError(f"the n-player tree has no static values: search it to its depth {self.d}")

    def hash_key(self, state: tuple) -> int:
        return state[0]

    def family_primitives(self) -> Any:
        """The compiled n-player engine's primitives (searchlab.trees.nplayer_compiled)."""
        return nplayer_compiled.compiled_nplayer_game(self)

    def __repr__(self) -> str:
        return self.name
