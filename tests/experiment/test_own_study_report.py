"""The report of one's own study: only the claims the run's rows decide (or all, or none),
000-f judged on the run's own b^(3/4) sweep, the seed and the command line in provenance.json
and the report's header, the overlay of simulation against the exact expectations; run_study
from Python with overrides as a dict or keyword arguments, and the run it returns in a notebook."""

from __future__ import annotations

import json
import re

import pytest

import searchlab
from searchlab.experiment.api import ConfigError, override_list, override_value, run_study
from searchlab.report.report_cli import main as report_main


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("own") / "run"
    return run_study("quick", {"sweep.b": [2, 3], "sweep.d": "1..6", "sweep.ordering": ["random", "perfect"]},
                     output_dir=out, progress=False, sweep__instances=12, runner__n_jobs=1, seed=7)


def test_overrides_from_a_dict_and_keywords_are_hydras_strings():
    assert override_list({"sweep.b": [2, 4], "sweep.d": "1..5"}, runner__n_jobs=1, tree__levels=None) == \
        ["sweep.b=[2,4]", "sweep.d=1..5", "runner.n_jobs=1", "tree.levels=null"]
    assert override_value(True) == "true" and override_value("a b") == "'a b'"
    assert override_value({"x": 1.5}) == "{x:1.5}"
    with pytest.raises(ValueError, match="finite"):
        override_value(float("nan"))
    with pytest.raises(ConfigError, match="not one string"):
        run_study("quick", "sweep.b=[2]")
    with pytest.raises(ConfigError, match="sweep.instances"):
        run_study("quick", sweep__instances=0, output_dir="never_created")


def test_provenance_and_report_header_carry_the_seed_and_the_command(run):
    prov = json.loads((run / "provenance.json").read_text())
    assert prov["seed"] == 7 and prov["sessions"][0]["seed"] == 7
    assert prov["command"] == ("searchlab experiment=quick 'sweep.b=[2,3]' sweep.d=1..6 "
                               "'sweep.ordering=[random,perfect]' sweep.instances=12 runner.n_jobs=1 seed=7")
    report = (run / "report.md").read_text()
    assert "Seed 7; run by `searchlab experiment=quick 'sweep.b=[2,3]'" in report.split("## ")[0]


def test_own_report_lists_only_the_claims_its_rows_decide_and_judges_000f_on_them(run):
    claims = report_section((run / "report.md").read_text(), "Claims")
    rows = [ln for ln in claims.splitlines() if ln.startswith("| 0")]
    ids = {ln.split("|")[1].strip() for ln in rows}
    assert "000-f, 001-d, 003-e" in ids and "000-e, 001-c, 003-d" in ids
    assert not any("no data" in ln or "pending" in ln for ln in rows)
    assert "000-h" not in " ".join(ids)             # chess arithmetic: not this run's measurement
    f_row = next(ln for ln in rows if ln.startswith("| 000-f"))
    assert "judged on this run's simulation" in f_row and "nodes EBF" in f_row
    assert "(study ordering_ebf" not in claims      # the user's study is not labelled as the project's
    assert "Knuth & Moore 1975" in claims


def report_section(md: str, heading: str) -> str:
    start = md.index(f"## {heading}\n")
    nxt = md.find("\n## ", start + 3)
    return md[start: nxt if nxt > 0 else None]


def test_claims_switch_and_overlay(run, capsys):
    assert report_main([str(run), "--no-exact", "--resamples", "49", "--claims", "none", "--overlay"]) == 0
    md = (run / "report.md").read_text()
    assert "## Claims" not in md
    overlay = report_section(md, "Simulation against the exact expectations")
    assert re.search(r"\d+ of \d+ \(b, d, ordering\) cells have the exact value inside their 95 % CI", overlay)
    assert (run / "figures" / "exact_overlay.png").is_file()
    assert report_main([str(run), "--no-exact", "--resamples", "49", "--claims", "all"]) == 0
    rows = [ln for ln in report_section((run / "report.md").read_text(), "Claims").splitlines()
            if ln.startswith("| 0")]
    assert any("no data" in ln for ln in rows) and len(rows) > 20     # the project's whole table
    capsys.readouterr()


def test_exact_overlay_table_meets_theory(run):
    from searchlab.analysis.figures import exact_overlay_table
    tab = exact_overlay_table(searchlab.load(run))
    assert set(tab["ordering"]) == {"random"} and set(tab["b"]) == {2, 3}
    assert (tab.loc[tab["d"] == 1, "mean"] == tab.loc[tab["d"] == 1, "exact"]).all()   # depth 1: b leaves
    inside = (tab["lo"] <= tab["exact"] + tab["exact_error"]) & (tab["exact"] - tab["exact_error"] <= tab["hi"])
    assert inside.mean() >= 0.75                   # 95 % CIs over 12 trees: most cells cover the truth


def test_the_run_shows_itself_in_a_notebook(run):
    text = repr(run)
    assert text.startswith("RunDir(") and "sweep quick" in text and "complete" in text and len(text) < 200
    html = run._repr_html_()
    assert "<table>" in html and "seed" in html and "searchlab experiment=quick" in html
    assert repr(run / "report.md").startswith("PosixPath(")     # a path inside the run is a path
    assert searchlab.load(run).shape[0] > 0
