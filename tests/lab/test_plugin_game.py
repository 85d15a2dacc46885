"""A game from outside the package in the lab: docs/extending.md's Nim
(tests/data/plugins/nim_game.py), installed as an entry-point plug-in (a distribution's
``[project.entry-points."searchlab.games"] nim = "nim_game:GAME"``, written to a folder on the
path as pip would), played in the lab's generic view over the JSON API (starlette's TestClient;
the searches run in the lab's worker processes, which find the plug-in through the same entry
point) and in the browser (headless Chromium at 1280x720). The lab is not edited for it."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from searchlab import search  # noqa: E402
from searchlab.errors import InvalidParameterError  # noqa: E402
from searchlab.games import registry  # noqa: E402
from searchlab.games.registry import GameEntry, LabBoard  # noqa: E402
from searchlab.lab import play_games  # noqa: E402
from searchlab.lab.app import create_app  # noqa: E402
from searchlab.lab.requests import LabError  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
LAB = "http://127.0.0.1:8765"


@pytest.fixture(scope="module")
def nim(tmp_path_factory):
    """Nim installed as a plug-in for this process and the lab's workers; the module nim_game."""
    site = tmp_path_factory.mktemp("site")
    dist = site / "nimplugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: nimplugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[searchlab.games]\nnim = nim_game:GAME\n")
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(PLUGINS))
        mp.syspath_prepend(str(site))
        # the workers are fresh interpreters: they find the plug-in on their PYTHONPATH
        mp.setenv("PYTHONPATH", os.pathsep.join(
            [str(site), str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
        mp.setattr(registry, "_REGISTERED", {})
        mp.setattr(registry, "_PLUGIN_ERRORS", {})
        mp.setattr(registry, "_LOADED", False)
        import nim_game
        yield nim_game
    sys.modules.pop("nim_game", None)


@pytest.fixture(scope="module")
def client(nim):
    # nim from its entry point; nim_grid (a drawn Nim) registered from Python, a --plugin
    return TestClient(create_app(wall_clock=600, plugins=("nim_grid",)), base_url=LAB)


def _mover_value(game, value):
    """search()'s value (for MAX, Nim's first player) as the side to move sees it."""
    return value if game.max_to_move(game.initial_state()) else -value


def _rooted(nim, moves):
    g = nim.Nim((1, 2, 3))
    s = g.initial_state()
    for m in moves:
        s = g.play(s, m)
    return g.with_root(s) if moves else g


def test_the_plugin_is_in_the_menu_with_the_generic_view(client, nim):
    meta = client.get("/api/meta").json()
    assert "nim" in meta["games"] and meta["games"]["nim"]["view"] == "generic"
    assert meta["games"]["nim"]["label"] == "Nim" and "tictactoe" in meta["games"]
    assert "SearchlabGeneric" in client.get("/static/generic.js").text
    assert "/static/generic.js" in client.get("/").text


def test_position_and_moves_over_the_api(client, nim):
    d = client.post("/api/position", json={"game": "nim", "position": ""}).json()
    game = nim.Nim((1, 2, 3))
    assert d["view"] == "generic" and d["board"] is None and d["text"] == str(game)
    assert [m["name"] for m in d["legal"]] == \
        [nim.move_text(m) for m in game.legal_moves(game.initial_state())]
    assert d["to_move"] == "First player" and not d["terminal"]      # GameEntry.sides'
    after = client.post("/api/move", json={"game": "nim", "position": "", "move": "3-1"}).json()
    assert after["position"] == "3-1" and after["to_move"] == "Second player"
    assert after["text"] == str(_rooted(nim, [(2, 1)]))
    bad = client.post("/api/move", json={"game": "nim", "position": "3-1", "move": "3-3"})
    assert bad.status_code == 400 and bad.json()["error"].endswith(
        "is not legal here; legal: 1-1 2-1 2-2 3-1 3-2")
    bad = client.post("/api/position", json={"game": "nim", "position": "3-1 9-9"})
    assert bad.status_code == 400 and "move 2 (9-9) is not legal there" in bad.json()["error"]
    end = client.post("/api/position", json={"game": "nim", "position": "1-1 2-2 3-3"}).json()
    assert end["terminal"] and end["legal"] == [] and end["outcome"] == "First player wins"


@pytest.mark.parametrize("moves, depth", [([], 4), ([(2, 1)], 3), ([(0, 1), (1, 1)], 5)])
def test_the_engine_answers_as_search_does(client, nim, moves, depth):
    position = " ".join(nim.move_text(m) for m in moves)
    r = client.post("/api/search", json={"game": "nim", "position": position, "depth": depth,
                                         "algorithm": "alphabeta", "ordering": "natural"})
    assert r.status_code == 200, r.text
    r = r.json()
    game = _rooted(nim, moves)
    ref = search(game, "alphabeta", "natural", depth=depth)
    assert (r["nodes"], r["leaves"], r["engine"]) == (ref.nodes, ref.leaves, ref.engine)
    assert r["value"] == _mover_value(game, ref.value)
    assert r["best_move"] == r["best_move_name"] == nim.move_text(ref.best_move)
    assert r["pv"][0]["name"] == r["best_move_name"]
    # the engine's move plays as a human's does
    after = client.post("/api/move", json={"game": "nim", "position": position,
                                           "move": r["best_move"]}).json()
    assert after["position"] == f"{position} {r['best_move']}".strip()


def test_compare_on_the_plugin(client, nim):
    body = {"game": "nim", "position": "1-1", "depth": 4}
    c = client.post("/api/compare", json=body).json()
    game = _rooted(nim, [(0, 1)])
    minimax = search(game, "minimax", depth=4)
    assert c["agree_value"] and c["values"] == [_mover_value(game, minimax.value)]
    assert c["rows"][0]["nodes"] == minimax.nodes
    row = client.post("/api/minimal", json=body).json()
    assert row["status"] == "ok" and row["value"] == c["values"][0]


def test_a_plugin_drawn_from_its_cells(client, nim):
    """nim_grid's LabBoard gives cells and move_cell only: the lab draws it (the page's grid
    of stones) and keeps the generic view's positions and move names; its searches run in the
    workers, which imported the --plugin module too."""
    assert client.get("/api/meta").json()["games"]["nimgrid"]["view"] == "board"
    d = client.post("/api/position", json={"game": "nimgrid", "position": "2-1"}).json()
    assert d["view"] == "board" and d["board"]["cells"] == [[1, 0, 0], [1, 0, 0], [1, 1, 1]]
    assert d["to_move"] == "Second" and "text" not in d
    assert {m["name"]: m["cell"] for m in d["legal"]} == \
        {"1-1": [0, 0], "2-1": [1, 0], "3-1": [2, 2], "3-2": [2, 1], "3-3": [2, 0]}
    r = client.post("/api/search", json={"game": "nimgrid", "position": "2-1", "depth": 3,
                                         "ordering": "natural"})
    assert r.status_code == 200, r.text
    ref = search(_rooted(nim, [(1, 1)]), "alphabeta", "natural", depth=3)
    assert (r.json()["nodes"], r.json()["best_move_name"]) == (ref.nodes, nim.move_text(ref.best_move))
    bad = client.post("/api/search", json={"game": "nimgrid", "position": "4-1"})
    assert bad.status_code == 400 and "move 1 (4-1) is not legal there" in bad.json()["error"]


def test_a_plugin_module_that_cannot_be_imported_is_one_line(capsys):
    with pytest.raises(InvalidParameterError, match="--plugin no_such_plugin_xyz: cannot import"):
        create_app(plugins=("no_such_plugin_xyz",))
    pytest.importorskip("uvicorn")
    from searchlab.lab.lab_cli import main
    assert main(["--plugin", "no_such_plugin_xyz", "--port", "0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(
        "searchlab lab: error: --plugin no_such_plugin_xyz: cannot import it")


def test_a_registered_game_without_format_move(nim, monkeypatch):
    """register() from Python: moves named by str without whitespace; names must differ."""
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    registry.register(GameEntry(name="nimstr", make=lambda: nim.Nim((2, 2)), label="Nim (str)"))
    kind = play_games.game_kind({"game": "nimstr"})
    d = play_games.describe(kind, "(0,1)")
    assert not kind.drawn and d["to_move"] == "Second player"
    assert [m["name"] for m in d["legal"]] == ["(0,1)", "(1,1)", "(1,2)"]
    registry.register(GameEntry(name="nimsame", make=lambda: nim.Nim((2, 2)),
                                format_move=lambda m: "take"))
    with pytest.raises(LabError, match="two legal moves are both named 'take'"):
        play_games.describe(play_games.game_kind({"game": "nimsame"}), "")


# ------------------------------------------------------------------ the browser (one test)

def test_the_plugin_played_in_the_browser(nim):
    from tests.lab.test_browser import SHOTS, lab_page   # skips without chromium, uvicorn, playwright
    with lab_page(create_app(plugins=("nim_grid",))) as p:
        labels = p.locator("#game option").all_inner_texts()
        assert "Nim" in labels and labels[0] == "Tic-tac-toe"
        p.select_option("#game", "nim")
        p.wait_for_selector("#generic-view button[data-move='3-1']")
        assert p.inner_text("#generic-text") == str(nim.Nim((1, 2, 3)))
        # a move button plays from the keyboard; the engine (second player) answers
        p.focus("#generic-view button[data-move='3-1']")
        p.keyboard.press("Enter")
        p.wait_for_function("document.getElementById('engine-info').textContent.includes('nodes')",
                            timeout=60_000)
        position = p.input_value("#position").split()
        assert position[0] == "3-1" and len(position) == 2
        depth = int(p.input_value("#depth"))
        ref = search(_rooted(nim, [(2, 1)]), "alphabeta", "id+tt+killer+history+static",
                     depth=depth)
        assert position[1] == nim.move_text(ref.best_move) == p.inner_text("#engine-move-name")
        assert f"nodes {ref.nodes:,}" in p.inner_text("#engine-info")
        assert p.inner_text("#generic-text") == str(_rooted(nim, [(2, 1), ref.best_move]))
        p.screenshot(path=str(SHOTS / "plugin-nim-1280x720.png"))
        _axe_clean(p, "nim")
        # undo goes back to the position before the engine's move
        p.click("#undo")
        p.wait_for_function("document.getElementById('position').value === '3-1'")
        # the drawn plug-in (cells only): a cell of its grid plays, the engine answers
        p.select_option("#game", "nimgrid")
        p.wait_for_selector("#board svg [data-cell='2,2'].legal")
        p.focus("#board [data-cell='2,2']")
        p.keyboard.press("Enter")
        p.wait_for_function("document.getElementById('position').value.split(' ').length === 2 && "
                            "document.getElementById('engine-info').textContent.includes('nodes')",
                            timeout=60_000)
        moves = p.input_value("#position").split()
        assert moves[0] == "3-1" and moves[1] == position[1]    # the same game, the same answer
        p.screenshot(path=str(SHOTS / "plugin-nimgrid-1280x720.png"))
        _axe_clean(p, "nimgrid")


def _axe_clean(p, what):
    """axe-core's WCAG 2.1 A/AA rules: no serious or critical violation (as the other views)."""
    axe = pytest.importorskip("axe_playwright_python")
    p.add_script_tag(path=str(Path(axe.__file__).with_name("axe.min.js")))
    res = p.evaluate("axe.run(document, {runOnly: {type: 'tag', values: "
                     "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in res["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{what}: {bad}"


def test_a_drawing_is_one_of_the_pages_layouts():
    with pytest.raises(InvalidParameterError, match="layout must be one of grid, hexagons, columns; got 'spiral'"):
        LabBoard(layout="spiral")
    with pytest.raises(InvalidParameterError, match=r"size must be one of its sizes \[3, 5\]; got 4"):
        LabBoard(sizes=(3, 5), size=4)


def test_a_drawing_flag_needs_cells():
    with pytest.raises(InvalidParameterError, match="lab=True .* needs a lab_board with cells"):
        GameEntry(name="x", make=lambda: None, lab=True)
    with pytest.raises(InvalidParameterError, match="lab=True .* needs a lab_board with cells"):
        GameEntry(name="x", make=lambda: None, lab=True, lab_board=LabBoard(pieces=("A", "B")))
