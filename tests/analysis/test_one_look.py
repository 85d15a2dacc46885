"""Every figure of a report and of analysis/reproduce.py is saved by one function
(searchlab.analysis.figures.save: PNG, PDF or SVG, tight box) and coloured from one palette
(searchlab.analysis.palette), never from matplotlib's default colour cycle."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: drawn below the analysis layer, which cannot import the palette: the trace of an explicit
#: tree (its own ink and grey) and the parallel study's simulator figures
OWN_DRAWING = {"searchlab/algorithms/trace.py", "searchlab/studies/parallel/parallel_tasks.py"}
SOURCES = [*sorted((ROOT / "searchlab" / "analysis").glob("*.py")),
           *sorted((ROOT / "searchlab" / "report").glob("*.py")),
           *sorted((ROOT / "searchlab" / "claims").glob("*.py")),
           ROOT / "searchlab" / "plot.py", ROOT / "analysis" / "reproduce.py"]


def test_figures_are_saved_by_one_function_in_one_palette():
    for path in SOURCES:
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text()
        saves = [m.start() for m in re.finditer(r"\.savefig\(", text)]
        if rel == "searchlab/analysis/figures.py":
            assert len(saves) == 1, "figures.save is the one savefig"
        else:
            assert not saves, f"{rel} saves a figure itself; use searchlab.analysis.figures.save"
        assert not re.search(r"""color=f?["']C\{?\d""", text), f"{rel} uses the default colour cycle"
        assert not re.search(r"""["']tab(10|20)["']|cm\.tab""", text), f"{rel} uses a tab colour map"
    assert OWN_DRAWING.isdisjoint(p.relative_to(ROOT).as_posix() for p in SOURCES)
