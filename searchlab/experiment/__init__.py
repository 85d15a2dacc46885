"""The experiment engine: Hydra-configured sweeps, run in parallel, into a resumable Parquet store.

- ``schema.py``: the structured-config dataclasses (``ExperimentConfig``) and ``ConfigError``;
- ``validation.py``: a composed config -> a ``Study`` (every range and name checked);
- ``study.py``: the study records (``Study``, ``TreeSpec``): plain values, the config hash;
- ``composition.py``: Hydra registration, resolvers, one-line composition errors;
- ``seeds.py``: the one seed derivation (root seed + identity);
- ``grid.py``: the grid -> tasks, the budget guard; ``budget.py``: estimates;
- ``session.py``: the session skeleton every study kind runs through (lock, resume, manifest
  with the run's kind, provenance, runner, store, report); the kinds' planners are their
  families' (searchlab.studies.<family>);
- ``games.py``: game studies: position sources, seeded samples, rebuilding a position;
- ``runner.py``: joblib (loky / dask) execution, batching, crash recovery;
- ``store.py``: atomic Parquet parts, resume, ``load``; ``table_kinds.py``: the kinds of table
  a run holds (one schema per task kind); ``provenance.py``: versions, commit;
- ``api.py``: ``run_study(experiment, overrides, output_dir)``, ``run``, ``compose``, a config's
  or a run's kind; ``study_kind.py``: the record of a study kind (``StudyKind``);
  ``kind_registry.py``: the kinds by name, each imported from its family's folder on first use
  (the engine imports no study family).

Only ``composition.py``, ``api.py`` (and ``validation.py``, which turns a DictConfig into plain
values) and ``searchlab/cli.py`` touch Hydra/OmegaConf; importing this package imports none of
them.
"""
