"""An engine-grade player: one iterative-deepening search per move, with memory.

``EngineSession(game, config)`` plays the moves of one game the way a game engine searches:

- every move is one iterative deepening, depth 1, 2, ..., on one transposition table, one set
  of killer slots and one history table, so each iteration searches the previous one's best
  move first (the table's move at the root and below) and starts from what the earlier
  iterations learnt;
- with ``persist`` (the default) the table, killers and history also carry over from one move
  of the game to the next (the table is aged, ``TranspositionTable.new_search``, at every
  iteration, never cleared); without it every move starts empty;
- a move's budget is either a node budget (``budget_mode="nodes"``: every node of every
  iteration, quiescence nodes included where on, counts against ``nodes``; the iteration that
  runs out is abandoned and the move of the deepest completed iteration is played) or a CPU
  time per move (``budget_mode="cpu"``, below).

Both engines run it: the reference engine (reference.py, pruning.py, ordering.py, tt.py, one
``SearchContext`` per move over the session's table and ``DynamicOrdering``) and the compiled
numba engine (compiled_engine.owned_workspace: the session owns the arrays of the table,
killers and history and hands the same ones to every search, where ``compiled_engine.run``
takes a thread's shared buffers and empties them per search). The two give the same moves,
values and node counts per iteration (tested, also with numba's JIT off); ``engine="auto"``
takes the compiled one wherever it runs the configuration.

CPU-time mode: the clock is ``time.thread_time()`` (CPU seconds of the searching thread: other
processes on a shared machine do not stretch it, as they would a wall clock; its resolution
on Linux is about a microsecond, and its noise from caches and frequency scaling is measured by
benchmarks/engine_matches.py). Iteration k+1 is started only while time is left, and is given
a node cap of the nodes searched so far plus the remaining time times this move's measured
nodes per second; when it reaches the cap it is abandoned as under a node budget. So a move
takes about ``cpu_seconds``, and moves in this mode are not reproducible node for node.

What is counted: ``MoveSearch.nodes`` = every node visited for the move (an abandoned
iteration's included, up to the cap: the node that would pass it is not searched) plus
quiescence nodes, so at most ``nodes`` under a node budget; ``iterations`` the completed iterations (depth, nodes, value,
best move); values are from the game's MAX side. Errors: InvalidParameterError for a bad
configuration value (naming it), UnsupportedError for a combination the game or engine cannot
do (as ``api.search``).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, Hashable

from searchlab.algorithms import compiled_engine, drivers, reference
from searchlab.algorithms.search_api import validate
from searchlab.algorithms.compiled import _engine as K
from searchlab.algorithms.context import SearchContext
from searchlab.algorithms.ordering import make_ordering
from searchlab.algorithms.ordering_registry import ordering_of
from searchlab.algorithms.pruning import Pruning, PruningState, pruned_alphabeta
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import InvalidParameterError, SearchAborted, UnsupportedError
from searchlab.contracts.position import rooted
from searchlab.limits import MAX_COUNT, MAX_TT_SIZE, check_int, excerpt

BUDGET_MODES = ("nodes", "cpu")
SESSION_ENGINES = ("auto", "reference", "compiled")
_NO_LIMIT = 2**62


def engine_ordering(ordering: str, game: Any) -> str:
    """The ordering an engine session searches with: ``ordering`` with a transposition table
    (``tt``: values and best moves) added in front where it has none (``id`` is replaced by
    ``tt``: the session deepens by itself), and, where ``ordering`` names no dynamic
    component at all, killers and history too: "centre" -> "tt+killer+history+centre"."""
    value = ordering_of(ordering, game)
    if not value.dynamic:
        return "+".join(("tt", "killer", "history", *value.parts))
    parts = tuple(p for p in value.parts if p != "id")
    if "tt" not in parts:
        parts = ("tt", *parts)
    return "+".join(parts)


@dataclass(frozen=True)
class SessionConfig:
    """How an engine session searches (the module docstring).

    ``ordering`` passes through ``engine_ordering``; ``nodes`` is the node budget per move
    (``budget_mode="nodes"``) or a safety cap (``"cpu"``, None = none); ``cpu_seconds`` the
    CPU time per move (``"cpu"`` only); ``max_depth`` the deepest iteration; ``persist``
    keeps table, killers and history from move to move; ``tt_size`` a power of two."""

    algorithm: str = "alphabeta"
    ordering: str = "natural"
    pruning: Pruning | None = None
    budget_mode: str = "nodes"
    nodes: int | None = 10_000
    cpu_seconds: float | None = None
    max_depth: int = 64
    persist: bool = True
    tt_size: int = 1 << 16


@dataclass(frozen=True)
class Iteration:
    """One completed iteration: its depth, nodes (quiescence included), root value (MAX's
    view) and best move."""

    depth: int
    nodes: int
    value: float
    best_move: Hashable


@dataclass(frozen=True)
class MoveSearch:
    """A move's search: the move played (the deepest completed iteration's best move; the
    first legal move when none completed), that depth (0: none), every node spent,
    the value (None: none completed), the completed iterations, LMR/null-move re-searches
    and technique firings over the whole move, and the CPU seconds (thread time) it took."""

    move: Hashable
    depth: int
    nodes: int
    value: float | None
    iterations: tuple[Iteration, ...]
    re_searches: int = 0
    fired: dict = field(default_factory=dict)
    cpu_seconds: float = 0.0


def _check_config(cfg: SessionConfig) -> None:
    if not isinstance(cfg, SessionConfig):
        raise InvalidParameterError(f"config must be a SessionConfig; got {excerpt(cfg)}")
    if cfg.budget_mode not in BUDGET_MODES:
        raise InvalidParameterError(f"budget_mode must be one of {', '.join(BUDGET_MODES)}; "
                                    f"got {excerpt(cfg.budget_mode)}")
    if cfg.budget_mode == "nodes" or cfg.nodes is not None:
        check_int("nodes", cfg.nodes, 1, MAX_COUNT)
    if cfg.budget_mode == "cpu":
        c = cfg.cpu_seconds
        if isinstance(c, bool) or not isinstance(c, (int, float)) or not 0 < c < math.inf:
            raise InvalidParameterError(f"cpu_seconds must be a number > 0 with budget_mode "
                                        f"'cpu'; got {excerpt(c)}")
    elif cfg.cpu_seconds is not None:
        raise InvalidParameterError("cpu_seconds is for budget_mode 'cpu'; with 'nodes' give "
                                    "nodes= only")
    check_int("max_depth", cfg.max_depth, 1, 64)
    if not isinstance(cfg.persist, bool):
        raise InvalidParameterError(f"persist must be True or False; got {excerpt(cfg.persist)}")
    t = cfg.tt_size
    if isinstance(t, bool) or not isinstance(t, int) or t < 1 or t & (t - 1) or t > MAX_TT_SIZE:
        raise InvalidParameterError(f"tt_size must be a power of two in [1, {MAX_TT_SIZE}]; "
                                    f"got {excerpt(t)}")


class EngineSession:
    """The engine-grade player of one game (the module docstring). ``choose(state)`` searches
    a state of ``game`` and returns its MoveSearch; ``engine`` is "reference", "compiled" or
    "auto" (compiled where it runs the configuration). Arguments are checked here, before
    any search."""

    def __init__(self, game: Any, config: SessionConfig, engine: str = "auto") -> None:
        _check_config(config)
        if engine not in SESSION_ENGINES:
            raise InvalidParameterError(f"engine must be one of {', '.join(SESSION_ENGINES)}; "
                                        f"got {excerpt(engine)}")
        if config.algorithm not in ("alphabeta", "pvs", "alphabeta-failhard"):
            raise InvalidParameterError(f"algorithm must be alphabeta, pvs or alphabeta-failhard "
                                        f"in an engine session; got {excerpt(config.algorithm)}")
        self.game, self.config = game, config
        self.ordering = engine_ordering(config.ordering, game)
        validate(game, config.algorithm, self.ordering, config.max_depth, 0, "reference",
                 None, None, config.tt_size, config.pruning)
        if ordering_of(self.ordering, game).oracle:
            raise UnsupportedError("an engine session cannot use an exact-value oracle ordering")
        self.pruned = config.pruning is not None and bool(config.pruning.active())
        ok = compiled_engine.supports(game, config.algorithm, self.ordering, config.pruning,
                                      config.max_depth)
        if engine == "compiled" and not ok:
            raise UnsupportedError(f"no compiled engine for {config.algorithm}/{self.ordering} "
                                   f"on {game.name}; use engine='reference'")
        self.engine = "compiled" if ok and engine != "reference" else "reference"
        self.moves_searched = 0
        self._fresh()

    # --- state kept between moves ------------------------------------------------------------
    def _fresh(self) -> None:
        """Empty table, killers and history (a new game, or every move without ``persist``)."""
        cfg = self.config
        self._deepest = 0       # the deepest iteration (started) of the moves since then
        if self.engine == "compiled":
            if getattr(self, "_E", None) is None:
                self._module, self._E = compiled_engine.owned_workspace(
                    self.game, cfg.algorithm, self.ordering, cfg.pruning, cfg.max_depth + 1,
                    cfg.tt_size)
                self._cg = compiled_engine.compiled_game(self.game)
            else:
                E = self._E
                E[6][K.P_AGE0] = E[4][K.C_AGE] + 1      # every entry so far reads as empty
                E[4][K.C_AGE] = E[6][K.P_AGE0]
                E[12].fill(-1)
                E[13].fill(0)
            return
        self._table = TranspositionTable(cfg.tt_size, values=True)
        self._order = make_ordering(self.ordering, self.game, cfg.max_depth, 0,
                                    table=self._table)

    def new_game(self) -> None:
        """Forget everything learnt (table, killers, history)."""
        self._fresh()

    # --- one move ------------------------------------------------------------------------------
    def choose(self, state: Any) -> MoveSearch:
        """Search ``state`` (not terminal) under the move's budget; see MoveSearch."""
        game, cfg = self.game, self.config
        if game.is_terminal(state):
            raise InvalidParameterError("choose needs a non-terminal state")
        if self.moves_searched and not cfg.persist:
            self._fresh()
        self.moves_searched += 1
        root = rooted(game, state)
        t0 = time.thread_time()
        run = self._move_compiled if self.engine == "compiled" else self._move_reference
        self._quiet_end = False
        iters, nodes, re_searches, fired = run(root, t0)
        self._deepest = max(self._deepest, len(iters) + 1)     # the abandoned one stored too
        cpu = time.thread_time() - t0
        if iters:
            last = iters[-1]
            return MoveSearch(last.best_move, last.depth, nodes, last.value, tuple(iters),
                              re_searches, fired, cpu)
        return MoveSearch(list(game.legal_moves(root))[0], 0, nodes, None, (), re_searches,
                          fired, cpu)

    def _ended(self, iters: list, no_horizon_node: bool, no_table_cut: bool) -> bool:
        """True when the last iteration shows that deeper ones would search the same tree: it
        visited no node at its horizon and either took no value from the table, or the
        iteration before it also visited none there, both gave the same value and move, and it
        is deeper than one plus the deepest iteration of the earlier moves (whose table values
        answer a move's early iterations without a node at their horizon). A table value stored
        by an earlier move may stand for a subtree that did reach a horizon, so a table cut
        alone does not prove the tree ended; two equal iterations without a horizon node are
        taken as the end, as engines stop on a proven result."""
        if not no_horizon_node:
            self._quiet_end = False
            return False
        if no_table_cut:
            return True
        same = len(iters) > 1 and (iters[-1].value, iters[-1].best_move) == \
            (iters[-2].value, iters[-2].best_move) and iters[-1].depth > self._deepest + 1
        ended = self._quiet_end and same
        self._quiet_end = True
        return ended

    def _cap(self, used: int, t0: float, iters: list) -> int | None:
        """The total-node cap for the next iteration of this move, or None: do not start it."""
        cfg = self.config
        hard = _NO_LIMIT if cfg.nodes is None else cfg.nodes
        if used >= hard:
            return None
        if cfg.budget_mode == "nodes":
            return hard
        spent = time.thread_time() - t0
        left = cfg.cpu_seconds - spent
        if left <= 0:
            return None
        if not iters or spent <= 0:
            return hard
        rate = used / spent
        return min(hard, used + max(1, int(rate * left)))

    def _move_reference(self, root: Any, t0: float) -> tuple[list, int, int, dict]:
        cfg, game = self.config, self.game
        algo = pruned_alphabeta if self.pruned else reference.ALGORITHMS[cfg.algorithm]
        ctx = SearchContext(game=game, depth=1, max_nodes=math.inf, child=algo, tt=self._table,
                            pruning=PruningState(cfg.pruning) if self.pruned else None)
        ctx.order, ctx.on_cut = self._order.order, self._order.on_cut
        iters: list[Iteration] = []

        def used() -> int:
            return ctx.nodes + (ctx.pruning.q_nodes if ctx.pruning is not None else 0)

        spent = None
        for k in range(1, cfg.max_depth + 1):
            cap = self._cap(used(), t0, iters)
            if cap is None:
                break
            ctx.max_nodes = cap
            ctx.depth = k
            self._table.new_search()
            start, at_k = used(), (ctx.per_ply[k] if k < len(ctx.per_ply) else 0)
            cuts = self._table.cutoffs
            try:
                v = drivers.search_root(root, ctx, cfg.algorithm)
            except SearchAborted:
                spent = cap             # the node over the cap was counted, never searched
                break
            iters.append(Iteration(k, used() - start, float(v), ctx.best_move))
            if self._ended(iters, (ctx.per_ply[k] if k < len(ctx.per_ply) else 0) == at_k,
                           self._table.cutoffs == cuts):
                break
        fired = dict(ctx.pruning.fired) if ctx.pruning is not None else {}
        return iters, used() if spent is None else spent, ctx.re_searches, fired

    def _move_compiled(self, root: Any, t0: float) -> tuple[list, int, int, dict]:
        cfg, E, module = self.config, self._E, self._module
        cg = self._cg
        cnt, per_ply, ip, fp = E[4], E[5], E[6], E[7]
        age = int(cnt[K.C_AGE])
        cnt.fill(0)
        cnt[K.C_AGE] = age
        per_ply.fill(0)
        E[0][0] = cg.encode(root)
        iters: list[Iteration] = []

        def used() -> int:
            return int(cnt[K.C_NODES]) + (int(cnt[K.C_QNODES]) if self.pruned else 0)

        spent = None
        for k in range(1, cfg.max_depth + 1):
            cap = self._cap(used(), t0, iters)
            if cap is None:
                break
            ip[K.P_MAXNODES] = cap
            fp[K.F_DEPTH] = k
            cnt[K.C_AGE] += 1
            cnt[K.C_BEST] = -1
            start, at_k, cuts = used(), int(per_ply[k]), int(cnt[K.C_TTCUT])
            v = compiled_engine.root_search(module, E, -math.inf, math.inf)
            if cnt[K.C_ABORT]:
                spent = cap
                break
            iters.append(Iteration(k, used() - start, float(v), cg.move_of(int(cnt[K.C_BEST]))))
            if self._ended(iters, int(per_ply[k]) == at_k, int(cnt[K.C_TTCUT]) == cuts):
                break
        fired = {name: int(cnt[i]) for name, i in K.FIRED.items() if cnt[i]} if self.pruned \
            else {}
        return iters, used() if spent is None else spent, int(cnt[K.C_RE]), fired
