"""The lab's ASGI app (Starlette): the JSON API and the page's static files.

Endpoints (every body a JSON object; every refusal a JSON ``{"error": "one line"}`` with a
4xx status, 429 when the searches allowed at once are all running, 503 past the wall-clock cap,
the search's worker process then killed, or with ``"compiling": true`` while the game's engine
is still being compiled (searchlab.lab.compiling); 500 if a search fails unexpectedly):

    GET  /                 the page (static/index.html)
    GET  /static/...       its scripts and style (Starlette's StaticFiles: no path leaves the folder)
    GET  /api/meta         games (every registered game, by its registry name, in display
                           order; "view": "board" for the games the lab draws, "generic" for
                           the others: position text and move buttons; "drawing": how the
                           page draws the board, LabBoard.drawing), algorithms, orderings
                           (play_games.orderings: the built-in policies, then the plug-in
                           ordering components'), tree presets, the caps, the games whose
                           engines are still being compiled
    POST /api/trace        {tree, algorithms: [...], ordering, seed} -> the traced searches
    POST /api/export       {tree, title?} -> the trace player as one self-contained HTML file
    POST /api/position     {game, position} -> board, side to move, legal moves, outcome,
                           the drawing's facts (LabBoard.drawing)
    POST /api/move         {game, position, move} -> the position after the move
    POST /api/search       {game, position, algorithm, ordering, depth, max_nodes?} -> the
                           engine's move, search()'s figures and the principal variation
    POST /api/compare      {game, position, depth} -> minimax and alpha-beta under each ordering
                           but perfect
    POST /api/minimal      {game, position, depth} -> Compare's perfect-ordering row (the
                           position's minimal tree), asked for after /api/compare

Before any of that (searchlab.lab.guard): a Host header not naming the lab's host is 421; a
POST from another origin is 403, one without ``Content-Type: application/json`` 415; a body
over MAX_BODY_BYTES is 413 as soon as it passes the limit while being read, one nesting JSON
too deep 400. A search whose client disconnects is cancelled: its worker process is killed.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from pathlib import Path
from typing import Any, Callable

import anyio
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from searchlab.lab import play_games, trees
from searchlab.lab.compiling import COMPILE_WAIT, EngineCompiler
from searchlab.lab.guard import LOOPBACK_HOSTS, HostGuard, Refused, read_json
from searchlab.lab.plugins import load_plugins
from searchlab.lab.requests import (MAX_BODY_BYTES, MAX_CONCURRENT, WALL_CLOCK_CAP,
                                    MAX_GAME_DEPTH, MAX_NODES_COMPILED, MAX_TREE_DEPTH,
                                    MAX_TREE_LEAVES, MAX_TREE_VALUE, MINIMAX_BUDGET, ORACLE_LIMIT,
                                    LabError, body_dict, text)
from searchlab.lab.workers import JOBS, Busy, Cancelled, CapExceeded, WorkerError, WorkerPool
from searchlab.limits import excerpt

STATIC = Path(__file__).with_name("static")


def _error(message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def move_request(body: dict) -> dict:
    kind = play_games.game_kind(body)
    position = text(body, "position")
    desc = play_games.describe(kind, position)
    move = body.get("move")
    nxt = next((m["next"] for m in desc["legal"] if move in (m["move"], m["name"])), None)
    if nxt is None:
        legal = " ".join(m["name"] for m in desc["legal"]) or "none (the game is over)"
        raise LabError(f"move {excerpt(move)} is not legal here; legal: {legal}")
    return play_games.describe(kind, nxt)


def meta() -> dict:
    return {"games": {k: {"label": g.label, "default_depth": g.default_depth, "own": g.own,
                          "sides": g.sides, "view": "board" if g.drawn else "generic",
                          "drawing": g.view.drawing()}
                      for k, g in play_games.lab_games().items()},
            "algorithms": list(play_games.algorithms()), "orderings": list(play_games.orderings()),
            "trace_algorithms": list(trees.trace_algorithms()),
            "trace_orderings": list(trees.TRACE_ORDERINGS),
            "presets": {k: v[0] for k, v in trees.PRESETS.items()},
            "caps": {"tree_leaves": MAX_TREE_LEAVES, "tree_depth": MAX_TREE_DEPTH,
                     "tree_value": MAX_TREE_VALUE, "game_depth": MAX_GAME_DEPTH,
                     "max_nodes": MAX_NODES_COMPILED, "minimax_budget": MINIMAX_BUDGET,
                     "oracle_leaves": ORACLE_LIMIT, "wall_clock_s": WALL_CLOCK_CAP,
                     "concurrent": MAX_CONCURRENT}}


#: the jobs whose body names a game (their searches run that game's compiled engine)
GAME_JOBS = ("search", "compare", "minimal")


def create_app(max_concurrent: int = MAX_CONCURRENT, wall_clock: float = WALL_CLOCK_CAP,
               compiler: EngineCompiler | None = None, compile_wait: float = COMPILE_WAIT,
               hosts: tuple[str, ...] | None = LOOPBACK_HOSTS,
               plugins: tuple[str, ...] = ()) -> Starlette:
    """The lab's app. Every search (trace, export, search, compare, minimal) runs in one of at
    most ``max_concurrent`` worker processes (searchlab.lab.workers): with all of them busy a
    request gets 429 at once, and one not answered within ``wall_clock`` seconds gets 503 after
    its worker process has been killed, so a capped search stops. Position and move requests
    (bounded by the position string's length) are answered in the server's own threads. The
    pool is ``app.state.pool``; its workers start with the app and end with it (lifespan; a
    server without lifespan starts them on first use).

    At startup (lifespan) ``compiler`` (default: an EngineCompiler of the lab's four games)
    starts compiling the games' engines in background processes, outside every request's
    limit; a game request (``GAME_JOBS``) for a game still compiling waits for it up to
    ``compile_wait`` seconds, not counted in ``wall_clock``, and past that gets 503 with
    ``"compiling": true`` and a message saying so. The compiler is ``app.state.compiler``.

    ``hosts``: the names the Host header may carry (searchlab.lab.guard; None: any, for a lab
    served to the network). ``plugins``: modules registering games from Python, imported here
    and in every worker (searchlab.lab.plugins; an installed entry-point plug-in needs none)."""
    load_plugins(plugins)
    pool = WorkerPool(max_concurrent, plugins=tuple(plugins))
    compiler = EngineCompiler() if compiler is None else compiler

    async def parse(request: Request) -> dict | JSONResponse:
        try:
            parsed = await read_json(request.stream(), request.headers.get("content-length"),
                                     MAX_BODY_BYTES)
        except Refused as e:
            return _error(str(e), e.status)
        try:
            return body_dict(parsed)
        except LabError as e:
            return _error(str(e), e.status)

    async def run_job(name: str, body: dict, request: Request) -> Any:
        """pool.run in a thread while another task waits for the client's disconnect, which
        cancels the job (its worker killed). Returns the result or the exception raised."""
        cancel = threading.Event()
        outcome: list = []

        async def watch() -> None:
            while (await request.receive())["type"] != "http.disconnect":
                pass
            cancel.set()

        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            try:
                outcome.append(await anyio.to_thread.run_sync(pool.run, name, body, wall_clock,
                                                              cancel))
            except Exception as e:  # noqa: BLE001 - handed to the caller, which sorts them
                outcome.append(e)
            tg.cancel_scope.cancel()
        return outcome[0]

    def respond(out: Any) -> Any:
        if isinstance(out, str):
            return HTMLResponse(out, headers={
                "Content-Disposition": 'attachment; filename="searchlab-trace.html"'})
        return JSONResponse(out)

    async def compiled(name: str, body: dict) -> JSONResponse | None:
        """None when the body's game has its engine compiled (or is not a game request);
        else, after waiting up to compile_wait, the 503 saying that it is compiling."""
        game = body.get("game") if name in GAME_JOBS else None
        if not isinstance(game, str) or compiler.state(game) != "compiling":
            return None
        if await anyio.to_thread.run_sync(compiler.wait, game, compile_wait):
            return None
        label = play_games.GAMES[game].label if game in play_games.GAMES else game
        return JSONResponse({"error": f"the compiled engine for {label} is still being compiled "
                                      f"(the lab compiles each game's engine once on a new machine, "
                                      f"about half a minute of CPU per game; "
                                      f"{compiler.seconds():.0f} s so far); try again in a moment",
                             "compiling": True}, status_code=503, headers={"Retry-After": "10"})

    def job(name: str):
        async def handle(request: Request):
            body = await parse(request)
            if isinstance(body, JSONResponse):
                return body
            waiting = await compiled(name, body)
            if waiting is not None:
                return waiting
            try:
                out = await run_job(name, body, request)
                if isinstance(out, Exception):
                    raise out
            except Cancelled:
                return _error("the client disconnected; its search was stopped", 499)
            except Busy as e:
                return _error(str(e), 429)
            except CapExceeded as e:
                if e.args:                  # the worker never started: not the search's fault
                    return _error(f"{e}; the machine is overloaded, try again shortly", 503)
                return _error(f"the request took longer than {wall_clock:g} s (the wall-clock cap) "
                              "and its search was stopped; choose a smaller depth or node budget",
                              503)
            except LabError as e:
                return _error(str(e), e.status)
            except WorkerError as e:
                return _error(f"the search failed: {e}", 500)
            return respond(out)
        return handle

    def inline(work: Callable[[dict], Any]):
        async def handle(request: Request):
            body = await parse(request)
            if isinstance(body, JSONResponse):
                return body
            try:
                return respond(await anyio.to_thread.run_sync(work, body))
            except LabError as e:
                return _error(str(e), e.status)
        return handle

    async def index(request: Request):
        return FileResponse(STATIC / "index.html")

    async def meta_endpoint(request: Request):
        return JSONResponse({**meta(), "compiling": compiler.compiling()})

    async def not_found(request: Request, exc: Exception):
        return _error(f"no such path: {request.url.path[:100]}", 404)

    async def not_allowed(request: Request, exc: Exception):
        return _error(f"method {request.method} not allowed on {request.url.path[:100]}", 405)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        compiler.start()
        pool.start()
        yield
        pool.close()
        compiler.close()

    inline_api = [("position", lambda b: play_games.describe(play_games.game_kind(b), text(b, "position"))),
                  ("move", move_request)]
    routes = [Route("/", index), Route("/api/meta", meta_endpoint),
              *[Route(f"/api/{name}", job(name), methods=["POST"]) for name in JOBS],
              *[Route(f"/api/{name}", inline(fn), methods=["POST"]) for name, fn in inline_api],
              Mount("/static", StaticFiles(directory=STATIC), name="static")]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={404: not_found, 405: not_allowed})
    app.add_middleware(HostGuard, hosts=hosts)
    app.state.pool = pool
    app.state.compiler = compiler
    weakref.finalize(app, pool.close)
    weakref.finalize(app, compiler.close)
    return app
