"""The seed derivations of the engine: every seed a search task uses (tree, position, ordering,
sample permutation) is ``derive_seed(root seed, identity string)``, never global random state
and never execution order. See grid.py's docstring for the identities.

The trade-off study (experiment=unsound_tradeoff) derives its seeds with ``tradeoff_seed``, the
derivation it had before it became part of the engine, kept so that its positions and published
numbers stay the same (analysis/reproduce.py; tests/analysis/test_reproduce_same.py).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _words(text: str) -> tuple[int, ...]:
    digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
    return tuple(int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4))


def derive_seed(root_seed: int, identity: str) -> int:
    """A uint64 from the root seed and an identity string, through numpy's SeedSequence."""
    # numpy here, not at the top: validation and the dry run (--cfg job, --plan) import this
    # module and derive no seed (benchmarks/startup.py)
    import numpy as np

    ss = np.random.SeedSequence(entropy=root_seed, spawn_key=_words(identity))
    return int(ss.generate_state(1, dtype=np.uint64)[0])


def task_digest(identity: str) -> str:
    """A task's id: 16 hex digits of the blake2b digest of its identity's text (every kind's
    task ids, so a resumed run knows which tasks are stored)."""
    return hashlib.blake2b(identity.encode(), digest_size=8).hexdigest()


def config_digest(science: Any) -> str:
    """A config hash: 16 hex digits of the SHA-256 of ``science`` as canonical JSON (sorted
    keys; a value JSON lacks as its str()): every kind's hash of what changes its numbers."""
    return hashlib.sha256(json.dumps(science, sort_keys=True, default=str).encode()).hexdigest()[:16]


def tradeoff_seed(root_seed: int, *identity: object) -> int:
    """A 63-bit seed from the root seed and a task identity (numpy SeedSequence over the words
    of a SHA-256 of ``repr(identity)``): independent of execution order and of n_jobs."""
    import numpy as np

    words = np.frombuffer(hashlib.sha256(repr(identity).encode()).digest(), dtype=np.uint32)
    ss = np.random.SeedSequence([int(root_seed), *map(int, words)])
    return int(ss.generate_state(2, dtype=np.uint64)[0] >> np.uint64(1))
