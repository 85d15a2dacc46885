"""The trade-off study as a preset of the engine: composition, sizes, one line per user error."""

from __future__ import annotations

import pytest

from searchlab import cli as cli_mod
from searchlab.experiment import api
from searchlab.experiment.schema import ConfigError
from searchlab.studies.tradeoff.tradeoff_config import from_engine, selected_domains

from .experiment_helpers import cli


def load(preset: str = "unsound_tradeoff", overrides: list[str] = ()):
    return from_engine(api.compose(preset, list(overrides)))


def test_the_preset_is_the_unsound_tradeoff_study():
    cfg = load()
    assert cfg.study == "unsound_tradeoff" and cfg.size == "full" and cfg.seed == 20261129
    fams = {t.family for t in cfg.techniques}
    assert fams == {"sound", "null_move", "lmr", "futility", "razoring", "beam", "probcut",
                    "quiescence"}
    assert selected_domains(cfg) == ["incremental", "connect4", "othello", "chess"]
    assert cfg.domains.connect4.match.enabled and cfg.domains.othello.match.enabled
    assert api.kind_of(api.compose(None, [])).name == "sweep"        # a sweep is not the study


def test_domain_selection_and_size_presets():
    assert selected_domains(load(overrides=["tradeoff.domain=incremental"])) == ["incremental"]
    assert selected_domains(load(overrides=["tradeoff.domain=[connect4,chess]"])) == \
        ["connect4", "chess"]
    tiny = load("unsound_tradeoff_tiny")
    assert tiny.size == "tiny" and tiny.domains.incremental.positions == 3
    small = load("unsound_tradeoff_small", ["runner.n_jobs=1"])
    assert small.size == "small" and small.n_jobs == 1 and small.domains.chess.positions == 6
    assert len(small.techniques) == len(load().techniques)


def test_match_presets_are_game_pairs_at_size():
    for preset, domains in (("unsound_matches", ("connect4", "othello")),
                            ("unsound_matches_1e5", ("connect4", "othello")),
                            ("chess_matches", ("chess",))):
        cfg = load(preset)
        assert cfg.tasks == "matches" and selected_domains(cfg) == list(domains)
        for d in domains:
            m = getattr(cfg.domains, d).match
            assert m.enabled and m.openings >= 200 and m.techniques      # >= 400 games each
            assert m.budget == (100_000 if preset.endswith("1e5") else 10_000)
    chess = load("chess_matches").domains.chess.match
    assert chess.quiescence and chess.balance_margin and set(chess.techniques) == {"null R=2", "LMR after 3"}


@pytest.mark.parametrize("override,match", [
    ("tradeoff.domain=go", "tradeoff.domain: unknown domain 'go'"),
    ("runner.n_jobs=0", "n_jobs must be"),
    ("tradeoff.domains.connect4.depth=0", r"tradeoff.domains.connect4.depth must be an integer in \[1, "),
    ("tradeoff.domains.incremental.correlations=[1.5]", "correlations must lie in"),
    ("tradeoff.domains.connect4.benchmark=nope.txt", "no such file"),
    ("tradeoff.domains.chess.probcut_fit.deep=1", "probcut_fit.deep must be"),
    ("+tradeoff.domains.incremental.match={enabled: true}", "connect4, othello and chess only"),
    ("tradeoff.tasks=some", "tradeoff.tasks must be one of all, positions, matches, tuning"),
    ("+tradeoff.domains.connect4.match.pairs_per_task=-1", r"match.pairs_per_task must be an integer in \[0, "),
    ("+tradeoff.domains.connect4.match.balance_margin=0", "match.balance_margin must be a number > 0"),
    ("tradeoff.domains.connect4.match.techniques=[warp]", "'warp' is not a technique label"),
    ("+tradeoff.foo=1", "tradeoff.foo"),
    ("tradeoff.techniques=[]", "techniques: the list is empty"),
    ("tradeoff.techniques.1.family=beam", "family 'beam' needs exactly"),
    ("tradeoff.domains.othello.ply=99", "tradeoff.domains.othello.ply must be <= 50"),
    ("tradeoff.domains.connect4.match.play=fresh",
     "tradeoff.domains.connect4.match.play must be one of engine, fresh-per-depth; got 'fresh'"),
    ("+tradeoff.domains.othello.match.persist_across_moves=maybe",
     "tradeoff.domains.othello.match.persist_across_moves"),
    ("+tradeoff.domains.othello.null_move_guard=true",
     "tradeoff.domains.othello.null_move_guard must be one of null .the game's own., false in "
     "othello; got True"),
    ("+tradeoff.domains.chess.null_move_guard=false",
     "tradeoff.domains.chess.null_move_guard must be one of null .the game's own., true in chess"),
])
def test_bad_parameters_are_one_line_before_any_work(capsys, override, match):
    with pytest.raises(ConfigError, match=match) as e:
        load(overrides=[override])
    assert "\n" not in str(e.value)
    with pytest.raises(SystemExit) as ex:                  # the CLI's precheck: one line, rc 2
        cli_mod.precheck(["experiment=unsound_tradeoff", override])
    assert ex.value.code == 2
    err = [ln for ln in capsys.readouterr().err.splitlines() if ln.strip()]
    assert len(err) == 1 and err[0].startswith("searchlab: error: ") and match.split(" ")[0] in err[0]


def test_play_mode_defaults_presets_and_config_hash():
    """match.play defaults to engine play persisting across moves; the presets state theirs;
    both keys (and the null-move guard) change the config hash."""
    from searchlab.studies.tradeoff.tradeoff_config import MatchConf
    from searchlab.studies.tradeoff.tradeoff_tasks import config_hash

    assert (MatchConf().play, MatchConf().persist_across_moves) == ("engine", True)
    base = load()
    for d in ("connect4", "othello"):            # the study's own small matches: older play
        assert getattr(base.domains, d).match.play == "fresh-per-depth"
    assert base.domains.connect4.null_move_guard is False
    for preset, domains in (("unsound_matches", ("connect4", "othello")),
                            ("unsound_matches_small", ("connect4", "othello")),
                            ("unsound_matches_1e5", ("connect4", "othello")),
                            ("chess_matches", ("chess",)), ("chess_matches_small", ("chess",))):
        cfg = load(preset)
        for d in domains:
            m = getattr(cfg.domains, d).match
            assert (m.play, m.persist_across_moves) == ("engine", True), (preset, d)
        if "connect4" in domains:
            assert cfg.domains.connect4.null_move_guard is True
    h = config_hash(load("unsound_matches"))
    for o in ("tradeoff.domains.connect4.match.play=fresh-per-depth",
              "tradeoff.domains.connect4.match.persist_across_moves=false",
              "tradeoff.domains.connect4.null_move_guard=false"):
        assert config_hash(load("unsound_matches", [o])) != h, o


def test_cli_one_line_error_and_no_run_directory(tmp_path):
    rc, out, err = cli("experiment=unsound_tradeoff", "tradeoff.domains.othello.ply=99", cwd=tmp_path)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert "tradeoff.domains.othello.ply must be <= 50" in err
    assert not (tmp_path / "results").exists()


def test_a_matches_only_plan_goes_chunk_by_chunk_across_the_pairings():
    from searchlab.studies.tradeoff.tradeoff_measure import opening_text
    from searchlab.studies.tradeoff.tradeoff_tasks import plan_tradeoff_tasks as plan

    tasks = plan(load("unsound_matches_small"), {})
    assert {t.kind for t in tasks} == {"match"} and len(tasks) == 11 * 2     # 2 chunks of 2 pairs
    firsts = [t.args[5] for t in tasks]
    assert firsts == [0] * 11 + [2] * 11                 # every pairing's first chunk first
    assert len({t.task_id for t in tasks}) == len(tasks)
    ops = {t.args[0]: [opening_text(t.args[0], o.moves) for o in t.args[4]]
           for t in tasks if t.args[5] == 0}
    assert len(ops["connect4"]) == 2 and all(len(o) == 4 and set(o) <= set("1234567")
                                             for o in ops["connect4"])      # Pons' columns 1-7
    assert all(len(o.split()) == 6 for o in ops["othello"])
    positions = plan(load("unsound_tradeoff_tiny", ["tradeoff.tasks=positions"]), {})
    assert {t.kind for t in positions} == {"position"}
