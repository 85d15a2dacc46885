"""The game registry: built-ins declared beside their code, plug-ins by entry point and
_target_, and the consumers that read it."""

from __future__ import annotations

import sys
from importlib import import_module

import pytest

from searchlab.errors import InvalidParameterError
from searchlab.experiment.games import GameSpec, make_game, select_positions
from searchlab.games import registry
from searchlab.games.registry import GameEntry, entry, entry_from_target, game_names

PLUGINS = __import__("pathlib").Path(__file__).resolve().parent.parent / "data" / "plugins"


def test_builtins_in_display_order_with_their_declarations():
    assert game_names() == ("tictactoe", "connect4", "othello", "chess", "hex")
    assert {n: entry(n).nominal_b for n in game_names()} == {
        "tictactoe": 5, "connect4": 7, "othello": 10, "chess": 35, "hex": 40}
    assert entry("chess").sources == ("wac", "bk")
    assert entry("hex").max_ply("5x5") == 24 and entry("othello").max_ply("random") == 61
    assert [n for n in game_names() if entry(n).lab] == ["tictactoe", "connect4", "othello", "hex"]
    # each declaration lives in its game's own module
    for n in game_names():
        e = entry(n)
        assert import_module(type(e.start()).__module__).GAME is e


def test_unknown_game_names_the_allowed_ones():
    with pytest.raises(InvalidParameterError, match="unknown game 'nim'.*allowed: tictactoe, connect4"):
        entry("nim")


def test_positions_read_through_the_registry_are_the_stored_ones():
    # the identities (hence seeds and task ids) of built-in games are unchanged
    spec = GameSpec("othello", "random", ply=20)
    assert spec.identity() == {"game": "othello", "positions": "random", "ply": 20}
    assert GameSpec("chess", "wac", sample=3).identity() == {"game": "chess", "positions": "wac"}
    pos = select_positions(GameSpec("connect4", "Test_L1_R1", sample=2), 7, 1)
    assert len(pos) == 2 and make_game(GameSpec("connect4", "Test_L1_R1"), pos[0]).name == "connect4[465416526173]"


def test_a_target_game_and_its_random_positions(monkeypatch):
    monkeypatch.syspath_prepend(str(PLUGINS))
    e = entry_from_target("nim", "nim_game.Nim", {"heaps": (2, 3)}, "random")
    assert e.source_kind == "random" and e.start().heaps == (2, 3) and not e.compiled()
    spec = GameSpec("nim", "random", ply=2, target="nim_game.Nim", params=(("heaps", (2, 3)),))
    assert spec.identity()["target"] == "nim_game.Nim"
    a, b = (make_game(spec, p) for p in select_positions(spec, 1, 2))
    assert sum(a.initial_state()[0]) < 5 and a.initial_state()[1] is True   # two moves played
    again = make_game(spec, select_positions(spec, 1, 2)[0])
    assert again.initial_state() == a.initial_state()                       # seeded


@pytest.mark.parametrize("target, match", [
    ("nim_game", "dotted path"),
    ("no_such_module_xyz.Game", "cannot import 'no_such_module_xyz'.*PYTHONPATH"),
    ("nim_game.Nope", "has no 'Nope'"),
])
def test_a_bad_target_is_one_clear_error(monkeypatch, target, match):
    monkeypatch.syspath_prepend(str(PLUGINS))
    with pytest.raises(InvalidParameterError, match=match):
        entry_from_target("nim", target)


def test_an_installed_plugin_is_found_by_its_entry_point(tmp_path, monkeypatch):
    """A distribution declaring [project.entry-points."searchlab.games"] nim = ...: its game is
    registered, listed among the allowed names, and a broken one is reported, not fatal."""
    dist = tmp_path / "nimplugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: nimplugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[searchlab.games]\nnim = nim_entry:GAME\nbroken = no_such_module_xyz:GAME\n")
    (tmp_path / "nim_entry.py").write_text(
        "from searchlab.games.registry import GameEntry\nfrom nim_game import Nim\n"
        "GAME = GameEntry(name='nim', make=Nim, nominal_b=3, label='Nim', order=60)\n")
    monkeypatch.syspath_prepend(str(PLUGINS))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.setattr(registry, "_PLUGIN_ERRORS", {})
    monkeypatch.setattr(registry, "_LOADED", False)
    assert game_names()[-1] == "nim" and entry("nim").nominal_b == 3
    assert "broken" in registry.plugin_errors()
    with pytest.raises(InvalidParameterError, match="plug-in failed to load"):
        entry("broken")
    # selected by name like a built-in, listed in --help
    from searchlab.cli_guard import help_text
    from searchlab.experiment import api
    study = api.validate(api.compose(None, ["~tree", "game.name=nim", "sweep.d=[1,2]"]))
    assert [g.name for g in study.games] == ["nim"] and study.games[0].target is None
    # --help reads conf/game/ and the entry points without importing a game (no numba at --help)
    games_line = help_text().split("Games (")[1].splitlines()[1]
    listed = [name.strip() for name in games_line.split(",")]
    assert {"tictactoe", "connect4", "othello", "chess", "hex"} <= set(listed)
    assert listed[-2:] == ["nim", "broken"], listed
    with pytest.raises(InvalidParameterError, match="registered already"):
        registry.register(GameEntry(name="nim", make=lambda: None))
    sys.modules.pop("nim_entry", None)


def test_a_declaration_is_checked():
    with pytest.raises(InvalidParameterError, match="source_kind must be one of start, random, file"):
        GameEntry(name="x", make=lambda: None, source_kind="files")
    with pytest.raises(InvalidParameterError, match="needs load_positions and from_text"):
        GameEntry(name="x", make=lambda: None, source_kind="file")


def test_study_maps_read_the_registry():
    from searchlab.studies.ordering.deep_ordering import GAME_ORDER
    assert GAME_ORDER == {"connect4": "centre", "othello": "corners", "hex": "adjacent",
                          "chess": "captures"}
    for name, order in GAME_ORDER.items():           # each is one of the game's own orderings
        assert order in entry(name).start().move_orderings()


@pytest.mark.parametrize("overrides, message", [
    (["game=othello", "+game.params.x=1"],
     "game.params are the arguments of a game's _target_; othello is a registered game"),
    (["~tree", "game.name=othello", "game._target_=nim_game.Nim"],
     "game.name 'othello' is a registered game; name the _target_ game otherwise"),
    (["~tree", "game.name=nim", "game._target_=nim_game.Nim", "game.positions=wac"],
     "game.positions: unknown position source 'wac' for the _target_ game nim; allowed: start, random"),
    (["~tree", "game.name=nim", "game._target_=nim_game.Nim", "+game.params.heaps=[-1]"],
     "game.params: nim_game.Nim refused {'heaps': (-1,)}: heaps must be non-negative integers"),
    (["~tree", "game.name=nim", "game._target_=nim_game.Nim", "game.positions=random"],
     "game.ply must be an integer in 0.."),
    (["~tree", "game.name=nim", "game._target_=nim_game.Nim", "game.ply=3"],
     "game.ply is a parameter of random positions"),
    (["~tree", "game.name=nim", "game._target_=nim_game.Nope"],
     "game._target_: _target_ 'nim_game.Nope': module 'nim_game' has no 'Nope'"),
])
def test_target_config_errors_name_the_key(monkeypatch, overrides, message):
    from searchlab.experiment import api
    from searchlab.experiment.schema import ConfigError
    monkeypatch.syspath_prepend(str(PLUGINS))
    with pytest.raises(ConfigError) as e:
        api.validate(api.compose(None, overrides))
    assert str(e.value).startswith(message), str(e.value)


def test_a_games_cold_compile_is_declared_beside_it_and_a_plugin_gets_the_default(monkeypatch):
    """Each built-in game with compiled primitives declares its engine's cold compile
    (GameEntry.compile_seconds, no per-game table elsewhere); a plug-in with compiled primitives
    and no figure is quoted the default, one without them (reference engine) nothing."""
    from searchlab.compile_costs import COLD_SECONDS, DEFAULT_GAME_SECONDS
    declared = {n: e.compile_seconds for n, e in registry.registry().items() if e.compiled()}
    assert declared and all(s is not None and s > 0 for s in declared.values())
    assert not set(declared) & set(COLD_SECONDS)
    assert {n: registry.cold_seconds(n) for n in declared} == declared
    assert registry.cold_seconds("pig") == COLD_SECONDS["pig"] and registry.cold_seconds("go") is None
    assert min(declared.values()) <= DEFAULT_GAME_SECONDS <= max(declared.values())
    ttt = entry("tictactoe")
    plugin = GameEntry(name="ttt2", make=ttt.make)                     # compiled, no figure
    assert plugin.compile_seconds is None and plugin.cold_seconds() == DEFAULT_GAME_SECONDS
    monkeypatch.syspath_prepend(str(PLUGINS))
    assert entry_from_target("nim", "nim_game.Nim", {}, "start").cold_seconds() is None


def test_the_builtin_games_are_found_by_their_declaration():
    """A built-in game is its module's top-level ``GAME = GameEntry(...)``: the registry reads
    searchlab/games/*.py for it (no list of modules to edit), finds exactly the five built-ins,
    and a mention of GAME that is not a top-level declaration does not count."""
    import importlib

    mods = registry._builtin_modules()
    assert sorted(importlib.import_module(m).GAME.name for m in mods) == sorted(
        ["tictactoe", "connect4", "othello", "chess", "hex"])
    assert all(isinstance(importlib.import_module(m).GAME, GameEntry) for m in mods)
    declares = registry._DECLARES_GAME.search
    assert declares("x = 1\nGAME: GameEntry = GameEntry(name='g', make=int)\n")
    assert not declares("    GAME = GameEntry(name='g', make=int)\n")       # not top level
    assert not declares("# GAME = GameEntry(...) in the module\n")
