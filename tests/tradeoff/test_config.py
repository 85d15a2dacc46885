"""The study's config: composition, presets, and one clear line per user error."""

from __future__ import annotations

import subprocess
import sys

import pytest

from searchlab.tradeoff.config import TradeoffConfigError, load, selected_domains


def test_default_is_the_unsound_tradeoff_study():
    cfg = load([])
    assert cfg.study == "unsound_tradeoff" and cfg.size == "full"
    fams = {t.family for t in cfg.techniques}
    assert fams == {"sound", "null_move", "lmr", "futility", "razoring", "beam", "probcut",
                    "quiescence"}
    assert selected_domains(cfg) == ["incremental", "connect4", "othello", "chess"]
    assert cfg.domains.connect4.match.enabled and cfg.domains.othello.match.enabled


def test_domain_selection_and_presets():
    assert selected_domains(load(["domain=incremental"])) == ["incremental"]
    assert selected_domains(load(["domain=[connect4,chess]"])) == ["connect4", "chess"]
    tiny = load(["tradeoff_size=tiny"])
    assert tiny.size == "tiny" and tiny.domains.incremental.positions == 3


@pytest.mark.parametrize("override,match", [
    (["domain=go"], "unknown domain 'go'"),
    (["n_jobs=0"], "n_jobs must be"),
    (["n_jobs=abc"], "n_jobs"),
    (["domains.connect4.depth=0"], "domains.connect4.depth must be an integer >= 1"),
    (["domains.incremental.correlations=[1.5]"], "correlations must lie in"),
    (["domains.connect4.benchmark=nope.txt"], "no such file"),
    (["domains.chess.probcut_fit.deep=1"], "probcut_fit.deep must be"),
    (["+domains.incremental.match={enabled: true}"], "connect4 and othello only"),
    (["domains.connect4.match.techniques=[warp]"], "'warp' is not a technique label"),
    (["foo=1"], "Could not override 'foo'"),
    (["techniques=[]"], "techniques: the list is empty"),
    (["techniques.1.family=beam"], "family .beam. needs exactly"),
])
def test_user_errors_are_one_line(override, match):
    with pytest.raises(TradeoffConfigError, match=match) as e:
        load(override)
    assert "\n" not in str(e.value)


def test_cli_prints_one_line_and_exits_2():
    r = subprocess.run([sys.executable, "-m", "searchlab.tradeoff.cli", "domains.othello.ply=99"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0
    assert "domains.othello.ply must be <= 50" in r.stderr and "Traceback" not in r.stderr
