import re

from searchlab.studies.claims import registry as C
from searchlab.studies.sweep import sweep_report as R
from searchlab.report.report_cli import main
from tests.conftest import synthetic_table

SECTIONS = ["Run", "Estimators", "Effective branching factors", "Estimators compared", "Knuth–Moore exactness", "Figures",
            "Where b^(3/4) describes random order", "Claims", "Excluded rows"]


def _table_cells(md: str):
    for line in md.splitlines():
        if line.startswith("|") and not re.match(r"^\|(---\|)+$", line):
            body = line.strip()[1:-1]
            cells = re.split(r"(?<!\\)\|", body)
            yield line, [c.strip() for c in cells]


def _check(md: str):
    for s in SECTIONS:
        assert f"\n## {s}\n" in md, s
    for line, cells in _table_cells(md):
        assert all(cells), f"empty cell in: {line}"
        assert not any(c in ("nan", "None", "NaN") for c in cells), line
    for cid in C.claim_ids():
        assert cid in md, cid


def test_report_on_tiny_synthetic_run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    synthetic_table(bs=(2, 4), depths=range(1, 6), instances=5).to_parquet(run / "results.parquet")
    path = R.write_report(run, n_resamples=99, exact=False, claims="all")     # the project's whole table
    md = path.read_text()
    _check(md)
    assert (run / "figures" / "beff_vs_b.png").exists()
    assert "excluded" in md
    # by default, a report of one's own study carries only the claims its rows decide
    own = R.write_report(run, n_resamples=99, exact=False).read_text()
    claims = own[own.index("\n## Claims\n"):own.index("\n## Excluded rows\n")]
    assert "The claims of docs/claims.md that this run's rows decide" in claims
    assert "no data" not in claims and "pending" not in claims and "000-h" not in claims


def test_report_with_exact_checks_and_sparse_run(tmp_path):
    """One ordering, one b, two depths: sections say what they cannot show, cells stay filled."""
    run = tmp_path / "sparse"
    run.mkdir()
    df = synthetic_table(bs=(3,), depths=(3, 4), instances=3, orderings=("random",), with_minimax=False,
                         abort_rate=0.0)
    df.to_parquet(run / "part-0.parquet")
    md = R.write_report(run, n_resamples=49, claims="all").read_text()
    _check(md)
    # one b with two depths: no convergence figure (it needs three depths), and the report says why
    assert "Not drawn: no b with three or more depths under random/natural order." in md
    assert "Every row has status" in md or "None: every row" in md


def test_report_on_empty_ok_set(tmp_path):
    run = tmp_path / "bad"
    run.mkdir()
    df = synthetic_table(bs=(2,), depths=(2, 3), instances=2, with_minimax=False)
    df["status"] = "failed"
    df.to_parquet(run / "results.parquet")
    md = R.write_report(run, n_resamples=49, exact=False, claims="all").read_text()
    _check(md)
    own = R.write_report(run, n_resamples=49, exact=False).read_text()
    assert "This run's rows decide none of the claims" in own


def test_cli_bad_run_dir(tmp_path, capsys):
    assert main([str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "does not exist" in err
    (tmp_path / "empty").mkdir()
    assert main([str(tmp_path / "empty")]) == 2
    assert "no Parquet" in capsys.readouterr().err
