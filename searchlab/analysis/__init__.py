"""Analysis: the generic parts every run's report uses.

- ``estimators``: b_eff per depth, parity-corrected growth, least-squares fits with a parity
  term, Russell & Norvig's b*, bootstrap CIs over tree instances; ``summarize(table)``.
- ``theory``: Knuth–Moore minimal tree, Pearl's R_b, the b / b^(3/4) / √b curves, depth
  reachable for a node budget, the chess arithmetic of the background notes.
- ``figures``: the figures (matplotlib, Agg backend, Okabe–Ito palette).
- ``policies``: tables and figures of move-ordering policy studies (games, dynamic orderings).
- ``tables``: markdown tables; ``format``: the one number formatter (``number``, ``percent``).

The claims registry and verdicts are ``searchlab.claims``; a run's report.md is
``searchlab.report``. Import the submodules directly (``from searchlab.analysis import
estimators``); importing this package loads neither matplotlib nor the search engine.
"""
