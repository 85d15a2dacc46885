"""The lab's ASGI app (Starlette): the JSON API and the page's static files.

Endpoints (every body a JSON object; every refusal a JSON ``{"error": "one line"}`` with a
4xx status, 429 when the searches allowed at once are all running, 503 past the wall-clock cap):

    GET  /                 the page (static/index.html)
    GET  /static/...       its scripts and style (Starlette's StaticFiles: no path leaves the folder)
    GET  /api/meta         games, algorithms, orderings, tree presets, the caps
    POST /api/trace        {tree, algorithms: [...], ordering, seed} -> the traced searches
    POST /api/export       {tree, title?} -> the trace player as one self-contained HTML file
    POST /api/position     {game, position} -> board, side to move, legal moves, outcome
    POST /api/move         {game, position, move} -> the position after the move
    POST /api/search       {game, position, algorithm, ordering, depth, max_nodes?} -> the
                           engine's move, search()'s figures and the principal variation
    POST /api/compare      {game, position, depth} -> minimax and alpha-beta under each ordering
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from searchlab.lab import games, trees
from searchlab.lab.export import player_html
from searchlab.lab.requests import (MAX_BODY_BYTES, MAX_CONCURRENT, WALL_CLOCK_CAP,
                                    MAX_GAME_DEPTH, MAX_NODES_COMPILED, MAX_TREE_DEPTH,
                                    MAX_TREE_LEAVES, MAX_TREE_VALUE, MINIMAX_BUDGET, ORACLE_LIMIT,
                                    LabError, body_dict, choice, integer, text)
from searchlab.limits import excerpt

STATIC = Path(__file__).with_name("static")


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def trace_request(body: dict) -> dict:
    """The traced searches of one tree by each requested algorithm (same ordering and seed)."""
    label, nested = trees.parse_tree(body.get("tree"))
    algorithms = body.get("algorithms", ["alphabeta"])
    if not isinstance(algorithms, list) or not 1 <= len(algorithms) <= 3 \
            or len(set(map(str, algorithms))) != len(algorithms):
        raise LabError(f"algorithms must be a list of 1 to 3 different names from "
                       f"{', '.join(trees.TRACE_ALGORITHMS)}; got {excerpt(algorithms)}")
    for a in algorithms:
        choice({"algorithms": a}, "algorithms", trees.TRACE_ALGORITHMS)
    ordering = choice(body, "ordering", trees.TRACE_ORDERINGS, "natural")
    seed = integer(body, "seed", 0, 2**63 - 1, 0)
    return {"label": label, "tree": nested,
            "traces": [trees.trace_payload(nested, a, ordering, seed) for a in algorithms]}


def move_request(body: dict) -> dict:
    kind = games.game_kind(body)
    position = text(body, "position")
    desc = games.describe(kind, position)
    move = body.get("move")
    nxt = next((m["next"] for m in desc["legal"] if move in (m["move"], m["name"])), None)
    if nxt is None:
        legal = " ".join(m["name"] for m in desc["legal"]) or "none (the game is over)"
        raise LabError(f"move {excerpt(move)} is not legal here; legal: {legal}")
    return games.describe(kind, nxt)


def meta() -> dict:
    return {"games": {k: {"label": g.label, "default_depth": g.default_depth, "own": g.own,
                          "sides": g.sides} for k, g in games.GAMES.items()},
            "algorithms": list(games.ALGORITHMS), "orderings": list(games.ORDERINGS),
            "trace_algorithms": list(trees.TRACE_ALGORITHMS),
            "trace_orderings": list(trees.TRACE_ORDERINGS),
            "presets": {k: v[0] for k, v in trees.PRESETS.items()},
            "caps": {"tree_leaves": MAX_TREE_LEAVES, "tree_depth": MAX_TREE_DEPTH,
                     "tree_value": MAX_TREE_VALUE, "game_depth": MAX_GAME_DEPTH,
                     "max_nodes": MAX_NODES_COMPILED, "minimax_budget": MINIMAX_BUDGET,
                     "oracle_leaves": ORACLE_LIMIT, "wall_clock_s": WALL_CLOCK_CAP,
                     "concurrent": MAX_CONCURRENT}}


def create_app(max_concurrent: int = MAX_CONCURRENT, wall_clock: float = WALL_CLOCK_CAP) -> Starlette:
    """The lab's app. At most ``max_concurrent`` requests compute at once (others get 429);
    a request not answered within ``wall_clock`` seconds gets 503 (its search, bounded by its
    node budget, finishes in the background and still holds its slot until then)."""
    slots = threading.BoundedSemaphore(max_concurrent)

    def endpoint(work: Callable[[dict], Any]):
        async def handle(request: Request):
            raw = await request.body()
            if len(raw) > MAX_BODY_BYTES:
                return _error(f"request body over {MAX_BODY_BYTES} bytes", 413)
            try:
                parsed = json.loads(raw or b"{}")
            except ValueError:
                return _error("the request body is not valid JSON", 400)
            try:
                body = body_dict(parsed)
            except LabError as e:
                return _error(str(e), e.status)
            if not slots.acquire(blocking=False):
                return _error(f"busy: {max_concurrent} searches are running; try again shortly", 429)

            def run():
                try:
                    return work(body)
                finally:
                    slots.release()
            try:
                with anyio.fail_after(wall_clock):
                    out = await anyio.to_thread.run_sync(run, abandon_on_cancel=True)
            except TimeoutError:
                return _error(f"the request took longer than {wall_clock:g} s (the wall-clock cap); "
                              "choose a smaller depth or node budget", 503)
            except LabError as e:
                return _error(str(e), e.status)
            if isinstance(out, str):
                return HTMLResponse(out, headers={
                    "Content-Disposition": 'attachment; filename="searchlab-trace.html"'})
            return JSONResponse(out)
        return handle

    def export(body: dict) -> str:
        title = text(body, "title", "", 200)
        return player_html(trace_request(body), title=title or None)

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def meta_endpoint(request: Request):
        return JSONResponse(meta())

    async def not_found(request: Request, exc: Exception):
        return _error(f"no such path: {request.url.path[:100]}", 404)

    async def not_allowed(request: Request, exc: Exception):
        return _error(f"method {request.method} not allowed on {request.url.path[:100]}", 405)

    api = [("trace", trace_request), ("export", export),
           ("position", lambda b: games.describe(games.game_kind(b), text(b, "position"))),
           ("move", move_request), ("search", games.engine_move), ("compare", games.compare)]
    routes = [Route("/", index), Route("/api/meta", meta_endpoint),
              *[Route(f"/api/{name}", endpoint(fn), methods=["POST"]) for name, fn in api],
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    return Starlette(routes=routes, exception_handlers={404: not_found, 405: not_allowed})
