"""The lab's JSON API through the ASGI test client: every endpoint, every kind of bad input,
and the figures equal to searchlab.search()'s and run_trace()'s."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from searchlab import search  # noqa: E402
from searchlab.algorithms.trace import run_trace  # noqa: E402
from searchlab.algorithms.tree_count import count_tree  # noqa: E402
from searchlab.games.connect4 import ConnectFour  # noqa: E402
from searchlab.games.registry import entry, game_names  # noqa: E402
from searchlab.games.tictactoe import TicTacToe  # noqa: E402
from searchlab.lab import app, export_trace_html  # noqa: E402
from searchlab.lab.app import create_app  # noqa: E402
from searchlab.lab.compiling import EngineCompiler  # noqa: E402
from searchlab.trees import ExplicitTree  # noqa: E402

TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
LAB = "http://127.0.0.1:8765"           # a Host the lab takes (searchlab.lab.guard)


@pytest.fixture(scope="module")
def client():
    # the tests below compare answers, not speed: a fresh checkout's first search of a game
    # compiles its engine (tens of seconds, docs/compile-time.md), past the default 20 s cap;
    # the cap itself is tested with its own apps below
    return TestClient(create_app(wall_clock=600), base_url=LAB)


def test_page_static_and_meta(client):
    assert "searchlab lab" in client.get("/").text
    assert "SearchlabTrace" in client.get("/static/trace.js").text
    meta = client.get("/api/meta").json()
    # the menu is the game registry's, in its display order: the games with a drawing get
    # their board, the others (chess, plug-ins) the generic view
    assert list(meta["games"]) == list(game_names())
    views = {k: g["view"] for k, g in meta["games"].items()}
    assert {k for k, v in views.items() if v == "board"} == {"tictactoe", "connect4", "othello", "hex"}
    assert views["chess"] == "generic"
    assert "textbook" in meta["presets"] and "homework" in meta["presets"]
    # the sides are named once: the game's GameEntry.sides (capitalised) unless its drawing
    # names the pieces (LabBoard.pieces)
    for name, g in meta["games"].items():
        e = entry(name)
        pieces = e.lab_board.pieces if e.lab_board is not None else None
        assert tuple(g["sides"]) == (pieces or tuple(s[:1].upper() + s[1:] for s in e.sides)), name
    assert meta["games"]["chess"]["sides"] == ["White", "Black"]


def test_the_page_names_no_game_and_draws_from_the_declarations(client):
    """play.js, generic.js and index.html name no registered game: how a board is drawn
    (layout, colours, cell size, marks, coordinates, the pass move, board sizes) comes with the
    game's description, from its LabBoard."""
    import re
    static = Path(app.__file__).with_name("static")
    page = "".join((static / f).read_text() for f in ("play.js", "generic.js", "index.html"))
    for name in game_names():
        assert not re.search(rf"\b{name}\b", page), name
    for name in ("tictactoe", "connect4", "othello", "hex"):
        d = client.post("/api/position", json={"game": name, "position": ""}).json()
        assert d["drawing"] == entry(name).lab_board.drawing(), name
    assert client.post("/api/position", json={"game": "connect4", "position": ""}).json()["drawing"]["layout"] == "columns"
    assert client.post("/api/position", json={"game": "othello", "position": ""}).json()["drawing"]["passes"] is True


@pytest.mark.parametrize("path", ["/static/../app.py", "/static/%2e%2e/app.py",
                                  "/static/..%2fapp.py", "/static/../../pyproject.toml"])
def test_static_files_cannot_escape_their_folder(client, path):
    r = client.get(path)
    assert r.status_code == 404 and "def create_app" not in r.text


def test_trace_textbook_equals_run_trace(client):
    r = client.post("/api/trace", json={"tree": {"kind": "preset", "name": "textbook"},
                                        "algorithms": ["minimax", "alphabeta", "pvs"]})
    assert r.status_code == 200
    traces = r.json()["traces"]
    for t in traces:
        res, events = run_trace(ExplicitTree(TEXTBOOK), t["algorithm"], "natural")
        assert t["result"]["nodes"] == res.nodes == t["events"][-1]["n"]
        assert t["result"]["leaves"] == res.leaves == t["events"][-1]["l"]
        assert [e["k"] for e in t["events"]] == [e.kind for e in events]
        assert [tuple(e["p"]) for e in t["events"]] == [e.path for e in events]
    ab = traces[1]
    cut = [e for e in ab["events"] if e["k"] == "cutoff"]
    assert len(cut) == 1 and cut[0]["p"] == [1] and cut[0]["ab"] == [3, 2]
    assert cut[0]["pr"] == [[[1, 1], 4], [[1, 2], 6]] and cut[0]["pl"] == 2
    ret_b = next(e for e in ab["events"] if e["k"] == "return" and e["p"] == [1])
    assert ret_b["v"] == 2 and ret_b["b"] == "upper" and ret_b["w"] == [3, "inf"]
    assert ab["pv"] == [[], [0], [0, 0]] and ab["result"]["value"] == 3


@pytest.mark.parametrize("spec, nested", [
    ({"kind": "nested", "text": "[[1, 2], [3, 4]]"}, [[1, 2], [3, 4]]),
    ({"kind": "mannheim", "b": 3, "d": 2, "values": "3 12 8 2 4 6 14 5 2"}, TEXTBOOK),
    ({"kind": "mannheim", "d": 2, "branches": "2 1 3", "values": "1 2 3 4"}, [[1], [2, 3, 4]]),
])
def test_tree_forms(client, spec, nested):
    r = client.post("/api/trace", json={"tree": spec})
    assert r.status_code == 200 and r.json()["tree"] == nested


def test_random_tree_is_seeded(client):
    spec = {"kind": "random", "b": 3, "d": 3, "lo": -5, "hi": 5, "seed": 7}
    a = client.post("/api/trace", json={"tree": spec, "ordering": "perfect"}).json()
    b = client.post("/api/trace", json={"tree": spec, "ordering": "perfect"}).json()
    assert a["tree"] == b["tree"]
    res = search(ExplicitTree(a["tree"]), "alphabeta", "perfect", engine="reference")
    assert a["traces"][0]["result"]["nodes"] == res.nodes


@pytest.mark.parametrize("body, status, words", [
    ({"tree": {"kind": "preset", "name": "nope"}}, 400, "tree.name"),
    ({"tree": {"kind": "bogus"}}, 400, "tree.kind"),
    ({"tree": {"kind": "nested", "text": "[[1, 2], [3"}}, 400, "tree.text"),
    ({"tree": {"kind": "nested", "text": "[[1, true]]"}}, 400, "leaf value"),
    ({"tree": {"kind": "nested", "text": "[[1, 1e300]]"}}, 400, "leaf value"),
    ({"tree": {"kind": "nested", "text": "[]"}}, 400, "children"),
    ({"tree": {"kind": "random", "b": 16, "d": 8}}, 400, "cap"),
    ({"tree": {"kind": "random", "b": 2, "d": 2, "lo": 5, "hi": 1}}, 400, "lo must be"),
    ({"tree": {"kind": "mannheim", "b": 2, "d": 2, "values": "1 2 3"}}, 400, "values"),
    ({"tree": {"kind": "mannheim", "b": 2, "d": 2, "values": "1 x 3 4"}}, 400, "not a number"),
    ({"tree": {"kind": "preset", "name": "textbook"}, "algorithms": ["mtdf"]}, 400, "algorithms"),
    ({"tree": {"kind": "preset", "name": "textbook"}, "ordering": "tt"}, 400, "ordering"),
    ({"tree": "textbook"}, 400, "tree must be"),
])
def test_trace_bad_input(client, body, status, words):
    r = client.post("/api/trace", json=body)
    assert r.status_code == status and words in r.json()["error"]
    assert "\n" not in r.json()["error"]


def test_bad_bodies(client):
    as_json = {"content-type": "application/json"}
    assert client.post("/api/trace", content=b"{not json", headers=as_json).status_code == 400
    assert "JSON object" in client.post("/api/trace", json=[1, 2]).json()["error"]
    assert client.post("/api/trace", content=b"x" * 300_000, headers=as_json).status_code == 413
    assert client.get("/api/trace").status_code == 405
    assert client.get("/api/nothing").status_code == 404


def test_position_and_move(client):
    d = client.post("/api/position", json={"game": "connect4", "position": "4455"}).json()
    assert d["to_move"] == "Red" and d["board"]["cells"][5][3] == 1 and len(d["legal"]) == 7
    m = client.post("/api/move", json={"game": "connect4", "position": "4455", "move": 2}).json()
    assert m["position"] == "44553"
    for game, pos, mv, nxt in [("tictactoe", "4", 0, "4 0"), ("othello", "", "f5", "f5"),
                               ("hex", "7", "d4", "7 d4"), ("hex", "../.../...", 0, None)]:
        r = client.post("/api/move", json={"game": game, "position": pos, "move": mv})
        if nxt is None:
            assert r.status_code == 400
        else:
            assert r.json()["position"] == nxt
    over = client.post("/api/position", json={"game": "tictactoe", "position": "0 3 1 4 2"}).json()
    assert over["terminal"] and over["outcome"] == "X wins"


@pytest.mark.parametrize("path, body, words", [
    ("/api/position", {"game": "go"}, "game must be one of tictactoe, connect4, othello, chess, hex"),
    ("/api/position", {"game": "connect4", "position": "4448"}, "position:"),
    ("/api/position", {"game": "connect4", "position": 44}, "position must be"),
    ("/api/position", {"game": "hex", "position": "12"}, "position:"),
    ("/api/move", {"game": "connect4", "position": "", "move": 9}, "not legal"),
    ("/api/search", {"game": "connect4", "depth": 0}, "depth must be"),
    ("/api/search", {"game": "connect4", "depth": 99}, "depth must be"),
    ("/api/search", {"game": "connect4", "max_nodes": 0}, "max_nodes"),
    ("/api/search", {"game": "connect4", "max_nodes": 10**12}, "max_nodes"),
    ("/api/search", {"game": "connect4", "algorithm": "magic"}, "algorithm"),
    ("/api/search", {"game": "connect4", "ordering": "best"}, "ordering"),
    ("/api/search", {"game": "othello", "ordering": "perfect", "depth": 8}, "oracle"),
    ("/api/search", {"game": "tictactoe", "position": "0 3 1 4 2"}, "game is over"),
    ("/api/compare", {"game": "connect4", "depth": True}, "depth must be"),
    ("/api/compare", {"game": "tictactoe", "position": "0 3 1 4 2"}, "game is over"),
])
def test_game_bad_input(client, path, body, words):
    r = client.post(path, json=body)
    assert 400 <= r.status_code < 500 and words in r.json()["error"], r.json()


def test_search_equals_search(client):
    body = {"game": "connect4", "position": "4455", "algorithm": "alphabeta",
            "ordering": "id+tt+killer+history", "depth": 6}
    r = client.post("/api/search", json=body).json()
    ref = search(ConnectFour("4455"), "alphabeta", "id+tt+killer+history+centre", depth=6)
    assert (r["value"], r["best_move"], r["nodes"], r["leaves"]) == \
        (ref.value, ref.best_move, ref.nodes, ref.leaves)
    assert r["pv"][0]["move"] == ref.best_move and r["pv"][0]["position"] == "4455" + str(ref.best_move + 1)
    aborted = client.post("/api/search", json={**body, "max_nodes": 50}).json()
    assert aborted["status"] == "aborted" and aborted["pv"] == []


def test_compare_equals_search(client):
    c = client.post("/api/compare", json={"game": "tictactoe", "position": "4 0 8", "depth": 6}).json()
    game = TicTacToe("4 0 8")
    by = {(x["algorithm"], x["ordering"]): x for x in c["rows"]}
    assert ("alphabeta", "worst") in by and by["alphabeta", "worst"]["status"] == "ok"
    for (alg, order), row in by.items():
        ref = search(game, alg, order, depth=6, oracle_limit=3000,
                     max_nodes=2_000_000 if alg == "minimax" else None)
        assert (row["nodes"], row["leaves"], row["value"]) == (ref.nodes, ref.leaves, ref.value)
    assert c["agree_value"] and all(m["value"] == c["values"][0] for m in c["moves"])
    assert c["pending"] == [{"algorithm": "alphabeta", "ordering": "perfect", "endpoint": "minimal"}]
    deep = client.post("/api/compare", json={"game": "connect4", "position": "", "depth": 10}).json()
    mm, worst = deep["rows"][0], deep["rows"][1]
    # minimax is infeasible here (over 2,000,000 nodes): its tree is counted instead; the
    # count equals minimax's nodes (tests/algorithms/test_tree_count.py, at smaller depths)
    assert mm["algorithm"] == "minimax" and mm["status"] == "counted" and "counted" in mm["note"]
    assert (mm["nodes"], mm["leaves"]) == count_tree(ConnectFour(""), 10) == (314060245, 269175990)
    assert mm["value"] is None and mm["best_move"] is None
    assert worst["ordering"] == "worst" and worst["status"] == "not run"
    assert "2,000,000 nodes at depth 10" in worst["note"] and worst["at_most"] == mm["nodes"]
    assert "at most 314,060,245 nodes" in worst["note"]


def test_compare_row_by_row_equals_the_whole(client):
    body = {"game": "tictactoe", "position": "4 0 8", "depth": 6}
    whole = client.post("/api/compare", json=body).json()
    for k, row in enumerate(whole["rows"]):
        one = client.post("/api/compare", json={**body, "row": k}).json()
        assert len(one["rows"]) == 1 and "agree_value" not in one
        got = one["rows"][0]
        assert (got["algorithm"], got["ordering"], got["status"]) == \
            (row["algorithm"], row["ordering"], row["status"])
        assert (got.get("nodes"), got.get("leaves"), got.get("value")) == \
            (row.get("nodes"), row.get("leaves"), row.get("value"))
        if row["status"] == "ok":
            assert got["move_value"] == row["value"]          # each move is a best one
    r = client.post("/api/compare", json={**body, "row": 6})
    assert r.status_code == 400 and "row must be an integer in [0, 5]" in r.json()["error"]


def test_minimal_row_at_the_tictactoe_start(client):
    # Knuth and Moore's estimate (65,609 leaves) is over the limit, but the whole tree is small
    # (549,946 nodes, minimax finishes): the row is run
    row = client.post("/api/minimal", json={"game": "tictactoe", "position": "", "depth": 9}).json()
    ref = search(TicTacToe(""), "alphabeta", "perfect", depth=9, oracle_limit=10**6)
    assert row["status"] == "ok" and (row["nodes"], row["leaves"]) == (ref.nodes, ref.leaves)


@pytest.mark.parametrize("game, position, depth", [
    ("tictactoe", "4", 8), ("connect4", "4455", 5), ("othello", "f5", 4), ("hex", "4 b2", 3)])
def test_minimal_row_equals_search_perfect(client, game, position, depth):
    from searchlab.algorithms.minimal_tree import minimal_tree
    from searchlab.lab.play_games import GAMES
    # compile the minimal tree's engine here first (onto the disk cache the lab's worker loads):
    # in a fresh checkout the compile takes longer than the row's 15 s limit, which interrupts
    # it (a known limit of the lab on a cold cache, docs/compile-time.md)
    minimal_tree(GAMES[game].build(position), depth)
    row = client.post("/api/minimal", json={"game": game, "position": position,
                                            "depth": depth}).json()
    ref = search(GAMES[game].build(position), "alphabeta", "perfect", depth=depth,
                 oracle_limit=10**6)
    assert row["status"] == "ok" and row["ordering"] == "perfect"
    assert (row["nodes"], row["leaves"], row["value"], row["best_move"]) == \
        (ref.nodes, ref.leaves, ref.value, ref.best_move)
    assert row["move_value"] == row["value"]


def test_minimal_row_states_why_not(monkeypatch):
    from searchlab.lab import play_games as games
    row = games.minimal_row({"game": "hex", "position": "", "depth": 5})     # Hex 7x7's default
    assert row["status"] == "not run" and "nodes" not in row
    assert "about 120,049 leaves" in row["note"] and "b = 49, d = 5" in row["note"]
    assert "over the 50,000" in row["note"]
    monkeypatch.setattr(games, "MINIMAL_TREE_SECONDS", 0.05)
    row = games.minimal_row({"game": "connect4", "position": "", "depth": 10})
    assert row["status"] == "not run" and "nodes" not in row
    assert "about 33,613 leaves" in row["note"] and "not finished within 0.05 s" in row["note"]


def _gone(pid: int) -> bool:
    """No process ``pid`` exists (killed and reaped: not even a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return not Path(f"/proc/{pid}").exists()
    return False


HEAVY = {"game": "othello", "position": "", "algorithm": "minimax", "ordering": "natural",
         "depth": 14, "max_nodes": 50_000_000}


def test_capped_request_kills_its_search():
    # a 0.5 s cap: HEAVY takes 1.7 s on a quiet 2-core machine, so it is capped on any machine
    # no background compile (tests/lab/test_compiling.py): the cap and the pool alone
    app = create_app(max_concurrent=1, wall_clock=0.5, compiler=EngineCompiler({}))
    with TestClient(app, base_url=LAB) as c:
        pool = app.state.pool
        pool.run("search", {"game": "tictactoe", "depth": 2}, timeout=120)     # warm worker
        [pid] = pool.pids()
        r = c.post("/api/search", json=HEAVY)
        assert r.status_code == 503 and "wall-clock cap" in r.json()["error"]
        assert "stopped" in r.json()["error"]
        assert pool.killed == [pid] and _gone(pid) and pid not in pool.pids()
        # a fresh worker (started at once, warming up) answers the next request
        ok = pool.run("search", {"game": "tictactoe", "depth": 2}, timeout=120)
        assert ok["status"] == "ok" and pool.pids() and pool.pids()[0] != pid


def test_busy_is_refused_at_once():
    app = create_app(max_concurrent=1, wall_clock=60, compiler=EngineCompiler({}))
    with TestClient(app, base_url=LAB) as c:
        pool = app.state.pool
        pool.run("search", {"game": "tictactoe", "depth": 2}, timeout=120)
        [pid] = pool.pids()
        outcome = []
        t = threading.Thread(target=lambda: outcome.append(_capped(pool)))
        t.start()
        while pool.pids():                  # until the heavy job holds the only worker
            time.sleep(0.01)
        r = c.post("/api/compare", json={"game": "connect4", "depth": 4})
        assert r.status_code == 429 and "busy" in r.json()["error"]
        t.join(60)
        assert outcome == ["capped"] and _gone(pid)


def _capped(pool) -> str:
    from searchlab.lab.workers import CapExceeded
    try:
        # 0.5 s: HEAVY's 50M minimax nodes take 1.7 s on a quiet 2-core machine (with 2 s, a
        # quiet machine finished them in time)
        pool.run("search", HEAVY, timeout=0.5)
    except CapExceeded:
        return "capped"
    return "finished"


def test_export_is_self_contained(client, tmp_path):
    page = export_trace_html(TEXTBOOK, tmp_path / "t.html")
    assert (tmp_path / "t.html").read_text() == page
    assert "src=" not in page and "href=" not in page and "http://" not in page.replace(
        'http://www.w3.org/2000/svg', '')
    data = json.loads(page.split("const SEARCHLAB_DATA = ")[1].split(";\nSearchlabTrace")[0])
    assert set(data["by_ordering"]) == {"natural", "perfect", "worst", "random"}
    r = client.post("/api/export", json={"tree": {"kind": "preset", "name": "homework"}})
    assert r.status_code == 200 and "SEARCHLAB_DATA" in r.text


def test_cli_export_and_host_guard(tmp_path, capsys):
    from searchlab.lab.lab_cli import main
    assert main(["export", "--preset", "textbook", "--out", str(tmp_path / "x.html")]) == 0
    assert (tmp_path / "x.html").exists()
    assert main(["export", "--tree", "[[1,", "--out", str(tmp_path / "y.html")]) == 2
    assert main(["--host", "0.0.0.0"]) == 2
    assert "--allow-remote" in capsys.readouterr().err


# ---------------------------------------------------------------- what no web page can do
@pytest.mark.parametrize("host, ok", [("127.0.0.1:8765", True), ("localhost:8765", True),
                                      ("[::1]:8765", True), ("LOCALHOST", True),
                                      ("evil.example:8765", False), ("127.0.0.1.evil.example", False),
                                      ("", False)])
def test_host_header_limited_to_loopback_names(client, host, ok):
    # a DNS-rebinding page's requests carry its own name: refused, GETs included (its reads)
    for r in (client.get("/api/meta", headers={"host": host}),
              client.post("/api/position", json={"game": "tictactoe"}, headers={"host": host})):
        if ok:
            assert r.status_code == 200, r.text
        else:
            assert r.status_code == 421 and "Host header" in r.json()["error"]


def test_any_host_when_served_to_the_network():
    c = TestClient(create_app(hosts=None, compiler=EngineCompiler({})), base_url="http://lab.school.example")
    assert c.get("/api/meta").status_code == 200
    r = c.post("/api/position", json={"game": "tictactoe"},
               headers={"origin": "http://evil.example"})
    assert r.status_code == 403            # the Origin check stays


@pytest.mark.parametrize("origin, status", [(None, 200), (LAB, 200), ("http://evil.example", 403),
                                            ("null", 403), ("http://127.0.0.1:9999", 403),
                                            ("https://127.0.0.1:8765", 403)])
def test_origin_checked_on_every_post(client, origin, status):
    headers = {} if origin is None else {"origin": origin}
    for path, body in (("/api/position", {"game": "tictactoe"}),
                       ("/api/trace", {"tree": {"kind": "preset", "name": "textbook"}})):
        r = client.post(path, json=body, headers=headers)
        assert r.status_code == status, r.text
        if status == 403:
            assert "Origin" in r.json()["error"]


@pytest.mark.parametrize("kind, status", [("application/json", 200),
                                          ("application/json; charset=utf-8", 200),
                                          ("text/plain", 415), ("text/plain;charset=UTF-8", 415),
                                          ("application/x-www-form-urlencoded", 415), (None, 415)])
def test_json_content_type_required(client, kind, status):
    # a cross-origin page may POST text/plain without a CORS preflight: it is refused
    headers = {} if kind is None else {"content-type": kind}
    r = client.post("/api/position", content=b'{"game": "tictactoe"}', headers=headers)
    assert r.status_code == status, r.text
    if status == 415:
        assert "Content-Type must be application/json" in r.json()["error"]


def _asgi(app, scope_extra: dict, receive):
    """Call the ASGI app with ``receive``; the response's status and body."""
    import anyio
    sent: list = []

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": "/api/trace", "raw_path": b"/api/trace", "query_string": b"",
             "root_path": "", "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8765),
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/json")]}
    scope.update(scope_extra)
    anyio.run(app, scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(body)


def test_body_limit_enforced_while_reading():
    from searchlab.lab.requests import MAX_BODY_BYTES
    app = create_app(compiler=EngineCompiler({}))
    chunk, reads = 64 * 1024, []

    async def receive():                 # a 200 MB body, streamed: 3,200 chunks of 64 kB
        reads.append(1)
        return {"type": "http.request", "body": b"[" * chunk, "more_body": len(reads) < 3200}

    status, body = _asgi(app, {}, receive)
    assert status == 413 and f"over {MAX_BODY_BYTES} bytes" in body["error"]
    # refused as soon as the limit was passed: at most the limit plus one chunk ever read
    assert len(reads) == MAX_BODY_BYTES // chunk + 1
    reads.clear()                        # a declared length over the limit: nothing read
    status, body = _asgi(app, {"headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                                           (b"content-length", b"200000000")]}, receive)
    assert status == 413 and "Content-Length 200000000" in body["error"] and reads == []


def test_body_limit_through_the_client(client):
    def chunks():                        # no Content-Length: chunked transfer
        for _ in range(100):
            yield b" " * 10_000
    r = client.post("/api/trace", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413 and "request body over" in r.json()["error"]


def test_deep_json_is_a_json_400(client):
    deep = b"[" * 2000 + b"]" * 2000
    r = client.post("/api/trace", content=deep, headers={"content-type": "application/json"})
    assert r.status_code == 400 and "nests JSON more than 32 levels" in r.json()["error"]
    # brackets inside strings are text, not nesting
    r = client.post("/api/trace", json={"tree": {"kind": "nested", "text": "[" * 40 + "1" + "]" * 40}})
    assert r.status_code == 400 and "nests JSON" not in r.json()["error"]


def test_disconnect_cancels_the_search():
    app = create_app(max_concurrent=1, wall_clock=120, compiler=EngineCompiler({}))
    pool = app.state.pool
    try:
        pool.run("search", {"game": "othello", "depth": 2, "algorithm": "minimax",
                            "ordering": "natural"}, timeout=120)              # warm worker
        [pid] = pool.pids()
        body = json.dumps(HEAVY).encode()
        calls = []

        async def receive():
            import anyio
            calls.append(1)
            if len(calls) == 1:
                return {"type": "http.request", "body": body, "more_body": False}
            while pool.pids():           # the search holds the worker: now the client leaves
                await anyio.sleep(0.01)
            await anyio.sleep(0.2)
            return {"type": "http.disconnect"}

        t0 = time.monotonic()
        status, out = _asgi(app, {"path": "/api/search", "raw_path": b"/api/search"}, receive)
        assert status == 499 and "disconnected" in out["error"]
        # HEAVY takes 1.7 s on a quiet machine; its worker was killed well before
        assert pool.cancelled == [pid] and _gone(pid) and time.monotonic() - t0 < 1.5
        ok = pool.run("search", {"game": "tictactoe", "depth": 2}, timeout=120)   # freed
        assert ok["status"] == "ok"
    finally:
        pool.close()


def test_chess_in_the_generic_view(client):
    """A built-in without a drawing: its moves (UCI) as the generic view's, rooted by with_root."""
    from searchlab.games.chess_game import Chess
    d = client.post("/api/position", json={"game": "chess", "position": "e2e4"}).json()
    game = Chess()
    state = game.play(game.initial_state(), "e2e4")
    assert d["view"] == "generic" and d["to_move"] == "Black" and d["board"] is None
    assert [m["name"] for m in d["legal"]] == list(game.legal_moves(state))
    assert d["text"] == repr(state)
    after = client.post("/api/move", json={"game": "chess", "position": "e2e4", "move": "e7e5"})
    assert after.json()["position"] == "e2e4 e7e5" and after.json()["to_move"] == "White"
