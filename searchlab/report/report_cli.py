"""``searchlab-report RUN_DIR``: write RUN_DIR/report.md and RUN_DIR/figures/ from a run's table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from searchlab.errors import SearchlabError
from searchlab.experiment.api import write_run_report, write_run_tables
from searchlab.studies.sweep.sweep_export import link_tables, parse_formats

MAX_RESAMPLES = 1_000_000


def _resamples(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer in [1, {MAX_RESAMPLES}]; got {text!r}") from None
    if not 1 <= n <= MAX_RESAMPLES:
        raise argparse.ArgumentTypeError(f"must be an integer in [1, {MAX_RESAMPLES}]; got {n}")
    return n


def _tables(text: str) -> list[str]:
    try:
        return parse_formats(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="searchlab-report",
                                 description="Write report.md (EBF fits with CIs, figures, claims table) for a run.")
    ap.add_argument("run_dir", help="a run directory holding the Parquet result table")
    ap.add_argument("--format", choices=("png", "pdf", "svg"), default="png", help="figure format (default png)")
    ap.add_argument("--no-exact", action="store_true", help="skip the exact textbook-tree checks")
    ap.add_argument("--resamples", type=_resamples, default=999,
                    help=f"bootstrap resamples, 1..{MAX_RESAMPLES} (default 999)")
    ap.add_argument("--partial", action="store_true",
                    help="accept an incomplete or damaged run (killed, truncated part): the report "
                         "is computed from the rows present and says at the top that it is partial")
    ap.add_argument("--tables", type=_tables, default=None, metavar="FORMATS",
                    help="also write every summary table to RUN_DIR/tables/ in these formats, "
                         "comma-separated from csv, latex, md (searchlab.export)")
    args = ap.parse_args(argv)
    run_dir = Path(args.run_dir)
    try:
        path = write_run_report(run_dir, fmt=args.format, exact=not args.no_exact,
                            n_resamples=args.resamples, partial=args.partial)
        if args.tables:
            link_tables(path, write_run_tables(run_dir, args.tables, n_resamples=args.resamples,
                                               partial=args.partial))
    except (OSError, SearchlabError) as e:     # not a run, incomplete, unwritable: one line
        print(f"searchlab-report: error: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # noqa: BLE001 - one clear line, not a traceback
        print(f"searchlab-report: error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
