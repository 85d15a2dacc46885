"""Self-recursive numba kernels that numba's on-disk cache can hold.

A recursive function compiled by type inference and cached crashes the process that loads it
(numba issues #6061, #6713: the recursive call is linked to a specialisation the cache does not
restore). One compiled for an explicit signature, whose recursive calls have exactly those
types, loads cleanly. ``ready(dispatcher, signature)`` compiles (or loads from the cache) a
lazily decorated ``@njit(cache=True)`` kernel for its one signature on first use and then
forbids other specialisations (arguments are converted to it, e.g. C-contiguous to 'A'
arrays); decorating with the signature instead would compile at import, in every process
that imports the module, whether it searches or not. Under NUMBA_DISABLE_JIT the kernel is a
plain function and is returned as it is.
"""

from __future__ import annotations

from typing import Any


def ready(dispatcher: Any, signature: Any) -> Any:
    """The dispatcher, compiled for ``signature`` (once per process; a cache load if warm)."""
    if hasattr(dispatcher, "compile") and not dispatcher.signatures:
        dispatcher.compile(signature)
        dispatcher.disable_compile()
    return dispatcher
