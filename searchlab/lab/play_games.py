"""The games of "Play and compare": positions as the Python API's strings, the board as JSON,
the engine's move with its principal variation, and the comparison of the algorithms.

Positions are the strings each game's ``from_text`` takes (docs/games.md): tic-tac-toe cells
"4 0 8", Connect Four columns "4455" (1 = leftmost), Othello squares "f5d6c3", Hex the size and
the moves "7 d4 c5" or a diagram "..X/.O./...". A game rooted at a position has MAX = the side
to move there, so every value below is from the side to move's point of view. Every search is
``searchlab.search`` (engine "auto": the compiled engine where it runs the combination, the
reference engine else): the figures returned are its SearchResult's.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from searchlab.algorithms.search_api import search
from searchlab.algorithms.minimal_tree import minimal_tree
from searchlab.algorithms.tree_count import count_tree
from searchlab.contracts.result import SearchResult
from searchlab.analysis.estimators import rn_bstar
from searchlab.errors import SearchAborted, SearchlabError, TreeTooLargeError
from searchlab.games import hex as hexgame, othello
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import PASS, Othello
from searchlab.games.tictactoe import TicTacToe
from searchlab.lab.requests import (COUNT_SECONDS, MAX_GAME_DEPTH, MAX_NODES_COMPILED, MAX_NODES_REFERENCE,
                                    MAX_PV, MINIMAL_TREE_LEAVES, MINIMAL_TREE_SECONDS, MINIMAX_BUDGET, ORACLE_LIMIT, LabError, choice,
                                    integer, text)
from searchlab.lab.trees import jnum

ALGORITHMS = ("alphabeta", "pvs", "mtdf", "minimax", "alphabeta-failhard")


@dataclass(frozen=True)
class GameKind:
    """How the lab handles one game: building it from a position string, the board, moves."""

    name: str
    label: str
    own: str                                  # the game's own ordering ("static" if none)
    default_depth: int                        # the page's and Compare's default horizon
    build: Callable[[str], Any]
    sides: tuple[str, str]                    # (first player, second player)


def _hex_build(position: str) -> Hex:
    return Hex.from_text(position if position.strip() else "7")


GAMES: dict[str, GameKind] = {
    "tictactoe": GameKind("tictactoe", "Tic-tac-toe", "static", 9, TicTacToe.from_text, ("X", "O")),
    "connect4": GameKind("connect4", "Connect Four", "centre", 10, ConnectFour.from_text,
                         ("Red", "Yellow")),
    "othello": GameKind("othello", "Othello", "corners", 8, Othello.from_text, ("Black", "White")),
    "hex": GameKind("hex", "Hex", "adjacent", 5, _hex_build, ("X (top-bottom)", "O (left-right)")),
}
ORDERINGS = ("natural", "random", "static", "perfect", "worst", "own", "id+tt+killer+history")


def game_kind(body: dict) -> GameKind:
    return GAMES[choice(body, "game", tuple(GAMES))]


def build(kind: GameKind, position: str) -> Any:
    """The game rooted at ``position``; LabError with the parser's one-line message."""
    try:
        return kind.build(position)
    except SearchlabError as e:
        raise LabError(f"position: {str(e).splitlines()[0]}") from None


def _first_to_move(kind: GameKind, state: Any) -> bool:
    if kind.name == "tictactoe":
        return state.x_to_move
    if kind.name == "connect4":
        return state.first_player_to_move
    if kind.name == "othello":
        return state.black_to_move
    return state.x_to_move


def board(kind: GameKind, state: Any) -> dict:
    """Rows of cells top to bottom: 1 = first player's stone, 2 = second's, 0 = empty."""
    if kind.name == "tictactoe":
        cells = [[1 if state.x >> (3 * r + c) & 1 else 2 if state.o >> (3 * r + c) & 1 else 0
                  for c in range(3)] for r in range(3)]
    elif kind.name == "connect4":
        first = state.current if state.plies % 2 == 0 else state.current ^ state.mask
        cells = [[(1 if first >> (7 * c + r) & 1 else 2) if state.mask >> (7 * c + r) & 1 else 0
                  for c in range(7)] for r in range(5, -1, -1)]
    elif kind.name == "othello":
        cells = [[1 if state.black >> (8 * r + c) & 1 else 2 if state.white >> (8 * r + c) & 1
                  else 0 for c in range(8)] for r in range(8)]
    else:
        n = state.n
        cells = [[1 if state.x >> (r * n + c) & 1 else 2 if state.o >> (r * n + c) & 1 else 0
                  for c in range(n)] for r in range(n)]
    return {"rows": len(cells), "cols": len(cells[0]), "cells": cells}


def move_name(kind: GameKind, game: Any, move: int) -> str:
    if kind.name == "tictactoe":
        return str(move)
    if kind.name == "connect4":
        return str(move + 1)
    if kind.name == "othello":
        return othello.square_name(move)
    return hexgame.cell_name(move, game.n)


def move_cell(kind: GameKind, game: Any, move: int) -> list | None:
    """[row, col] of the cell a move fills (Connect Four: the column's lowest empty cell)."""
    if kind.name == "tictactoe":
        return [move // 3, move % 3]
    if kind.name == "othello":
        return None if move == PASS else [move // 8, move % 8]
    if kind.name == "hex":
        return [move // game.n, move % game.n]
    return None


def after(kind: GameKind, position: str, game: Any, move: int) -> str:
    """The position string after ``move``, in the same format as ``position``."""
    name = move_name(kind, game, move)
    if kind.name == "hex":
        if "/" in position or not position.strip():
            state = game.play(game.initial_state(), move)
            return hexgame.to_text(state) if "/" in position else f"{game.n} {name}"
        return f"{position.strip()} {name}"
    if kind.name == "connect4":
        return position.strip() + name
    sep = " " if kind.name == "tictactoe" and position.strip() else ""
    return position.strip() + sep + name


def describe(kind: GameKind, position: str) -> dict:
    """The position as the page draws it: board, side to move, legal moves, the outcome."""
    game = build(kind, position)
    state = game.initial_state()
    first = _first_to_move(kind, state)
    terminal = game.is_terminal(state)
    out: dict[str, Any] = {
        "game": kind.name, "label": kind.label, "position": position, "board": board(kind, state),
        "to_move": kind.sides[0 if first else 1], "first_to_move": first, "terminal": terminal,
        "legal": [{"move": m, "name": move_name(kind, game, m), "cell": move_cell(kind, game, m),
                   "next": after(kind, position, game, m)} for m in game.legal_moves(state)],
        "default_depth": kind.default_depth, "own_ordering": kind.own,
    }
    if kind.name == "hex":
        out["n"] = game.n
    if terminal:
        u = game.utility(state)
        mover, other = kind.sides[0 if first else 1], kind.sides[1 if first else 0]
        out["outcome"] = "draw" if u == 0 else (f"{mover} wins" if u > 0 else f"{other} wins")
        if kind.name in ("othello", "connect4"):
            out["outcome"] += f" (score {jnum(u):+} for {mover})" if u else ""
    return out


def _ordering(kind: GameKind, ordering: str) -> str:
    if ordering == "own":
        return kind.own
    if ordering == "id+tt+killer+history":
        return f"id+tt+killer+history+{kind.own}"
    return ordering


def _budget(ordering: str, max_nodes: int | None) -> int:
    cap = MAX_NODES_REFERENCE if ordering in ("perfect", "worst") else MAX_NODES_COMPILED
    return cap if max_nodes is None else min(max_nodes, cap)


def _run(game: Any, algorithm: str, ordering: str, depth: int, max_nodes: int,
         oracle_limit: int = ORACLE_LIMIT) -> SearchResult:
    try:
        return search(game, algorithm, ordering, depth=depth, max_nodes=max_nodes,
                      oracle_limit=oracle_limit)
    except TreeTooLargeError:
        raise
    except SearchlabError as e:
        raise LabError(str(e).splitlines()[0]) from None


def result_dict(kind: GameKind, game: Any, r: SearchResult) -> dict:
    """search()'s figures, with the move's name and the EBF (R&N b*: nodes = sum b*^k)."""
    ok = r.status == "ok"
    return {"algorithm": r.algorithm, "ordering": r.ordering, "engine": r.engine,
            "status": r.status, "value": jnum(r.value) if ok else None,
            "best_move": r.best_move if ok else None,
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
    value, move, depth, pos, g = r.value, r.best_move, r.depth, position, game
    while move is not None and len(line) < MAX_PV:
        line.append({"move": move, "name": move_name(kind, g, move), "cell": move_cell(kind, g, move),
                     "position": after(kind, pos, g, move)})
        pos = line[-1]["position"]
        depth -= 1
        g = build(kind, pos)
        if depth < 1 or g.is_terminal(g.initial_state()):
            break
        child = _run(g, algorithm, ordering, depth, max_nodes)
        if child.status != "ok" or child.value != -value:
            break
        value, move = child.value, child.best_move
    return line


def engine_move(body: dict) -> dict:
    """The engine's search of the position: search()'s figures, its move and its PV."""
    kind = game_kind(body)
    position = text(body, "position")
    algorithm = choice(body, "algorithm", ALGORITHMS, "alphabeta")
    ordering = _ordering(kind, choice(body, "ordering", ORDERINGS, "id+tt+killer+history"))
    depth = integer(body, "depth", 1, MAX_GAME_DEPTH, kind.default_depth)
    max_nodes = integer(body, "max_nodes", 1, MAX_NODES_COMPILED, None, optional=True)
    game = build(kind, position)
    if game.is_terminal(game.initial_state()):
        raise LabError("position: the game is over; there is no move to search", 422)
    budget = _budget(ordering, max_nodes)
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
        row["move_value"] = _move_value(kind, position, game, row["best_move"], depth)
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
            "moves": [{"move": m, "name": move_name(kind, game, m),
                       "value": known[m] if m in known else
                       _move_value(kind, position, game, m, depth)} for m in moves]}


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
    row.update(status="ok", value=jnum(m.value), best_move=m.best_move,
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
        return jnum(-child.utility(state))
    if depth == 1:
        return jnum(-child.evaluate(state))      # what a depth-1 search sees at the horizon
    r = _run(child, "alphabeta", f"id+tt+killer+history+{kind.own}", depth - 1,
             MAX_NODES_COMPILED)
    return jnum(-r.value) if r.status == "ok" else None
