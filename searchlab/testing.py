"""The conformance battery: checks a plug-in author calls in their own tests.

- :func:`check_game`: the Game protocol and its capability flags, determinism, equal hash keys
  for equal positions, play leaving its state unchanged (the apply/undo round trip of
  immutable states), terminal and utility conventions over seeded random playouts, alpha-beta's
  value equal to plain minimax's under several orderings and algorithms, and, where the game
  supplies compiled primitives, the compiled engine node for node equal to the reference.
- :func:`check_ordering`: against the ordering registry's declarations (plug-in components
  included): a plug-in's reference code returns a permutation of the moves; a sound ordering
  returns minimax's value and one of its best moves; every engine declared to run it does,
  node for node as the reference.
- :func:`check_pruning`: a technique's record (``pruning.Technique``) is consistent; the
  technique runs; with every technique off it is plain alpha-beta node for node; one declared
  sound (its family's declaration) returns minimax's value.
- :func:`check_algorithm`: a registered search algorithm (a plug-in's ``Algorithm``) runs under
  several orderings, counts its nodes, is run by ``engine='auto'`` exactly as by the reference
  engine, and, declared sound, returns minimax's value and one of its best moves.

Each raises ``ConformanceError`` naming the check and the position on the first failure and
returns a :class:`Report` (what was checked, counted) otherwise, e.g.::

    from searchlab.testing import check_game
    def test_my_game():
        check_game(MyGame(), depth=3)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence

from searchlab.algorithms import compiled_engine, kernels
from searchlab.algorithms.algorithm_registry import algorithm_names, is_sound
from searchlab.contracts.compiled import compiled_game
from searchlab.algorithms.ordering_registry import COMPONENTS, Ordering, ordering_of
from searchlab.algorithms.pruning import RECORDS, Pruning, Technique
from searchlab.algorithms.search_api import search
from searchlab.errors import SearchlabError, UnsupportedError
from searchlab.contracts.protocol import Capabilities, Game

#: the algorithms every check compares with minimax (all sound: the same root value)
SOUND_ALGORITHMS = ("alphabeta", "alphabeta-failhard", "pvs", "mtdf")
#: orderings every game has; the game's own orderings are added where it declares them
GENERIC_ORDERINGS = ("natural", "random", "id+tt+killer+history")


class ConformanceError(AssertionError):
    """A conformance check failed (an AssertionError, so test runners report it as a failure)."""


@dataclass
class Report:
    """What a check did: ``counts`` by what was checked (positions, playouts, searches, ...)."""

    subject: str
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, what: str, n: int = 1) -> None:
        self.counts[what] = self.counts.get(what, 0) + n

    def __str__(self) -> str:
        return f"{self.subject}: " + ", ".join(f"{k} {v}" for k, v in self.counts.items())


def _fail(subject: str, check: str, detail: str) -> None:
    raise ConformanceError(f"{subject}: {check}: {detail}")


def _playout(game: Any, seed: int, max_plies: int) -> list[tuple[Any, Any]]:
    """[(state, move played there)] of one seeded uniformly random playout (move None at the
    end: a terminal state or the ply cap)."""
    rng = random.Random(seed)
    state, out = game.initial_state(), []
    for _ in range(max_plies):
        if game.is_terminal(state):
            break
        moves = list(game.legal_moves(state))
        m = moves[rng.randrange(len(moves))]
        out.append((state, m))
        state = game.play(state, m)
    out.append((state, None))
    return out


def check_game(game: Any, *, depth: int = 2, playouts: int = 8, seed: int = 0,
               max_plies: int = 400, orderings: Optional[Sequence[str]] = None,
               algorithms: Sequence[str] = SOUND_ALGORITHMS) -> Report:
    """Check a two-player Game (module docstring). ``depth``: the searches' horizon (keep it
    small: the reference minimax visits every node); ``playouts`` seeded random playouts of at
    most ``max_plies`` plies; ``orderings``: None = the generic ones plus the game's own."""
    name = getattr(game, "name", type(game).__name__)
    subject = f"game {name}"
    rep = Report(subject)
    # -- protocol and flags
    if not isinstance(game, Game):
        missing = [m for m in ("name", "capabilities", "default_depth", "initial_state",
                               "max_to_move", "legal_moves", "play", "is_terminal", "utility",
                               "evaluate", "hash_key") if not hasattr(game, m)]
        _fail(subject, "protocol", f"not a searchlab Game; missing {', '.join(missing)}")
    caps = game.capabilities
    if not isinstance(caps, Capabilities):
        _fail(subject, "protocol", f"capabilities is a {type(caps).__name__}, not a Capabilities")
    if not (caps.two_player and caps.deterministic and caps.perfect_information):
        _fail(subject, "protocol", "check_game checks two-player deterministic games of perfect "
              "information; this game's capabilities say otherwise")
    for flag, methods in (("own_orderings", ("move_orderings",)),
                          ("null_move", ("null_move",)), ("noisy_moves", ("noisy_moves",)),
                          ("capture_gain", ("capture_gain",)), ("noisy_test", ("is_noisy",)),
                          ("compiled", ("compiled_primitives",))):
        if getattr(caps, flag):
            for m in methods:
                if not callable(getattr(game, m, None)):
                    _fail(subject, "capabilities", f"{flag} is set but {m}() is missing")
    rep.add("flags")
    root = game.initial_state()
    if not game.max_to_move(root):
        _fail(subject, "conventions", "MAX must be to move in the initial state (values are "
              "from the point of view of the player to move there)")
    own = tuple(game.move_orderings()) if caps.own_orderings else ()

    # -- seeded random playouts: determinism, immutability, keys, terminal conventions
    keys: dict[Any, int] = {}
    for k in range(playouts):
        a, b = _playout(game, seed + k, max_plies), _playout(game, seed + k, max_plies)
        if [m for _, m in a] != [m for _, m in b] or [s for s, _ in a] != [s for s, _ in b]:
            _fail(subject, "determinism", f"playout seed {seed + k} differs between two runs")
        rep.add("playouts")
        for ply, (s, m) in enumerate(a):
            where = f"playout seed {seed + k} ply {ply}"
            key = game.hash_key(s)
            if not isinstance(key, int) or not 0 <= key < 1 << 64:
                _fail(subject, "hash keys", f"{where}: hash_key is {key!r}, not a 64-bit int")
            try:
                old = keys.setdefault(s, key)
            except TypeError:
                _fail(subject, "states", f"{where}: states must be hashable values")
            if old != key:
                _fail(subject, "hash keys", f"{where}: equal positions have keys {old} and {key}")
            terminal = game.is_terminal(s)
            moves = list(game.legal_moves(s))
            if terminal:
                u = game.utility(s)
                if not isinstance(u, (int, float)) or not math.isfinite(u):
                    _fail(subject, "utility", f"{where}: utility is {u!r}, not a finite number")
                rep.add("terminal positions")
                continue
            if not moves:
                if m is None:
                    continue                  # the ply cap
                _fail(subject, "terminal", f"{where}: a non-terminal state has no move")
            if len(set(moves)) != len(moves):
                _fail(subject, "moves", f"{where}: legal_moves lists a move twice")
            if caps.static_values:
                v = game.evaluate(s)
                if not isinstance(v, (int, float)) or not math.isfinite(v):
                    _fail(subject, "evaluate", f"{where}: evaluate is {v!r}, not a finite number")
            for order_name, fn in (game.move_orderings().items() if caps.own_orderings else ()):
                if sorted(map(repr, fn(s, list(moves)))) != sorted(map(repr, moves)):
                    _fail(subject, "own orderings", f"{where}: {order_name} is not a permutation "
                          "of the legal moves")
            if m is not None:
                before = (key, tuple(game.legal_moves(s)))
                child = game.play(s, m)
                if (game.hash_key(s), tuple(game.legal_moves(s))) != before:
                    _fail(subject, "apply/undo", f"{where}: play({m!r}) changed the state it "
                          "was given (states must be immutable values)")
                if game.play(s, m) != child:
                    _fail(subject, "determinism", f"{where}: play({m!r}) twice gives two states")
            rep.add("positions")
    if not caps.static_values:
        s = root
        if not game.is_terminal(s):
            try:
                game.evaluate(s)
            except UnsupportedError:
                pass
            else:
                _fail(subject, "capabilities", "static_values is False but evaluate() returns "
                      "a value (raise UnsupportedError, or set the flag)")

    # -- searches: every sound algorithm and ordering equals plain minimax
    horizon = depth if caps.static_values else None
    if horizon is None and game.default_depth is None and playouts and not _small(game, 20000):
        _fail(subject, "search", "the game has no static values and is too big to search to "
              "the end (more than 20000 nodes): set capabilities.static_values and evaluate()")
    mm = search(game, "minimax", "natural", depth=horizon, engine="reference")
    rep.add("searches")
    ords = tuple(orderings) if orderings is not None else GENERIC_ORDERINGS + own
    for alg in algorithms:
        for o in ords:
            r = search(game, alg, o, depth=horizon, engine="reference")
            rep.add("searches")
            if r.value != mm.value:
                _fail(subject, "search", f"{alg}/{o} depth {horizon}: value {r.value} != "
                      f"minimax's {mm.value}")
            if mm.best_moves_complete and r.best_move not in mm.best_moves:
                _fail(subject, "search", f"{alg}/{o} depth {horizon}: best move {r.best_move!r} "
                      f"is not one of minimax's {mm.best_moves!r}")
            if caps.compiled:
                _same_nodes(subject, game, alg, o, horizon)
                rep.add("compiled searches")
    return rep


def _small(game: Any, limit: int) -> bool:
    """Whether the whole game tree has at most ``limit`` nodes."""
    stack, n = [game.initial_state()], 0
    while stack:
        s = stack.pop()
        n += 1
        if n > limit:
            return False
        if not game.is_terminal(s):
            stack.extend(game.play(s, m) for m in game.legal_moves(s))
    return True


def _same_nodes(subject: str, game: Any, alg: str, ordering: str, depth: Optional[int]) -> None:
    try:
        c = search(game, alg, ordering, depth=depth, engine="compiled")
    except UnsupportedError:
        return                                # no compiled engine for this combination
    r = search(game, alg, ordering, depth=depth, engine="reference")
    for f in ("value", "best_move", "nodes", "leaves", "interior", "cutoffs"):
        if getattr(c, f) != getattr(r, f):
            _fail(subject, "compiled engine", f"{alg}/{ordering} depth {depth}: {f} compiled "
                  f"{getattr(c, f)!r} != reference {getattr(r, f)!r}")


def check_ordering(ordering: str, games: Iterable[Any], *, depth: int = 3,
                   algorithms: Sequence[str] = ("alphabeta", "pvs")) -> Report:
    """An ordering (any spec ``search()`` takes) against its declarations in the ordering
    registry (searchlab.algorithms.ordering_registry.COMPONENTS), on every game (two-player
    Games or synthetic trees) at ``depth`` (games without static values: to the end): every
    component is registered (or the game's own); one declared sound returns minimax's value
    and one of its best moves on the reference engine and on the one ``auto`` picks; and each
    engine the registry says runs it (the tree kernels, the compiled engine, where the game is
    one that engine searches) runs it node for node as the reference engine does. A plug-in
    component's reference code (``order``, ``hooks``) must first return a permutation of the
    legal moves along a seeded random playout of each game."""
    rep = Report(f"ordering {ordering}")
    for game in games:
        name = getattr(game, "name", type(game).__name__)
        try:
            value = ordering_of(ordering, game)
        except SearchlabError as e:
            _fail(rep.subject, "registered", f"{name}: {e}")
        for part in value.plugins:
            _check_permutation(rep, name, game, part)
        horizon = depth if game.capabilities.static_values else None
        mm = search(game, "minimax", "natural", depth=horizon, engine="reference")
        for alg in algorithms:
            for engine in ("reference", "auto"):
                try:
                    r = search(game, alg, ordering, depth=horizon, engine=engine)
                except UnsupportedError as e:
                    _fail(rep.subject, "supported", f"{name}: {e}")
                rep.add("searches")
                if not value.sound:
                    continue
                if r.value != mm.value:
                    _fail(rep.subject, "value", f"{name} {alg} ({engine}): {r.value} != "
                          f"minimax's {mm.value}")
                if mm.best_moves_complete and r.best_move not in mm.best_moves:
                    _fail(rep.subject, "best move", f"{name} {alg} ({engine}): {r.best_move!r} "
                          f"is not one of minimax's {mm.best_moves!r}")
            for engine in _declared_engines(game, alg, value):
                _same_search(rep, name, game, alg, ordering, horizon, engine)
    return rep


def _check_permutation(rep: Report, name: str, game: Any, part: str, plies: int = 12) -> None:
    """The plug-in component ``part``'s reference code returns a permutation of the legal
    moves at every position of one seeded random playout (a fresh ``hooks`` object: no cut
    seen yet)."""
    c = COMPONENTS[part]
    hooks = c.hooks(game) if c.hooks is not None else None
    for ply, (s, _) in enumerate(_playout(game, 0, plies)):
        if game.is_terminal(s):
            break
        moves = list(game.legal_moves(s))
        got = c.order(game, s, list(moves)) if c.order is not None \
            else hooks.order(s, list(moves), ply)
        if sorted(map(repr, got)) != sorted(map(repr, moves)):
            _fail(rep.subject, "permutation", f"{name} ply {ply}: {part} returned {list(got)!r}, "
                  f"not a permutation of the legal moves {moves!r}")
        rep.add("positions ordered")


def _declared_engines(game: Any, alg: str, value: Ordering) -> list[str]:
    """The engines besides the reference that the registry says run ``value`` and that
    search this game and algorithm at all (the kernels: synthetic trees of a kernel model;
    the compiled engine: games with compiled primitives)."""
    out = []
    if value.supports("kernel") and kernels.kernel_supports(game, alg, value.text):
        out.append("kernel")
    cg = compiled_game(game) if game.capabilities.compiled else None
    if cg is not None and alg in compiled_engine.ALGORITHMS \
            and value.supports("compiled", cg.orderings):
        out.append("compiled")
    return out


def _same_search(rep: Report, name: str, game: Any, alg: str, ordering: str,
                 depth: Optional[int], engine: str) -> None:
    """``engine`` runs the search (the registry says it does) with the reference engine's
    value, best move and counts."""
    try:
        c = search(game, alg, ordering, depth=depth, engine=engine)
    except UnsupportedError as e:
        _fail(rep.subject, "registry", f"{name} {alg}: the registry declares engine {engine!r} "
              f"runs it, but: {e}")
    r = search(game, alg, ordering, depth=depth, engine="reference")
    for f in ("value", "best_move", "nodes", "leaves"):
        if getattr(c, f) != getattr(r, f):
            _fail(rep.subject, f"{engine} engine", f"{name} {alg}: {f} {getattr(c, f)!r} != "
                  f"reference {getattr(r, f)!r}")
    rep.add(f"{engine} searches")


def check_pruning(pruning: Technique | Pruning, games: Iterable[Any], *, depth: int = 3,
                  sound: Optional[bool] = None) -> Report:
    """A pruning technique (its ``Technique`` record, or a bare ``Pruning``) on every game at
    ``depth`` (games without static values: to the end): its record is consistent (family,
    parameters: ``Technique.check``); it runs; with every technique off it equals plain
    alpha-beta node for node; one declared sound (``sound``, default: its family's
    declaration in searchlab.algorithms.pruning.FAMILIES, or a plug-in family's) returns
    minimax's value. (An unsound technique is only run: what it loses is measured by the
    trade-off study, not asserted.) A plug-in family (``Family`` with a ``skip`` hook: a
    ``Technique(family=..., params=...)`` or a bare ``Pruning(plugin=PluginRule(...))``) is
    searched on the reference engine, as everywhere."""
    if isinstance(pruning, Pruning) and pruning.plugin is not None:
        # a plug-in's rule as built (its family need not be registered): nothing to rebuild
        rep = Report(f"pruning {pruning.plugin.family.name}")
        declared = pruning.plugin.family.sound
    else:
        if isinstance(pruning, Pruning):
            technique = Technique(**{f: getattr(pruning, f) for f in RECORDS})
        elif isinstance(pruning, Technique):
            technique = pruning
        else:
            raise TypeError(f"pruning must be a Technique or Pruning record; got {pruning!r}")
        named = technique.on() or technique.family != "sound"
        rep = Report(f"pruning {technique.name if named else 'none'}")
        try:
            technique.check()
            pruning = technique.pruning or Pruning()
            declared = technique.sound
        except SearchlabError as e:
            _fail(rep.subject, "record", str(e))
    sound = declared if sound is None else sound
    for game in games:
        name = getattr(game, "name", type(game).__name__)
        horizon = depth if game.capabilities.static_values else None
        try:
            r = search(game, "alphabeta", "natural", depth=horizon, engine="reference",
                       pruning=pruning)
        except SearchlabError as e:
            _fail(rep.subject, "runs", f"{name}: {e}")
        if not math.isfinite(r.value):
            _fail(rep.subject, "runs", f"{name}: value {r.value}")
        rep.add("searches")
        if not pruning.active():
            ab = search(game, "alphabeta", "natural", depth=horizon, engine="reference")
            if (r.value, r.nodes, r.leaves, r.best_move) != (ab.value, ab.nodes, ab.leaves,
                                                              ab.best_move):
                _fail(rep.subject, "plain alpha-beta", f"{name}: (value, nodes, leaves, move) "
                      f"{(r.value, r.nodes, r.leaves, r.best_move)} != alpha-beta's "
                      f"{(ab.value, ab.nodes, ab.leaves, ab.best_move)}")
        if sound:
            mm = search(game, "minimax", "natural", depth=horizon, engine="reference")
            if r.value != mm.value:
                _fail(rep.subject, "sound", f"{name}: value {r.value} != minimax's {mm.value}")
    return rep


def check_algorithm(algorithm: str, games: Iterable[Any], *, depth: int = 3,
                    orderings: Sequence[str] = ("natural", "random", "id+tt+natural")) -> Report:
    """A search algorithm by name (a built-in or a registered plug-in) on every game (two-player
    Games or synthetic trees) at ``depth`` (games without static values: to the end), under
    each ordering: it is registered; it runs and counts at least one node and one leaf; the
    search ``engine='auto'`` picks returns the same value, best move and counts as the
    reference engine's (a plug-in runs on the reference engine only); and, declared sound
    (``Algorithm.sound``; every built-in is), it returns minimax's value and one of minimax's
    best moves. An unsound algorithm is only run."""
    rep = Report(f"algorithm {algorithm}")
    if algorithm not in algorithm_names():
        _fail(rep.subject, "registered", f"not one of {', '.join(algorithm_names())} "
              "(register_algorithm, or the entry-point group searchlab.algorithms)")
    sound = is_sound(algorithm)
    for game in games:
        name = getattr(game, "name", type(game).__name__)
        horizon = depth if game.capabilities.static_values else None
        mm = search(game, "minimax", "natural", depth=horizon, engine="reference")
        for ordering in orderings:
            if "id" in ordering.split("+") and horizon is None:
                continue                  # iterative deepening needs a finite depth
            try:
                r = search(game, algorithm, ordering, depth=horizon, engine="reference")
                auto = search(game, algorithm, ordering, depth=horizon, engine="auto")
            except SearchlabError as e:
                _fail(rep.subject, "runs", f"{name} {ordering}: {e}")
            rep.add("searches", 2)
            if r.nodes < 1 or r.leaves < 1:
                _fail(rep.subject, "counts", f"{name} {ordering}: {r.nodes} nodes, {r.leaves} "
                      "leaves (count every node through ctx.visit)")
            if (auto.value, auto.best_move, auto.nodes, auto.leaves) != \
                    (r.value, r.best_move, r.nodes, r.leaves):
                _fail(rep.subject, "engine auto", f"{name} {ordering}: (value, move, nodes, "
                      f"leaves) {(auto.value, auto.best_move, auto.nodes, auto.leaves)} != the "
                      f"reference engine's {(r.value, r.best_move, r.nodes, r.leaves)}")
            if not sound:
                continue
            if r.value != mm.value:
                _fail(rep.subject, "value", f"{name} {ordering}: {r.value} != minimax's {mm.value}")
            if mm.best_moves_complete and r.best_move not in mm.best_moves:
                _fail(rep.subject, "best move", f"{name} {ordering}: {r.best_move!r} is not one "
                      f"of minimax's {mm.best_moves!r}")
    return rep
