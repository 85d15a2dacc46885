"""Every preset composes, validates, plans and fits its budget; its config hash, seed and task ids are what they were before the study kinds ran
through one session skeleton (tests/data/preset_identity.json, written by the code before it):
a run directory written then is resumed now (the same hash is accepted, the same task ids are
skipped), and the numbers of a preset do not move. The config hashes of the matches-only presets
(unsound_matches*, chess_matches*) are from after they were switched on purpose to engine-grade
play with Connect Four's null-move guard (their task ids are unchanged)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from searchlab.experiment import api
from searchlab.studies.tradeoff.tradeoff_tasks import plan_tradeoff_tasks

ROOT = Path(__file__).resolve().parents[2]
EXPECTED = json.loads((ROOT / "tests" / "data" / "preset_identity.json").read_text())


def test_every_preset_is_listed():
    assert sorted(EXPECTED) == sorted(p.stem for p in (ROOT / "experiments").glob("*.yaml"))


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_preset_hash_seed_and_task_ids_are_unchanged(name, tmp_path):
    cfg = api.compose(name)
    study = api.validate(cfg)
    kind = api.kind_of(cfg)
    session = kind.session(cfg, study)
    if kind.name == "tradeoff":           # its planner fits ProbCut first: plan without models
        tasks = plan_tradeoff_tasks(api.tradeoff_config(cfg), {})
    else:
        tasks = session.plan(tmp_path, lambda _: None)
    # every preset composes, validates, plans tasks and fits its own budget guard (the check a
    # run makes before any work); its name is its file's (the trade-off sizes keep the study's)
    assert tasks and (name.startswith(study.name) if kind.name == "tradeoff" else study.name == name)
    if kind.name != "tradeoff" and session.guard is not None:
        session.guard(study.runner.max_nodes)
    ids = [t.task_id for t in tasks]
    got = {"kind": kind.name, "config_hash": session.config_hash, "seed": study.seed,
           "task_ids": hashlib.sha256("\n".join(ids).encode()).hexdigest()[:16] + f":{len(ids)}"}
    assert got == EXPECTED[name]
