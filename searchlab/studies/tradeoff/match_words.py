"""The words of one pairing's verdict (technique A against sound alpha-beta B, one domain, one
node budget per move), computed from its numbers only.

``pairing_words`` turns a pairing's figures into one of:

- "buys too little depth": the paired 95 % CI of the depth bought (A's mean depth per move minus B's,
  per game pair) lies entirely below the stated minimum gain (``MIN_DEPTH_GAIN``, a quarter
  ply): the run excludes a gain worth having. The technique is meant to buy depth with its
  errors; where it buys none, its Elo says nothing about that trade, so strength is not judged
  (the Elo figures stay in the table);
- "not shown at this power" also when that CI reaches the minimum gain but contains 0 (or
  lies at or below it): the run shows neither a gain nor its absence (+0.49 [−0.21, +1.19]
  plies over 10 pairs is such a case, not "buys too little depth");
- "stronger" / "weaker": the Holm-adjusted p-value of "score = ½" is below the level and the
  Elo CI lies above / below 0;
- "no difference shown at ±X Elo": undecided, and the Elo CI lies within ±X, X at most the
  margin (the run rules out differences larger than X; X is the CI's larger distance from 0,
  not its half width: a CI of [7, 65] rules out nothing below 65);
- "not shown at this power": undecided with a wider CI, or not testable (too few pairs, pairs
  all of one outcome, or too few pairs for a depth CI).
"""

from __future__ import annotations

import math

from searchlab.errors import InvalidParameterError

STRONGER = "stronger"
WEAKER = "weaker"
NOT_SHOWN = "not shown at this power"
NO_DEPTH = "buys too little depth"
NO_DIFFERENCE = "no difference shown at ±{x:.0f} Elo"
#: the smallest depth gain (plies per move, A over B) worth buying: "buys too little depth" needs the
#: depth CI to lie below it
MIN_DEPTH_GAIN = 0.25
#: the largest distance of an Elo CI from 0 at which an undecided pairing is worded "no difference shown"
MARGIN = 50.0


def pairing_words(elo_lo: float, elo_hi: float, p_holm: float, depth_lo: float,
                  depth_hi: float, *, alpha: float = 0.05, margin: float = MARGIN,
                  min_gain: float = MIN_DEPTH_GAIN) -> str:
    """The verdict words of one pairing (the module docstring), in this order of precedence:
    no depth CI (NaN bounds) -> "not shown at this power"; ``depth_hi`` < ``min_gain`` ->
    "buys too little depth"; ``depth_lo`` <= 0 -> "not shown at this power" (a gain neither shown nor
    excluded); ``p_holm`` NaN (not testable) -> "not shown at this power"; ``p_holm`` < ``alpha``
    -> "stronger" (``elo_lo`` > 0) or "weaker" (``elo_hi`` < 0); else "no difference shown at
    ±X Elo" with X = max(|elo_lo|, |elo_hi|) when X <= ``margin``, else "not shown at this
    power". Elo figures are A's over B's; depth in plies. Raises InvalidParameterError for
    alpha outside (0, 1), a negative margin or min_gain, or a CI whose low end exceeds its
    high end."""
    if not 0 < alpha < 1:
        raise InvalidParameterError(f"alpha must lie in (0, 1); got {alpha!r}")
    if not min_gain > 0:
        raise InvalidParameterError(f"min_gain must be > 0 plies; got {min_gain!r}")
    if not margin >= 0:
        raise InvalidParameterError(f"margin must be >= 0 Elo; got {margin!r}")
    for name, lo, hi in (("elo", elo_lo, elo_hi), ("depth", depth_lo, depth_hi)):
        if lo > hi:
            raise InvalidParameterError(f"{name}_lo must not exceed {name}_hi; got {lo} > {hi}")
    if math.isnan(depth_lo) or math.isnan(depth_hi):
        return NOT_SHOWN
    if depth_hi < min_gain:
        return NO_DEPTH
    if depth_lo <= 0:
        return NOT_SHOWN
    if math.isnan(p_holm):
        return NOT_SHOWN
    if p_holm < alpha and elo_lo > 0:
        return STRONGER
    if p_holm < alpha and elo_hi < 0:
        return WEAKER
    bound = max(abs(elo_lo), abs(elo_hi))       # the CI lies within ±bound
    if math.isfinite(bound) and bound <= margin:
        return NO_DIFFERENCE.format(x=bound)
    return NOT_SHOWN
