"""The pruning techniques as records, below the engine (docs/architecture.md, layer 2): one
frozen record per technique (``NullMove``, ``LateMoveReductions``, ``Futility``, ``Beam``,
``ProbCut``, ``Quiescence``), the bundle a search takes (``Pruning``), their parameter checks,
the technique families (built-in ``FAMILIES`` and plug-in ``Family`` records, registered by
``register_family``, the entry-point group ``searchlab.pruning`` or ``family: module:ATTR``)
and one technique at one setting (``Technique``, the ``pruning`` config group's node).

They live here, not beside the search that runs them (``searchlab.algorithms.pruning``, which
re-exports every name), because the config schema is generated from ``Technique``'s fields and
``searchlab --help`` reads the schema: the records must import without the engine."""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, fields
from typing import Any, Callable, Mapping

from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.plugin_entry_points import load_entry_points
from searchlab.limits import MAX_BRANCHING, MAX_DEPTH, MAX_VALUE, check_int, check_number

@dataclass(frozen=True)
class NullMove:
    """Null-move pruning: before searching a node's moves, let the side to move pass and
    search the opponent's reply R+1 plies shallower with a null window at beta (MAX) / alpha
    (MIN); if even passing fails high, prune the node. ``reduction`` R >= 1; with
    ``adaptive_depth`` set, R = reduction + 1 where the remaining depth exceeds it; no two
    null moves in a row; with ``verify``, a fail-high is confirmed by a normal search of the
    node R plies shallower before pruning."""

    reduction: int = 2
    adaptive_depth: int | None = None
    verify: bool = False


@dataclass(frozen=True)
class LateMoveReductions:
    """LMR: at nodes with remaining depth >= ``min_depth``, moves after the first ``after``
    (non-noisy ones) are searched ``reduction`` plies shallower with a null window, and again
    at full depth and window when they beat the value so far (a re-search). ``schedule``:
    "constant" (always ``reduction``) or "log" (max(1, floor(ln(depth) * ln(i + 1) / 2)),
    i = the move's 0-based position)."""

    after: int = 3
    min_depth: int = 3
    reduction: int = 1
    schedule: str = "constant"


@dataclass(frozen=True)
class Futility:
    """Futility pruning at frontier nodes (remaining depth 1): when static + ``margin`` <=
    alpha at MAX (static - margin >= beta at MIN), non-noisy moves are not searched. Razoring
    at remaining depth <= ``razor_depth`` (>= 2): when static + ``razor_margin`` <= alpha (MAX;
    symmetric at MIN), the node is resolved by its static value (a quiescence search where on)
    if that also fails low."""

    margin: float = 0.3
    razor_margin: float | None = None
    razor_depth: int = 2


@dataclass(frozen=True)
class Beam:
    """Forward (beam) pruning: only the best ``width`` moves by the static order are searched
    at every node, or ``widths[ply]`` at ply (per-ply widths; the last applies below)."""

    width: int = 3
    widths: tuple[int, ...] = ()


@dataclass(frozen=True)
class ProbCut:
    """ProbCut (Buro): at remaining depth ``deep``, a ``shallow``-depth null-window search
    predicts the deep value through v_deep ~ slope * v_shallow + intercept (residual standard
    deviation ``sigma``, fitted by ``fit_probcut``); the node is cut when the prediction
    exceeds beta (MAX) / falls below alpha (MIN) with ``threshold`` standard deviations to
    spare."""

    shallow: int = 1
    deep: int = 3
    slope: float = 1.0
    intercept: float = 0.0
    sigma: float = 0.1
    threshold: float = 1.5


@dataclass(frozen=True)
class Quiescence:
    """At the horizon, search noisy moves (``game.noisy_moves``) with a stand-pat rule until
    the position is quiet or ``max_depth`` extra plies are reached (then the static value).

    ``delta`` (a margin in the game's static-value units; None = off) switches on delta
    pruning: at a quiescence node with stand-pat value sp, a noisy move whose best-case gain
    (``game.capture_gain``: the material it wins) cannot lift the value past the window is
    skipped without being made: sp + gain + delta <= alpha at MAX (sp - gain - delta >= beta
    at MIN). As in futility pruning (and Stockfish's quiescence), the node's fail-soft value
    is raised (MAX) / lowered (MIN) to that optimistic bound where it is better than the value
    so far. Unsound: the margin must cover what a capture changes beyond material (piece-square
    terms), and a capture worth more than its victim (one that uncovers an attack) can be
    skipped."""

    max_depth: int = 8
    delta: float | None = None


@dataclass(frozen=True)
class Pruning:
    """The techniques switched on (None = off)."""

    null_move: NullMove | None = None
    lmr: LateMoveReductions | None = None
    futility: Futility | None = None
    beam: Beam | None = None
    probcut: ProbCut | None = None
    quiescence: Quiescence | None = None
    #: a plug-in family's move filter with its parameters (reference engine only)
    plugin: PluginRule | None = None

    def active(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self) if getattr(self, f.name) is not None)


@dataclass(frozen=True)
class PluginRule:
    """A plug-in family (``Family`` with a ``skip`` hook) switched on with its parameters:
    ``params`` is what the hook receives (an instance of the family's ``params`` dataclass,
    else the config's mapping as a dict)."""

    family: Family
    params: Any = None

    def __hash__(self) -> int:
        # params may be a plain dict (unhashable); its text identifies it
        return hash((self.family.name, repr(self.params)))

    def params_dict(self) -> dict[str, Any]:
        """The parameters as a plain mapping (for config hashes and labels)."""
        if dataclasses.is_dataclass(self.params):
            return dataclasses.asdict(self.params)
        return dict(self.params or {})


def validate_pruning(pruning: Pruning, game: Any, algorithm: str, parts: tuple[str, ...]) -> None:
    """Check the techniques' parameters and that the game provides what they need."""
    if not isinstance(pruning, Pruning):
        raise InvalidParameterError(f"pruning must be a searchlab Pruning record; got {pruning!r}")
    if not pruning.active():
        return
    if algorithm != "alphabeta":
        raise UnsupportedError(f"pruning techniques run on algorithm 'alphabeta'; got {algorithm!r}")
    if {"perfect", "worst"} & set(parts) and pruning.null_move is not None:
        raise UnsupportedError("null-move pruning cannot be combined with an exact-value oracle "
                               "ordering (perfect/worst): a null move leaves the tree")
    needs_static = [n for n in ("null_move", "lmr", "futility", "probcut", "beam")
                    if getattr(pruning, n) is not None]
    if needs_static and not game.capabilities.static_values:
        raise UnsupportedError(f"{', '.join(needs_static)} need static values; {game.name} has none")
    if pruning.null_move is not None and not game.capabilities.null_move:
        raise UnsupportedError(f"null-move pruning needs game.null_move(); {game.name} has none")
    if pruning.plugin is not None:
        fam = pruning.plugin.family
        missing = [c for c in fam.needs if not getattr(game.capabilities, c, False)]
        if missing:
            raise UnsupportedError(f"pruning family {fam.name!r} needs {', '.join(missing)}; "
                                   f"{game.name} has none")
    check_parameters(pruning)
    q = pruning.quiescence
    if q is not None:
        if not game.capabilities.noisy_moves:
            raise UnsupportedError(f"quiescence needs game.noisy_moves(); {game.name} has none")
        if q.delta is not None:
            if not game.capabilities.capture_gain:
                raise UnsupportedError(f"delta pruning needs game.capture_gain(); {game.name} has none")


def check_parameters(pruning: Pruning) -> None:
    """The techniques' parameter values (no game needed); InvalidParameterError naming the
    parameter (``null_move.reduction``, ``lmr.schedule``, ...)."""
    nm, lmr, fu, beam, pc, q = (pruning.null_move, pruning.lmr, pruning.futility, pruning.beam,
                                pruning.probcut, pruning.quiescence)
    if nm is not None:
        _positive_int("null_move.reduction", nm.reduction)
        if nm.adaptive_depth is not None:
            _positive_int("null_move.adaptive_depth", nm.adaptive_depth)
        if not isinstance(nm.verify, bool):
            raise InvalidParameterError(f"null_move.verify must be true or false; got {nm.verify!r}")
    if lmr is not None:
        _positive_int("lmr.after", lmr.after, MAX_BRANCHING)
        _positive_int("lmr.min_depth", lmr.min_depth)
        _positive_int("lmr.reduction", lmr.reduction)
        if lmr.schedule not in ("constant", "log"):
            raise InvalidParameterError(f"lmr.schedule must be constant or log; got {lmr.schedule!r}")
    if fu is not None:
        _non_negative("futility.margin", fu.margin)
        if fu.razor_margin is not None:
            _non_negative("futility.razor_margin", fu.razor_margin)
            _positive_int("futility.razor_depth", fu.razor_depth)
    if beam is not None:
        for w in (beam.width, *beam.widths):
            _positive_int("beam.width", w, MAX_BRANCHING)
    if pc is not None:
        _positive_int("probcut.shallow", pc.shallow)
        if not isinstance(pc.deep, int) or pc.deep <= pc.shallow:
            raise InvalidParameterError(f"probcut.deep must be an integer > shallow; got {pc.deep!r}")
        _positive_int("probcut.deep", pc.deep)
        _non_negative("probcut.sigma", pc.sigma)
        _non_negative("probcut.threshold", pc.threshold)      # NaN would never cut
        check_number("probcut.intercept", pc.intercept)
        if not check_number("probcut.slope", pc.slope) > 0:
            raise InvalidParameterError(f"probcut.slope must be > 0; got {pc.slope!r}")
    if q is not None:
        _positive_int("quiescence.max_depth", q.max_depth)
        if q.delta is not None:
            try:
                check_number("quiescence.delta", q.delta, 0.0)
            except InvalidParameterError:
                raise InvalidParameterError(
                    f"quiescence.delta must be a finite number >= 0 and <= {MAX_VALUE:g} (or None: "
                    f"off); got {q.delta!r}") from None


# --- techniques: one record each ------------------------------------------------------------
#: the Pruning record class of each technique field
RECORDS: dict[str, type] = {"null_move": NullMove, "lmr": LateMoveReductions,
                            "futility": Futility, "beam": Beam, "probcut": ProbCut,
                            "quiescence": Quiescence}


@dataclass(frozen=True)
class Family:
    """A technique family: ``field`` the Pruning field its techniques set (None: none, plain
    alpha-beta, or a plug-in family), ``sound`` whether a search under it returns minimax's
    value at the same horizon (only plain alpha-beta among the built-ins: quiescence extends
    the horizon, the others may prune the best move), ``razor`` whether futility's
    razor_margin is set (razoring) or not.

    A plug-in family (declared outside the package: ``register_family``, the entry-point group
    ``searchlab.pruning``, or ``family: module:ATTR`` in a config) has no field; its logic is
    ``skip(params, game, state, move, depth_left, alpha, beta, index) -> bool``, a forward-
    pruning move filter that ``pruned_alphabeta`` asks for every move after a node's first
    (index >= 1, so that every node keeps a value): True = the move is not searched (counted
    as fired under the family's name). ``params`` is the dataclass its parameters build (the
    config's ``params`` mapping, checked by its constructor and a ``check()`` method where it
    has one; None: the mapping is passed as a dict); ``needs`` the game capabilities it uses
    (``static_values``, ``noisy_test``, ...). Plug-in families run on the reference engine
    only: the compiled engine declines them."""

    name: str
    field: str | None
    sound: bool
    doc: str
    razor: bool = False
    skip: Callable[..., bool] | None = None
    params: type | None = None
    needs: tuple[str, ...] = ()

    @property
    def plugin(self) -> bool:
        """Whether its logic is a hook (a plug-in family), not a Pruning field."""
        return self.skip is not None

    def make_params(self, params: Mapping[str, Any] | None, where: str = "params") -> Any:
        """The hook's parameters from a config's mapping: the ``params`` dataclass built from
        it (InvalidParameterError naming the parameter and the allowed ones), else a dict."""
        params = dict(params or {})
        if self.params is None:
            return params
        names = [f.name for f in fields(self.params)]
        unknown = sorted(str(k) for k in params if k not in names)
        if unknown:
            raise InvalidParameterError(f"{where}: unknown parameter {unknown[0]!r} of family "
                                        f"{self.name!r}; allowed: {', '.join(names) or 'none'}")
        try:
            value = self.params(**params)
            if hasattr(value, "check"):
                value.check()
        except (TypeError, ValueError) as e:
            raise InvalidParameterError(f"{where} of family {self.name!r}: {e}") from None
        return value


#: every built-in technique family, declared once (the trade-off study's ``family``, the tuning
#: grid's families, the ``pruning`` group's options all name one of these or a plug-in's)
FAMILIES: dict[str, Family] = {f.name: f for f in (
    Family("sound", None, True, "no technique: plain alpha-beta"),
    Family("null_move", "null_move", False, "null-move pruning"),
    Family("lmr", "lmr", False, "late move reductions"),
    Family("futility", "futility", False, "futility pruning at frontier nodes"),
    Family("razoring", "futility", False, "futility pruning and razoring", razor=True),
    Family("beam", "beam", False, "beam (forward) pruning"),
    Family("probcut", "probcut", False, "ProbCut"),
    Family("quiescence", "quiescence", False, "quiescence search at the horizon"),
)}

#: the entry-point group of installed plug-in families (``name = "mypkg.mod:FAMILY"``)
ENTRY_POINT_GROUP = "searchlab.pruning"
_PLUGINS: dict[str, Family] = {}
_PLUGIN_ERRORS: dict[str, str] = {}
_LOADED = False


def register_family(family: Family) -> Family:
    """Add a plug-in family (from Python); a name taken by another family is refused."""
    if not isinstance(family, Family) or not family.plugin:
        raise InvalidParameterError(f"a plug-in pruning family is a Family with a skip hook; "
                                    f"got {family!r}")
    old = FAMILIES.get(family.name) or _PLUGINS.get(family.name)
    if old is not None and old is not family:
        raise InvalidParameterError(f"pruning family {family.name!r} is registered already")
    _PLUGINS[family.name] = family
    return family


def _load_entry_points() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True

    def add(ep: Any, fam: Any) -> None:
        if not (isinstance(fam, Family) and fam.plugin):
            raise InvalidParameterError(f"entry point {ep.value} is not a Family with a skip hook")
        _PLUGINS.setdefault(ep.name, fam)

    load_entry_points(ENTRY_POINT_GROUP, add, _PLUGIN_ERRORS)


def families() -> dict[str, Family]:
    """Every family by name: the built-ins, then the plug-ins registered or installed."""
    _load_entry_points()
    return {**FAMILIES, **_PLUGINS}


def family_of(name: str, where: str = "family") -> Family:
    """The family ``name``: a built-in, a registered or installed plug-in, or ``module:ATTR``
    (a Family in an importable module, as a config names it). InvalidParameterError naming
    the allowed values."""
    known = families()
    if isinstance(name, str) and name in known:
        return known[name]
    if isinstance(name, str) and ":" in name:
        mod, _, attr = name.partition(":")
        try:
            fam = getattr(importlib.import_module(mod), attr)
        except ImportError as e:
            raise InvalidParameterError(f"{where} {name!r}: cannot import {mod!r} ({e}); put its "
                                        f"folder on PYTHONPATH or install it") from None
        except AttributeError:
            raise InvalidParameterError(f"{where} {name!r}: module {mod!r} has no {attr!r}") from None
        if not isinstance(fam, Family) or not fam.plugin:
            raise InvalidParameterError(f"{where} {name!r} is not a Family with a skip hook")
        return fam
    why = f" (its plug-in failed to load: {_PLUGIN_ERRORS[name]})" if name in _PLUGIN_ERRORS else ""
    raise InvalidParameterError(f"{where} must be one of {', '.join(known)} or 'module:ATTR' "
                                f"naming a plug-in Family{why}; got {name!r}")


@dataclass(frozen=True)
class Technique:
    """One pruning technique at one parameter setting: the one record the ``pruning`` config
    group (conf/pruning/<name>.yaml), the trade-off study's ``techniques`` list and the tuning
    grid (play/tuning.py GRID) all use, read from config by ``from_config``.

    ``name``: its identifier (the group option's file name, the grid's setting name; "" = the
    label); ``label``: what reports and table columns call it ("" = the name); ``family``: one of
    FAMILIES ("" = the one its set field says) or a plug-in family (``family_of``); the
    technique fields as ``Pruning``'s (None = off); ``params`` a plug-in family's parameters
    (a mapping; built-in families take theirs in their field). ``pruning`` is the search's record, ``sound`` the family's declaration, ``scaled``
    the record in a domain's value units (the trade-off study and the tuning grid give
    futility margins in units of the domain's value scale and take ProbCut's model from the
    domain's fit)."""

    name: str = ""
    label: str = ""
    family: str = ""
    null_move: NullMove | None = None
    lmr: LateMoveReductions | None = None
    futility: Futility | None = None
    beam: Beam | None = None
    probcut: ProbCut | None = None
    quiescence: Quiescence | None = None
    params: Mapping[str, Any] | None = None

    def __post_init__(self) -> None:
        # one of name and label stands for the other (the trade-off presets give labels, the
        # group options and the grid names); neither: plain alpha-beta's "none"
        if not self.name:
            object.__setattr__(self, "name", self.label or "none")
        if not self.label:
            object.__setattr__(self, "label", self.name)
        if not self.family:
            object.__setattr__(self, "family", self._derived_family())

    def on(self) -> list[str]:
        """The technique fields set, in Pruning's order."""
        return [f for f in RECORDS if getattr(self, f) is not None]

    def _derived_family(self) -> str:
        on = self.on()
        if not on:
            return "sound"
        if on == ["futility"] and self.futility.razor_margin is not None:
            return "razoring"
        return on[0]

    def check(self) -> None:
        """The family matches the fields set (exactly its own) and every parameter is in
        range; InvalidParameterError naming what is wrong."""
        fam = family_of(self.family)
        if fam.plugin:
            if self.on():
                raise InvalidParameterError(f"family {self.family!r} (a plug-in) takes its "
                                            f"parameters under params; got {self.on()} set")
            fam.make_params(self.params)
            return
        if self.params:
            raise InvalidParameterError(f"params is for plug-in families; family "
                                        f"{self.family!r} takes its parameters under "
                                        f"{fam.field or 'no field (plain alpha-beta)'}")
        want = [] if fam.field is None else [fam.field]
        if self.on() != want:
            raise InvalidParameterError(f"family {self.family!r} needs exactly "
                                        f"{want or 'no technique'} set; got {self.on()}")
        if self.futility is not None and fam.razor != (self.futility.razor_margin is not None):
            raise InvalidParameterError("family 'razoring' goes with futility.razor_margin set, "
                                        "'futility' without it")
        check_parameters(Pruning(**{f: getattr(self, f) for f in RECORDS}))

    @property
    def sound(self) -> bool:
        """Whether its family is declared sound (minimax's value at the same horizon)."""
        return family_of(self.family).sound

    @property
    def pruning(self) -> Pruning | None:
        """The search's Pruning record (None: no technique)."""
        plugin = self._plugin_rule()
        if plugin is not None:
            return Pruning(plugin=plugin)
        on = self.on()
        return Pruning(**{f: getattr(self, f) for f in on}) if on else None

    def scaled(self, value_scale: float = 1.0, probcut: ProbCut | None = None) -> Pruning | None:
        """The Pruning record in a domain whose static values swing by ``value_scale``:
        futility and razoring margins multiplied by it; ProbCut's model (shallow, deep,
        slope, intercept, sigma) the fitted ``probcut`` with this record's threshold (None
        when there is no fitted model). Plain alpha-beta is ``Pruning()`` (nothing on); a
        plug-in family's parameters are not scaled."""
        plugin = self._plugin_rule()
        if plugin is not None:
            return Pruning(plugin=plugin)
        kw: dict[str, Any] = {f: getattr(self, f) for f in self.on()}
        if self.futility is not None:
            f = self.futility
            kw["futility"] = Futility(f.margin * value_scale,
                                      None if f.razor_margin is None else f.razor_margin * value_scale,
                                      f.razor_depth)
        if self.probcut is not None:
            if probcut is None:
                return None
            kw["probcut"] = dataclasses.replace(probcut, threshold=self.probcut.threshold)
        return Pruning(**kw)

    def _plugin_rule(self) -> PluginRule | None:
        """A plug-in family's rule with its parameters built; None for a built-in family."""
        fam = family_of(self.family)
        return PluginRule(fam, fam.make_params(self.params)) if fam.plugin else None

    def science(self) -> dict[str, Any]:
        """The record as the trade-off study's config hash sees it (its label, family and the
        parameters it reads: ProbCut's threshold only, quiescence's depth and delta where set,
        margins as floats): the form the study hashed before the record existed, so that its
        earlier runs keep their hash."""
        out: dict[str, Any] = {"label": self.label, "family": self.family}
        for f in RECORDS:
            rec = getattr(self, f)
            d = None if rec is None else dataclasses.asdict(rec)
            if f == "futility" and d is not None:
                d["margin"] = float(d["margin"])
                if d["razor_margin"] is not None:
                    d["razor_margin"] = float(d["razor_margin"])
            elif f == "probcut" and d is not None:
                d = {"threshold": float(d["threshold"])}
            elif f == "quiescence" and d is not None and d["delta"] is None:
                del d["delta"]
            elif f == "beam" and d is not None:
                d["widths"] = list(d["widths"])
            out[f] = d
        if self.params or family_of(self.family).plugin:      # plug-ins only: built-ins keep their hash
            out["params"] = dict(self.params or {})
        return out

    def params_text(self) -> str:
        """The parameters of its family's field as one short string, for report tables
        ("reduction=2, verify=False"; "-" for plain alpha-beta)."""
        d = self.science()
        fam = family_of(self.family)
        rec = d.get("params") if fam.plugin else None if fam.field is None else d[fam.field]
        if rec is None:
            return "-"
        return ", ".join(f"{k}={v}" for k, v in rec.items() if v not in (None, [], ()))

    @classmethod
    def from_config(cls, node: Any, where: str = "pruning") -> Technique:
        """The record of a config node (a mapping: ``name``, ``label``, ``family``, the
        technique fields, each a mapping of its parameters, and a plug-in family's ``params``); InvalidParameterError naming
        ``where.key`` for an unknown key or parameter or a field that is not a mapping.
        Parameters are checked by ``check``."""
        if isinstance(node, cls):
            return node
        if not isinstance(node, Mapping):
            raise InvalidParameterError(f"{where} must be a mapping of a technique's keys; got "
                                        f"{node!r}")
        allowed = [f.name for f in fields(cls)]
        unknown = sorted(str(k) for k in node if k not in allowed)
        if unknown:
            raise InvalidParameterError(f"{where}: unknown key {unknown[0]!r}; allowed: "
                                        f"{', '.join(allowed)}")
        kw: dict[str, Any] = {}
        for k in ("name", "label", "family"):
            v = node.get(k)
            if v is not None:
                if not isinstance(v, str):
                    raise InvalidParameterError(f"{where}.{k} must be a string; got {v!r}")
                kw[k] = v
        params = node.get("params")
        if params is not None:
            if not isinstance(params, Mapping):
                raise InvalidParameterError(f"{where}.params must be a mapping of a plug-in "
                                            f"family's parameters; got {params!r}")
            kw["params"] = {str(k): v for k, v in params.items()}
        for field_name, rec_cls in RECORDS.items():
            params = node.get(field_name)
            if params is None:
                continue
            if not isinstance(params, Mapping):
                raise InvalidParameterError(f"{where}.{field_name} must be a mapping of its "
                                            f"parameters; got {params!r}")
            if field_name == "beam" and "widths" in params:
                params = {**params, "widths": tuple(params["widths"] or ())}
            try:
                kw[field_name] = rec_cls(**params)
            except TypeError:
                names = ", ".join(f.name for f in fields(rec_cls))
                raise InvalidParameterError(f"{where}.{field_name}: unknown parameter in "
                                            f"{sorted(params)}; allowed: {names}") from None
        return cls(**kw)


def _positive_int(name: str, v: Any, maximum: int = MAX_DEPTH) -> None:
    """v an integer in [1, maximum]: plies (reductions, depths, move counts) are bounded by the
    deepest search (searchlab.limits.MAX_DEPTH), widths by MAX_BRANCHING."""
    check_int(name, v, 1, maximum)


def _non_negative(name: str, v: Any) -> None:
    """v a finite number in [0, MAX_VALUE] (a margin in the game's static-value units)."""
    check_number(name, v, 0.0)
