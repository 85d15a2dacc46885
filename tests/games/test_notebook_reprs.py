"""Notebook manners: SearchResult's one-line repr, HTML table and to_dict(); every board game's
short repr and SVG board (valid XML, one mark per stone)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pandas as pd

import searchlab
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.games.hex import Hex
from searchlab.games.othello import Othello
from searchlab.games.tictactoe import TicTacToe

SVG = "{http://www.w3.org/2000/svg}"


def _svg(html: str) -> ET.Element:
    start, end = html.index("<svg"), html.index("</svg>") + len("</svg>")
    return ET.fromstring(html[start:end])


def test_search_result_repr_is_one_short_line_and_to_dict_is_complete():
    r = searchlab.search(searchlab.make_tree("iid", b=3, d=4, seed=1), algorithm="alphabeta")
    text = repr(r)
    assert "\n" not in text and len(text) < 160
    assert text.startswith("SearchResult(alphabeta/natural d=4: value ") and f"{r.nodes:,} nodes" in text
    d = r.to_dict()
    assert set(d) >= {f for f in r.__dataclass_fields__} | {"fail_high_first_rate", "tt_hit_rate"}
    assert d["nodes"] == r.nodes and d["per_ply"] == list(r.per_ply) and isinstance(d["best_moves"], list)
    json.dumps(d)                                              # plain values only
    frame = pd.DataFrame([d, d])
    assert list(frame["leaves"]) == [r.leaves, r.leaves]
    html = r._repr_html_()
    assert html.startswith("<table>") and f"{r.leaves:,}" in html and "fail-high first" in html
    aborted = searchlab.search(searchlab.make_tree("iid", b=4, d=6, seed=1), algorithm="alphabeta",
                               max_nodes=10)
    assert "aborted (node budget)" in repr(aborted)


def test_board_games_show_an_svg_board_with_every_stone():
    t = TicTacToe("4 0 8")
    assert repr(t) == "TicTacToe(tictactoe[4 0 8]: 3 plies, O to move)"
    root = _svg(t._repr_html_())
    assert len(root.findall(f"{SVG}path")) == 2 and len(root.findall(f"{SVG}circle")) == 1   # X X O

    c = ConnectFour("4455")
    assert repr(c) == "ConnectFour('4455': 4 stones, X (first player) to move)"
    discs = _svg(c._repr_html_()).findall(f"{SVG}circle")
    assert len(discs) == 42                                     # every hole, 4 of them filled
    assert sum(d.get("fill") != "#ffffff" for d in discs) == 4

    o = Othello()
    assert repr(o).endswith("2 black, 2 white, Black to move)")
    assert len(_svg(o._repr_html_()).findall(f"{SVG}circle")) == 4

    h = Hex(5)
    root = _svg(h._repr_html_())
    assert len(root.findall(f"{SVG}polygon")) == 25 and "5x5, 0 stones, X to move" in repr(h)

    ch = Chess()
    assert repr(ch).endswith("White to move)")
    assert _svg(ch._repr_html_()).tag == f"{SVG}svg"
