"""The study families, one folder each: a family's planning, task bodies, summaries, verdicts
and report section live together (docs/architecture.md).

- ``sweep``: the default kind, searches over a grid of trees or positions (the grid itself and
  its search task are the engine's, ``experiment.grid``): its session, report.md, the
  move-ordering policies and pruning sections, the tables' export;
- ``ordering``: ordering techniques measured for the claims (iterative deepening, TT, game
  orders, their costs), the deep ordering studies' paired comparisons, chess, unsound pruning;
- ``tradeoff``: the unsound-pruning trade-off study (its kind, tasks, matches and report);
- ``parallel``: the parallel alpha-beta study (its kind, task bodies, verdict and report);
- ``chance``, ``multiplayer``: the claim families run by the claim-study kind;
- ``rigor``: the rigor measurements (finite-depth convergence, exact random-order
  expectations, the worst case, node types, Pearl's critical case);
- ``claim_study``: the claim-study kind that runs a family's steps on the engine;
- ``claims``: the claims registry (it reads every family's verdicts), the verdict records and
  the claims checked by exact computation and arithmetic.

Import the modules directly (``from searchlab.studies.claims import registry``).
"""
