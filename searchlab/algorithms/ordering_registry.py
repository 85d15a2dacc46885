"""The ordering components, each declared once, and the ``Ordering`` value a spec parses into.

``COMPONENTS`` is the registry: every base order, dynamic component and shorthand with its
kind, whether it is sound (a search under it returns minimax's value and one of its best
moves), what it needs of the game (a capability flag) and which engines run it: the reference
engine always, the tree kernels (searchlab/algorithms/kernels: single base orders on synthetic
trees) and the compiled engine (searchlab/algorithms/compiled) by the name of their code
constant. Every consumer asks this module: validation and its "allowed values" messages,
``search()`` choosing an engine, the compiled engine's parameter arrays, the budget guard,
studies and reports. A new component is its reference code (ordering.py), its compiled twin
(algorithms/compiled) and one entry here (docs/extending.md).

Plug-in components come from outside the package the way games do: a ``Component`` carrying
its reference code (``order`` for a base order, ``hooks`` for a dynamic component), added by
:func:`register_component` from Python or named by an entry point of the group
``searchlab.orderings`` (``NAME = "mypkg.mod:COMPONENT"``, loaded lazily the first time the
registry is read; one that fails to load is reported by :func:`plugin_errors`, not fatal). A
plug-in has no kernel or compiled twin: it runs on the reference engine.

A spec such as ``"id+staged+static"`` is parsed ONCE into a frozen ``Ordering`` (``ordering_of``,
cached): the text as given (which task ids, seeds and table columns use, unchanged), the
components as written, the parts with shorthands expanded (``staged`` = ``tt+tactical+killer+
history``), the base order and the dynamic components, the canonical text, the compiled
engine's codes and ``supports(engine)``. ``describe`` reads an ordering already in a table
(no game at hand: an unknown component is taken for a game's own base order).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Collection, Iterable, Mapping

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.limits import excerpt
from searchlab.plugin_entry_points import load_entry_points

#: the engines an ordering may run on (search(engine=...) less "auto")
ENGINES = ("reference", "kernel", "compiled")


@dataclass(frozen=True)
class Component:
    """One ordering component, declared once.

    ``kind``: "base" (at most one per ordering), "dynamic" (combined with ``+``) or
    "shorthand" (a named composition: ``expands``). ``sound``: the order changes the nodes
    searched, never the value (every built-in). ``needs``: the Capabilities flag the game must
    set (``static_values``, ``noisy_moves``), or "" for none. ``kernel`` / ``compiled``: the
    name of the component's code constant in the tree kernels (algorithms/kernels/_alphabeta.py)
    and in the compiled engine (algorithms/compiled/_engine.py); None = that engine does not
    run it. ``oracle``: it orders by exact values (an oracle over the whole tree, size-limited).

    A plug-in (a component declared outside the package) carries its reference code instead
    of a branch in ordering.py, and has no kernel or compiled twin:

    - a base order: ``order(game, state, moves) -> list``, the legal ``moves`` (natural
      order) as a permutation, first searched first;
    - a dynamic component: ``hooks(game) -> obj``, called once per search (the object keeps
      that search's state, as killer slots do), with ``obj.order(state, moves, ply) -> list``
      (``moves`` as the lower-priority components left them; return a permutation that keeps
      that order among the moves it ranks equal: a stable sort) and ``obj.on_cut(state, move,
      ply, depth_left)`` (called at every cut, as the built-in killers and history are).
    """

    name: str
    kind: str
    doc: str
    sound: bool = True
    needs: str = ""
    kernel: str | None = None
    compiled: str | None = None
    expands: tuple[str, ...] = ()
    oracle: bool = False
    order: Callable[[Any, Any, list], list] | None = None
    hooks: Callable[[Any], Any] | None = None

    @property
    def plugin(self) -> bool:
        """Whether the component carries its own reference code (declared outside ordering.py)."""
        return self.order is not None or self.hooks is not None


COMPONENTS: dict[str, Component] = {c.name: c for c in (
    Component("natural", "base", "the game's move generation order", kernel="ORD_NATURAL",
              compiled="B_NATURAL"),
    Component("random", "base", "a seeded random order, reproducible per node",
              kernel="ORD_RANDOM", compiled="B_RANDOM"),
    Component("perfect", "base", "best child first, by exact values (an oracle)",
              kernel="ORD_PERFECT", oracle=True),
    Component("worst", "base", "worst child first, by exact values (an oracle)",
              kernel="ORD_WORST", oracle=True),
    Component("static", "base", "by the children's static values", needs="static_values",
              kernel="ORD_STATIC", compiled="B_STATIC"),
    Component("id", "dynamic", "iterative deepening: each iteration's best moves first in the "
              "next", needs="static_values", compiled="D_TABLE"),
    Component("tt", "dynamic", "a transposition table: its cutoffs, its best move first",
              compiled="D_TABLE"),
    Component("killer", "dynamic", "two killer slots per ply", compiled="D_KILLER"),
    Component("history", "dynamic", "by history score (depth_left^2 per cut)",
              compiled="D_HISTORY"),
    Component("tactical", "dynamic", "the game's noisy moves first, in their order",
              needs="noisy_moves", compiled="D_TACTICAL"),
    Component("staged", "shorthand", "the staged order of chess engines",
              expands=("tt", "tactical", "killer", "history")),
)}

# the built-in components by kind (plug-ins are added to COMPONENTS only: ask component_names())
BASE_ORDERINGS = tuple(n for n, c in COMPONENTS.items() if c.kind == "base")
DYNAMIC_COMPONENTS = tuple(n for n, c in COMPONENTS.items() if c.kind == "dynamic")
SHORTHANDS = {n: c.expands for n, c in COMPONENTS.items() if c.kind == "shorthand"}
ORDERINGS = tuple(COMPONENTS)

#: the entry-point group of installed ordering components
ENTRY_POINT_GROUP = "searchlab.orderings"
KINDS = ("base", "dynamic", "shorthand")
_LOADED = False
_PLUGIN_ERRORS: dict[str, str] = {}


def register_component(c: Component) -> Component:
    """Add a plug-in component (its reference code in ``order`` or ``hooks``); a name taken
    by another component, or a declaration the reference engine cannot run, is refused with
    an InvalidParameterError saying why. Registering the same object again is a no-op."""
    _load()
    old = COMPONENTS.get(getattr(c, "name", None))
    if old is c:
        return c
    _check_plugin(c)
    if old is not None:
        raise InvalidParameterError(f"ordering component {c.name!r} is registered already")
    COMPONENTS[c.name] = c
    _parsed.clear()
    return c


def _check_plugin(c: Any) -> None:
    if not isinstance(c, Component):
        raise InvalidParameterError(f"an ordering component must be a Component; got {excerpt(c)}")
    if not isinstance(c.name, str) or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", c.name):
        raise InvalidParameterError(f"ordering component name must be a word (letters, digits, "
                                    f"_; no '+' or ':'); got {excerpt(c.name)}")
    if c.kind not in KINDS:
        raise InvalidParameterError(f"ordering component {c.name!r}: kind must be one of "
                                    f"{', '.join(KINDS)}; got {excerpt(c.kind)}")
    if c.kernel is not None or c.compiled is not None:
        raise InvalidParameterError(f"ordering component {c.name!r}: a plug-in has no kernel or "
                                    "compiled twin (leave kernel and compiled None)")
    code = {"base": ("order", c.order), "dynamic": ("hooks", c.hooks)}.get(c.kind)
    if code is not None and not callable(code[1]):
        raise InvalidParameterError(f"ordering component {c.name!r}: a {c.kind} plug-in needs "
                                    f"its reference code, {code[0]}= (docs/extending.md)")
    if c.kind == "shorthand":
        unknown = [p for p in c.expands if p not in COMPONENTS or COMPONENTS[p].kind == "shorthand"]
        if not c.expands or unknown:
            raise InvalidParameterError(f"ordering component {c.name!r}: a shorthand expands to "
                                        f"registered base or dynamic components; got {c.expands!r}")


def _load() -> None:
    """Read the entry points of ENTRY_POINT_GROUP once (a broken one is recorded, not raised)."""
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    # register_component refuses a name taken (a built-in's too)
    load_entry_points(ENTRY_POINT_GROUP, lambda ep, c: register_component(c), _PLUGIN_ERRORS)


def plugin_errors() -> Mapping[str, str]:
    """Entry points of the ``searchlab.orderings`` group that failed to load: name -> why."""
    _load()
    return dict(_PLUGIN_ERRORS)


def component_names() -> tuple[str, ...]:
    """Every registered component's name, built-ins first (the allowed ordering components)."""
    _load()
    return tuple(COMPONENTS)


def component(name: str) -> Component:
    """The registered component ``name`` (InvalidParameterError naming the allowed ones)."""
    _load()
    if name not in COMPONENTS:
        why = f" (its plug-in failed to load: {_PLUGIN_ERRORS[name]})" if name in _PLUGIN_ERRORS else ""
        raise InvalidParameterError(f"unknown ordering component {excerpt(name)}{why}; allowed: "
                                    f"{', '.join(COMPONENTS)}")
    return COMPONENTS[name]


def import_plugins(modules: Iterable[str], key: str = "search.plugins") -> tuple[str, ...]:
    """Import each module (its folder on ``sys.path``): a plug-in module registers its ordering
    components (register_component) or games (searchlab.games.registry.register) when it is
    imported. An import that fails is an InvalidParameterError naming ``key`` and the module."""
    names = tuple(modules)
    for name in names:
        if not isinstance(name, str) or not name:
            raise InvalidParameterError(f"{key}: a module name, e.g. mypkg.orderings; got {excerpt(name)}")
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise InvalidParameterError(f"{key}: cannot import {name!r} ({exc}); put its folder "
                                        "on PYTHONPATH or install it") from None
    return names


def _kind(name: str) -> str:
    return COMPONENTS[name].kind if name in COMPONENTS else "base"


@dataclass(frozen=True)
class Ordering:
    """A parsed ordering spec. ``text`` is the spec as given (task ids, seeds and table
    columns use it); ``written`` its components as written; ``parts`` with shorthands
    expanded, in priority order; ``own`` the parts that are the game's own orderings."""

    text: str
    written: tuple[str, ...]
    parts: tuple[str, ...]
    own: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.text

    @property
    def base(self) -> str | None:
        """The base order named (None = natural by default)."""
        return next((p for p in self.parts if _kind(p) != "dynamic"), None)

    @property
    def dynamic(self) -> tuple[str, ...]:
        """The dynamic components, in priority order."""
        return tuple(p for p in self.parts if _kind(p) == "dynamic")

    @property
    def plugins(self) -> tuple[str, ...]:
        """The parts that are plug-in components (reference engine only)."""
        return tuple(p for p in self.parts if p not in self.own
                     and COMPONENTS.get(p, _NONE).plugin)

    @property
    def canonical(self) -> str:
        """The text with shorthands expanded (``id+staged`` -> ``id+tt+tactical+killer+history``)."""
        return "+".join(self.parts)

    def has(self, name: str) -> bool:
        """Whether the component ``name`` is among the parts (shorthands expanded)."""
        return name in self.parts

    @property
    def needs(self) -> frozenset[str]:
        """The Capabilities flags the game must set for this ordering."""
        return frozenset(COMPONENTS[p].needs for p in self.parts
                         if p in COMPONENTS and COMPONENTS[p].needs)

    @property
    def oracle(self) -> bool:
        """Whether it orders by exact values (an oracle over the tree)."""
        return any(COMPONENTS[p].oracle for p in self.parts if p in COMPONENTS)

    @property
    def sound(self) -> bool:
        """Whether every component is declared sound (a game's own orders are)."""
        return all(COMPONENTS[p].sound for p in self.parts if p in COMPONENTS)

    def supports(self, engine: str, compiled_own: Collection[str] = ()) -> bool:
        """Whether ``engine`` (reference, kernel, compiled) runs every component: the
        reference all; the kernels one base order with a kernel code and nothing dynamic; the
        compiled engine components with a compiled code, and the game's own orders its
        compiled game lists (``compiled_own``: CompiledGame.orderings). What the engine needs
        of the tree or game beyond the ordering is the engine's own check."""
        if engine not in ENGINES:
            raise InvalidParameterError(f"engine must be one of {', '.join(ENGINES)}; got "
                                        f"{excerpt(engine)}")
        if engine == "reference":
            return True
        if engine == "kernel":
            return len(self.parts) == 1 and COMPONENTS.get(self.parts[0], _NONE).kernel is not None
        return all(p in compiled_own if p in self.own else
                   COMPONENTS.get(p, _NONE).compiled is not None for p in self.parts)

    @property
    def kernel_code(self) -> str | None:
        """The tree kernels' code constant of this ordering (None: no kernel runs it)."""
        return COMPONENTS[self.parts[0]].kernel if self.supports("kernel") else None

    @property
    def compiled_codes(self) -> tuple[str | None, tuple[str, ...]]:
        """The compiled engine's codes: (the base order's constant, "B_OWN" for a game's own,
        None for none named; the dynamic components' constants in priority order)."""
        base = self.base
        code = None if base is None else "B_OWN" if base in self.own \
            else COMPONENTS[base].compiled
        return code, tuple(COMPONENTS[p].compiled or "" for p in self.dynamic)


_NONE = Component("", "base", "")


def ordering_of(spec: Any, game: Any = None) -> Ordering:
    """The Ordering of ``spec`` on ``game`` (None: a synthetic tree, the generic components
    only); parsed once per (spec, the game's own orders, whether it has noisy moves).
    InvalidParameterError for an unknown component, one named twice or two base orders
    (naming what is allowed); UnsupportedError for ``tactical`` on a game without noisy moves."""
    if isinstance(spec, Ordering):
        spec = spec.text
    own = tuple(game.move_orderings()) if game is not None and game.capabilities.own_orderings \
        else ()
    noisy = game is not None and game.capabilities.noisy_moves
    key = (spec, own, noisy) if isinstance(spec, str) else None
    value = _parsed.get(key) if key is not None else None
    if value is not None:
        return value
    value = _parse(spec, own)
    if value.has("tactical") and not noisy:
        name = "a synthetic tree" if game is None else game.name
        raise UnsupportedError(
            f"ordering {excerpt(spec)} needs the game's tactical moves (noisy_moves: captures "
            f"in chess) for its 'tactical' stage; {name} has none")
    if len(_parsed) > 4096:
        _parsed.clear()
    _parsed[key] = value
    return value


# (spec, the game's own orderings, whether it has noisy moves) -> value: a search parses its
# ordering once or twice, which cost as much as a small compiled search
_parsed: dict[Any, Ordering] = {}


def _parse(spec: Any, own: tuple[str, ...]) -> Ordering:
    allowed = component_names() + tuple(o for o in own if o not in COMPONENTS)
    if not isinstance(spec, str) or not spec:
        raise InvalidParameterError(f"ordering must be a non-empty string; got {excerpt(spec)}")
    written = tuple(spec.split("+"))
    for p in written:
        if p not in allowed:
            raise InvalidParameterError(
                f"ordering component {excerpt(p)} unknown: allowed {', '.join(allowed)} "
                "(dynamic ones combine with '+', e.g. tt+killer+history+static)")
    parts = tuple(q for p in written for q in _expand(p))
    if len(set(parts)) != len(parts):
        raise InvalidParameterError(f"ordering {excerpt(spec)} names a component twice")
    bases = [p for p in parts if _kind(p) != "dynamic"]
    if len(bases) > 1:
        raise InvalidParameterError(
            f"ordering {excerpt(spec)} names {len(bases)} base orders ({', '.join(bases)}); at most one")
    return Ordering(spec, written, parts, tuple(p for p in parts if p in own))


def describe(text: Any) -> Ordering:
    """The Ordering of a spec read back from a table or a label, without a game and without
    checks: a component the registry does not know is taken for a game's own base order
    (``captures``, ``centre``), and a ``alg:`` prefix of a policy label is dropped."""
    _load()
    spec = str(text).rpartition(":")[2]
    written = tuple(p for p in spec.split("+") if p)
    parts = tuple(q for p in written for q in _expand(p))
    return Ordering(spec, written, parts, tuple(p for p in parts if p not in COMPONENTS))


def _expand(name: str) -> tuple[str, ...]:
    """A shorthand's parts (built-in or plug-in), or the name itself."""
    c = COMPONENTS.get(name)
    return c.expands if c is not None and c.kind == "shorthand" else (name,)
