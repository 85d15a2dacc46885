"""OpenSpiel's games in config-driven sweeps: game=openspiel game.name=NAME, positions by
seeded random play, and the games the two-player engine cannot search refused in one line."""

from __future__ import annotations

import pytest

from searchlab import load
from searchlab.algorithms.search_api import search
from searchlab.experiment import api
from searchlab.experiment.games import make_game, select_positions
from searchlab.experiment.schema import ConfigError
from searchlab.games import openspiel

pytestmark = pytest.mark.skipif(not openspiel.available(), reason="needs the openspiel extra")

SMALL = ["+game.params.rows=5", "+game.params.columns=5", "sweep.d=[1,2]", "sweep.instances=2",
         "sweep.ordering=[natural,random]", "runner.n_jobs=1", "runner.progress=false"]


@pytest.mark.parametrize("name, why", [
    ("kuhn_poker", "kuhn_poker is not a game of perfect information"),
    ("pig", "OpenSpiel's pig cannot be searched by the two-player engine: it has chance nodes"),
    ("goofspiel", "goofspiel is not a sequential game"),
    ("no_such_game", "'no_such_game' is not an OpenSpiel game"),
])
def test_games_the_engine_cannot_search_are_refused(name, why):
    with pytest.raises(ConfigError) as e:
        api.validate(api.compose(None, ["game=openspiel", f"game.name={name}"]))
    msg = str(e.value)
    assert msg.startswith("game._target_: ") and why in msg and "\n" not in msg


def test_positions_are_seeded_random_play():
    study = api.validate(api.compose(None, ["game=openspiel", "game.name=breakthrough", *SMALL]))
    (spec,) = study.games
    assert spec.name == "breakthrough" and spec.ply == 4 and spec.target.endswith("config_game")
    a = [make_game(spec, p) for p in select_positions(spec, study.seed, 2)]
    b = [make_game(spec, p) for p in select_positions(spec, study.seed, 2)]
    texts = [g.position_text(g.initial_state()) for g in a]
    assert texts == [g.position_text(g.initial_state()) for g in b]     # seeded: the same
    assert texts[0] != texts[1]                                          # per position
    assert all(len(g.initial_state().history()) == 4 for g in a)        # after ply=4 moves


def test_a_breakthrough_sweep_runs_and_counts_what_search_counts(tmp_path):
    run = api.run_study("", ["game=openspiel", "game.name=breakthrough", *SMALL],
                        output_dir=tmp_path / "run", progress=False)
    df = load(str(run))
    assert len(df) == 8 and (df["status"] == "ok").all() and set(df["game"]) == {"breakthrough"}
    study = api.validate(api.compose(None, ["game=openspiel", "game.name=breakthrough", *SMALL]))
    (spec,) = study.games
    pos = select_positions(spec, study.seed, 2)[1]
    row = df[(df["position"] == pos.id) & (df["d"] == 2) & (df["ordering"] == "natural")].iloc[0]
    ref = search(make_game(spec, pos), "alphabeta", "natural", depth=2, engine="reference")
    assert (row["nodes"], row["value"]) == (ref.nodes, ref.value)
