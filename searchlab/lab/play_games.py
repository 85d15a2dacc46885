"""The games of "Play and compare": positions as the Python API's strings, the board as JSON,
the engine's move with its principal variation, and the comparison of the algorithms.

The games are the game registry's (searchlab.games.registry): one the lab draws declares a
``LabBoard`` (its ``lab_board``), whose positions are the strings its game's ``from_text``
takes (docs/games.md): tic-tac-toe cells "4 0 8", Connect Four columns "4455" (1 = leftmost),
Othello squares "f5d6c3", Hex the size and the moves "7 d4 c5" or a diagram "..X/.O./...".
Every other registered game (plug-ins included) gets the generic view
(searchlab.lab.generic_view): its position is the line of move names from the start, its
moves are named by the entry's ``format_move``, and a move's JSON identity is its name. Every
value below is from the side to move's point of view (a search's value for MAX, negated where
MAX is not to move at the position's root). Every search is ``searchlab.search`` (engine
"auto": the compiled engine where it runs the combination, the reference engine else; engine
"reference" for a policy naming a plug-in ordering component, which has no compiled twin): the
figures returned are its SearchResult's.

The game menu's orderings (``orderings()``) are the fixed ``ORDERINGS`` followed by one policy
per registered plug-in ordering component (``plugin_policies``: an entry point of
``searchlab.orderings``, or a module calling ``register_component`` that the server and its
workers import, ``--plugin`` / ``create_app(plugins=)``).
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass, replace
from typing import Any

from searchlab.algorithms.algorithm_registry import plugin_algorithm, plugin_names
from searchlab.algorithms.ordering_registry import component, component_names, describe as describe_ordering
from searchlab.algorithms.search_api import search
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.algorithms.tree_count import count_tree
from searchlab.contracts.result import SearchResult
from searchlab.analysis.estimators import rn_bstar
from searchlab.errors import SearchAborted, SearchlabError, TreeTooLargeError
from searchlab.errors import InvalidParameterError
from searchlab.games.registry import GameEntry, LabBoard, entry, game_names
from searchlab.lab.generic_view import GENERIC_HOOKS, generic_board, named_moves, state_text
from searchlab.lab.requests import (COUNT_SECONDS, MAX_GAME_DEPTH, MAX_NODES_COMPILED, MAX_NODES_REFERENCE,
                                    MAX_PV, MINIMAL_TREE_LEAVES, MINIMAL_TREE_SECONDS, MINIMAX_BUDGET, ORACLE_LIMIT, LabError, choice,
                                    integer, text)
from searchlab.lab.trees import jnum
from searchlab.limits import excerpt

ALGORITHMS = ("alphabeta", "pvs", "mtdf", "minimax", "alphabeta-failhard")


@dataclass(frozen=True)
class GameKind:
    """How the lab handles one registered game: its view (a LabBoard: position strings, the
    side to move, the board's cells, the moves' names), drawn or generic."""

    name: str
    label: str
    own: str                                  # the game's own ordering ("static" if none)
    default_depth: int                        # the page's and Compare's default horizon
    view: LabBoard
    drawn: bool                               # the lab draws its board (else: generic view)
    sides: tuple[str, str]                    # (first player, second player) as the page names them

    def build(self, position: str) -> Any:
        """The game rooted at ``position`` (the view's parser's errors as they are)."""
        return self.view.build(position)


def kind_of(e: GameEntry) -> GameKind:
    """The lab's handling of a registered game: its LabBoard if it declares one (drawn where
    the LabBoard gives cells), else the generic view's."""
    view = e.lab_board
    if view is None:
        view = generic_board(e)
    elif any(getattr(view, f) is None for f in GENERIC_HOOKS):
        # its own hooks, the generic view's where it gives none
        generic = generic_board(e)
        view = replace(view, **{f: getattr(generic, f) for f in GENERIC_HOOKS
                                if getattr(view, f) is None})
    drawn = view.cells is not None
    # the game's sides (GameEntry.sides, capitalised), or its drawing's pieces where it names them
    sides = view.pieces or tuple(s[:1].upper() + s[1:] for s in e.sides)
    return GameKind(e.name, e.display, e.own_ordering or "static",
                    max(1, min(view.depth, MAX_GAME_DEPTH)), view, drawn, sides)


def lab_games() -> dict[str, GameKind]:
    """Every registered game the lab offers, in display order (a plug-in that fails to build
    its view is left out: one broken plug-in does not take the page down)."""
    out = {}
    for name in game_names():
        try:
            out[name] = kind_of(entry(name))
        except Exception:  # noqa: BLE001 -- a broken plug-in; its requests name the error
            continue
    return out


#: the games the lab draws (the others are shown by the generic view)
GAMES: dict[str, GameKind] = {k: g for k, g in lab_games().items() if g.drawn}
ORDERINGS = ("natural", "random", "static", "perfect", "worst", "own", "id+tt+killer+history")


def plugin_policies() -> tuple[str, ...]:
    """The menu's entry of each registered plug-in ordering component (one carrying its own
    reference code, ``Component.plugin``), in registration order: a base order NAME as
    ``NAME``; a dynamic component NAME as ``id+tt+NAME`` (iterative deepening and the table,
    as the built-in dynamic entry has, with NAME as the only heuristic and natural as the
    base). A shorthand is left out: it only names other registered components."""
    policy = {"base": "{}", "dynamic": "id+tt+{}"}
    out = []
    for name in component_names():
        c = component(name)
        if c.plugin and c.kind in policy:
            out.append(policy[c.kind].format(name))
    return tuple(out)


def orderings() -> tuple[str, ...]:
    """The game menu's orderings: ORDERINGS, then the plug-in policies (plugin_policies)."""
    return ORDERINGS + plugin_policies()


def algorithms() -> tuple[str, ...]:
    """The game menu's algorithms: ALGORITHMS, then the registered plug-in algorithms
    (searchlab.algorithms.algorithm_registry; reference engine only)."""
    return ALGORITHMS + plugin_names()


def _reference_only(ordering: str, algorithm: str = "alphabeta") -> bool:
    """Whether the search runs on the reference engine only: an exact-value oracle (perfect,
    worst), a plug-in ordering component or a plug-in algorithm (no compiled twin)."""
    return ordering in ("perfect", "worst") or bool(describe_ordering(ordering).plugins) \
        or plugin_algorithm(algorithm) is not None


def game_kind(body: dict) -> GameKind:
    """The request's ``game``: any registered game's name."""
    name = choice(body, "game", game_names())
    try:
        return kind_of(entry(name))
    except SearchlabError as e:
        raise LabError(f"game {name}: {str(e).splitlines()[0]}") from None


def build(kind: GameKind, position: str) -> Any:
    """The game rooted at ``position``; LabError with the parser's one-line message."""
    try:
        return kind.build(position)
    except SearchlabError as e:
        raise LabError(f"position: {str(e).splitlines()[0]}") from None


def for_mover(game: Any, value: Any) -> Any:
    """A value for MAX of ``game`` as the side to move at its root sees it (the drawn games
    are rooted with MAX to move; a generic game rooted by with_root may keep its first player
    as MAX)."""
    if value is None or value == 0 or game.max_to_move(game.initial_state()):
        return value
    return -value


def board(kind: GameKind, state: Any) -> dict | None:
    """Rows of cells top to bottom: 1 = first player's stone, 2 = second's, 0 = empty (None:
    the generic view, no drawing)."""
    if not kind.drawn:
        return None
    cells = kind.view.cells(state)
    return {"rows": len(cells), "cols": len(cells[0]), "cells": cells}


def move_name(kind: GameKind, game: Any, move: Any) -> str:
    return kind.view.move_name(game, move)


def move_id(kind: GameKind, game: Any, move: Any) -> Any:
    """A move as the JSON API carries it: the move itself where it is an int or a string (the
    built-ins' squares and columns, chess's UCI), else its name (a plug-in's moves need not be
    JSON values: Nim's (heap, take) tuples)."""
    if move is None or type(move) in (int, str):
        return move
    return move_name(kind, game, move)


def move_of(kind: GameKind, game: Any, mid: Any) -> Any:
    """The legal move at the game's root whose JSON identity is ``mid`` (move_id's inverse)."""
    for m in game.legal_moves(game.initial_state()):
        if move_id(kind, game, m) == mid:
            return m
    raise LabError(f"move {excerpt(mid)} is not legal here")


def move_cell(kind: GameKind, game: Any, move: Any) -> list | None:
    """[row, col] of the cell a move fills, or None (a pass; Connect Four's columns, whose
    landing cell the page finds)."""
    return kind.view.move_cell(game, move)


def after(kind: GameKind, position: str, game: Any, move: Any) -> str:
    """The position string after ``move``, in the same format as ``position``."""
    return kind.view.after(position, game, move)


def describe(kind: GameKind, position: str) -> dict:
    """The position as the page draws it: board (None in the generic view, which has the
    position's ``text`` instead), side to move, legal moves, the outcome."""
    game = build(kind, position)
    state = game.initial_state()
    first = kind.view.first_to_move(state)
    terminal = game.is_terminal(state)
    out: dict[str, Any] = {
        "game": kind.name, "label": kind.label, "position": position, "board": board(kind, state),
        "view": "board" if kind.drawn else "generic",
        "to_move": kind.sides[0 if first else 1], "first_to_move": first, "terminal": terminal,
        "legal": [{"move": move_id(kind, game, m), "name": move_name(kind, game, m),
                   "cell": move_cell(kind, game, m), "next": after(kind, position, game, m)}
                  for m in game.legal_moves(state)],
        "default_depth": kind.default_depth, "own_ordering": kind.own,
        "drawing": kind.view.drawing(),
        **kind.view.extra(game),
    }
    if not kind.drawn:
        out["text"] = state_text(game, state)
        try:                    # the generic view plays a move by its name: names must differ
            named_moves(game, state, lambda m: move_name(kind, game, m))
        except InvalidParameterError as e:
            raise LabError(str(e).splitlines()[0]) from None
    if terminal:
        u = for_mover(game, game.utility(state))
        mover, other = kind.sides[0 if first else 1], kind.sides[1 if first else 0]
        out["outcome"] = "draw" if u == 0 else (f"{mover} wins" if u > 0 else f"{other} wins")
        if kind.view.score:
            out["outcome"] += f" (score {jnum(u):+} for {mover})" if u else ""
    return out


def _ordering(kind: GameKind, ordering: str) -> str:
    if ordering == "own":
        return kind.own
    if ordering == "id+tt+killer+history":
        return f"id+tt+killer+history+{kind.own}"
    return ordering


def _budget(ordering: str, max_nodes: int | None, algorithm: str = "alphabeta") -> int:
    cap = MAX_NODES_REFERENCE if _reference_only(ordering, algorithm) else MAX_NODES_COMPILED
    return cap if max_nodes is None else min(max_nodes, cap)


def _run(game: Any, algorithm: str, ordering: str, depth: int, max_nodes: int,
         oracle_limit: int = ORACLE_LIMIT) -> SearchResult:
    # a plug-in's policy or algorithm is searched on the reference engine by name ("auto"
    # would fall back to it too, but the lab says so rather than relying on the fallback)
    plugin = describe_ordering(ordering).plugins or plugin_algorithm(algorithm) is not None
    engine = "reference" if plugin else "auto"
    try:
        return search(game, algorithm, ordering, depth=depth, max_nodes=max_nodes,
                      oracle_limit=oracle_limit, engine=engine)
    except TreeTooLargeError:
        raise
    except SearchlabError as e:
        raise LabError(str(e).splitlines()[0]) from None


def result_dict(kind: GameKind, game: Any, r: SearchResult) -> dict:
    """search()'s figures, with the move's name and the EBF (R&N b*: nodes = sum b*^k)."""
    ok = r.status == "ok"
    return {"algorithm": r.algorithm, "ordering": r.ordering, "engine": r.engine,
            "status": r.status, "value": jnum(for_mover(game, r.value)) if ok else None,
            "best_move": move_id(kind, game, r.best_move) if ok else None,
            "best_move_name": move_name(kind, game, r.best_move) if ok and r.best_move is not None
            else None,
            "nodes": r.nodes, "leaves": r.leaves, "cutoffs": r.cutoffs, "depth": r.depth,
            "wall_time": r.wall_time,
            "ebf": rn_bstar(r.nodes, r.depth) if ok and r.depth >= 1 and r.nodes > r.depth + 1
            else None}


def principal_variation(kind: GameKind, position: str, game: Any, r: SearchResult,
                        algorithm: str, ordering: str, max_nodes: int) -> list[dict]:
    """The engine's principal variation: its best move, then the best move of a search of the
    position after it at one ply less, and so on (a fixed-depth search's value passes to the
    child unchanged, negated for the other side; the line stops where a search disagrees, is
    aborted, or the game ends). At most MAX_PV moves."""
    line: list[dict] = []
    value, move, depth, pos, g = for_mover(game, r.value), r.best_move, r.depth, position, game
    while move is not None and len(line) < MAX_PV:
        line.append({"move": move_id(kind, g, move), "name": move_name(kind, g, move),
                     "cell": move_cell(kind, g, move),
                     "position": after(kind, pos, g, move)})
        pos = line[-1]["position"]
        depth -= 1
        g = build(kind, pos)
        if depth < 1 or g.is_terminal(g.initial_state()):
            break
        child = _run(g, algorithm, ordering, depth, max_nodes)
        if child.status != "ok" or for_mover(g, child.value) != -value:
            break
        value, move = for_mover(g, child.value), child.best_move
    return line


def engine_move(body: dict) -> dict:
    """The engine's search of the position: search()'s figures, its move and its PV."""
    kind = game_kind(body)
    position = text(body, "position")
    algorithm = choice(body, "algorithm", algorithms(), "alphabeta")
    ordering = _ordering(kind, choice(body, "ordering", orderings(), "id+tt+killer+history"))
    depth = integer(body, "depth", 1, MAX_GAME_DEPTH, kind.default_depth)
    max_nodes = integer(body, "max_nodes", 1, MAX_NODES_COMPILED, None, optional=True)
    game = build(kind, position)
    if game.is_terminal(game.initial_state()):
        raise LabError("position: the game is over; there is no move to search", 422)
    budget = _budget(ordering, max_nodes, algorithm)
    try:
        r = _run(game, algorithm, ordering, depth, budget)
    except TreeTooLargeError as e:
        raise LabError(f"ordering {ordering}: {str(e).splitlines()[0]}", 422) from None
    out = result_dict(kind, game, r)
    out["budget"] = budget
    out["pv"] = principal_variation(kind, position, game, r, algorithm, ordering, budget) \
        if r.status == "ok" else []
    return out


def _position(body: dict, what: str) -> tuple[GameKind, str, int, Any]:
    kind = game_kind(body)
    position = text(body, "position")
    depth = integer(body, "depth", 1, MAX_GAME_DEPTH, kind.default_depth)
    game = build(kind, position)
    if game.is_terminal(game.initial_state()):
        raise LabError(f"position: the game is over; there is nothing to {what}", 422)
    return kind, position, depth, game


def compare_configs(kind: GameKind) -> list[tuple[str, str]]:
    """Compare's rows but perfect, in the table's order (minimax first)."""
    return [("minimax", "natural"), ("alphabeta", "worst"), ("alphabeta", "natural"),
            ("alphabeta", "random"), ("alphabeta", kind.own),
            ("alphabeta", f"id+tt+killer+history+{kind.own}")]


def _minimax_row(kind: GameKind, game: Any, depth: int) -> dict:
    """Minimax's row: searched within MINIMAX_BUDGET nodes; past it, the depth-limited tree
    counted instead (status "counted": the exact nodes and leaves minimax would visit, no move
    or value), or, if the count takes over COUNT_SECONDS, "aborted" with the budget it passed."""
    t0 = time.perf_counter()
    r = _run(game, "minimax", "natural", depth, MINIMAX_BUDGET)
    row = result_dict(kind, game, r)
    if r.status != "aborted":
        return row
    try:
        nodes, leaves = count_tree(game, depth, max_seconds=COUNT_SECONDS)
    except SearchAborted:
        row["note"] = (f"infeasible here: stopped after {r.nodes:,} nodes (the budget); a full "
                       f"minimax search to depth {depth} needs more, and counting its tree took "
                       f"over {COUNT_SECONDS:g} s")
        return row
    return {"algorithm": "minimax", "ordering": "natural", "engine": "counted",
            "status": "counted", "value": None, "best_move": None, "best_move_name": None,
            "nodes": nodes, "leaves": leaves, "cutoffs": 0, "depth": depth,
            "wall_time": time.perf_counter() - t0,
            "ebf": rn_bstar(nodes, depth) if depth >= 1 and nodes > depth + 1 else None,
            "note": f"counted, not searched: the depth-{depth} tree has {nodes:,} nodes, every "
                    f"one of which minimax visits (a search stops at {MINIMAX_BUDGET:,})"}


def compare_row(kind: GameKind, position: str, game: Any, depth: int, index: int,
                minimax: dict | None = None) -> dict:
    """Row ``index`` of ``compare_configs`` (``minimax``: the minimax row if already made;
    the worst-order row depends on it). An ok row carries ``move_value``, its move's value."""
    algorithm, ordering = compare_configs(kind)[index]
    if algorithm == "minimax":
        row = _minimax_row(kind, game, depth)
    elif ordering == "worst" and (minimax or _minimax_probe(game, depth))["status"] != "ok":
        minimax = minimax or {}
        counted = minimax.get("status") == "counted"
        row = {"algorithm": algorithm, "ordering": ordering, "status": "not run", "wall_time": 0.0,
               "note": "under worst order alpha-beta searches every node minimax does (fewer only "
                       "where ties cut), and minimax needs more than "
                       f"{MINIMAX_BUDGET:,} nodes at depth {depth} here"
                       + (f": at most {minimax['nodes']:,} nodes, minimax's count" if counted
                          else ""),
               "at_most": minimax["nodes"] if counted else None}
    else:
        t0 = time.perf_counter()
        try:
            r = _run(game, algorithm, ordering, depth, _budget(ordering, None))
        except TreeTooLargeError:
            known = minimax is not None and minimax.get("nodes") is not None
            return {"algorithm": algorithm, "ordering": ordering, "status": "not run",
                    "note": f"the exact-value oracle of {ordering} ordering (reference engine) "
                            f"would evaluate more than {ORACLE_LIMIT:,} leaves at depth {depth}"
                            + (f"; alpha-beta under it searches at most minimax's "
                               f"{minimax['nodes']:,} nodes (all of them unless ties cut)"
                               if known and ordering == "worst" else ""),
                    "at_most": minimax["nodes"] if known and ordering == "worst" else None,
                    "wall_time": time.perf_counter() - t0}
        row = result_dict(kind, game, r)
        if r.status == "aborted":
            row["note"] = (f"infeasible here: stopped after {r.nodes:,} nodes (the budget); "
                           f"a full {algorithm} search to depth {depth} needs more")
    if row["status"] == "ok" and row["best_move"] is not None:
        row["move_value"] = _move_value(kind, position, game,
                                        move_of(kind, game, row["best_move"]), depth)
    return row


def _minimax_probe(game: Any, depth: int) -> dict:
    """Whether minimax finishes within its budget (for the worst row asked for alone)."""
    r = _run(game, "minimax", "natural", depth, MINIMAX_BUDGET)
    return {"status": r.status}


def compare(body: dict) -> dict:
    """Search the position with minimax and alpha-beta under every ordering, same depth.

    Rows (``compare_configs``): minimax (natural order; over MINIMAX_BUDGET nodes its tree is
    counted instead, status "counted", ``_minimax_row``), then alpha-beta under worst,
    natural, random, the game's own and id+tt+killer+history+own. Worst order is an
    exact-value oracle of the reference engine: it is run only where minimax finished (under
    worst order alpha-beta searches, ties aside, every node minimax does) and the oracle stays
    within ORACLE_LIMIT leaves; else its row is "not run" with the number that rules it out
    (and, where minimax was counted, that count as its bound, ``at_most``). The perfect-ordering
    row is not here: it is the position's minimal tree (``minimal_row``, /api/minimal), which
    can take seconds, so the page asks for it after this answer (``pending`` names it).
    ``agree`` states whether every finished row found the same value and the same move.

    ``row`` (optional, an index into compare_configs): only that row (``rows`` has one
    entry), so that the page can show the rows as they finish and stop between them.
    """
    kind, position, depth, game = _position(body, "compare")
    n = len(compare_configs(kind))
    only = integer(body, "row", 0, n - 1, None, optional=True)
    rows: list[dict] = []
    for index in range(n) if only is None else [only]:
        rows.append(compare_row(kind, position, game, depth, index,
                                rows[0] if rows and index else None))
    out = {"game": kind.name, "position": position, "depth": depth, "rows": rows,
           "pending": [{"algorithm": "alphabeta", "ordering": "perfect", "endpoint": "minimal"}]}
    return out if only is not None else {**out, **agreement(kind, position, game, depth, rows)}


def agreement(kind: GameKind, position: str, game: Any, depth: int, rows: list[dict]) -> dict:
    """Whether the finished rows agree on the value and the move; each chosen move's value."""
    done = [x for x in rows if x["status"] == "ok"]
    values = {x["value"] for x in done}
    moves = sorted({x["best_move"] for x in done if x["best_move"] is not None})
    known = {x["best_move"]: x["move_value"] for x in done if "move_value" in x}
    return {"agree_value": len(values) == 1, "agree_move": len(moves) == 1,
            "values": sorted(values, key=str),
            "moves": [{"move": m, "name": move_name(kind, game, move_of(kind, game, m)),
                       "value": known[m] if m in known else
                       _move_value(kind, position, game, move_of(kind, game, m), depth)}
                      for m in moves]}


class _OutOfTime(BaseException):
    """The minimal tree's time is up (a BaseException: no ``except Exception`` on the way
    out of the search may swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float):
    """Raise _OutOfTime in this thread after ``seconds`` (SIGALRM: the main thread of a Unix
    process, as in the lab's worker processes; elsewhere no limit is set, and the app's
    wall-clock cap, which kills the worker, is the only bound)."""
    usable = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def ring(signum, frame):
        raise _OutOfTime

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def minimal_row(body: dict) -> dict:
    """Compare's perfect-ordering row: the position's minimal tree (searchlab.algorithms.
    minimal_tree: the nodes and leaves of search(game, "alphabeta", "perfect"), its value and
    best move, with the children's exact values from the compiled engine). It is tried where
    Knuth and Moore's b^ceil(d/2) + b^floor(d/2) - 1 leaves (b = the legal moves here) is at
    most MINIMAL_TREE_LEAVES or the whole tree has at most MINIMAX_BUDGET nodes (minimax
    finishes within its budget: tic-tac-toe's start, whose estimate is 65,609 leaves), and
    given MINIMAL_TREE_SECONDS; else the row is "not run", and
    its note gives that size (every node of the tree needs an exact-value search of each
    child) and which limit ruled it out. ``move_value``: the
    value of its move searched on to the same horizon (as in Compare's ``moves``)."""
    kind, position, depth, game = _position(body, "compare")
    t0 = time.perf_counter()
    row: dict[str, Any] = {"algorithm": "alphabeta", "ordering": "perfect", "engine": "minimal_tree"}
    b = len(list(game.legal_moves(game.initial_state())))
    leaves = b ** ((depth + 1) // 2) + b ** (depth // 2) - 1
    size = (f"its minimal tree has about {leaves:,} leaves here (Knuth and Moore's "
            f"b^⌈d/2⌉ + b^⌊d/2⌋ − 1 with b = {b}, d = {depth}), each node needing an exact-value "
            f"search of every child")
    if leaves > MINIMAL_TREE_LEAVES and _minimax_probe(game, depth)["status"] != "ok":
        row.update(status="not run", wall_time=time.perf_counter() - t0,
                   note=f"{size}: over the {MINIMAL_TREE_LEAVES:,} the lab computes in a request, "
                        f"and the whole tree has more than {MINIMAX_BUDGET:,} nodes")
        return row
    try:
        with _time_limit(MINIMAL_TREE_SECONDS):
            m = minimal_tree(game, depth)
    except _OutOfTime:
        row.update(status="not run", wall_time=time.perf_counter() - t0,
                   note=f"{size}: not finished within {MINIMAL_TREE_SECONDS:g} s")
        return row
    except SearchlabError as e:
        raise LabError(str(e).splitlines()[0]) from None
    row.update(status="ok", value=jnum(for_mover(game, m.value)), best_move=move_id(kind, game, m.best_move),
               best_move_name=move_name(kind, game, m.best_move) if m.best_move is not None else None,
               nodes=m.nodes, leaves=m.leaves, cutoffs=None, depth=m.depth,
               wall_time=time.perf_counter() - t0,
               ebf=rn_bstar(m.nodes, m.depth) if m.depth >= 1 and m.nodes > m.depth + 1 else None,
               oracle_searches=m.oracle_searches)
    if m.best_move is not None:
        row["move_value"] = _move_value(kind, position, game, m.best_move, depth)
    return row


def _move_value(kind: GameKind, position: str, game: Any, move: int, depth: int) -> Any:
    """The value (for the side to move) of playing ``move`` and searching on to the same
    horizon: equal to the root value exactly when the move is optimal, so rows that chose
    different moves of equal value are shown to agree. None if that search was stopped."""
    child = build(kind, after(kind, position, game, move))
    state = child.initial_state()
    if child.is_terminal(state):
        return jnum(-for_mover(child, child.utility(state)))
    if depth == 1:
        return jnum(-for_mover(child, child.evaluate(state)))  # what a depth-1 search sees at the horizon
    r = _run(child, "alphabeta", f"id+tt+killer+history+{kind.own}", depth - 1,
             MAX_NODES_COMPILED)
    return jnum(-for_mover(child, r.value)) if r.status == "ok" else None
