"""``searchlab-tradeoff``: the sound-versus-unsound pruning study as a Hydra app.

    searchlab-tradeoff                                the full study (conf/tradeoff.yaml)
    searchlab-tradeoff domain=incremental             one domain
    searchlab-tradeoff 'domain=[incremental,connect4]' tradeoff_size=small n_jobs=2
    searchlab-tradeoff --cfg job                      the composed config
    searchlab-tradeoff report=PATH                    (re)write report.md of an existing run

Output: results/<study>/<timestamp>/ (table/, matches/, report.md, figures/). User errors
(unknown key, wrong type, out-of-range value, missing data file) print one line on stderr, no
traceback, and exit with status 2.
"""

from __future__ import annotations

import sys
from pathlib import Path

import hydra
from hydra.core.hydra_config import HydraConfig

from searchlab.cli import EXIT_USER_ERROR, _overrides  # the same command-line conventions
from searchlab.tradeoff.config import CONF_DIR, TradeoffConfigError, from_dict, load
from searchlab.tradeoff.report import _sections, write_report
from searchlab.tradeoff.study import run_study

_NO_PRECHECK = {"--help", "-h", "--hydra-help", "--info", "-i", "--multirun", "-m",
                "--shell-completion", "-sc", "--version", "--cfg", "-c"}


def _error(msg: str) -> None:
    print(f"searchlab-tradeoff: error: {msg}", file=sys.stderr)
    sys.exit(EXIT_USER_ERROR)


def precheck(argv: list[str]) -> None:
    """Compose and validate before Hydra starts, so errors are one line and no run directory
    is created."""
    if any(a in _NO_PRECHECK for a in argv):
        return
    ov = [o for o in _overrides(argv) if not o.lstrip("+~").startswith("hydra")]
    try:
        load(ov)
    except TradeoffConfigError as e:
        _error(str(e))


def _task(cfg) -> None:
    try:
        study = from_dict(cfg)
    except TradeoffConfigError as e:
        _error(str(e))
    run_dir = HydraConfig.get().runtime.output_dir
    try:
        out = run_study(study, run_dir)
    except KeyboardInterrupt:
        print("searchlab-tradeoff: interrupted", file=sys.stderr)
        sys.exit(130)
    s = _sections(out)
    print(f"searchlab-tradeoff: wrote {out}/report.md")
    print(f"verdict: {s['head']}")


def main() -> None:
    """Console-script entry point (pyproject: searchlab-tradeoff = searchlab.tradeoff.cli:main)."""
    argv = sys.argv[1:]
    rep = [a for a in argv if a.startswith("report=")]
    if rep:
        path = Path(rep[0].split("=", 1)[1])
        if not (path / "table").is_dir():
            _error(f"report: {path} holds no trade-off run (no table/ folder)")
        print(write_report(path))
        return

    precheck(argv)
    app = hydra.main(version_base="1.3", config_path=str(CONF_DIR), config_name="tradeoff")(_task)
    app()


if __name__ == "__main__":
    main()
