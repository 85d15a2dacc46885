"""Analysis: the generic parts every run's report uses.

- ``estimators``: b_eff per depth, parity-corrected growth, least-squares fits with a parity
  term, Russell & Norvig's b*, bootstrap CIs over tree instances; ``summarize(table)``.
- ``theory``: Knuth–Moore minimal tree, Pearl's R_b, the b / b^(3/4) / √b curves, depth
  reachable for a node budget, the chess arithmetic of the background notes.
- ``figures``: the figures (matplotlib, Agg backend, Okabe–Ito palette).
- ``policies``: tables and figures of move-ordering policy studies (games, dynamic orderings).
- ``tables``: markdown tables; ``format``: the one number formatter (``number``, ``percent``).
- ``stats``: paired ratios with bootstrap CIs, Holm's correction, pentanomial/trinomial match
  statistics with the smallest detectable Elo, verdict kinds ("not shown at this power").
- the rigor studies, each with its report section: ``convergence`` (paired growth
  per depth, the extrapolated limit, counts against the formulas, the exponent's sensitivity),
  ``worstcase`` (the most leaves over all orderings), ``nodetypes`` (PV/CUT/ALL against the
  minimal tree, via ``instrumented``: alpha-beta counting node types, tie cuts and the strict
  cut rule), ``discrete`` (Pearl's critical case, ties and the cut rule), ``costs`` (static
  evaluations, TT probes and re-searches next to nodes; a cost column).

The claims registry and verdicts are ``searchlab.claims``; a run's report.md is
``searchlab.report``. Import the submodules directly (``from searchlab.analysis import
estimators``); importing this package loads neither matplotlib nor the search engine.
"""
