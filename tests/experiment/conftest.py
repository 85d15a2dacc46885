"""Fixtures and the in-process CLI runner of the experiment-engine tests (subprocess helpers live in
experiment_helpers.py)."""

from __future__ import annotations

import sys

import pytest

from searchlab import cli

from .experiment_helpers import SMALL


@pytest.fixture
def small() -> list[str]:
    return list(SMALL)


def run_main(monkeypatch, capsys, *argv: str) -> tuple[int, str, str]:
    """Run ``searchlab *argv`` in this process; (exit code, stdout, stderr).

    A SystemExit is caught and its code returned (0 when main returns); stdout is re-pointed at the
    current sys.stdout because main's wrapper may replace it (monkeypatch restores it afterwards)."""
    monkeypatch.setattr(sys, "argv", ["searchlab", *argv])
    monkeypatch.setattr(sys, "stdout", sys.stdout)
    try:
        cli.main()
        code = 0
    except SystemExit as e:
        code = e.code
    out, err = capsys.readouterr()
    return code, out, err
