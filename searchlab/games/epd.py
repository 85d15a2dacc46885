"""EPD test suites (WAC, Bratko-Kopec, ...): ``load_epd(path) -> list[EpdPosition]``.

An EPD line is the first four FEN fields followed by operations, e.g.
``2rr3k/pp3pp1/... w - - bm Qg6; id "WAC.001";``. python-chess parses each line
(``chess.Board.from_epd``). The position must be playable (searchlab.games.chess_fen's checks:
kings, the side not to move in check, pawns on a back rank, castling rights, en passant) and
every ``bm`` / ``am`` move legal SAN in it, or the line is refused with an
InvalidParameterError (a ValueError) naming the line, the field (the FEN field, or the
operation: ``bm``, ``am``, ...) and, from load_epd, the file and line number.

``EpdPosition.fen`` is a full FEN (counters from ``hmvc``/``fmvn`` when given, else 0 1), so
``Chess(pos.fen)`` roots a game there. ``bm`` / ``am`` are python-chess's canonical SAN of
the listed moves (check and mate marks included, e.g. "Qxh7+"), in file order;
``bm_uci`` / ``am_uci`` are the same moves in UCI, the move format of
searchlab.games.chess_game. A solution is correct when the engine plays any ``bm`` move (and
no ``am`` move).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import chess

from searchlab.errors import InvalidParameterError
from searchlab.games.chess_fen import check_position


@dataclass(frozen=True)
class EpdPosition:
    """One EPD line: position, best moves (SAN), id; avoid moves where given."""

    fen: str
    bm: list[str]
    id: str
    am: list[str] = field(default_factory=list)
    bm_uci: list[str] = field(default_factory=list)
    am_uci: list[str] = field(default_factory=list)
    epd: str = ""

    def board(self) -> chess.Board:
        """A fresh python-chess Board of the position."""
        return chess.Board(self.fen)

    def is_solution(self, move: str | chess.Move) -> bool:
        """True when ``move`` (UCI or chess.Move) is a best move and not an avoid move."""
        uci = move.uci() if isinstance(move, chess.Move) else move
        if self.bm_uci:
            return uci in self.bm_uci and uci not in self.am_uci
        return bool(self.am_uci) and uci not in self.am_uci


def _moves(ops: dict, key: str) -> list[chess.Move]:
    value = ops.get(key)
    if value is None:
        return []
    return list(value) if isinstance(value, list) else [value]


def parse_epd_line(line: str, default_id: str = "") -> EpdPosition:
    """An EpdPosition from one EPD line; InvalidParameterError (module docstring) if
    python-chess cannot read it or the position cannot be played."""
    text = line.strip()
    fields = text.split(None, 4)
    try:
        board, _ = chess.Board.from_epd(" ".join(fields[:4]))
    except (ValueError, IndexError) as e:
        raise InvalidParameterError(f"not an EPD line: {text!r} ({e})") from None
    check_position(board, text)
    try:
        board, ops = chess.Board.from_epd(text)
    except ValueError as e:
        raise InvalidParameterError(f"EPD line {text!r}: {_operation(fields, e)} field: {e}") from None
    bm = _moves(ops, "bm")
    am = _moves(ops, "am")
    ident = ops.get("id")
    return EpdPosition(
        fen=board.fen(), bm=[board.san(m) for m in bm],
        id=str(ident) if ident is not None else default_id,
        am=[board.san(m) for m in am], bm_uci=[m.uci() for m in bm],
        am_uci=[m.uci() for m in am], epd=text)


def _operation(fields: list[str], error: ValueError) -> str:
    """The opcode of the operation python-chess's error quotes (e.g. "bm"), else "operations"."""
    quoted = str(error).split("'")
    token = quoted[1] if len(quoted) > 2 else None
    for op in (fields[4] if len(fields) > 4 else "").split(";"):
        words = op.split()
        if token and len(words) > 1 and token in words[1:]:
            return words[0]
    return "operations"


def load_epd(path: str | Path) -> list[EpdPosition]:
    """Every position of an EPD file, in file order.

    Blank lines and lines starting with ``#`` are skipped. A line without an ``id`` gets
    "<file name>:<line number>". Raises InvalidParameterError (a ValueError) naming the file
    and line of the first line that does not parse, of a file that is not text (binary), and
    of a file that holds no position (empty, or only comments).
    """
    path = Path(path)
    out = []
    with open(path, encoding="utf-8") as f:
        try:
            lines = list(f)
        except UnicodeDecodeError as e:
            raise InvalidParameterError(f"{path}: not an EPD text file (byte {e.start} is not "
                                        "UTF-8)") from None
    for lineno, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            out.append(parse_epd_line(line, default_id=f"{path.name}:{lineno}"))
        except InvalidParameterError as e:
            raise InvalidParameterError(f"{path}:{lineno}: {e}") from None
    if not out:
        raise InvalidParameterError(f"{path}: no position (the EPD file is empty)")
    return out
