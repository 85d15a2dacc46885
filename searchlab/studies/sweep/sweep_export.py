"""Every summary table of a run as tidy CSV, LaTeX (booktabs) and markdown, to paste into a paper.

::

    import searchlab, searchlab.export
    tables = searchlab.export.summary_tables(searchlab.load("results/quick/RUN"))
    paths = searchlab.export.write_tables("results/quick/RUN", formats=("csv", "latex"))

or ``searchlab-report RUN --tables csv,latex,md``. The tables (those the run has rows for):

- ``ebf``: one row per configuration of the uniform-tree fits (searchlab.analysis.estimators
  ``summarize``) and estimator (``fit``, ``alpha``, ``parity``, ``per-depth``: of leaves;
  ``rn_bstar``: of nodes; the ``count`` column says which), the fits over the deepest
  ``fit_depths`` depths (8 by default; ``d_min``, ``d_max`` give the window);
- ``policies_vs_perfect``, ``policies_ebf``, ``fail_high_first``: the move-ordering policies'
  tables (searchlab.studies.sweep.policies) per setting, policy and depth;
- ``pruning_effect``: each pruning technique against plain alpha-beta
  (searchlab.studies.sweep.facets).

Tidy: one observation per row, the identifying columns first, then ``n`` (the instances or
positions behind the estimate), ``estimate``, ``lo``, ``hi`` (the 95 % bootstrap CI; empty where
there is none). LaTeX tables use booktabs rules, write each estimate with its CI in brackets
("1.51 [1.48, 1.56]"; an interval of zero width, where every resample gave the same value,
as the value alone), fold every column with one value over all rows into the caption, and
state n in a column and in the caption. ``estimators``, ``columns`` and ``digits`` select
the estimators, the identifying columns and the significant figures. The LaTeX and markdown
writers are written here (a few lines each) rather than through pandas' ``to_latex`` /
``to_markdown``, which need jinja2 and tabulate: the cell layout (estimate and CI in one cell,
``n/a`` for a missing value) is ours either way, and a plain install needs no extra package.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Iterable, Mapping

import numpy as np
import pandas as pd

from searchlab.analysis.format import number
from searchlab.errors import InvalidParameterError
from searchlab.analysis import estimators as E
from searchlab.analysis.estimators import check_fit_depths
from searchlab.studies.sweep import policies as P
from searchlab.studies.sweep.facets import pruning_effect
from searchlab.analysis.markdown_tables import md_table
from searchlab.experiment.store import load

__all__ = ["FORMATS", "ESTIMATORS", "summary_tables", "write_tables", "to_latex", "to_markdown", "parse_formats",
           "parse_estimators", "check_fit_depths", "select_columns", "constant_columns", "link_tables"]

FORMATS = ("csv", "latex", "md")
_SUFFIX = {"csv": ".csv", "latex": ".tex", "md": ".md"}
_CAPTIONS = {
    "ebf": "Leaves EBF per configuration and estimator (R&N b*: nodes; 95 % bootstrap CI over tree instances)",
    "policies_vs_perfect": "Nodes relative to perfect order, geometric mean over instances (95 % bootstrap CI)",
    "policies_ebf": "Nodes EBF per move-ordering policy (fit of nodes; 95 % bootstrap CI over instances/positions)",
    "fail_high_first": "Share of cut events made by the first move searched (pooled; 95 % bootstrap CI over searches)",
    "pruning_effect": "Pruning techniques against plain alpha-beta, paired per instance (node ratio: geometric mean, 95 % bootstrap CI)",
}
_EBF_ESTIMATORS = [("fit", "beff_fit"), ("alpha", "alpha_fit"), ("parity", "parity_growth"),
                   ("per-depth", "beff_dmax"), ("rn_bstar", "rn_bstar")]
#: the ebf table's estimator names (``estimators=`` of summary_tables / write_tables)
ESTIMATORS = tuple(name for name, _ in _EBF_ESTIMATORS)
#: what each estimator counts: R&N b* is of nodes, the others of leaves
_COUNT = {"rn_bstar": "nodes"}
_MEASURES = ("n", "estimate", "lo", "hi")


def parse_estimators(estimators: Iterable[str] | str | None) -> list[str] | None:
    """``"fit,alpha"`` or a list -> the ebf table's estimators, checked (ValueError names the
    allowed ones); None -> None (all)."""
    if estimators is None:
        return None
    names = [e.strip() for e in (estimators.split(",") if isinstance(estimators, str) else estimators)
             if str(e).strip()]
    bad = [e for e in names if e not in ESTIMATORS]
    if bad or not names:
        raise InvalidParameterError(f"estimators must be a non-empty subset of {', '.join(ESTIMATORS)}; got "
                         f"{', '.join(bad) if bad else 'none'}")
    return list(dict.fromkeys(names))


def select_columns(frame: pd.DataFrame, columns: Iterable[str] | str | None) -> pd.DataFrame:
    """``frame`` with only the identifying ``columns`` asked for (those it has) and its measures
    (n, estimate, lo, hi); ``columns`` None keeps every column."""
    if columns is None:
        return frame
    want = [c.strip() for c in (columns.split(",") if isinstance(columns, str) else columns) if c.strip()]
    keep = [c for c in frame.columns if c in want or c in _MEASURES]
    return frame[keep]


def _check_columns(tables: Mapping[str, pd.DataFrame], columns) -> None:
    if columns is None:
        return
    want = [c.strip() for c in (columns.split(",") if isinstance(columns, str) else columns) if c.strip()]
    have = sorted({c for f in tables.values() for c in f.columns if c not in _MEASURES})
    bad = [c for c in want if c not in have]
    if bad or not want:
        raise InvalidParameterError(f"columns must be among this run's table columns {', '.join(have)}; got "
                         f"{', '.join(bad) if bad else 'none'}")


def _tidy(frame: pd.DataFrame, keys: list[str], value: str, lo: str | None, hi: str | None,
          extra: Iterable[str] = ()) -> pd.DataFrame:
    out = frame[[*keys, "n"]].copy()
    out["estimate"] = frame[value].astype(float)
    out["lo"] = frame[lo].astype(float) if lo else math.nan
    out["hi"] = frame[hi].astype(float) if hi else math.nan
    for e in extra:
        out[e] = frame[e]
    return out.reset_index(drop=True)


def summary_tables(table: pd.DataFrame, *, n_resamples: int = 999, estimators: Iterable[str] | str | None = None,
                   fit_depths: int | None = 8) -> dict[str, pd.DataFrame]:
    """The run's summary tables, tidy (see the module docstring), keyed by name; a table the
    run has no rows for is left out. ``table``: the run's rows (``searchlab.load``);
    ``estimators``: the ebf table's (names in :data:`ESTIMATORS`, default all); ``fit_depths``:
    the fits' window, the deepest that many depths (None: all)."""

    chosen = parse_estimators(estimators)
    fit_depths = check_fit_depths(fit_depths)
    out: dict[str, pd.DataFrame] = {}
    trees = table[table["b"].notna()] if "b" in table.columns else table
    if len(trees) and {"b", "d", "leaves", "instance"} <= set(trees.columns):
        trees = trees.assign(**{c: pd.to_numeric(trees[c]) for c in ("b", "d", "leaves", "nodes")
                                if c in trees.columns})
        s = E.summarize(trees, n_resamples=n_resamples, max_fit_depths=fit_depths)
        if len(s):
            keys = [k for k in E.GROUP_KEYS if k in s.columns and s[k].notna().any()]
            parts = []
            for name, col in _EBF_ESTIMATORS:
                if col not in s.columns or (chosen is not None and name not in chosen):
                    continue
                part = _tidy(s, keys, col, col + "_lo", col + "_hi", extra=("d_min", "d_max"))
                part.insert(len(keys), "estimator", name)
                part.insert(len(keys) + 1, "count", _COUNT.get(name, "leaves"))
                parts.append(part[part["estimate"].notna()])
            if parts:
                out["ebf"] = pd.concat(parts, ignore_index=True)
    ok = table[table["status"].astype(str) == "ok"] if "status" in table.columns else table
    if len(ok) and "nodes" in ok.columns:
        df = P.prepare(ok)
        rel = P.relative_to_perfect(df)
        if len(rel):
            out["policies_vs_perfect"] = _tidy(rel, ["setting", "d", "policy"], "ratio", "ratio_lo",
                                               "ratio_hi", extra=("reference",))
        ebf = P.ebf_by_policy(df)
        if len(ebf):
            out["policies_ebf"] = _tidy(ebf, ["setting", "policy", "depths"], "ebf_fit", "ebf_lo",
                                        "ebf_hi", extra=("bbar", "exponent"))
        fhf = P.fail_high_first(df)
        fhf = fhf[fhf["pooled_rate"].notna()] if len(fhf) else fhf
        if len(fhf):
            out["fail_high_first"] = _tidy(fhf, ["setting", "d", "policy"], "pooled_rate",
                                           "pooled_lo", "pooled_hi")
        eff = pruning_effect(ok, n_resamples=n_resamples)
        if len(eff):
            out["pruning_effect"] = _tidy(eff, ["technique", "setting", "policy", "d"], "node_ratio",
                                          "node_ratio_lo", "node_ratio_hi",
                                          extra=("move_changed", "moves_changed", "value_changed"))
    return out


# --------------------------------------------------------------------------- writers

def _degenerate(v, lo, hi) -> bool:
    """A zero-width interval at the estimate: every resample gave the same value."""
    return all(isinstance(x, (int, float)) and math.isfinite(x) for x in (v, lo, hi)) and lo == hi == v


def _est(v, lo, hi, digits: int = 3) -> str:
    """"v [lo, hi]" (``digits`` significant figures), "v" without a CI or with a zero-width
    one, n/a when missing."""
    if not (isinstance(v, (int, float)) and math.isfinite(v)):
        return number(None)
    if not (isinstance(lo, (int, float)) and isinstance(hi, (int, float))
            and math.isfinite(lo) and math.isfinite(hi)) or _degenerate(v, lo, hi):
        return number(v, digits)
    return f"{number(v, digits)} [{number(lo, digits)}, {number(hi, digits)}]"


def constant_columns(frame: pd.DataFrame) -> dict[str, object]:
    """The identifying columns with one value over every row (of a table of two or more rows):
    what a caption can say once instead of a column repeating it."""
    if len(frame) < 2:
        return {}
    out = {}
    for c in frame.columns:
        if c in ("estimate", "lo", "hi"):
            continue
        vals = frame[c].dropna().unique() if frame[c].notna().any() else []
        if frame[c].notna().all() and len(vals) == 1:
            out[c] = vals[0]
    return out


def _display(frame: pd.DataFrame, digits: int = 3, fold: bool = False
             ) -> tuple[list[str], list[list[str]], dict[str, object]]:
    """Header, rows and the folded constant columns (``fold``) for the human-readable
    writers: estimate, lo, hi fused into one "estimate [95 % CI]" cell (a table without them,
    e.g. another study kind's, as it is); every other cell through format.number."""
    fused = {"estimate", "lo", "hi"} <= set(frame.columns)
    folded = constant_columns(frame) if fold else {}
    cols = [c for c in frame.columns if (not fused or c not in ("estimate", "lo", "hi")) and c not in folded]
    at = cols.index("n") + 1 if "n" in cols else len(cols)
    header = cols[:at] + ["estimate [95 % CI]"] + cols[at:] if fused else list(cols)
    rows = []
    for d in frame.to_dict("records"):
        cells = [number(d[c], digits) if not isinstance(d[c], (int, np.integer)) else number(d[c])
                 for c in cols]
        if fused:
            cells.insert(at, _est(d["estimate"], d["lo"], d["hi"], digits))
        rows.append(cells)
    return header, rows, folded


def _caption(caption: str, frame: pd.DataFrame, folded: dict[str, object], digits: int) -> str:
    """The caption with n (its range over the rows), the folded columns and, when some
    interval had zero width, what a value without an interval means."""
    parts = []
    if "n" in frame.columns and len(frame):
        lo_n, hi_n = int(frame["n"].min()), int(frame["n"].max())
        parts.append((f"n = {lo_n}" if lo_n == hi_n else f"n = {lo_n}--{hi_n}") + " per row")
    parts += [f"{k} = {number(v, digits)}" for k, v in folded.items() if k != "n"]
    if {"estimate", "lo", "hi"} <= set(frame.columns) and any(
            _degenerate(*t) for t in frame[["estimate", "lo", "hi"]].itertuples(index=False)):
        parts.append("a value without an interval is exact: every instance gave it")
    text = "; ".join(parts)
    if not text:
        return caption
    return f"{caption} ({text})" if caption else text


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "·": r"$\cdot$", "√": r"$\sqrt{}$",
                  "α": r"$\alpha$", "b̄": r"$\bar b$", "–": "--", "−": "-"}


def _tex(text: str) -> str:
    out = str(text)
    # longest keys first: "b̄" before "b"-free single characters
    for k in sorted(_LATEX_SPECIAL, key=len, reverse=True):
        if len(k) > 1:
            out = out.replace(k, "\0" + k + "\0")
    parts = out.split("\0")
    res = []
    for p in parts:
        if p in _LATEX_SPECIAL and len(p) > 1:
            res.append(_LATEX_SPECIAL[p])
        else:
            res.append("".join(_LATEX_SPECIAL.get(ch, ch) for ch in p))
    return "".join(res)


def to_latex(frame: pd.DataFrame, *, caption: str = "", label: str = "", digits: int = 3,
             fold_constant: bool = True, context: Mapping[str, object] | None = None) -> str:
    """A booktabs ``table`` environment: the estimate and its 95 % CI in one cell (the value
    alone where the interval has zero width), ``digits`` significant figures, n in its own
    column (unless constant) and in the caption (the range of n over the rows), every column
    with one value over all rows folded into the caption (``fold_constant``), and ``context``
    (more column = value pairs the rows share) said there too."""
    header, rows, folded = _display(frame, digits, fold_constant)
    caption = _caption(caption, frame, {**folded, **(context or {})}, digits)
    numeric = {c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])}
    align = "".join("r" if (h in numeric or h == "estimate [95 % CI]") else "l" for h in header)
    lines = [r"\begin{table}[htbp]", r"\centering", rf"\begin{{tabular}}{{{align}}}", r"\toprule",
             " & ".join(_tex(h) for h in header) + r" \\", r"\midrule"]
    lines += [" & ".join(_tex(c) for c in r) + r" \\" for r in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    if caption:
        lines.append(rf"\caption{{{_tex(caption)}}}")
    if label:
        lines.append(rf"\label{{{label}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def to_markdown(frame: pd.DataFrame, *, digits: int = 3, fold_constant: bool = True,
                context: Mapping[str, object] | None = None) -> str:
    """A markdown table (searchlab.analysis.markdown_tables.md_table) with the estimate and CI
    in one cell, ``digits`` significant figures, the constant columns (``fold_constant``) and
    n stated in a line above it (with ``context``, as :func:`to_latex`)."""
    header, rows, folded = _display(frame, digits, fold_constant)
    note = _caption("", frame, {**folded, **(context or {})}, digits)
    return (f"{note}\n\n" if note else "") + md_table(header, rows) + "\n"


def parse_formats(formats: Iterable[str] | str) -> list[str]:
    """``"csv,latex"`` or a list -> the formats, checked (ValueError names the allowed ones)."""
    return _formats(formats)


def link_tables(report: Path | str, paths: Iterable[Path]) -> None:
    """Append an "Exported tables" section to ``report`` linking ``paths`` (relative to it)."""
    report = Path(report)
    links = []
    for p in paths:
        try:
            rel = Path(p).resolve().relative_to(report.parent.resolve()).as_posix()
        except ValueError:
            rel = str(p)
        links.append(f"[{Path(p).name}]({rel})")
    if links:
        with report.open("a", encoding="utf-8") as f:
            f.write("\n## Exported tables\n\nTidy CSV (estimate, lo, hi), LaTeX (booktabs, CI in "
                    "brackets, n stated) and markdown, written by searchlab.export: "
                    + " · ".join(links) + "\n")


def _formats(formats: Iterable[str] | str) -> list[str]:
    fs = [f.strip() for f in (formats.split(",") if isinstance(formats, str) else formats) if f.strip()]
    bad = [f for f in fs if f not in FORMATS]
    if bad or not fs:
        raise InvalidParameterError(f"formats must be a non-empty subset of {', '.join(FORMATS)}; got "
                         f"{', '.join(bad) if bad else 'none'}")
    return list(dict.fromkeys(fs))


def write_tables(run: Path | str | pd.DataFrame, out_dir: Path | str | None = None, *,
                 formats: Iterable[str] | str = FORMATS, n_resamples: int = 999,
                 tables: Mapping[str, pd.DataFrame] | None = None,
                 estimators: Iterable[str] | str | None = None, columns: Iterable[str] | str | None = None,
                 digits: int = 3, fit_depths: int | None = 8, partial: bool = False) -> list[Path]:
    """Write every summary table of ``run`` (a run directory or its loaded table) as
    ``out_dir/<name>.csv`` / ``.tex`` / ``.md`` (``out_dir`` default: ``RUN/tables``; required
    for a DataFrame). ``formats``: a subset of csv, latex, md (a list or "csv,latex");
    ``estimators``: the ebf table's (:data:`ESTIMATORS`; default all); ``columns``: the
    identifying columns to keep (default all; n, estimate, lo, hi are always kept);
    ``digits``: significant figures in LaTeX and markdown (1-8; CSV keeps full precision);
    ``fit_depths``: the fits' window (the deepest that many depths; None: all). Returns the
    paths written. Raises ValueError, naming what is allowed, for a bad value of any of them
    (before anything is written). ``tables``: the tables to write (default:
    :func:`summary_tables` of the run's rows, read with ``partial``)."""
    fs = _formats(formats)
    parse_estimators(estimators)
    check_fit_depths(fit_depths)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 8:
        raise InvalidParameterError(f"digits must be an integer in [1, 8]; got {digits!r}")
    if isinstance(run, pd.DataFrame):
        if out_dir is None:
            raise InvalidParameterError("out_dir is required when run is a table, not a run directory")
        table = run
    else:
        table = load(run, partial=partial) if tables is None else None
        out_dir = Path(run) / "tables" if out_dir is None else out_dir
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tables = summary_tables(table, n_resamples=n_resamples, estimators=estimators, fit_depths=fit_depths) \
        if tables is None else tables
    _check_columns(tables, columns)
    paths = []
    for name, full in tables.items():
        frame = select_columns(full, columns)
        # a constant column left out by ``columns`` is still said once, in the caption
        said = {k: v for k, v in constant_columns(full).items() if k not in frame.columns}
        caption = _CAPTIONS.get(name, name)
        if name == "ebf":
            caption += (f"; fits over the deepest {fit_depths} depths measured" if fit_depths
                        else "; fits over every depth measured")
        for f in fs:
            p = out_dir / f"{name}{_SUFFIX[f]}"
            if f == "csv":
                frame.to_csv(p, index=False)
            elif f == "latex":
                p.write_text(to_latex(frame, caption=caption, label=f"tab:{name}", digits=digits, context=said),
                             encoding="utf-8")
            else:
                p.write_text(to_markdown(frame, digits=digits, context=said), encoding="utf-8")
            paths.append(p)
    return paths
