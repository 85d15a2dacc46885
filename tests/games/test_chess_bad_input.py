"""Bad chess input: illegal FEN/EPD positions, unknown moves and unsupported
options give one clear error naming the position and the field. (The FEN checks shared by the
Python game and the compiled board: tests/games/test_chess_kernel.py; moves after a FEN:
tests/games/test_chess_repetition.py.)"""

from __future__ import annotations

import pytest

from searchlab.algorithms.search_api import search
from searchlab.errors import InvalidParameterError, SearchlabError, UnsupportedError
from searchlab.games.chess_game import Chess
from searchlab.games.epd import load_epd, parse_epd_line


@pytest.mark.parametrize("line, field", [
    ('4k3/8/8/8/8/8/4R3/4K3 w - - bm Re8; id "x";', "side to move field"),
    ('P3k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id "x";', "piece placement field"),
    ('4k3/8/8/8/8/8/8/4K3 w K - bm Kd2; id "x";', "castling field"),
    ('4k3/8/8/8/8/8/8/4K3 w - e6 bm Kd2; id "x";', "en passant field"),
    ('4k3/8/8/8/8/8/8/4K2R w K - bm Qh7; id "x";', "bm field: illegal san: 'Qh7'"),
    ('4k3/8/8/8/8/8/8/4K2R w K - bm Rh8; am Kf8; id "x";', "am field: illegal san: 'Kf8'"),
    ("xx", "not an EPD line"),
])
def test_bad_epd_lines_name_the_line_and_the_field(line, field):
    with pytest.raises(InvalidParameterError) as e:
        parse_epd_line(line)
    assert field in str(e.value) and repr(line) in str(e.value)
    assert isinstance(e.value, SearchlabError) and "\n" not in str(e.value)


def test_load_epd_names_the_file_and_line(tmp_path):
    path = tmp_path / "suite.epd"
    path.write_text('4k3/8/8/8/8/8/8/4K2R w K - bm Rh8; id "ok";\n\n'
                    'P3k3/8/8/8/8/8/8/4K3 w - - bm Kd2; id "bad";\n')
    with pytest.raises(InvalidParameterError, match=f"{path}:3: .*piece placement field"):
        load_epd(path)


def test_unknown_moves_and_unsupported_options():
    game = Chess()
    start = game.initial_state()
    for move in ("e2e5", "zz", "e1g1", "0000"):
        with pytest.raises(InvalidParameterError, match=f"move '{move}' is not legal in '{start.fen}'"):
            game.play(start, move)
    with pytest.raises(InvalidParameterError, match="a chess move is a UCI string"):
        game.play(start, 12)
    with pytest.raises(InvalidParameterError, match="ordering component 'centre' unknown"):
        search(game, "alphabeta", "centre", depth=2)
    with pytest.raises(UnsupportedError, match="no compiled kernel for alphabeta/natural on chess"):
        search(game, "alphabeta", "natural", depth=2, engine="kernel")
    with pytest.raises(InvalidParameterError, match="castling field"):      # a Chess960 (Shredder) FEN
        Chess("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
