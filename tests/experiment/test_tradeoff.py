"""The trade-off study through the engine (``experiment=unsound_tradeoff_tiny``) end to end,
and the measurements' known answers."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import fit_probcut, sample_states
from searchlab.experiment import api, store
from searchlab.studies.tradeoff import tradeoff_measure as st
from searchlab.algorithms.pruning import NullMove, Technique
from searchlab.studies.tradeoff.tradeoff_config import DomainConf, from_engine
from searchlab.studies.tradeoff.domains import Position, connect4_game
from searchlab.studies.tradeoff.tradeoff_estimate import QUIESCENCE_FACTOR, full_tree
from searchlab.studies.tradeoff.tradeoff_tables import NONDETERMINISTIC, load_table
from searchlab.games.protocol import Capabilities
from searchlab.studies.tradeoff.tradeoff_report import claim_counts, tradeoff_section
from searchlab.trees.incremental import IncrementalTree

TINY = ["runner.progress=false"]


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("tiny") / "run"
    return api.run_study("unsound_tradeoff_tiny", TINY + ["runner.n_jobs=1"], output_dir=out,
                         progress=False)


def test_estimates_bound_the_tiny_runs_searches(tiny_run):
    """estimate.py's per-search bounds hold on every row of the tiny run."""
    cfg = from_engine(api.compose("unsound_tradeoff_tiny"))
    df = load_table(tiny_run)
    for (domain, family), g in df.groupby(["domain", "family"]):
        dconf = getattr(cfg.domains, domain)
        factor = QUIESCENCE_FACTOR if family == "quiescence" else 1
        assert (g["nodes_total"] <= factor * full_tree(domain, dconf)).all(), (domain, family)
        assert (g["ref_nodes"] <= full_tree(domain, dconf)).all(), domain
        assert (g["budget_nodes"] <= dconf.budget).all(), (domain, family)


def test_parts_are_written_by_the_engine_store(tiny_run):
    for folder in ("table", "games"):
        names = [p.name for p in (tiny_run / folder).glob("part-*.parquet")]
        assert names and all(store.PART_RE.match(n) and n.count("-") == 2 for n in names), names


def test_tiny_study_end_to_end(tiny_run):
    df = load_table(tiny_run)
    m = load_table(tiny_run, "matches")
    assert set(df["domain"]) == {"incremental", "connect4", "othello", "chess"}
    assert set(m["domain"]) == {"connect4", "othello"}
    g = load_table(tiny_run, "games")          # one row per game, two per opening (a pair)
    assert (g.groupby(["domain", "technique", "pair"]).size() == 2).all()
    assert set(g["a_color"]) == {"first", "second", "black", "white"}
    assert m["games"].sum() == len(g) and (m["pairs"] * 2 == m["games"]).all()
    assert not df.drop(columns=["exact_best_moves"]).isna().any().any()
    assert (df[df["domain"] == "connect4"]["result_change"] >= 0).all()
    assert (df[df["domain"] == "chess"]["budget_solved"] >= 0).all()
    assert set(df[df["domain"] == "chess"]["family"]) >= {"quiescence", "null_move"}
    assert "quiescence" not in set(df[df["domain"] != "chess"]["family"])
    manifest = (tiny_run / "manifest.json").read_text()
    assert '"failed": []' in manifest and '"tasks": 13' in manifest and '"matches": 3' in manifest
    assert (tiny_run / "provenance.json").exists() and (tiny_run / "probcut.json").exists()
    report = (tiny_run / "report.md").read_text()
    for d in ("incremental", "connect4", "othello", "chess"):
        assert (tiny_run / "figures" / f"pareto_{d}.png").stat().st_size > 1000
    assert "**Verdict:**" in report and "## Matches at equal node budget" in report
    for line in report.splitlines():
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            assert all(cells), f"empty cell in {line!r}"
            assert not any(c in ("n/a", "nan", "None") for c in cells), line
    sec = tradeoff_section(tiny_run)
    assert sec.startswith("## Sound versus unsound pruning") and "Verdict" in sec
    # nodes per CPU second per technique, every match domain, as the game rows recorded it
    games = load_table(tiny_run, "games")
    assert (games["a_nps"] > 0).all() and (games["b_nps"] > 0).all()
    assert "Nodes per CPU second per technique" in sec
    for (dom, tech), part in games.groupby(["domain", "technique"]):
        assert f"| {dom} | equal nodes | {int(part['budget'].iloc[0]):,} nodes/move | {tech} | " \
               f"{len(part)} ({len(part)}) |" in sec


def test_everything_off_equals_the_reference(tiny_run):
    df = load_table(tiny_run)
    sound = df[df["family"] == "sound"]
    assert len(sound) == df.groupby(["domain", "variant", "position"]).ngroups
    assert (sound["node_ratio"] == 1.0).all() and (sound["nodes"] == sound["ref_nodes"]).all()
    assert (sound["decision_error"] == 0).all() and (sound["value_error"] == 0.0).all()
    assert (sound["fired"] == 0).all()


def test_each_technique_reduces_nodes_on_a_fixed_test_set():
    cfg = from_engine(api.compose("unsound_tradeoff", ["tradeoff.domain=incremental"]))
    trees = [IncrementalTree(5, 6, s, decay=0.9, correlation=0.5) for s in range(8)]
    fit_tree = IncrementalTree(5, 8, 99, decay=0.9, correlation=0.5)
    pc = fit_probcut(fit_tree, sample_states(fit_tree, 2, 20, 1), 1, 3)
    ref = sum(search(t, "alphabeta", "static", engine="reference").nodes for t in trees)
    for tech in cfg.techniques:
        if tech.family in ("sound", "quiescence"):    # quiescence adds nodes by design
            continue
        pr = tech.scaled(1.0, pc)
        nodes = sum(search(t, "alphabeta", "static", engine="reference", pruning=pr).nodes
                    for t in trees)
        assert nodes < ref, tech.label


class Zugzwang:
    """Depth-3 game built for null move to fail. MAX (root) has moves "b" (searched first,
    worth 1) and "a" (worth 5: every leaf below it is 5). After "a", MIN to move is in
    zugzwang: passing would leave a position of static value 0, but every real move loses.
    Null move at that MIN node (R = 1) sees the pass fail low against alpha = 1 and prunes
    "a", so the search plays "b": a wrong decision by construction."""

    name = "zugzwang"
    capabilities = Capabilities(static_values=True, null_move=True)
    default_depth = 3

    def initial_state(self):
        return ()

    def max_to_move(self, s):
        return len(s) % 2 == 0

    def legal_moves(self, s):
        return [] if self.is_terminal(s) else (["b", "a"] if not s else ["x", "y"])

    def play(self, s, m):
        return s + (m,)

    def is_terminal(self, s):
        return len([m for m in s if m != "-"]) >= 3

    def utility(self, s):
        return 5.0 if s[0] == "a" else 1.0

    def evaluate(self, s):
        if "-" in s:
            return 0.0
        return 5.0 if s and s[0] == "a" else 1.0

    def null_move(self, s):
        return s + ("-",)

    def null_move_allowed(self, s):
        return True

    def hash_key(self, s):
        return hash(s)


def test_null_move_failure_is_detected():
    techs = [Technique(label="alpha-beta (sound)", family="sound"),
             Technique(label="null R=1", family="null_move", null_move=NullMove(1))]
    pos = Position("zugzwang", "zugzwang", "z0", 0)
    pos.game = lambda *_: Zugzwang()       # a constructed domain
    rows = st.run_position(pos, DomainConf(depth=3, ordering="natural", budget=200), techs,
                           {}, "test")
    by = {r["technique"]: r for r in rows}
    assert by["alpha-beta (sound)"]["decision_error"] == 0
    assert by["alpha-beta (sound)"]["best_move"] == "a"
    assert by["null R=1"]["decision_error"] == 1 and by["null R=1"]["best_move"] == "b"
    assert by["null R=1"]["value_error"] > 0 and by["null R=1"]["fired"] > 0


def test_connect4_null_move_is_a_pass():
    g = connect4_game("4455")
    s = g.initial_state()
    n = g.null_move(s)
    assert g.max_to_move(n) != g.max_to_move(s) and n.mask == s.mask


def test_determinism_n_jobs_1_vs_2(tiny_run, tmp_path):
    two = api.run_study("unsound_tradeoff_tiny", TINY + ["runner.n_jobs=2", "runner.report=false"],
                        output_dir=tmp_path / "two", progress=False)
    for which in ("table", "games"):
        a = load_table(tiny_run, which)
        b = load_table(two, which)
        drop = [c for c in (*NONDETERMINISTIC, "wall_seconds") if c in a.columns]
        assert len(a) > 0
        pd.testing.assert_frame_equal(a.drop(columns=drop), b.drop(columns=drop))


def test_claim_counts_feed_the_000n_verdict(tiny_run):
    import pandas as pd

    from searchlab.studies.ordering.unsound import unsound_pruning_worth_it
    from searchlab.studies.claims.verdict import Context
    counts = claim_counts(tiny_run)
    assert counts["configs"] > 0 and counts["matches"] == counts["wins"] + counts["losses"] + counts["undecided"]
    v = unsound_pruning_worth_it(Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact={"tradeoff": counts}))
    assert v.category in ("holds", "holds only under conditions", "does not hold", "not shown at this power")
    assert str(counts["erring"]) in v.measured
    assert len(counts["match_rows"]) == counts["matches"] and "Holm" in v.measured


def test_load_reads_a_tradeoff_run_and_refuses_mixing_kinds(tiny_run):
    from searchlab import load
    from searchlab.experiment.table_kinds import UnknownTableError

    rows = load(tiny_run)
    assert len(rows) == len(load_table(tiny_run)) > 1
    assert {"technique", "node_ratio", "decision_error"} <= set(rows.columns)
    games = load(str(tiny_run / "games" / "*.parquet"))
    assert len(games) == len(load_table(tiny_run, "games")) and "pair" in games.columns
    with pytest.raises(UnknownTableError, match="different kinds"):
        load([tiny_run, *sorted((tiny_run / "games").glob("*.parquet"))])


def test_a_failing_task_is_retried_then_recorded_and_resume_completes_it(tmp_path, monkeypatch):
    """The engine's fault handling applies to trade-off tasks: a task that raises once is
    retried in its worker; one that always raises is recorded in manifest.json (no rows), and
    runner.resume runs it again."""
    import json

    from searchlab.experiment.runner import FAULT_ENV

    ov = TINY + ["runner.n_jobs=1", "runner.report=false", "tradeoff.domain=incremental",
                 "tradeoff.domains.incremental.correlations=[0.0]"]
    state = tmp_path / "faults"
    monkeypatch.setenv(FAULT_ENV, json.dumps({"index": [1], "mode": "raise", "times": 1,
                                              "state": str(state)}))
    once = api.run_study("unsound_tradeoff_tiny", ov, output_dir=tmp_path / "once", progress=False)
    assert json.loads((once / "manifest.json").read_text())["failed"] == []
    assert load_table(once)["position"].nunique() == 3
    state.unlink()
    monkeypatch.setenv(FAULT_ENV, json.dumps({"index": [1], "mode": "raise", "times": 9,
                                              "state": str(state)}))
    run = api.run_study("unsound_tradeoff_tiny", ov, output_dir=tmp_path / "run", progress=False)
    failed = json.loads((run / "manifest.json").read_text())["failed"]
    assert len(failed) == 1 and "injected fault" in failed[0]["error"]
    assert load_table(run)["position"].nunique() == 2
    monkeypatch.delenv(FAULT_ENV)
    api.run_study("unsound_tradeoff_tiny", ov + [f"runner.resume={run}"], progress=False)
    drop = list(NONDETERMINISTIC)
    pd.testing.assert_frame_equal(load_table(once).drop(columns=drop, errors="ignore"),
                                  load_table(run).drop(columns=drop, errors="ignore"))


def test_report_tables_of_a_tradeoff_run_are_its_summary(tiny_run, capsys):
    """searchlab-report --tables on a trade-off run: its per-technique summary, not the
    sweep's summary tables (a KeyError: 'algorithm' before)."""
    import shutil

    from searchlab.report import report_cli
    from searchlab.studies.tradeoff.tradeoff_report import summarise

    shutil.rmtree(tiny_run / "tables", ignore_errors=True)
    assert report_cli.main([str(tiny_run), "--tables", "csv,latex,md"]) == 0, capsys.readouterr().err
    assert sorted(p.name for p in (tiny_run / "tables").iterdir()) == [
        "tradeoff_summary.csv", "tradeoff_summary.md", "tradeoff_summary.tex"]
    got = pd.read_csv(tiny_run / "tables" / "tradeoff_summary.csv")
    want = summarise(load_table(tiny_run))
    assert list(got["technique"]) == list(want["technique"])
    assert got["node_ratio"].to_numpy() == pytest.approx(want["node_ratio"].to_numpy())
    assert "tradeoff_summary.md" in (tiny_run / "report.md").read_text()


def test_time_control_pairings_count_in_the_000n_verdict(tiny_run, tmp_path):
    """A time-control run among the match runs (as analysis/reproduce.py hands it over): its
    pairings are counted in part (b), under their condition (equal CPU time, chess, 2 ms)."""
    timed = api.run_study("chess_matches_time_small",
                          TINY + ["runner.n_jobs=1", "tradeoff.domains.chess.match.openings=1",
                                  "tradeoff.domains.chess.match.max_plies=6"],
                          output_dir=tmp_path / "timed", progress=False)
    counts = claim_counts(tiny_run, (timed,))
    p = counts["paired"]
    assert p["pairings"] == 2 and p["games"] == 4
    assert "equal CPU time per move: stronger in 0 of 2 pairings: chess 0.002 s CPU/move" in \
        p["conditions"]
    sec = tradeoff_section(tiny_run, (timed,))
    assert "| chess | null R=2 | engine, persist, 0.002 s CPU/move | cap 10,000,000 |" in sec
    assert "| chess | equal CPU time | 0.002 s CPU/move | null R=2 | 2 (2) |" in sec
