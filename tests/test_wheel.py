"""A wheel install works from any directory: build the wheel, install it into a fresh venv
(dependencies from the package index), run the default study elsewhere.

Slow (it installs numpy, numba, pandas, scipy, matplotlib, hydra, pyarrow into a new venv):
run with ``pytest -m slow tests/test_wheel.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd, **kw):
    out = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    assert out.returncode == 0, f"{cmd}: {out.stdout[-2000:]}\n{out.stderr[-3000:]}"
    return out


@pytest.mark.slow
def test_wheel_installs_and_runs_the_default_study_elsewhere(tmp_path):
    dist = tmp_path / "dist"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", dist,
          ROOT], timeout=600)
    wheel = next(dist.glob("searchlab-*.whl"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    py = env_dir / "bin" / "python"
    # without PYTHONPATH: a checkout on it (its searchlab.egg-info) would count as installed
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    _run([py, "-m", "pip", "install", "--quiet", wheel], env=clean, timeout=1800)
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {"PATH": f"{env_dir / 'bin'}:/usr/bin:/bin", "HOME": str(tmp_path)}
    # the installed package, not this checkout
    where = _run([py, "-c", "import searchlab, sys; print(searchlab.__file__)"], cwd=work,
                 env=env, timeout=300).stdout
    assert str(env_dir) in where and str(ROOT) not in where
    out = _run([env_dir / "bin" / "searchlab", "runner.n_jobs=1", "runner.progress=false"],
               cwd=work, env=env, timeout=1200)
    assert "report:" in out.stdout
    tables = list((work / "results" / "tour").glob("*/table/part-*.parquet"))
    assert tables, out.stdout
    # the presets ship inside the package too
    _run([env_dir / "bin" / "searchlab", "experiment=knuth_moore", "--cfg", "job"], cwd=work,
         env=env, timeout=300)
