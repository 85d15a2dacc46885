"""searchlab-warm-up (searchlab.warm_up): the one list of first searches,
run in child processes onto the disk cache, each engine reported with its CPU seconds and
whether it was cached; bad names refused before any process starts."""

from __future__ import annotations

import threading
import time

import pytest

from searchlab import warm_up as W
from searchlab.errors import InvalidParameterError


def test_every_snippet_is_python_and_names_are_checked():
    for name in W.engines():
        compile(W.snippet(name), name, "exec")
    assert W.check_names(None) == list(W.engines()) and W.check_names([]) == [] == W.warm_up([])
    assert W.check_names(["chess", "pig", "chess"]) == ["chess", "pig"]
    with pytest.raises(InvalidParameterError, match=r"engine must be one of chess, othello.*got 'go'"):
        W.check_names(["pig", "go"])
    with pytest.raises(InvalidParameterError, match="jobs must be an integer >= 1; got 0"):
        W.warm_up(["pig"], jobs=0)


def test_the_registered_games_engines_come_from_the_registry():
    """Every registered game with compiled primitives has an engine, whose snippet finds the
    game through the registry (the module names no game); the largest cold compile first."""
    from searchlab.games.registry import cold_seconds, registry
    compiled = [n for n, e in registry().items() if e.compiled()]
    assert compiled and set(compiled) <= set(W.engines())
    for n in compiled:
        assert W.snippet(n) == f"{W.GAME_SNIPPET[0]}\n{W.GAME_SNIPPET[1].format(name=n)}\n"
    cold = [c for c in map(cold_seconds, W.engines()) if c is not None]
    assert cold == sorted(cold, reverse=True)


def test_the_module_names_no_registered_game_and_reads_the_registry_by_import():
    """The warm-up's games (its per-game engines, the compiled MCTS's and the parallel
    simulator's games) come from the registry: its text names no registered game's module or
    class, and it imports the registry as a module (the layer table checks that import)."""
    import inspect
    from searchlab.games.registry import registry
    text = inspect.getsource(W)
    for name, e in registry().items():
        game = e.start()
        assert f"{type(game).__module__} import" not in text, name
        assert f"{type(game).__name__}(" not in text, name
    assert "import_module" not in text and "from searchlab.games.registry import registry" in text
    mcts = "\n".join(W.engines()["mcts"])
    assert "registry().values()" in mcts and "e.compiled()" in mcts


def test_the_cli_refuses_unknown_names_and_jobs(capsys):
    assert W.main(["chess", "backgammon"]) == 2
    err = capsys.readouterr().err
    assert "searchlab-warm-up: error: engine must be one of" in err and "'backgammon'" in err
    assert "dice_race" in err
    assert W.main(["--jobs", "0"]) == 2
    assert "--jobs must be an integer >= 1" in capsys.readouterr().err


def test_the_docs_example_of_an_unknown_engine_is_what_the_command_prints(capsys):
    """docs/compile-time.md shows ``searchlab-warm-up go`` and its one-line error verbatim."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[1] / "docs" / "compile-time.md").read_text()
    shown = doc.split("    $ searchlab-warm-up go\n", 1)[1].splitlines()[0].strip()
    assert W.main(["go"]) == 2
    assert capsys.readouterr().err.strip() == shown


def test_a_second_warm_up_finds_the_engine_cached(capsys):
    W.warm_up(["harvest"], jobs=1)              # compiles it, or finds it cached
    [o] = W.warm_up(["harvest"], jobs=1)
    assert o.error is None and o.cached and o.compiled == 0 and 0 < o.cpu < 30
    assert W.main(["harvest", "tree_kernel", "--jobs", "2"]) == 0
    out = capsys.readouterr()
    assert "harvest" in out.out and "already cached" in out.out or "compiled (" in out.out
    assert "2 of 2 engines ready" in out.out and "compiling" in out.err      # the progress bar


def test_failures_are_reported_not_raised_and_a_crash_does_not_stop_the_rest(monkeypatch):
    monkeypatch.setitem(W.ENGINES, "broken", ("x = 1", "raise ValueError('boom')"))
    monkeypatch.setitem(W.ENGINES, "crash", ("import os", "os._exit(3)"))
    monkeypatch.setitem(W.ENGINES, "fine", ("x = 1", "print('out of the way')"))
    seen = []
    out = W.warm_up(["broken", "crash", "fine"], jobs=1, on_done=seen.append)
    assert [o.name for o in out] == ["broken", "crash", "fine"] and sorted(seen, key=out.index) == out
    assert out[0].error == "ValueError: boom" and "FAILED: ValueError: boom" in out[0].line()
    assert out[1].error == "its process ended (exit status 3)"
    assert out[2].error is None and out[2].compiled == 0 and out[2].cached


def test_stop_ends_the_processes_at_once(monkeypatch):
    monkeypatch.setitem(W.ENGINES, "slow", ("import time", "time.sleep(60)"))
    stop = threading.Event()
    result = []
    t = threading.Thread(target=lambda: result.append(W.warm_up(["slow", "slow"], jobs=1, stop=stop)))
    t0 = time.monotonic()
    t.start()
    time.sleep(1.0)
    stop.set()
    t.join(30)
    assert not t.is_alive() and result == [[]] and time.monotonic() - t0 < 20
