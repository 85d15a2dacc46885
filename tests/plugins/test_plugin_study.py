"""docs/extending.md's plug-in study kind, end to end: ``perft`` (tests/data/plugins/
perft_study.py, a file outside the package) installed as an entry point of the group
``searchlab.studies`` (a distribution's dist-info written to a folder on the path, as pip
would), selected by its section in a preset of the user's own config directory
(tests/data/plugins/conf/experiment/perft_tictactoe.yaml) and planned, run, stored and
reported by the ``searchlab`` command like a built-in kind; its section is checked against
its declared schema before any work. The package is not edited for it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from omegaconf import OmegaConf

from searchlab import load, search
from searchlab.errors import InvalidParameterError
from searchlab.experiment import kind_registry
from searchlab.experiment.composition import study_sections
from searchlab.experiment.schema import ConfigError, ExperimentConfig
from searchlab.experiment.validation import validate
from searchlab.games.registry import entry

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
CONF = PLUGINS / "conf"
PRESET = yaml.safe_load((CONF / "experiment" / "perft_tictactoe.yaml").read_text())
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A folder holding the plug-in's installed metadata (its entry point), on this process's
    path too (searchlab.load reads the run's table through the kind's table_kinds)."""
    site = tmp_path_factory.mktemp("site")
    dist = site / "perftplugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: perftplugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[searchlab.studies]\nperft = perft_study:KIND\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(PLUGINS))
        mp.syspath_prepend(str(site))
        mp.setattr(kind_registry, "_LOADED", dict(kind_registry._LOADED))
        yield site
    sys.modules.pop("perft_study", None)


def _searchlab(site: Path, *args: str, prog: str = "searchlab") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(PLUGINS), str(ROOT)]))
    return subprocess.run([str(BIN / prog), *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)


def _perft(depth: int) -> int:
    """Tic-tac-toe's positions at ``depth``, counted by the engine: plain minimax's leaves."""
    return search(entry("tictactoe").start(), "minimax", depth=depth, engine="reference").leaves


def test_the_plugin_kind_runs_end_to_end_from_the_users_config_dir(site, tmp_path):
    out = _searchlab(site, "experiment=perft_tictactoe", "--config-dir", str(CONF),
                     f"results_dir={tmp_path}", "runner.n_jobs=1", "runner.progress=false")
    assert out.returncode == 0, out.stderr[-2000:]
    (run,) = list((tmp_path / PRESET["name"]).iterdir())
    assert json.loads((run / "manifest.json").read_text())["kind"] == "perft"
    df = load(str(run)).sort_values("depth")
    depths = sorted(PRESET["perft"]["depths"])
    assert list(df["depth"]) == depths and set(df["game"]) == {PRESET["perft"]["game"]}
    assert list(df["perft"]) == [_perft(d) for d in depths]
    report = (run / "report.md").read_text()
    assert "## Positions per depth" in report
    for r in df.itertuples():
        assert f"| {r.depth} | {r.perft} | {r.positions} |" in report
    # searchlab-report finds the kind from the run's manifest and writes the same report
    (run / "report.md").unlink()
    again = _searchlab(site, str(run), prog="searchlab-report")
    assert again.returncode == 0, again.stderr[-2000:]
    assert (run / "report.md").read_text() == report


def test_plan_and_cfg_job_of_the_plugin_kind_run_nothing(site, tmp_path):
    args = ("experiment=perft_tictactoe", "--config-dir", str(CONF), f"results_dir={tmp_path}")
    plan = _searchlab(site, *args, "--plan")
    assert plan.returncode == 0, plan.stderr[-2000:]
    n = len(set(PRESET["perft"]["depths"]))
    assert f"plan (perft): perft: {PRESET['perft']['game']} at depths" in plan.stdout
    assert f"({n} tasks)" in plan.stdout and "engines: none" in plan.stdout
    job = _searchlab(site, *args, "--cfg", "job")
    assert job.returncode == 0, job.stderr[-2000:]
    assert yaml.safe_load(job.stdout)["perft"] == PRESET["perft"]
    assert "plan (perft)" in job.stderr
    assert not any(tmp_path.iterdir())


def test_a_bad_value_in_its_section_is_one_line_before_any_work(site, tmp_path):
    out = _searchlab(site, "experiment=perft_tictactoe", "--config-dir", str(CONF),
                     f"results_dir={tmp_path}", "perft.depths=[1,99]")
    assert out.returncode != 0
    assert out.stderr.strip().splitlines() == [
        "searchlab: error: perft.depths must be a non-empty list of integers in [0, 9]; "
        "got [1, 99]"]
    assert not any(tmp_path.iterdir())


def _fake_entry_points(eps: dict):
    """metadata.entry_points with ``eps`` as the groups asked for by name (others: none); a
    call without a group (numba's) is the real one."""
    real = metadata.entry_points

    def fake(group: str = "", **kw):
        return eps.get(group, []) if group else real(**kw)
    return fake


class _EntryPoint:
    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value


@pytest.fixture
def perft_plugin(monkeypatch):
    """The plug-in registered in this process (a fake entry point) and its module importable."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    eps = {kind_registry.ENTRY_POINT_GROUP: [_EntryPoint("perft", "perft_study:KIND"),
                                             _EntryPoint("seed", "perft_study:KIND")]}
    monkeypatch.setattr(metadata, "entry_points", _fake_entry_points(eps))
    monkeypatch.setattr(kind_registry, "_LOADED", dict(kind_registry._LOADED))
    yield


def _cfg(**section) -> dict:
    return {"name": "p", "tree": {"model": "iid"}, "perft": section}


def test_the_schema_and_the_sections_are_read_from_the_registry(perft_plugin):
    assert study_sections() == ("tradeoff", "parallel", "claim_study", "perft", "sweep")
    schema = kind_registry.config_schema()
    assert issubclass(schema, ExperimentConfig) and "perft" in schema.__dataclass_fields__
    # an entry point named like a key of the schema would shadow it: left out, and said why
    assert "seed" not in kind_registry.sections()
    assert "built-in study kind or a key of the config schema" in kind_registry.plugin_errors()["seed"]


def test_without_plugins_the_schema_is_the_built_in_one(monkeypatch):
    monkeypatch.setattr(metadata, "entry_points", _fake_entry_points({}))
    assert kind_registry.config_schema() is ExperimentConfig
    assert kind_registry.sections() == tuple(r.section for r in kind_registry.BUILT_IN[:-1])


@pytest.mark.parametrize("section, message", [
    ({"depths": [1, 2]}, None),
    ({"depths": [-1]}, r"perft.depths must be a non-empty list of integers in \[0, 9\]; got \[-1\]"),
    ({"game": "go"}, r"perft.game must be one of tictactoe, .*; got 'go'"),
    ({"dephts": [1]}, r"unknown config key 'perft.dephts'; allowed keys in perft: game, depths"),
    ({"depths": "1..3"}, r"perft.depths: "),
])
def test_validation_checks_the_section_against_the_kinds_schema(perft_plugin, section, message):
    if message is None:
        assert validate(_cfg(**section)).name == "p"
        assert kind_registry.section_kind(_cfg(**section)).section_of(_cfg(**section)).depths == [1, 2]
    else:
        with pytest.raises(ConfigError, match=message):
            validate(_cfg(**section))


def test_an_unknown_section_lists_the_registered_ones(perft_plugin):
    with pytest.raises(ConfigError, match=r"unknown config key 'perfft'; .*a study kind is chosen "
                                          r"by its section: tradeoff, parallel, claim_study, perft$"):
        validate(OmegaConf.create({"name": "p", "perfft": {}}))


def test_a_plugin_kind_that_does_not_import_is_named(monkeypatch):
    eps = {kind_registry.ENTRY_POINT_GROUP: [_EntryPoint("gone", "no_such_module:KIND")]}
    monkeypatch.setattr(metadata, "entry_points", _fake_entry_points(eps))
    with pytest.raises(ConfigError, match=r"^gone: study kind 'gone': cannot import "
                                          r"no_such_module:KIND \(ModuleNotFoundError"):
        validate({"name": "p", "gone": {"x": 1}})
    with pytest.raises(InvalidParameterError, match="cannot import no_such_module:KIND"):
        kind_registry.study_kind("gone")


def test_the_documented_preset_is_the_shipped_one():
    """docs/extending.md shows the preset's keys as shipped (its name and section)."""
    text = (ROOT / "docs" / "extending.md").read_text()
    block = text[text.index("    # @package _global_\n    name: perft_tictactoe"):]
    block = block[:block.index("\n\n")]
    shown = yaml.safe_load("\n".join(ln[4:] for ln in block.splitlines()))
    assert shown == {k: PRESET[k] for k in ("name", "perft")}
