"""The code base passes the linter configured in pyproject.toml ([tool.ruff]): no unused import
or variable, no undefined name, every blind ``except`` and late import justified."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_passes():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    assert Path(ruff).exists(), "ruff is not installed: pip install -e '.[test]'"
    out = subprocess.run([ruff, "check", "--no-cache", "searchlab", "analysis", "tests", "benchmarks", "setup.py"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
