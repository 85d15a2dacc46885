"""``searchlab-report RUN_DIR``: write RUN_DIR/report.md and RUN_DIR/figures/ from a run's table."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from searchlab.errors import SearchlabError
from searchlab.experiment.api import write_run_report, write_run_tables
from searchlab.analysis.estimators import check_fit_depths
from searchlab.studies.sweep.sweep_export import ESTIMATORS, link_tables, parse_estimators, parse_formats
from searchlab.studies.sweep.sweep_report import CLAIM_CHOICES, run_fit_depths

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


def _estimators(text: str) -> list[str]:
    try:
        return parse_estimators(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _digits(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 8:
        raise argparse.ArgumentTypeError(f"must be an integer in [1, 8]; got {text!r}")
    return int(text)


def _fit_depths(text: str) -> int | str:
    if text == "all":
        return "all"
    try:
        return check_fit_depths(int(text) if text.lstrip("-").isdigit() else text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"must be an integer >= 2 or 'all'; got {text!r}") from e


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
    ap.add_argument("--estimators", type=_estimators, default=None, metavar="NAMES",
                    help="with --tables: the ebf table's estimators, comma-separated from "
                         f"{', '.join(ESTIMATORS)} (default all)")
    ap.add_argument("--columns", default=None, metavar="NAMES",
                    help="with --tables: the identifying columns to keep, comma-separated (default "
                         "all; n, estimate, lo, hi are always kept)")
    ap.add_argument("--digits", type=_digits, default=3,
                    help="with --tables: significant figures in LaTeX and markdown, 1..8 (default 3)")
    ap.add_argument("--fit-depths", type=_fit_depths, default=None, metavar="N",
                    help="the fits' window: the deepest N depths (N >= 2) or 'all' (default: the "
                         "run's fit_depths, 8 unless configured)")
    ap.add_argument("--claims", choices=CLAIM_CHOICES, default="measured",
                    help="a sweep's claims section: the claims this run's rows decide, each judged on "
                         "them (measured, the default), the project's whole claims table (all) or "
                         "none")
    ap.add_argument("--overlay", action="store_true",
                    help="a sweep's report adds the figure of simulated mean leaves against their "
                         "exact expectations (searchlab.theory; i.i.d. trees, natural or random order)")
    args = ap.parse_args(argv)
    for opt in ("estimators", "columns"):
        if getattr(args, opt) is not None and not args.tables:
            ap.error(f"--{opt} applies to the exported tables: add --tables FORMATS")
    run_dir = Path(args.run_dir)
    try:
        fit_depths = (run_fit_depths(run_dir) if args.fit_depths is None
                      else None if args.fit_depths == "all" else args.fit_depths)
        # the tables first: a refused --columns (checked against the run's own table columns)
        # then leaves no new report.md behind
        tables = write_run_tables(run_dir, args.tables, n_resamples=args.resamples,
                                  partial=args.partial, estimators=args.estimators,
                                  columns=args.columns, digits=args.digits,
                                  fit_depths=fit_depths) if args.tables else None
        path = write_run_report(run_dir, fmt=args.format, exact=not args.no_exact,
                                n_resamples=args.resamples, partial=args.partial, fit_depths=fit_depths,
                                claims=args.claims, overlay=args.overlay)
        if tables is not None:
            link_tables(path, tables)
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
