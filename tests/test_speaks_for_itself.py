"""The project speaks for itself: no text a clone's reader sees (code, configs, presets, docs,
tests) cites the project's issue tracker by number or a path outside the clone (the course
notes, the shared folder); docs/claims.md and the notes' titles are cited instead.

The benchmarks may name ../shared/bench/, the default location of the C yardstick they build
(an option: the yardstick is not part of the clone), and nothing else outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ISSUE = re.compile(r"\bissues? \d+\b|\(#\d+\)")
OUTSIDE = re.compile(r"\.\./shared|\bbackground/0\d\d")
SCANNED = ("searchlab", "conf", "experiments", "docs", "tests", "benchmarks", "analysis/README.md",
           "analysis/reproduce.py", "README.md", "results/README.md")


def _files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", *SCANNED], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:   # not a git checkout (an unpacked sdist): scan the folders themselves
        return [p for s in SCANNED for p in ([ROOT / s] if (ROOT / s).is_file() else (ROOT / s).rglob("*"))
                if p.is_file() and p.suffix in (".py", ".md", ".yaml", ".html", ".js", ".css", "")]
    return [ROOT / f for f in out.stdout.split() if (ROOT / f).is_file()]


def _offending(path: Path) -> list[str]:
    if path.name == Path(__file__).name or path.suffix in (".parquet", ".png", ".pdf", ".npz"):
        return []
    try:
        text = path.read_text()
    except UnicodeDecodeError:
        return []
    bad = []
    for k, line in enumerate(text.splitlines(), 1):
        outside = OUTSIDE.search(line)
        if outside and path.parts[len(ROOT.parts)] == "benchmarks" and "../shared/bench" in line:
            outside = None
        if ISSUE.search(line) or outside:
            bad.append(f"{path.relative_to(ROOT)}:{k}: {line.strip()[:100]}")
    return bad


def test_no_issue_numbers_or_outside_paths():
    bad = [b for p in _files() for b in _offending(p)]
    assert not bad, "texts citing an issue number or a path outside the clone:\n" + "\n".join(bad)


def test_the_check_finds_what_it_looks_for(tmp_path, monkeypatch):
    monkeypatch.setattr("tests.test_speaks_for_itself.ROOT", tmp_path)
    (tmp_path / "docs").mkdir()
    f = tmp_path / "docs" / "x.md"
    f.write_text("fine\nsee issue 23\nthe notes at ../shared/background/000.md\n")
    assert [b.split(":")[1] for b in _offending(f)] == ["2", "3"]
