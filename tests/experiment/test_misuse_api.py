"""The Python API and the run under misuse, round two: each input below returned a
silent wrong answer, a raw exception or an exit status 0 before; now a clean SearchlabError
naming the parameter and what is allowed (or an honest exit status). docs/config.md, "What
is refused", lists them."""

from __future__ import annotations

import json
import math
import sys

import pytest

from searchlab import ExplicitTree, IncrementalTree, search
from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.algorithms.pruning import (Beam, Futility, LateMoveReductions, NullMove, ProbCut,
                                          Pruning, Quiescence)
from searchlab.errors import SearchlabError
from searchlab.experiment import api
from searchlab.experiment.store import load
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.rolit import Rolit
from searchlab.games.tictactoe import TicTacToe
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.play.openings import random_openings
from searchlab.parallel import simulate

BIG = 10**30
TREE = IncrementalTree(3, 3, seed=1)

def _default_dict(section, key, value) -> dict:
    """The default config as a plain dict with one key set (``section`` None: top level)."""
    from omegaconf import OmegaConf
    d = OmegaConf.to_container(api.compose(None, []), resolve=True)
    (d if section is None else d[section])[key] = value
    return d


API_MISUSE = [
    ("simulate seq_nodes=-5", lambda: simulate(TREE, "ybwc", 2, seq_nodes=-5),
     r"seq_nodes must be an integer in \[1, "),
    ("Chess('')", lambda: Chess(""), "got an empty string"),
    ("ProbCut(threshold=nan)", lambda: search(Chess(), "alphabeta", "static", depth=2,
                                              pruning=Pruning(probcut=ProbCut(threshold=math.nan))),
     r"probcut.threshold must be a finite number in \[0, "),
    ("ExplicitTree 10**400", lambda: ExplicitTree([[10**400, 1], [2, 3]]),
     "a leaf must be a finite real number of magnitude at most"),
    ("NullMove 10**30", lambda: search(TREE, "alphabeta", "static",
                                       pruning=Pruning(null_move=NullMove(reduction=BIG))),
     r"null_move.reduction must be an integer in \[1, 200\]"),
    ("Beam 10**30", lambda: search(TREE, "alphabeta", "static", pruning=Pruning(beam=Beam(width=BIG))),
     r"beam.width must be an integer in \[1, 65536\]"),
    ("LMR 10**30", lambda: search(TREE, "alphabeta", "static",
                                  pruning=Pruning(lmr=LateMoveReductions(reduction=BIG))),
     r"lmr.reduction must be an integer in \[1, 200\]"),
    ("Futility 10**30 (float)", lambda: search(TREE, "alphabeta", "static",
                                               pruning=Pruning(futility=Futility(margin=1e300))),
     r"futility.margin must be a finite number in \[0, "),
    ("Futility 10**400 (int)", lambda: search(TREE, "alphabeta", "static",
                                              pruning=Pruning(futility=Futility(margin=10**400))),
     r"futility.margin must be a finite number"),
    ("Quiescence 10**30", lambda: search(Chess(), "alphabeta", "captures", depth=1,
                                         pruning=Pruning(quiescence=Quiescence(max_depth=BIG))),
     r"quiescence.max_depth must be an integer in \[1, 200\]"),
    ("search_multiplayer with another game's state",
     lambda: search_multiplayer(Rolit(3), "paranoid", root=ConnectFour().initial_state(), depth=2),
     "root must be a state of rolit"),
    ("load(None)", lambda: load(None), "expected a run directory"),
    ("search without a depth on Connect Four", lambda: search(ConnectFour("4455"), "alphabeta", "centre"),
     "depth=None searches connect4.* to the end of the game, an unbounded solve: give depth="),
    # round three
    ("Rolit.random(3, 10, seed=-1)", lambda: Rolit.random(3, 10, seed=-1),
     r"seed must be an integer in \[0, 18446744073709551615\]; got -1"),
    ("random_openings seed=-1", lambda: random_openings(ConnectFour(), 2, 1, -1),
     r"seed must be an integer in \[0, "),
    # round three's variants: 5 * 10**10 draws (hours), a float ply (TypeError), openings
    # longer than the game (the message blamed the filter)
    ("random_openings n=10**9", lambda: random_openings(TicTacToe(), 2, 10**9, 1),
     r"^n must be an integer in \[1, 100000\]; got 1000000000$"),
    ("random_openings ply=2.5", lambda: random_openings(TicTacToe(), 2.5, 2, 1),
     r"^ply must be an integer in \[0, 1000\]; got 2.5$"),
    ("random_openings ply=43 on Connect Four", lambda: random_openings(ConnectFour(), 43, 2, 1),
     r"^ply=43: every one of 100 random games ended before 43 moves; an opening must end"),
    ("minimal_tree(ConnectFour(), 99)", lambda: minimal_tree(ConnectFour(), 99),
     r"minimal_tree\(connect4, depth=99\) without max_nodes"),
    ("minimal_tree depth 201", lambda: minimal_tree(ConnectFour(), 201, max_nodes=10),
     r"depth must be an integer in \[1, 200\]"),
    # a plain dict given to validate(): OmegaConf's merge errors were raw
    ("validate(dict) with sweep.bogus", lambda: api.validate(_default_dict("sweep", "bogus", 1)),
     r"^unknown config key 'sweep.bogus'; allowed keys in sweep: b, d, "),
    ("validate(dict) with seed='abc'", lambda: api.validate(_default_dict(None, "seed", "abc")),
     r"^seed: Value 'abc' of type 'str' could not be converted to Integer$"),
]


@pytest.mark.parametrize("call, match", [(c, m) for _, c, m in API_MISUSE],
                         ids=[n for n, _, _ in API_MISUSE])
def test_api_misuse_is_a_searchlab_error_naming_the_parameter(call, match):
    with pytest.raises(SearchlabError, match=match) as e:
        call()
    assert "\n" not in str(e.value)


def test_a_search_without_depth_still_runs_where_it_is_small_or_budgeted():
    assert search(TicTacToe(), "alphabeta", "natural").value == 0          # solvable: a draw
    moves = ""
    while len(moves) < 31:          # a legal game of 31 plies that nobody has won yet
        for col in "1234567":
            try:
                g = ConnectFour(moves + col)
            except ValueError:
                continue
            if not g.is_terminal(g.initial_state()):
                moves += col
                break
        else:
            raise AssertionError(f"no continuation of {moves}")
    late = ConnectFour(moves)
    assert late.solvable and not ConnectFour("4455").solvable and search(late, "alphabeta", "centre").status == "ok"
    capped = search(ConnectFour("4455"), "alphabeta", "centre", max_nodes=1000)
    assert capped.status == "aborted" and capped.nodes <= 1001


def test_pruning_labels_are_facts():
    s = api.validate(api.compose(None, ["tree=incremental", "ordering=static", "pruning=null_r2",
                                        "pruning.null_move.reduction=3"]))
    assert [n for n, _ in s.prunings] == ["null_r2(null_move.reduction=3)"]
    s = api.validate(api.compose(None, ["tree=incremental", "ordering=static", "pruning=null_r2"]))
    assert [n for n, _ in s.prunings] == ["null_r2"]


TINY = ["sweep.b=[2]", "sweep.d=[1]", "sweep.instances=2", "runner.n_jobs=1",
        "runner.progress=false", "runner.report=false", "runner.retries=0"]


def test_a_run_whose_every_task_failed_exits_non_zero_with_the_first_error(tmp_path, monkeypatch, capsys):
    from searchlab import cli
    from searchlab.experiment.runner import FAULT_ENV
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(FAULT_ENV, json.dumps({"index": "*", "mode": "raise", "times": 10**6,
                                              "state": str(tmp_path / "faults")}))
    monkeypatch.setattr(sys, "argv", ["searchlab", *TINY])
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    with pytest.raises(SystemExit) as e:
        cli.main()
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert "every task failed (18 of 18); the first, task " in err
    assert "RuntimeError: injected fault in task" in err


def test_cfg_never_compiles_an_engine(monkeypatch, capsys):
    """--cfg validates and prints: the probe (a depth-1 search per combination, which loads
    and compiles the game's engine) is skipped."""
    from searchlab import cli
    from searchlab.algorithms.compiled import specialise

    def refuse(prims):
        raise AssertionError("--cfg loaded a compiled engine")
    monkeypatch.setattr(specialise, "_load", refuse)
    monkeypatch.setattr(specialise, "_loaded", {})
    monkeypatch.setattr(sys, "argv", ["searchlab", "experiment=chess_deep", "--cfg", "job"])
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    cli.precheck(sys.argv[1:])                  # what main runs before Hydra prints the config


def test_config_dir_finds_the_users_preset(tmp_path, monkeypatch, capsys):
    from searchlab import cli
    (tmp_path / "conf" / "experiment").mkdir(parents=True)
    (tmp_path / "conf" / "experiment" / "mine.yaml").write_text(
        "# @package _global_\nname: mine\nsweep: {b: [2], d: [1], instances: 1}\n")
    monkeypatch.chdir(tmp_path)
    for flag in ("--config-dir", "-cd"):
        monkeypatch.setattr(sys, "argv", ["searchlab", flag, str(tmp_path / "conf"),
                                          "experiment=mine", "--cfg", "job"])
        monkeypatch.setattr(sys, "stdout", sys.stdout)
        cli.main()
        out = capsys.readouterr().out
        assert "name: mine" in out and "instances: 1" in out


def test_multirun_folders_are_named_by_their_overrides():
    from searchlab.experiment.composition import job_dir
    assert job_dir(0, "sweep.b=[2],sweep.ordering=${ordering}") == "0_sweep.b=[2]"
    assert job_dir(3, "") == "3"
    assert "/" not in job_dir(1, "results_dir=/tmp/x")


@pytest.mark.parametrize("overrides, name", [
    (["game=connect4"], "connect4"), (["tree=incremental"], "incremental_tree"),
    (["tree=iid"], "iid_tree"), ([], "tour"), (["game=connect4", "name=mine"], "mine"),
])
def test_a_runs_default_name_follows_what_it_runs(overrides, name):
    cfg = api.compose(None, overrides)
    assert cfg.name == name
    if name not in ("tour", "mine"):
        assert "no experiment preset" in cfg.description


def test_a_preset_keeps_its_name():
    assert api.compose("ordering_games", ["game=connect4"]).name == "ordering_games"
