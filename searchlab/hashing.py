"""The 64-bit key arithmetic shared by every synthetic tree (docs/iid-tree-spec.md).

Python ints are unbounded, so every operation is masked to 64 bits. The numba kernels repeat
these functions on uint64 (searchlab/algorithms/kernels/hashing_compiled.py); tests compare the two.
"""

from __future__ import annotations

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
RANDOM_ORDER_SALT = 0x5851F42D4C957F2D
ORDER_SALT = 0xD1B54A32D192ED03
GOOD_SALT = 0x2545F4914F6CDD1D
NOISE_SALT = 0x9FB21C651E98DF25
NULL_SALT = 0xC13FA9A902A6328F
VECTOR_SALT = 0x3C6EF372FE94F82B       # the n-player tree's payoff vectors (docs/chance-tree-spec.md)
TWO_POW_M53 = 2.0**-53


def mix64(z: int) -> int:
    """SplitMix64's finaliser on an unsigned 64-bit integer."""
    z &= MASK64
    z ^= z >> 30
    z = (z * 0xBF58476D1CE4E5B9) & MASK64
    z ^= z >> 27
    z = (z * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def root_key(seed: int) -> int:
    """Key of the root of the tree with this seed: mix64(seed + GOLDEN)."""
    return mix64((seed + GOLDEN) & MASK64)


def child_key(parent_key: int, i: int) -> int:
    """Key of child i (natural index, 0-based): mix64(parent_key + (i + 1) * GOLDEN)."""
    return mix64((parent_key + (i + 1) * GOLDEN) & MASK64)


def unit(z: int) -> float:
    """A double in [0, 1) from the top 53 bits of z."""
    return (z >> 11) * TWO_POW_M53


def random_order_salt(ordering_seed: int) -> int:
    """The salt of the seeded random ordering (docs/trees.md)."""
    return mix64((ordering_seed & MASK64) ^ RANDOM_ORDER_SALT)
