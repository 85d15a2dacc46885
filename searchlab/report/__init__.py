"""``cli``: the ``searchlab-report RUN_DIR`` command. The report writers are the study families'
(searchlab.studies.<family>), handed to the command by the kind registry (experiment/kind_registry.py)."""
