"""The trace player as one self-contained HTML file: no server, no network, works offline.

``export_trace_html(tree, path)`` traces the tree with minimax, alpha-beta and PVS under each
ordering (natural, perfect, worst, random) through searchlab's own traced search and writes the
page's trace player (static/trace.js and lab.css, inlined) with those traces inlined as JSON.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from searchlab.lab import trees
from searchlab.lab.requests import text

STATIC = Path(__file__).with_name("static")


def _inline_json(data: Any) -> str:
    # "</" cannot close the script element, whatever a label holds
    return json.dumps(data, separators=(",", ":")).replace("</", "<\\/")


def player_html(data: dict, title: str | None = None) -> str:
    """The standalone player page for ``data``: {"label", "tree", "traces"} (one ordering) or
    {"label", "tree", "by_ordering": {ordering: traces}}."""
    css = (STATIC / "lab.css").read_text()
    js = (STATIC / "trace.js").read_text()
    title = title or f"searchlab trace: {data.get('label', 'tree')}"
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>{css}</style></head>
<body class="standalone">
<header><h1>{html.escape(title)}</h1>
<p class="sub">Made with searchlab (<code>searchlab lab export</code>): the numbers are those of
<code>searchlab.search</code>'s traced reference search. Works offline.</p></header>
<main><section id="trace-player"></section></main>
<script>{js}</script>
<script>
const SEARCHLAB_DATA = {_inline_json(data)};
SearchlabTrace.standalone(document.getElementById("trace-player"), SEARCHLAB_DATA);
</script>
</body></html>
"""


def export_trace_html(tree: Any, path: str | Path | None = None, *, title: str | None = None,
                      algorithms: tuple[str, ...] = trees.TRACE_ALGORITHMS, seed: int = 0) -> str:
    """Write (when ``path`` is given) and return the standalone trace player for ``tree``.

    ``tree``: nested lists ([[3, 12, 8], [2, 4, 6], [14, 5, 2]]), a preset name
    (searchlab.lab.trees.PRESETS, e.g. "textbook"), an ExplicitTree, or a tree spec dict
    (searchlab.lab.trees). ``algorithms``: 1 to 3 different names of ``trees.trace_algorithms()``
    (minimax, alphabeta, pvs and the registered plug-in algorithms), drawn side by side;
    ``seed`` is the random ordering's seed. Raises ValueError (LabError) on bad input.
    """
    if isinstance(tree, str):
        spec: Any = {"kind": "preset", "name": tree}
    elif isinstance(tree, dict):
        spec = tree
    else:
        nested = getattr(tree, "nested", tree)
        spec = {"kind": "nested", "text": json.dumps(nested)}
    label, nested = trees.parse_tree(spec)
    algorithms = trees.check_algorithms(tuple(algorithms))
    data = {"label": label, "tree": nested,
            "by_ordering": {o: [trees.trace_payload(nested, a, o, seed) for a in algorithms]
                            for o in trees.TRACE_ORDERINGS}}
    page = player_html(data, title)
    if path is not None:
        Path(path).write_text(page, encoding="utf-8")
    return page


def export_request(body: dict) -> str:
    """/api/export: the trace player of ``body``'s tree (as /api/trace takes it) as one HTML
    file; ``title`` optional (at most 200 characters). Raises LabError."""
    title = text(body, "title", "", 200)
    return player_html(trees.trace_request(body), title=title or None)
