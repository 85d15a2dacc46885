"""Analysis: effective branching factors with bootstrap CIs, theory curves, figures and reports.

- ``estimators``: b_eff per depth, parity-corrected growth, least-squares fits with a parity
  term, Russell & Norvig's b*, bootstrap CIs over tree instances; ``summarize(table)``.
- ``theory``: Knuth–Moore minimal tree, Pearl's R_b, the b / b^(3/4) / √b curves, depth
  reachable for a node budget, the chess arithmetic of the background notes.
- ``plots``: the figures (matplotlib, Agg backend, Okabe–Ito palette).
- ``claims``: the registry of every claim in ../shared/CLAIMS.md with its verdict function.
- ``report``: ``write_report(run_dir)`` -> run_dir/report.md (also ``searchlab-report RUN_DIR``).

Import the submodules directly (``from searchlab.analysis import estimators``); importing this
package loads neither matplotlib nor the search engine.
"""
