"""The i.i.d. synthetic tree of docs/iid-tree-spec.md (a copy of the shared specification)."""

from __future__ import annotations

from searchlab.games.protocol import Capabilities
from searchlab.hashing import GOLDEN, MASK64, mix64, root_key
from searchlab.trees import iid_compiled
from searchlab.trees.base import SyntheticTree, check_int

_TWO_POW_M53 = 2.0**-53


class IIDTree(SyntheticTree):
    """Uniform tree, branching b, depth d; leaf values i.i.d. from the leaf's key.

    levels = 0: continuous values (key >> 11) * 2^-53 in [0, 1); levels = K >= 1: integer values
    key mod K (returned as float). Interior nodes have no static value. State: (key, ply, index).
    """

    model = "iid"
    capabilities = Capabilities(node_ids=True, kernel_model="iid", compiled=True)

    def __init__(self, b: int, d: int, seed: int = 0, levels: int = 0) -> None:
        super().__init__(b, d, seed)
        self.levels = check_int("levels", levels, 0)
        self.root_key = root_key(self.seed)

    @property
    def name(self) -> str:
        return f"iid(b={self.b}, d={self.d}, seed={self.seed}, levels={self.levels})"

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
        if self.levels:
            return float(key % self.levels)
        return (key >> 11) * _TWO_POW_M53
