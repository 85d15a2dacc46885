"""The study end to end at tiny size, and the measurements' known answers."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab.algorithms.api import search
from searchlab.games.protocol import Capabilities
from searchlab.tradeoff import study as st
from searchlab.tradeoff.config import DomainConf, NullMoveConf, TechniqueConf, load
from searchlab.tradeoff.domains import Position, connect4_game
from searchlab.tradeoff.report import tradeoff_section
from searchlab.trees.incremental import IncrementalTree


def test_tiny_study_end_to_end(tiny_run):
    df = st.load_table(tiny_run)
    m = st.load_table(tiny_run, "matches")
    assert set(df["domain"]) == {"incremental", "connect4", "othello", "chess"}
    assert set(m["domain"]) == {"connect4", "othello"}
    assert not df.drop(columns=["exact_best_moves"]).isna().any().any()
    assert (df[df["domain"] == "connect4"]["result_change"] >= 0).all()
    assert (df[df["domain"] == "chess"]["budget_solved"] >= 0).all()
    assert set(df[df["domain"] == "chess"]["family"]) >= {"quiescence", "null_move"}
    assert "quiescence" not in set(df[df["domain"] != "chess"]["family"])
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


def test_everything_off_equals_the_reference(tiny_run):
    df = st.load_table(tiny_run)
    sound = df[df["family"] == "sound"]
    assert len(sound) == df.groupby(["domain", "variant", "position"]).ngroups
    assert (sound["node_ratio"] == 1.0).all() and (sound["nodes"] == sound["ref_nodes"]).all()
    assert (sound["decision_error"] == 0).all() and (sound["value_error"] == 0.0).all()
    assert (sound["fired"] == 0).all()


def test_each_technique_reduces_nodes_on_a_fixed_test_set():
    cfg = load(["domain=incremental"])
    trees = [IncrementalTree(5, 6, s, decay=0.9, correlation=0.5) for s in range(8)]
    from searchlab.algorithms.calibration import fit_probcut, sample_states
    fit_tree = IncrementalTree(5, 8, 99, decay=0.9, correlation=0.5)
    pc = fit_probcut(fit_tree, sample_states(fit_tree, 2, 20, 1), 1, 3)
    ref = sum(search(t, "alphabeta", "static", engine="reference").nodes for t in trees)
    for tech in cfg.techniques:
        if tech.family in ("sound", "quiescence"):    # quiescence adds nodes by design
            continue
        pr = st.build_pruning(tech, 1.0, pc)
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
    techs = [TechniqueConf("alpha-beta (sound)", "sound"),
             TechniqueConf("null R=1", "null_move", null_move=NullMoveConf(1))]
    pos = Position("zugzwang", "zugzwang", "z0", 0)
    pos.game = lambda: Zugzwang()          # noqa: E731 -- a constructed domain
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
    cfg = load(["tradeoff_size=tiny", "n_jobs=2", "progress=false"])
    two = st.run_study(cfg, tmp_path / "two", progress=False, report=False)
    for which in ("table", "matches"):
        a = st.load_table(tiny_run, which)
        b = st.load_table(two, which)
        drop = [c for c in (*st.NONDETERMINISTIC, "wall_seconds") if c in a.columns]
        pd.testing.assert_frame_equal(a.drop(columns=drop), b.drop(columns=drop))


def test_claim_counts_feed_the_000n_verdict(tiny_run):
    import pandas as pd

    from searchlab.claims.unsound import unsound_pruning_worth_it
    from searchlab.claims.verdict import Context
    from searchlab.tradeoff.report import claim_counts
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
    assert len(rows) == len(st.load_table(tiny_run)) > 1
    assert {"technique", "node_ratio", "decision_error"} <= set(rows.columns)
    matches = load(str(tiny_run / "matches" / "*.parquet"))
    assert len(matches) == len(st.load_table(tiny_run, "matches")) and "elo" in matches.columns
    with pytest.raises(UnknownTableError, match="different kinds"):
        load([tiny_run, *sorted((tiny_run / "matches").glob("*.parquet"))])
