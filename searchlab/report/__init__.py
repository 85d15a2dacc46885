"""Reports of runs: ``build.write_report(run_dir)`` writes report.md and figures for a run from
the generic analysis (searchlab.analysis: estimators, theory, figures, tables) and the claims
registry (searchlab.claims); ``cli`` is the ``searchlab-report RUN_DIR`` command."""
