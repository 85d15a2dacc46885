"""Test code run as plain Python: numba reads NUMBA_DISABLE_JIT when it is imported, so the
compiled kernels run uncompiled only in a fresh interpreter."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_without_jit(code: str, *, timeout: float = 600, flags: tuple[str, ...] = ()) -> str:
    """Run ``code`` (``python -c``, after the interpreter ``flags``) with NUMBA_DISABLE_JIT=1,
    from the checkout's root with the checkout first on the path; its standard output. Fails
    the calling test with the end of standard error when the process exits non-zero."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    out = subprocess.run([sys.executable, *flags, "-c", code], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout
