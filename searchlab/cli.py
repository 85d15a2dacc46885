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

import hydra
from hydra.core.global_hydra import GlobalHydra
from hydra.core.hydra_config import HydraConfig

from searchlab.cli_guard import help_text, multirun_jobs, quiet_stdout
from searchlab.experiment import api, lock, store
from searchlab.experiment.provenance import version
from searchlab.experiment.composition import (_register_resolvers, axis_overrides, config_error_message,
                                              forget_claimed, register_configs)
from searchlab.experiment.schema import CONF_DIR, ConfigError
from searchlab.lab.lab_cli import main as lab_main

_register_resolvers()   # also in launcher jobs (submitit) that unpickle _task without main()

EXIT_USER_ERROR = 2
_FLAGS_WITH_VALUE = {"--cfg", "-c", "--package", "-p", "--info", "-i", "--config-path", "-cp",
                     "--config-name", "-cn", "--config-dir", "-cd", "--experimental-rerun",
                     "--shell-completion", "-sc"}
_NO_PRECHECK = {"--hydra-help", "--info", "-i", "--shell-completion", "-sc",
                "--experimental-rerun"}


def _error(msg: str) -> None:
    print(f"searchlab: error: {msg}", file=sys.stderr)
    sys.exit(EXIT_USER_ERROR)


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


def precheck(argv: list[str]) -> None:
    """Compose, validate, plan and guard before Hydra starts (so errors are one line, exit 2,
    and no run directory is created). A multirun checks every job before any starts. Skipped
    for --hydra-help, --info and shell completion."""
    if any(a in _NO_PRECHECK for a in argv):
        return
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
    _check_launcher(_overrides(argv))
    if not multirun:
        # --cfg prints the composed config and runs nothing: validated, never compiled
        _check_job(ov, _overrides(argv), "", run=not any(a in ("--cfg", "-c") for a in argv))
        return
    clash = [a for a in argv if a in ("--cfg", "-c", "--run", "-r", "--info", "-i")]
    if clash:
        _error(f"{clash[0]} cannot be combined with -m (a multirun runs its jobs; {clash[0]} "
               f"shows one composed config): drop -m, e.g. searchlab {clash[0]} job OVERRIDES")
    try:
        jobs = multirun_jobs(ov)
    except Exception as e:  # noqa: BLE001 -- Hydra's override grammar errors
        _error(config_error_message(e))
    for k, job in enumerate(jobs):
        _check_job(job, [], f"multirun job #{k} ({' '.join(job) or 'no override'}): ")


#: the extra that installs each Hydra launcher plugin searchlab documents (pyproject.toml)
_LAUNCHER_EXTRAS = {"joblib": "joblib", "submitit_local": "slurm", "submitit_slurm": "slurm"}


def _check_launcher(ov: list[str]) -> None:
    """hydra/launcher=NAME names an installed launcher plugin; else one line naming the extra
    that installs it (Hydra's own error is a page of search paths)."""
    chosen = [o.split("=", 1)[1] for o in ov if o.lstrip("+").startswith("hydra/launcher=")]
    if not chosen:
        return
    GlobalHydra.instance().clear()
    with hydra.initialize_config_dir(config_dir=str(CONF_DIR), version_base="1.3"):
        have = GlobalHydra.instance().config_loader().get_group_options("hydra/launcher")
    GlobalHydra.instance().clear()
    for name in chosen:
        if name not in have:
            extras = ", ".join(f"{k} (pip install 'searchlab[{v}]')"
                               for k, v in _LAUNCHER_EXTRAS.items() if k not in have)
            _error(f"hydra/launcher={name}: no such launcher; installed: {', '.join(have)}"
                   + (f"; with an extra: {extras}" if extras else "")
                   + " (docs/running.md)")


def _check_job(ov: list[str], all_overrides: list[str], prefix: str, run: bool = True) -> None:
    """The pre-run check of one job (its overrides without hydra.*); _error on a problem."""
    def fail(msg: str) -> None:
        _error(prefix + msg)

    try:
        cfg = api.compose(None, ov)
    except Exception as e:  # noqa: BLE001 -- Hydra/OmegaConf composition errors
        GlobalHydra.instance().clear()
        fail(config_error_message(e))
    GlobalHydra.instance().clear()
    try:
        study = api.validate(cfg)
        api.kind_of(cfg).check(cfg, study, run)
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


def _task(cfg: Any) -> None:
    try:
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
        sys.exit(lab_main(argv[1:]))
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
        register_configs()
    except ConfigError as e:
        _error(str(e))
    # the axes' precedence rule (composition.axis_overrides), for Hydra's own parsing too
    sys.argv[1:] = axis_overrides(sys.argv[1:])
    precheck(sys.argv[1:])
    forget_claimed()
    app = hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="config")(_task)
    app()


if __name__ == "__main__":
    main()
