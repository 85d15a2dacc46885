"""The lab as a teacher projects it and a student uses it, in headless Chromium at 1280x720,
1024x768 and 390x844: no sideways scrolling, the step's tree, text and counts on one screen,
panel boxes that do not move while stepping, stepping from the keyboard (a clicker's
PageDown/PageUp), zero serious or critical axe-core violations on every view (axe.min.js from
the axe-playwright-python package: no download at run time), the play view's state rules, and
the trace's numbers (current windows, null windows, re-searches) equal to the traced search's.
Screenshots under tests/artifacts/lab-screenshots/ (git-ignored)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api")
axe_package = pytest.importorskip("axe_playwright_python")

from searchlab.algorithms.trace import run_trace  # noqa: E402
from searchlab.lab import trees  # noqa: E402
from searchlab.lab.app import create_app  # noqa: E402
from searchlab.trees import ExplicitTree  # noqa: E402
from tests.lab.test_browser import ARGS, CHROMIUM, SHOTS, served  # noqa: E402  (skips without chromium)

AXE = Path(axe_package.__file__).with_name("axe.min.js")
VIEWPORTS = [(1280, 720), (1024, 768), (390, 844)]
TEXTBOOK = [[3, 12, 8], [2, 4, 6], [14, 5, 2]]
PASS_POSITION = ("c4c5f6c3b5g7e3e6c2f3g3a5h8b3f4f2b4f5f7h3a3d2e2e1a6e7d7c1c6g8f1g4d1b6b1d3g6b7f8"
                 "a7c7h6a8b2g5g2a1d6h2h5a4d8c8h7e8a2h4b8")      # Black to move, with no move


@pytest.fixture(scope="module")
def lab():
    app = create_app()
    with served(app) as url:
        # the layout is tested here, not a cold start on a busy machine: wait for the background
        # compiles, and warm both workers (their start-up is outside a request's cap, but it is
        # not what these tests time)
        deadline = time.monotonic() + 600
        while app.state.compiler.compiling() and time.monotonic() < deadline:
            time.sleep(1)
        warm = [threading.Thread(target=app.state.pool.run, args=(
            "trace", {"tree": {"kind": "preset", "name": "textbook"}}, 600)) for _ in range(2)]
        for w in warm:
            w.start()
        for w in warm:
            w.join()
        yield url, app


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _open(browser, lab, w=1280, h=720):
    ctx = browser.new_context(viewport={"width": w, "height": h}, accept_downloads=True)
    p = ctx.new_page()
    p.goto(lab[0] + "/")
    p.wait_for_selector("body[data-ready='1']", timeout=90_000)
    for _ in range(3):      # a fresh server's first trace may meet workers still starting up
        if p.locator(".panel").count():
            break
        print("tree error:", p.inner_text("#tree-error"))
        p.click("#load-tree")
        p.wait_for_timeout(3000)
    return p


def _axe(p, what):
    """axe-core's WCAG 2.1 A/AA rules on the page as it is: no serious or critical violation."""
    p.add_script_tag(path=str(AXE))
    res = p.evaluate("axe.run(document, {runOnly: {type: 'tag', values: "
                     "['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}})")
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in res["violations"] if v["impact"] in ("serious", "critical")]
    assert not bad, f"{what}: {bad}"
    return res


def _settled(p, timeout=90_000):
    """The play view's board unlocked: the game or position has loaded (the board is locked,
    aria-busy, while it loads, so a click meanwhile is not played on the position it replaces)."""
    p.wait_for_selector("#board-wrap:not([aria-busy])", timeout=timeout)


def _no_sideways_scroll(p):
    assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), \
        p.evaluate("document.documentElement.scrollWidth")


BOXES = """[...document.querySelectorAll('.panel, .panel .view, .panel .info, .panel .counts, .panel ol.code')]
  .map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(v => Math.round(v)); })"""


# what a step needs, on the screen: no text box cut off (its text longer than its box), the
# active node and its window text inside the tree's view, the parent's children too, and type
# that can be read (the step text >= 15 px, the pseudo-code >= 11 px)
STEP_VISIBLE = """[...document.querySelectorAll('.panel')].flatMap(P => {
  const bad = [], alg = P.dataset.algorithm, box = e => e.getBoundingClientRect();
  for (const sel of ['.info', '.counts', 'ol.code']) { const e = P.querySelector(sel);
    if (e.scrollHeight > e.clientHeight + 1) bad.push([alg, sel, 'cut', e.scrollHeight, e.clientHeight]); }
  if (parseFloat(getComputedStyle(P.querySelector('.info')).fontSize) < 15) bad.push([alg, 'info font']);
  if (parseFloat(getComputedStyle(P.querySelector('ol.code')).fontSize) < 11) bad.push([alg, 'code font']);
  const v = box(P.querySelector('svg.tree')), inside = (e, what) => { if (!e) return; const b = box(e);
    if (b.width && (b.left < v.left - 1 || b.right > v.right + 1 || b.top < v.top - 1 || b.bottom > v.bottom + 1))
      bad.push([alg, what, 'outside the view', [b.left, b.right, b.top, b.bottom].map(Math.round), [v.left, v.right, v.top, v.bottom].map(Math.round)]); };
  const act = P.querySelector('svg.tree .node.active');
  inside(act, 'active node'); inside(P.querySelector('svg.tree .win.now'), 'its window');
  if (act && act.dataset.path !== '') {    // its siblings too, where they fit in the view
    const path = act.dataset.path.split('.'), parent = path.slice(0, -1).join('.');
    const sibs = [...P.querySelectorAll('svg.tree .node')].filter(n => { const q = n.dataset.path.split('.');
      return n.dataset.path !== '' && q.length === path.length && q.slice(0, -1).join('.') === parent; });
    const win = P.querySelector('svg.tree .win.now'), bs = [...sibs, ...(win ? [win] : [])].map(box).filter(b => b.width);
    const span = Math.max(...bs.map(b => b.right)) - Math.min(...bs.map(b => b.left));
    if (span + 40 <= v.width) sibs.forEach(n => inside(n, 'a sibling ' + n.dataset.path)); }
  return bad; })"""


def _step(p):
    return int(p.locator(".panel .info").first.get_attribute("data-step"))


@pytest.mark.parametrize("algorithms", [["alphabeta"], ["minimax", "alphabeta", "pvs"]])
@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_trace_view_on_a_projector_and_a_phone(browser, lab, w, h, algorithms):
    p = _open(browser, lab, w, h)
    for a in algorithms:
        if a != "alphabeta":
            p.check(f'.alg[value="{a}"]')
    p.wait_for_function(f"document.querySelectorAll('.panel').length === {len(algorithms)}")
    p.wait_for_timeout(300)
    p.focus('[data-act="step"]')
    first = None
    for k in range(1, 21):                  # a clicker: PageDown steps, the layout stays put
        p.keyboard.press("PageDown")
        assert _step(p) == k
        boxes = p.evaluate(BOXES)
        first = first or boxes
        assert boxes == first, f"the panels moved at step {k}"
        assert p.evaluate(STEP_VISIBLE) == [], k
    _no_sideways_scroll(p)
    height = p.evaluate("window.innerHeight")
    for panel in p.locator(".panel").all():
        box = {sel: panel.locator(sel).bounding_box() for sel in (".view", ".info", ".counts")}
        if w >= 1000:                       # the step's tree, text and counts above the fold
            assert all(b["y"] + b["height"] <= height + 1 for b in box.values()), box
        else:                               # a phone: one screen holds them, under the sticky step buttons
            top, bottom = box[".view"]["y"], box[".counts"]["y"] + box[".counts"]["height"]
            bar = p.locator(".step-controls").bounding_box()["height"]
            assert bottom - top <= height - bar, (top, bottom, bar)
    if w < 700:                             # a phone: the step buttons stay on the screen (sticky)
        p.locator(".panel .counts").last.scroll_into_view_if_needed()
        b = p.locator('[data-act="step"]').bounding_box()
        assert p.evaluate("window.scrollY") > 0 and 0 <= b["y"] and b["y"] + b["height"] <= height, b
    p.keyboard.press("PageUp")
    assert _step(p) == 19
    p.keyboard.press("ArrowLeft")
    p.keyboard.press("ArrowRight")
    p.keyboard.press("ArrowRight")
    assert _step(p) == 20
    live = p.locator("[data-live]").inner_text()
    assert "step 20 of" in live                 # announced to a screen reader
    name = f"trace-{len(algorithms)}-{w}x{h}"
    p.screenshot(path=str(SHOTS / f"{name}.png"))
    p.keyboard.press("End")
    assert _step(p) == max(len(run_trace(ExplicitTree(TEXTBOOK), a, "natural")[1]) for a in algorithms)
    p.keyboard.press("Home")
    assert _step(p) == 0
    _axe(p, name)
    p.context.close()


def test_current_window_null_windows_researches_and_cutoff_jumps(browser, lab):
    p = _open(browser, lab, 1280, 720)
    p.check('.alg[value="pvs"]')
    p.wait_for_function("document.querySelectorAll('.panel').length === 2")
    p.focus('[data-act="step"]')
    p.keyboard.press("n")                   # the next cutoff: B's, at step 13 in both
    assert _step(p) == 13
    ab = p.locator('.panel[data-algorithm="alphabeta"]')
    # B's window now: entered with (3, +inf), its child returned 2, so beta = 2 (the reason)
    assert ab.locator(".win.now").text_content() == "α = 3, β = 2"
    assert "α = 3 ≥ β = 2" in ab.locator(".info").inner_text()
    p.keyboard.press("p")                   # no cutoff before: stays
    assert _step(p) == 13
    p.keyboard.press("Home")
    for _ in range(5):                      # PVS enters A2 with the null window (3 - eps, 3)
        p.keyboard.press("ArrowRight")
    pvs = p.locator('.panel[data-algorithm="pvs"]')
    assert "enter A2 (MAX) with window (α = 3 − ε, β = 3), a null window at 3" in pvs.locator(".info").inner_text()
    assert pvs.locator(".win.now").text_content() == "null window at 3"
    assert "2.9999999999999996" not in p.inner_text("body")
    for _ in range(5):                      # step 10: B entered with the null window (3, 3 + eps)
        p.keyboard.press("ArrowRight")
    assert "enter B (MIN) with window (α = 3, β = 3 + ε), a null window at 3" in pvs.locator(".info").inner_text()
    assert pvs.locator("ol.code li.now").inner_text().strip().startswith("each later child")
    assert "3.0000000000000004" not in p.inner_text("body")
    # re-searches on a random tree: the page's count equals the trace's (a child entered again
    # within one visit of its parent), step by step
    p.select_option("#tree-kind", "random")
    p.click("#load-tree")
    p.wait_for_function("window.SEARCHLAB_TRACE.label.includes('random')")
    trace = p.evaluate("window.SEARCHLAB_TRACE.traces[1]")
    assert trace["algorithm"] == "pvs"
    res, events = run_trace(ExplicitTree(trace["tree"]), "pvs", "natural")
    assert res.nodes == trace["result"]["nodes"]
    expected, kids = [], {}
    for e in events:
        again = 0
        if e.kind == "enter":
            if e.path:
                seen = kids[e.path[:-1]]
                again = e.path[-1] in seen
                seen.add(e.path[-1])
            kids[e.path] = set()
        expected.append((expected[-1] if expected else 0) + again)
    assert expected[-1] > 0
    p.focus('[data-act="step"]')
    for k in range(1, len(events) + 1):
        p.keyboard.press("PageDown")
        if k % 7 == 0 or k == len(events):
            assert int(pvs.locator(".c-researches").inner_text()) == expected[k - 1], k
    assert f"search() reports nodes {res.nodes}" in pvs.locator(".counts").inner_text()
    p.context.close()


@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_large_tree_is_zoomed_readably_with_an_overview(browser, lab, w, h):
    p = _open(browser, lab, w, h)
    p.select_option("#tree-kind", "random")
    p.fill("#rb", "16")
    p.fill("#rd", "3")
    p.click("#load-tree")
    p.wait_for_function("window.SEARCHLAB_TRACE.traces[0].n_leaves === 4096", timeout=60_000)
    p.wait_for_timeout(300)
    view = p.locator(".panel .view").first
    assert "zoomed" in view.get_attribute("class") and view.locator(".overview").is_visible()
    # the leaves' labels drawn at >= 15 px x 0.75 on the screen
    size = p.evaluate("""(() => { const t = document.querySelector('.panel svg.tree .lab');
        const s = document.querySelector('.panel svg.tree').getScreenCTM().a;
        return parseFloat(getComputedStyle(t).fontSize) * s; })()""")
    assert size >= 11
    p.focus('[data-act="step"]')
    for _ in range(30):
        p.keyboard.press("PageDown")
    active = p.locator(".panel svg.tree .node.active").first.bounding_box()
    box = p.locator(".panel svg.tree").first.bounding_box()
    assert box["x"] <= active["x"] and active["x"] + active["width"] <= box["x"] + box["width"]  # followed
    assert p.evaluate(STEP_VISIBLE) == []
    p.screenshot(path=str(SHOTS / f"trace-4096-zoomed-{w}x{h}.png"))
    p.click('[data-z="fit"]')
    assert "zoomed" not in view.get_attribute("class")
    # the squeezed overview: the active node (too small to see there) marked by a line down to it
    marker = p.locator(".panel svg.tree .marker").first.bounding_box()
    node = p.locator(".panel svg.tree .node.active").first.bounding_box()
    centre = marker["x"] + marker["width"] / 2
    assert marker["width"] >= 3 and box["x"] <= centre <= box["x"] + box["width"], (marker, box)
    assert abs(centre - (node["x"] + node["width"] / 2)) <= 3, (marker, node)
    p.screenshot(path=str(SHOTS / f"trace-4096-fit-{w}x{h}.png"))
    p.context.close()


@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_presenter_mode(browser, lab, w, h):
    p = _open(browser, lab, w, h)
    small = p.evaluate("parseFloat(getComputedStyle(document.querySelector('.panel .info')).fontSize)")
    p.click('[data-act="presenter"]')
    assert p.evaluate("document.body.classList.contains('presenter')")
    big = p.evaluate("parseFloat(getComputedStyle(document.querySelector('.panel .info')).fontSize)")
    assert big >= 24 > small and not p.locator("#tree-form").is_visible()
    p.wait_for_timeout(300)
    p.focus('[data-act="step"]')
    for _ in range(12):
        p.keyboard.press("PageDown")
    assert p.evaluate(STEP_VISIBLE) == []
    p.screenshot(path=str(SHOTS / f"trace-presenter-{w}x{h}.png"))
    p.context.close()


@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_play_view_layout_styles_and_axe(browser, lab, w, h):
    p = _open(browser, lab, w, h)
    p.click("#tab-play")
    p.select_option("#game", "tictactoe")
    # the board is locked while the game loads (at once, in the change event): a cell played
    # meanwhile would be replaced by the loaded game
    assert p.evaluate("""(() => { const g = document.getElementById('game'); g.dispatchEvent(new Event('change'));
        return document.getElementById('board-wrap').getAttribute('aria-busy'); })()""") == "true"
    p.wait_for_function("document.querySelectorAll('#board [data-cell]').length === 9")
    _settled(p)
    p.locator('[data-cell="1,1"]').focus()          # a focusable cell, played from the keyboard
    p.keyboard.press("Enter")
    p.wait_for_function("document.getElementById('engine-info').textContent.includes('nodes')",
                        timeout=60_000)
    assert p.input_value("#position").startswith("4")  # the cell played, then the engine's reply
    # the trace's SVG style sheet stays in its SVG: the marks keep their 54 px
    assert p.evaluate("getComputedStyle(document.querySelector('#board text.mark')).fontSize") == "54px"
    assert p.locator("#board .coord").count() == 9         # cell numbers: the moves' names
    p.fill("#depth", "6")
    p.click("#compare")
    p.wait_for_selector("#compare-table[data-done='1']", timeout=120_000)
    assert p.locator("#compare-chart .bar-label").first.text_content() == "minimax"   # the first bar
    _no_sideways_scroll(p)
    _compare_readable(p)
    p.screenshot(path=str(SHOTS / f"play-{w}x{h}.png"), full_page=True)
    _axe(p, f"play {w}x{h}")
    p.context.close()


def _compare_readable(p):
    """The Compare chart's text drawn at >= 11 px on the screen, each label clear of its bar
    (beside it or above it), and the table as wide as its box at most (no sideways scrolling)."""
    bad = p.evaluate("""(() => { const svg = document.getElementById('compare-chart'), k = svg.getScreenCTM().a, bad = [];
      svg.querySelectorAll('text').forEach(t => { const px = parseFloat(t.getAttribute('font-size')) * k;
        if (px < 11) bad.push(['small', t.textContent, px]); });
      const bars = svg.querySelectorAll('rect');
      svg.querySelectorAll('.bar-label').forEach((t, i) => { const a = t.getBoundingClientRect(), b = bars[i].getBoundingClientRect();
        if (a.right > b.left + 1 && a.bottom > b.top + 1) bad.push(['overlaps its bar', t.textContent]); });
      const ticks = [...svg.querySelectorAll('.tick')].map(t => t.getBoundingClientRect());
      ticks.slice(1).forEach((b, i) => { if (b.left < ticks[i].right + 2) bad.push(['axis labels overlap', i]); });
      const box = document.querySelector('#compare-out .scroll-x');
      if (box.scrollWidth > box.clientWidth + 1) bad.push(['table wider than its box', box.scrollWidth, box.clientWidth]);
      return bad; })()""")
    assert bad == []


def test_board_locked_while_the_engine_searches(browser, lab):
    p = _open(browser, lab, 1280, 720)
    p.click("#tab-play")
    p.select_option("#game", "connect4")
    p.fill("#depth", "11")
    p.select_option("#game-ordering", "natural")    # a search of a few seconds
    p.wait_for_function("document.querySelectorAll('#board circle[data-col]').length === 42")
    _settled(p)
    p.locator('circle[data-col="3"]').first.click()
    p.wait_for_selector("#board-wrap[aria-busy='true']")
    assert p.is_disabled("#engine-move") and p.is_disabled("#undo")
    # clicks on the board meanwhile are not played
    p.evaluate("document.querySelectorAll('circle[data-col=\"0\"]')[0].dispatchEvent(new MouseEvent('click'))")
    p.wait_for_selector("#board-wrap:not([aria-busy])", timeout=120_000)
    pos = p.input_value("#position")
    assert len(pos) == 2 and pos[0] == "4", pos    # the human's move and the engine's
    p.context.close()


@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_compare_disabled_while_running_and_cancel(browser, lab, w, h):
    p = _open(browser, lab, w, h)
    p.click("#tab-play")
    p.select_option("#game", "connect4")
    p.wait_for_function("document.getElementById('depth').value === '10'")
    _settled(p)
    p.click("#compare")
    assert p.is_disabled("#compare") and p.is_visible("#cancel-compare")
    p.wait_for_selector("#compare-table tr[data-row='0'][data-status='counted']", timeout=120_000)
    # minimax at depth 10 is counted (314,060,245 nodes): its row and the chart's first bar
    assert p.inner_text("#compare-table tr[data-row='0'] .c-nodes") == "314,060,245"
    assert p.locator("#compare-chart .bar-label").first.text_content() == "minimax (counted)"
    _compare_readable(p)
    _no_sideways_scroll(p)
    p.screenshot(path=str(SHOTS / f"compare-connect4-counted-{w}x{h}.png"), full_page=True)
    p.click("#cancel-compare")
    p.wait_for_function("document.querySelector('#compare-table caption').textContent.includes('cancelled')")
    assert not p.is_disabled("#compare") and not p.is_visible("#cancel-compare")
    assert p.inner_text("#game-error") == ""              # no "busy", no eternal "computing…"
    assert "computing" not in p.inner_text("#compare-out")
    p.click("#compare")                                  # and it runs again
    p.wait_for_selector("#compare-table tr[data-row='1']:not([data-status='pending'])", timeout=120_000)
    p.click("#cancel-compare")
    p.context.close()


@pytest.mark.parametrize("w, h", VIEWPORTS)
def test_othello_pass_and_pv_legend(browser, lab, w, h):
    p = _open(browser, lab, w, h)
    p.click("#tab-play")
    p.select_option("#game", "othello")
    _settled(p)
    p.select_option("#engine-side", "none")
    p.fill("#position", PASS_POSITION)
    p.click("#load-position")
    _settled(p)
    p.wait_for_function("!document.getElementById('pass').hidden")
    assert "must pass" in p.inner_text("#status")
    assert p.locator("#board .coord").count() == 16        # a..h, 1..8
    _no_sideways_scroll(p)
    p.screenshot(path=str(SHOTS / f"play-othello-pass-{w}x{h}.png"), full_page=True)
    p.click("#pass")
    p.wait_for_function(f"document.getElementById('position').value === {PASS_POSITION + 'pass'!r}")
    assert p.is_hidden("#pass") and "White to move" in p.inner_text("#status")
    p.select_option("#engine-side", "second")
    p.fill("#depth", "3")
    p.click("#engine-move")
    p.wait_for_function("document.getElementById('engine-info').textContent.includes('nodes')",
                        timeout=60_000)
    if p.locator(".pv-mark").count():
        assert p.is_visible("#pv-legend") and "principal variation" in p.inner_text("#pv-legend")
    p.context.close()


def test_export_is_labelled_with_its_ordering(browser, lab, tmp_path):
    p = _open(browser, lab, 1280, 720)
    assert p.inner_text("#export-html") == "Export offline HTML (natural order)"
    p.select_option("#ordering", "perfect")
    assert p.inner_text("#export-html") == "Export offline HTML (perfect order)"
    p.wait_for_function("window.SEARCHLAB_TRACE.traces[0].ordering === 'perfect'")
    with p.expect_download() as d:
        p.click("#export-html")
    assert d.value.suggested_filename == "searchlab-trace-perfect.html"
    path = tmp_path / "export.html"
    d.value.save_as(path)
    q = p.context.new_page()
    q.goto(path.as_uri())
    q.wait_for_selector(".panel")
    assert q.locator("select").first.locator("option").all_inner_texts() == ["perfect"]
    ref = trees.trace_payload(TEXTBOOK, "alphabeta", "perfect", 0)["result"]
    q.focus('[data-act="step"]')
    q.keyboard.press("End")
    assert f"search() reports nodes {ref['nodes']}, leaves {ref['leaves']}" in q.inner_text(".panel .counts")
    _axe(q, "offline export")
    p.context.close()
