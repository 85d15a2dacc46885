"""The experiment engine: Hydra-configured sweeps, run in parallel, into a resumable Parquet store.

- ``config.py``: the structured-config schema and validation (-> ``Study``);
- ``grid.py``: the grid -> tasks, derived seeds, the budget guard; ``budget.py``: estimates;
- ``games.py``: game studies: position sources, seeded samples, rebuilding a position;
- ``runner.py``: joblib (loky / dask) execution, batching, crash recovery;
- ``store.py``: atomic Parquet parts, resume, ``load``; ``provenance.py``: versions, commit;
- ``api.py``: ``run_study(experiment, overrides, output_dir)``, ``run``, ``compose``.

Only ``config.py``, ``api.py`` and ``searchlab/cli.py`` touch Hydra; importing this package
does not import Hydra.
"""
