"""The result store: one tidy Parquet table per run, written incrementally and atomically.

Layout of a run directory (results/README.md documents every column)::

    <run_dir>/
      table/part-00000.parquet, part-00001.parquet, ...   the rows, in completion order
      config.yaml          the resolved config of the run (the validated study's source)
      provenance.json      version, git commit + dirty flag, libraries, machine, sessions
      manifest.json        the last session's outcome: tasks planned, done, ok/aborted/failed
      .hydra/              Hydra's own record (CLI runs only)

Only the process holding the run directory's lock (searchlab/experiment/lock.py) writes it.
Part names are unique (``part-NNNNN-<token>.parquet``, a random token per writer), so no part
is ever overwritten. Each part is written to ``.part-NNNNN-<token>.parquet.<pid>.tmp`` in the
same directory, flushed to disk (fsync), then renamed to its final name with ``os.replace`` —
atomic on POSIX: a reader (or a resumed run) sees a complete part or none, even if the writer
is killed with SIGKILL. A process deletes only its own temporary files and those of dead
processes (on resume). A part that cannot be read on resume is reported by name,
renamed to ``<name>.corrupt`` (kept for inspection) and its tasks are run again; every other
part is kept.
"""

from __future__ import annotations

import glob as _glob
import json
import os
import re
import warnings
from pathlib import Path
from typing import Any, Sequence

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from searchlab.errors import SearchlabError
from searchlab.experiment.lock import pid_alive
from searchlab.experiment.provenance import run_identity
from searchlab.experiment.run_status import (TABLE_DIR, IncompleteRunError, NotARunError,
                                             RunStatus, planned_tasks, recorded_complete,
                                             recorded_parts, refusal, runs_below)
from searchlab.experiment.kind_registry import study_table_kinds
from searchlab.experiment.table_kinds import UnknownTableError, kind_of

#: part-NNNNN.parquet (older runs) or part-NNNNN-<writer token>.parquet
PART_RE = re.compile(r"^part-(\d{5,})(?:-[0-9a-f]{8})?\.parquet$")
#: .part-...parquet.<pid>.tmp: the writer's temporary file, named by its process
TMP_RE = re.compile(r"^\.part-.*\.(\d+)\.tmp$")

#: The table's schema: identifiers, measurements, provenance (results/README.md).
SCHEMA = pa.schema([
    # identifiers
    ("experiment", pa.string()),
    ("tree", pa.string()),
    ("game", pa.string()),
    ("positions", pa.string()),
    ("position", pa.string()),
    ("b", pa.int64()),
    ("d", pa.int64()),
    ("levels", pa.int64()),
    ("win_prob", pa.float64()),
    ("p", pa.float64()),
    ("decay", pa.float64()),
    ("correlation", pa.float64()),
    ("algorithm", pa.string()),
    ("ordering", pa.string()),
    ("pruning", pa.string()),
    ("instance", pa.int64()),
    ("seed", pa.uint64()),
    ("ordering_seed", pa.uint64()),
    ("task_id", pa.string()),
    ("task_index", pa.int64()),
    # measurements
    ("value", pa.float64()),
    ("best_move", pa.string()),
    ("nodes", pa.int64()),
    ("leaves", pa.int64()),
    ("interior", pa.int64()),
    ("cutoffs", pa.int64()),
    ("per_ply", pa.list_(pa.int64())),
    ("search_depth", pa.int64()),
    ("wall_seconds", pa.float64()),
    ("status", pa.string()),
    ("engine", pa.string()),
    ("error", pa.string()),
    ("attempts", pa.int64()),
    ("est_nodes", pa.int64()),
    ("fail_highs", pa.int64()),
    ("first_move_fail_highs", pa.int64()),
    ("fail_high_first_rate", pa.float64()),
    ("re_searches", pa.int64()),
    ("tt_probes", pa.int64()),
    ("tt_hits", pa.int64()),
    ("tt_cutoffs", pa.int64()),
    ("tt_hit_rate", pa.float64()),
    ("iterations", pa.list_(pa.int64())),
    ("last_iteration_nodes", pa.int64()),
    ("q_nodes", pa.int64()),
    ("branching", pa.float64()),
    ("solved", pa.bool_()),
    # provenance
    ("config_hash", pa.string()),
    ("version", pa.string()),
    ("commit", pa.string()),
])
COLUMNS = tuple(SCHEMA.names)
#: Columns that vary between otherwise identical runs (timing, provenance of the session).
NONDETERMINISTIC = ("wall_seconds", "version", "commit", "engine")
#: The search rows' kind of table: name -> (schema, key columns) (experiment/table_kinds.py);
#: the study kinds' own tables are in their records (all_table_kinds)
KINDS = {"search": (SCHEMA, frozenset({"experiment", "task_id", "nodes"}))}


def all_table_kinds() -> dict[str, tuple]:
    """Every kind of table a run can hold: the search rows and each study kind's tables
    (StudyKind.table_kinds; imports the study kinds)."""
    return {**KINDS, **study_table_kinds()}


def table_kind(schema: pa.Schema, path: Path) -> str:
    """The kind of a part: a search part without importing any study kind, else the study
    kinds' tables (UnknownTableError naming ``path`` when none fits)."""
    try:
        return kind_of(schema, path, KINDS)
    except UnknownTableError:
        return kind_of(schema, path, all_table_kinds())


#: The key of a part's Parquet metadata holding its run's identity (config hash, run id).
IDENTITY_KEY = b"searchlab.run"


class MixedRunError(SearchlabError, ValueError):
    """load() was given parts that are not one run's: a part of another run in a run's table
    folder, or a run (or part) named twice; the message names the files."""


class StoreError(OSError):
    """The output directory cannot be written (permissions, full disk, not a directory)."""


def table_dir(run_dir: Path) -> Path:
    return Path(run_dir) / TABLE_DIR


def check_writable(run_dir: Path) -> None:
    """Create run_dir/table and probe a write; StoreError (one line) when impossible."""
    run_dir = Path(run_dir)
    try:
        table_dir(run_dir).mkdir(parents=True, exist_ok=True)
        probe = table_dir(run_dir) / f".probe-{os.getpid()}"
        with open(probe, "wb") as f:
            f.write(b"ok")
            f.flush()
            os.fsync(f.fileno())
        probe.unlink()
    except OSError as e:
        raise StoreError(f"cannot write to output directory {run_dir}: {e.strerror or e}") from None


class PartWriter:
    """Writes rows as numbered Parquet parts, each atomically (tmp file + fsync + os.replace),
    into ``run_dir/folder`` with ``schema`` (one folder per kind of table: table_kinds.py)."""

    def __init__(self, run_dir: Path, folder: str = TABLE_DIR,
                 schema: pa.Schema | None = None) -> None:
        self.dir = Path(run_dir) / folder
        self.schema = SCHEMA if schema is None else schema
        self.dir.mkdir(parents=True, exist_ok=True)
        self.next = 1 + max((int(m[1]) for p in self.dir.iterdir()
                             if (m := PART_RE.match(p.name.removesuffix(".corrupt")))), default=-1)
        self.token = os.urandom(4).hex()
        self.rows_written = 0
        self.identity: dict[str, str] | None = None

    def _identity(self) -> bytes | None:
        # read once the run's provenance.json exists (every study writes it before its rows)
        if self.identity is None:
            self.identity = run_identity(self.dir.parent)
        return None if self.identity is None else json.dumps(self.identity).encode()

    def write(self, rows: Sequence[dict]) -> Path | None:
        if not rows:
            return None
        table = rows_to_table(rows, self.schema)
        ident = self._identity()
        if ident is not None:
            table = table.replace_schema_metadata({**(table.schema.metadata or {}),
                                                   IDENTITY_KEY: ident})
        name = f"part-{self.next:05d}-{self.token}.parquet"
        final = self.dir / name
        tmp = self.dir / f".{name}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                pq.write_table(table, f, compression="zstd")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, final)
            try:
                dfd = os.open(self.dir, os.O_RDONLY)
                try:
                    os.fsync(dfd)
                finally:
                    os.close(dfd)
            except OSError:
                pass
        except OSError as e:
            try:
                tmp.unlink()
            except OSError:
                pass
            raise StoreError(f"cannot write {final}: {e.strerror or e}") from None
        self.next += 1
        self.rows_written += len(rows)
        return final


def rows_to_table(rows: Sequence[dict], schema: pa.Schema = SCHEMA) -> pa.Table:
    cols = {name: [r.get(name) for r in rows] for name in schema.names}
    return pa.table(cols, schema=schema)


def conform(t: pa.Table) -> pa.Table:
    """A part in the current SCHEMA: columns added since the part was written (games, the
    ordering counters) become nulls, an int64 ``best_move`` (older runs) becomes strings."""
    for f in SCHEMA:
        if f.name not in t.column_names:
            t = t.append_column(f.name, pa.nulls(t.num_rows, type=f.type))
    return t.select(list(COLUMNS)).cast(SCHEMA)


def list_parts(run_dir: Path) -> list[Path]:
    d = table_dir(run_dir)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if PART_RE.match(p.name))


def recover(run_dir: Path, quarantine: bool = True) -> tuple[pa.Table | None, list[str]]:
    """Read every part of a run for resuming: (the rows, messages about what was wrong).

    Stale ``.tmp`` files are removed; an unreadable part is reported by name and (with
    quarantine) renamed ``<name>.corrupt`` so the rest is kept and its tasks run again.
    """
    msgs: list[str] = []
    d = table_dir(run_dir)
    if d.is_dir():
        for p in d.iterdir():
            m = TMP_RE.match(p.name)
            # ours (none is in flight while recovering) or a dead process's: unfinished
            if p.name.endswith(".tmp") and (m is None or int(m[1]) == os.getpid()
                                            or not pid_alive(int(m[1]))):
                p.unlink(missing_ok=True)
                msgs.append(f"removed unfinished temporary file {p.name}")
    tables = []
    for p in list_parts(run_dir):
        try:
            t = conform(pq.read_table(p))
        except Exception as e:  # noqa: BLE001 -- any decoding error means a corrupt part
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            msgs.append(f"corrupt part {p.name} ({first}); its tasks will run again"
                        + (f"; kept as {p.name}.corrupt" if quarantine else ""))
            if quarantine:
                os.replace(p, p.with_name(p.name + ".corrupt"))
            continue
        tables.append(t)
    if not tables:
        return None, msgs
    return pa.concat_tables(tables), msgs


def _expand(paths: Any) -> tuple[list[Path], list[Path]]:
    """(the parts named by ``paths``, the run directories named, each once per naming)."""
    if paths is None or isinstance(paths, (bytes, int, float, bool)):
        raise NotARunError(f"searchlab.load: expected a run directory, a folder of runs, a glob, "
                           f"a Parquet part or a list of these; got {paths!r}")
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out: list[Path] = []
    runs: list[Path] = []
    for item in paths:
        if not isinstance(item, (str, os.PathLike)):
            raise NotARunError(f"searchlab.load: expected a path (str or os.PathLike); got "
                               f"{item!r}")
        s = str(item)
        if not s.strip():
            raise NotARunError("searchlab.load: an empty path is not a run; give a run "
                               "directory, a folder of runs, a glob or a Parquet part")
        matches = sorted(_glob.glob(s, recursive=True)) if any(c in s for c in "*?[") else [s]
        if not matches:
            raise NotARunError(f"no run matches {s!r}")
        for m in matches:
            p = Path(m)
            if not p.exists():
                raise NotARunError(f"no such run directory or file: {p}")
            if p.is_file():
                out.append(p)
            elif (p / TABLE_DIR).is_dir():
                out.extend(list_parts(p))
                runs.append(p)
            elif p.name == TABLE_DIR:
                out.extend(list_parts(p.parent))
                runs.append(p.parent)
            elif any(p.glob("part-*.parquet")):   # another kind's folder (a trade-off run's matches/)
                out.extend(sorted(p.glob("part-*.parquet")))
            else:  # a folder of runs (results/, results/<experiment>/): every run below it
                below = runs_below(p)
                if not below:
                    raise NotARunError(f"{p} is not a run directory and holds no run (no "
                                       f"{TABLE_DIR}/ folder below it)")
                for r in below:
                    out.extend(list_parts(r))
                    runs.append(r)
    return out, runs


def _run_of(part: Path) -> Path:
    return part.parent.parent if part.parent.name == TABLE_DIR else part.parent


def part_identity(path: Path, schema: pa.Schema | None = None) -> dict[str, str] | None:
    """The run identity ({"config_hash", "run_id"}) a part carries in its Parquet metadata
    (store.PartWriter); None for a part written before parts carried it."""
    meta = (schema if schema is not None else pq.read_schema(path)).metadata or {}
    raw = meta.get(IDENTITY_KEY)
    try:
        ident = json.loads(raw) if raw else None
    except ValueError:
        return None
    return ident if isinstance(ident, dict) and ident.get("run_id") else None


def _check_named_once(parts: list[Path]) -> None:
    seen: dict[Path, Path] = {}
    for p in parts:
        real = p.resolve()
        if real in seen:
            raise MixedRunError(
                f"searchlab.load: {seen[real]} and {p} are the same file (a run named twice, "
                f"e.g. through a symlink or an overlapping glob); name each run once")
        seen[real] = p


def _foreign(p: Path, t: pa.Table | None, run_id: dict[str, str] | None) -> str | None:
    """Why part p (read as t; None: read what is needed) is not a part of its folder's run
    (None when it is)."""
    if run_id is None:
        return None
    schema = t.schema if t is not None else pq.read_schema(p)
    own = part_identity(p, schema)
    if own is not None:
        if own != run_id:
            return (f"experiment hash {own.get('config_hash')}, run id {own.get('run_id')}; "
                    f"the run's: {run_id['config_hash']}, {run_id['run_id']}")
        return None
    if "config_hash" in schema.names:        # a part of an older writer: its rows' hash
        col = (t if t is not None else pq.read_table(p, columns=["config_hash"])).column("config_hash")
        hashes = {h for h in col.to_pylist() if h}
        if hashes - {run_id["config_hash"]}:
            return (f"experiment hash {', '.join(sorted(hashes))}; the run's: "
                    f"{run_id['config_hash']}")
    return None


def foreign_parts(run_dir: Path, folders: Sequence[str]) -> list[str]:
    """One line for each part in the run's ``folders`` that is not the run's (another run's
    identity, store.PartWriter): what resume refuses. Unreadable parts are left to recover()."""
    ident = run_identity(run_dir)
    out = []
    for f in folders:
        for p in sorted((Path(run_dir) / f).glob("part-*.parquet")):
            try:
                why = _foreign(p, None, ident)
            except Exception:  # noqa: BLE001 -- a damaged part: recover() sets it aside
                continue
            if why is not None:
                out.append(f"{p} ({why})")
    return out


def _copies(runs: list[Path], skip: bool) -> set[Path]:
    """The runs that are copies of an earlier one in ``runs`` (the same run id, e.g. a
    ``<ts>.bak`` copy beside the run): MixedRunError naming both, or (``skip``) the copies to
    leave out, each with a warning line."""
    first: dict[str, Path] = {}
    out: set[Path] = set()
    for run in runs:
        ident = run_identity(run)
        if ident is None:
            continue
        if ident["run_id"] not in first:
            first[ident["run_id"]] = run
            continue
        orig = first[ident["run_id"]]
        if not skip:
            raise MixedRunError(
                f"searchlab.load: {run} is a copy of the run {orig} (the same run id "
                f"{ident['run_id']}), so its rows would be read twice; move the copy out, name "
                f"one of them, or skip copies with searchlab.load(..., skip_copies=True)")
        warnings.warn(f"searchlab.load: skipped {run}: a copy of the run {orig} (the same run id "
                      f"{ident['run_id']})", stacklevel=3)
        out.add(run)
    return out


def load(path_or_glob: Any = "results", *, dedupe: bool = True, partial: bool = False,
         combine: bool = False, skip_copies: bool = False):
    """One pandas DataFrame from one or many runs.

    ``path_or_glob``: a run directory, a folder of runs (e.g. ``results/`` or
    ``results/ordering_ebf``; every run below it), a glob (``results/*/2026-*``), a Parquet
    part, or a list of these. Adds the column ``run_dir`` (the run each row came from). Rows are
    sorted by run and grid order (``task_index``). Every part must be a table of a kind
    searchlab writes (experiment/table_kinds.py: search rows, the trade-off study's rows or
    matches), all of one kind: UnknownTableError (naming the file) otherwise.

    Each part carries its run's identity (experiment hash and run id, store.PartWriter). A
    part whose identity is not its folder's run's (a part of another run copied into table/)
    and a file named twice (a run named twice, also through a symlink) raise MixedRunError
    naming the files. ``combine=True`` reads parts of several runs in one folder on purpose
    and adds the column ``run`` (each row's run id; its experiment hash for older parts). Two
    run directories with one run id (a copy of a run beside it, ``<ts>.bak``) raise
    MixedRunError naming both; ``skip_copies=True`` reads the first (in path order) and skips
    each copy with a warning line.

    Raises NotARunError for an empty path, a value that is no path (None) or a directory that
    holds no run, and IncompleteRunError when a run is incomplete (fewer tasks done than its
    manifest planned: killed, still running, or its parts deleted) or damaged (a part cannot be
    read, or a part its manifest.json lists is gone). ``partial=True`` accepts such runs: their readable rows are returned, with a warning
    naming what is missing.
    """
    parts, named_runs = _expand(path_or_glob)
    _check_named_once(parts)
    copies = _copies(list(dict.fromkeys([*named_runs, *map(_run_of, parts)])), skip_copies)
    parts = [p for p in parts if _run_of(p) not in copies]
    named_runs = [r for r in named_runs if r not in copies]
    read_folders: dict[Path, set[str]] = {}
    for p in parts:
        read_folders.setdefault(_run_of(p), set()).add(p.parent.name)
    for r in named_runs:
        read_folders.setdefault(r, set()).add(TABLE_DIR)
    frames = []
    kinds: dict[str, Path] = {}
    damaged: dict[Path, list[str]] = {}
    identities: dict[Path, dict[str, str] | None] = {}
    for p in parts:
        run = _run_of(p)
        try:
            t = pq.read_table(p)
        except Exception:  # noqa: BLE001 -- any decoding error: a damaged part
            damaged.setdefault(run, []).append(p.name)
            continue
        kind = table_kind(t.schema, p)       # refuses an unknown table, naming the file
        kinds.setdefault(kind, p)
        if run not in identities:
            identities[run] = run_identity(run)
        why = _foreign(p, t, identities[run])
        if why is not None and not combine:
            raise MixedRunError(
                f"searchlab.load: {p} is a part of another run ({why}); move it out of {run}, "
                f"or read the runs together with searchlab.load(..., combine=True) (adds a "
                f"'run' column)")
        own = part_identity(p, t.schema) or identities[run]
        if kind == "search":
            t = conform(t)          # older runs: new columns null, best_move as strings
        df = t.to_pandas()
        df["run_dir"] = str(run)
        if combine:
            df["run"] = (own or {}).get("run_id") or (
                str(df["config_hash"].iloc[0]) if "config_hash" in df and len(df) else str(run))
        frames.append(df)
    if len(kinds) > 1:
        raise UnknownTableError("searchlab.load: tables of different kinds cannot be read into "
                                "one frame: " + ", ".join(f"{k} ({p})" for k, p in kinds.items()))
    df = pd.concat(frames, ignore_index=True) if frames else \
        pd.DataFrame({c: pd.Series(dtype=object) for c in (*COLUMNS, "run_dir")})
    for run in dict.fromkeys([*named_runs, *damaged, *(Path(r) for r in df["run_dir"].unique())]):
        rows = df[df["run_dir"] == str(run)]
        done = rows["task_id"].nunique() if "task_id" in rows else len(rows)
        listed = recorded_parts(run)
        missing = [f"{f}/{n}" for f in sorted(read_folders.get(run, ()))
                   for n in listed.get(f, []) if not (run / f / n).exists()]
        status = RunStatus(run, planned_tasks(run), int(done), damaged.get(run, []),
                           recorded_complete(run), missing)
        if status.planned is None and status.done == 0 and not status.damaged:
            # no manifest.json and no rows: nothing says what the run was (manifest deleted, or
            # a run killed before its first row); an empty frame would pass for a measured nothing
            why = (f"{run} has no manifest.json and no rows: not a run that measured anything "
                   "(its manifest and table deleted, or killed before its first row)")
            if not partial:
                raise IncompleteRunError(f"searchlab.load: {why}; load(..., partial=True) reads "
                                         "it as empty")
            warnings.warn(f"searchlab.load: {why}; partial data", stacklevel=2)
        elif not status.complete:
            if not partial:
                raise IncompleteRunError(refusal(status, "searchlab.load(..., partial=True)"))
            warnings.warn(f"searchlab.load: {status.problem()}; partial data", stacklevel=2)
    if dedupe and "task_id" in df:
        # a trade-off position task writes one row per technique, a match task one per game,
        # a parallel task one per (algorithm, p) (table_kinds.py)
        keys = ["run_dir", "task_id"] + [k for k in ("technique", "pair", "a_is_max") if k in df] \
            + (["algorithm", "p"] if "speedup" in df else []) + (["run"] if combine else [])
        df = df.drop_duplicates(subset=keys, keep="first")
    sort = [c for c in ("run_dir", "task_index") if c in df]
    return df.sort_values(sort, kind="stable").reset_index(drop=True)
