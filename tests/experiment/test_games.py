"""Game studies and dynamic ordering policies: presets, the new columns, one-line errors,
determinism, and the policies report section (tiny sizes: a few seconds in all)."""

from __future__ import annotations

import re

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from searchlab import cli as cli_mod
from searchlab.experiment import api, grid, store
from searchlab.experiment.api import run_study
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.store import load
from searchlab.experiment.validation import validate

from .experiment_helpers import det_frame

QUIET = ["runner.progress=false", "runner.report=false"]
NEW_PRESETS = ("ordering_incremental", "ordering_connect4", "ordering_games", "chess_suites")
#: Tiny overrides that make each new preset run in about a second.
TINY = {
    "ordering_incremental": ["sweep.b=[2]", "sweep.d=2..3", "sweep.instances=1",
                             "sweep.decay=[0.5]", "sweep.correlation=[0,1]"],
    "ordering_connect4": ["game.sample=2", "sweep.d=1..2"],
    "ordering_games": ["sweep.games=[{name: othello, ply: 20}, {name: chess, positions: bk, "
                       "sample: 1, d: 1}]", "sweep.instances=1", "sweep.d=1..2"],
    "chess_suites": ["sweep.games=[{name: chess, positions: bk, sample: 2}]", "sweep.d=1..2"],
}
NEW_COLUMNS = ["fail_highs", "first_move_fail_highs", "fail_high_first_rate", "re_searches",
               "tt_probes", "tt_hits", "tt_cutoffs", "tt_hit_rate", "iterations",
               "last_iteration_nodes", "q_nodes"]


@pytest.fixture(scope="module")
def tiny_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("presets")
    return {name: run_study(name, TINY[name] + QUIET + ["runner.n_jobs=1"],
                            output_dir=base / name, progress=False)
            for name in NEW_PRESETS}


@pytest.mark.parametrize("name", NEW_PRESETS)
def test_new_presets_compose_validate_and_run_tiny(name, tiny_runs):
    study = validate(api.compose(name))
    p = grid.plan(study)
    grid.check_budget(p, study.runner.max_nodes)
    assert p.tasks and study.name == name
    df = load(tiny_runs[name])
    assert len(df) and (df.status == "ok").all(), df[df.status != "ok"][["error"]].head()
    assert (df.experiment == name).all()


def test_incremental_knobs_are_swept(tiny_runs):
    df = load(tiny_runs["ordering_incremental"])
    assert sorted(df.correlation.unique()) == [0.0, 1.0] and set(df.decay) == {0.5}
    assert set(df.ordering) == set(validate(api.compose("ordering_incremental")).orderings)
    # paired: every policy searches the same tree, hence finds the same value
    assert (df.groupby(["correlation", "d", "instance"]).value.nunique() == 1).all()


def test_game_study_writes_the_new_columns(tiny_runs):
    df = load(tiny_runs["ordering_connect4"])
    for c in NEW_COLUMNS + ["game", "positions", "position", "branching", "best_move"]:
        assert c in df.columns, c
    assert (df.game == "connect4").all() and df.tree.isna().all() and df.b.isna().all()
    assert (df.positions == "Test_L1_R1").all() and df.position.nunique() == 2
    assert df.best_move.map(type).eq(str).all()
    assert (df.fail_highs >= df.first_move_fail_highs).all()
    assert (df.branching > 1).all()
    assert all(sum(it) == n for it, n in zip(df.iterations, df.nodes))
    assert all(it[-1] == last for it, last in zip(df.iterations, df.last_iteration_nodes))
    idr = df[df.ordering.str.contains("id")]
    assert all(len(it) == d for it, d in zip(idr.iterations, idr.d))
    tt = df[df.ordering.str.contains("tt") & (df.d >= 2)]      # depth 1: only leaves below
    assert (tt.tt_probes > 0).all() and tt.tt_hit_rate.between(0, 1).all()
    nat = df[df.ordering == "natural"]
    assert (nat.tt_probes == 0).all() and nat.tt_hit_rate.isna().all()
    # every ordering returns the value of plain alpha-beta
    assert (df.groupby(["position", "d"]).value.nunique() == 1).all()


def test_several_games_and_chess_solutions(tiny_runs):
    df = load(tiny_runs["ordering_games"])
    assert set(df.game) == {"othello", "chess"}
    assert set(df[df.game == "othello"].d) == {1, 2} and set(df[df.game == "chess"].d) == {1}
    assert "corners" not in set(df[df.game == "chess"].ordering)    # game orders per game
    assert "captures" not in set(df[df.game == "othello"].ordering)
    assert df[df.game == "othello"].best_move.str.fullmatch(r"[a-h][1-8]|pass").all()
    assert df[df.game == "chess"].best_move.str.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?").all()
    ch = load(tiny_runs["chess_suites"])
    assert ch.solved.notna().all() and ch.position.str.startswith("BK.").all()
    from searchlab.data import path
    from searchlab.games.epd import load_epd

    suite = {p.id: p for p in load_epd(path("chess", "bk.epd"))}
    assert all(suite[p].is_solution(m) == s for p, m, s in zip(ch.position, ch.best_move, ch.solved))


def test_policies_section_has_no_empty_cells(tiny_runs, tmp_path):
    from searchlab.studies.sweep.policies import policies_section

    for name in ("ordering_connect4", "chess_suites"):
        md = policies_section(load(tiny_runs[name]), tmp_path / name / "figures")
        assert md.startswith("## Move-ordering policies")
        rows = [ln for ln in md.splitlines() if ln.startswith("|")]
        assert len(rows) > 6
        for ln in rows:
            cells = [c.strip() for c in ln.strip().strip("|").split("|")]
            assert all(cells), ln
            assert not any(c.lower() in ("nan", "none", "<na>") for c in cells), ln
        assert "nan" not in md.lower().replace("n/a", "")
        for img in re.findall(r"\]\(([^)]+)\)", md):
            assert (tmp_path / name / img).exists(), img
    assert "solved share" in md


def test_same_table_with_one_and_two_workers_on_a_game_study(tmp_path):
    ov = ["game=othello", "game.ply=12", "sweep.instances=2", "sweep.d=1..3",
          "sweep.ordering=[natural,corners,id+tt+killer+history]", *QUIET]
    a = det_frame(load(run_study("quick", ov + ["runner.n_jobs=1"], output_dir=tmp_path / "a",
                                 progress=False)))
    b = det_frame(load(run_study("quick", ov + ["runner.n_jobs=2", "runner.batch_nodes=50"],
                                 output_dir=tmp_path / "b", progress=False)))
    pd.testing.assert_frame_equal(a, b)
    assert a.seed.nunique() == 2 and (a.groupby("position").seed.nunique() == 1).all()


def test_positions_sample_is_seeded_and_a_prefix():
    s3 = validate(api.compose(None, ["game=connect4", "game.sample=3"]))
    s5 = validate(api.compose(None, ["game=connect4", "game.sample=5"]))
    s5b = validate(api.compose(None, ["game=connect4", "game.sample=5", "seed=1"]))
    p3, p5 = s3.positions[s3.game], s5.positions[s5.game]
    assert [p.id for p in p5[:3]] == [p.id for p in p3]
    assert [p.id for p in s5b.positions[s5b.game]] != [p.id for p in p5]
    every = validate(api.compose(None, ["game=connect4", "game.sample=all"]))
    assert len(every.positions[every.game]) == 1000


def _precheck_error(capsys, *argv: str) -> str:
    with pytest.raises(SystemExit) as ex:
        cli_mod.precheck(list(argv))
    assert ex.value.code == 2
    lines = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(lines) == 1, lines                  # one clear line, no traceback
    return lines[0]


@pytest.mark.parametrize("argv, expected", [
    (["game=connect4", "game.positions=Test_L9_R1"], "game.positions: unknown position source"),
    (["game=chess", "game.positions=wac2"], "allowed: wac, bk"),
    (["game=connect4", "sweep.ordering=[corners]"], "ordering component 'corners' unknown"),
    (["game=othello", "sweep.ordering=[tt+killer+bogus]"], "'bogus' unknown"),
    (["sweep.ordering=[centre]"], "ordering component 'centre' unknown"),
    (["sweep.ordering=[static+natural]"], "base orders"),
    (["game=othello", "game.ply=500"], "game.ply must be an integer in 0..61"),
    (["game=othello", "game.ply=62"], "game.ply must be an integer in 0..61"),
    (["game=chess", "game.sample=0"], "game.sample must be an integer >= 1"),
    (["game=othello", "game.sample=3"], "game.sample draws positions from a file"),
    (["game=othello", "tree=incremental"], "a study searches a tree or a game, not both"),
    (["~tree"], "a study searches a tree or a game: none is chosen"),
    (["game=go"], "unknown option 'go' for config group 'game'"),
    (["game=connect4", "search.depth=3"], "search.depth is for trees"),
    (["search.aspiration=1.0", "sweep.ordering=[natural]"], "every ordering needs 'id'"),
    (["search.tt_size=1000"], "search.tt_size must be a power of two"),
    (["game=chess", "sweep.d=1..5", "sweep.ordering=[perfect]", "sweep.d_budget=null"],
     "sweep.d_by_ordering"),
    (["tree=iid", "sweep.decay=[0.5]"], "sweep.decay sweeps the incremental tree's decay"),
    (["+sweep.d_by_ordering={statik: 1..3}"], "'statik' is not an ordering policy"),
])
def test_bad_game_and_ordering_input_is_one_line(capsys, argv, expected):
    line = _precheck_error(capsys, *argv)
    assert line.startswith("searchlab: error: ") and expected in line, line


def test_algorithms_aspiration_and_tt_size_are_sweepable(tmp_path):
    out = run_study("quick", ["game=tictactoe", "sweep.d=[4]", "sweep.algorithm=[alphabeta,pvs,mtdf]",
                              "sweep.ordering=[id+tt+killer+history+static]",
                              "search.aspiration=0.5", "search.tt_size=1024", "runner.n_jobs=1",
                              *QUIET], output_dir=tmp_path / "t", progress=False)
    df = load(out)
    assert set(df.algorithm) == {"alphabeta", "pvs", "mtdf"} and (df.status == "ok").all()
    assert df.value.nunique() == 1
    with pytest.raises(ConfigError):
        validate(api.compose(None, ["search.tt_size=0"]))


def test_parts_written_before_the_new_columns_are_still_read(tmp_path):
    """A part of an older run (int best_move, no game / counter columns) is conformed."""
    run = tmp_path / "old"
    (run / "table").mkdir(parents=True)
    old = pa.table({c: pa.array([None], type=store.SCHEMA.field(c).type)
                    for c in store.COLUMNS if c not in NEW_COLUMNS + ["game", "positions",
                                                                      "position", "branching",
                                                                      "solved", "best_move"]})
    old = old.append_column("best_move", pa.array([3], type=pa.int64()))
    pq.write_table(old, run / "table" / "part-00000.parquet")
    t, msgs = store.recover(run, quarantine=False)
    assert not msgs and t.num_rows == 1
    assert t.column("best_move").to_pylist() == ["3"] and t.schema == store.SCHEMA
