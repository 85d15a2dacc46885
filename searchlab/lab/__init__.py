"""searchlab in the browser (``searchlab lab``, docs/lab.md).

- ``searchlab.lab.app.create_app()``: the ASGI app (Starlette): JSON API and static page;
- ``searchlab.lab.trees``: explicit trees (presets, random, typed, the Mannheim form) and their
  traces as JSON (searchlab.algorithms.trace.run_trace);
- ``searchlab.lab.play_games``: positions, the engine's move and PV, "Compare the algorithms here"
  (searchlab.search);
- ``export_trace_html(tree, path)``: the trace player as one self-contained offline HTML file.

Needs the optional extra ``web`` (starlette, uvicorn) for the app; the export needs nothing more.
"""

from searchlab.lab.trace_player_export import export_trace_html

__all__ = ["export_trace_html"]
