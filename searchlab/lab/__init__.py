"""searchlab in the browser (``searchlab lab``, docs/lab.md).

- ``searchlab.lab.app.create_app()``: the ASGI app (Starlette): JSON API and static page;
- ``searchlab.lab.trees``: explicit trees (presets, random, typed, the Mannheim form) and their
  traces as JSON (searchlab.algorithms.trace.run_trace);
- ``searchlab.lab.play_games``: positions, the engine's move and PV, "Compare the algorithms here"
  (searchlab.search), for every registered game (its LabBoard's drawing, else
  ``searchlab.lab.generic_view``: position text and move buttons);
- ``searchlab.lab.plugins``: modules registering games from Python (``--plugin``), imported by
  the server and its worker processes;
- ``export_trace_html(tree, path)``: the trace player as one self-contained offline HTML file.

Needs the optional extra ``web`` (starlette, uvicorn) for the app; the export needs nothing more.
"""

from searchlab.lab.trace_player_export import export_trace_html

__all__ = ["export_trace_html"]
