"""Reading chess positions: FEN or EPD text to a checked python-chess Board.

Shared by the Python chess game (chess_game) and the compiled kernel (chesskernel), so both
accept and refuse exactly the same positions.
"""

from __future__ import annotations

import chess

from searchlab.errors import InvalidParameterError

# python-chess status flags that make a position unplayable, with the FEN field at fault.
# Others it reports are accepted: two aligned checkers ("impossible check") occur in the
# standard perft suite, and every rule of the game still applies to them.
_FIELDS = (
    (chess.STATUS_EMPTY, "piece placement", "the board is empty"),
    (chess.STATUS_NO_WHITE_KING, "piece placement", "White has no king"),
    (chess.STATUS_NO_BLACK_KING, "piece placement", "Black has no king"),
    (chess.STATUS_TOO_MANY_KINGS, "piece placement", "a side has more than one king"),
    (chess.STATUS_TOO_MANY_WHITE_PAWNS, "piece placement", "White has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_BLACK_PAWNS, "piece placement", "Black has more than 8 pawns"),
    (chess.STATUS_TOO_MANY_WHITE_PIECES, "piece placement", "White has more than 16 pieces"),
    (chess.STATUS_TOO_MANY_BLACK_PIECES, "piece placement", "Black has more than 16 pieces"),
    (chess.STATUS_PAWNS_ON_BACKRANK, "piece placement", "a pawn stands on the first or last rank"),
    (chess.STATUS_OPPOSITE_CHECK, "side to move", "the side not to move is in check"),
    (chess.STATUS_BAD_CASTLING_RIGHTS, "castling",
     "a castling right whose king or rook is not on its home square"),
    (chess.STATUS_INVALID_EP_SQUARE, "en passant",
     "the en-passant square does not follow a double pawn push"),
)


def check_position(board: chess.Board, text: object = None) -> None:
    """Raise InvalidParameterError naming the position and the FEN field when python-chess's
    ``status()`` reports a position that cannot arise or be played: kings, pawn and piece
    counts, pawns on a back rank, the side not to move in check, castling rights without king
    and rook at home, an en-passant square that follows no double push. Chess960 boards are
    refused too (standard chess only)."""
    where = board.fen() if text is None else text
    if board.chess960:
        raise InvalidParameterError(f"invalid chess position {where!r}: Chess960 is not supported")
    status = board.status()
    for flag, field, what in _FIELDS:
        if status & flag:
            raise InvalidParameterError(f"invalid chess position {where!r}: {field} field: {what}")


def parse_board(text: str) -> chess.Board:
    """A checked board from a FEN (counters optional), an EPD line (its operations ignored) or
    "startpos" for the initial position (an empty string is refused), optionally followed by ``moves`` and UCI moves
    played from it (as in the UCI protocol's ``position`` command; the board's move stack
    holds them). InvalidParameterError: "not a FEN or EPD position" with python-chess's reason
    (which names the field) for unreadable text, ``check_position``'s message for an
    unplayable position, the move's number and text for a move that is not a legal UCI move
    there."""
    if not isinstance(text, str):
        raise InvalidParameterError(f"a chess position is a FEN or EPD string; got {text!r}")
    if not text.strip():          # an empty FEN is a mistake, not a request for the start
        raise InvalidParameterError("a chess position is a FEN or EPD string; got an empty "
                                    "string (for the initial position write 'startpos', or "
                                    "Chess() without a position)")
    head, sep, tail = f" {text.strip()} ".partition(" moves ")
    board = _parse_position(head.strip(), text)
    if sep:
        moves = tail.split()
        if not moves:
            raise InvalidParameterError(f"chess position {text!r}: moves field: no move after 'moves'")
        for i, uci in enumerate(moves, 1):
            try:
                mv = chess.Move.from_uci(uci)
            except ValueError:
                mv = None
            if mv is None or not mv or not board.is_legal(mv):
                raise InvalidParameterError(
                    f"chess position {text!r}: moves field: move {i} {uci!r} is not a legal UCI "
                    f"move in {board.fen()!r}")
            board.push(mv)
    return board


def _parse_position(t: str, text: str) -> chess.Board:
    """The checked board of a FEN / EPD / "startpos" / "" (``text``: the whole input, for
    messages)."""
    if t in ("", "startpos"):
        return chess.Board()
    try:
        board = chess.Board(t)
    except ValueError as e:
        try:
            board, _ = chess.Board.from_epd(t)
        except ValueError as e2:
            raise InvalidParameterError(
                f"not a FEN or EPD position: {text!r} ({e}; {e2})") from None
    check_position(board, text)
    return board
