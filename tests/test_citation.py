"""Something to cite: CITATION.cff, the README's BibTeX, a LICENSE, authors and one version
everywhere (pyproject, the package, `searchlab --version`, the citation)."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import yaml

import searchlab
from searchlab.studies.claims.registry import CLAIMS
from searchlab.studies.claims.verdict import LITERATURE, LITERATURE_OF

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def test_citation_cff_names_title_authors_licence_and_the_packages_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["version"] == PROJECT["version"] == searchlab.__version__
    assert cff["license"] == "MIT" and cff["authors"] and cff["title"].startswith("searchlab")
    cited = {r["authors"][0]["family-names"] for r in cff["references"]}
    assert {"Knuth", "Pearl"} <= cited


def test_readme_bibtex_matches_the_citation_file():
    readme = (ROOT / "README.md").read_text()
    bib = re.search(r"```bibtex\n(@software\{searchlab,.*?\n\})\n```", readme, re.S)
    assert bib, "README.md has a BibTeX @software entry"
    fields = dict(re.findall(r"^\s*(\w+)\s*=\s*\{(.*)\},?$", bib.group(1), re.M))
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert fields["version"] == cff["version"] and fields["title"] == cff["title"]
    assert fields["license"] == "MIT"


def test_licence_is_mit_and_declared():
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
    assert PROJECT["license"] == {"text": "MIT"} and PROJECT["authors"]


def test_version_command_prints_the_version():
    out = subprocess.run([sys.executable, "-m", "searchlab.cli", "--version"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == f"searchlab {PROJECT['version']}"


def test_literature_is_cited_by_name_for_the_classical_claims():
    ids = {i for c in CLAIMS for i in c.ids}
    assert set(LITERATURE_OF) <= ids
    assert all(ref in LITERATURE for refs in LITERATURE_OF.values() for ref in refs)
    claims_md = (ROOT / "docs" / "claims.md").read_text()
    assert "**000-e, 001-c, 003-d** (notes 000, 001, 003; Knuth & Moore 1975)" in claims_md
    assert "Pearl 1982" in claims_md.split("## Complexity")[1]
