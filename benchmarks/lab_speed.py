"""The lab's speed: "Compare the algorithms here" at the default depths, and stepping a trace
of more than 2,000 events in headless Chromium.

    .venv/bin/python benchmarks/lab_speed.py [--positions 3] [--repeats 3] [--no-browser]

Compare: the API's /api/compare (the ASGI test client, so the JSON encoding and the hop to
the app's worker process are included) on Connect Four depth 10, Othello depth 8 and Hex 7x7
depth 5, from the start and from random positions (seeded); one warm-up call per game first
(the worker started, the engine's compiled code loaded), then the best of --repeats per
position. Minimax is in each Compare with its 2,000,000-node budget: at these depths it is
stopped there (reported infeasible), and that stop is part of the time. The perfect-ordering
row (/api/minimal: the position's minimal tree, drawn when it arrives) is timed apart, once.
Trace: minimax on a random b=3, d=6 tree (2,186 events) in Debian's chromium; every step's
update time (JavaScript, synchronous DOM update), the frame time of 300 steps with a paint
after each (requestAnimationFrame), and the time per step as Playwright sees it (a click on
Step and the page's step counter read back, 300 steps). The load average is printed before
and after: the machine is shared, so compare figures only within one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import threading
import time

from starlette.testclient import TestClient

from searchlab.games.hex import Hex, to_text
from searchlab.lab.app import create_app


def _positions(n: int) -> dict[str, list[str]]:
    import numpy as np
    rng = np.random.default_rng(2026)
    c4 = [""] + ["".join(str(int(c)) for c in rng.integers(1, 8, size=6)) for _ in range(n - 1)]
    hx = ["7"] + [to_text(Hex.random(7, 6, seed=s).initial_state()) for s in range(n - 1)]
    return {"connect4": c4, "othello": [""], "hex": hx}


def compare_times(positions: int, repeats: int) -> None:
    depths = {"connect4": 10, "othello": 8, "hex": 5}
    print(f"Compare at the default depths (best of {repeats} per position, after one warm-up):")
    print(f"{'game':<10} {'depth':>5} {'position':<50} {'compare s':>9}  {'minimal s':>9}  "
          f"minimax / perfect row")
    with TestClient(create_app(), base_url="http://127.0.0.1") as client:
        for game, plist in _positions(positions).items():
            client.post("/api/compare", json={"game": game, "position": plist[0],
                                              "depth": depths[game]})
            for pos in plist:
                body = {"game": game, "position": pos, "depth": depths[game]}
                best, mm = float("inf"), ""
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    r = client.post("/api/compare", json=body)
                    best = min(best, time.perf_counter() - t0)
                    if r.status_code != 200:
                        raise SystemExit(f"{game} {pos!r}: {r.json()}")
                    m = r.json()["rows"][0]
                    mm = m["status"] if m["status"] == "ok" else f"stopped at {m['nodes']:,} nodes"
                t0 = time.perf_counter()
                row = client.post("/api/minimal", json=body).json()
                tm = time.perf_counter() - t0
                perfect = f"{row['nodes']:,} nodes" if row["status"] == "ok" else \
                    "not run (size)" if "over the" in row["note"] else "not run (time)"
                print(f"{game:<10} {depths[game]:>5} {pos or '(start)':<50} {best:>9.3f}  "
                      f"{tm:>9.2f}  {mm} / {perfect}", flush=True)


def trace_steps() -> None:
    import uvicorn
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium")
    if chromium is None:
        print("trace stepping: no chromium found (apt-get install chromium); not measured")
        return
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=srv.run, daemon=True).start()
    while not srv.started:
        time.sleep(0.05)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    import tempfile
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as pw:
        ctx = pw.chromium.launch_persistent_context(profile, executable_path=chromium, args=args,
                                                    headless=True, viewport={"width": 1400, "height": 1000})
        page = ctx.new_page()
        page.goto(f"http://127.0.0.1:{port}/")
        page.wait_for_selector("body[data-ready='1']", timeout=60_000)
        page.select_option("#tree-kind", "random")
        page.fill("#rb", "3")
        page.fill("#rd", "6")
        page.uncheck('.alg[value="alphabeta"]')
        page.check('.alg[value="minimax"]')
        page.wait_for_function("window.SEARCHLAB_TRACE && window.SEARCHLAB_TRACE.traces[0].algorithm === 'minimax'"
                               " && window.SEARCHLAB_TRACE.tree.length === 3")
        page.click("#load-tree")
        page.wait_for_function("window.SEARCHLAB_TRACE.traces[0].events.length > 2000")
        out = page.evaluate("""async () => {
            const p = document.querySelector('#player'), btn = p.querySelector('[data-act="step"]');
            const n = window.SEARCHLAB_TRACE.traces[0].events.length, t = [];
            p.querySelector('[data-act="reset"]').click();
            for (let i = 0; i < n; i++) { const a = performance.now(); btn.click(); t.push(performance.now() - a); }
            p.querySelector('[data-act="reset"]').click();
            const f = [];
            for (let i = 0; i < 300; i++) { const a = performance.now(); btn.click();
              await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))); f.push(performance.now() - a); }
            p.querySelector('[data-act="reset"]').click();
            t.sort((x, y) => x - y); f.sort((x, y) => x - y);
            const q = (a, x) => a[Math.min(a.length - 1, Math.floor(x * a.length))];
            return {n, mean: t.reduce((a, b) => a + b) / n, p50: q(t, .5), p95: q(t, .95), max: t[n - 1],
                    f50: q(f, .5), f95: q(f, .95), fmax: f[f.length - 1]};
        }""")
        step, info = page.locator('#player [data-act="step"]'), page.locator("#player .info").first
        seen = []
        for k in range(1, 301):
            t0 = time.perf_counter()
            step.click()
            if info.get_attribute("data-step") != str(k):
                raise SystemExit(f"step {k}: the page shows step {info.get_attribute('data-step')}")
            seen.append(time.perf_counter() - t0)
        seen.sort()
        ctx.close()
    srv.should_exit = True
    print(f"trace stepping: {out['n']} events (minimax, random tree b=3 d=6), headless chromium")
    print(f"  step update (JS + DOM): mean {out['mean']:.2f} ms, median {out['p50']:.2f}, "
          f"95% {out['p95']:.2f}, max {out['max']:.2f}")
    print(f"  step to painted frame (300 steps): median {out['f50']:.1f} ms, 95% {out['f95']:.1f}, "
          f"max {out['fmax']:.1f}")
    print(f"  per step from Playwright (click Step, read the step back; 300 steps): median "
          f"{1000 * seen[150]:.1f} ms, 95% {1000 * seen[284]:.1f}, max {1000 * seen[-1]:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--no-browser", action="store_true")
    a = ap.parse_args()
    print("load average (1, 5, 15 min) at the start: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    compare_times(a.positions, a.repeats)
    if not a.no_browser:
        trace_steps()
    print("load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
