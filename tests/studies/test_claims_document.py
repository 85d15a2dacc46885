"""docs/claims.md is the registry's own statement of every claim (claims_document), each with
the course notes it comes from named by title; it names every claim the registry checks."""

from pathlib import Path

from searchlab.studies.claims.registry import CLAIMS, claim_ids, claims_document
from tests.test_speaks_for_itself import ISSUE, OUTSIDE

ROOT = Path(__file__).resolve().parents[2]


def test_claims_md_is_the_registry_document():
    assert (ROOT / "docs" / "claims.md").read_text(encoding="utf-8") == claims_document(), \
        "docs/claims.md is stale: python -m searchlab.studies.claims.registry > docs/claims.md"


def test_every_claim_is_listed_with_its_source():
    text = claims_document()
    for c in CLAIMS:
        assert f"**{c.label}**" in text
    assert len(claim_ids()) >= 30 and not OUTSIDE.search(text) and not ISSUE.search(text)
