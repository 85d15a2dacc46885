"""Study kinds and claim-study families are records found by name (experiment/kind_registry.py,
studies/claim_study/families.py): the engine imports no family, choosing a config's kind imports
that kind only, and a plug-in kind or family goes through the same path as a built-in one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace
from importlib import metadata
from pathlib import Path

import pytest

from searchlab.errors import InvalidParameterError
from searchlab.experiment import kind_registry
from searchlab.experiment.schema import ConfigError
from searchlab.studies.claim_study import claim_study as C
from searchlab.studies.claim_study import families
from searchlab.studies.claim_study.family import StudyFamily

ROOT = Path(__file__).resolve().parents[2]


def test_every_built_in_family_is_one_record_named_as_registered():
    for name in families.BUILT_IN:
        fam = families.family(name)
        assert isinstance(fam, StudyFamily) and fam.name == name
        assert fam.tables and fam.sizes and "task_id" in fam.schema(next(iter(fam.tables))).names
    with pytest.raises(InvalidParameterError, match=r"claim_study.family must be one of chance, .*got 'go'"):
        families.family("go")


def test_every_built_in_kind_is_one_record_named_as_registered():
    kinds = kind_registry.study_kinds()
    assert [k.name for k in kinds] == [r.name for r in kind_registry.BUILT_IN]
    assert kinds[-1].section is None            # the sweep, the default, last
    tables = kind_registry.study_table_kinds()
    assert {"tradeoff", "match", "match_game", "parallel"} <= set(tables)
    with pytest.raises(InvalidParameterError, match="study kind must be one of tradeoff, parallel"):
        kind_registry.study_kind("go")


def test_choosing_a_kind_imports_that_kind_and_no_other_family():
    """experiment.api and the kind of a claim-study config import no other study family (a
    fresh process: the test session has imported them all)."""
    code = ("import sys, json\n"
            "from searchlab.experiment import api\n"
            "before = sorted(m for m in sys.modules if m.startswith('searchlab.studies'))\n"
            "k = api.kind_of({'claim_study': {'family': 'rigor'}})\n"
            "after = sorted(m for m in sys.modules if m.startswith('searchlab.studies'))\n"
            "print(json.dumps([k.name, before, after]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    name, before, after = json.loads(out.stdout.strip().splitlines()[-1])
    assert name == "claim_study" and before == []
    assert "searchlab.studies.claim_study.claim_kind" in after
    assert not [m for m in after if m.startswith(("searchlab.studies.tradeoff",
                                                  "searchlab.studies.parallel.parallel_kind",
                                                  "searchlab.studies.sweep.sweep_kind"))]


#: a plug-in family: the rigor family's record under another name, with one size
PLUGIN_FAMILY = replace(families.family("rigor"), name="my_rigor", title="a plug-in family",
                        sizes=("small",))


class _EntryPoint:
    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value


def _entry_points(group: str, eps: dict) -> object:
    def fake(group: str = "") -> list:
        return [_EntryPoint(n, v) for n, v in eps.get(group, {}).items()]
    return fake


def test_a_plugin_family_from_an_entry_point_is_validated_and_planned_like_a_built_in(monkeypatch):
    target = f"{__name__}:PLUGIN_FAMILY"
    monkeypatch.setattr(metadata, "entry_points",
                        _entry_points("", {families.ENTRY_POINT_GROUP: {"my_rigor": target}}))
    monkeypatch.setattr(families, "_LOADED", {})
    assert families.family_names()[-1] == "my_rigor"
    cfg = C.from_engine({"name": "x", "seed": 3, "claim_study": {"family": "my_rigor", "size": "small"}})
    assert cfg.family == "my_rigor"
    with pytest.raises(ConfigError, match="claim_study.size must be one of small; got 'full'"):
        C.from_engine({"name": "x", "seed": 3, "claim_study": {"family": "my_rigor"}})
    with pytest.raises(ConfigError, match="claim_study.openings applies to family multiplayer only"):
        C.from_engine({"name": "x", "seed": 3,
                       "claim_study": {"family": "my_rigor", "size": "small", "openings": 2}})
    tasks = C.claim_tasks(cfg)
    assert tasks and {t.step.kind for t in tasks} <= set(PLUGIN_FAMILY.tables)


def test_a_plugin_kind_from_an_entry_point_is_chosen_by_its_section(monkeypatch):
    sweep = kind_registry.study_kind("sweep")
    monkeypatch.setattr(kind_registry, "_LOADED", dict(kind_registry._LOADED))
    monkeypatch.setattr(sys.modules[__name__], "PLUGIN_KIND", replace(sweep, name="mine", section="mine"),
                        raising=False)
    monkeypatch.setattr(metadata, "entry_points", _entry_points(
        "", {kind_registry.ENTRY_POINT_GROUP: {"mine": f"{__name__}:PLUGIN_KIND"}}))
    assert [r.name for r in kind_registry.kind_refs()][-2:] == ["mine", "sweep"]
    assert kind_registry.section_kind({"mine": {"x": 1}}).name == "mine"
    assert kind_registry.section_kind({}).name == "sweep"
