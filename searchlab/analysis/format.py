"""The one number formatter of every report, verdict and table searchlab writes.

``number(x)``: ``n/a`` for a missing or non-finite value, ``yes``/``no`` for booleans, exact
integers with thousands separators (counts are exact: never rounded), floats to ``digits``
significant figures, with thousands separators from 1,000 to 99,999 and as ``m·10^e`` from
10^5 up or below 10^-3; anything else as its text (``n/a`` when empty).
``percent(x)``: a fraction as ``12.3 %``.
``interval(value, low, high)``: an estimate with its confidence interval, ``1.92 [1.73, 2.13]``.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from typing import Any

import numpy as np

NO_DATA = "n/a"


def number(x: Any, digits: int = 3) -> str:
    """x formatted for a report (see the module docstring)."""
    if x is None:
        return NO_DATA
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, Integral):
        return f"{int(x):,}"
    if isinstance(x, Real):
        x = float(x)
        if not math.isfinite(x):
            return NO_DATA
        ax = abs(x)
        if 1e3 <= ax < 1e5:
            return f"{x:,.0f}"
        if ax != 0 and (ax >= 1e5 or ax < 1e-3):
            m, e = f"{x:.{digits - 1}e}".split("e")
            return f"{m}·10^{int(e)}"
        return f"{x:.{digits}g}"
    s = str(x).replace("\n", " ").strip()
    return s if s else NO_DATA


def percent(x: Any) -> str:
    """A fraction as a percentage with one decimal ("12.3 %"); n/a when missing."""
    if x is None or not math.isfinite(float(x)):
        return NO_DATA
    return f"{100 * float(x):.1f} %"


def interval(value: float, low: float, high: float, spec: str = ".3g", no_ci: str = "") -> str:
    """``value [low, high]`` with each number formatted by ``spec`` (a format spec such as
    ".3g" or ".2f"); n/a when the value is missing or not finite; the value followed by
    ``no_ci`` when either bound is not finite."""
    if value is None or not math.isfinite(float(value)):
        return NO_DATA
    if low is None or high is None or not (math.isfinite(float(low)) and math.isfinite(float(high))):
        return f"{value:{spec}}{no_ci}"
    return f"{value:{spec}} [{low:{spec}}, {high:{spec}}]"


_TREE_NAMES = {"iid": "i.i.d. tree", "ordered": "ordered tree", "incremental": "incremental tree",
               "explicit": "explicit tree"}
_SETTING_KEYS = {"b": "$b = {}$", "levels": "{} leaf values", "p": "$p = {}$", "decay": "decay {}",
                 "corr": "correlation {}"}


def panel_title(setting: str) -> str:
    """A figure panel's title for a setting key of the policies' tables (``"iid b=2 levels=0"``
    -> ``"i.i.d. tree, $b = 2$"``): the tree model in words, ``levels=0`` (continuous values)
    left out, the other parameters in words; a game's setting is returned unchanged."""
    parts = str(setting).split()
    if not parts or parts[0] not in _TREE_NAMES or not all("=" in p for p in parts[1:]):
        return str(setting)
    out = [_TREE_NAMES[parts[0]]]
    for p in parts[1:]:
        key, _, value = p.partition("=")
        if key == "levels" and value in ("0", "0.0"):
            continue
        out.append(_SETTING_KEYS.get(key, key + " {}").format(value))
    return ", ".join(out)
