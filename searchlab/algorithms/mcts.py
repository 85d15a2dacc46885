"""Monte Carlo tree search (UCT), the readable reference; its compiled twin is mcts_compiled.

The algorithm (docs/mcts.md states it in full; the compiled twin repeats it step for step, so
that for the same seed both give the same visits, values, counts and move):

- *Selection*: from the root, while the current node is expanded, descend to the child with
  the highest score for the side to move: an unvisited child first (the first unvisited one in
  the children's order: first-play urgency is infinite), else
  ``q + c * sqrt(ln N / n) + w * h / (n + 1)``: ``q`` the child's mean reward for the side to
  move, ``N`` the parent's visits, ``n`` the child's, ``c`` the exploration constant, ``h`` the
  progressive-bias prior of the child (below) and ``w`` its weight. Ties: the first in order.
- *Expansion*: a node is expanded (all its children created, unvisited) when the search comes
  to it a second time (the root at once). Children's order: the game's own move order when a
  ``prior`` is given (child i of k gets ``h = 1 - i / k``), else the natural order shuffled
  (Fisher-Yates) by the search's generator (``h = 0``).
- *Evaluation*: a node reached for the first time is checked for the end of the game; at a
  terminal node the reward is the sign of the utility (+1 MAX wins, 0 draw, -1 MIN wins; the
  utility itself with ``reward="value"``);
  else a rollout plays uniformly random moves to the end (``rollout_depth=None``) or for at
  most ``rollout_depth`` plies, and returns the end's sign, or the game's evaluation clipped to
  [-1, 1] where it stopped.
- *Backup*: every node on the path gets one visit and the reward (from MAX's point of view).
- *Solver* (``solver=True``, MCTS-Solver): a terminal win is a proven node; a node with a
  child proven won for its side to move is proven won, one whose children are all proven lost
  is proven lost; proven-lost children are never selected, a proven node returns its value
  without a rollout, and a proven root ends the search.

Random numbers: one splitmix64 stream per search (``rng_next``: state += GOLDEN, output
mix64(state); seeded by ``mix64(seed ^ MCTS_SALT)``), written here on Python ints and in the
compiled twin on uint64, so both draw the same numbers; ``draw(n) = ((r >> 32) * n) >> 32``.
No global random state.

Counting (what one node is, the same unit as alpha-beta's): a *node* is one position made
current, the root once and then every position reached by playing one move, in the tree's
descent and in the rollouts alike; alpha-beta likewise counts every position it visits. A
*leaf* is one evaluation (a terminal reward, a rollout's end or a proven node's value): one per
simulation. The budget (``max_nodes``, ``simulations``, ``max_time``) is checked before each
simulation, and the simulation under way completes: ``nodes`` may exceed ``max_nodes`` by less
than one simulation's length (at most the game's remaining length). The result's status is
"ok" (running out of budget is how MCTS ends).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

from searchlab.contracts.result import SearchResult
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.hashing import GOLDEN, MASK64, mix64
from searchlab.limits import MAX_COUNT, MAX_DEPTH, MAX_SEED, check_int, check_number, excerpt

MCTS_SALT = 0x6A09E667F3BCC909
ROLLOUTS = ("random", "horizon")
REWARDS = ("sign", "value")
DEFAULT_EXPLORATION = math.sqrt(2.0)


@dataclass(frozen=True)
class MCTSOptions:
    """The knobs of one MCTS search (the module docstring says what each does).

    - exploration: UCT's constant c >= 0 (default sqrt(2), rewards in [-1, 1]).
    - rollout: "random" (to the end of the game) or "horizon" (cut after ``rollout_depth``
      plies, scored by the game's evaluation clipped to [-1, 1]).
    - rollout_depth: the horizon's plies (``rollout="horizon"`` only; >= 0).
    - prior: None, or the name of one of the game's own move orderings (e.g. "centre"):
      unvisited children are tried in that order and get the progressive bias.
    - prior_weight: w >= 0, the progressive bias's weight.
    - solver: prove wins and losses in the tree (MCTS-Solver).
    - simulations: the number of simulations (None: no limit; another budget must be set).
    - reward: "sign" (a game's end scores the sign of its utility: +1, 0, -1) or "value" (the
      utility itself: synthetic trees whose leaf values are not win/loss, e.g. i.i.d. values in
      [0, 1); no solver).
    """

    exploration: float = DEFAULT_EXPLORATION
    rollout: str = "random"
    rollout_depth: int | None = None
    prior: str | None = None
    prior_weight: float = 1.0
    solver: bool = False
    simulations: int | None = None
    reward: str = "sign"


def validate(game: Any, options: Any, max_nodes: Any, max_time: Any, seed: Any) -> MCTSOptions:
    """Check every argument of an MCTS search before any work (one line naming the parameter);
    returns the options. Raises InvalidParameterError or UnsupportedError."""
    if not isinstance(options, MCTSOptions):
        raise InvalidParameterError(f"mcts must be an MCTSOptions record (searchlab.algorithms.mcts); "
                                    f"got {excerpt(options)}")
    caps = getattr(game, "capabilities", None)
    if caps is None:
        raise InvalidParameterError(f"game must implement the Game protocol; {type(game).__name__} does not")
    caps.require_classical("algorithm 'mcts'")
    check_number("exploration", options.exploration, 0.0)
    check_number("prior_weight", options.prior_weight, 0.0)
    if options.rollout not in ROLLOUTS:
        raise InvalidParameterError(f"rollout must be one of {', '.join(ROLLOUTS)}; got {excerpt(options.rollout)}")
    if options.reward not in REWARDS:
        raise InvalidParameterError(f"reward must be one of {', '.join(REWARDS)}; got {excerpt(options.reward)}")
    if options.reward == "value" and options.solver is True:
        raise InvalidParameterError("solver=True proves wins and losses, which needs reward='sign'")
    if options.rollout == "horizon":
        check_int("rollout_depth", options.rollout_depth, 0, MAX_DEPTH)
        if not caps.static_values:
            raise UnsupportedError(f"rollout='horizon' scores the horizon with the game's evaluation, "
                                   f"but {game.name} has none: use rollout='random'")
    else:
        if options.rollout_depth is not None:
            raise InvalidParameterError("rollout_depth is the horizon of rollout='horizon'; "
                                        f"got rollout_depth={excerpt(options.rollout_depth)} with rollout='random'")
        if playout_bound(game) is None:
            raise UnsupportedError(
                f"rollout='random' plays random games to their end, but {game.name} has no random "
                "playouts (no bound on its length: no compiled primitives' max_plies, no "
                "default_depth): use rollout='horizon' with rollout_depth=")
    if options.prior is not None:
        own = game.move_orderings() if caps.own_orderings else {}
        if options.prior not in own:
            names = ", ".join(own) or "none"
            raise InvalidParameterError(f"prior must be None or one of the game's own orderings ({names}); "
                                        f"got {excerpt(options.prior)}")
    if not isinstance(options.solver, bool):
        raise InvalidParameterError(f"solver must be True or False; got {excerpt(options.solver)}")
    if options.simulations is not None:
        check_int("simulations", options.simulations, 1, MAX_COUNT, or_none=True)
    if max_nodes is not None:
        check_int("max_nodes", max_nodes, 1, MAX_COUNT, or_none=True)
    if max_time is not None:
        check_number("max_time", max_time, 0.0)
        if not max_time > 0:
            raise InvalidParameterError(f"max_time must be None or a number of seconds > 0; got {max_time!r}")
    if options.simulations is None and max_nodes is None and max_time is None:
        raise InvalidParameterError("mcts needs a budget: give max_nodes=, max_time= or simulations= "
                                    "(MCTS has no natural end)")
    check_int("seed", seed, 0, MAX_SEED)
    if game.is_terminal(game.initial_state()):
        raise InvalidParameterError(f"the root of {game.name} is terminal: there is no move to search")
    return options


def playout_bound(game: Any) -> int | None:
    """An upper bound on any playout's length from the root, or None (no random playouts)."""
    if getattr(game.capabilities, "compiled", False):
        return int(game.compiled_primitives().max_plies)
    depth = getattr(game, "default_depth", None)
    return int(depth) if depth is not None else getattr(game, "max_game_length", None)


# --- the shared random stream (the compiled twin repeats it on uint64) ---------------------------
def rng_seed(seed: int) -> int:
    return mix64((seed ^ MCTS_SALT) & MASK64)


class _Rng:
    """splitmix64 on a Python int (state advanced by GOLDEN, output mix64(state))."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = rng_seed(seed)

    def draw(self, n: int) -> int:
        """A number in [0, n) (n < 2**32): the top 32 bits of the next output, scaled."""
        self.state = (self.state + GOLDEN) & MASK64
        return ((mix64(self.state) >> 32) * n) >> 32


class _Node:
    __slots__ = ("move", "children", "visits", "total", "h", "solved", "terminal", "reward", "max_moves")

    def __init__(self, move: Any, h: float) -> None:
        self.move, self.h = move, h
        self.children: list[_Node] | None = None
        self.visits, self.total = 0, 0.0
        self.solved = 0             # +1 proven MAX win, -1 proven MIN win, 0 not proven
        self.terminal, self.reward = False, 0.0
        self.max_moves = True       # MAX to move here (set at expansion)


def _sign(x: float) -> float:
    return 1.0 if x > 0 else (-1.0 if x < 0 else 0.0)


class _Search:
    def __init__(self, game: Any, o: MCTSOptions, seed: int) -> None:
        self.game, self.o = game, o
        self.rng = _Rng(seed)
        self.root_state = game.initial_state()
        self.root = _Node(None, 0.0)
        self.nodes, self.sims, self.top = 1, 0, 0
        self.per_ply = [1]
        self.order = game.move_orderings()[o.prior] if o.prior is not None else None

    def _count(self, ply: int) -> None:
        self.nodes += 1
        while len(self.per_ply) <= ply:
            self.per_ply.append(0)
        self.per_ply[ply] += 1
        self.top = max(self.top, ply)

    def _end(self, utility: float) -> float:
        return _sign(utility) if self.o.reward == "sign" else float(utility)

    def _expand(self, node: _Node, state: Any) -> None:
        g = self.game
        moves = list(g.legal_moves(state))
        k = len(moves)
        node.max_moves = bool(g.max_to_move(state))
        if self.order is not None:
            moves = list(self.order(state, moves))
            node.children = [_Node(m, 1.0 - i / k) for i, m in enumerate(moves)]
            return
        for i in range(k - 1, 0, -1):
            j = self.rng.draw(i + 1)
            moves[i], moves[j] = moves[j], moves[i]
        node.children = [_Node(m, 0.0) for m in moves]

    def _select(self, node: _Node) -> _Node:
        sign = 1.0 if node.max_moves else -1.0
        log_n = math.log(node.visits) if node.visits > 0 else 0.0
        c, w = self.o.exploration, self.o.prior_weight
        best, best_score = None, -math.inf
        for ch in node.children:
            if self.o.solver and ch.solved == -sign:
                continue
            if ch.visits == 0:
                return ch
            score = sign * ch.total / ch.visits + c * math.sqrt(log_n / ch.visits) + w * ch.h / (ch.visits + 1)
            if score > best_score:
                best, best_score = ch, score
        return best if best is not None else node.children[0]

    def _rollout(self, state: Any, ply: int) -> float:
        g = self.game
        horizon = self.o.rollout_depth if self.o.rollout == "horizon" else None
        k = 0
        while True:
            if g.is_terminal(state):
                return self._end(g.utility(state))
            if horizon is not None and k >= horizon:
                return min(1.0, max(-1.0, float(g.evaluate(state))))
            moves = g.legal_moves(state)
            state = g.play(state, moves[self.rng.draw(len(moves))])
            k += 1
            self._count(ply + k)

    def simulate(self) -> None:
        g, node, state, ply = self.game, self.root, self.root_state, 0
        path = [node]
        while True:
            if node.terminal or (self.o.solver and node.solved):
                break
            if node.children is None:
                if node.visits == 0 and node is not self.root:
                    break
                self._expand(node, state)
            node = self._select(node)
            state = g.play(state, node.move)
            ply += 1
            self._count(ply)
            path.append(node)
        if node.visits == 0 and node is not self.root and g.is_terminal(state):
            node.terminal, node.reward = True, self._end(g.utility(state))
            if self.o.solver and node.reward != 0:
                node.solved = int(node.reward)
        if node.terminal:
            reward = node.reward
        elif self.o.solver and node.solved:
            reward = float(node.solved)
        else:
            reward = self._rollout(state, ply)
        for n in path:
            n.visits += 1
            n.total += reward
        self.sims += 1
        if self.o.solver:
            for p in reversed(path[:-1]):
                sign = 1 if p.max_moves else -1
                if any(ch.solved == sign for ch in p.children):
                    p.solved = sign
                elif all(ch.solved == -sign for ch in p.children):
                    p.solved = -sign
                else:
                    break

    def best(self) -> _Node:
        """The move chosen: a proven win for the side to move, else the most visited child not
        proven lost (the first in the children's order on ties)."""
        return choose(self.root.children, 1 if self.root.max_moves else -1, self.o.solver)


def choose(children: list, sign: int, solver: bool) -> Any:
    """The root child chosen (the reference's nodes or the compiled twin's views): with the
    solver, a child proven won for the side to move (``sign``) if any; else the most visited
    child, proven-lost children left out while another remains; ties: the first in order."""
    pool = children
    if solver:
        for ch in children:
            if ch.solved == sign:
                return ch
        pool = [ch for ch in children if ch.solved != -sign] or children
    best = pool[0]
    for ch in pool[1:]:
        if ch.visits > best.visits:
            best = ch
    return best


def search_mcts(game: Any, options: MCTSOptions = MCTSOptions(), *, max_nodes: int | None = None,
                max_time: float | None = None, seed: int = 0) -> SearchResult:
    """MCTS (UCT) from ``game``'s initial state, the readable reference (the module docstring).

    Budgets: ``max_nodes`` (nodes as alpha-beta counts them: every position made current,
    tree descent and rollout plies), ``options.simulations`` and ``max_time`` (seconds of the
    thread's CPU time, ``time.thread_time``, as the match runner's CPU budget; not reproducible), at least one; the search stops before the first simulation that
    would start beyond any of them, or when the solver proves the root. ``seed`` fixes every
    random draw. Returns a SearchResult (engine "reference", algorithm "mcts"): ``best_move``
    the move chosen, ``value`` its mean reward from MAX's point of view (in [-1, 1]; the
    proven value when proven), ``nodes``/``leaves``/``per_ply`` as counted in the module
    docstring, and the root's statistics in natural move order: ``root_moves``,
    ``root_visits``, ``root_values`` (mean reward from MAX's view; nan when unvisited),
    ``simulations``; ``extra["proven"]`` the root's proven value (+1, -1, or 0: not proven).
    """
    o = validate(game, options, max_nodes, max_time, seed)
    s = _Search(game, o, seed)
    t0, c0 = time.perf_counter(), time.thread_time()
    node_limit = math.inf if max_nodes is None else max_nodes
    sim_limit = math.inf if o.simulations is None else o.simulations
    while s.sims < sim_limit and s.nodes < node_limit:
        if o.solver and s.root.solved:
            break
        if max_time is not None and time.thread_time() - c0 >= max_time:
            break
        s.simulate()
    wall = time.perf_counter() - t0
    return package(game, s.root_state, s.best(), s.root, s.nodes, s.sims, s.per_ply, wall, o, "reference")


def package(game: Any, root_state: Any, best: Any, root: Any, nodes: int, sims: int, per_ply: list,
            wall: float, o: MCTSOptions, engine: str) -> SearchResult:
    """The SearchResult of an MCTS search (reference nodes, or the compiled twin's views)."""
    stats = {ch.move: ch for ch in root.children}
    moves = tuple(game.legal_moves(root_state))
    visits = tuple(stats[m].visits for m in moves)
    values = tuple(stats[m].total / stats[m].visits if stats[m].visits else math.nan for m in moves)
    if o.solver and best.solved:
        value = float(best.solved)
    else:
        value = best.total / best.visits if best.visits else math.nan
    top = max((k for k, n in enumerate(per_ply) if n), default=0)
    return SearchResult(
        value=value, best_move=best.move, best_moves=(best.move,), best_moves_complete=False,
        nodes=nodes, leaves=sims, interior=nodes - sims, cutoffs=0,
        per_ply=tuple(int(x) for x in per_ply[:top + 1]), iterations=(nodes,), wall_time=wall,
        algorithm="mcts", ordering=o.prior or "natural", engine=engine, depth=top,
        root_moves=moves, root_visits=visits, root_values=values, simulations=sims,
        extra={"proven": int(root.solved) if o.solver else 0, "options": o})


