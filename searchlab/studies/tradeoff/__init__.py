"""The unsound-pruning trade-off study (docs/tradeoff.md), run by
``searchlab experiment=unsound_tradeoff``: ``tradeoff_config`` (the preset's ``tradeoff``
section -> TradeoffConfig), ``domains`` (positions and their games), ``tradeoff_estimate`` (the
budget guard's estimates), ``tradeoff_measure`` (the task bodies: every technique on one
position against the exact truth; one match), ``tradeoff_tasks`` (the kind: tasks, rows, the
session), ``tradeoff_tables`` (the row schemas), ``matches`` (per-pairing summaries of game
pairs), ``clock_rows`` (the clock's noise, load and nodes per CPU second as the game rows
recorded them during the run), ``tradeoff_report`` and ``matches_report`` (report.md).
"""
