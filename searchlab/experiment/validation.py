"""Validation: a composed config (DictConfig, ExperimentConfig or dict) -> a ``Study``.

:func:`validate` checks every value's range and every name before any work and raises
``ConfigError`` (one line, naming the key, the bad value and what is allowed) on the first
problem. Checks that need the grid (budget, oracle size, empty grid after trimming) are in
``grid.plan()``.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Optional

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import ConfigKeyError, OmegaConfBaseException, ValidationError

from searchlab.algorithms.algorithm_registry import algorithm_names
from searchlab.algorithms.names import ENGINES
from searchlab.algorithms.ordering_registry import (component_names, describe, import_plugins,
                                                    ordering_of)
from searchlab.errors import InvalidParameterError, SearchlabError
from searchlab.experiment.games import GameSpec, sample_game, select_positions
from searchlab.games.registry import game_names, entry as game_entry
from searchlab.algorithms.pruning import RECORDS, Pruning, Technique
from searchlab.experiment.composition import USER_DIRS, available_options
from searchlab.experiment import kind_registry, schema
from searchlab.experiment.schema import (BACKENDS, CONF_DIR, TREE_DEFAULTS, TREE_PARAMS,
                                         ConfigError, ExperimentConfig, RunnerConfig,
                                         TechniqueNode)
from searchlab.experiment.study import Study, TreeSpec, freeze, thaw
from searchlab.limits import (MAX_BRANCHING, MAX_COUNT, MAX_DEPTH, MAX_INSTANCES, MAX_LEVELS,
                              MAX_NAME, MAX_SEED, MAX_TT_SIZE, MAX_WORKERS, excerpt)

#: the tree models (searchlab.trees.TREE_MODELS' names, declared in the schema)
TREE_MODELS = tuple(TREE_PARAMS)
#: a Dask scheduler address: an optional protocol, a host, a port
_ADDRESS = re.compile(r"(?:(?:tcp|tls|ws|wss|ucx)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}")
_RANGE = re.compile(r"^\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*(?::\s*(-?\d+)\s*)?$")


def parse_int_list(key: str, value: Any, minimum: int,
                   maximum: int = MAX_DEPTH) -> tuple[int, ...]:
    """A list of ints in [minimum, maximum] from a list, an int, or an inclusive range string
    "lo..hi[:step]" (bounds checked before the range is expanded)."""
    if isinstance(value, bool):
        raise ConfigError(f"{key}: expected a list of integers or a range 'lo..hi'; got {excerpt(value)}")
    if isinstance(value, int):
        out = [value]
    elif isinstance(value, str):
        m = _RANGE.match(value)
        if m is None:
            try:
                out = [int(value)]
            except ValueError:
                raise ConfigError(
                    f"{key}: expected a list of integers or a range 'lo..hi' or 'lo..hi:step'; "
                    f"got {excerpt(value)}") from None
        else:
            lo, hi, step = int(m[1]), int(m[2]), int(m[3] or 1)
            if step < 1:
                raise ConfigError(f"{key}: range step must be >= 1; got {excerpt(value)}")
            for v in (lo, hi):
                _check_int(key, v, minimum, maximum=maximum)
            out = list(range(lo, hi + 1, step))
    elif isinstance(value, (list, tuple)):
        out = []
        for v in value:
            if isinstance(v, bool) or not isinstance(v, int):
                if isinstance(v, str):
                    out.extend(parse_int_list(key, v, minimum, maximum))
                    continue
                raise ConfigError(f"{key}: every entry must be an integer; got {excerpt(v)}")
            out.append(_check_int(key, v, minimum, maximum=maximum))
    else:
        raise ConfigError(f"{key}: expected a list of integers or a range 'lo..hi'; got {excerpt(value)}")
    if not out:
        raise ConfigError(f"{key}: the grid is empty ({excerpt(value)} gives no values)")
    for v in out:
        _check_int(key, v, minimum, maximum=maximum)
    return tuple(sorted(set(out)))


def core_names() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(algorithms, ordering policies, engines) known to searchlab.algorithms (plug-ins
    registered so far included)."""
    return algorithm_names(), component_names(), ENGINES


def _ordering(key: str, value: Any, game: Any = None) -> str:
    """An ordering spec: base orders (the game's own included) and dynamic components composed
    with '+' in priority order (e.g. tt+killer+history+static), parsed once into its Ordering
    value by the registry's ordering_of (``game`` None = a synthetic tree)."""
    try:
        ordering_of(value, game)
    except ValueError as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        where = f" (game {game.name})" if game is not None else ""
        raise ConfigError(f"{key}: {first}{where}") from None
    return value


def _choice(key: str, value: Any, allowed: tuple[str, ...]) -> str:
    if value not in allowed:
        raise ConfigError(f"{key}: unknown value {excerpt(value)}; allowed: {', '.join(allowed)}")
    return value


def _tree_spec(key: str, t: Any) -> TreeSpec:
    get = (lambda k: t.get(k)) if isinstance(t, dict) else (lambda k: getattr(t, k))
    model = get("model")
    if model is None and key != "tree":
        model = "iid"                      # a sweep.trees entry without a model: the default
    model = _choice(f"{key}.model", model, TREE_MODELS)
    vals: dict[str, Any] = {}
    for param in ("levels", "win_prob", "p", "decay", "correlation", "values"):
        v = get(param)
        if param in TREE_PARAMS[model]:
            if v is None:
                v = TREE_DEFAULTS.get(param)
            vals[param] = v
        elif v is not None:
            raise ConfigError(
                f"{key}.{param} is not a parameter of tree model {model!r} "
                f"(its parameters: {', '.join(TREE_PARAMS[model])}); leave it null")
    if model == "iid":
        lv = vals["levels"]
        if isinstance(lv, bool) or not isinstance(lv, int) or not 0 <= lv <= MAX_LEVELS:
            raise ConfigError(f"{key}.levels must be an integer in [0, {MAX_LEVELS}] (0 = "
                              f"continuous); got {excerpt(lv)}")
        q = vals["win_prob"]
        if q is not None:
            if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0.0 <= q <= 1.0:
                raise ConfigError(f"{key}.win_prob must be a number in [0, 1] or null; got "
                                  f"{excerpt(q)}")
            if lv != 0:
                raise ConfigError(f"{key}.win_prob sets win/loss leaves itself: use it with "
                                  f"levels=0; got levels={lv}")
            vals["win_prob"] = float(q)
    elif model == "ordered":
        if not 0.0 <= float(vals["p"]) <= 1.0:
            raise ConfigError(f"{key}.p must be in [0, 1]; got {vals['p']!r}")
        vals["p"] = float(vals["p"])
    elif model == "incremental":
        if not 0.0 < float(vals["decay"]) <= 1.0:
            raise ConfigError(f"{key}.decay must be in (0, 1]; got {vals['decay']!r}")
        if not 0.0 <= float(vals["correlation"]) <= 1.0:
            raise ConfigError(f"{key}.correlation must be in [0, 1]; got {vals['correlation']!r}")
        vals["decay"], vals["correlation"] = float(vals["decay"]), float(vals["correlation"])
    elif model == "explicit":
        if vals["values"] is None:
            raise ConfigError(f"{key}.values: an explicit tree needs its nested list of leaf values")
        if not isinstance(vals["values"], (list, tuple)):
            raise ConfigError(f"{key}.values must be a nested list of leaf values (the root's "
                              f"children), e.g. [[3,12,8],[2,4,6]]; got {excerpt(vals['values'])}")
        vals["values"] = freeze(vals["values"])
        # here, not at the top: the trees' package loads numba, which a study without an
        # explicit tree does not need to be validated (benchmarks/startup.py)
        from searchlab.trees import make_tree
        try:
            make_tree("explicit", nested=thaw(vals["values"]))
        except ValueError as e:
            raise ConfigError(f"{key}.values: {e}") from None
    return TreeSpec(model=model, **vals)


def _check_int(key: str, v: Any, minimum: int, allow_none: bool = False,
               maximum: int = MAX_COUNT) -> Optional[int]:
    """v in [minimum, maximum] (every numeric option is bounded: searchlab.limits)."""
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not minimum <= v <= maximum:
        raise ConfigError(f"{key} must be an integer in [{minimum}, {maximum}]"
                          f"{' or null' if allow_none else ''}; got {excerpt(v)}")
    return v


def plain_config(cfg: Any) -> dict:
    """A composed config (DictConfig or a mapping) as plain containers, interpolations resolved:
    what the study kinds' config readers (tradeoff_config, parallel_study, claim_study) take."""
    return OmegaConf.to_container(cfg if OmegaConf.is_config(cfg) else OmegaConf.create(cfg),
                                  resolve=True)


def structured(cls: type, value: Any, where: str) -> Any:
    """``value`` (plain containers) merged onto the dataclass ``cls``: its defaults filled, its
    types checked; an unknown key or a wrong type raises ConfigError naming ``where.key``."""
    try:
        return OmegaConf.to_object(OmegaConf.merge(OmegaConf.structured(cls), value))
    except OmegaConfBaseException as e:
        key = getattr(e, "full_key", None) or ""
        msg = str(e).splitlines()[0]
        raise ConfigError(f"{where}.{key}: {msg}" if key else f"{where}: {msg}") from None


def validate(cfg: Any) -> Study:
    """Check every value of a composed config (DictConfig, ExperimentConfig or dict).

    Raises ConfigError (one line, naming the key) on the first problem found. Checks that need
    the grid (budget, oracle size, empty grid after trimming) are in grid.plan().
    """
    if isinstance(cfg, DictConfig):
        plain = OmegaConf.to_container(cfg, resolve=True)
    elif isinstance(cfg, ExperimentConfig):
        plain = OmegaConf.to_container(OmegaConf.structured(cfg), resolve=True)
    else:
        # the schema with every registered study kind's section (plug-ins' too)
        schema = OmegaConf.structured(kind_registry.config_schema())
        try:
            merged = OmegaConf.merge(schema, cfg)
        except (ConfigKeyError, ValidationError) as e:    # a plain dict's unknown key or bad type
            raise ConfigError(_merge_error(e, schema)) from None
        plain = OmegaConf.to_container(merged, resolve=True)
    plain.pop("experiment", None)

    known = {f.name for f in dataclasses.fields(kind_registry.config_schema())}
    unknown = sorted(k for k in plain if k not in known)
    if unknown:
        raise ConfigError(f"unknown config key {unknown[0]!r}; allowed top-level keys: "
                          f"{', '.join(sorted(known))}; a study kind is chosen by its section: "
                          f"{', '.join(kind_registry.sections())}")
    _check_sections(plain)
    # first: the modules register components and games the kind's own section may name
    plugins = _plugins((plain.get("search") or {}).get("plugins"))
    _check_kind_section(plain)
    ALGORITHMS, _, ENGINES = core_names()

    name = plain["name"]
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.+-]{1,%d}" % MAX_NAME, name or ""):
        raise ConfigError(f"name must be a word of 1 to {MAX_NAME} characters (letters, digits, "
                          f"_ . + -); got {excerpt(name)}")
    if not name.strip("."):       # '.', '..': the run would be written at or above results_dir
        raise ConfigError(f"name={name} is not a name: the run directory "
                          f"<results_dir>/<name>/<timestamp> must stay inside results_dir; give "
                          f"a word with a letter or digit")
    seed = _check_int("seed", plain["seed"], 0, maximum=MAX_SEED)
    sweep, search, runner = plain["sweep"], plain["search"], plain["runner"]

    game_cfg = plain.get("game") or {}
    game_cfgs = [(f"sweep.games[{i}]", g) for i, g in enumerate(sweep.get("games") or [])] \
        or ([("game", game_cfg)] if game_cfg.get("name") is not None else [])
    tree_model = (plain.get("tree") or {}).get("model")
    if game_cfgs:
        for key, g in game_cfgs:              # an unknown game first: not "a tree and a game"
            if g.get("_target_") is None:
                _choice(f"{key}.name", g.get("name"), game_names())
        if sweep["trees"] or tree_model is not None:
            what = "sweep.trees" if sweep["trees"] else f"tree={tree_model}"
            names = ",".join(str(g.get("name")) for _, g in game_cfgs)
            raise ConfigError(
                f"a study searches a tree or a game, not both: {what} and game={names}; drop "
                f"the tree (~tree on the command line) or the game (~game)")
        trees: tuple[TreeSpec, ...] = ()
    elif sweep["trees"]:
        entries = _tree_params_onto(sweep["trees"], plain.get("tree"))
        trees = tuple(_tree_spec(f"sweep.trees[{i}]", t) for i, t in enumerate(entries))
    elif tree_model is None:
        raise ConfigError("a study searches a tree or a game: none is chosen (select one, e.g. "
                          "tree=iid or game=connect4)")
    else:
        trees = (_tree_spec("tree", plain["tree"]),)
    trees = _sweep_tree_params(trees, sweep)
    if len(set(trees)) != len(trees):
        raise ConfigError("sweep.trees: the same tree model and parameters are listed twice")

    b = parse_int_list("sweep.b", sweep["b"], 1, MAX_BRANCHING)
    d = parse_int_list("sweep.d", sweep["d"], 0)
    d_by_b = {}
    for k, v in (sweep["d_by_b"] or {}).items():
        kb = _check_int("sweep.d_by_b", int(k), 1, maximum=MAX_BRANCHING)
        if kb not in b:
            raise ConfigError(f"sweep.d_by_b: b={kb} is not in sweep.b {list(b)}")
        d_by_b[kb] = parse_int_list(f"sweep.d_by_b[{kb}]", v, 0)
    d_budget = _check_int("sweep.d_budget", sweep["d_budget"], 1, allow_none=True)
    _choice("search.algorithm", search["algorithm"], tuple(ALGORITHMS))
    instances = _check_int("sweep.instances", sweep["instances"], 1, maximum=MAX_INSTANCES)
    games = tuple(_game_spec(key, g) for key, g in game_cfgs)
    if len(set(games)) != len(games):
        raise ConfigError("sweep.games: the same game and positions are listed twice")

    samples = {g: sample_game(g.name, g) for g in games}
    if not sweep["algorithm"]:
        raise ConfigError("sweep.algorithm: the grid is empty (no algorithm listed)")
    if isinstance(sweep["ordering"], str):
        sweep["ordering"] = [sweep["ordering"]]
    if not sweep["ordering"]:
        raise ConfigError("sweep.ordering: the grid is empty (no ordering listed)")
    algorithms = tuple(dict.fromkeys(_choice("sweep.algorithm", a, tuple(ALGORITHMS))
                                     for a in sweep["algorithm"]))
    game_orderings: dict = {}
    if len(games) <= 1:
        the_game = samples[games[0]] if games else None
        orderings = tuple(dict.fromkeys(_ordering("sweep.ordering", o, the_game)
                                        for o in sweep["ordering"]))
        if games:
            game_orderings[games[0]] = orderings
    else:
        # several games: an ordering naming a game's own order (centre, corners, captures)
        # runs on the games that have it; every ordering must fit at least one game
        orderings = tuple(dict.fromkeys(sweep["ordering"]))
        for g in games:
            game_orderings[g] = tuple(o for o in orderings if _fits(o, samples[g]))
        for o in orderings:
            if not any(o in v for v in game_orderings.values()):
                _ordering("sweep.ordering", o, samples[games[0]])   # raises, naming what is allowed
    d_by_ordering = {k: parse_int_list(f"sweep.d_by_ordering[{k}]", v, 0)
                     for k, v in _by_ordering(sweep, "d_by_ordering", orderings, samples)}
    max_nodes_by_ordering = {k: _check_int(f"sweep.max_nodes_by_ordering[{k}]", v, 1)
                             for k, v in _by_ordering(sweep, "max_nodes_by_ordering",
                                                      orderings, samples)}
    prunings = _prunings(sweep.get("pruning"), plain.get("pruning") or {})
    engine = _choice("search.engine", search["engine"], tuple(ENGINES))
    families = [name for name, p in prunings if p is not None and p.plugin is not None]
    if families and engine in ("kernel", "compiled"):
        raise ConfigError(f"search.engine={engine}: pruning {', '.join(families)} is a plug-in "
                          f"family, searched on the reference engine only; use search.engine="
                          f"auto or reference")
    depth = _check_int("search.depth", search["depth"], 0, allow_none=True, maximum=MAX_DEPTH)
    if games and depth is not None:
        raise ConfigError("search.depth is for trees; a game study's search depths are sweep.d "
                          "(leave search.depth null)")
    tt_size = search.get("tt_size", 65536)
    if isinstance(tt_size, bool) or not isinstance(tt_size, int) or tt_size < 1 \
            or tt_size & (tt_size - 1) or tt_size > MAX_TT_SIZE:
        raise ConfigError(f"search.tt_size must be a power of two in [1, {MAX_TT_SIZE}]; got "
                          f"{excerpt(tt_size)}")
    aspiration = search.get("aspiration")
    if aspiration is not None:
        if isinstance(aspiration, bool) or not float(aspiration) > 0 \
                or float(aspiration) == float("inf"):
            raise ConfigError(f"search.aspiration must be a number > 0 or null; got {excerpt(aspiration)}")
        aspiration = float(aspiration)
        lacking = [o for o in orderings if not describe(o).has("id")]
        if lacking:
            raise ConfigError(
                f"search.aspiration works on top of iterative deepening: every ordering needs "
                f"'id'; these lack it: {', '.join(lacking)}")
    positions: dict = {}
    for g in games:
        try:
            positions[g] = select_positions(g, seed, instances)
        except (OSError, ValueError) as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            raise ConfigError(f"game.positions={g.positions!r}: {first}") from None
        if not positions[g]:
            raise ConfigError(f"game.positions={g.positions!r}: no position")
        if g.sample is not None and len(positions[g]) < g.sample:
            raise ConfigError(f"game.sample={g.sample}: {g.name} {g.positions} has only "
                              f"{len(positions[g])} positions; ask for at most that many, or "
                              "'all'")

    _choice("runner.backend", runner["backend"], BACKENDS)
    nj = runner["n_jobs"]
    if isinstance(nj, bool) or not isinstance(nj, int) or nj == 0 or not -1 <= nj <= MAX_WORKERS:
        raise ConfigError(f"runner.n_jobs must be -1 (all cores) or an integer in [1, "
                          f"{MAX_WORKERS}]; got {excerpt(nj)}")
    _check_int("runner.max_nodes", runner["max_nodes"], 1)
    _check_int("runner.batch_nodes", runner["batch_nodes"], 1)
    _check_int("runner.max_batch_tasks", runner["max_batch_tasks"], 1, maximum=MAX_INSTANCES)
    _check_int("runner.flush_rows", runner["flush_rows"], 1, maximum=MAX_INSTANCES)
    _check_int("runner.retries", runner["retries"], 0, maximum=100)
    if isinstance(runner["flush_seconds"], bool) or not 0 < runner["flush_seconds"] <= 86400:
        raise ConfigError(f"runner.flush_seconds must be in (0, 86400]; got "
                          f"{excerpt(runner['flush_seconds'])}")
    _check_int("runner.n_workers", runner["n_workers"], 1, allow_none=True, maximum=MAX_WORKERS)
    if runner["backend"] == "dask":
        _check_dask()
    if runner["address"] is not None and runner["backend"] != "dask":
        raise ConfigError("runner.address is only used by runner=dask (backend dask)")
    if runner["address"] is not None and not _ADDRESS.fullmatch(str(runner["address"])):
        raise ConfigError(f"runner.address must be a Dask scheduler address "
                          f"[tcp|tls|ws|wss|ucx]://HOST:PORT (e.g. tcp://127.0.0.1:8786), or null "
                          f"for a LocalCluster; got {excerpt(runner['address'])}")
    task_max = _check_int("search.max_nodes", search["max_nodes"], 1, allow_none=True)
    if task_max is None:
        task_max = runner["max_nodes"]

    if not isinstance(plain["results_dir"], str) or not plain["results_dir"]:
        raise ConfigError(f"results_dir must be a non-empty path; got {excerpt(plain['results_dir'])}")
    _check_int("fit_depths", plain.get("fit_depths"), 2, allow_none=True)

    return Study(
        name=name, description=str(plain.get("description") or ""), seed=seed,
        results_dir=plain["results_dir"], trees=trees, b=b, d=d, d_by_b=d_by_b,
        d_budget=d_budget, algorithms=algorithms, orderings=orderings, instances=instances,
        engine=engine, depth=depth, task_max_nodes=task_max,
        runner=RunnerConfig(**runner), config=plain, games=games, positions=positions,
        game_orderings=game_orderings,
        d_by_ordering=d_by_ordering, max_nodes_by_ordering=max_nodes_by_ordering,
        aspiration=aspiration, tt_size=tt_size, prunings=prunings, plugins=plugins)


def _merge_error(e: Exception, schema: Any) -> str:
    """One line for OmegaConf's refusal to merge a plain dict into the schema: the unknown
    key with the keys allowed beside it, or the key with the type it needs."""
    key = getattr(e, "full_key", "") or ""
    if isinstance(e, ConfigKeyError):
        parent, _, leaf = key.rpartition(".")
        node = OmegaConf.select(schema, parent) if parent else schema
        allowed = ", ".join(node.keys()) if isinstance(node, DictConfig) else "none"
        return (f"unknown config key {key!r}; allowed keys"
                f"{' in ' + parent if parent else ''}: {allowed}")
    first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return f"{key}: {first}" if key else first


def _plugins(value: Any) -> tuple[str, ...]:
    """search.plugins: the modules, imported now (ConfigError naming one that cannot be)."""
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, (list, tuple)):
        raise ConfigError(f"search.plugins must be a list of module names; got {excerpt(value)}")
    try:
        return import_plugins(value)
    except InvalidParameterError as e:
        raise ConfigError(str(e)) from None


def _check_dask() -> None:
    """runner=dask needs the dask extra: refused here, before a run directory exists, not by
    an ImportError in the run."""
    try:
        import dask  # noqa: F401 -- optional dependency (the dask extra)
        import distributed  # noqa: F401
    except ImportError as e:
        raise ConfigError(f"runner=dask needs the dask extra (dask and distributed): pip install "
                          f"'searchlab[dask]'; here: {str(e).splitlines()[0] if str(e) else e!r}; "
                          f"or use runner=local") from None


#: the sections of the schema whose keys are fixed (a dataclass of schema.py each)
SECTIONS = {f.name: f.type for f in dataclasses.fields(ExperimentConfig)
            if f.name in ("tree", "game", "search", "pruning", "sweep", "runner")}


def _check_kind_section(plain: dict) -> None:
    """The section of the config's study kind, checked by the kind (StudyKind.section_of:
    its declared schema) before any work; two kinds' sections set at once are refused. A sweep imports no kind; a kind without a schema
    checks its section in its own ``check`` / ``config``."""
    chosen = [r.section for r in kind_registry.kind_refs()
              if r.section is not None and plain.get(r.section) is not None]
    if len(chosen) > 1:        # else the first in dispatch order would win silently
        both = "both" if len(chosen) == 2 else "all"
        raise ConfigError(f"{' and '.join(chosen)} are {both} set, and a config selects one "
                          f"study kind by its section: keep one (e.g. {chosen[1]}=null)")
    ref = kind_registry.section_ref(plain)
    if ref.section is None:
        return
    try:
        kind = kind_registry.load_kind(ref)
    except InvalidParameterError as e:
        raise ConfigError(f"{ref.section}: {e}") from None
    if getattr(kind, "schema", None) is not None:
        kind.section_of(plain)


def _check_sections(plain: dict) -> None:
    """Every section of the schema is present (``~sweep`` removes one) and holds only the keys
    its dataclass declares: ``+sweep.foo=1`` is refused like a typo, never stored."""
    classes = {c.__name__: c for c in (schema.TreeConfig, schema.GameConfig, schema.SearchConfig,
                                       TechniqueNode, schema.SweepConfig, RunnerConfig)}
    for section, typ in SECTIONS.items():
        cls = classes[str(typ).rsplit(".", 1)[-1]]
        node = plain.get(section)
        allowed = [f.name for f in dataclasses.fields(cls)]
        if not isinstance(node, dict):
            raise ConfigError(f"{section}: the section is missing or not a mapping (got "
                              f"{excerpt(node)}); it cannot be removed (~{section}): set its "
                              f"keys instead ({', '.join(allowed)})")
        unknown = sorted(k for k in node if k not in allowed)
        if unknown:
            raise ConfigError(f"unknown config key '{section}.{unknown[0]}'; allowed keys in "
                              f"{section}: {', '.join(allowed)}")
    for i, t in enumerate((plain.get("sweep") or {}).get("trees") or []):
        extra = sorted(k for k in (t or {}) if k not in {f.name for f in dataclasses.fields(schema.TreeConfig)})
        if extra:
            raise ConfigError(f"unknown config key 'sweep.trees[{i}].{extra[0]}'; allowed: "
                              f"{', '.join(f.name for f in dataclasses.fields(schema.TreeConfig))}")


def _by_ordering(sweep: dict, key: str, orderings: tuple[str, ...],
                 samples: dict) -> list[tuple[str, Any]]:
    """The (ordering, value) items of ``sweep.<key>`` (an ordering -> value map) for the
    orderings swept. An entry for an ordering the command line's axis choice left out
    (ordering=X) does not apply and is dropped; a name that is no ordering policy at all (of a
    synthetic tree or of the study's games, ``samples``) is a ConfigError."""
    items = []
    for k, v in (sweep.get(key) or {}).items():
        if k in orderings:
            items.append((k, v))
        elif not any(_fits(k, g) for g in (None, *samples.values())):
            raise ConfigError(f"sweep.{key}: {k!r} is not an ordering policy (the study "
                              f"sweeps {list(orderings)})")
    return items


#: the ``pruning`` node's technique fields -> the records of searchlab.algorithms.pruning
PRUNING_RECORDS = RECORDS


def _pruning_record(key: str, node: dict) -> Optional[Pruning]:
    """The Pruning record of a ``pruning`` config node, read as the technique record it is
    (pruning.Technique.from_config); None for no technique (``none``)."""
    try:
        technique = Technique.from_config(node, key)
    except InvalidParameterError as e:
        raise ConfigError(str(e)) from None
    try:
        technique.check()
    except InvalidParameterError as e:
        raise ConfigError(f"{key}: {e}") from None
    return technique.pruning


def _option_node(name: Any) -> dict:
    """The ``pruning`` group's option ``name`` (its file: conf/pruning/, else the user's config
    directories as Hydra searches them), as a plain node of the technique record's keys."""
    dirs = [CONF_DIR, *USER_DIRS] if isinstance(name, str) else []
    paths = [d / "pruning" / f"{name}.yaml" for d in dirs]
    path = next((p for p in paths if p.is_file()), None)    # a built-in's name is the built-in
    if path is None:
        raise ConfigError(f"sweep.pruning: unknown technique {name!r}; allowed: "
                          f"{', '.join(available_options('pruning'))}")
    try:
        node = OmegaConf.merge(OmegaConf.structured(TechniqueNode), OmegaConf.load(path))
    except OmegaConfBaseException as e:
        raise ConfigError(f"pruning option {path}: {str(e).splitlines()[0]}; allowed keys: "
                          f"{', '.join(f.name for f in dataclasses.fields(TechniqueNode))}") from None
    return OmegaConf.to_container(node)


def _label(name: str, record: Optional[Pruning], option: Optional[Pruning]) -> str:
    """The ``pruning`` column of a technique that ran as ``record``: its option's name when it
    runs that option's parameters, the name with the changed parameters when its overrides
    changed them (``null_r2(null_move.reduction=3)``); ConfigError when the name says another
    technique than the parameters run (a label is a fact about the search, not a name)."""
    on, want = _ran(record), _ran(option)
    if on != want:
        ran = ", ".join(sorted(on)) or "no technique (plain alpha-beta)"
        said = ", ".join(sorted(want)) or "no technique"
        raise ConfigError(
            f"pruning.name={name} names {said}, but the pruning parameters set run {ran}: a "
            f"row's pruning label must say what ran; choose the technique with pruning=NAME "
            f"(allowed: {', '.join(available_options('pruning'))}) and leave pruning.name alone")
    changed = []
    for f in sorted(on & set(PRUNING_RECORDS)):
        mine, theirs = dataclasses.asdict(getattr(record, f)), dataclasses.asdict(getattr(option, f))
        changed += [f"{f}.{k}={mine[k]}" for k in mine if mine[k] != theirs[k]]
    if record is not None and record.plugin is not None:
        mine, theirs = record.plugin.params_dict(), option.plugin.params_dict()
        changed += [f"params.{k}={mine.get(k)}" for k in sorted({*mine, *theirs})
                    if mine.get(k) != theirs.get(k)]
    return f"{name}({','.join(changed)})" if changed else name


def _ran(record: Optional[Pruning]) -> set[str]:
    """What a Pruning record switches on: its technique fields set and a plug-in's family."""
    on = {f for f in PRUNING_RECORDS if getattr(record, f, None) is not None}
    plugin = getattr(record, "plugin", None)
    return on | ({plugin.family.name} if plugin is not None else set())


def _prunings(sweep_value: Any, chosen: dict) -> tuple[tuple[str, Optional[Pruning]], ...]:
    """sweep.pruning -> ((label, Pruning or None), ...): each name an option of the ``pruning``
    group (conf/pruning/<name>.yaml); the chosen option carries its overrides, and
    its label says which of its parameters they changed (``_label``)."""
    names = [sweep_value] if isinstance(sweep_value, str) else list(sweep_value or [])
    if not names:
        raise ConfigError("sweep.pruning: the grid is empty (no technique listed; 'none' = "
                          "plain alpha-beta)")
    if len(set(names)) != len(names):
        raise ConfigError(f"sweep.pruning: a technique is listed twice: {names}")
    out = []
    for name in names:
        option = _pruning_record(f"pruning {name}", _option_node(name))
        if name == chosen.get("name"):
            record = _pruning_record(f"pruning {name}", chosen)
            out.append((_label(name, record, option), record))
        else:
            out.append((name, option))
    return tuple(out)


def _tree_params_onto(entries: list, tree: Optional[dict]) -> list[dict]:
    """sweep.trees with the parameters set on ``tree`` (``tree.PARAM=V`` on the command line, or
    a preset's ``tree:`` section) applied to every entry whose model has that parameter.

    A study of several tree models does not search ``tree`` itself; what was set on it is the
    difference from its group option's file (conf/tree/MODEL.yaml). Later wins: such a
    parameter replaces the entries' own value. A parameter that no entry's model has is refused
    (it would otherwise be silently ignored)."""
    out = [dict(t) for t in entries]
    if not tree or tree.get("model") not in TREE_MODELS:
        return out
    option = CONF_DIR / "tree" / f"{tree['model']}.yaml"
    base = OmegaConf.to_container(OmegaConf.load(option)) if option.exists() else {}
    models = [t.get("model") or "iid" for t in out]
    for param in ("levels", "win_prob", "p", "decay", "correlation", "values"):
        value = tree.get(param)
        if value is None or value == base.get(param):
            continue
        hits = [i for i, m in enumerate(models) if param in TREE_PARAMS.get(m, ())]
        if not hits:
            owners = [m for m, ps in TREE_PARAMS.items() if param in ps]
            raise ConfigError(
                f"tree.{param} is not a parameter of the study's tree models "
                f"({', '.join(dict.fromkeys(models))}; sweep.trees); it is {owners[0]}'s: "
                f"choose that model, e.g. tree={owners[0]} tree.{param}={excerpt(value)}")
        for i in hits:
            out[i][param] = value
            _tree_spec("tree", {**out[i], "model": models[i]})     # a bad value named tree.PARAM
    return out


def _sweep_tree_params(trees: tuple[TreeSpec, ...], sweep: dict) -> tuple[TreeSpec, ...]:
    """Expand sweep.decay / sweep.correlation: one incremental tree per listed value."""
    out = list(trees)
    for param in ("decay", "correlation"):
        values = sweep.get(param) or []
        if not values:
            continue
        if not any(t.model == "incremental" for t in out):
            models = ", ".join(sorted({t.model for t in out})) or "none (a game study)"
            raise ConfigError(f"sweep.{param} sweeps the incremental tree's {param}; the study's "
                              f"tree is {models}")
        expanded = []
        for t in out:
            if t.model != "incremental":
                expanded.append(t)
                continue
            for v in values:
                spec = dataclasses.replace(t, **{param: float(v)})
                expanded.append(_tree_spec(f"sweep.{param}", dataclasses.asdict(spec)))
        out = list(dict.fromkeys(expanded))
    return tuple(out)


def _fits(ordering: str, game: Any) -> bool:
    try:
        ordering_of(ordering, game)
    except ValueError:
        return False
    return True


def _game_spec(key: str, g: dict) -> Any:
    """The validated GameSpec of config ``game`` (or a sweep.games entry)."""
    target, params = g.get("_target_"), g.get("params")
    if target is None:
        if params:
            raise ConfigError(f"{key}.params are the arguments of a game's _target_; "
                              f"{g.get('name')} is a registered game: leave them null")
        name = _choice(f"{key}.name", g.get("name"), game_names())
        e = game_entry(name)
    else:
        name = g.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,%d}" % MAX_NAME, name):
            raise ConfigError(f"{key}.name must be a word (letters, digits, _) naming the "
                              f"_target_ game; got {excerpt(name)}")
        if name in game_names():
            raise ConfigError(f"{key}.name {name!r} is a registered game; name the _target_ "
                              "game otherwise")
        if params is not None and not isinstance(params, dict):
            raise ConfigError(f"{key}.params must be a mapping of the _target_'s keyword "
                              f"arguments; got {excerpt(params)}")
        if g.get("positions") not in (None, "start", "random"):
            raise ConfigError(f"{key}.positions: unknown position source "
                              f"{excerpt(g.get('positions'))} for the _target_ game {name}; "
                              "allowed: start, random")
        params = tuple(sorted((k, freeze(v)) for k, v in (params or {}).items()))
        try:
            e = GameSpec(name, g.get("positions") or "start", target=target,
                         params=params).entry()
            game = e.start()
            caps = getattr(game, "capabilities", None)
            if caps is None:
                raise InvalidParameterError(f"{target} built a {type(game).__name__}, not a "
                                            "searchlab Game (no capabilities)")
            caps.require_classical(f"a sweep of {name}")
        except SearchlabError as exc:
            raise ConfigError(f"{key}._target_: {str(exc).splitlines()[0]}") from None
        except (TypeError, ValueError) as exc:     # the user's constructor refused its params
            raise ConfigError(f"{key}.params: {target} refused {dict(params)}: {exc}") from None
    sources = e.sources
    positions = g.get("positions")
    if positions is None:
        positions = sources[0] if len(sources) == 1 else None
    if positions not in sources:
        raise ConfigError(f"{key}.positions: unknown position source {positions!r} for {name}; "
                          f"allowed: {', '.join(sources)}")
    sample = g.get("sample")
    if sample == "all":
        sample = None
    if sample is not None:
        files = [n for n in game_names() if game_entry(n).source_kind == "file"]
        if e.source_kind != "file":
            raise ConfigError(f"{key}.sample draws positions from a file ({', '.join(files)}); "
                              f"{name} has none: leave it null" + (
                                  f" ({name}: sweep.instances positions)"
                                  if e.source_kind == "random" else ""))
        if isinstance(sample, bool) or not isinstance(sample, int) or sample < 1:
            raise ConfigError(f"{key}.sample must be an integer >= 1, 'all' or null; got {excerpt(sample)}")
    ply = g.get("ply")
    if e.source_kind == "random":
        top = MAX_DEPTH if e.max_ply is None else e.max_ply(positions)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= top:
            board = "" if len(sources) == 1 else " of the " + positions + " board"
            raise ConfigError(f"{key}.ply must be an integer in 0..{top} (random moves from the "
                              f"start{board}); got {excerpt(ply)}")
    elif ply is not None:
        randoms = [n for n in game_names() if game_entry(n).source_kind == "random"]
        raise ConfigError(f"{key}.ply is a parameter of random positions ({', '.join(randoms)}, "
                          f"_target_ games' positions=random); {name} has none: leave it null")
    depths = None if g.get("d") is None else parse_int_list(f"{key}.d", g.get("d"), 0)
    return GameSpec(name=name, positions=positions, sample=sample, ply=ply, depths=depths,
                    target=target, params=params if target is not None else ())

