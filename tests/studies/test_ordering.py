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
    assert measured["tt_mistake"]["wrong"]["value-only"] > 0
