"""Composing configs with Hydra: the schema's registration, resolvers, and the translation of
Hydra/OmegaConf composition errors into one-line ``ConfigError`` messages.

Only this module, ``api.py`` and ``searchlab/cli.py`` touch Hydra.
"""

from __future__ import annotations

import re
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any, Iterable, Optional, Sequence

import yaml
from omegaconf import OmegaConf

from searchlab.experiment import kind_registry
from searchlab.experiment.lock import claim_new
from searchlab.experiment.schema import (CONF_DIR, EXPERIMENTS_DIR, TREE_PARAMS, TREE_STATIC_VALUES,
                                         ConfigError, ExperimentConfig, GameConfig,
                                         RunnerConfig, SearchConfig, SweepConfig, TechniqueNode,
                                         TreeConfig)
from searchlab.limits import MAX_DEPTH

_REGISTERED = False
#: the presets stored in the ConfigStore so far: name -> whether with their content (False: an
#: empty node, its name only)
_STORED: dict[str, bool] = {}


def register_configs(names_only: bool = False, presets: Optional[Iterable[str]] = None) -> None:
    """Store the schema and the experiment presets in Hydra's ConfigStore (idempotent).

    The presets are the files of ``experiments/`` (each headed ``# @package _global_``), stored
    as the ``experiment`` group, so ``experiment=NAME`` works from any working directory. In an
    installed wheel they are ``conf/experiment/`` already, which Hydra reads as files: storing
    them as well made Hydra warn that each is "validated against ConfigStore schema with the
    same name". ``names_only`` (shell completion, which lists options and the schema's keys and
    composes nothing) stores each preset as an empty node: a preset adds no key to the schema,
    and reading ~40 YAML files took a second. ``presets``: the presets a command composes
    (:func:`presets_named`); only they and the presets their defaults lists name are read, the
    others stored by name (reading all took 0.25 s of --cfg job's start-up); None: all. A
    later call reads what it needs of the rest.
    """
    global _REGISTERED
    if _REGISTERED:
        return
    # here, not at the top: --version and --help do not load Hydra (benchmarks/startup.py)
    from hydra.core.config_store import ConfigStore

    cs = ConfigStore.instance()
    # the schema with every registered kind's section (a plug-in's too: kind_registry)
    cs.store(name="searchlab_schema", node=kind_registry.config_schema(), provider="searchlab")
    shipped_as_files = EXPERIMENTS_DIR.resolve() == (CONF_DIR / "experiment").resolve()
    paths = {} if shipped_as_files else {p.stem: p for p in sorted(EXPERIMENTS_DIR.glob("*.yaml"))}
    nodes: dict[str, Any] = {}
    if not names_only:
        queue = list(paths) if presets is None else list(presets)
        while queue:                       # the presets asked for and those their defaults name
            name = queue.pop()
            if name in nodes or _STORED.get(name):
                continue
            if name not in paths:          # not a shipped preset (a user's, a typo): read all
                queue += [n for n in paths if n not in nodes]
                continue
            nodes[name] = _load_preset(paths[name])
            queue += _presets_in_defaults(nodes[name])
    for name, path in paths.items():
        # the presets live in experiments/, not in conf/experiment/: stored as the
        # ``experiment`` group (each file is ``# @package _global_``). A user's own
        # experiment/NAME.yaml under --config-dir or hydra.searchpath comes earlier in the
        # search path, so it can also replace a shipped preset of the same name.
        if _STORED.get(name) or (name in _STORED and name not in nodes):
            continue
        cs.store(group="experiment", name=name, node=nodes.get(name, {}), package="_global_",
                 provider="searchlab")
        _STORED[name] = name in nodes
    _register_resolvers()
    _REGISTERED = all(_STORED.get(n) for n in paths)


def _load_preset(path: Path) -> Any:
    try:
        return OmegaConf.load(path)
    except Exception as e:  # noqa: BLE001 -- any YAML or OmegaConf error: one line naming the file
        raise ConfigError(f"experiment preset {path.name}: {str(e).splitlines()[0]}") from None


def _presets_in_defaults(node: Any) -> list[str]:
    """The experiment presets a preset's defaults list names (``- unsound_tradeoff``,
    ``- /experiment/NAME``, ``- experiment: NAME``); a name that is not a plain word stands for
    every preset (``*``, which no preset is called)."""
    out: list[str] = []
    items = (node.get("defaults") or []) if OmegaConf.is_dict(node) else []
    for item in items:
        if isinstance(item, str):
            if item.startswith("/") and not item.startswith("/experiment/"):
                continue                   # another group's option
            names = [item.removeprefix("/experiment/")]
        elif OmegaConf.is_dict(item) or isinstance(item, dict):
            names = [str(v) for k, v in dict(item).items()
                     if str(k).split()[-1].strip("/") == "experiment"]
        else:
            names = ["*"]
        out += [n if re.fullmatch(r"[A-Za-z0-9_.+-]+", n) else "*"
                for n in names if n != "_self_"]
    return out


def presets_named(overrides: Sequence[str], experiment: Optional[str] = None) -> Optional[list[str]]:
    """The experiment presets a command line (or ``compose(experiment, overrides)``) composes:
    its ``experiment=`` values (a multirun's comma list too), else the default; None (every
    preset) when the user's config directories are in play (their presets may build on the
    shipped ones) or a value is not a plain list of names."""
    if USER_DIRS or any(o.startswith("hydra.searchpath=") for o in overrides):
        return None
    names = [experiment] if experiment else []
    for o in overrides:
        key, eq, value = o.partition("=")
        if key.lstrip("+~") == "experiment" and eq:
            if not re.fullmatch(r"[A-Za-z0-9_.+-]+(,[A-Za-z0-9_.+-]+)*", value):
                return None
            names += value.split(",")
    return names or [DEFAULT_EXPERIMENT]


#: The longest job folder name kept; a longer one is the job number alone (the multirun's
#: jobs.tsv maps every number to its overrides).
MAX_JOB_DIR = 100


def job_dir(num: Any, overrides: Any) -> str:
    """A multirun job's folder: its number and the overrides the user swept (Hydra's
    override_dirname; the CLI excludes the keys that are the same in every job), without the
    axis resets (values with an interpolation), characters a folder name cannot hold replaced.
    Never cut: a name longer than MAX_JOB_DIR characters is the job number alone."""
    parts = [p for p in str(overrides or "").split(",") if p and "$" not in p and "{" not in p]
    name = re.sub(r"[^A-Za-z0-9_.=+\-\[\]]+", "_", ",".join(parts))
    return f"{num}_{name}" if name and len(name) <= MAX_JOB_DIR else str(num)


#: the new run directories this process claimed (hydra.run.dir), by their timestamped name
_CLAIMED: dict[str, str] = {}


def run_dir(resume: Any, fresh: str) -> str:
    """hydra.run.dir: the resumed run's directory when runner.resume is set, else a new
    directory claimed for this run (lock.claim_new: ``fresh``, or ``fresh_1``, ... when a run
    started in the same second has it), the same one however often Hydra resolves it."""
    if resume not in (None, "", "None"):
        return str(resume)
    if fresh not in _CLAIMED:
        try:
            _CLAIMED[fresh] = str(claim_new(Path(fresh)))
        except OSError:        # unwritable: the run's own check reports it in one line
            return fresh
    return _CLAIMED[fresh]


def forget_claimed() -> None:
    """A new command in this process (tests call cli.main repeatedly) claims its own directory."""
    _CLAIMED.clear()


def _register_resolvers() -> None:
    if not OmegaConf.has_resolver("searchlab_job_dir"):
        OmegaConf.register_new_resolver("searchlab_job_dir", job_dir)
    if not OmegaConf.has_resolver("searchlab_run_dir"):
        OmegaConf.register_new_resolver("searchlab_run_dir", run_dir)


#: The preset the defaults list of conf/config.yaml selects when no experiment= is given.
DEFAULT_EXPERIMENT = "tour"

#: The axes a command-line choice sets: (what the user writes, the sweep key it resets, the value).
#: What is searched is one axis: a game replaces the preset's tree models too (a study searches
#: a tree or a game), a tree (tree=MODEL or tree.model=MODEL) the preset's games.
AXES = (
    ("ordering", "sweep.ordering", "${ordering}"),
    ("search", "sweep.algorithm", "[${search.algorithm}]"),
    ("search.algorithm", "sweep.algorithm", "[${search.algorithm}]"),
    ("game", "sweep.games", "[]"),
    ("game", "sweep.trees", "[]"),
    ("tree", "sweep.trees", "[]"),
    ("tree.model", "sweep.trees", "[]"),
    ("pruning", "sweep.pruning", "${pruning.name}"),
)


def axis_overrides(overrides: Sequence[str], experiment: Optional[str] = None) -> list[str]:
    """The precedence rule of the axes, applied to command-line overrides.

    Later wins: the defaults (config.yaml), then the experiment preset, then the command line.
    A preset states its axes as sweep lists (``sweep.ordering``, ``sweep.algorithm``,
    ``sweep.games``, ``sweep.trees``, ``sweep.pruning``); choosing an axis on the command line
    (``ordering=X``, ``search=NAME`` or ``search.algorithm=X``, ``game=NAME``, ``tree=NAME``,
    ``pruning=NAME``) replaces the
    preset's list for that axis with the choice, unless the command line also sets that
    ``sweep.<axis>`` itself, which then wins. Returns the resets followed by ``overrides``
    (first: Hydra's command line takes no override after a flag such as ``--cfg job``).
    """
    overrides = [tree_group(o) for o in overrides]
    keys = [o.split("=", 1)[0].lstrip("+~") for o in overrides if "=" in o or o.startswith("~")]
    resets = [f"{sweep_key}={value}" for choice, sweep_key, value in AXES
              if choice in keys and sweep_key not in keys]
    return list(dict.fromkeys(resets)) + _default_orderings(overrides, keys, experiment) \
        + _default_name(overrides, keys, experiment) + list(overrides)


def study_sections() -> tuple[str, ...]:
    """The sections that make a study of their kind (built-in and plug-in:
    experiment/kind_registry.py, nothing imported) and the sweep's own."""
    return (*kind_registry.sections(), "sweep")


def study_section(cfg: Any) -> Optional[str]:
    """The section that makes a composed config a study of its kind (tradeoff, parallel,
    claim_study, a plug-in's: experiment.api.kind_of's rule, from the kind registry without
    importing any kind), None for the sweep: the command tells a sweep, which it checks and
    plans without the study families, from the others."""
    return kind_registry.section_ref(cfg).section


def check_deletions(overrides: Sequence[str]) -> None:
    """``~KEY`` removes a config group's choice (``~tree`` with a game) and nothing else: a
    removed key (``~name``, ``~seed``, ``~sweep``) or a removed study section (``~claim_study``
    on a preset of that kind, which would run the default sweep under the preset's name) is a
    ConfigError naming the override, before Hydra composes anything."""
    sections = study_sections()
    for o in overrides:
        key, eq, value = o.lstrip("+").partition("=")
        if eq and key in sections and value.strip().lower() in ("null", "none", "~", ""):
            raise ConfigError(
                f"{o}: a study's section cannot be emptied (the preset would run as the default "
                f"sweep under its own name); choose another experiment=NAME, or set the "
                f"section's keys ({key}.KEY=VALUE)")
        if not o.startswith("~"):
            continue
        key = o[1:].split("=", 1)[0]
        if key.startswith("hydra") or ("." not in key and "/" not in key
                                       and available_options(key)):
            continue                      # a config group's choice: Hydra's defaults list
        top = key.split(".", 1)[0].split("/", 1)[0]
        raise ConfigError(
            f"{o}: a config key cannot be removed, only a config group's choice (e.g. ~tree "
            f"with game=NAME): without it searchlab would run another study than the one asked "
            f"for, or none; set its value instead ({key}=VALUE)"
            + (", or choose another experiment=NAME" if top in sections else ""))


def compose(experiment: Optional[str] = None, overrides: Sequence[str] = ()) -> Any:
    """The composed config (DictConfig) of ``experiment`` (None = the defaults) + overrides:
    the axes' rules applied (axis_overrides), removed keys refused (check_deletions).
    (experiment.api.compose is this function; the command composes here without importing
    the study families.) Only the presets it composes are read (register_configs)."""
    register_configs(presets=presets_named(overrides, experiment))
    check_deletions(overrides)
    ov = axis_overrides(list(overrides), experiment)
    if experiment:
        ov = [f"experiment={experiment}"] + ov
    try:
        return _compose(ov)
    except AssertionError as e:        # OmegaConf.update below a null node: no key named
        if "Unexpected type for root" not in str(e):
            raise
        raise ConfigError(_below_null(ov)) from None
    except AttributeError as e:        # OmegaConf merging a dict into a null node (KEY={...})
        if "'NoneType' object has no attribute 'get'" not in str(e):
            raise
        raise ConfigError(_below_null(ov, whole=True)) from None


def _compose(ov: list[str]) -> Any:
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.core.global_hydra import GlobalHydra

    if GlobalHydra.instance().is_initialized():
        GlobalHydra.instance().clear()
    with initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        return hydra_compose(config_name="config", overrides=ov)


def _options_setting(group: str, key: str) -> list[str]:
    """The options of config group ``group`` whose file sets ``key`` (``lmr`` -> lmr_log, ...)."""
    out = []
    for opt in available_options(group):
        try:
            data = yaml.safe_load((CONF_DIR / group / f"{opt}.yaml").read_text())
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict) and data.get(key) is not None:
            out.append(f"{group}={opt}")
    return out


def _below_null(ov: list[str], whole: bool = False) -> str:
    """The message for an override of a key below a null node (``pruning.lmr.after=3`` on a
    config whose pruning option sets no ``lmr``), or (``whole``) of a null node given whole
    (``pruning.lmr={after: 3}``, which OmegaConf cannot merge into a null node): the override
    and the null node named."""
    # the groups chosen, from where they were found (hydra.searchpath: the user's options)
    base = _compose([o for o in ov if "." not in o.split("=", 1)[0]
                     or o.startswith("hydra.searchpath=")])
    for o in ov:
        key = o.split("=", 1)[0].lstrip("+")
        steps = key.split(".")
        for i in range(1, len(steps) + (1 if whole else 0)):
            parent = ".".join(steps[:i])
            if OmegaConf.select(base, parent, default="?") is None:
                opts = _options_setting(steps[0], steps[1]) if i == 2 else []
                hint = f" (options that set it: {', '.join(opts)})" if opts else ""
                what = "cannot be given whole" if i == len(steps) else \
                    f"has no key {steps[i]!r}"
                return (f"{o}: {parent} is null in this config, so it {what}; choose an option "
                        f"that sets {parent} first{hint}, then set its keys "
                        f"({parent}.KEY=VALUE)")
    return "an override sets a key below a null node of the config; choose its option first"


def tree_group(override: str) -> str:
    """``tree.model=MODEL`` as the group choice ``tree=MODEL`` (comma lists too): the model's
    own parameters and defaults, not the default model's (tree.levels) under another name."""
    key, eq, value = override.partition("=")
    return f"tree={value}" if key == "tree.model" and eq and value else override


def apply_axis_rules(cfg: Any, overrides: Sequence[str]) -> list[str]:
    """Apply to a composed config the overrides :func:`axis_overrides` adds to ``overrides``
    (the axes' resets, the default study's orderings and name): what a single run gets on its
    command line, for one job of a multirun, whose overrides Hydra composed without them.
    Returns the overrides applied."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    job = [tree_group(o) for o in overrides]
    full = axis_overrides(job)
    added = full[:len(full) - len(job)]
    for o in OverridesParser.create().parse_overrides(overrides=added):
        OmegaConf.update(cfg, o.key_or_group, o.value(), merge=False)
    return added


def _is_default_study(keys: list[str], experiment: Optional[str]) -> bool:
    return not experiment and "experiment" not in keys


def _chosen_tree(overrides: Sequence[str]) -> Optional[str]:
    """The tree model the command line chooses (tree=MODEL or tree.model=MODEL), else None."""
    for o in reversed(list(overrides)):
        key, _, value = o.partition("=")
        if key.lstrip("+") in ("tree", "tree.model") and value:
            return value
    return None


def _default_orderings(overrides: Sequence[str], keys: list[str],
                       experiment: Optional[str]) -> list[str]:
    """The default study (tour) sweeps orderings that need static values at interior nodes
    (iterative deepening) on the tree model that has them. A command line that replaces its
    trees with one model without static values (tree=iid, tree=ordered, tree=explicit) and
    chooses no ordering keeps the default study's other orderings: the ones that model can run.
    Presets are left alone: an ordering a preset names is refused on a tree that cannot run it."""
    if not _is_default_study(keys, experiment) or "ordering" in keys or "sweep.ordering" in keys \
            or "sweep.trees" in keys:
        return []
    model = _chosen_tree(overrides)
    if model is None:
        return []
    # the schema's declaration of the models' static values: the trees' compiled code stays
    # unloaded (benchmarks/startup.py)
    if model not in TREE_PARAMS or model in TREE_STATIC_VALUES:
        return []
    from searchlab.algorithms.ordering_registry import describe  # light: no engine code

    preset = OmegaConf.load(EXPERIMENTS_DIR / f"{DEFAULT_EXPERIMENT}.yaml")
    runnable = [str(o) for o in preset.sweep.ordering
                if "static_values" not in describe(o).needs]
    return [f"sweep.ordering=[{','.join(runnable)}]"]


def _default_name(overrides: Sequence[str], keys: list[str], experiment: Optional[str]) -> list[str]:
    """Without a preset (no experiment=) and without name=, a run that chooses what it searches
    (game=NAME, tree=MODEL) is named and described by that choice, not filed under the
    default study's name (tour) with tour's description."""
    if not _is_default_study(keys, experiment) or "name" in keys:
        return []
    chosen = {o.split("=", 1)[0].lstrip("+"): o.split("=", 1)[1] for o in overrides
              if "=" in o and o.split("=", 1)[0].lstrip("+") in ("game", "tree")}
    if "game" in chosen and re.fullmatch(r"[A-Za-z0-9_]+", chosen["game"]):
        what = chosen["game"]
    elif "tree" in chosen and re.fullmatch(r"[A-Za-z0-9_]+", chosen["tree"]):
        what = f"{chosen['tree']}_tree"
    else:
        return []
    out = [f"name={what}"]
    if "description" not in keys:
        out.append(f"description='Sweep of {what.replace('_', ' ')} with the grid of the default "
                   f"study {DEFAULT_EXPERIMENT} (no experiment preset) and the command line'")
    return out


def config_error_message(exc: BaseException) -> str:
    """One line for a Hydra/OmegaConf composition error: which key or option, what is allowed."""
    chain = []
    e: Optional[BaseException] = exc
    while e is not None and e not in chain:
        chain.append(e)
        e = e.__cause__ or e.__context__
    text = "\n".join(str(x) for x in chain)
    if "maximum recursion depth exceeded" in text:      # OmegaConf recurses per nesting level
        return ("a value nests too deeply for the config parser; build a deep explicit tree "
                f"with the Python API (searchlab.ExplicitTree, up to {MAX_DEPTH} levels)")
    # unknown option of a config group
    m = re.search(r"Could not find '([^']+)/([^']+)'", text) or \
        re.search(r"Could not load '([^']+)/([^']+)'", text)
    if m:
        group, option = m[1], m[2]
        opts = available_options(group)
        allowed = f"; allowed: {', '.join(opts)}" if opts else ""
        return f"unknown option {option!r} for config group {group!r}{allowed}"
    append = re.search(r"To append to your config use (\+\S.*)", text)
    for x in chain:
        full_key = getattr(x, "full_key", None)
        if full_key:
            msg = getattr(x, "msg", str(x)).splitlines()[0]
            if "not in" in msg or "Key '" in msg and "not" in msg:
                obj = getattr(x, "object_type", None)
                kinds = ""

                if obj is not None and is_dataclass(obj):
                    keys = [f.name for f in fields(obj)]
                    where = f" (a {obj.__name__})"
                    if issubclass(obj, ExperimentConfig):   # the study kinds, by the registry
                        kinds = (f"; a study kind is chosen by its section: "
                                 f"{', '.join(kind_registry.sections())}")
                else:
                    parent = full_key.rsplit(".", 1)[0] if "." in full_key else ""
                    keys = _keys_of(parent)
                    where = f" in {parent}" if parent else ""
                allowed = f"; allowed keys{where}: {', '.join(keys)}{kinds}" if keys else ""
                hint = (f"; to add a new key write {append[1].strip()}"
                        if append and not keys else "")
                return f"unknown config key {full_key!r}{allowed}{hint}"
            return f"{full_key}: {msg}"
    m = re.search(r"Could not override '([^']+)'", text)
    if m:
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("To ")]
        detail = lines[-1].strip() if lines else ""
        return f"could not override {m[1]!r}: {detail}"
    first = str(exc).strip().splitlines()
    return " ".join(ln.strip() for ln in first[:2]) if first else type(exc).__name__


#: The user's config directories (``--config-dir DIR``, ``hydra.searchpath=[file://DIR]``),
#: whose ``GROUP/NAME.yaml`` files are options of the groups too; set by the command line.
USER_DIRS: list[Path] = []


def set_search_dirs(dirs: Sequence[str | Path]) -> None:
    """The user's config directories, whose options :func:`available_options` lists too."""
    USER_DIRS[:] = [Path(d) for d in dirs]


def search_dirs_of(argv: Sequence[str]) -> list[str]:
    """The config directories a command line adds: ``--config-dir DIR`` / ``-cd DIR`` /
    ``--config-dir=DIR`` and the ``file://`` entries of ``hydra.searchpath=[...]``."""
    out: list[str] = []
    for k, a in enumerate(argv):
        name, eq, value = a.partition("=")
        if name in ("--config-dir", "-cd"):
            out.append(value if eq else (argv[k + 1] if k + 1 < len(argv) else ""))
        elif name == "hydra.searchpath":
            out += [m for m in re.findall(r"file://([^,\]\s'\"]+)", value)]
    return [d for d in out if d]


def available_options(group: str) -> list[str]:
    """Options of a config group: files in conf/<group>/ (presets in experiments/ for
    'experiment') and in the user's config directories (USER_DIRS)."""
    dirs = [EXPERIMENTS_DIR] if group == "experiment" else [CONF_DIR / group]
    dirs += [d / group for d in USER_DIRS]
    return sorted({p.stem for d in dirs if d.is_dir() for p in d.glob("*.yaml")})


def _keys_of(path: str) -> list[str]:
    cls: Any = kind_registry.config_schema()
    for part in [p for p in path.split(".") if p]:
        part = re.sub(r"\[\d+\]$", "", part)
        f = {x.name: x for x in fields(cls)}.get(part)
        if f is None:
            return []
        t = f.type if not isinstance(f.type, str) else f.type
        cls = {"TreeConfig": TreeConfig, "SearchConfig": SearchConfig,
               "SweepConfig": SweepConfig, "GameConfig": GameConfig,
               "RunnerConfig": RunnerConfig, "TechniqueNode": TechniqueNode, "List[TreeConfig]": TreeConfig}.get(str(t).replace("typing.", ""))
        if cls is None:
            return []
    return [x.name for x in fields(cls)]

