"""Fixtures of the experiment-engine tests (helpers live in experiment_helpers.py)."""

from __future__ import annotations

import pytest

from .experiment_helpers import SMALL


@pytest.fixture
def small() -> list[str]:
    return list(SMALL)
