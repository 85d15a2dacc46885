"""Search with chance nodes: expectiminimax, Star1 and Star2 (Ballard 1983). The specification.

A *chance game* adds to the Game protocol (searchlab.contracts.protocol.ChanceGame):
``is_chance(s)``, ``chance_outcomes(s) -> [(outcome, probability), ...]`` in natural order
(probabilities > 0, summing to 1) and ``value_bounds = (L, U)``, bounds on every value a
search can return (utilities and evaluations). Values are from MAX's point of view.

Depth (OpenSpiel's convention, so that values can be compared with
``open_spiel.python.algorithms.expectiminimax``): the horizon counts *decision* plies only;
a node is a leaf when it is terminal (its utility) or when ``depth`` decisions lie above it
(its evaluation, chance nodes included). ``depth=None`` searches to the end of the game.

Counting: a *node* is one call on a position (root, chance nodes and leaves included);
``chance_nodes`` counts the calls on chance nodes, ``leaves`` the evaluations;
``per_ply[k]`` counts nodes at level k (every node, decision or chance, is one level).
Star2's probes visit a child once more (counted as a node) and search its first successor.

The algorithms:

- ``expectiminimax``: every node; MAX takes the max, MIN the min, a chance node the
  probability-weighted sum of its children, summed in natural order.
- ``alphabeta-emm``: alpha-beta at MAX/MIN nodes, but a chance node computes its full
  expectation and searches its children with the infinite window: pruning only among siblings
  of a decision node, never through a chance node (the baseline of claim 003-i).
- ``star1``: alpha-beta at MAX/MIN nodes and Ballard's pruning at chance nodes: from the
  values of the outcomes searched so far and the bounds [L, U] of the rest, the chance node's
  value lies in an interval; a child gets the window of its values that can still move the
  chance node's value inside (alpha, beta), and the node returns as soon as its interval lies
  at or below alpha (fail low) or at or above beta (fail high).
- ``star2``: Star1 plus a probing phase before it: for every outcome whose position is a
  MAX node, the first successor (in move order) is searched, and its value, a lower bound of
  the MAX node, replaces L for that outcome (symmetrically an upper bound for MIN nodes);
  the node fails high (low) as soon as the probed bounds allow, before any full search.
  The probes' results are kept for the search phase (the role a transposition table plays in
  Hauk, Buro & Schaeffer's Star2), which does not search a probed successor again when the
  kept result settles it (exact, or a bound beyond its window): ``extra["probe_reuses"]``.

Move orderings (``ordering``): "natural" (the game's order), "static" (best first for the side
to move by the child's static value), "random" (a permutation per node drawn from ``order_seed``
and the node's hash key: the same node gets the same order in every search with that seed) and
"perfect" (best first by the child's exact expectiminimax value at the search's horizon, ties
in natural order; an oracle: the values come from a memoised expectiminimax over the same tree
whose visits are not counted). Star2's probe searches the first successor in this order, so the
ordering decides what its probes see.

Floating point: cut decisions carry a margin ``tol`` (chance-value scale,
``1e-9 * max(1, |L|, |U|)``) so that a bound is acted on only when it holds despite rounding,
and a chance node whose children all were searched sums them in natural order as
expectiminimax does: Star1 and Star2 return expectiminimax's value bit for bit (tests).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Hashable

from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.hashing import child_key
from searchlab.algorithms.chance_compiled import run_compiled
from searchlab.algorithms.chance_compiled import supports as compiled_supports
from searchlab.algorithms.context import count_node
from searchlab.contracts.result import SearchResult
from searchlab.contracts.protocol import ChanceGame

INF = math.inf
CHANCE_ORDERINGS = ("natural", "static", "random", "perfect")
OUTCOME_ORDERS = ("natural", "probability")
ENGINES = ("reference", "kernel", "compiled", "auto")


@dataclass
class ChanceContext:
    """Counters and settings of one chance search (no module state)."""

    game: Any
    depth: float                        # decision-ply horizon (inf: to the end)
    low: float                          # L
    high: float                         # U
    ordering: str = "natural"
    outcome_order: str = "natural"
    max_nodes: float = INF
    nodes: int = 0
    chance_nodes: int = 0
    leaves: int = 0
    cutoffs: int = 0                    # returns before all children (or outcomes) were searched
    chance_cutoffs: int = 0             # of which at chance nodes
    probes: int = 0                     # Star2 probe searches
    probe_cutoffs: int = 0              # chance nodes settled by their probes alone
    probe_reuses: int = 0               # probed successors the search phase did not search again
    probed: dict = field(default_factory=dict)   # (hash key, ply, decisions) -> (value, "exact" | "lower" | "upper")
    per_ply: list[int] = field(default_factory=lambda: [0] * 64)
    best_move: Hashable | None = None
    root_values: dict = field(default_factory=dict)
    first: Hashable | None = None       # a root move to search first (iterative deepening)
    order_seed: int = 0                 # ordering "random": the permutations' seed
    oracle: dict = field(default_factory=dict)   # ordering "perfect": (state, decisions) -> exact value

    @property
    def tol(self) -> float:
        return 1e-9 * max(1.0, abs(self.low), abs(self.high))

    def visit(self, state: Any, ply: int, dec: int) -> float | None:
        """Count a node; return its value if it is a leaf (terminal, or ``depth`` decisions
        deep), else None. Raises InvalidParameterError if a leaf value lies outside [L, U]."""
        count_node(self, ply)
        game = self.game
        if game.is_terminal(state):
            v = game.utility(state)
        elif dec >= self.depth:
            v = game.evaluate(state)
        else:
            if game.is_chance(state):
                self.chance_nodes += 1
            return None
        self.leaves += 1
        if not self.low <= v <= self.high:
            raise InvalidParameterError(
                f"bounds: a leaf value {v!r} lies outside [L, U] = [{self.low}, {self.high}]; "
                "give bounds that contain every utility and evaluation")
        return v

    def moves(self, state: Any, ply: int, dec: int = 0) -> list:
        """Decision moves in search order (``dec``: decisions above ``state``, which "perfect"
        needs): natural; best-first by the child's static value; a seeded permutation; or
        best-first by the child's exact value. At the root, ``first`` (the previous
        iteration's best move) leads."""
        game = self.game
        moves = list(game.legal_moves(state))
        if self.ordering == "static":
            sign = -1.0 if game.max_to_move(state) else 1.0
            moves.sort(key=lambda m: sign * _static(game, game.play(state, m)))
        elif self.ordering == "random":
            key = child_key(game.hash_key(state), self.order_seed)
            rank = [child_key(key, i) for i in range(len(moves))]
            moves = [m for _, m in sorted(zip(rank, moves), key=lambda t: t[0])]
        elif self.ordering == "perfect":
            sign = -1.0 if game.max_to_move(state) else 1.0
            moves.sort(key=lambda m: sign * _exact(game.play(state, m), dec + 1, self))
        if ply == 0 and self.first in moves:
            moves.remove(self.first)
            moves.insert(0, self.first)
        return moves

    def outcomes(self, state: Any) -> list[tuple[int, Hashable, float]]:
        """(natural index, outcome, probability) in search order."""
        out = [(i, o, p) for i, (o, p) in enumerate(self.game.chance_outcomes(state))]
        if self.outcome_order == "probability":
            out.sort(key=lambda t: -t[2])
        return out


def _static(game: Any, state: Any) -> float:
    """A position's static value for ordering: utility if terminal, else the evaluation; a
    chance node's is the expectation of its outcomes' static values."""
    if game.is_terminal(state):
        return game.utility(state)
    if game.is_chance(state):
        return sum(p * _static(game, game.play(state, o)) for o, p in game.chance_outcomes(state))
    return game.evaluate(state)


def _exact(state: Any, dec: int, ctx: ChanceContext) -> float:
    """The exact expectiminimax value of ``state`` with ``dec`` decisions above it, at the
    search's horizon (the leaf rule of ``ChanceContext.visit``), memoised in ``ctx.oracle``;
    nothing is counted (the perfect ordering's oracle). Keyed by the state itself (exact), or
    by its hash key where the state is not hashable (explicit trees: a path key)."""
    game = ctx.game
    try:
        key = (state, dec)
        got = ctx.oracle.get(key)
    except TypeError:
        key = (game.hash_key(state), dec)
        got = ctx.oracle.get(key)
    if got is not None:
        return got
    if game.is_terminal(state):
        v = game.utility(state)
    elif dec >= ctx.depth:
        v = game.evaluate(state)
    elif game.is_chance(state):
        v = 0.0
        for o, p in game.chance_outcomes(state):
            v += p * _exact(game.play(state, o), dec, ctx)
    else:
        vals = [_exact(game.play(state, m), dec + 1, ctx) for m in game.legal_moves(state)]
        v = max(vals) if game.max_to_move(state) else min(vals)
    ctx.oracle[key] = v
    return v


# --------------------------------------------------------------------------- expectiminimax

def expectiminimax(state, ply: int, dec: int, ctx: ChanceContext) -> float:
    """The exact value: max / min / probability-weighted sum (natural order)."""
    v = ctx.visit(state, ply, dec)
    if v is not None:
        return v
    game = ctx.game
    if game.is_chance(state):
        vals = {}
        for i, o, p in ctx.outcomes(state):
            vals[i] = expectiminimax(game.play(state, o), ply + 1, dec, ctx)
        return _expectation(game, state, vals)
    maximizing = game.max_to_move(state)
    v, best = (-INF if maximizing else INF), None
    for m in ctx.moves(state, ply, dec):
        c = expectiminimax(game.play(state, m), ply + 1, dec + 1, ctx)
        if ply == 0:
            ctx.root_values[m] = c
        if (c > v) if maximizing else (c < v):
            v, best = c, m
    if ply == 0:
        ctx.best_move = best
    return v


def _expectation(game: Any, state: Any, vals: dict[int, float]) -> float:
    """Σ p_i v_i accumulated in natural order, as expectiminimax sums (bit-exact agreement)."""
    total = 0.0
    for i, (_, p) in enumerate(game.chance_outcomes(state)):
        total += p * vals[i]
    return total


# --------------------------------------------------------------------------- alpha-beta family

def _decision(state, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext,
              chance_fn) -> float:
    """Fail-soft alpha-beta at a MAX or MIN node (the spec's textbook form); children are
    searched with ``chance_fn`` (which handles every kind of node)."""
    game = ctx.game
    moves = ctx.moves(state, ply, dec)
    best = None
    if game.max_to_move(state):
        v = -INF
        for i, m in enumerate(moves):
            c = _child(game.play(state, m), ply + 1, dec + 1, alpha, beta, ctx, chance_fn)
            if c > v:
                v, best = c, m
            if v >= beta:
                ctx.cutoffs += i < len(moves) - 1
                break
            alpha = max(alpha, v)
    else:
        v = INF
        for i, m in enumerate(moves):
            c = _child(game.play(state, m), ply + 1, dec + 1, alpha, beta, ctx, chance_fn)
            if c < v:
                v, best = c, m
            if v <= alpha:
                ctx.cutoffs += i < len(moves) - 1
                break
            beta = min(beta, v)
    if ply == 0:
        ctx.best_move = best
    return v


def _child(child, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext, fn) -> float:
    """Search a decision node's child, unless Star2 probed it and the probe's result settles
    it for this window (exact, or a bound beyond the window): then that result, no new node."""
    if ctx.probed:
        got = ctx.probed.pop((ctx.game.hash_key(child), ply, dec), None)
        if got is not None:
            value, kind = got
            if kind == "exact" or (kind == "lower" and value >= beta) or \
                    (kind == "upper" and value <= alpha):
                ctx.probe_reuses += 1
                return value
    return fn(child, ply, dec, alpha, beta, ctx)


def alphabeta_emm(state, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext) -> float:
    """Alpha-beta at decision nodes; a chance node is a full expectation whose children get
    the infinite window (no pruning passes through it)."""
    v = ctx.visit(state, ply, dec)
    if v is not None:
        return v
    game = ctx.game
    if game.is_chance(state):
        vals = {i: alphabeta_emm(game.play(state, o), ply + 1, dec, -INF, INF, ctx)
                for i, o, _ in ctx.outcomes(state)}
        return _expectation(game, state, vals)
    return _decision(state, ply, dec, alpha, beta, ctx, alphabeta_emm)


def star1(state, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext) -> float:
    """Alpha-beta with Ballard's Star1 pruning at chance nodes (bounds [L, U])."""
    v = ctx.visit(state, ply, dec)
    if v is not None:
        return v
    if ctx.game.is_chance(state):
        return _chance_node(state, ply, dec, alpha, beta, ctx, star1, probe=False)
    return _decision(state, ply, dec, alpha, beta, ctx, star1)


def star2(state, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext) -> float:
    """Star1 with Ballard's probing phase at chance nodes."""
    v = ctx.visit(state, ply, dec)
    if v is not None:
        return v
    if ctx.game.is_chance(state):
        return _chance_node(state, ply, dec, alpha, beta, ctx, star2, probe=True)
    return _decision(state, ply, dec, alpha, beta, ctx, star2)


def _chance_node(state, ply: int, dec: int, alpha: float, beta: float, ctx: ChanceContext,
                 fn, probe: bool) -> float:
    """Ballard's chance node. Each outcome i has bounds [lo_i, hi_i] on its value (initially
    [L, U]; exact once searched). The node's value lies in [Σ p_i lo_i, Σ p_i hi_i]; it fails
    low when the upper end is <= alpha - tol (returning that end plus tol/2, still an upper
    bound despite rounding) and high when the lower end is >= beta + tol. Outcome i is
    searched with the window of its values that keep the node inside (alpha, beta), widened
    by 2·tol (so a child that fails against it always triggers the node's cut test) and
    clamped to [lo_i - tol, hi_i + tol]."""
    game, tol = ctx.game, ctx.tol
    outs = ctx.outcomes(state)
    k = len(outs)
    lo = [ctx.low] * k
    hi = [ctx.high] * k
    exact: dict[int, float] = {}           # natural index -> exact value

    def cut(j_next: int) -> float | None:
        """The node's return if its interval settles it (j_next: outcomes still to search)."""
        upper = sum(p * hi[j] for j, (_, _, p) in enumerate(outs))
        if upper <= alpha - tol:
            ctx.cutoffs += j_next < k
            ctx.chance_cutoffs += j_next < k
            return upper + tol / 2
        lower = sum(p * lo[j] for j, (_, _, p) in enumerate(outs))
        if lower >= beta + tol:
            ctx.cutoffs += j_next < k
            ctx.chance_cutoffs += j_next < k
            return lower - tol / 2
        return None

    if (r := cut(0)) is not None:             # the window lies outside [L, U] already
        return r
    if probe:
        for j, (i, o, p) in enumerate(outs):
            child = game.play(state, o)
            got = _probe(child, ply + 1, dec, j, outs, lo, hi, alpha, beta, ctx, fn)
            if got is not None:                 # the child was a leaf: exact
                exact[i] = lo[j] = hi[j] = got
            if (r := cut(0)) is not None:
                ctx.probe_cutoffs += 1
                return r
    for j, (i, o, p) in enumerate(outs):
        if i in exact:
            continue
        rest_hi = sum(q * hi[t] for t, (_, _, q) in enumerate(outs) if t != j)
        rest_lo = sum(q * lo[t] for t, (_, _, q) in enumerate(outs) if t != j)
        a = max((alpha - rest_hi - 2 * tol) / p, lo[j] - tol)
        b = min((beta - rest_lo + 2 * tol) / p, hi[j] + tol)
        c = fn(game.play(state, o), ply + 1, dec, a, b, ctx)
        if c <= a:
            hi[j] = c                         # an upper bound (or exact)
        elif c >= b:
            lo[j] = c                         # a lower bound (or exact)
        else:
            exact[i] = lo[j] = hi[j] = c
        if (r := cut(j + 1)) is not None:
            return r
        if i not in exact:                    # cannot happen: a failed child always cuts
            raise AssertionError("a child failed outside its window without a cut")
    return _expectation(game, state, exact)


def _probe(child, ply: int, dec: int, j: int, outs, lo, hi, alpha: float, beta: float,
           ctx: ChanceContext, fn) -> float | None:
    """Star2's probe of outcome j: visit the child; if it is a leaf return its value; if it
    is a MAX (MIN) node, search its first successor with the window that could make the chance
    node fail high (low), and raise lo[j] (lower hi[j]) to the result. A chance child is not
    probed."""
    game, tol = ctx.game, ctx.tol
    if dec < ctx.depth and not game.is_terminal(child) and game.is_chance(child):
        return None                           # not probed, not visited
    v = ctx.visit(child, ply, dec)
    if v is not None:
        return v
    moves = ctx.moves(child, ply, dec)
    grand = game.play(child, moves[0])
    p = outs[j][2]
    ctx.probes += 1
    if game.max_to_move(child):
        rest_lo = sum(q * lo[t] for t, (_, _, q) in enumerate(outs) if t != j)
        b = min((beta - rest_lo + 2 * tol) / p, hi[j] + tol)
        r = fn(grand, ply + 1, dec + 1, lo[j] - tol, b, ctx)
        lo[j] = max(lo[j], r)                 # exact or a fail-high lower bound: both bound it below
        kind = "lower" if r >= b else "exact"
    else:
        rest_hi = sum(q * hi[t] for t, (_, _, q) in enumerate(outs) if t != j)
        a = max((alpha - rest_hi - 2 * tol) / p, lo[j] - tol)
        r = fn(grand, ply + 1, dec + 1, a, hi[j] + tol, ctx)
        hi[j] = min(hi[j], r)
        kind = "upper" if r <= a else "exact"
    ctx.probed[(game.hash_key(grand), ply + 1, dec + 1)] = (r, kind)
    return None


ALGORITHMS = {
    "expectiminimax": expectiminimax,
    "alphabeta-emm": alphabeta_emm,
    "star1": star1,
    "star2": star2,
}


# --------------------------------------------------------------------------- entry point

def _check_bounds(game: Any, bounds: Any) -> tuple[float, float]:
    if bounds is None:
        bounds = getattr(game, "value_bounds", None)
        if bounds is None:
            raise InvalidParameterError(
                f"bounds: {game.name} declares no value_bounds; give bounds=(L, U) with L < U")
    try:
        low, high = (float(x) for x in bounds)
    except (TypeError, ValueError):
        raise InvalidParameterError(f"bounds must be a pair (L, U) of numbers; got {bounds!r}") from None
    if not (math.isfinite(low) and math.isfinite(high) and low < high):
        raise InvalidParameterError(f"bounds must be finite with L < U; got {bounds!r}")
    return low, high


def search_chance(game: Any, algorithm: str = "star2", ordering: str = "natural", *,
                  depth: int | None = None, bounds: tuple[float, float] | None = None,
                  outcome_order: str = "natural", iterative: bool = False,
                  max_nodes: int | None = None, engine: str = "reference",
                  order_seed: int = 0) -> SearchResult:
    """Search a chance game (or a deterministic one) from its initial state.

    - algorithm: "expectiminimax", "alphabeta-emm", "star1" or "star2" (module docstring).
    - ordering: decision moves in "natural" order, "static" (best first for the side to
      move by the child's static value; a chance child by the expectation of its outcomes'),
      "random" (a permutation per node from ``order_seed``) or "perfect" (best first by the
      child's exact value; an uncounted oracle). "random" and "perfect" run on the reference.
    - outcome_order: chance outcomes in "natural" order or by descending "probability".
    - depth: decision plies (None: to the end of the game); bounds: (L, U) containing every
      leaf value (default: ``game.value_bounds``); Star1/Star2 rely on them.
    - iterative: iterative deepening over depth 1..depth, the previous best root move first;
      ``iterations`` holds each iteration's nodes.
    - max_nodes: node budget (status "aborted", value None when exceeded).
    - engine: "reference" (this module, the default); the compiled chance engine
      (searchlab/algorithms/chance_compiled.py, one numba search over the game's primitives,
      not iterative) as "kernel" on the synthetic ChanceTree (natural order) and as "compiled"
      on Pig and the dice race (natural and static order), UnsupportedError elsewhere; or
      "auto" (the compiled engine where it applies, else the reference). All return the same
      counts.

    Returns a SearchResult (value from MAX's view) with ``chance_nodes`` set and, in
    ``extra``: chance_cutoffs, probes, probe_cutoffs, bounds. ``best_moves`` is complete for
    expectiminimax. Raises InvalidParameterError / UnsupportedError before any search.
    """
    if not isinstance(game, ChanceGame):
        raise InvalidParameterError(
            f"game must implement the ChanceGame protocol (searchlab.contracts.protocol: the Game "
            f"protocol with is_chance, chance_outcomes and value_bounds); {type(game).__name__} "
            f"does not")
    if algorithm not in ALGORITHMS:
        raise InvalidParameterError(f"algorithm must be one of {', '.join(ALGORITHMS)}; got {algorithm!r}")
    if ordering not in CHANCE_ORDERINGS:
        raise InvalidParameterError(f"ordering must be one of {', '.join(CHANCE_ORDERINGS)}; got {ordering!r}")
    if isinstance(order_seed, bool) or not isinstance(order_seed, int) or order_seed < 0:
        raise InvalidParameterError(f"order_seed must be an integer >= 0; got {order_seed!r}")
    if outcome_order not in OUTCOME_ORDERS:
        raise InvalidParameterError(
            f"outcome_order must be one of {', '.join(OUTCOME_ORDERS)}; got {outcome_order!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 0):
        raise InvalidParameterError(f"depth must be None or an integer >= 0; got {depth!r}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or not isinstance(max_nodes, int)
                                  or max_nodes < 1):
        raise InvalidParameterError(f"max_nodes must be None or an integer >= 1; got {max_nodes!r}")
    low, high = _check_bounds(game, bounds)
    if getattr(game.capabilities, "two_player", True) is False:
        raise UnsupportedError("chance search needs a two-player zero-sum game; use "
                               "searchlab.algorithms.multiplayer for n players")
    if not getattr(game, "has_static", False):
        if ordering == "static" or iterative:
            raise UnsupportedError(f"ordering 'static' and iterative deepening need static values; "
                                   f"{game.name} has none")
        full = game.default_depth
        if depth is not None and (full is None or depth < full):
            raise UnsupportedError(f"{game.name} has no static evaluation: search it with depth=None")
    if iterative and depth is None:
        raise InvalidParameterError("iterative deepening needs a finite depth")
    if engine not in ENGINES:
        raise InvalidParameterError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    horizon = INF if depth is None else depth
    if engine != "reference" and compiled_supports(game, algorithm, ordering, iterative, engine):
        return run_compiled(game, algorithm, ordering, horizon, low, high, outcome_order, max_nodes)
    if engine == "compiled":
        raise UnsupportedError(f"no compiled chance engine for {algorithm}/{ordering} on {game.name}"
                               + (" with iterative deepening" if iterative else "")
                               + " (Pig and the dice race, natural or static order): use engine='reference'")
    if engine == "kernel":
        raise UnsupportedError(f"no compiled chance kernel for {algorithm}/{ordering} on {game.name}"
                               + (" with iterative deepening" if iterative else "")
                               + " (the chance tree, natural order): use engine='reference'")
    ctx = ChanceContext(game, horizon, low, high, ordering, outcome_order,
                        INF if max_nodes is None else max_nodes, order_seed=order_seed)
    fn = ALGORITHMS[algorithm]
    root = game.initial_state()
    iterations: list[int] = []
    status, value = "ok", None
    t0 = time.perf_counter()
    try:
        # iterative deepening to depth 0: one search to depth 0 (drivers.iterative_deepening)
        for k in ((range(1, depth + 1) if depth > 0 else (0,)) if iterative else (horizon,)):
            ctx.depth, start = k, ctx.nodes
            ctx.root_values.clear()
            ctx.probed.clear()
            ctx.oracle.clear()                  # exact values depend on the horizon
            value = fn(root, 0, 0, ctx) if algorithm == "expectiminimax" else fn(root, 0, 0, -INF, INF, ctx)
            ctx.first = ctx.best_move
            iterations.append(ctx.nodes - start)
    except SearchAborted:
        status, value = "aborted", None
    wall = time.perf_counter() - t0
    if status == "ok" and algorithm == "expectiminimax" and ctx.root_values:
        best_moves, complete = tuple(m for m in ctx.moves(root, 1, 0) if ctx.root_values[m] == value), True
    else:
        best_moves, complete = ((ctx.best_move,) if status == "ok" and ctx.best_move is not None else ()), False
    top = max((k for k, n in enumerate(ctx.per_ply) if n), default=0)
    return SearchResult(
        value=value, best_move=ctx.best_move if status == "ok" else None, best_moves=best_moves,
        best_moves_complete=complete, nodes=ctx.nodes, leaves=ctx.leaves,
        interior=ctx.nodes - ctx.leaves, cutoffs=ctx.cutoffs, per_ply=tuple(ctx.per_ply[:top + 1]),
        iterations=tuple(iterations) or (ctx.nodes,), wall_time=wall, algorithm=algorithm,
        ordering=ordering, engine="reference", depth=int(horizon) if math.isfinite(horizon) else -1,
        status=status, chance_nodes=ctx.chance_nodes,
        extra={"chance_cutoffs": ctx.chance_cutoffs, "probes": ctx.probes,
               "probe_cutoffs": ctx.probe_cutoffs,
               "probe_reuses": ctx.probe_reuses, "bounds": (low, high),
               "outcome_order": outcome_order})
