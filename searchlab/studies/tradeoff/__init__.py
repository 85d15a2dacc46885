"""The unsound-pruning trade-off study as task kinds of the engine (docs/tradeoff.md).

``searchlab experiment=unsound_tradeoff`` runs it: config.py (the preset's ``tradeoff``
section -> TradeoffConfig), domains.py (positions and their games), measure.py (the task
bodies: every technique on one position against the exact truth; one match), tasks.py (the
tasks, their rows and the run through experiment/runner.py). Its report is
searchlab/report/tradeoff.py. Docs: docs/tradeoff.md.
"""
