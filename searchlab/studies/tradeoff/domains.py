"""The study's domains: which positions, which game object searches them, the exact truth.

- incremental: IncrementalTree(b, d, seed, decay, correlation), one variant per correlation;
  searched to its end (depth = d), so the sound search's value is the game-theoretic one.
- connect4: lines of one of Pons' benchmark files (seeded draw), with their exact scores;
  ``solve`` scores every root move for the game-theoretic check.
- othello: ``random_position(ply, seed)`` positions.
- chess: the EPD suite (Bratko-Kopec), ``is_solution`` judges the move chosen.

Connect Four and Othello have no null move of their own. Connect Four's goes through the game's
zugzwang guard by default (games/null_move.py ``connect_four_with_null_move``: no null move with
fewer than 3 safe moves); with the domain's ``null_move_guard: false`` it is ``WithNullMove``'s
unguarded pass (the side to move passes in every position: zugzwang decides many Connect Four
positions, so this measures exactly the case the technique is known to fail in). Othello's is
always the unguarded pass (no cheap test bounds its zugzwang: games/null_move.py). Chess has
its own null move and guard (not in check, not with king and pawns only).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from searchlab.algorithms.search_api import search
from searchlab.algorithms.calibration import sample_states
from searchlab.contracts.compiled_stubs import null_move_always
from searchlab.games import connect4_compiled as c4_compiled, othello_compiled
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour, ConnectFourState, load_benchmark
from searchlab.games.epd import load_epd
from searchlab.games.null_move import connect_four_with_null_move
from searchlab.games.othello import Othello, OthelloState, random_position
from searchlab.games.registry import registry as game_registry
from searchlab.contracts.position import FromState
from searchlab.experiment.seeds import tradeoff_seed as seed_for
from searchlab.studies.tradeoff.tradeoff_config import DomainConf, data_path
from searchlab.trees.incremental import IncrementalTree


class WithNullMove:
    """``game`` plus ``null_move(state)`` (the side to move passes); everything else delegated.

    ``compiled_primitives`` hands the compiled engine the game's primitives with the same pass
    (``_COMPILED_PASS``) and a guard that always allows it, so that ``engine="auto"`` searches
    with null move on the compiled engine node for node as the reference does (without it the
    game's own primitives would refuse every null move).
    """

    def __init__(self, game: Any, null) -> None:
        self._game, self._null = game, null
        self.capabilities = dataclasses.replace(game.capabilities, null_move=True)

    def null_move(self, state: Any) -> Any:
        return self._null(state)

    def null_move_allowed(self, state: Any) -> bool:
        return True

    def compiled_primitives(self):
        cg = self._game.compiled_primitives()
        prims = cg.prims._replace(null_move=_COMPILED_PASS[self._null],
                                  null_move_allowed=null_move_always)
        return dataclasses.replace(cg, prims=prims)

    def __getattr__(self, item: str) -> Any:
        return getattr(self._game, item)

    def __getstate__(self):
        return (self._game, self._null)

    def __setstate__(self, st):
        self._game, self._null = st
        self.capabilities = dataclasses.replace(self._game.capabilities, null_move=True)


def _c4_pass(state):
    return ConnectFourState(state.current ^ state.mask, state.mask, state.plies + 1)


def _othello_pass(state):
    return OthelloState(state.black, state.white, not state.black_to_move)


#: the compiled twin of each Python pass (games/*_compiled.py ``pass_turn``)
_COMPILED_PASS = {_c4_pass: c4_compiled.pass_turn, _othello_pass: othello_compiled.pass_turn}


def connect4_game(moves: str = "", guard: bool = False):
    """Connect Four from ``moves`` with a null move: through the game's zugzwang guard
    (games/null_move.py) with ``guard``, else the unguarded pass (every position)."""
    if guard:
        return connect_four_with_null_move(moves, guard=True)
    return WithNullMove(ConnectFour(moves), _c4_pass)


def othello_game(root=""):
    return WithNullMove(Othello(root), _othello_pass)


@dataclass
class Position:
    """One position of a domain: identity, how to build its game, domain-specific truth."""

    domain: str
    variant: str            # incremental: "corr=0.5"; else the domain name
    pid: str                # position id (tree seed, benchmark line, EPD id)
    seed: int
    spec: dict = field(default_factory=dict)

    def game(self, null_move_guard: bool = False):
        """The position's game; Connect Four's null move guarded with ``null_move_guard``
        (the other domains ignore it: their null move is fixed, the module docstring)."""
        s = self.spec
        if self.domain == "incremental":
            return IncrementalTree(s["b"], s["d"], s["tree_seed"], decay=s["decay"],
                                   correlation=s["correlation"])
        if self.domain == "connect4":
            return connect4_game(s["moves"], null_move_guard)
        if self.domain == "othello":
            return othello_game(OthelloState(*s["state"]))
        if self.domain == "chess":
            return Chess(s["fen"])
        raise ValueError(self.domain)


def variants(domain: str, d: DomainConf) -> list[str]:
    if domain == "incremental":
        return [f"corr={c:g}" for c in d.correlations]
    return [domain]


def positions(domain: str, d: DomainConf, study_seed: int) -> list[Position]:
    """The domain's positions, a function of (config, study seed) only."""
    out = []
    if domain == "incremental":
        for c in d.correlations:
            v = f"corr={c:g}"
            for i in range(d.positions):
                s = seed_for(study_seed, domain, v, i)
                out.append(Position(domain, v, f"tree{i}", s, dict(
                    b=d.b, d=d.depth, decay=d.decay, correlation=float(c), tree_seed=s)))
    elif domain == "connect4":
        lines = load_benchmark(data_path(d.benchmark))
        rng = np.random.default_rng(seed_for(study_seed, domain, "draw"))
        idx = sorted(rng.choice(len(lines), size=min(d.positions, len(lines)), replace=False))
        for i in idx:
            moves, score = lines[int(i)]
            out.append(Position(domain, domain, f"line{int(i) + 1}",
                                seed_for(study_seed, domain, int(i)),
                                dict(moves=moves, score=int(score))))
    elif domain == "othello":
        for i in range(d.positions):
            s = seed_for(study_seed, domain, i)
            st = random_position(d.ply, s)
            out.append(Position(domain, domain, f"rand{i}", s,
                                dict(state=(st.black, st.white, st.black_to_move))))
    elif domain == "chess":
        for e in load_epd(data_path(d.epd))[:d.positions]:
            out.append(Position(domain, domain, e.id, seed_for(study_seed, domain, e.id),
                                dict(fen=e.fen, bm_uci=list(e.bm_uci), am_uci=list(e.am_uci),
                                     bm=list(e.bm))))
    return out


def fit_game_and_states(domain: str, variant: str, d: DomainConf, study_seed: int):
    """(game, states) on which ProbCut's model is fitted: seeded sample positions of the same
    domain (never the study's test positions), non-terminal ones."""
    s = seed_for(study_seed, "probcut-fit", domain, variant)
    f = d.probcut_fit
    if domain == "incremental":
        corr = float(variant.split("=")[1])
        depth = max(d.depth, f.ply + f.deep)
        game = IncrementalTree(d.b, depth, s, decay=d.decay, correlation=corr)
    elif domain == "connect4":
        game = connect4_game("")
    elif domain == "othello":
        game = othello_game("")
    else:
        game = Chess()
    states = [x for x in sample_states(game, f.ply, 4 * f.positions, s)
              if not game.is_terminal(x)]
    bound = PROVEN_BOUND.get(domain)
    if bound is not None:       # drop proven wins/losses: they are not what ProbCut predicts
        order = "static"
        kept = []
        for x in states:
            if len(kept) == f.positions:
                break
            if abs(search(FromState(game, x), "alphabeta", order, depth=f.deep,
                          engine="reference").value) < bound:
                kept.append(x)
        states = kept
    return game, states[:f.positions]


#: |value| at or above which a value is a proven result, not a heuristic estimate (the games'
#: own GameEntry.proven_bound)
PROVEN_BOUND = {n: e.proven_bound for n, e in game_registry().items() if e.proven_bound is not None}
