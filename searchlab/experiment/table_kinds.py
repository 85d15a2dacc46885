"""The kinds of table a run can hold, one schema per task kind, and recognising a part's kind.

``searchlab.load`` reads a part only when its columns are those of a known kind (an older
part may lack columns added since: they become nulls); anything else is refused with an error
naming the file, never read back as mostly empty rows.

- ``search``: one row per search task (experiment/store.py SCHEMA; results/README.md);
- each study kind's own tables, declared in its record (``StudyKind.table_kinds``: the
  trade-off study's studies/tradeoff/tradeoff_schemas.py, the parallel study's
  studies/parallel/parallel_schema.py), found through experiment/kind_registry.py.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa

from searchlab.errors import SearchlabError


class UnknownTableError(SearchlabError, ValueError):
    """A Parquet file whose columns are not those of any table searchlab writes."""


def kind_of(schema: pa.Schema, path: Path, kinds: dict[str, tuple[pa.Schema, frozenset]]) -> str:
    """The kind of a part with this ``schema``: its columns all belong to the kind's schema and
    include the kind's key columns. ``kinds``: name -> (schema, key columns).

    Raises UnknownTableError naming ``path`` when no kind fits."""
    names = set(schema.names)
    for kind, (full, keys) in kinds.items():
        if keys <= names and names <= set(full.names):
            return kind
    shown = ", ".join(sorted(names)[:8]) + (" ..." if len(names) > 8 else "")
    raise UnknownTableError(
        f"searchlab.load: {path} is not a table searchlab writes (columns {shown}); known "
        f"kinds: {', '.join(kinds)}")
