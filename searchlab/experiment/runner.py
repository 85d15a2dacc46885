"""The runner: tasks -> rows, in parallel with joblib (loky locally, dask for a cluster).

- Batching: tasks are grouped into batches of about ``runner.batch_nodes`` estimated nodes (at
  most ``runner.max_batch_tasks`` tasks, and small enough that every worker gets several
  batches), so tiny tasks do not drown in dispatch cost. Batches come back unordered
  (``Parallel(return_as="generator_unordered")``); rows are buffered and flushed as Parquet
  parts (store.PartWriter) every ``runner.flush_rows`` rows or ``runner.flush_seconds``.
- Threads: numba (and BLAS/OpenMP) are limited to one thread per worker
  (``parallel_config(inner_max_num_threads=1)`` sets NUMBA_NUM_THREADS=1 and friends in the loky
  workers; dask workers get the same through ``distributed.nanny.pre-spawn-environ``), so n
  workers use n cores.
- Task kinds: a grid.Task is a search; any other task (the trade-off study's positions and
  matches, studies/tradeoff/tradeoff_tasks.py) brings its own ``run(settings)`` and
  ``failed(error, attempts)``, each returning one row-like record with ``task_id`` and ``status``
  for the caller's writer, and gets the same batching, retries and crash handling.
- Node budget: each search gets ``max_nodes`` = the per-task budget (its ordering's own cap,
  sweep.max_nodes_by_ordering, else search.max_nodes); a search that hits it returns status
  "aborted" and its row is kept.
- Faults: a task that raises is retried in the worker, then recorded as "failed" with the error.
  A worker that dies (segfault, os._exit, OOM kill) breaks the whole joblib call; every
  worker writes the id of the task it is running to ``<run_dir>/.inflight/<pid>``, so the
  runner knows the suspects (the tasks in flight), runs each of them alone in a fresh worker
  (``runner.retries`` times at most): a suspect that crashes every time is recorded as
  "failed", the innocent ones complete; then the remaining tasks continue. The run completes.
- Fault injection for tests: the environment variable SEARCHLAB_FAULT_INJECT, a JSON object
  ``{"index": [task indices] or "*", "mode": "crash"|"raise"|"sleep", "times": n, "state":
  "<file>", "seconds": s}``, makes the listed tasks crash their worker (os._exit) or raise, at
  most n times in all (counted in the state file), or sleep s seconds first (slow runs for tests). Read in the main process when the run starts (workers may be reused). Unset in
  normal use.
"""

from __future__ import annotations

import ctypes
import json
import logging
import os
import signal
import threading
import sys
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Optional

import joblib
from joblib import Parallel, delayed
from numba.core import event as numba_event
from tqdm.auto import tqdm

from searchlab.compile_costs import COLD_SECONDS
from searchlab.algorithms.ordering_registry import import_plugins
from searchlab.algorithms.search_api import search
from searchlab.experiment.budget import task_work
from searchlab.experiment.games import average_branching, format_move, make_game
from searchlab.experiment.grid import Task
from searchlab.games.epd import parse_epd_line
from searchlab.games.registry import cold_seconds
from searchlab.trees import make_tree

#: environment variable naming the current study on the progress bar ("study 3 of 12:
#: ordering_ebf"), set by analysis/reproduce.py around each study it runs
PROGRESS_DESC_ENV = "SEARCHLAB_PROGRESS_DESC"

FAULT_ENV = "SEARCHLAB_FAULT_INJECT"
_PR_SET_PDEATHSIG = 1
INFLIGHT_DIR = ".inflight"


@dataclass(frozen=True)
class RunSettings:
    """What a worker needs besides the tasks (plain, picklable)."""

    experiment: str
    engine: str
    depth: Optional[int]
    task_max_nodes: int
    config_hash: str
    version: str
    commit: str
    marker_dir: Optional[str] = None
    in_worker_retries: int = 1
    fault: Optional[str] = None      # SEARCHLAB_FAULT_INJECT, read in the main process
    aspiration: Optional[float] = None
    tt_size: int = 65536
    prunings: dict = field(default_factory=dict)   # name -> Pruning record (None: none)
    parent_pid: Optional[int] = None  # loky: the main process; its workers end when it dies
    plugins: tuple = ()              # search.plugins: imported by each worker before its tasks


# ----------------------------------------------------------------------------------------------
# Worker side
# ----------------------------------------------------------------------------------------------

_WORKER_READY = False


def _init_worker(parent_pid: Optional[int] = None) -> None:
    global _WORKER_READY
    if _WORKER_READY:
        return
    if "numba" not in sys.modules:
        os.environ.setdefault("NUMBA_NUM_THREADS", "1")
    if parent_pid is not None and os.getpid() != parent_pid:
        _end_with_parent(parent_pid)
    _WORKER_READY = True


def _end_with_parent(parent_pid: int) -> None:
    """Make this worker process end when the main process dies (kill -9 included), so no
    worker goes on computing for nobody. Linux: the kernel sends SIGKILL on the parent's death
    (prctl PR_SET_PDEATHSIG; it works while a compiled kernel holds the GIL); elsewhere, and as
    a second line, a daemon thread polls the parent pid."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(1.0)
        os._exit(75)

    if os.getppid() != parent_pid:           # the parent died before the kernel could watch
        os._exit(75)
    threading.Thread(target=watch, name="searchlab-parent-watch", daemon=True).start()


def _fault(task: Task, spec: Optional[str]) -> None:
    if not spec:
        return
    cfg = json.loads(spec)
    if cfg.get("index") != "*" and task.index not in cfg.get("index", []):
        return
    if cfg.get("mode") == "sleep":
        time.sleep(float(cfg.get("seconds", 0.01)))
        return
    state = Path(cfg["state"])
    n = len(state.read_text().splitlines()) if state.exists() else 0
    if n >= cfg.get("times", 1):
        return
    with open(state, "a") as f:
        f.write(f"{task.index} {os.getpid()}\n")
    if cfg.get("mode", "crash") == "crash":
        os._exit(70)
    raise RuntimeError(f"injected fault in task {task.index}")


_MARKER: dict[str, Any] = {"path": None, "fd": None}
_BLANK = b"-" * 16


def _marker_fd(marker_dir: Optional[str]) -> Optional[int]:
    """This worker's marker file (<marker_dir>/<pid>), opened once and rewritten in place with
    os.pwrite (an open() per task costs milliseconds on some filesystems); reopened when the
    main process removed it."""
    if not marker_dir:
        return None
    path = os.path.join(marker_dir, str(os.getpid()))
    if _MARKER["fd"] is not None and _MARKER["path"] == path and os.path.exists(path):
        return _MARKER["fd"]
    if _MARKER["fd"] is not None:
        try:
            os.close(_MARKER["fd"])
        except OSError:
            pass
        _MARKER["fd"] = None
    try:
        _MARKER["fd"] = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        _MARKER["path"] = path
    except OSError:
        return None
    return _MARKER["fd"]


def _mark(fd: Optional[int], task_id: Optional[str]) -> None:
    if fd is None:
        return
    try:
        os.pwrite(fd, task_id.encode()[:16].ljust(16, b"-") if task_id else _BLANK, 0)
    except OSError:
        pass


def _make_tree(task: Task) -> Any:
    """The tree of a tree task; for a game task (game, measured average branching b̄)."""
    if task.game is not None:
        game = make_game(task.game, task.position)
        return game, average_branching(game)
    if task.tree.model == "explicit":
        return make_tree("explicit", **task.tree.params())
    return make_tree(task.tree.model, b=task.b, d=task.d, seed=task.seed, **task.tree.params())


def _base_row(task: Task, s: RunSettings) -> dict:
    t = task.tree
    g, pos = task.game, task.position
    return {
        "experiment": s.experiment, "tree": None if t is None else t.model,
        "game": None if g is None else g.name, "positions": None if g is None else g.positions,
        "position": None if pos is None else pos.id, "b": task.b, "d": task.d,
        "levels": None if t is None else t.levels,
        "win_prob": None if t is None else t.win_prob, "p": None if t is None else t.p,
        "decay": None if t is None else t.decay,
        "correlation": None if t is None else t.correlation,
        "algorithm": task.algorithm, "ordering": task.ordering, "pruning": task.pruning,
        "instance": task.instance,
        "seed": task.seed, "ordering_seed": task.ordering_seed, "task_id": task.task_id,
        "task_index": task.index, "est_nodes": task.est_nodes,
        "config_hash": s.config_hash, "version": s.version, "commit": s.commit,
    }


def _count(v: Any) -> Optional[int]:
    return None if v is None else int(v)


def _rate(v: Any) -> Optional[float]:
    return None if v is None else float(v)


def failed_row(task: Task, s: RunSettings, error: str, attempts: int) -> dict:
    row = _base_row(task, s)
    row.update({"status": "failed", "error": error[:2000], "attempts": attempts,
                "per_ply": None, "iterations": None})
    return row


def _failed(task: Any, s: RunSettings, error: str, attempts: int) -> dict:
    """The row of a task that failed: a search task's row, or another kind's own record."""
    return failed_row(task, s, error, attempts) if isinstance(task, Task) \
        else task.failed(error, attempts)


def run_task(task: Task, s: RunSettings, tree: Any = None) -> dict:
    """Search one task; a row (status ok or aborted). Exceptions propagate."""
    _fault(task, s.fault)

    if tree is None:
        tree = _make_tree(task)
    branching, solved = None, None
    if task.game is not None:
        tree, branching = tree
        depth = task.d
    else:
        depth = s.depth
    r = search(tree, algorithm=task.algorithm, ordering=task.ordering, depth=depth,
               ordering_seed=task.ordering_seed, engine=s.engine,
               max_nodes=s.task_max_nodes if task.max_nodes is None else task.max_nodes,
               aspiration=s.aspiration, tt_size=s.tt_size, pruning=s.prunings.get(task.pruning))
    best = format_move(None if task.game is None else task.game.name, r.best_move)
    if task.position is not None and task.position.epd and r.status == "ok":
        solved = bool(best is not None and parse_epd_line(task.position.epd).is_solution(best))
    row = _base_row(task, s)
    row.update({
        "value": None if r.value is None else float(r.value), "best_move": best,
        "nodes": int(r.nodes), "leaves": int(r.leaves), "interior": int(r.interior),
        "cutoffs": int(r.cutoffs), "per_ply": [int(x) for x in r.per_ply],
        "search_depth": int(r.depth), "wall_seconds": float(r.wall_time), "status": r.status,
        "engine": r.engine, "error": None, "attempts": 1,
        "fail_highs": _count(r.fail_highs), "first_move_fail_highs": _count(r.first_move_fail_highs),
        "fail_high_first_rate": _rate(r.fail_high_first_rate),
        "re_searches": int(r.re_searches), "tt_probes": int(r.tt_probes),
        "tt_hits": int(r.tt_hits), "tt_cutoffs": int(r.tt_cutoffs),
        "tt_hit_rate": _rate(r.tt_hit_rate), "iterations": [int(x) for x in r.iterations],
        "last_iteration_nodes": int(r.last_iteration_nodes), "q_nodes": int(r.q_nodes),
        "branching": branching, "solved": solved,
    })
    return row


def run_batch(tasks: list[Task], s: RunSettings) -> list[dict]:
    """Run a batch of tasks in a worker; one row per task, never raises for a task's error."""
    _init_worker(s.parent_pid)
    import_plugins(s.plugins)        # a fresh worker knows only what its own imports register
    return task_rows(tasks, s, _marker_fd(s.marker_dir))


def task_rows(tasks: list, s: RunSettings, marker: Optional[int] = None) -> list[dict]:
    """One row per task, in order, in this process (a task's error is its row, with in-worker
    retries); ``marker``: the worker's marker file, None in the main process."""
    rows = []
    tree_cache: tuple[Any, Any] = (None, None)
    for task in tasks:
        _mark(marker, task.task_id)
        attempts = 0
        while True:
            attempts += 1
            try:
                if not isinstance(task, Task):      # another task kind carries its own body
                    _fault(task, s.fault)
                    row = task.run(s)
                    break
                key = task.tree_key()
                if tree_cache[0] != key:
                    tree_cache = (key, _make_tree(task))
                row = run_task(task, s, tree_cache[1])
                row["attempts"] = attempts
                break
            except Exception as e:  # noqa: BLE001 -- recorded, never lost
                if attempts > s.in_worker_retries:
                    msg = f"{type(e).__name__}: {e}"
                    tb = traceback.format_exc(limit=3).strip().splitlines()
                    row = _failed(task, s, msg + " | " + " / ".join(tb[-3:]), attempts)
                    break
                tree_cache = (None, None)
        rows.append(row)
    _mark(marker, None)
    return rows


def warm_up_tasks(tasks: list) -> list:
    """The cheapest task (by estimated work) of each task type and kind (a trade-off study's
    positions and matches) and tree model, game or domain, in plan order: run in the main process before the progress bar starts, they compile (or load from
    numba's cache) every engine the run needs, so that the bar's rate and ETA measure searching,
    not compiling, and the workers load the compiled engines from the cache instead of each
    compiling them again. Their rows are real rows of the run."""
    cheapest: dict[tuple, Any] = {}
    for t in tasks:
        key = (type(t).__name__, str(getattr(t, "kind", "")), str(getattr(t, "model", "")),
               str(getattr(t, "domain", "")))
        if key not in cheapest or task_work(t) < task_work(cheapest[key]):
            cheapest[key] = t
    return sorted(cheapest.values(), key=lambda t: t.index)


def engine_of(task: Any) -> tuple[str, Optional[float]]:
    """What a task searches, in the words of a compile announcement (the game, the synthetic
    trees, or the task's label's first words), and that engine's cold compile in CPU seconds
    (the game's GameEntry.cold_seconds, the others' compile_costs.COLD_SECONDS; None when not
    measured)."""
    game = getattr(task, "game", None)
    if game is not None:
        name = str(getattr(game, "name", game))
        cost = game.entry().cold_seconds() if hasattr(game, "entry") else cold_seconds(name)
        return f"the {name} engine", cost
    if getattr(task, "tree", None) is not None:
        return "the synthetic-tree kernel", COLD_SECONDS["tree_kernel"]
    label = str(getattr(task, "label", "") or type(task).__name__).split()
    words = [w for w in label[:3] if w in COLD_SECONDS]
    return f"the engine of {' '.join(label[:2])}", COLD_SECONDS.get(words[0]) if words else None


class _CompileWatch(numba_event.Listener):
    """Announces numba's first compile in a warm-up task (numba's ``numba:compile`` events: a
    function loaded from the disk cache fires none), and counts the compiles."""

    def __init__(self, what: tuple[str, Optional[float]], log: Callable[[str], None]) -> None:
        (self.what, self.cold), self.log, self.compiles = what, log, 0

    def on_start(self, ev: Any) -> None:
        if not self.compiles:
            cost = f"~{self.cold:.0f} s" if self.cold else "10-40 s"
            self.log(f"compiling {self.what} (first use, {cost} of CPU; numba keeps it in its "
                     "cache for later runs)")
        self.compiles += 1

    def on_end(self, ev: Any) -> None:
        pass


@contextmanager
def compile_notice(what: str, cold: Optional[float], log: Callable[[str], None]) -> Iterator[Any]:
    """Within the block, numba's first compile is announced (``compiling WHAT (first use,
    ~COLD s of CPU ...)``); yields the watch, whose ``compiles`` counts them."""
    watch = _CompileWatch((what, cold), log)
    with numba_event.install_listener("numba:compile", watch):
        yield watch


def warm_rows_of(warm: list, settings: Any, log: Callable[[str], None]) -> list[dict]:
    """The warm-up tasks' rows, each compile announced as it starts; a task during which numba
    compiled is searched again, so that its row's timing is the search's, not the compile's
    (the rows are the same: every task is a function of its seed)."""
    rows: list[dict] = []
    for t in warm:
        t0 = time.monotonic()
        with compile_notice(*engine_of(t), log) as watch:
            got = task_rows([t], settings)
        if watch.compiles:
            log(f"compiled {watch.what} in {time.monotonic() - t0:.1f} s; its first task "
                "searched again, timed without the compile")
            got = task_rows([t], settings)
        rows += got
    return rows


# ----------------------------------------------------------------------------------------------
# Main side
# ----------------------------------------------------------------------------------------------

def make_batches(tasks: list[Task], n_workers: int, batch_nodes: int, max_batch_tasks: int,
                 per_task_overhead: int = 200) -> list[list[Task]]:
    """Group tasks (in grid order) into batches of about batch_nodes estimated work."""
    total = sum(t.est_work + per_task_overhead for t in tasks)
    target = max(1, min(batch_nodes, total // max(1, 4 * n_workers)))
    batches: list[list[Task]] = []
    cur: list[Task] = []
    acc = 0
    for t in tasks:
        cur.append(t)
        acc += t.est_work + per_task_overhead
        if acc >= target or len(cur) >= max_batch_tasks:
            batches.append(cur)
            cur, acc = [], 0
    if cur:
        batches.append(cur)
    # largest first: long batches start early, the tail is short
    batches.sort(key=lambda bt: -sum(t.est_work for t in bt))
    return batches


@dataclass
class Outcome:
    ran: int = 0
    ok: int = 0
    aborted: int = 0
    failed: int = 0
    crashes: int = 0
    seconds: float = 0.0
    messages: list[str] = field(default_factory=list)


class _Sink:
    """Buffers rows, flushes parts, updates the progress bar."""

    def __init__(self, writer: Any, flush_rows: int, flush_seconds: float, bar: Any,
                 outcome: Outcome, weights: Optional[dict] = None, total_tasks: int = 0,
                 done_tasks: int = 0) -> None:
        self.writer, self.flush_rows, self.flush_seconds = writer, flush_rows, flush_seconds
        self.bar, self.outcome = bar, outcome
        self.weights = weights or {}
        self.total_tasks, self.done_tasks = total_tasks, done_tasks
        self.buf: list[dict] = []
        self.last = time.monotonic()
        self.done: set[str] = set()

    def add(self, rows: Iterable[dict], in_bar: bool = True) -> None:
        """Buffer the rows of tasks not seen yet; ``in_bar=False``: the bar already counts their
        work (the warm-up's rows are in its initial count)."""
        n, w = 0, 0.0
        for r in rows:
            if r["task_id"] in self.done:
                continue
            self.done.add(r["task_id"])
            self.buf.append(r)
            n += 1
            w += self.weights.get(r["task_id"], 1.0)
            st = r.get("status")
            if st == "ok":
                self.outcome.ok += 1
            elif st == "aborted":
                self.outcome.aborted += 1
            else:
                self.outcome.failed += 1
        self.outcome.ran += n
        if self.bar is not None:
            self.done_tasks += n
            post = {"tasks": f"{self.done_tasks}/{self.total_tasks}"}
            if self.outcome.aborted or self.outcome.failed:
                post.update(aborted=self.outcome.aborted, failed=self.outcome.failed)
            self.bar.set_postfix(post, refresh=False)
            self.bar.update(w if in_bar else 0)
        if len(self.buf) >= self.flush_rows or time.monotonic() - self.last >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            self.writer.write(self.buf)
            self.buf = []
        self.last = time.monotonic()


class Backend:
    """A joblib backend context: loky / threading / sequential / dask (with its client)."""

    def __init__(self, runner: Any) -> None:
        self.runner = runner
        self.client = None
        self.cluster = None
        self.n_workers = 1

    def __enter__(self) -> "Backend":
        r = self.runner
        if r.backend == "dask":
            import dask
            from distributed import Client, LocalCluster

            # distributed logs ~40 INFO lines per cluster start and stop (and Hydra's logging
            # config prints them): only its warnings and errors are shown
            logging.getLogger("distributed").setLevel(logging.WARNING)
            environ = dict(dask.config.get("distributed.nanny.pre-spawn-environ", {}) or {})
            environ.update({"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"})
            dask.config.set({"distributed.nanny.pre-spawn-environ": environ})
            if r.address:
                self.client = Client(r.address)
            else:
                n = r.n_workers or (r.n_jobs if r.n_jobs > 0 else joblib.cpu_count())
                self.cluster = LocalCluster(n_workers=n, threads_per_worker=1,
                                            processes=r.processes, dashboard_address=None,
                                            silence_logs=logging.WARNING)
                self.client = Client(self.cluster)
            self.n_workers = max(1, len(self.client.scheduler_info().get("workers", {})) or 1)
            self._cfg = joblib.parallel_config(backend="dask", n_jobs=r.n_jobs)
        elif r.backend == "loky":
            self.n_workers = joblib.effective_n_jobs(r.n_jobs)
            self._cfg = joblib.parallel_config(backend="loky", n_jobs=r.n_jobs,
                                               inner_max_num_threads=1)
        elif r.backend == "threading":
            self.n_workers = joblib.effective_n_jobs(r.n_jobs)
            self._cfg = joblib.parallel_config(backend="threading", n_jobs=r.n_jobs)
        else:
            self.n_workers = 1
            self._cfg = joblib.parallel_config(backend="sequential", n_jobs=1)
        self._cfg.__enter__()
        return self

    @property
    def in_process(self) -> bool:
        return self.runner.backend in ("sequential", "threading") or (
            self.runner.backend == "loky" and self.n_workers == 1)

    def __exit__(self, *exc: Any) -> None:
        self._cfg.__exit__(*exc)
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _is_worker_death(e: BaseException) -> bool:
    name = type(e).__name__
    return name in ("TerminatedWorkerError", "BrokenProcessPool", "KilledWorker",
                    "ShutdownExecutorError") or "worker" in str(e).lower() and "die" in str(e).lower()


def _read_markers(marker_dir: Path) -> set[str]:
    ids = set()
    if marker_dir.is_dir():
        for p in marker_dir.iterdir():
            try:
                t = p.read_text().strip()
            except OSError:
                continue
            if t and t != _BLANK.decode():
                ids.add(t)
            p.unlink(missing_ok=True)
    return ids


def progress_total(tasks: list, already_done: int = 0,
                   total: Optional[int] = None) -> tuple[dict[str, float], float, float]:
    """(weight per task id, initial, total) of the progress bar, in estimated nodes.

    The bar counts estimated work (budget.task_work, the estimate the plan's line prints), not
    tasks: tasks differ in cost by orders of magnitude, and a count-weighted ETA extrapolates
    from the first (cheap, compile-bound) tasks. Tasks done in an earlier session, and tasks
    counted in ``total`` but not given, count at the mean weight. For a fresh run the total is
    exactly the plan's ``total_work``."""
    total = total if total is not None else len(tasks) + already_done
    weights = {t.task_id: float(task_work(t)) for t in tasks}
    mean_w = sum(weights.values()) / len(weights) if weights else 1.0
    done_w = mean_w * already_done
    rest = mean_w * max(0, total - already_done - len(tasks))
    return weights, done_w, done_w + sum(weights.values()) + rest


def execute(tasks: list[Task], settings: RunSettings, runner: Any, writer: Any,
            progress: bool = True, already_done: int = 0, total: Optional[int] = None,
            log: Callable[[str], None] = print) -> Outcome:
    """Run the tasks, write their rows through writer; returns the outcome counts."""
    outcome = Outcome()
    t0 = time.monotonic()
    total = total if total is not None else len(tasks) + already_done
    weights, done_w, total_w = progress_total(tasks, already_done, total)
    # an injected fault must hit a worker, never the main process
    warm = warm_up_tasks(tasks) if tasks and not settings.fault else []
    warm_rows = warm_rows_of(warm, settings, log)
    if warm and time.monotonic() - t0 >= 2.0:
        log(f"warm-up: {len(warm)} task(s) searched here first (one per tree model or game), "
            f"compiling or loading the engines before the progress bar: {time.monotonic() - t0:.1f} s")
    bar = tqdm(total=total_w,
               initial=done_w + sum(weights[t.task_id] for t in warm), unit=" est. nodes", unit_scale=True, disable=not progress,
               dynamic_ncols=True, smoothing=0.3, mininterval=0.5, file=sys.stderr,
               desc=os.environ.get(PROGRESS_DESC_ENV) or None,
               bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt}{unit} [{elapsed}<{remaining}{postfix}]")
    sink = _Sink(writer, runner.flush_rows, runner.flush_seconds, bar, outcome, weights,
                 total_tasks=total, done_tasks=already_done)
    sink.add(warm_rows, in_bar=False)
    by_id = {t.task_id: t for t in tasks}
    marker_dir = Path(settings.marker_dir) if settings.marker_dir else None
    unidentified = 0
    try:
        with Backend(runner) as be:
            pending = [t for t in tasks if t.task_id not in sink.done]
            while pending:
                if marker_dir is not None:
                    marker_dir.mkdir(parents=True, exist_ok=True)
                    _read_markers(marker_dir)
                batches = make_batches(pending, be.n_workers, runner.batch_nodes,
                                       runner.max_batch_tasks)
                try:
                    gen = Parallel(return_as="generator_unordered", batch_size=1,
                                   pre_dispatch="2*n_jobs")(
                        delayed(run_batch)(b, settings) for b in batches)
                    for rows in gen:
                        sink.add(rows)
                    pending = []
                except Exception as e:  # noqa: BLE001 -- a dead worker surfaces as any exception type; others re-raised
                    if be.in_process or not _is_worker_death(e):
                        raise
                    outcome.crashes += 1
                    sink.flush()
                    remaining = [t for t in pending if t.task_id not in sink.done]
                    suspects = (_read_markers(marker_dir) if marker_dir else set()) & {
                        t.task_id for t in remaining}
                    if not suspects:
                        unidentified += 1
                        log(f"a worker died ({type(e).__name__}) and the task it ran is unknown; "
                            f"retrying the {len(remaining)} remaining tasks")
                        if unidentified > runner.retries:
                            raise
                        pending = remaining
                        continue
                    log(f"a worker died ({type(e).__name__}: {str(e).splitlines()[0][:120]}); "
                        f"re-running the {len(suspects)} task(s) it may have been running, "
                        f"one at a time")
                    for tid in sorted(suspects, key=lambda i: by_id[i].index):
                        sink.add([_run_suspect(by_id[tid], settings, runner, log)])
                    sink.flush()
                    pending = [t for t in remaining if t.task_id not in sink.done]
        sink.flush()
    finally:
        bar.close()
        try:
            sink.flush()
        except Exception:  # noqa: BLE001 -- reported by the caller's own flush error
            pass
        outcome.seconds = time.monotonic() - t0
    return outcome


def _run_suspect(task: Task, settings: RunSettings, runner: Any,
                 log: Callable[[str], None]) -> dict:
    """Run one suspect task alone in a worker, up to max(1, retries) times."""
    tries = max(1, runner.retries)
    last = ""
    for k in range(tries):
        try:
            rows = Parallel(n_jobs=2 if runner.backend == "loky" else runner.n_jobs,
                            batch_size=1)(delayed(run_batch)([task], settings) for _ in range(1))
            row = rows[0][0]
            row["attempts"] = row.get("attempts", 1) + 1 + k
            return row
        except Exception as e:  # noqa: BLE001 -- a dead worker surfaces as any exception type; others re-raised
            if not _is_worker_death(e):
                raise
            last = f"{type(e).__name__}: {str(e).splitlines()[0][:300]}"
    what = (f"{task.model} b={task.b} d={task.d} {task.algorithm}/{task.ordering} "
            f"instance {task.instance}") if isinstance(task, Task) else task.label
    log(f"task {task.index} ({what}) crashed its worker {tries + 1} times: recorded as failed")
    return _failed(task, settings, "worker crashed: " + last, tries + 1)
