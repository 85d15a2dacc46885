"""The command's start-up imports only what it needs: ``searchlab --version`` and ``--help``
load neither Hydra's runtime nor numba, numpy, pandas, scipy, matplotlib or the engine; a
shell-completion query loads Hydra but not the engine, and answers what a full registration
of the presets answers; ``--cfg job`` and ``--plan`` of a sweep load neither numba, scipy,
pandas, matplotlib nor a study family, and reading only the presets a command names composes
the config a full registration composes. (Which modules, not how long: benchmarks/startup.py measures the time.)
The package's public names still import at their first use, and numba's cache locator is in
place before any compiled function is defined."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ["hydra", "numba", "numpy", "pandas", "scipy", "matplotlib", "pyarrow", "joblib",
         "searchlab.experiment.api", "searchlab.trees", "searchlab.games", "searchlab.algorithms",
         "searchlab.algorithms.search_api", "searchlab.studies", "searchlab.experiment.runner",
         "searchlab.experiment.grid"]
#: what --cfg job and --plan of a sweep do without: the engine, the tables, the figures and
#: the study families (the plan is computed from the grid's sizes, experiment/grid_size.py)
NOT_FOR_A_PLAN = {"numba", "pandas", "scipy", "matplotlib", "pyarrow", "joblib",
                  "searchlab.experiment.api", "searchlab.trees", "searchlab.studies",
                  "searchlab.algorithms.search_api", "searchlab.experiment.runner",
                  "searchlab.experiment.grid"}


def _imported_by(argv: list[str], env: dict | None = None) -> tuple[list[str], str]:
    """(the HEAVY modules a fresh process has imported after the command, its stdout)."""
    script = textwrap.dedent(f"""
        import json, sys
        sys.argv = ["searchlab", *{argv!r}]
        from searchlab import cli
        try:
            cli.main()
        except SystemExit as e:
            assert not e.code, e.code
        sys.stdout.flush()
        print("\\nIMPORTED " + json.dumps([m for m in {HEAVY!r} if m in sys.modules]))
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
    assert p.returncode == 0, p.stderr[-2000:]
    out, _, tail = p.stdout.rpartition("\nIMPORTED ")
    return json.loads(tail), out


def test_version_imports_nothing_heavy():
    imported, out = _imported_by(["--version"])
    assert out.strip() == "searchlab 0.1.0"
    assert imported == []


def test_help_imports_nothing_heavy():
    imported, out = _imported_by(["--help"])
    assert "Config groups (group=option):" in out and "--plan" in out
    assert imported == []


def test_a_completion_query_loads_no_engine():
    line = "searchlab tree="
    imported, out = _imported_by(["-sc", "query=bash"], {"COMP_LINE": line, "COMP_POINT": str(len(line))})
    assert out.split() == ["tree=explicit", "tree=iid", "tree=incremental", "tree=ordered"]
    assert "hydra" in imported
    assert not set(imported) & {"numba", "pandas", "scipy", "matplotlib", "searchlab.trees",
                                "searchlab.experiment.api"}


@pytest.mark.parametrize("argv", [["--cfg", "job"], ["--plan"], ["experiment=quick", "--plan"],
                                  ["experiment=quick", "sweep.instances=1000000", "sweep.b=[2]", "--cfg", "job"]])
def test_cfg_job_and_plan_of_a_sweep_load_no_engine(argv, tmp_path):
    """The dry run of the default study and of a preset: composed, validated, guarded and
    planned from the grid's sizes, with neither numba, scipy, pandas, matplotlib nor the study
    families imported (they took 4-7 s before)."""
    imported, out = _imported_by(argv)
    assert not set(imported) & NOT_FOR_A_PLAN, imported
    if "--plan" in argv:
        assert out.startswith("plan (sweep): ") and "nothing was run (--plan)" in out
    else:
        assert out.startswith("name: ")


@pytest.mark.parametrize("line", ["searchlab experiment=quick sweep.", "searchlab experiment=pe",
                                  "searchlab experiment=ordering_connect4 game."])
def test_completion_answers_as_with_the_presets_loaded(line):
    """Completion stores each preset as an empty node (a preset adds no key to the schema):
    the answers are those of the full registration."""
    answers = []
    for names_only in (True, False):
        script = textwrap.dedent(f"""
            import sys
            sys.argv = ["searchlab", "-sc", "query=bash"]
            from searchlab import cli
            orig = cli.register_configs
            cli.register_configs = lambda names_only=False: orig(names_only={names_only})
            cli.main()
        """)
        p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT),
                                                       "COMP_LINE": line, "COMP_POINT": str(len(line))})
        assert p.returncode == 0, p.stderr[-2000:]
        answers.append(p.stdout.split())
    assert answers[0] and answers[0] == answers[1]


def test_public_names_import_at_first_use():
    script = textwrap.dedent("""
        import sys
        import searchlab
        assert "numba" not in sys.modules and "searchlab.trees" not in sys.modules
        assert {"search", "load", "IIDTree", "__version__"} <= set(dir(searchlab))
        r = searchlab.search(searchlab.IIDTree(b=2, d=3, seed=1), algorithm="alphabeta",
                             ordering="natural")
        from numba.core import caching
        impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
        # the package's locators (the engine copies' CopyLocator, then DependencyLocator) come
        # before every locator of numba's own
        names = [c.__name__ for c in impl._locator_classes]
        assert names[:2] == ["CopyLocator", "DependencyLocator"], names
        try:
            searchlab.nope
        except AttributeError as e:
            assert "nope" in str(e)
        else:
            raise AssertionError("no AttributeError")
        print(r.value == searchlab.search(searchlab.IIDTree(b=2, d=3, seed=1), algorithm="minimax").value)
    """)
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                       cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert p.returncode == 0, p.stderr[-2000:]
    assert p.stdout.strip() == "True"


@pytest.mark.parametrize("overrides", [[], ["experiment=chess_matches_small"],
                                       ["experiment=quick", "sweep.b=[2]"]])
def test_reading_only_the_presets_named_composes_the_same_config(overrides):
    """A command reads only the presets it names (and those their defaults lists name, as
    chess_matches_small -> chess_matches -> unsound_tradeoff): its config is the one a full
    registration of every preset composes."""
    texts = []
    for partial in (True, False):
        script = textwrap.dedent(f"""
            from omegaconf import OmegaConf
            from searchlab.experiment import composition as c
            ov = {overrides!r}
            c.register_configs(presets=c.presets_named(ov) if {partial} else None)
            full = sum(c._STORED.values())
            print(OmegaConf.to_yaml(c.compose(None, ov)))
            print("FULL", full, len(c._STORED))
        """)
        p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                           timeout=300, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert p.returncode == 0, p.stderr[-2000:]
        text, _, counts = p.stdout.rpartition("FULL ")
        read, stored = map(int, counts.split())
        assert (read < stored) == partial
        texts.append(text)
    assert texts[0] == texts[1] and "name: " in texts[0]
