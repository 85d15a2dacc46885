"""The report of a claim-study run (``searchlab experiment=chance|multiplayer|...``): its tables
summarised, the family's verdicts and its report section, each from the family's record
(studies/claim_study/family.py, found by families.py), into run_dir/report.md.
The same functions make ``python -m searchlab.studies.chance.chance_verdicts|multiplayer``'s output and the
sections of analysis/REPORT.md, so the numbers agree."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from searchlab.studies.claims.verdict import Context
from searchlab.studies.claim_study.claim_study import load_tables, run_config
from searchlab.studies.claim_study.families import family

def results(run_dir: str | Path) -> dict:
    """The ``exact`` entries of a claim-study run, computed from its tables."""
    cfg = run_config(run_dir)
    fam = family(cfg.family)
    return fam.entries(fam.summarise(load_tables(run_dir), cfg))


def write_claim_study_report(run_dir: str | Path, fig_format: str = "png") -> Path:
    """Write run_dir/report.md (verdicts with their measurements, then the section's tables
    and figures, as ``fig_format``: png, pdf or svg); returns its path. A run with failed tasks
    gets a note at the top."""
    run_dir = Path(run_dir)
    cfg = run_config(run_dir)
    fam = family(cfg.family)
    title, verdicts, section = fam.title, fam.verdicts, fam.section
    exact = results(run_dir)
    manifest = json.loads((run_dir / "manifest.json").read_text())
    out = [f"# {cfg.study}: {title}", "",
           f"Family `{cfg.family}`, size `{cfg.size}`, seed {cfg.seed}; {manifest['tasks']} tasks; "
           f"tables in {', '.join(f'`{k}/`' for k in load_tables(run_dir))}.", ""]
    if not manifest.get("complete"):
        out += [f"**Incomplete run**: {len(manifest.get('failed') or [])} tasks failed; the figures below "
                "lack their rows.", ""]
    ctx = Context(df=pd.DataFrame(), summary=pd.DataFrame(), exact=exact)
    # the convergence study has no verdict of its own: it checks the exact expectations 000-f
    # is judged on (analysis/REPORT.md)
    out += ["## Verdicts", ""] if verdicts else []
    for fn in verdicts:
        v = fn(ctx)
        out += [f"### {fn.__doc__.strip().splitlines()[0]}", "", v.cell(), "",
                f"Measured: {v.measured}", "", f"Theory: {v.theory}", ""]
    fig_dir = run_dir / "figures"
    fig_dir.mkdir(exist_ok=True)
    out += ["## Results", "", section(exact, fig_dir, fig_format), ""]
    path = run_dir / "report.md"
    path.write_text("\n".join(out))
    return path
