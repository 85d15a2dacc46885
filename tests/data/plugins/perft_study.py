"""A study kind from outside the package (docs/extending.md, "A study kind"): ``perft``
counts the positions of a registered game's move tree per depth (the chess programmers'
perft: leaves at exactly that depth, plus the positions on the way), one task per depth.

One file and one entry point: ``[project.entry-points."searchlab.studies"] perft =
"perft_study:KIND"``. A config selects it by its section, ``perft: {game: tictactoe,
depths: [1, 2, 3]}`` (tests/data/plugins/conf/experiment/perft_tictactoe.yaml); the section
is checked against :class:`PerftSection` before any work. The rows go to the run's ``table/``
(read back with ``searchlab.load``), the report is a table of the counts per depth.
"""


import dataclasses
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, List

import pyarrow as pa

from searchlab import load
from searchlab.experiment import store
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.seeds import config_digest, task_digest
from searchlab.experiment.session import EnvelopeRows, Session, dump_yaml
from searchlab.experiment.study_kind import StudyKind
from searchlab.experiment.validation import plain_config
from searchlab.games.registry import entry, game_names

#: the deepest depth a config may ask for (tic-tac-toe's whole tree is 9 plies)
MAX_DEPTH = 9

#: the rows' table: one row per depth (``searchlab.load`` recognises it by these columns)
SCHEMA = pa.schema([("task_id", pa.string()), ("study", pa.string()), ("game", pa.string()),
                    ("depth", pa.int64()), ("perft", pa.int64()), ("positions", pa.int64()),
                    ("seconds", pa.float64())])


@dataclass
class PerftSection:
    """The ``perft`` section: ``game`` a registered game's name; ``depths`` the depths to
    count, each in [0, MAX_DEPTH]."""

    game: str = "tictactoe"
    depths: List[int] = field(default_factory=lambda: [1, 2, 3])

    def __post_init__(self) -> None:
        if self.game not in game_names():
            raise ConfigError(f"perft.game must be one of {', '.join(game_names())}; "
                              f"got {self.game!r}")
        bad = [d for d in self.depths if not 0 <= d <= MAX_DEPTH]
        if not self.depths or bad:
            raise ConfigError(f"perft.depths must be a non-empty list of integers in "
                              f"[0, {MAX_DEPTH}]; got {list(self.depths)!r}")


def count(game: Any, depth: int) -> tuple[int, int]:
    """(perft: the positions exactly ``depth`` plies from the start, a game that ends earlier
    counting at its end as one; every position visited, the start included)."""
    def walk(state: Any, d: int) -> tuple[int, int]:
        if d == 0 or game.is_terminal(state):
            return 1, 1
        leaves, seen = 0, 1
        for m in game.legal_moves(state):
            lv, sn = walk(game.play(state, m), d - 1)
            leaves, seen = leaves + lv, seen + sn
        return leaves, seen
    return walk(game.initial_state(), depth)


@dataclass(frozen=True)
class PerftTask:
    """One depth, as a task of the runner (its run/failed contract)."""

    index: int
    task_id: str
    study: str
    game: str
    depth: int
    est_work: int = 1

    @property
    def label(self) -> str:
        return f"perft {self.game} d={self.depth}"

    def run(self, settings: Any) -> dict:
        t0, c0 = time.perf_counter(), time.process_time()
        perft, positions = count(entry(self.game).start(), self.depth)
        row = {"task_id": self.task_id, "study": self.study, "game": self.game,
               "depth": self.depth, "perft": perft, "positions": positions,
               "seconds": time.perf_counter() - t0}
        return {"task_id": self.task_id, "status": "ok", "rows": [row], "label": self.label,
                "cpu": time.process_time() - c0}

    def failed(self, error: str, attempts: int) -> dict:
        return {"task_id": self.task_id, "status": "failed", "rows": [], "label": self.label,
                "error": error[:2000], "attempts": attempts, "cpu": 0.0}


def _tasks(name: str, sec: PerftSection) -> list[PerftTask]:
    b = entry(sec.game).nominal_b
    return [PerftTask(i, task_digest(repr(("perft", sec.game, d))), name, sec.game, d, b ** d)
            for i, d in enumerate(sorted(set(sec.depths)))]


def session(cfg: Any, study: Any) -> Session:
    """The study as a session of the engine's skeleton (lock, resume, manifest, runner)."""
    sec = KIND.section_of(cfg)
    name = plain_config(cfg)["name"]
    science = {"study": name, "perft": dataclasses.asdict(sec)}
    return Session(
        kind="perft", name=name, config_hash=config_digest(science),
        config_yaml=dump_yaml({"name": name, "perft": dataclasses.asdict(sec)}),
        plan=lambda run_dir, log: _tasks(name, sec),
        rows=EnvelopeRows({None: (store.TABLE_DIR, SCHEMA)}),
        summary=lambda tasks: f"perft: {sec.game} at depths "
                              f"{', '.join(str(t.depth) for t in tasks)} ({len(tasks)} tasks)")


def report(run_dir: Path, fig_format: str = "png") -> Path:
    """report.md: the counts per depth, from the run's table."""
    df = load(str(run_dir)).sort_values("depth")
    lines = [f"# {df['study'].iloc[0]}: perft of {df['game'].iloc[0]}", "",
             "## Positions per depth", "", "| depth | perft | positions |", "|---:|---:|---:|"]
    lines += [f"| {r.depth} | {r.perft} | {r.positions} |" for r in df.itertuples()]
    path = Path(run_dir) / "report.md"
    path.write_text("\n".join(lines) + "\n")
    return path


KIND = StudyKind(
    "perft", "perft",
    check=lambda cfg, study, run=True: KIND.section_of(cfg),
    session=session, report=report, is_run=lambda run_dir: False,
    table_kinds={"perft": (SCHEMA, frozenset({"task_id", "perft", "depth"}))},
    schema=PerftSection, engines=lambda cfg, study, tasks: [])
