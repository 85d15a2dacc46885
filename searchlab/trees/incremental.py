"""The incremental tree: a static value at every node, the sum of edge values (docs/trees.md).

Two knobs: ``decay`` (how well a node's static value predicts its subtree's minimax value) and
``correlation`` (how strongly a move index is good across sibling subtrees).
"""

from __future__ import annotations

import math

from searchlab.contracts.protocol import Capabilities
from searchlab.hashing import GOLDEN, GOOD_SALT, MASK64, NOISE_SALT, NULL_SALT, mix64, root_key, unit
from searchlab.trees import incremental_compiled
from searchlab.trees.base import SyntheticTree, check_real


class IncrementalTree(SyntheticTree):
    """Uniform tree with static values; leaf value = static value at ply d. State:
    (key, ply, index, static). ``decay`` in (0, 1], ``correlation`` in [0, 1].

    Precomputed per tree (the kernels use the very same floats): ``scale[t] = decay**t``,
    ``good[t][i]`` the goodness of move i at ply t, ``a_coef = sqrt(correlation)``,
    ``c_coef = sqrt(1 - correlation)``.
    """

    model = "incremental"
    capabilities = Capabilities(node_ids=True, static_values=True, null_move=True,
                                kernel_model="incremental", compiled=True)

    def __init__(self, b: int, d: int, seed: int = 0, decay: float = 0.8,
                 correlation: float = 0.5) -> None:
        super().__init__(b, d, seed)
        self.decay = check_real("decay", decay, 0.0, 1.0, low_open=True)
        self.correlation = check_real("correlation", correlation, 0.0, 1.0)
        self.root_key = root_key(self.seed)
        self.scale = tuple(self.decay**t for t in range(self.d + 1))
        base = self.root_key ^ GOOD_SALT
        self.good = tuple(
            tuple(2.0 * unit(mix64((base + (t * self.b + i + 1) * GOLDEN) & MASK64)) - 1.0
                  for i in range(self.b))
            for t in range(self.d))
        self.a_coef = math.sqrt(self.correlation)
        self.c_coef = math.sqrt(1.0 - self.correlation)

    @property
    def name(self) -> str:
        return (f"incremental(b={self.b}, d={self.d}, seed={self.seed}, decay={self.decay}, "
                f"correlation={self.correlation})")

    def root_state(self) -> tuple:
        return (self.root_key, 0, 0, 0.0)

    def play(self, state: tuple, i: int) -> tuple:
        key, ply, index, static = state
        ck = mix64((key + (i + 1) * GOLDEN) & MASK64)
        noise = 2.0 * unit(mix64(ck ^ NOISE_SALT)) - 1.0
        sign = 1.0 if ply % 2 == 0 else -1.0
        edge = sign * self.scale[ply] * (self.a_coef * self.good[ply][i] + self.c_coef * noise)
        return (ck, ply + 1, index * self.b + i, static + edge)

    def utility(self, state: tuple) -> float:
        return state[3]

    def evaluate(self, state: tuple) -> float:
        return state[3]

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.trees.incremental_compiled)."""
        return incremental_compiled.compiled_game(self)

    def null_move_allowed(self, state: tuple) -> bool:
        """Always: a synthetic tree has no zugzwang guard."""
        return True

    def null_move(self, state: tuple) -> tuple:
        """The side to move passes: the opponent moves next from the same static value, so it
        moves twice in a row (docs/trees.md, "Null move"). The null position gets the fresh key
        mix64(key XOR NULL_SALT) and no level-order index (-1)."""
        key, ply, _, static = state
        return (mix64(key ^ NULL_SALT), ply + 1, -1, static)
