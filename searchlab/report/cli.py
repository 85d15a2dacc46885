"""``searchlab-report RUN_DIR``: write RUN_DIR/report.md and RUN_DIR/figures/ from a run's table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from searchlab.report.build import find_tables, write_report


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="searchlab-report",
                                 description="Write report.md (EBF fits with CIs, figures, claims table) for a run.")
    ap.add_argument("run_dir", help="a run directory holding the Parquet result table")
    ap.add_argument("--format", choices=("png", "pdf", "svg"), default="png", help="figure format (default png)")
    ap.add_argument("--no-exact", action="store_true", help="skip the exact textbook-tree checks")
    ap.add_argument("--resamples", type=int, default=999, help="bootstrap resamples (default 999)")
    args = ap.parse_args(argv)
    run_dir = Path(args.run_dir)
    if not run_dir.exists():
        print(f"searchlab-report: error: {run_dir} does not exist", file=sys.stderr)
        return 2
    if not run_dir.is_dir():
        print(f"searchlab-report: error: {run_dir} is not a directory", file=sys.stderr)
        return 2
    if not find_tables(run_dir):
        print(f"searchlab-report: error: no Parquet result table (*.parquet) under {run_dir}", file=sys.stderr)
        return 2
    try:
        path = write_report(run_dir, fmt=args.format, exact=not args.no_exact, n_resamples=args.resamples)
    except Exception as e:  # noqa: BLE001 - one clear line, not a traceback
        print(f"searchlab-report: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
