"""Chess through python-chess (the ``chess`` package) as a Game.

(The module is not called ``chess.py``: that would shadow python-chess.)

State
    An immutable ``ChessState``: a private python-chess ``Board`` that nothing mutates
    (``play`` pushes the move on a copy), with its FEN, Zobrist key, legal moves and outcome
    cached on first use. ``state.fen`` is the FEN; ``state.board()`` returns a fresh copy.
    A state also carries its history for repetitions: the repetition keys of the earlier
    positions since the last pawn move or capture (``history``; python-chess's transposition
    key in Polyglot form, ``rep_key``), and how many of them lie before the search's root
    (``n_before``). A FEN gives no history; a python-chess board with a move stack
    (``ChessState.from_board``) or "FEN moves m1 m2 ..." text does.

Moves and the natural order
    A move is a UCI string ("e2e4", "e7e8q", "e1g1" for castling); ``play`` also accepts a
    ``chess.Move``. The natural order is python-chess's generation order
    (``board.legal_moves``), which is fixed for a position.

Terminal, utility, evaluation (values from MAX's point of view; MAX = the side to move in
the game's root position, as for every Game)
    - ``is_terminal``: python-chess's ``board.outcome()`` without claims (checkmate,
      stalemate, insufficient material, the 75-move rule), or a draw by repetition
      (``ChessState.is_repetition_draw``): the position occurred before since the last pawn
      move or capture, either once from the root on (twofold on the search path, the root
      included: what a search would otherwise score as if the game went on), or twice in all
      counting the game before the root (the threefold repetition a player may claim). The
      root is the game's initial state; ``Chess(state)`` and ``search_root(state)`` (used by
      FromState, so by every search from a position of a game) make a state the root.
      Repetition draws are terminal *before* the transposition table is probed (both engines
      check terminal states first and never store them), so a table entry of the same position
      reached without repetition cannot turn the draw into a win. A null move clears the
      history (repetitions across a pass are not repetitions of the game).
      ``legal_moves`` still lists the moves of a position drawn by rule.
    - ``utility``: +MATE_VALUE (100000) when MAX has checkmated, -MATE_VALUE when MAX is
      checkmated, 0 for every draw. Preferring faster mates (e.g. MATE_VALUE - ply) is the
      search's business.
    - ``evaluate``: material + piece-square tables in centipawns, White's sum minus Black's,
      negated when MAX is Black. Values and tables are Tomasz Michniewski's "Simplified
      Evaluation Function" (chessprogramming.org/Simplified_Evaluation_Function): P 100,
      N 320, B 330, R 500, Q 900 (kings not counted); the king uses the end-game table when
      every side that has a queen has no rook and at most one minor piece (so also when
      no queens are left). |evaluate| stays far below MATE_VALUE.
    - ``hash_key``: ``chess.polyglot.zobrist_hash`` (the Polyglot key).

Text (``from_text`` / ``Chess(text)``): a FEN (the counters may be left out), an EPD line
(its operations, e.g. ``bm``/``id``, are ignored here; see searchlab.games.epd), or
"startpos" for the initial position (an empty string is refused); any of them may be followed by ``moves`` and UCI
moves played from it ("startpos moves e2e4 e7e5", as in the UCI protocol), which give the
history for repetitions.

``default_depth`` is None (the end of the game, out of reach): give searches a ``depth``.

Move-ordering policy (``move_orderings()``): "captures": captures first in MVV-LVA order
(most valuable victim first, then least valuable attacker; en passant takes a pawn;
capture-promotions are captures), then non-capture promotions, then quiet moves; natural
order within ties. ``capture_moves(state)`` lists just the captures in that order (for a
quiescence search).
"""

from __future__ import annotations

from typing import Any, Callable

import chess
import chess.polyglot
import chess.svg

from searchlab.errors import InvalidParameterError
from searchlab.games.chess_compiled import compiled_game as _compiled_game
from searchlab.games.chess_fen import check_position, parse_board
from searchlab.games.chess_values import (MATE_VALUE, PIECE_VALUES, PST, PST_KING_END,
                                          PST_KING_MIDDLE)
from searchlab.data import path as data_path
from searchlab.games.epd import load_epd
from searchlab.contracts.protocol import Capabilities
from searchlab.games.registry import GameEntry

_UNSET = object()
_HASHER = chess.polyglot.ZobristHasher(chess.polyglot.POLYGLOT_RANDOM_ARRAY)


class ChessState:
    """An immutable chess position with its history for repetitions (see the module docstring).

    Equal when the FENs are equal (counters included; the history is not compared); hashed by
    the Polyglot key.
    """

    __slots__ = ("_board", "_fen", "_key", "_moves", "_outcome", "_hist", "_n_before", "_rep")

    def __init__(self, fen: str = chess.STARTING_FEN) -> None:
        self._init(*_history(parse_board(fen)))

    def _init(self, board: chess.Board, hist: tuple[int, ...] = (), n_before: int = 0) -> None:
        set_ = object.__setattr__
        set_(self, "_board", board)
        set_(self, "_fen", None)
        set_(self, "_key", None)
        set_(self, "_moves", None)
        set_(self, "_outcome", _UNSET)
        set_(self, "_hist", hist)
        set_(self, "_n_before", n_before)
        set_(self, "_rep", None)

    @classmethod
    def from_board(cls, board: chess.Board) -> "ChessState":
        """A state holding a copy of ``board`` (the caller's board stays its own); its move
        stack, if any, gives the history, all of it before the root."""
        return cls._own(*_history(board))

    @classmethod
    def _own(cls, board: chess.Board, hist: tuple[int, ...] = (), n_before: int = 0) -> "ChessState":
        state = cls.__new__(cls)
        state._init(board, hist, n_before)
        return state

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ChessState is immutable")

    def __reduce__(self):
        return (_restore, (self.fen, self._hist, self._n_before))

    # --- views ------------------------------------------------------------------------------
    @property
    def fen(self) -> str:
        if self._fen is None:
            object.__setattr__(self, "_fen", self._board.fen())
        return self._fen

    @property
    def turn(self) -> bool:
        """chess.WHITE (True) or chess.BLACK (False): the side to move."""
        return self._board.turn

    @property
    def history(self) -> tuple[int, ...]:
        """Repetition keys (``rep_key``) of the earlier positions since the last pawn move or
        capture (or null move, or the start of the known game), oldest first."""
        return self._hist

    @property
    def n_before(self) -> int:
        """How many of ``history``'s positions lie before the root (the rest were played from
        the root on, the root included)."""
        return self._n_before

    def board(self) -> chess.Board:
        """A fresh python-chess Board of this position (mutating it changes nothing here)."""
        return self._board.copy(stack=False)

    def key(self) -> int:
        """The Polyglot Zobrist key."""
        if self._key is None:
            object.__setattr__(self, "_key", chess.polyglot.zobrist_hash(self._board))
        return self._key

    def rep_key(self) -> int:
        """The repetition key: the Polyglot key without its en-passant part when no legal
        en-passant capture exists, so equal exactly when python-chess's transposition keys
        (what ``is_repetition`` compares) are equal (up to 64-bit collisions)."""
        if self._rep is None:
            key = self.key()
            board = self._board
            if board.ep_square is not None and not board.has_legal_en_passant():
                key ^= _HASHER.hash_ep_square(board)
            object.__setattr__(self, "_rep", key)
        return self._rep

    def is_repetition_draw(self) -> bool:
        """The position occurred before since the last pawn move or capture: once from the
        root on, or twice in all (the module docstring)."""
        hist = self._hist
        if len(hist) < 4:                   # a position recurs after 4 plies at the earliest
            return False
        key = self.rep_key()
        earlier = 0
        for i in range(len(hist) - 4, -1, -2):      # same side to move: every second entry
            if hist[i] == key:
                if i >= self._n_before:
                    return True
                earlier += 1
                if earlier == 2:
                    return True
        return False

    def rooted(self) -> "ChessState":
        """The same position and history, all of it counted as before the root."""
        if self._n_before == len(self._hist):
            return self
        return ChessState._own(self._board, self._hist, len(self._hist))

    def moves(self) -> tuple[str, ...]:
        """Legal moves in python-chess's generation order, as UCI strings."""
        if self._moves is None:
            object.__setattr__(self, "_moves", tuple(m.uci() for m in self._board.legal_moves))
        return self._moves

    def outcome(self) -> chess.Outcome | None:
        """python-chess's outcome without claims (None while the game goes on); repetition
        draws are ``is_repetition_draw``'s, not in here."""
        if self._outcome is _UNSET:
            object.__setattr__(self, "_outcome", self._board.outcome(claim_draw=False))
        return self._outcome

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChessState) and self.fen == other.fen

    def __hash__(self) -> int:
        return self.key()

    def __repr__(self) -> str:
        return f"ChessState({self.fen!r})"


def _restore(fen: str, hist: tuple[int, ...], n_before: int) -> ChessState:
    return ChessState._own(chess.Board(fen), tuple(hist), n_before)


def _history(board: chess.Board) -> tuple[chess.Board, tuple[int, ...], int]:
    """(a stack-free copy of board, the repetition keys of the positions its move stack went
    through since the last pawn move or capture, that count): the history of a root."""
    hist: list[int] = []
    if board.move_stack:
        replay = board.root()
        for mv in board.move_stack:
            if replay.is_zeroing(mv) or not mv:     # a pawn move, capture or null move
                hist.clear()
            else:
                hist.append(ChessState._own(replay.copy(stack=False)).rep_key())
            replay.push(mv)
    return board.copy(stack=False), tuple(hist), len(hist)


def parse_position(text: str) -> ChessState:
    """A state from a FEN (counters optional), an EPD line, or "startpos" (not ""), optionally
    followed by ``moves`` and UCI moves (their positions become the history, all before the
    root).

    Raises InvalidParameterError (a ValueError) for text python-chess cannot read or a
    position that cannot be played, naming the FEN field (searchlab.games.chess_fen: a missing
    or extra king, the side not to move in check, pawns on the first or last rank, castling
    rights without king and rook at home, a bad en-passant square), or the move that is not
    legal.
    """
    if isinstance(text, ChessState):
        return text.rooted()
    return ChessState._own(*_history(parse_board(text)))


def _as_uci(move: Any) -> str:
    if isinstance(move, chess.Move):
        return move.uci()
    if isinstance(move, str):
        return move
    raise InvalidParameterError(f"a chess move is a UCI string or chess.Move; got {move!r}")


# --- orderings ------------------------------------------------------------------------------
def _order_key(board: chess.Board, uci: str) -> tuple[int, int, int]:
    """(class, victim rank, attacker rank): class 0 capture, 1 promotion, 2 quiet."""
    mv = chess.Move.from_uci(uci)
    if board.is_capture(mv):
        victim = chess.PAWN if board.is_en_passant(mv) else board.piece_type_at(mv.to_square)
        attacker = board.piece_type_at(mv.from_square)
        return (0, -PIECE_VALUES[victim], PIECE_VALUES[attacker])
    if mv.promotion:
        return (1, 0, 0)
    return (2, 0, 0)


def captures_first(state: ChessState, moves: list[str]) -> list[str]:
    """The "captures" policy: MVV-LVA captures, promotions, quiet moves (stable)."""
    board = state._board
    return sorted(moves, key=lambda m: _order_key(board, _as_uci(m)))


def capture_moves(state: ChessState) -> list[str]:
    """The legal captures of ``state`` (en passant and capture-promotions included), MVV-LVA."""
    board = state._board
    caps = [m for m in state.moves() if board.is_capture(chess.Move.from_uci(m))]
    return sorted(caps, key=lambda m: _order_key(board, m))


# --- evaluation -----------------------------------------------------------------------------
def _is_endgame(board: chess.Board) -> bool:
    for color in (chess.WHITE, chess.BLACK):
        if board.pieces_mask(chess.QUEEN, color):
            rooks = chess.popcount(board.pieces_mask(chess.ROOK, color))
            minors = chess.popcount(board.pieces_mask(chess.KNIGHT, color)
                                    | board.pieces_mask(chess.BISHOP, color))
            if rooks or minors > 1:
                return False
    return True


def evaluate_white(board: chess.Board) -> int:
    """Material + piece-square tables in centipawns from White's point of view."""
    score = 0
    king_table = PST_KING_END if _is_endgame(board) else PST_KING_MIDDLE
    for color, flip, sign in ((chess.WHITE, 56, 1), (chess.BLACK, 0, -1)):
        for pt in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
            table = PST[pt]
            value = PIECE_VALUES[pt]
            for sq in chess.scan_forward(board.pieces_mask(pt, color)):
                score += sign * (value + table[sq ^ flip])
        for sq in chess.scan_forward(board.pieces_mask(chess.KING, color)):
            score += sign * king_table[sq ^ flip]
    return score


# --- the game -------------------------------------------------------------------------------
class Chess:
    """Chess implementing the Game protocol (searchlab.contracts.protocol).

    ``Chess()`` starts from the initial position; ``Chess(fen_or_epd)`` /
    ``Chess.from_text(...)`` from any position; MAX is the side to move there. See the module
    docstring for moves, natural order, utility and evaluation.
    """

    capabilities: Capabilities = Capabilities(static_values=True, own_orderings=True, null_move=True,
                                              noisy_moves=True, capture_gain=True, noisy_test=True,
                                              compiled=True)
    default_depth = None

    def __init__(self, position: str | ChessState | chess.Board = "startpos",
                 name: str | None = None) -> None:
        if isinstance(position, chess.Board):
            check_position(position)
            self._root = ChessState.from_board(position)
        else:
            self._root = parse_position(position)
        self._max_color = self._root.turn
        if name is None:
            name = "chess" if self._root.fen == chess.STARTING_FEN else f"chess[{self._root.fen}]"
        self.name = name

    @classmethod
    def from_text(cls, text: str) -> "Chess":
        """The game rooted at a FEN or EPD position (see the module docstring)."""
        return cls(text)

    # --- the Game protocol ---------------------------------------------------------------
    def initial_state(self) -> ChessState:
        return self._root

    def max_to_move(self, state: ChessState) -> bool:
        return state._board.turn == self._max_color

    def legal_moves(self, state: ChessState) -> list[str]:
        return list(state.moves())

    def play(self, state: ChessState, move: str | chess.Move) -> ChessState:
        uci = _as_uci(move)
        if uci not in state.moves():
            raise InvalidParameterError(f"move {uci!r} is not legal in {state.fen!r}")
        parent = state._board
        mv = chess.Move.from_uci(uci)
        board = parent.copy(stack=False)
        board.push(mv)
        if parent.is_zeroing(mv):           # no earlier position can recur
            return ChessState._own(board)
        return ChessState._own(board, state._hist + (state.rep_key(),), state._n_before)

    def is_terminal(self, state: ChessState) -> bool:
        return state.outcome() is not None or state.is_repetition_draw()

    def utility(self, state: ChessState) -> float:
        outcome = state.outcome()
        if outcome is None:
            if state.is_repetition_draw():
                return 0.0
            raise InvalidParameterError(f"utility of a non-terminal state {state.fen!r}")
        if outcome.winner is None:
            return 0.0
        return MATE_VALUE if outcome.winner == self._max_color else -MATE_VALUE

    def evaluate(self, state: ChessState) -> float:
        v = float(evaluate_white(state._board))
        return v if self._max_color == chess.WHITE else -v

    def hash_key(self, state: ChessState) -> int:
        return state.key()

    def search_root(self, state: ChessState) -> ChessState:
        """``state`` as the root of a search: its history all before the root, so only a
        position that recurs from there on (or a threefold repetition) is a draw.
        searchlab.contracts.position.FromState calls it."""
        return state.rooted()

    def compiled_primitives(self):
        """The compiled engine's primitives (searchlab.games.chess_compiled)."""
        return _compiled_game(self._max_color == chess.WHITE)

    def move_orderings(self) -> dict[str, Callable[[ChessState, list], list]]:
        """The game's own static ordering policies: {"captures": captures_first}."""
        return {"captures": captures_first}

    # --- for quiescence and conveniences -------------------------------------------------
    def capture_moves(self, state: ChessState) -> list[str]:
        """Legal captures in MVV-LVA order (see ``capture_moves``)."""
        return capture_moves(state)

    def noisy_moves(self, state: ChessState) -> list[str]:
        """Quiescence moves (searchlab.algorithms.pruning): the captures, MVV-LVA."""
        return capture_moves(state)

    def capture_gain(self, state: ChessState, move: str | chess.Move) -> float:
        """The material ``move`` wins at best, in centipawns (quiescence's delta pruning): the
        captured piece's value (a pawn for en passant), plus the promoted piece's value minus
        a pawn's for a promotion; 0.0 for a quiet move. PIECE_VALUES, the evaluation's units."""
        m = chess.Move.from_uci(_as_uci(move))
        board = state._board
        gain = 0
        if board.is_en_passant(m):
            gain = PIECE_VALUES[chess.PAWN]
        elif board.color_at(m.to_square) == (not board.turn):
            gain = PIECE_VALUES[board.piece_type_at(m.to_square)]
        if m.promotion:
            gain += PIECE_VALUES[m.promotion] - PIECE_VALUES[chess.PAWN]
        return float(gain)

    def is_noisy(self, state: ChessState, move: str | chess.Move) -> bool:
        """Captures and promotions: never reduced or futility-pruned."""
        m = chess.Move.from_uci(_as_uci(move))
        return state._board.is_capture(m) or m.promotion is not None

    def null_move(self, state: ChessState) -> ChessState:
        """The side to move passes (python-chess's null move); the history is cleared (no
        repetition across a pass)."""
        board = state._board.copy(stack=False)
        board.push(chess.Move.null())
        return ChessState._own(board)

    def null_move_allowed(self, state: ChessState) -> bool:
        """The zugzwang guard: not in check, and the side to move has a piece besides pawns
        and king (pawn endings are where passing would most often be better than moving)."""
        board = state._board
        if board.is_check():
            return False
        own = board.occupied_co[board.turn]
        return bool(own & ~(board.pawns | board.kings))

    def with_root(self, state: ChessState) -> "Chess":
        """This game rooted at ``state`` (its history kept: repetitions still count), MAX the
        side to move there (the lab's generic view plays moves with it)."""
        return Chess(state)

    def san(self, state: ChessState, move: str | chess.Move) -> str:
        """The SAN of a legal move, e.g. "Nf3", "Qxh7+"."""
        return state._board.san(chess.Move.from_uci(_as_uci(move)))

    def __repr__(self) -> str:
        return f"Chess({self.name}: {'White' if self._root.board().turn else 'Black'} to move)"

    def _repr_html_(self) -> str:
        """The root position as python-chess's SVG board (notebooks show it)."""
        board = self._root.board()
        return chess.svg.board(board, size=280) + \
            f"<p><code>{board.fen()}</code>, {'White' if board.turn else 'Black'} to move</p>"


def perft(game: Chess, state: ChessState, depth: int) -> int:
    """Chess perft through the Game protocol: legal move paths of exactly ``depth`` plies."""
    if depth == 0:
        return 1
    moves = game.legal_moves(state)
    if depth == 1:
        return len(moves)
    return sum(perft(game, game.play(state, m), depth - 1) for m in moves)


def _suite_positions(source: str) -> list[tuple[str, str, str]]:
    """An EPD suite shipped in searchlab/data/chess/ as (id, FEN, EPD line) triples."""
    return [(p.id, p.fen, p.epd) for p in load_epd(data_path("chess", f"{source}.epd"))]


#: this game's declaration in the game registry (searchlab.games.registry)
GAME = GameEntry(name="chess", make=Chess, source_kind="file", sources=("wac", "bk"),
                 nominal_b=35, label="Chess", load_positions=_suite_positions, from_text=Chess,
                 own_ordering="captures", order=40, sides=("white", "black"),
                 proven_bound=10_000.0,
                 # its engine's cold compile, CPU s (docs/compile-time.md, the warm-up row)
                 compile_seconds=37)
# the lab has no drawing of it: its generic view (FEN text, UCI move buttons), the sides named
# by GameEntry.sides
