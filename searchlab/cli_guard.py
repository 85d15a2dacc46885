"""What the ``searchlab`` command does before Hydra starts: its own --help and --version, the
expansion of a multirun into its jobs (each checked before any starts), and a stdout that a
closed pipe (``searchlab ... | head -1``) does not turn into a traceback.

Hydra's argument parser and help template would list Hydra's version and config groups that
the schema rejects; these functions answer from searchlab's own schema instead.
"""

from __future__ import annotations

import io
import os
import sys
from dataclasses import fields
from typing import Any, TextIO

from searchlab.experiment import kind_registry
from searchlab.experiment.composition import available_options
from searchlab.experiment.provenance import version


class PipeSafe(io.TextIOBase):
    """A text stream forwarding to ``stream``; once the reader has gone (BrokenPipeError) it
    drops further output silently, so a run whose output is piped into ``head`` goes on."""

    def __init__(self, stream: TextIO) -> None:
        self.stream: TextIO | None = stream

    def write(self, s: str) -> int:
        if self.stream is not None:
            try:
                self.stream.write(s)
                self.stream.flush()
            except BrokenPipeError:
                self._drop()
        return len(s)

    def flush(self) -> None:
        if self.stream is not None:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._drop()

    def _drop(self) -> None:
        # the interpreter flushes sys.stdout's descriptor at exit: point it at /dev/null
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self.stream.fileno())
            os.close(devnull)
        except (OSError, ValueError, AttributeError):
            pass
        self.stream = None

    def isatty(self) -> bool:
        return self.stream is not None and self.stream.isatty()

    def fileno(self) -> int:
        if self.stream is None:
            raise io.UnsupportedOperation("stdout was closed by its reader")
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", "utf-8") or "utf-8"


def groups() -> dict[str, list[str]]:
    """The config groups the schema accepts (group -> its options), experiment presets first."""
    out = {"experiment": available_options("experiment")}
    for f in fields(kind_registry.config_schema()):   # a group: a key of the schema with options
        if available_options(f.name):
            out[f.name] = available_options(f.name)
    return out


def _game_names() -> list[str]:
    """The game options of conf/game/ and the installed plug-ins' entry points, without importing
    any game (the registry imports every game module, numba included: --help must stay fast)."""
    from importlib.metadata import entry_points

    opts = groups().get("game", [])
    plugins = [ep.name for ep in entry_points(group="searchlab.games")]
    return list(dict.fromkeys([*opts, *plugins]))


def help_text() -> str:
    """searchlab --help: usage, the accepted groups and their options, the top-level keys."""
    lines = [
        f"searchlab {version()}: sweep branching factor b, depth d and move ordering over "
        "synthetic game trees",
        "or real game positions, measure the searches' node counts, store one Parquet table per run.",
        "",
        "Usage:   searchlab [experiment=NAME] [group=option ...] [key=value ...] [-m] [--cfg job]",
        "Example: searchlab experiment=ordering_ebf sweep.b=[2,4,8] runner.n_jobs=2",
        "Resume:  searchlab experiment=NAME runner.resume=results/NAME/<timestamp>",
        "Multirun: searchlab -m experiment=pearl,discrete_values   (every job is checked first)",
        "",
        "Config groups (group=option):",
    ]
    lines += [f"  {g}: {', '.join(opts)}" for g, opts in groups().items()]
    lines += [
        "",
        "Games (game.name=NAME; built-in and installed plug-ins, docs/extending.md; a plug-in "
        "without a game option: ~tree game.name=NAME):",
        "  " + ", ".join(_game_names()),
        "",
        "Keys (key=value; docs/config.md documents every one):",
        "  " + ", ".join(f.name for f in fields(kind_registry.config_schema())),
        "",
        "Study kinds (a config section selects one; none: the sweep; plug-ins: the entry-point "
        "group searchlab.studies, docs/extending.md):",
        "  " + ", ".join(kind_registry.sections()),
        "",
        "Flags: --help, --version, --plan (the dry run: tasks, estimated nodes and time, engines "
        "to compile; runs nothing), --cfg job (print the composed config, and the plan on stderr; "
        "runs nothing), -m (multirun), --config-dir DIR (your presets: DIR/experiment/NAME.yaml), "
        "--hydra-help (Hydra's own options)",
    ]
    return "\n".join(lines)


def multirun_jobs(overrides: list[str]) -> list[list[str]]:
    """The override list of every job of ``searchlab -m OVERRIDES``, in Hydra's order (its
    basic sweeper: the cartesian product of the comma lists, ranges and choices)."""
    # here, not at the top: --help and --version do not load Hydra (benchmarks/startup.py)
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser

    parsed = OverridesParser.create().parse_overrides(overrides=overrides)
    batches = BasicSweeper.split_arguments(parsed, max_batch_size=None)
    return [list(job) for batch in batches for job in batch]


def quiet_stdout() -> Any:
    """Replace sys.stdout by a PipeSafe wrapper (idempotent); returns it."""
    if not isinstance(sys.stdout, PipeSafe):
        sys.stdout = PipeSafe(sys.stdout)
    return sys.stdout
