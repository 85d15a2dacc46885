"""The ``searchlab`` command: a Hydra app running one study (or a multirun of studies).

    searchlab                                   the default study (tour)
    searchlab experiment=ordering_ebf sweep.b=[2,4,8] runner.n_jobs=2
    searchlab experiment=quick runner.resume=results/quick/2026-11-29_19-40-00
    searchlab --cfg job                         the composed config
    searchlab --help                            the config groups and options
    searchlab --version                         searchlab's version
    searchlab -m experiment=pearl,discrete_values    Hydra multirun (one run dir per study)
    searchlab lab [--port 8765]                 the lab in the browser (docs/lab.md)

User errors (unknown group option or key, wrong type, value out of range, empty grid, budget
exceeded, unwritable output, a run directory in use by another process), in a single run or in
any job of a multirun (every job is checked before the first starts), print one line on stderr,
no traceback, create nothing, and exit with status 2.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

# Only what every command needs is imported here: --version, --help and shell-completion queries
# must answer in well under a second (benchmarks/startup.py), so Hydra's runtime, the engine
# (numba, pandas, the games) and the lab are imported by the functions that use them.
from searchlab.cli_guard import help_text, multirun_jobs, quiet_stdout
from searchlab.experiment.provenance import version
from searchlab.experiment.composition import (_register_resolvers, apply_axis_rules, axis_overrides,
                                              config_error_message, forget_claimed, presets_named,
                                              register_configs, search_dirs_of, set_search_dirs,
                                              tree_group)
from searchlab.experiment.schema import CONF_DIR, ConfigError

_register_resolvers()   # also in launcher jobs (submitit) that unpickle _task without main()

EXIT_USER_ERROR = 2
_FLAGS_WITH_VALUE = {"--cfg", "-c", "--package", "-p", "--info", "-i", "--config-path", "-cp",
                     "--config-name", "-cn", "--config-dir", "-cd", "--experimental-rerun",
                     "--shell-completion", "-sc"}
_INFO = {"all", "config", "defaults", "defaults-tree", "plugins", "searchpath"}
_NO_PRECHECK = {"--hydra-help", "--info", "-i", "--shell-completion", "-sc",
                "--experimental-rerun"}


def _error(msg: str) -> None:
    print(f"searchlab: error: {msg}", file=sys.stderr)
    sys.exit(EXIT_USER_ERROR)


def normalise_argv(argv: list[str]) -> list[str]:
    """Hydra's command line in the order its argument parser takes it: the flags (with their
    values; ``--config-dir=DIR`` split into ``--config-dir DIR``) first, then every override.
    argparse takes its positional overrides in one run: an override in front of ``-m`` (as
    the axes' resets were) made the rest "unrecognized arguments"."""
    flags, overrides = split_argv(argv)
    return flags + overrides


def split_argv(argv: list[str]) -> tuple[list[str], list[str]]:
    """(the flags with their values, the overrides) of a command line, in their order."""
    flags: list[str] = []
    overrides: list[str] = []
    k = 0
    while k < len(argv):
        a = argv[k]
        name, eq, value = a.partition("=")
        if a.startswith("-") and eq and name in _FLAGS_WITH_VALUE:
            flags += [name, value]
        elif a in ("--info", "-i"):             # its value is optional
            flags.append(a)
            if k + 1 < len(argv) and argv[k + 1] in _INFO:
                flags.append(argv[k + 1])
                k += 1
        elif a in _FLAGS_WITH_VALUE:
            flags += argv[k:k + 2]
            k += 1
        elif a.startswith("-"):
            flags.append(a)
        else:
            overrides.append(a)
        k += 1
    return flags, overrides


def _overrides(argv: list[str]) -> list[str]:
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a.startswith("-"):
            skip = a in _FLAGS_WITH_VALUE
            continue
        out.append(a)
    return out


def precheck(argv: list[str]) -> list[tuple[str, Any, Any]]:
    """Compose, validate, plan and guard before Hydra starts (so errors are one line, exit 2,
    and no run directory is created). A multirun checks every job before any starts. Skipped
    for --hydra-help, --info and shell completion. Returns (job label, config, Study) per job."""
    if any(a in _NO_PRECHECK for a in argv):
        return []
    multirun = "-m" in argv or "--multirun" in argv
    ov = [o for o in _overrides(argv) if not o.lstrip("+~").startswith("hydra")
          or o.startswith("hydra.searchpath=")]
    # --config-dir/-cd DIR adds DIR to Hydra's search path (its presets: DIR/experiment/NAME.yaml)
    dirs = [argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("--config-dir", "-cd")]
    for d in dirs:
        if not Path(d).is_dir():
            _error(f"--config-dir: no such directory {d}")
    if dirs and not any(o.startswith("hydra.searchpath=") for o in ov):
        ov.append("hydra.searchpath=[" + ",".join(f"file://{Path(d).resolve()}" for d in dirs) + "]")
    if not multirun:
        # --cfg and --plan print and run nothing: validated, never compiled
        return [("", *_check_job(ov, _overrides(argv), "",
                                 run=not any(a in ("--cfg", "-c", "--plan") for a in argv)))]
    clash = [a for a in argv if a in ("--cfg", "-c", "--run", "-r", "--info", "-i")]
    if clash:
        _error(f"{clash[0]} cannot be combined with -m (a multirun runs its jobs; {clash[0]} "
               f"shows one composed config): drop -m, e.g. searchlab {clash[0]} job OVERRIDES")
    try:
        jobs = multirun_jobs(ov)
    except Exception as e:  # noqa: BLE001 -- Hydra's override grammar errors
        _error(config_error_message(e))
    out = []
    for k, job in enumerate(jobs):
        label = f"multirun job #{k} ({' '.join(job) or 'no override'})"
        out.append((label, *_check_job(job, [], label + ": ", run="--plan" not in argv)))
    return out


def _check_job(ov: list[str], all_overrides: list[str], prefix: str, run: bool = True) -> tuple[Any, Any]:
    """The pre-run check of one job (its overrides without hydra.*); _error on a problem.
    Returns the job's composed config and its validated Study. ``run=False`` (--cfg, --plan):
    nothing is probed or compiled, and a sweep is checked from its grid's sizes without the
    engine, the study families or pandas (benchmarks/startup.py)."""
    from hydra.core.global_hydra import GlobalHydra

    from searchlab.experiment import lock
    from searchlab.experiment.composition import compose, study_section
    from searchlab.experiment.grid_size import check_points
    from searchlab.experiment.validation import validate

    def fail(msg: str) -> None:
        _error(prefix + msg)

    try:
        cfg = compose(None, ov)
    except Exception as e:  # noqa: BLE001 -- Hydra/OmegaConf composition errors
        GlobalHydra.instance().clear()
        fail(config_error_message(e))
    GlobalHydra.instance().clear()
    try:
        study = validate(cfg)
        if not run and study_section(cfg) is None:
            # what the sweep's check does without its probe: the grid's refusals and the guard
            check_points(study, study.runner.max_nodes)
        else:
            _kind_check(cfg, study, run)
    except ConfigError as e:
        fail(str(e))
    run_dir = study.runner.resume or study.results_dir
    for o in all_overrides:
        if o.startswith("hydra.run.dir=") and "${" not in o:
            run_dir = o.split("=", 1)[1]
            if study.runner.resume and Path(run_dir).resolve() != Path(study.runner.resume).resolve():
                fail(f"runner.resume={study.runner.resume} and hydra.run.dir={run_dir} name two "
                     "directories; a run is resumed in its own directory: drop hydra.run.dir")
    if study.runner.resume:
        from searchlab.experiment import store

        rd = Path(study.runner.resume)
        if not (rd / "provenance.json").exists() and not store.list_parts(rd):
            fail(f"runner.resume: {rd} holds no searchlab run (no provenance.json and no "
                 "table parts)")
    who = lock.owner(Path(run_dir))
    if who:
        fail(f"{run_dir} is in use by {who}: two processes must not write one run; wait for "
             "it to finish or choose another directory")
    problem = _unwritable(run_dir)
    if problem:
        fail(f"cannot write to output directory {run_dir}: {problem}")
    return cfg, study


def _kind_check(cfg: Any, study: Any, run: bool) -> None:
    """The study kind's own pre-run check (experiment.api.StudyKind.check); its probe search
    may be a game engine's first use: that compile is announced."""
    from searchlab.experiment import api
    from searchlab.experiment.runner import compile_notice

    games = [g.name for g in study.games]
    cold = sum(g.entry().cold_seconds() or 0 for g in study.games) or None
    with compile_notice(f"the {', '.join(games)} engine" if games else "the search engine",
                        cold, print):
        api.kind_of(cfg).check(cfg, study, run)


def _print_plan(jobs: list[tuple[str, Any, Any]], to_stderr: bool) -> None:
    """The dry run of every job (searchlab.cli_plan): on stdout for --plan, on stderr beside
    --cfg's config (whose stdout stays the config alone). A sweep's plan is computed from its
    grid's sizes (no task is built); another kind's from its own planner."""
    from searchlab import cli_plan
    from searchlab.experiment.composition import study_section

    out = sys.stderr if to_stderr else sys.stdout
    for label, cfg, study in jobs:
        try:
            if study_section(cfg) is None:
                lines = cli_plan.plan_lines(cli_plan.SWEEP, cfg, study, dry=not to_stderr)
            else:
                from searchlab.experiment import api

                lines = cli_plan.plan_lines(api.kind_of(cfg), cfg, study, dry=not to_stderr)
        except ConfigError as e:
            _error((label + ": " if label else "") + str(e))
        if label:
            print(f"{label}:", file=out)
        for line in lines:
            print(("  " if label else "") + line, file=out)


def _show_job_config(flags: list[str], jobs: list[tuple[str, Any, Any]]) -> bool:
    """``--cfg job`` of a single run: the config the pre-run check composed, printed as Hydra's
    own ``--cfg job`` prints it (OmegaConf.to_yaml of the job's config, Hydra's node left
    out), without composing it a second time (start-up, benchmarks/startup.py). False, and
    Hydra prints it, for ``--cfg hydra|all``, ``--package``, ``--resolve``, another primary
    config (``--config-name``, ``--config-path``) or a multirun."""
    k = next((i for i, a in enumerate(flags) if a in ("--cfg", "-c")), None)
    if k is None or flags[k + 1:k + 2] != ["job"] or len(jobs) != 1 or jobs[0][0] \
            or any(a in ("--package", "-p", "--resolve", "--info", "-i", "--config-name", "-cn",
                         "--config-path", "-cp") for a in flags):
        return False
    from omegaconf import OmegaConf

    sys.stdout.write(OmegaConf.to_yaml(jobs[0][1]))
    return True


def _unwritable(path: str) -> str | None:
    """Why path (or the folder it would be created in) cannot be written; None if it can."""
    p = Path(path).absolute()
    while not p.exists():
        if p.is_symlink():       # a link to nothing: a loop (a -> b -> a) or a missing target
            return (f"{p} is a symbolic link that leads nowhere (a loop, or its target is "
                    "missing)")
        if p.parent == p:
            return "no existing parent directory"
        p = p.parent
    if not p.is_dir():
        return f"{p} is a file"
    try:
        os.rmdir(tempfile.mkdtemp(prefix=".searchlab-probe-", dir=p))
    except OSError as e:
        return e.strerror or str(e)
    return None


def _nested_jobs(cfg: Any) -> None:
    """Under Hydra's joblib launcher (hydra/launcher=joblib), each job's runner pool is nested
    in the launcher's: runner.n_jobs=-1 (all cores, the default) becomes the cores divided
    among the launcher's jobs, and a product launcher n_jobs x runner.n_jobs above the cores
    is reported in one warning line (docs/running.md, "Hydra's joblib launcher")."""
    from hydra.core.hydra_config import HydraConfig
    try:
        launcher = HydraConfig.get().launcher
    except ValueError:
        return
    if "JoblibLauncher" not in str(launcher.get("_target_", "")):
        return
    cores = os.cpu_count() or 1
    outer = int(launcher.get("n_jobs") or -1)
    outer = cores if outer < 1 else outer
    inner = int(cfg.runner.n_jobs)
    if inner == -1:
        cfg.runner.n_jobs = max(1, cores // outer)
        print(f"searchlab: note: hydra/launcher=joblib runs {outer} jobs at once: runner.n_jobs=-1 "
              f"becomes {cfg.runner.n_jobs} per job ({cores} cores)", file=sys.stderr)
    elif outer * inner > cores:
        print(f"searchlab: warning: hydra.launcher.n_jobs={outer} x runner.n_jobs={inner} = "
              f"{outer * inner} worker processes on {cores} cores (oversubscribed: slower, same "
              f"numbers); lower one of them", file=sys.stderr)


#: Hydra's launchers: the plug-in module each needs and the extra of the package that brings it
LAUNCHERS = {"basic": None,
             "joblib": ("hydra_plugins.hydra_joblib_launcher", "joblib"),
             "submitit_local": ("hydra_plugins.hydra_submitit_launcher", "slurm"),
             "submitit_slurm": ("hydra_plugins.hydra_submitit_launcher", "slurm")}


def _installed(module: str) -> bool:
    import importlib.util
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def check_launcher(overrides: list[str]) -> None:
    """``hydra/launcher=NAME`` (or a comma list): one line naming the extra that brings a
    launcher that is not installed, or the launchers there are; before Hydra's raw error."""
    for o in overrides:
        key, _, value = o.partition("=")
        if key.lstrip("+") != "hydra/launcher":
            continue
        for name in value.split(","):
            allowed = ", ".join(n + (f" (pip install 'searchlab[{x[1]}]')" if x else "")
                                for n, x in LAUNCHERS.items())
            if name not in LAUNCHERS:
                _error(f"hydra/launcher: unknown launcher {name!r}; allowed: {allowed}")
            need = LAUNCHERS[name]
            if need and not _installed(need[0]):
                _error(f"hydra/launcher={name}: its Hydra plug-in ({need[0]}) is not installed; "
                       f"install the extra that brings it: pip install 'searchlab[{need[1]}]'")


def check_hydra_groups(overrides: list[str]) -> None:
    """``hydra/GROUP=NAME`` (or a comma list) for every Hydra group (sweeper, job_logging, env,
    ...): one line naming the group's options when GROUP or NAME is unknown, before Hydra's raw
    error (a traceback-like block, exit 1, after the run directory was made). Hydra's options
    are read (plug-ins included) only when such an override is given."""
    asked = [(k.lstrip("+~"), v) for k, _, v in (o.partition("=") for o in overrides)
             if k.lstrip("+~").startswith("hydra/")]
    if not asked:
        return
    from hydra._internal.config_repository import ConfigRepository
    from hydra._internal.utils import create_config_search_path
    from hydra.core.object_type import ObjectType
    from hydra.core.plugins import Plugins
    Plugins.instance()                      # the plug-ins' options (launchers) register here
    repo = ConfigRepository(create_config_search_path(None))
    groups = sorted(repo.get_group_options("hydra", ObjectType.GROUP))
    for group, value in asked:
        name = group.removeprefix("hydra/")
        if name not in groups:
            _error(f"{group}: unknown Hydra config group; allowed: "
                   + ", ".join(f"hydra/{g}" for g in groups))
        options = repo.get_group_options(group, ObjectType.CONFIG)
        for v in value.split(",") if value else []:         # ~hydra/GROUP: no value
            if v.strip() not in options + ["null"]:
                _error(f"{group}: unknown option {v.strip()!r}; allowed: {', '.join(options)}")


def _dirname_excludes(overrides: list[str]) -> list[str]:
    """The override that names a multirun's job folders by the swept keys only (Hydra's
    override_dirname without the keys every job shares), unless the command line sets it."""
    if any(o.startswith("hydra.job.config.override_dirname") for o in overrides):
        return []
    from hydra.core.override_parser.overrides_parser import OverridesParser
    try:
        parsed = OverridesParser.create().parse_overrides(overrides=overrides)
    except Exception:  # noqa: BLE001 -- a grammar error: precheck reports it in one line
        return []
    same = sorted({o.key_or_group for o in parsed if not o.is_sweep_override()
                   and not o.key_or_group.startswith("hydra")})
    if not same:
        return []
    return ["hydra.job.config.override_dirname.exclude_keys=[" + ",".join(f"'{k}'" for k in same) + "]"]


def _multirun_job(cfg: Any) -> None:
    """A multirun job: the axes' rules of its own overrides (as its single run would have
    them), and its line in the multirun's index, <sweep dir>/jobs.tsv (number, folder,
    overrides), which names a job whose folder is its number alone."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode
    try:
        hc = HydraConfig.get()
    except ValueError:
        return
    if hc.mode != RunMode.MULTIRUN:
        return
    job = list(hc.overrides.task)
    apply_axis_rules(cfg, job)
    try:
        index = Path(hc.sweep.dir) / "jobs.tsv"
        with open(index, "a") as f:        # one short line per job: an atomic append
            f.write(f"{hc.job.num}\t{Path(hc.runtime.output_dir).name}\t{' '.join(job)}\n")
    except OSError:
        pass                               # the index is a convenience; the run is what counts


def _task(cfg: Any) -> None:
    from hydra.core.hydra_config import HydraConfig

    from searchlab.experiment import api

    try:
        _multirun_job(cfg)
        _nested_jobs(cfg)
        study = api.validate(cfg)
        run_dir = HydraConfig.get().runtime.output_dir
        api.kind_of(cfg).run(cfg, study, Path(run_dir), progress=study.runner.progress)
    except (ConfigError, api.RunError) as e:
        _error(str(e))
    except KeyboardInterrupt:
        print("searchlab: interrupted", file=sys.stderr)
        sys.exit(130)


def main() -> None:
    """Console-script entry point (pyproject: searchlab = searchlab.cli:main)."""
    quiet_stdout()               # `searchlab ... | head -1`: no BrokenPipeError traceback
    argv = sys.argv[1:]
    if argv[:1] == ["lab"]:      # the web lab: its own argparse, no Hydra (searchlab/lab/lab_cli.py)
        from searchlab.lab.lab_cli import main as lab_main
        sys.exit(lab_main(argv[1:]))
    # the user's config directories: their presets are options in --help, completion and the
    # "allowed" lists too (a completion query reads the line being completed, COMP_LINE)
    completing = any(a.startswith(("--shell-completion", "-sc")) for a in argv)
    line = os.environ.get("COMP_LINE", "").split() if completing else []
    dirs = search_dirs_of(argv + line[1:])
    set_search_dirs(dirs)
    if line and dirs and not search_dirs_of(argv):
        argv = ["--config-dir", dirs[0]] + argv   # Hydra's completion lists that directory's options
        sys.argv[1:] = argv
    if "--version" in argv:
        print(f"searchlab {version()}")
        return
    if "--help" in argv or "-h" in argv:
        print(help_text())
        return
    for flag in ("--shell-completion", "-sc"):
        if flag in argv:
            value = argv[argv.index(flag) + 1] if argv.index(flag) + 1 < len(argv) else ""
            if value.split("=", 1)[0] not in ("install", "uninstall", "query"):
                _error(f"{flag} needs one of install=SHELL, uninstall=SHELL or query=SHELL "
                       f"(SHELL: bash, zsh, fish), e.g. eval \"$(searchlab {flag} install=bash)\"; "
                       f"got {value or 'nothing'} (docs/running.md, Shell completion)")
    try:
        if completing:
            register_configs(names_only=True)
        else:                      # the presets this command composes: the others by name
            register_configs(presets=presets_named(split_argv(argv)[1]))
    except ConfigError as e:
        _error(str(e))
    if completing:                 # Hydra answers from the groups and the schema; nothing runs
        import hydra

        hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")(_task)()
        return
    flags, ov = split_argv(argv)
    if "-m" in flags or "--multirun" in flags:
        # each job gets the axes' rules from its own overrides (_task, apply_axis_rules), as
        # a single run does: `-m tree=iid,ordered` is two single runs
        ov = [tree_group(o) for o in ov]
        ov = ov + _dirname_excludes(ov)
    else:
        # the axes' precedence rule (composition.axis_overrides), for Hydra's own parsing too
        ov = axis_overrides(ov)
    check_launcher(ov)
    check_hydra_groups(ov)
    sys.argv[1:] = flags + ov
    jobs = precheck(sys.argv[1:])
    forget_claimed()
    if "--plan" in flags or any(a in ("--cfg", "-c") for a in flags):
        _print_plan(jobs, to_stderr="--plan" not in flags)
        if "--plan" in flags or _show_job_config(flags, jobs):
            return
    import hydra

    app = hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")(_task)
    app()


if __name__ == "__main__":
    main()
