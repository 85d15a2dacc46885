"""The i.i.d. synthetic tree of docs/iid-tree-spec.md (a copy of the shared specification)."""

from __future__ import annotations

from searchlab.errors import InvalidParameterError
from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import GOLDEN, MASK64, mix64, root_key
from searchlab.limits import MAX_LEVELS
from searchlab.trees import iid_compiled
from searchlab.trees.base import SyntheticTree, check_int, check_real

_TWO_POW_M53 = 2.0**-53


class IIDTree(SyntheticTree):
    """Uniform tree, branching b, depth d; leaf values i.i.d. from the leaf's key.

    levels = 0: continuous values (key >> 11) * 2^-53 in [0, 1); levels = K >= 1: integer values
    key mod K (returned as float). win_prob = q in [0, 1] (with levels = 0 only; not part of the
    shared specification, see docs/trees.md): win/loss leaves, 1.0 (a win for MAX) when
    (key >> 11) < win_threshold = round(q * 2^53), else 0.0, so P(win) = win_threshold / 2^53.
    Interior nodes have no static value. State: (key, ply, index).
    """

    model = "iid"
    capabilities = Capabilities(node_ids=True, kernel_model="iid", compiled=True)

    def __init__(self, b: int, d: int, seed: int = 0, levels: int = 0,
                 win_prob: float | None = None) -> None:
        super().__init__(b, d, seed)
        self.levels = check_int("levels", levels, 0, MAX_LEVELS)
        self.win_prob = None if win_prob is None else check_real("win_prob", win_prob, 0.0, 1.0)
        if self.win_prob is not None and self.levels:
            raise InvalidParameterError(
                f"win_prob sets win/loss leaves itself: use it with levels=0; got levels={levels}")
        self.win_threshold = None if win_prob is None else int(round(self.win_prob * 2**53))
        self.root_key = root_key(self.seed)

    @property
    def name(self) -> str:
        extra = "" if self.win_prob is None else f", win_prob={self.win_prob!r}"
        return f"iid(b={self.b}, d={self.d}, seed={self.seed}, levels={self.levels}{extra})"

    def root_state(self) -> tuple[int, int, int]:
        return (self.root_key, 0, 0)

    def play(self, state: tuple[int, int, int], i: int) -> tuple[int, int, int]:
        key, ply, index = state
        return (mix64((key + (i + 1) * GOLDEN) & MASK64), ply + 1, index * self.b + i)

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.trees.iid_compiled)."""
        return iid_compiled.compiled_game(self)

    def utility(self, state: tuple[int, int, int]) -> float:
        key = state[0]
        if self.win_threshold is not None:
            return 1.0 if (key >> 11) < self.win_threshold else 0.0
        if self.levels:
            return float(key % self.levels)
        return (key >> 11) * _TWO_POW_M53
