"""The lab's view of a game it has no drawing for: any registered game (a plug-in from an entry
point or ``register()``, or a built-in without a ``LabBoard``) is played from the position as
text and its legal moves as buttons.

A position is the line of moves played from the game's start, each written as its name (the
entry's ``format_move``, else ``str``, with whitespace removed so that names are words),
separated by spaces: ``""`` is the start, ``"(0,1) (2,3)"`` two moves of Nim. A name is read
back by matching it against the names of the legal moves there, so a game needs no parser;
two legal moves with one name are refused (give the entry a ``format_move`` that tells them
apart). A position after moves is the game rooted there, ``with_root(state)`` (docs/extending.md,
checklist item 2); a game without it is shown at its start only.

The game's text is ``str(game)`` where the game's class writes one (a board diagram of its
root), else ``repr`` of the state. The first player is MAX of the game's start
(``max_to_move`` there), so the side to move is known for any state.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from searchlab.errors import InvalidParameterError
from searchlab.games.registry import GameEntry, LabBoard

#: the LabBoard hooks a game's own LabBoard may leave to the generic view
GENERIC_HOOKS = ("build", "after", "move_name", "first_to_move")
#: the generic view's default horizon where the game names none (``default_depth`` is None)
GENERIC_DEPTH = 4


def move_namer(e: GameEntry) -> Callable[[Any], str]:
    """The generic view's name of a move: the entry's format_move (else str), without
    whitespace."""
    fmt = e.format_move or str
    return lambda move: "".join(fmt(move).split())


def named_moves(game: Any, state: Any, name: Callable[[Any], str]) -> dict[str, Any]:
    """The legal moves at ``state`` by name, in natural order (InvalidParameterError if two
    share a name)."""
    out: dict[str, Any] = {}
    for m in game.legal_moves(state):
        k = name(m)
        if k in out:
            raise InvalidParameterError(
                f"game {getattr(game, 'name', '?')!r}: two legal moves are both named {k!r}; give "
                "its GameEntry a format_move that tells them apart")
        out[k] = m
    return out


def state_text(game: Any, state: Any) -> str:
    """The position as text: the game's own ``str`` (of the game rooted at ``state``) where its
    class writes one, else the state's ``repr``."""
    if type(game).__str__ is not object.__str__:
        return str(game)
    return repr(state)


def generic_board(e: GameEntry) -> LabBoard:
    """The LabBoard of the generic view of ``e`` (module docstring): no cells, so no drawing."""
    start = lru_cache(maxsize=1)(e.start)
    name = move_namer(e)

    def build(position: str) -> Any:
        base = start()
        state = base.initial_state()
        tokens = position.split()
        for k, tok in enumerate(tokens, 1):
            if base.is_terminal(state):
                raise InvalidParameterError(f"move {k} ({tok}) comes after the end of the game")
            moves = named_moves(base, state, name)
            if tok not in moves:
                raise InvalidParameterError(f"move {k} ({tok}) is not legal there; legal: "
                                            f"{' '.join(moves) or 'none'}")
            state = base.play(state, moves[tok])
        if not tokens:
            return base
        if not hasattr(base, "with_root"):
            raise InvalidParameterError(
                f"game {e.name!r} has no with_root(state), so the lab can show its start only "
                "(docs/extending.md)")
        return base.with_root(state)

    def after(position: str, game: Any, move: Any) -> str:
        return f"{position.strip()} {name(move)}".strip()

    default = getattr(start(), "default_depth", None)
    return LabBoard(build=build, after=after, move_name=lambda game, move: name(move),
                    first_to_move=lambda state: bool(start().max_to_move(state)),
                    depth=default if isinstance(default, int) and default >= 1 else GENERIC_DEPTH)
