"""Ordering components from outside the package (docs/extending.md, "An ordering component"):
tests/data/plugins/countermove.py declares a dynamic component (countermove) and a base order
(mobility) with their reference code; registered from Python, by an entry point or by a
config's ``search.plugins``, they parse, validate, run on the reference engine (no compiled
twin), pass the battery, and a sweep of them gives the same counts whatever the number of
workers. A component declared sound that is not is caught by the battery."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from searchlab import load
from searchlab.algorithms import ordering_registry
from searchlab.algorithms.ordering_registry import (COMPONENTS, Component, component_names,
                                                    ordering_of, plugin_errors,
                                                    register_component)
from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.experiment import api, grid
from searchlab.experiment.schema import ConfigError
from searchlab.games.connect4 import ConnectFour as Connect4
from searchlab.games.tictactoe import TicTacToe
from searchlab.testing import ConformanceError, check_ordering

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
DOC = ROOT / "docs" / "extending.md"
BIN = Path(sys.executable).parent
PLUGIN_MODULES = ("countermove", "nim_game")


@pytest.fixture
def fresh(monkeypatch):
    """The registry as shipped (built-ins only, no entry point read yet) with
    tests/data/plugins on the path; afterwards the registry and the modules as before."""
    saved = dict(COMPONENTS)
    for k in [k for k, c in COMPONENTS.items() if c.plugin]:
        del COMPONENTS[k]
    monkeypatch.setattr(ordering_registry, "_LOADED", False)
    monkeypatch.setattr(ordering_registry, "_PLUGIN_ERRORS", {})
    monkeypatch.syspath_prepend(str(PLUGINS))
    for m in PLUGIN_MODULES:
        monkeypatch.delitem(sys.modules, m, raising=False)
    ordering_registry._parsed.clear()
    yield
    COMPONENTS.clear()
    COMPONENTS.update(saved)
    ordering_registry._parsed.clear()
    for m in PLUGIN_MODULES:
        sys.modules.pop(m, None)


@pytest.fixture
def plugin(fresh):
    """tests/data/plugins/countermove.py imported (it registers its two components)."""
    import countermove
    return countermove


def _nim():
    from nim_game import Nim
    return Nim((1, 2, 3))


def test_a_plugin_component_is_parsed_and_runs_on_the_reference_engine(plugin):
    game = TicTacToe()
    value = ordering_of("id+tt+countermove+mobility", game)
    assert value.dynamic == ("id", "tt", "countermove") and value.base == "mobility"
    assert value.plugins == ("countermove", "mobility") and value.sound
    assert not value.supports("compiled") and not value.supports("kernel")
    assert value.supports("compiled", ()) is False and ordering_of("id+tt", game).supports("compiled")
    for spec in ("id+tt+countermove", "mobility", "killer+history+mobility"):
        auto = search(game, "alphabeta", spec, depth=4, engine="auto")
        ref = search(game, "alphabeta", spec, depth=4, engine="reference")
        assert auto.engine == "reference"
        assert (auto.value, auto.nodes, auto.best_move) == (ref.value, ref.nodes, ref.best_move)
        with pytest.raises(UnsupportedError, match="no compiled engine"):
            search(game, "alphabeta", spec, depth=4, engine="compiled")
    # the components do order: mobility puts Nim's (2, 3) (3 replies left) before (0, 1) (5),
    # and countermove changes the search's nodes on Connect Four
    nim = _nim()
    s = nim.initial_state()
    assert plugin.mobility(nim, s, list(nim.legal_moves(s)))[0] == (2, 3) != nim.legal_moves(s)[0]
    c4 = Connect4()
    assert search(c4, "alphabeta", "id+tt+countermove", depth=5, engine="reference").nodes != \
        search(c4, "alphabeta", "id+tt", depth=5, engine="reference").nodes


def test_the_battery_passes_the_sound_plugins(plugin):
    games = [TicTacToe(), Connect4(), _nim()]
    for spec in ("id+tt+countermove", "mobility", "killer+countermove+mobility"):
        rep = check_ordering(spec, games, depth=3)
        # every game searched by two algorithms on two engines, and the plug-ins' code checked
        assert rep.counts["searches"] == len(games) * 2 * 2
        assert rep.counts["positions ordered"] >= len(games) * len(ordering_of(spec).plugins)


class _DropsAfterACut:
    """Unsound on purpose: once it has seen a cut it searches the first move only (it prunes)."""

    def __init__(self, game):
        self.cuts = 0

    def order(self, state, moves, ply):
        return list(moves[:1]) if self.cuts else list(moves)

    def on_cut(self, state, move, ply, depth_left):
        self.cuts += 1


def test_the_battery_catches_an_unsound_plugin_declared_sound(fresh):
    register_component(Component("dropper", "dynamic", "the first move only after a cut",
                                 hooks=_DropsAfterACut))
    with pytest.raises(ConformanceError, match=r"ordering tt\+dropper: (value|best move): "):
        check_ordering("tt+dropper", [TicTacToe(), Connect4(), _nim()], depth=3)
    register_component(Component("firsthalf", "base", "the first half of the moves only",
                                 order=lambda game, state, moves: moves[:(len(moves) + 1) // 2]))
    with pytest.raises(ConformanceError, match="firsthalf: permutation: tictactoe ply 0"):
        check_ordering("firsthalf", [TicTacToe()])
    # declared unsound, the same component is only run
    register_component(Component("dropper2", "dynamic", "as dropper", sound=False,
                                 hooks=_DropsAfterACut))
    assert check_ordering("tt+dropper2", [TicTacToe()], depth=3).counts["searches"] == 4


def test_a_declaration_the_reference_engine_cannot_run_is_refused(fresh):
    order = (lambda game, state, moves: moves)
    for c, why in ((Component("killer", "base", "", order=order), "registered already"),
                   (Component("a+b", "base", "", order=order), "must be a word"),
                   (Component("nocode", "base", ""), "needs its reference code, order="),
                   (Component("nohooks", "dynamic", "", order=order), "reference code, hooks="),
                   (Component("twin", "base", "", order=order, compiled="B_NATURAL"),
                    "no kernel or compiled twin"),
                   (Component("odd", "final", "", order=order), "kind must be one of"),
                   (Component("sh", "shorthand", "", expands=("nope",)), "expands to registered")):
        with pytest.raises(InvalidParameterError, match=why):
            register_component(c)
    register_component(Component("fast", "shorthand", "tt+killer", expands=("tt", "killer")))
    assert ordering_of("fast+static", TicTacToe()).parts == ("tt", "killer", "static")


def test_an_installed_plugin_is_found_by_its_entry_point(fresh, tmp_path, monkeypatch):
    dist = tmp_path / "orderplugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: orderplugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[searchlab.orderings]\ncountermove = countermove:COUNTERMOVE\n"
        "mobility = countermove:MOBILITY\nbroken = no_such_module_xyz:COMPONENT\n"
        "killer = tests.plugins.test_ordering_plugins:KILLER_AGAIN\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "countermove" not in COMPONENTS
    names = component_names()                    # the first read loads the entry points
    assert names[-2:] == ("countermove", "mobility")
    errors = plugin_errors()
    assert set(errors) == {"broken", "killer"} and "ModuleNotFoundError" in errors["broken"]
    assert "'killer' is registered already" in errors["killer"]     # a built-in's name
    assert COMPONENTS["killer"].compiled == "D_KILLER"
    with pytest.raises(InvalidParameterError, match="broken.*failed to load"):
        ordering_registry.component("broken")
    assert search(TicTacToe(), "alphabeta", "id+tt+countermove", depth=3).engine == "reference"


#: an entry point's component named like a built-in (refused)
KILLER_AGAIN = Component("killer", "dynamic", "not the built-in", hooks=_DropsAfterACut)


def _sweep(overrides):
    return api.validate(api.compose(None, list(overrides)))


def test_a_config_names_the_plugin_module(fresh):
    with pytest.raises(ConfigError, match="ordering component 'countermove' unknown: allowed "
                                          "natural, ") as e:
        _sweep(["game=tictactoe", "sweep.ordering=[natural,id+tt+countermove]"])
    assert "mobility" not in str(e.value)
    study = _sweep(["game=tictactoe", "search.plugins=[countermove]", "sweep.d=[2,3]",
                    "sweep.ordering=[natural,id+tt+countermove]"])
    assert study.orderings == ("natural", "id+tt+countermove")
    assert study.plugins == ("countermove",)
    # the plan's summary says once that the plug-in runs on the reference engine (tic-tac-toe
    # has compiled primitives: natural runs compiled)
    said = grid.summary(grid.plan(study), study)
    assert said.count("\nordering components countermove (plug-ins): no compiled twin; "
                      "searched on the reference engine") == 1
    assert "no compiled primitives" not in said
    plain = _sweep(["game=tictactoe"])
    assert "compiled twin" not in grid.summary(grid.plan(plain), plain)
    with pytest.raises(ConfigError, match="ordering component 'nope' unknown: allowed .*staged, "
                                          "countermove, mobility[, (]"):
        _sweep(["game=tictactoe", "search.plugins=[countermove]", "sweep.ordering=[nope]"])
    with pytest.raises(ConfigError, match="search.plugins: cannot import 'no_such_module_xyz'"):
        _sweep(["game=tictactoe", "search.plugins=[no_such_module_xyz]"])


def test_preset_identity_ignores_an_unused_plugins_key(fresh):
    """search.plugins is not part of the study's science: built-in studies hash as before."""
    a = _sweep(["game=tictactoe", "sweep.d=[2]"])
    b = _sweep(["game=tictactoe", "sweep.d=[2]", "search.plugins=[countermove]"])
    assert a.config_hash == b.config_hash and "plugins" not in a.science()


def _documented_command() -> list[str]:
    line = next(ln for ln in DOC.read_text().splitlines()
                if ln.startswith("PYTHONPATH=tests/data/plugins searchlab ")
                and "search.plugins" in ln)
    env_word, prog, *args = shlex.split(line)
    assert env_word == "PYTHONPATH=tests/data/plugins" and prog == "searchlab"
    return args


def _run(args, results):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PLUGINS), str(ROOT)]))
    out = subprocess.run([str(BIN / "searchlab"), *args, f"results_dir={results}",
                          "runner.progress=false"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    (run,) = list((results / "nim").iterdir())
    return out.stdout + out.stderr, run


@pytest.mark.slow
def test_the_documented_sweep_runs_with_the_same_counts_on_any_number_of_workers(tmp_path):
    args = _documented_command()
    assert "runner.n_jobs=2" in args
    said, run = _run(args, tmp_path / "two")
    assert said.count("(plug-ins): no compiled twin; searched on the reference engine") == 1
    assert "## Move-ordering policies" in (run / "report.md").read_text()
    two = load(str(run))
    _, run1 = _run([*args, "runner.n_jobs=1"], tmp_path / "one")
    one = load(str(run1))
    assert set(two["ordering"]) == {"natural", "mobility", "id+tt+countermove"}
    assert (two["status"] == "ok").all() and (two["engine"] == "reference").all()
    cols = ["task_id", "ordering", "d", "value", "nodes", "leaves", "cutoffs", "best_move"]
    a, b = (df[cols].sort_values("task_id").reset_index(drop=True) for df in (two, one))
    assert a.equals(b)
    # sound: every ordering's value at a depth is the same
    assert (two.groupby("d")["value"].nunique() == 1).all()


def test_a_study_kinds_section_may_name_a_plugin_component_and_its_workers_import_it(fresh, monkeypatch):
    """search.plugins is imported before the study kind checks its own section (the trade-off
    study's connect4 ordering may be a plug-in's), and every kind's session hands the modules
    to its workers (RunSettings.plugins), not the sweep's alone."""
    from searchlab.experiment import study_kind

    over = ["search.plugins=[countermove]", "tradeoff.domains.connect4.ordering=countermove+centre"]
    cfg = api.compose("unsound_tradeoff_tiny", over)
    study, kind = api.validate(cfg), api.kind_of(cfg)
    kind.check(cfg, study, run=False)                         # the kind's own section check
    handed = {}
    monkeypatch.setattr(study_kind, "run_session", lambda s, *a, **k: handed.update(s.settings))
    kind.run(cfg, study, Path("unused"), report=False)
    assert kind.name == "tradeoff" and study.plugins == handed["plugins"] == ("countermove",)

    del COMPONENTS["countermove"]                             # without the module: refused
    sys.modules.pop("countermove", None)
    ordering_registry._parsed.clear()
    bare = api.compose("unsound_tradeoff_tiny", over[1:])
    with pytest.raises(ConfigError, match="ordering component 'countermove' unknown"):
        kind.check(bare, api.validate(bare), run=False)
