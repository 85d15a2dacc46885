"""Plug-in modules the lab is given (``searchlab lab --plugin MODULE``, ``create_app(plugins=)``):
games, ordering components and search algorithms registered from Python rather than installed
with an entry point.

The lab's searches run in fresh worker processes (searchlab.lab.workers), which know only the
games their own imports register; so the server imports each module and hands the names to its
workers (``PLUGINS_ENV`` in their environment), and each worker imports them again when it
starts (so a component registered in the server process alone, not by such a module, is offered
in the menu but refused by the workers). A module may call ``searchlab.games.registry.register`` itself, or declare ``GAME`` (a
GameEntry), which is registered here.
"""

from __future__ import annotations

import importlib
import os
from typing import Iterable

from searchlab.errors import InvalidParameterError
from searchlab.games.registry import GameEntry, register, registry

#: the workers' environment variable naming the plug-in modules (comma-separated)
PLUGINS_ENV = "SEARCHLAB_LAB_PLUGINS"


def load_plugins(modules: Iterable[str]) -> list[str]:
    """Import each module (its folder on ``sys.path``) and register its ``GAME`` if it
    declares one not yet registered; returns the names of the games added. An import that
    fails is an InvalidParameterError naming the module."""
    before = set(registry())
    for name in modules:
        try:
            mod = importlib.import_module(name)
        except ImportError as exc:
            raise InvalidParameterError(
                f"--plugin {name}: cannot import it ({exc}); put its folder on PYTHONPATH") from None
        game = getattr(mod, "GAME", None)
        if isinstance(game, GameEntry) and registry().get(game.name) is not game:
            register(game)
    return [n for n in registry() if n not in before]


def plugins_from_env() -> list[str]:
    """The plug-in modules a worker was started with (PLUGINS_ENV)."""
    return [m for m in os.environ.get(PLUGINS_ENV, "").split(",") if m]
