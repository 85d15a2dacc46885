"""docs/extending.md's worked example, run as written: Nim from a file outside the package,
swept from the user's own config directory, with its report, and the battery's check."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from searchlab import load
from searchlab.algorithms.search_api import search

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "extending.md"
BIN = Path(sys.executable).parent


def _documented_command() -> list[str]:
    text = DOC.read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("PYTHONPATH=tests/data/plugins searchlab ")
                and "search.plugins" not in ln      # tests/plugins/test_ordering_plugins.py
                and "pruning" not in ln)            # tests/plugins/test_pruning_plugin.py
    env_word, prog, *args = shlex.split(line)
    assert env_word == "PYTHONPATH=tests/data/plugins" and prog == "searchlab"
    return args


@pytest.mark.slow
def test_the_worked_example_runs_as_written(tmp_path):
    args = _documented_command()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT / "tests/data/plugins"), str(ROOT)]))
    out = subprocess.run([str(BIN / "searchlab"), *args, f"results_dir={tmp_path}",
                          "runner.progress=false"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    said = out.stdout + out.stderr
    assert said.count("nim: no compiled primitives; searched on the reference engine") == 1
    (run,) = list((tmp_path / "nim").iterdir())
    report = (run / "report.md").read_text()
    assert "## Move-ordering policies" in report
    df = load(str(run))
    assert set(df["game"]) == {"nim"} and set(df["d"]) == {1, 2, 3, 4}
    assert set(df["ordering"]) == {"natural", "random", "static", "id+tt+killer+history"}
    assert (df["status"] == "ok").all()
    # every row's value is plain minimax's at its depth (all orderings are sound)
    sys.path.insert(0, str(ROOT / "tests/data/plugins"))
    try:
        from nim_game import Nim
    finally:
        sys.path.remove(str(ROOT / "tests/data/plugins"))
    for d, values in df.groupby("d")["value"]:
        assert set(values) == {search(Nim((1, 2, 3)), "minimax", depth=int(d),
                                      engine="reference").value}


def test_the_documented_config_is_the_shipped_one():
    shipped = (ROOT / "tests/data/plugins/conf/game/nim.yaml").read_text()
    body = [ln for ln in shipped.splitlines() if ln and not ln.startswith("# ") or ln == "# @package _global_"]
    doc = DOC.read_text()
    for ln in body:
        assert re.sub(r"\s+#.*$", "", ln) in doc, ln
