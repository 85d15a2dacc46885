"""A match runner: configuration A against B at an equal budget per move.

How a player searches a move (``Player.play``):

- ``"engine"`` (the default): as a game engine does, one iterative-deepening search per move
  in an engine session (searchlab.algorithms.engine_session): its transposition table,
  killers and history persist across the iterations and, with ``Player.persist`` (default),
  across the player's moves of one game (a new game starts empty); the previous iteration's
  best move is searched first. The ordering gets a table, killers and history where it names
  no dynamic component (``engine_ordering``). Budget per move (``budget_mode``): ``"nodes"``
  (``budget`` nodes, quiescence included; the iteration that runs out is abandoned) or
  ``"cpu"`` (``cpu_seconds`` of thread CPU time; ``budget`` is then a node cap).
- ``"fresh-per-depth"``: the older runner: depth 1, 2, ... each searched as a fresh search
  (nothing carried from one depth or move to the next) until the next depth would exceed the
  budget. It handicaps null move and late move reductions, which lean on the table and the
  move order; kept to compare with and to reproduce earlier tables.

An MCTS player (``algorithm="mcts"``, searchlab/algorithms/mcts.py) searches each move with a
fresh tree (nothing kept from move to move) under its budget: ``budget`` nodes (counted as
alpha-beta's, docs/mcts.md) or, with ``budget_mode="cpu"``, ``cpu_seconds`` of thread CPU time
(``budget`` then caps the nodes); its options are ``Player.mcts`` and its random stream per
move is derived from ``Player.seed``, the game pair, the colour and the ply (``mcts_seed``), so
a match replays exactly under a node budget. Its ``depth`` is the deepest ply its simulations
reached; it takes no part in the repetition rule (it reports no minimax value).

Either way the move of the deepest completed depth is played, so under a node budget every
player spends at most ``budget`` nodes per move, and a cheaper configuration reaches deeper.
Openings are seeded random positions; every opening is played twice with colours swapped (a *game pair*), so neither side profits from a lucky opening, and
the pair is the unit of the pentanomial analysis (searchlab.analysis.stats).

Searches run with ``engine="auto"``: the compiled engine wherever the game has primitives for
the player's configuration (the reference engine otherwise; both give the same move, node for
node). A position that occurs for the third time in a game ends it as a draw (threefold
repetition, counted by the game loop); a game still running after ``max_plies`` plies is
adjudicated a draw. A game whose states carry their history relative to a search root (chess:
``search_root``) has every state re-rooted as it is played, so its own terminal test sees a
threefold repetition, not a twofold one since the opening, as the game's end.

Repetition at the root (``avoid_repetition``): a search sees the game's history only where
the game's states carry it (chess), so a player that is ahead could walk into a repetition draw. So when the chosen move
would make a position's third occurrence and the player's own search scores its position
above 0 (better than a draw, from its side), it plays instead the best of its other moves,
each child searched to one ply less than the depth reached (at least 1; fresh searches in
either play mode); those extra nodes are counted in ``MoveChoice.nodes``. Both players follow
the rule, so the match stays fair; it cannot fire in games without repetitions (Connect Four, Othello).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Hashable

import numpy as np
from tqdm import tqdm

from searchlab.algorithms.mcts import MCTSOptions, validate as validate_mcts
from searchlab.algorithms.search_api import search
from searchlab.algorithms.engine_session import EngineSession, SessionConfig
from searchlab.algorithms.pruning import Pruning
from searchlab.errors import InvalidParameterError
from searchlab.games.position import FromState, rooted
from searchlab.hashing import GOLDEN, MASK64, mix64


PLAY_MODES = ("engine", "fresh-per-depth")


@dataclass(frozen=True)
class Player:
    """A search configuration: name, algorithm, ordering, pruning, node budget per move, and
    how it plays (the module docstring): ``play`` "engine" or "fresh-per-depth";
    ``budget_mode`` "nodes" or "cpu" (engine play only) with ``cpu_seconds``; ``persist``
    (engine play: table, killers and history kept from move to move)."""

    name: str
    algorithm: str = "alphabeta"
    ordering: str = "natural"
    pruning: Pruning | None = None
    budget: int = 10_000
    max_depth: int = 64
    play: str = "engine"
    budget_mode: str = "nodes"
    cpu_seconds: float | None = None
    persist: bool = True
    mcts: MCTSOptions | None = None
    seed: int = 0

    def session_config(self) -> SessionConfig:
        """The engine session's configuration of this player."""
        return SessionConfig(self.algorithm, self.ordering, self.pruning, self.budget_mode,
                             self.budget, self.cpu_seconds, self.max_depth, self.persist)

    def describe(self) -> str:
        """How it plays, for tables and reports, e.g. "engine, 10000 nodes/move, persist"."""
        if self.algorithm == "mcts":
            return "mcts, " + (f"{self.budget} nodes/move" if self.budget_mode == "nodes" else
                               f"{self.cpu_seconds:g} s CPU/move (thread time), cap {self.budget} nodes")
        if self.play != "engine":
            return f"fresh-per-depth, {self.budget} nodes/move"
        budget = f"{self.budget} nodes/move" if self.budget_mode == "nodes" else \
            f"{self.cpu_seconds:g} s CPU/move (thread time), cap {self.budget} nodes"
        return f"engine, {budget}, {'persist' if self.persist else 'fresh table per move'}"


def check_player(game: Any, p: Player, engine: str = "auto") -> None:
    """Raise InvalidParameterError (naming the player and parameter) for a bad Player."""
    if p.play not in PLAY_MODES:
        raise InvalidParameterError(f"player {p.name}: play must be one of "
                                    f"{', '.join(PLAY_MODES)}; got {p.play!r}")
    if isinstance(p.budget, bool) or not isinstance(p.budget, int) or p.budget < 1:
        raise InvalidParameterError(f"player {p.name}: budget must be >= 1; got {p.budget}")
    if p.play == "fresh-per-depth" and (p.budget_mode != "nodes" or p.cpu_seconds is not None):
        raise InvalidParameterError(f"player {p.name}: budget_mode 'cpu' needs play='engine'")
    if p.algorithm == "mcts":
        if p.budget_mode not in ("nodes", "cpu") or (p.budget_mode == "cpu") != (p.cpu_seconds is not None):
            raise InvalidParameterError(f"player {p.name}: an MCTS player's budget_mode is 'nodes', or "
                                        f"'cpu' with cpu_seconds; got {p.budget_mode!r}, cpu_seconds={p.cpu_seconds!r}")
        try:
            validate_mcts(game, p.mcts or MCTSOptions(), p.budget,
                          p.cpu_seconds if p.budget_mode == "cpu" else None, p.seed)
        except InvalidParameterError as e:
            raise InvalidParameterError(f"player {p.name}: {e}") from None
        return
    if p.mcts is not None:
        raise InvalidParameterError(f"player {p.name}: mcts options need algorithm='mcts'")
    if p.play == "engine":
        EngineSession(game, p.session_config(), engine)       # validates the configuration


@dataclass(frozen=True)
class MoveChoice:
    """The move played, the depth its search completed, the nodes spent (quiescence incl.) and
    the search's value (from the game's MAX side; None where no depth fit the budget)."""

    move: Hashable
    depth: int
    nodes: int
    value: float | None = None


def choose_move(game: Any, state: Any, player: Player, engine: str = "auto") -> MoveChoice:
    """The move ``player`` plays in ``state`` (see the module docstring); the first legal
    move if not even depth 1 fits the budget. ``nodes`` counts quiescence nodes too."""
    view = FromState(game, state)
    used, best, reached, value = 0, None, 0, None
    for depth in range(1, player.max_depth + 1):
        if used >= player.budget:
            break
        r = search(view, player.algorithm, player.ordering, depth=depth, engine=engine,
                   max_nodes=player.budget - used, pruning=player.pruning)
        if r.status != "ok":
            break
        used += r.nodes + r.q_nodes          # quiescence nodes are work too
        best, reached, value = r.best_move, depth, float(r.value)
        if used >= player.budget or r.per_ply[-1] == 0:     # nothing left to deepen into
            break
    if best is None:
        best = list(game.legal_moves(state))[0]
    return MoveChoice(best, reached, used, value)


def mcts_seed(seed: int, pair: int, a_is_max: bool, ply: int) -> int:
    """The random stream of an MCTS player's move: a 63-bit mix of its seed, the game pair,
    the colour and the ply (explicit, so a match under node budgets replays exactly)."""
    z = mix64((seed + GOLDEN * (pair + 1)) & MASK64)
    z = mix64((z + GOLDEN * (2 * ply + int(a_is_max) + 1)) & MASK64)
    return z >> 1


def choose_mcts(game: Any, state: Any, player: Player, seed: int, engine: str = "auto") -> MoveChoice:
    """The move an MCTS player plays in ``state`` (the module docstring)."""
    cpu = player.budget_mode == "cpu"
    r = search(FromState(game, state), "mcts", engine=engine, max_nodes=player.budget,
               max_time=player.cpu_seconds if cpu else None, seed=seed,
               mcts_options=player.mcts or MCTSOptions())
    return MoveChoice(r.best_move, r.depth, r.nodes, None)


def avoid_repetition(game: Any, state: Any, choice: MoveChoice, player: Player,
                     third: set, engine: str = "auto") -> MoveChoice:
    """``choice``, or the best other move when ``choice`` would make a position's third
    occurrence (its key in ``third``) while the player's search scores the position above 0
    for the player (the module docstring); unchanged when every other move repeats too."""
    mover_is_max = game.max_to_move(state)
    if choice.value is None or game.hash_key(game.play(state, choice.move)) not in third:
        return choice
    if (choice.value if mover_is_max else -choice.value) <= 0:
        return choice
    depth, nodes, best, best_v = max(choice.depth - 1, 1), choice.nodes, None, None
    for m in game.legal_moves(state):
        child = game.play(state, m)
        if m == choice.move or game.hash_key(child) in third:
            continue
        if game.is_terminal(child):
            v = float(game.utility(child))
        else:
            r = search(FromState(game, child), player.algorithm, player.ordering, depth=depth,
                       engine=engine, pruning=player.pruning)
            nodes += r.nodes + r.q_nodes
            v = float(r.value)
        v = v if mover_is_max else -v
        if best_v is None or v > best_v:
            best, best_v = m, v
    if best is None:
        return choice
    return MoveChoice(best, choice.depth, nodes, best_v if mover_is_max else -best_v)


@dataclass
class GameRecord:
    """One game: ``opening`` its index (the pair id: the two games of an opening form a pair),
    ``a_is_max`` whether A played the game's MAX side (the side to move at the game's start),
    ``result`` for A (1 win, ½ draw, 0 loss), ``ending`` how it ended ("terminal",
    "repetition" or "max_plies"); per move of each player the depth reached and nodes spent;
    ``a_play``/``b_play`` how each played (``Player.describe``); ``a_cpu``/``b_cpu`` the
    thread CPU seconds each move of each player took (``time.thread_time``, the search and the
    repetition rule's extra searches: the nodes counted in ``a_nodes``/``b_nodes``)."""

    opening: int
    a_is_max: bool
    result: float          # for A: 1 win, 0.5 draw, 0 loss
    plies: int
    a_depths: list[int] = field(default_factory=list)
    b_depths: list[int] = field(default_factory=list)
    ending: str = "terminal"
    a_nodes: list[int] = field(default_factory=list)
    b_nodes: list[int] = field(default_factory=list)
    a_play: str = ""
    b_play: str = ""
    a_cpu: list[float] = field(default_factory=list)
    b_cpu: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class MatchResult:
    """Games, A's score and draws; ``pairs`` the per-opening game pairs (A's result with each
    colour), the unit the Elo analysis takes (searchlab.analysis.stats.pentanomial_from_pairs:
    the project's one Elo and interval); how each played (``Player.describe``: play mode,
    budget mode and budget) and the mean depth reached and nodes spent per move."""

    a: str
    b: str
    games: int
    a_wins: int
    draws: int
    b_wins: int
    score: float
    pairs: tuple[tuple[float, float], ...]
    a_mean_depth: float
    b_mean_depth: float
    records: tuple = ()
    a_play: str = ""
    b_play: str = ""
    a_mean_nodes: float = 0.0
    b_mean_nodes: float = 0.0


def play_game(game: Any, opening: Any, a: Player, b: Player, a_is_max: bool,
              max_plies: int = 400, engine: str = "auto", pair: int = 0) -> GameRecord:
    """One game from ``opening``, A playing MAX if ``a_is_max`` (the module docstring: draws by
    threefold repetition and at ``max_plies``); the record's ``opening`` is ``pair``."""
    state, plies = rooted(game, opening), 0
    rec = GameRecord(pair, a_is_max, 0.5, 0, a_play=a.describe(), b_play=b.describe())
    sessions = {side: EngineSession(game, p.session_config(), engine)
                if p.play == "engine" and p.algorithm != "mcts" else None
                for side, p in ((True, a), (False, b))}      # one per side
    seen = {game.hash_key(state): 1}
    ending = "max_plies"
    while plies < max_plies:
        if game.is_terminal(state):
            ending = "terminal"
            break
        a_moves = game.max_to_move(state) == a_is_max
        player = a if a_moves else b
        session = sessions[a_moves]
        c0 = time.thread_time()          # the move's CPU time: nodes per CPU second per side
        if player.algorithm == "mcts":
            choice = choose_mcts(game, state, player, mcts_seed(player.seed, pair, a_is_max, plies), engine)
        elif session is not None:
            ms = session.choose(state)
            choice = MoveChoice(ms.move, ms.depth, ms.nodes, ms.value)
        else:
            choice = choose_move(game, state, player, engine)
        third = {k for k, c in seen.items() if c >= 2}
        if third:
            choice = avoid_repetition(game, state, choice, player, third, engine)
        (rec.a_cpu if a_moves else rec.b_cpu).append(time.thread_time() - c0)
        (rec.a_depths if a_moves else rec.b_depths).append(choice.depth)
        (rec.a_nodes if a_moves else rec.b_nodes).append(choice.nodes)
        state = rooted(game, game.play(state, choice.move))
        plies += 1
        key = game.hash_key(state)
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= 3:
            ending = "repetition"
            break
    if ending == "max_plies" and game.is_terminal(state):
        ending = "terminal"
    u = game.utility(state) if ending == "terminal" else 0.0
    a_util = u if a_is_max else -u
    rec.result = 1.0 if a_util > 0 else 0.0 if a_util < 0 else 0.5
    rec.plies, rec.ending = plies, ending
    return rec


def play_pairs(game: Any, a: Player, b: Player, openings: list, first_pair: int = 0,
               max_plies: int = 400, engine: str = "auto", progress: bool = False
               ) -> list[GameRecord]:
    """Every opening played twice, A as MAX then A as MIN; pair ids ``first_pair + i``."""
    if not openings:
        raise InvalidParameterError("a match needs at least one opening")
    for p in (a, b):
        check_player(game, p, engine)
    it = [(first_pair + i, o, side) for i, o in enumerate(openings) for side in (True, False)]
    return [play_game(game, o, a, b, side, max_plies, engine, pair)
            for pair, o, side in tqdm(it, disable=not progress, desc=f"{a.name} vs {b.name}")]


def run_match(game: Any, a: Player, b: Player, openings: list,
              progress: bool = False, engine: str = "auto") -> MatchResult:
    """Play every opening twice (A as MAX, then A as MIN); return the MatchResult (its Elo:
    ``searchlab.analysis.stats.pentanomial_from_pairs(result.pairs)``)."""
    records = play_pairs(game, a, b, openings, engine=engine, progress=progress)
    pairs = tuple(tuple(r.result for r in records if r.opening == i) for i in range(len(openings)))
    score = float(np.mean([x for p in pairs for x in p]))
    results = [r.result for r in records]
    depth_a = [d for r in records for d in r.a_depths]
    depth_b = [d for r in records for d in r.b_depths]
    nodes_a = [n for r in records for n in r.a_nodes]
    nodes_b = [n for r in records for n in r.b_nodes]
    return MatchResult(
        a=a.name, b=b.name, games=len(records), a_wins=results.count(1.0),
        draws=results.count(0.5), b_wins=results.count(0.0), score=score, pairs=pairs,
        a_mean_depth=float(np.mean(depth_a)) if depth_a else 0.0,
        b_mean_depth=float(np.mean(depth_b)) if depth_b else 0.0, records=tuple(records),
        a_play=a.describe(), b_play=b.describe(),
        a_mean_nodes=float(np.mean(nodes_a)) if nodes_a else 0.0,
        b_mean_nodes=float(np.mean(nodes_b)) if nodes_b else 0.0)
