"""Every command and Python snippet in README.md and docs/*.md runs as written, and
docs/config.md names every key of the config schema (the engine's and the trade-off section's).

Commands are the lines of code blocks (indented or fenced) that start with a program searchlab
installs or uses (``searchlab``, ``.venv/bin/python`` ...); a line ending in ``\\`` continues on
the next. Each runs at a tiny size: ``SIZE`` lists the overrides appended per program, or per
``-m MODULE`` for ``python -m`` (Hydra and argparse take the last value of a key). A command
that cannot run here says why in ``SKIP`` (matched by substring); a new command in the docs
must either run or be listed there.
Documented failures (``$ searchlab ...`` followed by ``searchlab: error: ...``) must fail with
exactly that line. Python snippets are the ```python blocks, run as they are.

To extend: add a program to ``PROGRAMS`` (and its size overrides to ``SIZE``), or a reason to
``SKIP``. The runs are slow (``pytest -m slow tests/test_docs.py``); listing them is not.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shlex
import subprocess
import sys
import typing
from dataclasses import dataclass
from pathlib import Path

import pytest

from searchlab.studies.parallel.parallel_study import GameBlock, ParallelSection, TreeBlock
from searchlab.experiment.schema import ExperimentConfig
from searchlab.studies.tradeoff.tradeoff_config import TradeoffSection

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent

#: program as written -> how to run it here
PROGRAMS = {
    "searchlab": [str(BIN / "searchlab")],
    ".venv/bin/searchlab": [str(BIN / "searchlab")],
    "searchlab-report": [str(BIN / "searchlab-report")],
    "searchlab-warm-up": [str(BIN / "searchlab-warm-up")],
    ".venv/bin/searchlab-warm-up": [str(BIN / "searchlab-warm-up")],
    ".venv/bin/python": [sys.executable],
    "python": [sys.executable],
    "python3": [sys.executable],
}
#: overrides appended to make a run tiny (a study's own keys stay as written before them)
TINY_STUDY = ["sweep.instances=1", "sweep.d_budget=2000", "runner.n_jobs=1",
              "runner.progress=false", "runner.max_nodes=100000000"]
#: python -m MODULE would be keyed "-m MODULE"; the claims' commands are written at size small
#: (seconds) and run as written
SIZE = {"searchlab": TINY_STUDY, ".venv/bin/searchlab": TINY_STUDY}
#: the trade-off study (experiment=unsound_tradeoff...) at tiny size: one small incremental tree
TINY_TRADEOFF = ["tradeoff.domain=incremental", "tradeoff.domains.incremental.positions=1",
                 "tradeoff.domains.incremental.depth=3", "tradeoff.domains.incremental.b=3",
                 "tradeoff.domains.incremental.correlations=[0.0]",
                 "tradeoff.domains.incremental.probcut_fit.positions=4", "runner.n_jobs=1",
                 "runner.progress=false"]
#: commands that do not run here, and why (substring -> reason)
SKIP = {
    "pip install": "installs the package (tests/test_wheel.py builds and installs a wheel)",
    "analysis/reproduce.py": "the full reproduction (tests/analysis/test_reproduce.py)",
    "hydra/launcher=submitit_slurm": "needs a SLURM cluster",
    "runner.address=tcp://": "needs a running Dask scheduler",
    "runner=dask": "starts a Dask cluster (tests/experiment/test_dask.py)",
    "runner.resume=results/": "names a run directory of the reader's own",
    "experiment=NAME": "a template, not a command",
    "searchlab lab --port": "starts a server that runs until stopped (tests/lab/test_browser.py serves the app)",
}


@dataclass(frozen=True)
class Command:
    source: str          # file:line
    text: str            # the command as written (continuations joined)
    error: str = ""      # the documented error line, for "$ ..." examples that fail


def _blocks(text: str):
    """(first line number, lines, fence language) of every code block."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        fence = re.match(r"^```(\w*)", lines[i])
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            yield i + 2, lines[i + 1:j], fence[1] or "text"
            i = j + 1
        elif lines[i].startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                j += 1
            yield i + 1, [ln[4:] for ln in lines[i:j]], "indented"
            i = j
        else:
            i += 1


def commands() -> list[Command]:
    out = []
    for doc in DOCS:
        for start, block, lang in _blocks(doc.read_text()):
            if lang == "python":
                continue
            k = 0
            while k < len(block):
                line, where = block[k], f"{doc.relative_to(ROOT)}:{start + k}"
                text = line[2:] if line.startswith("$ ") else line
                words = text.split()
                prog = words[0] if words else ""
                if prog == "time" and len(words) > 1:
                    prog = words[1]
                if prog not in PROGRAMS:
                    k += 1
                    continue
                while text.rstrip().endswith("\\") and k + 1 < len(block):
                    k += 1
                    text = text.rstrip()[:-1] + " " + block[k].strip()
                error = ""
                if line.startswith("$ ") and k + 1 < len(block) and "error:" in block[k + 1]:
                    error = block[k + 1].strip()
                out.append(Command(where, text, error))
                k += 1
    return out


def snippets() -> list[tuple[str, str]]:
    return [(f"{doc.relative_to(ROOT)}:{start}", "\n".join(block))
            for doc in DOCS for start, block, lang in _blocks(doc.read_text()) if lang == "python"]


def _argv(cmd: Command) -> list[str]:
    text = re.sub(r"\s+#.*$", "", cmd.text)              # a trailing comment
    words = shlex.split(text)
    if words[0] == "time":
        words = words[1:]
    prog = words[0]
    python = "python" in prog
    key = f"-m {words[2]}" if python and len(words) > 2 and words[1] == "-m" else prog
    size = [] if cmd.error or "--cfg" in words or "--help" in words or words[1:2] == ["lab"] \
        else SIZE.get(key, [])
    if size and any(w.startswith("experiment=unsound_tradeoff") for w in words):
        size = TINY_TRADEOFF
    if size and any(w.startswith("experiment=parallel") for w in words):
        # the parallel study's size is its block lists: the tiny preset in their place
        words = [("experiment=parallel_tiny" if w.startswith("experiment=parallel") else w)
                 for w in words]
        size = ["runner.n_jobs=1", "runner.progress=false"]
    if "-m" in words and not python:          # a key a multirun sweeps keeps its jobs
        swept = {w.split("=")[0] for w in words if "=" in w and "," in w.split("=", 1)[1]}
        size = [o for o in size if o.split("=")[0] not in swept]
    return PROGRAMS[prog] + words[1:] + size


def _skip_reason(cmd: Command) -> str | None:
    return next((why for key, why in SKIP.items() if key in cmd.text), None)


def test_commands_are_found_and_every_skip_is_used():
    found = commands()
    texts = [c.text for c in found]
    assert any("experiment=knuth_moore --cfg job" in t for t in texts), texts
    assert any(c.error.startswith("searchlab: error:") for c in found)     # docs/config.md
    assert sum(_skip_reason(c) is None for c in found) >= 10, texts
    stale = [key for key in SKIP if not any(key in t for t in texts)]
    assert not stale, f"SKIP entries matching no command: {stale}"
    assert any("from searchlab import" in code for _, code in snippets())


@pytest.mark.slow
@pytest.mark.parametrize("cmd", commands(), ids=lambda c: c.source)
def test_command_runs_as_written(cmd, tmp_path):
    why = _skip_reason(cmd)
    if why:
        pytest.skip(why)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # benchmarks/ and analysis/ are paths relative to the repository; everything else runs in
    # an empty directory so that its results/ land there
    at_root = any(f" {d}/" in cmd.text for d in ("benchmarks", "analysis"))
    out = subprocess.run(_argv(cmd), cwd=ROOT if at_root else tmp_path,
                         env=env, capture_output=True, text=True, timeout=900)
    if cmd.error:
        assert out.returncode != 0
        assert out.stderr.strip().splitlines()[-1] == cmd.error
    else:
        assert out.returncode == 0, f"{cmd.source}: {cmd.text}\n{out.stderr[-2000:]}"


@pytest.mark.slow
@pytest.mark.parametrize("where, code", snippets(), ids=lambda x: x if ":" in str(x) else "")
def test_python_snippet_runs(where, code, tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"{where}\n{out.stderr[-2000:]}"


def _schema_keys(cls, seen=None):
    """(class name, field name) of every field of a config dataclass and of those inside it."""
    seen = set() if seen is None else seen
    if cls in seen:
        return []
    seen.add(cls)
    out = []
    for f in dataclasses.fields(cls):
        out.append((cls.__name__, f.name))
        hint = typing.get_type_hints(cls)[f.name]
        for arg in (hint, *typing.get_args(hint), *(a for t in typing.get_args(hint)
                                                    for a in typing.get_args(t))):
            if dataclasses.is_dataclass(arg):
                out += _schema_keys(arg, seen)
    return out


def test_config_md_documents_every_schema_key():
    text = (ROOT / "docs" / "config.md").read_text()
    keys = _schema_keys(ExperimentConfig) + _schema_keys(TradeoffSection) \
        + _schema_keys(ParallelSection) + _schema_keys(TreeBlock) + _schema_keys(GameBlock)
    assert len(keys) > 60, keys
    missing = [f"{cls}.{name}" for cls, name in keys
               if not re.search(rf"`[^`\s]*\b{name}`|\b{name}: ", text)]
    assert not missing, f"docs/config.md does not document: {missing}"


def test_readme_layout_names_every_package_folder():
    text = (ROOT / "README.md").read_text()
    folders = [p.name for p in (ROOT / "searchlab").iterdir()
               if p.is_dir() and not p.name.startswith(("_", "."))]
    assert len(folders) >= 10, folders
    missing = [f for f in folders if f"| `searchlab/{f}/` |" not in text]
    assert not missing, f"README.md's layout table does not name: {missing}"


def _doc_table(marker: str) -> list[str]:
    text = (ROOT / "docs" / "config.md").read_text()
    body = text.split(f"<!-- {marker} -->", 1)[1].split(f"<!-- /{marker} -->", 1)[0]
    return [row.split("|")[1].strip() for row in body.strip().splitlines()[2:]]


def test_the_misuse_list_in_the_docs_is_the_tests_list():
    """docs/config.md, "What is refused": the rows are exactly the inputs the misuse tests run
    (tests/experiment/test_cli_misuse.py MISUSE_23, test_misuse_api.py API_MISUSE)."""
    from tests.experiment.test_cli_misuse import BIG, EPD_DIR, MISUSE_23
    from tests.experiment.test_misuse_api import API_MISUSE
    cli = ["`searchlab " + " ".join(a).replace(BIG, "<10**400>").replace(EPD_DIR, "DIR") + "`"
           for a, _ in MISUSE_23]
    assert _doc_table("misuse-cli") == cli
    assert _doc_table("misuse-api") == [name for name, _, _ in API_MISUSE]
