import re
from pathlib import Path

import pandas as pd
import pytest

from searchlab.analysis import estimators as E
from searchlab.studies.claims import exact_trees as X
from searchlab.studies.claims import registry as C
from searchlab.studies.claims.verdict import Context

CLAIMS_MD = Path(__file__).resolve().parents[3] / "shared" / "CLAIMS.md"


def test_registry_covers_every_claim_id():
    ids = set(C.claim_ids())
    assert len(ids) == len(C.claim_ids()), "duplicate claim id"
    keys = C.claim_keys()
    assert len(set(keys)) == len(keys) == len(C.CLAIMS), "duplicate claim key"
    # ids shared by two entries only where the second names its half
    for i in ids:
        entries = [c for c in C.CLAIMS if i in c.ids]
        assert len(entries) == 1 or all(c.name for c in entries[1:]), i
    if CLAIMS_MD.exists():
        listed = set(re.findall(r"\b(\d{3}-[a-z])\b", CLAIMS_MD.read_text()))
        assert listed == ids


@pytest.fixture(scope="module")
def exact():
    return X.exact_checks(n_random=40)


def test_exact_checks_textbook(exact):
    t = exact["textbook"]
    assert (t["value"], t["move"], t["leaves"]) == (3, 0, 7)
    assert [v for _, v in t["pruned"]] == [4, 6]
    assert exact["c_first"]["leaves"] == 7          # the note's 000-c example does not change the count
    assert exact["c_first"]["leaves_min"] < exact["c_first"]["leaves_max"]
    assert exact["homework"]["best_leaves"] == 5
    assert exact["equal"]["same_value"] == exact["equal"]["total"]
    assert exact["relabel"]["same_moves"] == exact["relabel"]["trials"]


def test_verdicts_from_data_and_exact(exact, table):
    df, exc = E.ok_rows(table)
    ctx = Context(df=df, summary=E.summarize(df, n_resamples=49), excluded=exc, exact=exact)
    res = {c.key: v for c, v in C.evaluate_all(ctx)}
    assert res["000-b"].category == "holds"
    assert res["000-c"].category == "does not hold"
    # worst-first by exact value prunes (0.9·b^d), but it is not the worst ordering over all orderings
    assert res["000-g"].category == "holds only under conditions"
    assert res["000-e"].category == "holds"                  # synthetic perfect = Knuth–Moore
    assert res["001-g"].category == "holds"                  # literally; the figure is 1,022× too small
    assert res["001-g"].detail.startswith("holds literally") and "1,022× too small" in res["001-g"].detail
    assert res["000-k"].category == "no data"                # ordering_checks() not run here
    assert res["000-n"].category == "no data"                # the trade-off study not run here
    for v in res.values():
        assert v.measured and v.theory and v.detail


def test_verdicts_without_data():
    empty = pd.DataFrame(columns=["tree", "b", "d", "ordering", "algorithm", "leaves", "instance", "status"])
    ctx = Context(df=empty, summary=pd.DataFrame(), exact=None)
    res = {c.key: v for c, v in C.evaluate_all(ctx)}
    assert res["000-f"].category == "no data"
    assert res["000-b"].category == "no data"
    assert res["003-f"].category == "holds"                  # arithmetic needs no data
