"""The game registry: one declaration per game, read by every consumer.

A game is declared once, beside its code, as a :class:`GameEntry` (its name, how to build it,
its position sources, nominal branching factor, whether the lab can draw it, its engine's cold
compile, its display order). Built-in games declare theirs as a module-level ``GAME`` in their
own module (``searchlab/games/othello.py`` and the like); plug-ins come the same way from outside the
package, by one of

- an entry point in the group ``searchlab.games`` naming a ``GameEntry`` (installed packages;
  loaded lazily, the first time the registry is read);
- :func:`register` called from Python;
- a config's ``game._target_`` naming the user's game class (:func:`entry_from_target`).

A game the lab can draw carries a :class:`LabBoard` (its position strings, the side to move,
the board's cells, the moves' names and cells); every other game is shown by the lab's generic
view (the position as text and its legal moves as buttons, searchlab.lab.play_games).

Consumers ask :func:`game_names` (the allowed values, in display order) and :func:`entry` (one
game's declaration); nothing outside a game's own files lists game names.

A game's *position sources* are one of three kinds:

- ``start``: one position, the game's start (``make()``);
- ``random``: ``sweep.instances`` positions, each after ``ply`` uniformly random moves from the
  start, seeded per position (the game's own ``random_position``, else :func:`random_play`);
- ``file``: positions read from a data file (``load_positions(source)`` gives (id, text, extra)
  triples; ``from_text(text)`` rebuilds the game in a worker).
"""

from __future__ import annotations

import importlib
import random as _random
import re
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Mapping, Optional, Sequence

from searchlab.compile_costs import COLD_SECONDS, DEFAULT_GAME_SECONDS
from searchlab.errors import InvalidParameterError

#: the entry-point group of installed game plug-ins
ENTRY_POINT_GROUP = "searchlab.games"

#: how a built-in game's module declares its entry: a top-level ``GAME = GameEntry(``
_DECLARES_GAME = re.compile(r"^GAME\s*(?::\s*GameEntry\s*)?=\s*GameEntry\(", re.M)


def _builtin_modules() -> list[str]:
    """The built-in games' modules: every module of searchlab.games whose source declares a
    top-level ``GAME = GameEntry(...)``, found by reading the files, not importing them, so that
    a built-in game is its own files with no list to edit (display order is the entries' own)."""
    return [f"searchlab.games.{p.stem}" for p in sorted(Path(__file__).parent.glob("*.py"))
            if _DECLARES_GAME.search(p.read_text(encoding="utf-8"))]

SOURCE_KINDS = ("start", "random", "file")
#: the board drawings the lab's play page has (LabBoard.layout)
LAYOUTS = ("grid", "hexagons", "columns")


@dataclass(frozen=True)
class LabBoard:
    """How the lab's play page draws a game and names its positions (plain callables).

    A position is a string (``build`` reads it); a game built from one is rooted there. The
    first four may be left None: the lab's generic view's are used (positions are the move
    names from the start, searchlab.lab.generic_view), so a plug-in's drawing can be ``cells``
    alone (and ``move_cell``). Attributes:
        build: ``position -> game`` rooted at it (a SearchlabError with a one-line message
            for text it cannot read).
        after: ``(position, game, move) -> position`` after ``move``, in the same format.
        move_name: ``(game, move) -> str``, the move's name (buttons, PV, the engine's move).
        first_to_move: ``state -> bool``, whether the first player is to move there.
        cells: ``state -> rows`` of cells top to bottom: 0 empty, 1 the first player's, 2 the
            second's (None: no drawing; the lab shows its generic view).
        move_cell: ``(game, move) -> [row, col]`` of the cell a move fills, or None (a move
            without one: a pass, a column).
        pieces: the names the page gives the two sides where its drawing names them by their
            pieces (Connect Four's red and yellow discs, tic-tac-toe's X and O); None: the
            game's own ``GameEntry.sides``, capitalised (one declaration of the sides).
        depth: the play page's default horizon.
        score: whether a finished game's outcome states the score (the utility's size).
        extra: ``game -> dict`` of further fields the drawing needs (Hex: its size ``n``).

    How the page draws ``cells`` (sent with every position, :meth:`drawing`; the page names no
    game):
        layout: ``grid`` (a square grid of cells), ``hexagons`` (a rhombus of hexagons, each side's
            two edges in its colour) or ``columns`` (a rack whose moves are its columns: a
            move's cell is where the disc lands).
        colours: the two sides' stone colours (CSS colours).
        marks: the sides' pieces are drawn as their names' letters (X, O), not as stones.
        cell_size: a grid cell's width in pixels.
        square: a grid cell's fill colour.
        coordinates: a grid's columns lettered and rows numbered around it (a move's name
            is then its coordinate).
        hints: a dot on each cell where the side to move may play.
        numbered: each grid cell's number (row * columns + column) written in its corner.
        passes: a move without a cell is a pass, played by the page's pass button.
        sizes: the board sizes a new game may be played on (a selector; the new game's
            position is the size's text); empty: one start position.
        size: the size first selected (one of ``sizes``).
    """

    build: Optional[Callable[[str], Any]] = None
    after: Optional[Callable[[str, Any, Any], str]] = None
    move_name: Optional[Callable[[Any, Any], str]] = None
    first_to_move: Optional[Callable[[Any], bool]] = None
    cells: Optional[Callable[[Any], list]] = None
    move_cell: Callable[[Any, Any], Optional[list]] = lambda game, move: None
    pieces: Optional[tuple[str, str]] = None
    depth: int = 4
    score: bool = False
    extra: Callable[[Any], dict] = lambda game: {}
    layout: str = "grid"
    colours: tuple[str, str] = ("#1d3557", "#d62828")
    marks: bool = False
    cell_size: int = 80
    square: str = "#fff"
    coordinates: bool = False
    hints: bool = False
    numbered: bool = False
    passes: bool = False
    sizes: tuple[int, ...] = ()
    size: Optional[int] = None

    def __post_init__(self) -> None:
        if self.layout not in LAYOUTS:
            raise InvalidParameterError(
                f"LabBoard layout must be one of {', '.join(LAYOUTS)}; got {self.layout!r}")
        if self.sizes and self.size not in self.sizes:
            raise InvalidParameterError(
                f"LabBoard size must be one of its sizes {list(self.sizes)}; got {self.size!r}")

    def drawing(self) -> dict[str, Any]:
        """The facts the page draws the board by (JSON values; the class docstring)."""
        return dict(layout=self.layout, colours=list(self.colours), marks=self.marks,
                    cell_size=self.cell_size, square=self.square, coordinates=self.coordinates,
                    hints=self.hints, numbered=self.numbered, passes=self.passes,
                    sizes=list(self.sizes), size=self.size)


@dataclass(frozen=True)
class GameEntry:
    """One game's declaration (plain values and callables).

    Attributes:
        name: the config name (``game.name``), a word.
        make: the game at its start position, ``make(**params)`` (``params`` only for plug-ins
            named by ``_target_``).
        source_kind: ``start``, ``random`` or ``file`` (see the module's docstring).
        sources: the allowed ``game.positions`` values; the first is the default when it is the
            only one.
        nominal_b: a mid-game average branching factor, used only by the budget guard.
        label: the name shown in reports and the lab.
        random_position: ``random`` sources: ``(source, ply, seed) -> game`` (None: seeded
            uniformly random play from ``make()``, :func:`random_play`).
        max_ply: ``random`` sources: ``source -> the largest ply`` (None: no bound but the
            game's end).
        load_positions: ``file`` sources: ``source -> [(id, text, extra), ...]`` in file order.
        from_text: ``file`` sources: ``text -> game`` (the position's text).
        format_move: the ``best_move`` column's text of a move (None: ``str``).
        own_ordering: the game's principal own ordering (one of ``move_orderings()``), the
            order the ordering studies compare the generic ones with (None: it has none).
        lab: a built-in the lab draws and whose compiled engine it compiles when it starts
            (needs a ``lab_board`` with ``cells``).
        lab_board: how the lab shows it (a :class:`LabBoard`: drawn where it gives ``cells``;
            None: the lab's generic view, the position as text and the moves as buttons).
        order: display order (menus, tables, figures), smaller first.
        params: keyword arguments for ``make`` (``_target_`` plug-ins; part of the identity).
        target: the ``_target_`` the entry came from (None: a registered entry).
        at_state: the game rooted at one of its own states (``Othello(state)``), for studies
            that walk from the start position themselves (the parallel study's positions,
            studies/parallel/parallel_tasks.py); None: those studies do not offer the game.
        sides: the names of the two sides, MAX's (the side to move at the start) first (a
            match's ``a_color`` column; the lab's, capitalised, unless its drawing names the
            pieces, LabBoard.pieces).
        max_plies: the longest game from the start, passes included (None: not bounded by
            the game, or not known); the match budget guard's plies per game.
        proven_bound: the ``|value|`` at or above which a search value is a proven result
            (a win or loss found), not a heuristic estimate (None: the game's values do not
            tell).
        compile_seconds: its compiled two-player engine's cold compile, CPU seconds of a
            process from an empty cache (docs/compile-time.md), quoted by the dry run and the
            compile announcements and ordering the warm-up (None: not measured; a game with
            compiled primitives is then quoted ``compile_costs.DEFAULT_GAME_SECONDS``,
            :meth:`cold_seconds`).
    """

    name: str
    make: Callable[..., Any]
    source_kind: str = "start"
    sources: tuple[str, ...] = ("start",)
    nominal_b: int = 10
    label: str = ""
    random_position: Optional[Callable[[str, int, int], Any]] = None
    max_ply: Optional[Callable[[str], int]] = None
    load_positions: Optional[Callable[[str], Sequence[tuple[str, str, str]]]] = None
    from_text: Optional[Callable[[str], Any]] = None
    format_move: Optional[Callable[[Any], str]] = None
    own_ordering: Optional[str] = None
    lab: bool = False
    lab_board: Optional[LabBoard] = None
    order: int = 100
    params: tuple = field(default=())
    target: Optional[str] = None
    at_state: Optional[Callable[[Any], Any]] = None
    sides: tuple[str, str] = ("first player", "second player")
    max_plies: Optional[int] = None
    proven_bound: Optional[float] = None
    compile_seconds: Optional[float] = None

    def __post_init__(self) -> None:
        if self.source_kind not in SOURCE_KINDS:
            raise InvalidParameterError(
                f"game {self.name!r}: source_kind must be one of {', '.join(SOURCE_KINDS)}; "
                f"got {self.source_kind!r}")
        if not self.sources:
            raise InvalidParameterError(f"game {self.name!r}: sources must name at least one source")
        if self.source_kind == "file" and (self.load_positions is None or self.from_text is None):
            raise InvalidParameterError(
                f"game {self.name!r}: a file source needs load_positions and from_text")
        if self.lab and (self.lab_board is None or self.lab_board.cells is None):
            raise InvalidParameterError(
                f"game {self.name!r}: lab=True (a drawing in the lab) needs a lab_board with cells")

    @property
    def display(self) -> str:
        return self.label or self.name

    def start(self) -> Any:
        """The game at its start position."""
        return self.make(**dict(self.params))

    def random(self, source: str, ply: int, seed: int) -> Any:
        """The game rooted ``ply`` seeded random moves after the start (``random`` sources)."""
        if self.random_position is not None:
            return self.random_position(source, ply, seed)
        return random_play(self.start(), ply, seed)

    def compiled(self) -> bool:
        """Whether the game supplies the compiled engine's primitives (else: reference engine)."""
        caps = getattr(self.start(), "capabilities", None)
        return bool(getattr(caps, "compiled", False))

    def cold_seconds(self) -> Optional[float]:
        """Its compiled engine's cold compile in CPU seconds: the declared ``compile_seconds``,
        else DEFAULT_GAME_SECONDS for a game with compiled primitives; None for a game without
        them (it runs on the reference engine: nothing to compile)."""
        if self.compile_seconds is not None:
            return float(self.compile_seconds)
        return DEFAULT_GAME_SECONDS if self.compiled() else None


def random_play(game: Any, ply: int, seed: int) -> Any:
    """``game`` rooted after ``ply`` uniformly random moves from its initial state (fewer when
    the game ends first), drawn with a ``random.Random(seed)`` of its own. The game must offer
    ``with_root(state)`` (a copy rooted at ``state``)."""
    rng = _random.Random(seed)
    state = game.initial_state()
    for _ in range(ply):
        if game.is_terminal(state):
            break
        moves = list(game.legal_moves(state))
        state = game.play(state, moves[rng.randrange(len(moves))])
    if not hasattr(game, "with_root"):
        raise InvalidParameterError(
            f"game {getattr(game, 'name', game)!r}: random positions need with_root(state) "
            "(a copy of the game rooted at state)")
    return game.with_root(state)


_REGISTERED: dict[str, GameEntry] = {}
_LOADED = False
_PLUGIN_ERRORS: dict[str, str] = {}


def register(e: GameEntry) -> GameEntry:
    """Add a game (a plug-in from Python); a name taken by another game is refused."""
    _load()
    old = _REGISTERED.get(e.name)
    if old is not None and old is not e:
        raise InvalidParameterError(f"game {e.name!r} is registered already")
    _REGISTERED[e.name] = e
    return e


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for mod in _builtin_modules():
        e = importlib.import_module(mod).GAME
        _REGISTERED[e.name] = e
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _REGISTERED:
            continue
        try:
            e = ep.load()
        except Exception as exc:  # noqa: BLE001 -- a broken plug-in must not hide the others
            _PLUGIN_ERRORS[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        if callable(e) and not isinstance(e, GameEntry):
            e = e()
        if isinstance(e, GameEntry):
            _REGISTERED[e.name] = e
        else:
            _PLUGIN_ERRORS[ep.name] = f"entry point {ep.value} is not a GameEntry"


def registry() -> Mapping[str, GameEntry]:
    """Every registered game by name, in display order."""
    _load()
    return dict(sorted(_REGISTERED.items(), key=lambda kv: (kv[1].order, kv[0])))


def game_names() -> tuple[str, ...]:
    """The registered games' names, in display order (the allowed values of ``game.name``)."""
    return tuple(registry())


def cold_seconds(engine: str) -> Optional[float]:
    """The cold compile in CPU seconds of the warm-up engine ``engine`` (searchlab-warm-up's
    names): the table of the engines that are no game's (compile_costs.COLD_SECONDS: trees,
    chance and n-player engines, perft), else a registered game's own
    (:meth:`GameEntry.cold_seconds`); None when not measured. The table is read first so that
    planning a tree sweep imports no game module (each loads its compiled primitives)."""
    if engine in COLD_SECONDS:
        return COLD_SECONDS[engine]
    reg = registry()
    return reg[engine].cold_seconds() if engine in reg else None


def plugin_errors() -> Mapping[str, str]:
    """Entry points of the ``searchlab.games`` group that failed to load: name -> why."""
    _load()
    return dict(_PLUGIN_ERRORS)


def entry(name: str) -> GameEntry:
    """The registered game ``name`` (InvalidParameterError naming the allowed names)."""
    reg = registry()
    if name not in reg:
        why = f" (its plug-in failed to load: {_PLUGIN_ERRORS[name]})" if name in _PLUGIN_ERRORS else ""
        raise InvalidParameterError(f"unknown game {name!r}{why}; allowed: {', '.join(reg)}")
    return reg[name]


def entry_from_target(name: str, target: str, params: Mapping[str, Any] | None = None,
                      positions: Optional[str] = None) -> GameEntry:
    """The entry of a game named by a config's ``_target_`` (Hydra's convention: a dotted path
    to a class or factory, called with ``params``). A target carrying a ``GameEntry`` as its
    ``searchlab_game`` attribute gets that declaration (its sources, branching factor, ...)
    under ``name``; any other gets the sources ``start`` (the game as built) and ``random``
    (``ply`` seeded random moves from it, :func:`random_play`), the one ``positions`` names."""
    make = locate(target)
    params = tuple(sorted((params or {}).items()))
    declared = getattr(make, "searchlab_game", None)
    if isinstance(declared, GameEntry):
        kw = {f: getattr(declared, f) for f in declared.__dataclass_fields__}
        kw.update(name=name, params=params, target=target)
        return GameEntry(**kw)
    kind = "random" if positions == "random" else "start"
    return GameEntry(name=name, make=make, source_kind=kind, sources=(kind,), params=params,
                     target=target)


def locate(target: str) -> Callable[..., Any]:
    """The object at a dotted path ``pkg.module.Name`` (InvalidParameterError saying why not)."""
    if not isinstance(target, str) or "." not in target:
        raise InvalidParameterError(f"_target_ must be a dotted path 'module.Name'; got {target!r}")
    mod, _, attr = target.rpartition(".")
    try:
        obj = getattr(importlib.import_module(mod), attr)
    except ImportError as exc:
        raise InvalidParameterError(
            f"_target_ {target!r}: cannot import {mod!r} ({exc}); put its folder on PYTHONPATH "
            "or install it") from None
    except AttributeError:
        raise InvalidParameterError(f"_target_ {target!r}: module {mod!r} has no {attr!r}") from None
    if not callable(obj):
        raise InvalidParameterError(f"_target_ {target!r} is not a class or function")
    return obj
