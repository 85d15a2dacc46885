"""The one seed derivation of the engine: every seed a task uses (tree, position, ordering,
sample permutation) is ``derive_seed(root seed, identity string)``, never global random state
and never execution order. See grid.py's docstring for the identities.
"""

from __future__ import annotations

import hashlib

import numpy as np


def _words(text: str) -> tuple[int, ...]:
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))


def derive_seed(root_seed: int, identity: str) -> int:
    """A uint64 from the root seed and an identity string, through numpy's SeedSequence."""
    ss = np.random.SeedSequence(entropy=root_seed, spawn_key=_words(identity))
    return int(ss.generate_state(1, dtype=np.uint64)[0])
