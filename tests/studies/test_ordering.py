"""The ordering-technique claims are measured, not pending, and their section is complete."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.studies.ordering import ordering_checks as OC
from searchlab.studies.claims import registry as C
from searchlab.studies.claims.verdict import Context


@pytest.fixture(scope="module")
def measured():
    return OC.ordering_checks(small=True)


def test_every_ordering_claim_gets_a_measured_verdict(measured):
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"ordering": measured})
    ids = {"000-j", "000-k", "000-l", "000-m", "001-k", "002-a", "001-m"}
    seen = set()
    for claim, verdict in C.evaluate_all(ctx):
        if ids & set(claim.ids):
            seen |= ids & set(claim.ids)
            measured_categories = ("holds", "holds only under conditions", "does not hold")
            if "001-m" in claim.ids:           # 3 positions (small): the paired CI may contain 0
                measured_categories += ("not shown at this power",)
            assert verdict.category in measured_categories
            assert verdict.measured and "n/a" not in verdict.measured.split(";")[0]
    assert seen == ids


def test_without_measurements_the_verdict_says_so():
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={})
    assert OC.iterative_deepening_pays(ctx).category == "no data"


def test_section_has_no_empty_cells_and_sound_policies_agree(measured):
    text = OC.ordering_section(measured)
    for line in text.splitlines():
        if line.startswith("|"):
            assert "||" not in line.replace(" ", "") and "| |" not in line
    for dom in ("connect4", "othello", "chess"):
        for policy, a in measured[dom]["agg"].items():
            assert a["same_value"] == a["n"], (dom, policy)     # sound: same value as natural
    assert measured["tt_mistake"]["wrong"]["right"] == 0
    # the n = 8 chess table is not printed, only where chess ordering is measured instead
    assert "### Chess\n\nThis study also searches WAC 1–" in text and "that table is not shown" in text
    assert "| captures |" not in text.split("### Chess\n")[1].split("###")[0]
    assert measured["tt_mistake"]["wrong"]["value-only"] > 0


def _same(a, b, path=""):
    """Equal nested results (NaN equal to NaN)."""
    if isinstance(a, dict):
        assert set(a) == set(b), path
        for k in a:
            _same(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
    elif isinstance(a, float) and a != a:
        assert b != b, path
    else:
        assert a == b, (path, a, b)


def test_the_engine_run_gives_the_in_process_numbers(measured, tmp_path):
    """experiment=ordering_checks runs the same units as tasks; its tables give ordering_checks()'s
    numbers exactly (timing apart), and a resumed run with one table file gone runs only the
    missing tasks."""
    from searchlab.experiment import api
    from searchlab.studies.claim_study.claim_study_report import results

    run = api.run_study("ordering_checks", ["runner.n_jobs=1", "runner.progress=false", "claim_study.size=small"],
                        output_dir=tmp_path / "run", progress=False)
    got = results(run)["ordering_checks"]
    _same({k: v for k, v in measured.items() if k != "seconds"}, {k: v for k, v in got.items() if k != "seconds"})
    assert "Measured by `searchlab experiment=ordering_checks`" in (run / "report.md").read_text()
