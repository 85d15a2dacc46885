"""The lab in headless Chromium (Debian's /usr/bin/chromium driven by Playwright through
``executable_path``; no browser download): play moves in each game, Compare, step a trace
forward and back. Screenshots are kept under tests/artifacts/lab-screenshots/ (git-ignored)."""

from __future__ import annotations

import contextlib

import os
import shutil
import socket
import struct
import threading
import time
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")

from searchlab import search  # noqa: E402
from searchlab.algorithms.minimal_tree import minimal_tree  # noqa: E402
from searchlab.algorithms.trace import run_trace  # noqa: E402
from searchlab.lab.app import create_app  # noqa: E402
from searchlab.lab.play_games import GAMES  # noqa: E402
from searchlab.trees import ExplicitTree  # noqa: E402

CHROMIUM = os.environ.get("SEARCHLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(__file__).resolve().parents[1] / "artifacts" / "lab-screenshots"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not Path(CHROMIUM).exists():
    pytest.skip("no chromium found (apt-get install chromium; .ci/run installs it)",
                allow_module_level=True)


@contextlib.contextmanager
def served(app):
    """``app`` served by uvicorn on a free local port in a daemon thread; yields its base URL,
    and stops the server on exit."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    t = threading.Thread(target=srv.run, daemon=True)
    t.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        t.join(10)


@contextlib.contextmanager
def lab_page(app, width: int = 1280, height: int = 720):
    """A Chromium page on ``app`` (served as above), loaded and on its Play tab; closed on exit."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    with served(app) as url, sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            p = browser.new_page(viewport={"width": width, "height": height})
            p.goto(url + "/")
            p.wait_for_selector("body[data-ready='1']", timeout=60_000)
            p.click("#tab-play")
            yield p
        finally:
            browser.close()


@pytest.fixture(scope="module")
def server():
    with served(create_app()) as url:
        yield url


@pytest.fixture(scope="module")
def page(server, tmp_path_factory):
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM,
            args=ARGS, headless=True, viewport={"width": 1400, "height": 1000})
        p = ctx.new_page()
        p.goto(server + "/")
        p.wait_for_selector("body[data-ready='1']", timeout=60_000)
        yield p
        ctx.close()


def _download(page, selector, folder):
    with page.expect_download() as d:
        page.click(selector)
    path = folder / d.value.suggested_filename
    d.value.save_as(path)
    return path


def test_export_step_and_frames(page, tmp_path):
    """The current step as SVG and PNG (the PNG drawn from the SVG on a canvas, in the page),
    and every step as numbered SVG frames in one zip."""
    page.select_option("#tree-kind", "preset")
    page.select_option("#preset", "textbook")
    page.wait_for_function("window.SEARCHLAB_TRACE && window.SEARCHLAB_TRACE.label.includes('textbook')"
                           " && window.SEARCHLAB_TRACE.traces.length === 1")
    page.click('[data-act="reset"]')
    for _ in range(13):
        page.click('[data-act="step"]')
    svg = _download(page, '[data-act="svg"]', tmp_path)
    text = svg.read_text()
    assert svg.name == "trace-alphabeta-step13.svg" and text.startswith("<svg")
    root = ElementTree.fromstring(text)
    words = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "cutoff at B" in words and "cut: 3 ≥ 2" in words and "leaves pruned 2" in words
    png = _download(page, '[data-act="png"]', tmp_path)
    data = png.read_bytes()
    assert png.name == "trace-alphabeta-step13.png" and data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    vb = [float(x) for x in root.get("viewBox").split()]
    assert (width, height) == (int(vb[2] * 2), int(vb[3] * 2)) and len(data) > 5000
    (tmp_path / "step13.png").write_bytes(data)
    shutil.copy(png, SHOTS / "export-step13.png")
    frames = _download(page, '[data-act="frames"]', tmp_path)
    n = len(page.evaluate("window.SEARCHLAB_TRACE.traces[0].events"))
    with zipfile.ZipFile(frames) as z:
        assert z.testzip() is None
        names = z.namelist()
        assert names == [f"alphabeta-natural/frame_{i:03d}.svg" for i in range(1, n + 1)]
        last = ElementTree.fromstring(z.read(names[-1]).decode())
        assert "done: value 3" in " ".join(t.text or "" for t in last.iter(
            "{http://www.w3.org/2000/svg}text"))
    assert page.locator(".panel .info").first.get_attribute("data-step") == "13"   # restored
    page.click('[data-act="reset"]')


def _counts(p):
    panel = p.locator(".panel").first
    return {k: int(panel.locator(f".c-{k}").inner_text()) for k in ("nodes", "leaves", "pruned", "cutoffs")}


def test_step_trace_forward_and_back(page):
    res, events = run_trace(ExplicitTree([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), "alphabeta", "natural")
    step = page.locator('[data-act="step"]')
    for _ in range(13):                      # through the cutoff at B
        step.click()
    info = page.locator(".panel .info").first.inner_text()
    assert "cutoff at B" in info and "α = 3 ≥ β = 2" in info
    seen = events[:13]
    assert _counts(page) == {"nodes": sum(e.kind == "enter" for e in seen),
                             "leaves": sum(e.kind == "leaf" for e in seen),
                             "pruned": 2, "cutoffs": 1}
    page.screenshot(path=str(SHOTS / "trace-textbook-cutoff.png"), full_page=True)
    page.locator('[data-act="back"]').click()        # step 12: leaf B1 = 2, window (3, +inf)
    assert "leaf B1 = 2 with window (α = 3, β = +∞)" in page.locator(".panel .info").first.inner_text()
    assert _counts(page)["pruned"] == 0
    for _ in range(len(events)):
        step.click()
    assert _counts(page) == {"nodes": res.nodes, "leaves": res.leaves, "pruned": 2, "cutoffs": 1}
    assert page.locator(".panel .c-value").first.inner_text() == "3"
    assert page.locator(".panel .node.pv").count() == 3
    page.screenshot(path=str(SHOTS / "trace-textbook-done.png"), full_page=True)


def test_side_by_side_and_perfect_order(page):
    page.select_option("#tree-kind", "random")
    page.fill("#rb", "3")
    page.fill("#rd", "3")
    page.check('.alg[value="minimax"]')
    page.check('.alg[value="pvs"]')
    page.select_option("#ordering", "perfect")
    # three panels alone can be the natural-order trace still on screen: wait for the one asked for
    page.wait_for_function("document.querySelectorAll('.panel').length === 3 && "
                           "window.SEARCHLAB_TRACE && window.SEARCHLAB_TRACE.traces.length === 3 && "
                           "window.SEARCHLAB_TRACE.traces.every(t => t.ordering === 'perfect')")
    page.click('[data-act="reset"]')
    data = page.evaluate("window.SEARCHLAB_TRACE")
    for _ in range(300):
        page.click('[data-act="step"]')
        if all("done" in t for t in page.locator(".panel .counts").all_inner_texts()):
            break
    tree = ExplicitTree(data["tree"])
    for k, alg in enumerate(("minimax", "alphabeta", "pvs")):
        ref = search(tree, alg, "perfect", engine="reference")
        text = page.locator(".panel .counts").nth(k).inner_text()
        assert f"search() reports nodes {ref.nodes}, leaves {ref.leaves}" in text
    page.screenshot(path=str(SHOTS / "trace-side-by-side-perfect.png"), full_page=True)
    page.uncheck('.alg[value="minimax"]')
    page.uncheck('.alg[value="pvs"]')
    page.select_option("#ordering", "natural")


@pytest.mark.parametrize("game, clicks", [
    ("tictactoe", ['[data-cell="1,1"]']),
    ("connect4", ['circle[data-col="3"]', 'circle[data-col="2"]']),
    ("othello", ['[data-cell="4,5"]']),
    ("hex", ['[data-cell="3,3"]']),
])
def test_play_and_compare(page, game, clicks):
    page.click("#tab-play")
    page.select_option("#game", game)
    page.wait_for_selector("#board-wrap:not([aria-busy])")    # the game loaded: the board unlocked
    depth = {"tictactoe": 9, "connect4": 6, "othello": 4, "hex": 3}[game]
    page.fill("#depth", str(depth))
    for sel in clicks:
        before = page.input_value("#position")
        page.locator(sel).first.click()
        page.wait_for_function(f"document.getElementById('position').value !== {before!r} && "
                               "document.getElementById('engine-info').textContent.includes('nodes')",
                               timeout=60_000)
    position = page.input_value("#position")
    assert page.locator(".pv-mark").count() >= 1 or game == "tictactoe"
    page.click("#compare")
    page.wait_for_selector("#compare-table[data-done='1']", timeout=120_000)
    kind = GAMES[game]
    g = kind.build(page.evaluate("window.SEARCHLAB_COMPARE.position"))
    assert page.evaluate("window.SEARCHLAB_COMPARE.position") == position
    rows = page.locator("#compare-table tr[data-row]")
    orderings = ["natural", "worst", "natural", "random", kind.own,
                 f"id+tt+killer+history+{kind.own}", "perfect"]
    for k, order in enumerate(orderings):
        row = rows.nth(k)
        if row.locator(".c-nodes").count() == 0:
            continue
        alg = "minimax" if k == 0 else "alphabeta"
        if order == "perfect":      # == search(g, "alphabeta", "perfect"): tests/lab/test_api.py
            ref = minimal_tree(g, depth)
        else:
            ref = search(g, alg, order, depth=depth, oracle_limit=3000,
                         max_nodes=2_000_000 if alg == "minimax" else None)
        assert int(row.locator(".c-nodes").inner_text().replace(",", "")) == ref.nodes
        assert int(row.locator(".c-leaves").inner_text().replace(",", "")) == ref.leaves
    assert rows.nth(6).get_attribute("data-status") == "ok"      # small depths: the row is run
    assert "same value" in page.inner_text("#agree") or "found the value" in page.inner_text("#agree")
    page.screenshot(path=str(SHOTS / f"play-compare-{game}.png"), full_page=True)
    page.click("#undo")
    page.wait_for_function(f"document.getElementById('position').value !== {position!r}")
    page.click("#redo")
    page.wait_for_function(f"document.getElementById('position').value === {position!r}")
    page.click("#tab-trace")
