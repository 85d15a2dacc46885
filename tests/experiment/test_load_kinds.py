"""searchlab.load refuses a table whose schema it does not know, naming the file."""

from __future__ import annotations

import pandas as pd
import pytest

from searchlab import load
from searchlab.experiment import store
from searchlab.experiment.table_kinds import UnknownTableError


def test_a_foreign_parquet_file_is_refused_by_name(tmp_path):
    run = tmp_path / "run"
    (run / store.TABLE_DIR).mkdir(parents=True)
    foreign = run / store.TABLE_DIR / "part-00000.parquet"
    pd.DataFrame({"domain": ["x"], "value": [1.0]}).to_parquet(foreign)
    with pytest.raises(UnknownTableError, match="part-00000.parquet is not a table searchlab writes"):
        load(run)


def test_an_older_search_part_with_fewer_columns_is_read():
    from searchlab.experiment.table_kinds import kind_of

    old = store.SCHEMA.remove(store.SCHEMA.get_field_index("solved"))
    assert kind_of(old, "old.parquet", store.KINDS) == "search"
