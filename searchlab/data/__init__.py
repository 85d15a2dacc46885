"""Study inputs shipped with the package (README.md here gives each file's source).

- ``connect4/Test_L1_R1``, ``Test_L2_R1``, ``Test_L3_R1``: Pascal Pons' Connect Four benchmark
  positions (``<moves> <score>`` per line; searchlab.games.connect4.load_benchmark);
- ``chess/wac.epd``, ``chess/bk.epd``: the Win At Chess and Bratko-Kopec EPD suites
  (searchlab.games.epd.load_epd).

``path("connect4", "Test_L3_R1")`` is the file's location (installed or in a checkout).
"""

from __future__ import annotations

from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    """The path of a shipped data file, e.g. ``path("chess", "wac.epd")``."""
    return DATA_DIR.joinpath(*parts)
