"""A pruning technique from outside the package (docs/extending.md, "A pruning technique"):
a user's own ``pruning/<name>.yaml`` selecting a built-in family with their parameters, and a
plug-in family (tests/data/plugins/mypruning.py: a ``Family`` with a ``skip`` hook) named by
``module:ATTR``, by ``register_family`` or by an entry point, swept from the user's config
directory on the reference engine and checked by the battery."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from searchlab import load, plugin_entry_points
from searchlab.algorithms import compiled_engine
from searchlab.contracts import pruning as P  # the records and the family registry
from searchlab.algorithms.pruning import (Family, LateMoveReductions, PluginRule, Pruning,
                                          Technique, family_of, register_family)
from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.games.tictactoe import TicTacToe
from searchlab.testing import ConformanceError, check_pruning

from ..experiment.conftest import run_main as _main

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
SEARCHPATH = f"hydra.searchpath=[file://{PLUGINS / 'conf'}]"

sys.path.insert(0, str(PLUGINS))
import mypruning  # noqa: E402
from nim_game import Nim  # noqa: E402


def _documented_command() -> list[str]:
    """docs/extending.md's sweep of the pruning plug-in, as written (its arguments)."""
    text = (ROOT / "docs" / "extending.md").read_text()
    line = next(ln for ln in text.splitlines()
                if ln.startswith("PYTHONPATH=tests/data/plugins searchlab ") and "sweep.pruning" in ln)
    env_word, prog, *args = shlex.split(line)
    assert env_word == "PYTHONPATH=tests/data/plugins" and prog == "searchlab"
    return args


def _late_cut(keep: int, depth: int = 1) -> Pruning:
    return Pruning(plugin=PluginRule(mypruning.LATE_CUT, mypruning.LateCutParams(keep, depth)))


def test_a_sweep_with_the_users_own_options(tmp_path):
    """The user's options (a built-in family with their parameters, a plug-in family with an
    override of its parameter) swept from their config directory, the module on PYTHONPATH:
    every row is the search the option says, the plug-in on the reference engine (said once)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGINS), str(ROOT)]))
    out = subprocess.run([sys.executable, "-m", "searchlab.cli", *_documented_command(),
                          "runner.progress=false", f"results_dir={tmp_path}"], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    said = out.stdout + out.stderr
    assert said.count("pruning late_cut_2(params.keep=3) (late_cut): a plug-in family; searched "
                      "on the reference engine") == 1
    (run,) = list((tmp_path / "nim").iterdir())
    df = load(str(run))
    assert set(df["pruning"]) == {"none", "late_cut_2(params.keep=3)", "my_lmr"}
    assert (df["status"] == "ok").all() and set(df["engine"]) == {"reference"}
    records = {"none": None, "late_cut_2(params.keep=3)": _late_cut(3),
               "my_lmr": Pruning(lmr=LateMoveReductions(after=1, min_depth=2, reduction=1))}
    for row in df.itertuples():
        r = search(Nim((1, 2, 3)), "alphabeta", "natural", depth=int(row.d), engine="reference",
                   pruning=records[row.pruning])
        assert (row.nodes, row.value) == (r.nodes, r.value), row.pruning
    cut = df[df["pruning"] != "my_lmr"].pivot(index="d", columns="pruning", values="nodes")
    assert (cut["late_cut_2(params.keep=3)"] <= cut["none"]).all()


def test_plugin_options_are_checked_like_the_builtins(monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(PLUGINS))
    base = ["game=nim", SEARCHPATH, "sweep.d=2", "sweep.ordering=[natural]", "--plan"]
    code, out, err = _main(monkeypatch, capsys, *base, "pruning=late_cut_2")
    assert code == 0 and "late_cut_2 (late_cut): a plug-in family" in out + err
    for extra, said in [
            (["pruning=late_cut_2", "pruning.params.keep=0"], "keep must be an integer >= 1; got 0"),
            (["pruning=late_cut_2", "+pruning.params.kep=1"],
             "unknown parameter 'kep' of family 'late_cut'; allowed: keep, depth"),
            (["pruning=late_cut_2", "pruning.family=mypruning:NOPE"], "module 'mypruning' has no 'NOPE'"),
            (["pruning=late_cut_2", "pruning.family=nope"], "family must be one of sound, null_move"),
            (["pruning=my_lmr", "+pruning.params.x=1"], "pruning.params is null in this config"),
            (["pruning=late_cut_2", "search.engine=compiled"],
             "search.engine=compiled: pruning late_cut_2 is a plug-in family, searched on the "
             "reference engine only"),
            (["sweep.pruning=[none,nothere]"], "unknown technique 'nothere'; allowed: beam_2")]:
        code, out, err = _main(monkeypatch, capsys, *base, *extra)
        assert code != 0 and said in err, (extra, err)


def test_the_battery_holds_a_family_to_its_declaration():
    games = [Nim((1, 2, 3)), TicTacToe()]
    late = Technique("late_cut_2", family="mypruning:LATE_CUT", params={"keep": 2})
    assert not late.sound and check_pruning(late, games, depth=3).counts["searches"] == 2
    wrong = Technique("wrong", family="mypruning:LATE_CUT_CLAIMED_SOUND", params={"keep": 1})
    with pytest.raises(ConformanceError, match="sound"):      # declared sound, it is not
        check_pruning(wrong, games, depth=3)
    heaps = Technique("equal_heaps", family="mypruning:EQUAL_HEAPS")
    nims = [Nim((2, 2, 1)), Nim((3, 3, 1, 3)), Nim((1, 2, 2, 1))]
    assert check_pruning(heaps, nims, depth=5).counts["searches"] == 3
    with pytest.raises(ConformanceError, match="record"):     # parameters are the record's
        check_pruning(Technique("x", family="mypruning:LATE_CUT", params={"keep": 0}), games)
    with pytest.raises(ConformanceError, match="params is for plug-in families"):
        check_pruning(Technique("x", lmr=LateMoveReductions(), params={"x": 1}), games)
    # a bare Pruning with a plug-in's rule is checked as its family declares
    with pytest.raises(ConformanceError, match="sound"):
        check_pruning(Pruning(plugin=PluginRule(mypruning.LATE_CUT_CLAIMED_SOUND,
                                                mypruning.LateCutParams(1))), games, depth=3)


def test_the_hook_fires_and_the_compiled_engine_declines_it():
    game = Nim((3, 3, 1, 3))
    heaps = Technique("h", family="mypruning:EQUAL_HEAPS").pruning
    r = search(game, "alphabeta", depth=5, pruning=heaps)
    plain = search(game, "alphabeta", depth=5)
    assert r.value == plain.value and r.nodes < plain.nodes
    assert r.extra["pruned"]["equal_heaps"] > 0 and r.engine == "reference"
    t3 = TicTacToe()
    assert not compiled_engine.supports(t3, "alphabeta", "natural", _late_cut(2), 3)
    assert search(t3, "alphabeta", depth=3, pruning=_late_cut(2)).engine == "reference"
    with pytest.raises(UnsupportedError, match="no compiled engine"):
        search(t3, "alphabeta", depth=3, pruning=_late_cut(2), engine="compiled")


def test_families_by_name_registration_and_entry_point(monkeypatch):
    monkeypatch.setattr(P, "_PLUGINS", {})
    fam = Family("late_cut_copy", None, False, "a copy", skip=mypruning.late_cut,
                 params=mypruning.LateCutParams)
    with pytest.raises(InvalidParameterError, match="family must be one of"):
        family_of("late_cut_copy")
    register_family(fam)
    assert family_of("late_cut_copy") is fam
    assert Technique("t", family="late_cut_copy", params={"keep": 1}).pruning.plugin.family is fam
    with pytest.raises(InvalidParameterError, match="registered already"):
        register_family(Family("late_cut_copy", None, True, "other", skip=mypruning.late_cut))
    with pytest.raises(InvalidParameterError, match="skip hook"):
        register_family(P.FAMILIES["beam"])

    class EP:                         # an installed plug-in's entry point, as pip writes one
        name, value = "heaps", "mypruning:EQUAL_HEAPS"

        def load(self):
            return mypruning.EQUAL_HEAPS

    monkeypatch.setattr(P, "_LOADED", False)
    monkeypatch.setattr(plugin_entry_points.metadata, "entry_points",
                        lambda group: [EP()] if group == P.ENTRY_POINT_GROUP else [])
    assert P.families()["heaps"] is mypruning.EQUAL_HEAPS
    assert Technique("h", family="heaps").sound


def test_a_plugin_is_named_in_the_config_hash_and_builtins_keep_theirs():
    from searchlab.experiment.study import _pruning_science
    assert "plugin" not in _pruning_science(Pruning(lmr=LateMoveReductions()))
    assert _pruning_science(_late_cut(3))["plugin"] == {"family": "late_cut",
                                                        "params": {"keep": 3, "depth": 1}}
    assert _pruning_science(_late_cut(3)) != _pruning_science(_late_cut(2))
    assert "params" not in Technique("n", lmr=LateMoveReductions()).science()


def test_the_tradeoff_study_runs_a_plugin_family_named_by_module_attr(tmp_path, monkeypatch):
    """A plug-in family in the trade-off study (``family: module:ATTR`` in its techniques), on
    Connect Four: its positions are searched under the family and the sound search, its match
    is played, and the report names it; the family's params reach the table."""
    import pandas as pd

    from searchlab.experiment import api
    monkeypatch.syspath_prepend(str(PLUGINS))
    over = ['tradeoff.techniques=[{label: sound, family: sound}, '
            '{label: late cut, family: "mypruning:LATE_CUT", params: {keep: 2}}]',
            "tradeoff.domains.connect4.match.techniques=[late cut]",
            "tradeoff.domains.othello.match.techniques=[late cut]",
            "tradeoff.domain=connect4", "runner.n_jobs=1", "runner.progress=false"]
    run = api.run_study("unsound_tradeoff_tiny", over, output_dir=tmp_path / "run", progress=False)
    table = pd.read_parquet(run / "table")
    cut = table[table.technique == "late cut"]
    assert len(cut) == (table.technique == "sound").sum() > 0
    assert set(cut.family) == {"mypruning:LATE_CUT"} and cut.params.str.contains("keep").all()
    assert (cut.nodes <= cut.ref_nodes).all()          # it only ever skips moves
    assert "| late cut |" in (run / "report.md").read_text()
