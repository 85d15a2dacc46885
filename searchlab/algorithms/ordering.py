"""Move-ordering policies of the reference search, and the exact-value oracle they may need.

The components are declared in ordering_registry.COMPONENTS (name, kind, soundness, what
they need, which engines run them); a spec is parsed once into its ``Ordering`` value
(``ordering_of``); this module is their reference code.

An ordering is a spec like ``"natural"``, ``"perfect"`` or ``"tt+killer+history+static"``:
components joined by ``+`` in priority order. Components:

- *base* orders (at most one): ``natural``, ``random`` (seeded), ``perfect``, ``worst``,
  ``static``, or a game's own (``move_orderings()``, e.g. ``centre``, ``corners``, ``captures``);
  natural if none is named. Definitions shared with the kernels: docs/trees.md.
- plug-in components (ordering_registry.register_component, docs/extending.md): a base order's
  ``order(game, state, moves)``, a dynamic component's per-search ``hooks(game)`` object (its
  ``order`` and ``on_cut`` called where the built-ins' are).
- *dynamic* components: ``tt`` (a transposition table: its entries cut nodes off and its best
  move is searched first), ``id`` (iterative deepening: depth 1..d, each iteration's best moves,
  kept in a move-only table, searched first in the next), ``killer`` (two killer slots per
  ply: the last two moves that cut at that ply, most recent first), ``history`` (moves
  sorted by their history score, which grows by depth_left^2 at every cut they make) and
  ``tactical`` (the game's tactical moves, the ones ``noisy_moves(state)`` lists - chess: the
  captures, en passant and capture-promotions included, in MVV-LVA order - first, in that
  order; every other move after them; only for a game with ``capabilities.noisy_moves``).
- ``staged``: the staged order of chess engines, shorthand for ``tt+tactical+killer+history``:
  the table's move, then the captures by MVV-LVA, then the killers, then the quiet moves by
  history (ties in natural order, or by a base order named after it: ``staged+static``).
  Killers and history learn from every cut, captures included (the update rule of the other
  policies; engines that keep captures out of the killer slots differ there).

The final order is lexicographic in the listed priority: e.g. ``tt+killer+history+static``
searches the table's move first, then the killers, then the rest by history score, ties by
static value, remaining ties in natural order. The composition is lexicographic, so
``killer+history+captures`` sorts every move by history and lets the captures order break
ties only; ``tt+tactical+killer+history`` (``staged``) puts the captures in a stage of their
own before the killers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Sequence

from searchlab.algorithms.ordering_registry import (BASE_ORDERINGS, COMPONENTS,
                                                    DYNAMIC_COMPONENTS, SHORTHANDS, Ordering,
                                                    ordering_of)
from searchlab.algorithms.ordering_registry import ORDERINGS as REGISTERED
from searchlab.algorithms.tt import TranspositionTable
from searchlab.errors import TreeTooLargeError, UnsupportedError
from searchlab.hashing import mix64, random_order_salt

# The components are declared once, in ordering_registry.COMPONENTS; the names below are
# that registry's, kept here for the callers of this module.
ORDERINGS = REGISTERED
__all__ = ["BASE_ORDERINGS", "DYNAMIC_COMPONENTS", "SHORTHANDS", "ORDERINGS", "Ordering",
           "ordering_of", "parse_ordering", "base_order", "make_ordering", "DynamicOrdering",
           "Oracle", "REFERENCE_ORACLE_MAX_LEAVES"]

#: The reference oracle refuses trees with more leaves than this (a full minimax pass in
#: pure Python at about 1 µs per node, and one dict entry per interior node).
REFERENCE_ORACLE_MAX_LEAVES = 2**20

OrderFn = Callable[[Any, Sequence[Hashable], int], list]


class Oracle:
    """Exact minimax values (MAX's view) of nodes, to the search's horizon ``depth``.

    Computed by plain minimax on first request and memoised per interior node, so one tree
    costs one full pass. Synthetic trees memoise on ``node_id`` and are refused *before any
    work* when b^depth exceeds ``limit`` leaves; games, whose tree size is unknown in advance,
    memoise on (hash_key, remaining depth) - transpositions are shared - and are refused with
    the same error as soon as the oracle has evaluated ``limit`` leaves. Trees that know their
    values by construction (``exact_value``) are answered directly at full depth. The oracle's
    own work is not counted in a search's nodes.
    """

    def __init__(self, game: Any, depth: float, limit: int = REFERENCE_ORACLE_MAX_LEAVES) -> None:
        self.game, self.depth, self.limit = game, depth, limit
        self.direct = game.capabilities.exact_values and depth >= game.default_depth
        self.by_node_id = game.capabilities.node_ids
        self.leaves = 0
        if not self.direct and self.by_node_id:
            leaves = game.leaf_count(depth)
            if leaves > limit:
                raise TreeTooLargeError(
                    f"perfect/worst ordering on {game.name} at depth {depth} needs an exact-value "
                    f"oracle over {leaves:,} leaves; the reference oracle's limit is {limit:,} "
                    "(use engine='kernel', a smaller tree, or the ordered tree model)")
        self.memo: dict[Any, float] = {}

    def value(self, state: Any, ply: int) -> float:
        game = self.game
        if self.direct:
            return game.exact_value(state)
        if game.is_terminal(state) or ply >= self.depth:
            self.leaves += 1
            if self.leaves > self.limit and not self.by_node_id:
                raise TreeTooLargeError(
                    f"perfect/worst ordering on {game.name} at depth {self.depth}: the exact-value "
                    f"oracle passed its limit of {self.limit:,} leaves (choose a smaller depth)")
            return game.utility(state) if game.is_terminal(state) else game.evaluate(state)
        nid = game.node_id(state) if self.by_node_id else (game.hash_key(state), self.depth - ply)
        v = self.memo.get(nid)
        if v is None:
            vals = [self.value(game.play(state, m), ply + 1) for m in game.legal_moves(state)]
            v = max(vals) if game.max_to_move(state) else min(vals)
            self.memo[nid] = v
        return v


def parse_ordering(spec: Any, game: Any) -> tuple[str, ...]:
    """The parts of an ordering spec, shorthands expanded (``ordering_of(spec, game).parts``);
    raise InvalidParameterError naming what is allowed. ``game`` None: the generic components
    only (a synthetic tree)."""
    return ordering_of(spec, game).parts


def base_order(name: str, game: Any, depth: int, ordering_seed: int = 0,
               oracle_limit: int = REFERENCE_ORACLE_MAX_LEAVES) -> OrderFn | None:
    """The order function of one base policy on this game and horizon (None = natural).

    Raises UnsupportedError where the game lacks what the policy needs, TreeTooLargeError when
    the oracle would exceed ``oracle_limit``.
    """
    if name == "natural":
        return None
    if name == "random":
        salt = random_order_salt(ordering_seed)

        def order(state, moves, ply):
            ranks = {m: mix64(game.hash_key(game.play(state, m)) ^ salt) for m in moves}
            return sorted(moves, key=ranks.__getitem__)     # sorted() is stable
        return order
    if name in ("perfect", "worst"):
        oracle = Oracle(game, depth, oracle_limit)
        best_first = name == "perfect"

        def order(state, moves, ply):
            vals = {m: oracle.value(game.play(state, m), ply + 1) for m in moves}
            descending = game.max_to_move(state) == best_first
            return sorted(moves, key=(lambda m: -vals[m]) if descending else vals.__getitem__)
        order.oracle = oracle
        return order
    if name == "static":
        if not game.capabilities.static_values:
            raise UnsupportedError(
                f"static ordering needs static values at interior nodes; {game.name} has none "
                "(use the incremental tree model or a game with an evaluation)")

        def static(child):
            return game.utility(child) if game.is_terminal(child) else game.evaluate(child)

        def order(state, moves, ply):
            vals = {m: static(game.play(state, m)) for m in moves}
            if game.max_to_move(state):
                return sorted(moves, key=lambda m: -vals[m])
            return sorted(moves, key=vals.__getitem__)
        return order
    own = game.move_orderings() if game.capabilities.own_orderings else {}
    plugin = COMPONENTS.get(name)
    if name not in own and plugin is not None and plugin.order is not None:
        fn = plugin.order
        return lambda state, moves, ply: list(fn(game, state, list(moves)))
    policy = own[name]
    return lambda state, moves, ply: policy(state, moves)


@dataclass
class DynamicOrdering:
    """A composite policy with state: killer slots, history scores, a move table.

    ``order`` is called with the search context so the table's move can be looked up; ``on_cut``
    is called by the search at every cut event to update killers and history. ``plugins``: the
    per-search objects of plug-in dynamic components (their ``hooks(game)``), by name.
    """

    game: Any
    parts: tuple[str, ...]
    base: OrderFn | None
    table: TranspositionTable | None
    killers: dict[int, list] = field(default_factory=dict)
    history: dict[tuple[bool, Hashable], int] = field(default_factory=dict)
    plugins: dict[str, Any] = field(default_factory=dict)

    def order(self, state: Any, moves: Sequence[Hashable], ply: int) -> list:
        ordered = list(moves) if self.base is None else self.base(state, moves, ply)
        game = self.game
        for part in reversed(self.parts):            # lowest priority first; sorts are stable
            if part == "history":
                side = game.max_to_move(state)
                ordered.sort(key=lambda m: -self.history.get((side, m), 0))
            elif part == "tactical":
                rank = {m: i for i, m in enumerate(game.noisy_moves(state))}
                k = len(rank)
                ordered.sort(key=lambda m: rank.get(m, k))
            elif part == "killer":
                slots = [k for k in self.killers.get(ply, ()) if k in ordered]
                ordered = slots + [m for m in ordered if m not in slots]
            elif part in ("tt", "id") and self.table is not None:
                m = self.table.move(game.hash_key(state))
                if m is not None and m in ordered:
                    ordered.remove(m)
                    ordered.insert(0, m)
            elif part in self.plugins:
                ordered = list(self.plugins[part].order(state, ordered, ply))
        return ordered

    def on_cut(self, state: Any, move: Hashable, ply: int, depth_left: float) -> None:
        if "killer" in self.parts:
            slots = self.killers.setdefault(ply, [])
            if move not in slots:
                slots.insert(0, move)
                del slots[2:]
        if "history" in self.parts:
            key = (self.game.max_to_move(state), move)
            d = depth_left if depth_left != float("inf") else 1
            self.history[key] = self.history.get(key, 0) + int(d) ** 2
        for hooks in self.plugins.values():
            hooks.on_cut(state, move, ply, depth_left)


def make_ordering(spec: str | Ordering, game: Any, depth: int, ordering_seed: int = 0,
                  oracle_limit: int = REFERENCE_ORACLE_MAX_LEAVES,
                  table: TranspositionTable | None = None) -> OrderFn | DynamicOrdering | None:
    """The policy for ``spec``: None (natural), a plain order function (one base policy), or a
    DynamicOrdering when dynamic components are named (``table`` serves ``tt``/``id``)."""
    value = ordering_of(spec, game)
    base = None if value.base is None else base_order(value.base, game, depth, ordering_seed,
                                                      oracle_limit)
    if not value.dynamic:
        return base
    plugins = {p: COMPONENTS[p].hooks(game) for p in value.dynamic
               if COMPONENTS[p].hooks is not None}
    return DynamicOrdering(game, value.parts, base, table, plugins=plugins)
