"""Analysis: pure functions of tables that every study's report uses.

- ``estimators``: b_eff per depth, parity-corrected growth, least-squares fits with a parity
  term, Russell & Norvig's b*, bootstrap CIs over tree instances; ``summarize(table)``;
  ``completeness``: which (configuration, depth) cells are complete.
- ``theory``: Knuth–Moore minimal tree, Pearl's R_b, the b / b^(3/4) / √b curves, depth
  reachable for a node budget, the chess arithmetic of the background notes.
- ``figures``: the figures (matplotlib, Agg backend); ``palette``: the Okabe–Ito colours;
  ``labels``: display names.
- ``tables``: markdown tables; ``format``: the one number formatter (``number``, ``percent``).
- ``stats``: paired ratios with bootstrap CIs, Holm's correction, pentanomial/trinomial match
  statistics with the smallest detectable Elo, verdict kinds ("not shown at this power").

What runs searches, plans tasks or writes a report section is a study family's
(searchlab.studies). Import the submodules directly (``from searchlab.analysis import
estimators``); importing this package loads neither matplotlib nor the search engine.
"""
