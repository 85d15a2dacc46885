"""Ordering components from outside the package in the lab's game menu: tests/data/plugins/
countermove.py installed as an entry-point plug-in (a distribution's
``[project.entry-points."searchlab.orderings"]``, written to a folder on the path as pip would),
listed by /api/meta and searched over the JSON API (starlette's TestClient; the searches run in
the lab's worker processes, which find the plug-in through the same entry point) on the
reference engine, node for node as ``search(..., engine="reference")``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from searchlab import search  # noqa: E402
from searchlab.algorithms import ordering_registry  # noqa: E402
from searchlab.algorithms.ordering_registry import COMPONENTS  # noqa: E402
from searchlab.lab import play_games  # noqa: E402
from searchlab.lab.app import create_app  # noqa: E402
from searchlab.lab.requests import MAX_NODES_REFERENCE  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ROOT / "tests" / "data" / "plugins"
LAB = "http://127.0.0.1:8765"
#: the menu's entries of countermove.py's two components, in its entry points' order
POLICIES = ["id+tt+countermove", "mobility"]


def _shipped(mp: pytest.MonkeyPatch) -> dict:
    """The ordering registry as shipped (built-ins only, no entry point read yet); returns
    its components before, for _restore (the monkeypatch context restores the flags)."""
    saved = dict(COMPONENTS)
    for k in [k for k, c in COMPONENTS.items() if c.plugin]:
        del COMPONENTS[k]
    mp.setattr(ordering_registry, "_LOADED", False)
    mp.setattr(ordering_registry, "_PLUGIN_ERRORS", {})
    ordering_registry._parsed.clear()
    return saved


def _restore(saved: dict) -> None:
    COMPONENTS.clear()
    COMPONENTS.update(saved)
    ordering_registry._parsed.clear()
    sys.modules.pop("countermove", None)


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """countermove.py's components installed by entry point for this process and the lab's
    workers (fresh interpreters: they find it on their PYTHONPATH)."""
    site = tmp_path_factory.mktemp("site")
    dist = site / "orderplugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: orderplugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[searchlab.orderings]\ncountermove = countermove:COUNTERMOVE\n"
                                           "mobility = countermove:MOBILITY\n")
    with pytest.MonkeyPatch.context() as mp:
        saved = _shipped(mp)
        mp.syspath_prepend(str(PLUGINS))
        mp.syspath_prepend(str(site))
        mp.setenv("PYTHONPATH", os.pathsep.join(
            [str(site), str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
        try:
            yield
        finally:
            _restore(saved)


@pytest.fixture(scope="module")
def client(installed):
    return TestClient(create_app(wall_clock=600), base_url=LAB)


def test_without_plugins_the_menu_is_the_builtin_one():
    with pytest.MonkeyPatch.context() as mp:
        saved = _shipped(mp)
        try:
            assert play_games.orderings() == play_games.ORDERINGS
            assert play_games.plugin_policies() == ()
        finally:
            _restore(saved)


def test_a_module_given_as_plugin_registers_its_components_for_the_workers_too():
    """register_component() from a module the lab imports (``--plugin``), not installed."""
    with pytest.MonkeyPatch.context() as mp:
        saved = _shipped(mp)
        mp.syspath_prepend(str(PLUGINS))
        mp.setenv("PYTHONPATH", os.pathsep.join([str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
        try:
            c = TestClient(create_app(wall_clock=600, plugins=("countermove",)), base_url=LAB)
            assert c.get("/api/meta").json()["orderings"] == [*play_games.ORDERINGS, *POLICIES]
            r = c.post("/api/search", json={"game": "tictactoe", "position": "4", "depth": 3,
                                            "ordering": "mobility"})
            assert r.status_code == 200, r.text
            ref = search(_position("tictactoe", "4"), "alphabeta", "mobility", depth=3, engine="reference")
            assert (r.json()["engine"], r.json()["nodes"]) == ("reference", ref.nodes)
            c.app.state.pool.close()
        finally:
            _restore(saved)


def test_meta_lists_the_plugin_policies_after_the_builtins(client):
    meta = client.get("/api/meta").json()
    assert meta["orderings"] == [*play_games.ORDERINGS, *POLICIES]


def _position(game: str, position: str):
    kind = play_games.game_kind({"game": game})
    return play_games.build(kind, position)


@pytest.mark.parametrize("game, position, depth, policy", [
    ("connect4", "44", 5, "id+tt+countermove"),
    ("tictactoe", "4", 4, "mobility"),
])
def test_a_plugin_policy_is_searched_on_the_reference_engine(client, game, position, depth, policy):
    r = client.post("/api/search", json={"game": game, "position": position, "depth": depth,
                                         "algorithm": "alphabeta", "ordering": policy})
    assert r.status_code == 200, r.text
    r = r.json()
    g = _position(game, position)
    ref = search(g, "alphabeta", policy, depth=depth, engine="reference")
    assert (r["engine"], r["ordering"], r["budget"]) == ("reference", policy, MAX_NODES_REFERENCE)
    assert (r["value"], r["nodes"], r["leaves"], r["cutoffs"]) == \
        (play_games.for_mover(g, ref.value), ref.nodes, ref.leaves, ref.cutoffs)
    assert r["best_move"] == ref.best_move and r["pv"][0]["move"] == ref.best_move
    # the components are sound: the value is plain minimax's at that depth
    assert ref.value == search(g, "minimax", depth=depth).value
    # and countermove does order: the nodes differ from id+tt's alone
    if policy.startswith("id+tt+"):
        assert ref.nodes != search(g, "alphabeta", "id+tt", depth=depth, engine="reference").nodes


def test_an_unknown_policy_names_the_plugins_among_the_allowed(client):
    bad = client.post("/api/search", json={"game": "tictactoe", "position": "", "depth": 2,
                                           "ordering": "countermove"})
    assert bad.status_code == 400
    assert bad.json()["error"] == (f"ordering must be one of {', '.join([*play_games.ORDERINGS, *POLICIES])}; "
                                   "got 'countermove'")


# ------------------------------------------------------------------ the browser (one test)

def test_the_plugin_policy_chosen_from_the_menu(installed):
    from tests.lab.test_browser import SHOTS, lab_page   # skips without chromium, uvicorn, playwright
    with lab_page(create_app()) as p:
        assert p.locator("#game-ordering option").all_inner_texts() == [*play_games.ORDERINGS, *POLICIES]
        p.select_option("#game", "tictactoe")
        p.select_option("#game-ordering", "id+tt+countermove")
        p.select_option("#engine-side", "none")
        depth = int(p.input_value("#depth"))
        p.click("#engine-move")
        p.wait_for_function("document.getElementById('engine-info').textContent.includes('nodes')",
                            timeout=60_000)
        info = p.inner_text("#engine-info")
        ref = search(_position("tictactoe", ""), "alphabeta", "id+tt+countermove", depth=depth,
                     engine="reference")
        assert "id+tt+countermove" in info and "reference" in info and f"nodes {ref.nodes:,}" in info
        # the menu opened on the plug-in entry, for the screenshot
        p.evaluate("document.getElementById('game-ordering').size = 9")
        p.screenshot(path=str(SHOTS / "plugin-ordering-menu-1280x720.png"))


@pytest.fixture
def f1_lab():
    """A lab started with ``--plugin f1_alphabeta`` (tests/data/plugins/f1_alphabeta.py: a module
    registering a search algorithm, alpha-beta without deep cutoffs); the registry is restored
    after."""
    from searchlab.algorithms import algorithm_registry
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(algorithm_registry, "_PLUGINS", dict(algorithm_registry._PLUGINS))
        mp.syspath_prepend(str(PLUGINS))
        mp.setenv("PYTHONPATH", os.pathsep.join([str(PLUGINS), *filter(None, [os.environ.get("PYTHONPATH")])]))
        sys.modules.pop("f1_alphabeta", None)
        app = create_app(wall_clock=600, plugins=("f1_alphabeta",))
        try:
            yield app
        finally:
            app.state.pool.close()
            sys.modules.pop("f1_alphabeta", None)


def test_a_plugin_algorithm_given_as_plugin_is_offered_and_searched_on_the_reference_engine(f1_lab):
    """/api/meta lists the plug-in algorithm after the built-ins, and the lab's workers search
    with it on the reference engine under the reference budget, node for node as search() does."""
    c = TestClient(f1_lab, base_url=LAB)
    assert c.get("/api/meta").json()["algorithms"] == [*play_games.ALGORITHMS, "alphabeta-f1"]
    r = c.post("/api/search", json={"game": "connect4", "position": "44", "depth": 5,
                                    "algorithm": "alphabeta-f1", "ordering": "own"})
    assert r.status_code == 200, r.text
    r = r.json()
    g = _position("connect4", "44")
    ref = search(g, "alphabeta-f1", "centre", depth=5, engine="reference")
    assert (r["engine"], r["algorithm"], r["budget"]) == ("reference", "alphabeta-f1",
                                                          MAX_NODES_REFERENCE)
    assert (r["value"], r["nodes"], r["leaves"]) == \
        (play_games.for_mover(g, ref.value), ref.nodes, ref.leaves)
    ab = search(g, "alphabeta", "centre", depth=5, engine="reference")
    assert ref.value == ab.value and ref.nodes >= ab.nodes


#: a random tree (b = 3, d = 4) with deep cutoffs: F1 searches 56 nodes there, alpha-beta 52
DEEP = {"kind": "random", "b": 3, "d": 4, "lo": 0, "hi": 20, "seed": 1}


def _f1_and_alphabeta():
    from searchlab.lab.trees import parse_tree
    from searchlab.trees import ExplicitTree
    tree = ExplicitTree(parse_tree(DEEP)[1])
    return (search(tree, "alphabeta-f1", engine="reference"),
            search(tree, "alphabeta", engine="reference"))


def test_the_trace_player_traces_a_plugin_algorithm_node_for_node(f1_lab):
    """The trace player offers the plug-in algorithm after the built-ins, and its trace (run in
    a worker) is search()'s own search: the events' running counts end at search()'s nodes and
    leaves, every entered node is counted once, and the deep cutoffs F1 gives up cost it nodes
    alpha-beta's trace of the same tree does not search. The offline export takes it too."""
    from searchlab.lab.trees import TRACE_ALGORITHMS
    c = TestClient(f1_lab, base_url=LAB)
    assert c.get("/api/meta").json()["trace_algorithms"] == [*TRACE_ALGORITHMS, "alphabeta-f1"]
    body = {"tree": DEEP, "algorithms": ["alphabeta", "alphabeta-f1"], "ordering": "natural"}
    r = c.post("/api/trace", json=body)
    assert r.status_code == 200, r.text
    ab_trace, f1_trace = r.json()["traces"]
    f1, ab = _f1_and_alphabeta()
    for t, ref in ((f1_trace, f1), (ab_trace, ab)):
        last = t["events"][-1]
        assert (last["n"], last["l"], last["c"]) == (ref.nodes, ref.leaves, ref.cutoffs)
        assert (t["result"]["value"], t["result"]["nodes"]) == (ref.value, ref.nodes)
        assert sum(e["k"] == "enter" for e in t["events"]) == ref.nodes
    assert f1_trace["description"] == "alpha-beta without deep cutoffs (Knuth & Moore's F1)"
    assert ab_trace["description"] is None
    assert (f1.nodes, ab.nodes) == (56, 52) and f1.value == ab.value
    r = c.post("/api/export", json=body)
    assert r.status_code == 200 and '"algorithm":"alphabeta-f1"' in r.text
    r = c.post("/api/trace", json={**body, "algorithms": ["alphabeta-f2"]})
    assert r.status_code == 400 and "alphabeta-f1" in r.json()["error"]
    # the Python export, in this process (the fixture's module is imported here too)
    from searchlab.lab.requests import LabError
    from searchlab.lab.trace_player_export import export_trace_html
    assert '"algorithm":"alphabeta-f1"' in export_trace_html(DEEP, algorithms=("alphabeta-f1",))
    with pytest.raises(LabError, match="1 to 3 different names from minimax, alphabeta, pvs, "
                                       "alphabeta-f1"):
        export_trace_html(DEEP, algorithms=("pvs", "pvs"))


def test_the_plugin_algorithm_traced_in_the_browser(f1_lab):
    """The page adds a box for the plug-in algorithm; ticked, its panel shows the plug-in's
    description in the pseudo-code's place and, stepped to the end, search()'s counts."""
    from tests.lab.test_browser import SHOTS, lab_page   # skips without chromium, uvicorn, playwright
    f1, _ = _f1_and_alphabeta()
    with lab_page(f1_lab) as p:
        p.click("#tab-trace")
        assert p.locator(".alg").evaluate_all("bs => bs.map(b => b.value)") == \
            ["minimax", "alphabeta", "pvs", "alphabeta-f1"]
        p.select_option("#tree-kind", "random")
        for k, v in (("rb", 3), ("rd", 4), ("rlo", 0), ("rhi", 20), ("rseed", 1)):
            p.fill(f"#{k}", str(v))
        p.check('.alg[value="alphabeta-f1"]')
        p.wait_for_selector('.panel[data-algorithm="alphabeta-f1"]', timeout=60_000)
        panel = p.locator('.panel[data-algorithm="alphabeta-f1"]')
        assert "alpha-beta without deep cutoffs" in panel.locator("ol.code").inner_text()
        p.keyboard.press("End")
        counts = panel.locator(".counts").inner_text()
        assert f"search() reports nodes {f1.nodes}, leaves {f1.leaves}" in counts, counts
        p.screenshot(path=str(SHOTS / "plugin-algorithm-trace-1280x720.png"))
