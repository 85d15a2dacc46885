"""The trade-off study's schema: the ``tradeoff`` section of an experiment preset, validated
before any work.

``searchlab experiment=unsound_tradeoff`` composes ``conf/experiment/unsound_tradeoff.yaml``; its
``tradeoff`` section is merged onto ``TradeoffSection`` (validation.structured, at the boundary), so an unknown
key or a wrong type is refused; ``validate`` then checks ranges and combinations. The study's
name, seed, results_dir and workers are the engine's own keys (``name``, ``seed``,
``results_dir``, ``runner.n_jobs``). Every user error is one ``ConfigError`` (the engine's) with
a one-line message naming the key.

Technique parameters that are values (futility and razoring margins) are given in units of
the domain's ``value_scale`` (one "typical static-value swing": 1.0 on the incremental tree,
0.1 in Connect Four, 0.3 in Othello, 300 centipawns in chess), so one technique list serves
every domain.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Optional


from searchlab.algorithms.ordering_registry import ordering_of
from searchlab.algorithms.pruning import FAMILIES as TECHNIQUE_FAMILIES
from searchlab.algorithms.pruning import Technique
from searchlab.errors import InvalidParameterError
from searchlab.experiment.games import sample_game
from searchlab.experiment.schema import ConfigError
from searchlab.experiment.validation import plain_config, structured
from searchlab.games.connect4 import ConnectFour, load_benchmark
from searchlab.games.epd import load_epd
from searchlab.games.othello import MAX_RANDOM_PLY
from searchlab.limits import MAX_COUNT, check_int, check_number
from searchlab.algorithms.engine_session import BUDGET_MODES
from searchlab.play.match import PLAY_MODES
from searchlab.play.tuning import GRID

DATA_DIR = Path(__file__).resolve().parents[2] / "data"      # searchlab/data: shipped inputs
#: per domain, the values ``null_move_guard`` may take (None = the game's own: guarded in
#: Connect Four and chess; Othello has no guard, its pass is offered everywhere; the incremental
#: tree's null move is its own and has no guard to switch)
NULL_MOVE_GUARDS = {"incremental": (None,), "connect4": (None, True, False),
                    "othello": (None, False), "chess": (None, True)}
#: the technique families (searchlab.algorithms.pruning.FAMILIES, declared there once)
FAMILIES = tuple(TECHNIQUE_FAMILIES)
#: what ``tasks`` may say: which task kinds run (tuning: the tuning study, TuningConf)
TASK_KINDS = ("all", "positions", "matches", "tuning")
#: the tuning study's two stages
TUNING_STAGES = ("tune", "confirm")


# --- domains --------------------------------------------------------------------------------
@dataclass
class ProbCutFitConf:
    """ProbCut's linear model is fitted (``fit_probcut``) on ``positions`` seeded sample
    positions of the domain, ``ply`` random moves from the start."""

    positions: int = 24
    ply: int = 2
    shallow: int = 1
    deep: int = 3


@dataclass
class MatchConf:
    """Technique (A) against sound alpha-beta (B), same ordering, equal node budget per move,
    ``openings`` distinct seeded random openings of ``opening_ply`` plies
    (play/openings.py), each played with colours swapped (a game pair: 2 games per opening).

    ``pairs_per_task``: openings per runner task (0 = all in one task); smaller tasks balance
    the workers and lose less on a kill (resume is per task). ``max_plies``: a longer game is
    adjudicated a draw. ``quiescence``: quiescence depth given to *both* players (chess; None
    = off). ``balance_margin``: keep only openings whose sound search at ``balance_depth``
    scores within this many ``value_scale`` units of 0 (None = every opening).

    ``play``: how both players search a move (play/match.py, PLAY_MODES): "engine" (the
    default: one iterative deepening per move whose transposition table, killers and history
    persist across its iterations, the previous iteration's best move first) or
    "fresh-per-depth" (every depth a fresh search, nothing carried over: the older runner).
    ``persist_across_moves`` (engine play): the table, killers and history also carry over
    from one move of a game to the next (default); false: every move starts empty. It has no
    effect under fresh-per-depth (recorded false in the game rows).

    ``budget_mode`` (engine play): "nodes" (the default: ``budget`` nodes per move) or "cpu"
    (time-control matches: ``cpu_seconds`` of the searching thread's CPU time per move,
    ``time.thread_time()``; ``budget`` is then a node cap). CPU-time games are not
    reproducible row for row (play/match.py)."""

    enabled: bool = True
    openings: int = 8
    opening_ply: int = 4
    budget: int = 2000
    ordering: str = "static"
    techniques: list[str] = field(default_factory=list)   # labels; empty = none
    pairs_per_task: int = 0
    max_plies: int = 400
    quiescence: Optional[int] = None
    balance_margin: Optional[float] = None
    balance_depth: int = 2
    play: str = "engine"
    persist_across_moves: bool = True
    budget_mode: str = "nodes"
    cpu_seconds: Optional[float] = None


@dataclass
class DomainConf:
    enabled: bool = True
    positions: int = 8
    depth: int = 6                  # nominal depth of every search (incremental: the tree's d)
    ordering: str = "static"
    budget: int = 3000              # node budget: depth reached / move chosen at equal budget
    budget_max_depth: int = 64      # deepest iteration under the budget (incremental: d)
    value_scale: float = 1.0
    # None: the game's own null-move guard where it has one (Connect Four: >= 3 safe moves,
    # games/null_move.py; chess: not in check, not king and pawns only); Othello has none.
    # False: Connect Four's unguarded pass (every position). NULL_MOVE_GUARDS: what is allowed.
    null_move_guard: Optional[bool] = None
    probcut_fit: ProbCutFitConf = field(default_factory=ProbCutFitConf)
    match: MatchConf = field(default_factory=lambda: MatchConf(enabled=False))
    # incremental tree only
    b: int = 5
    decay: float = 0.9
    correlations: list[float] = field(default_factory=lambda: [0.0, 0.5, 0.9])
    # connect4: a benchmark file; othello: random positions after ``ply`` moves; chess: EPD
    benchmark: str = ""
    ply: int = 12
    epd: str = ""


@dataclass
class Domains:
    incremental: DomainConf = field(default_factory=DomainConf)
    connect4: DomainConf = field(default_factory=DomainConf)
    othello: DomainConf = field(default_factory=DomainConf)
    chess: DomainConf = field(default_factory=DomainConf)


#: the study's domains: the sections of ``tradeoff.domains`` (Domains' fields), in order
DOMAINS = tuple(f.name for f in fields(Domains))


@dataclass
class TuningConf:
    """The tuning study (``tasks: tuning``; studies/tradeoff/tuning_study.py): every grid
    setting of ``settings`` (play/tuning.py GRID names) plays sound alpha-beta in each domain
    whose ``match`` is enabled (its ordering, opening ply, quiescence, play mode and balance
    filter), at ``tune_budget`` nodes per move on the first ``tune_openings`` openings of one
    seeded set (stage ``tune``); the best setting per technique family and domain (by
    pentanomial score, ties: the first in ``settings``) then plays at ``confirm_budget`` on
    the next ``confirm_openings`` openings of that set, disjoint from the tuning ones (stage
    ``confirm``, which reads the tune stage's run ``tuned_run``)."""

    stage: str = "tune"
    settings: list[str] = field(default_factory=lambda: list(GRID))
    tune_openings: int = 100
    tune_budget: int = 10000
    confirm_openings: int = 200
    confirm_budget: int = 100000
    tuned_run: str = ""


@dataclass
class TradeoffSection:
    """The ``tradeoff`` section of a preset (conf/experiment/unsound_tradeoff.yaml)."""

    domain: Any = "all"             # "all", one domain name, or a list of names
    size: str = "full"              # informational: the size preset used
    tasks: str = "all"              # all | positions | matches | tuning: which task kinds to run
    #: technique records as config mappings (label, family, the technique's parameters), read
    #: by searchlab.algorithms.pruning.Technique.from_config: futility and razoring margins in
    #: units of the domain's value_scale; ProbCut's threshold (its model is the domain's fit)
    techniques: list[Any] = field(default_factory=list)
    domains: Domains = field(default_factory=Domains)
    tuning: TuningConf = field(default_factory=TuningConf)


@dataclass
class TradeoffConfig:
    """The whole study as plain values: the section plus the engine keys it uses."""

    study: str = "unsound_tradeoff"
    description: str = ""
    seed: int = 0
    domain: Any = "all"             # "all", one domain name, or a list of names
    n_jobs: int = 2
    progress: bool = True
    results_dir: str = "results"
    size: str = "full"              # informational: the size preset used (full, small, tiny)
    tasks: str = "all"              # all | positions | matches | tuning
    techniques: list[Technique] = field(default_factory=list)
    domains: Domains = field(default_factory=Domains)
    tuning: TuningConf = field(default_factory=TuningConf)


# --- loading and validation -----------------------------------------------------------------
def data_path(path: str) -> Path:
    """A data file: absolute as given, else relative to searchlab/data (the inputs shipped
    with the package: Connect Four benchmark sets, chess EPD suites)."""
    p = Path(path)
    return p if p.is_absolute() else DATA_DIR / p


def _fail(msg: str) -> None:
    raise ConfigError(msg)


def from_engine(cfg: Any) -> TradeoffConfig:
    """The trade-off study of a composed engine config (DictConfig or dict) that has a
    ``tradeoff`` section. Unknown keys, wrong types and out-of-range values raise ConfigError
    naming the key (``tradeoff.domains.connect4.depth``, ``seed``, ``runner.n_jobs``)."""
    data = plain_config(cfg)
    section = data.get("tradeoff")
    if not isinstance(section, dict):
        _fail(f"tradeoff must be a mapping (the study's section); got {section!r}")
    sec = structured(TradeoffSection, section, "tradeoff")
    techniques = []
    for i, node in enumerate(sec.techniques):
        try:
            techniques.append(Technique.from_config(node, f"tradeoff.techniques[{i}]"))
        except InvalidParameterError as e:
            _fail(str(e))
    runner = data.get("runner") or {}
    tc = TradeoffConfig(study=data.get("name"), description=data.get("description") or "",
                        seed=data.get("seed"), domain=sec.domain,
                        n_jobs=runner.get("n_jobs", 2), progress=runner.get("progress", True),
                        results_dir=data.get("results_dir") or "results", size=sec.size,
                        tasks=sec.tasks, techniques=techniques, domains=sec.domains,
                        tuning=sec.tuning)
    try:
        return validate(tc)
    except ConfigError as e:
        msg = str(e)
        if msg.startswith("n_jobs"):
            raise ConfigError("runner." + msg) from None
        if msg.startswith(("seed", "study")):
            raise
        raise ConfigError("tradeoff." + msg) from None


def selected_domains(cfg: TradeoffConfig) -> list[str]:
    sel = cfg.domain
    names = list(DOMAINS) if sel in ("all", None) else [sel] if isinstance(sel, str) else list(sel)
    for n in names:
        if n not in DOMAINS:
            _fail(f"domain: unknown domain {n!r}; choose from all, {', '.join(DOMAINS)}")
    return [n for n in names if getattr(cfg.domains, n).enabled]


#: Most openings per domain of a trade-off study's matches (2 games each): 200 000 games.
MAX_MATCH_OPENINGS = 100_000
#: Deepest balance check: the reference engine searches every drawn opening (up to 50 draws
#: per opening kept) at this depth before the run starts.
MAX_BALANCE_DEPTH = 8
#: Plies by which a game of the domain is over: Connect Four's board is full at 42, a random
#: Othello game is over after games.othello.MAX_RANDOM_PLY + 1 for almost every seed.
MAX_OPENING_PLY = {"connect4": 42, "othello": MAX_RANDOM_PLY + 1}


def _int(key: str, v: Any, lo: int) -> None:
    """v an integer in [lo, MAX_COUNT] (every count, depth and budget is bounded:
    searchlab.limits; depths are bounded again by the search itself)."""
    check_int(key, v, lo, MAX_COUNT, error=ConfigError)


def _pos(key: str, v: Any) -> None:
    if not check_number(key, v, error=ConfigError) > 0:
        _fail(f"{key} must be a number > 0; got {v!r}")


def validate(cfg: TradeoffConfig) -> TradeoffConfig:
    """Range and combination checks; returns cfg unchanged or raises TradeoffConfigError."""
    _int("seed", cfg.seed, 0)
    if isinstance(cfg.n_jobs, bool) or not isinstance(cfg.n_jobs, int) or cfg.n_jobs == 0 \
            or cfg.n_jobs < -1:
        _fail(f"n_jobs must be an integer >= 1 (or -1 for all cores); got {cfg.n_jobs!r}")
    if not cfg.study or "/" in cfg.study:
        _fail(f"study must be a non-empty name without '/'; got {cfg.study!r}")
    names = selected_domains(cfg)
    if not names:
        _fail("domain: no enabled domain selected")
    if cfg.tasks not in TASK_KINDS:
        _fail(f"tasks must be one of {', '.join(TASK_KINDS)}; got {cfg.tasks!r}")
    if cfg.tasks == "tuning":
        _check_tuning(cfg, names)
    if not cfg.techniques:
        _fail("techniques: the list is empty (at least the sound reference is needed)")
    labels = [t.label for t in cfg.techniques]
    dup = {x for x in labels if labels.count(x) > 1}
    if dup:
        _fail(f"techniques: duplicate label(s) {sorted(dup)}")
    if not any(t.family == "sound" for t in cfg.techniques):
        _fail("techniques: one entry must have family 'sound' (the reference configuration)")
    for i, t in enumerate(cfg.techniques):
        try:
            t.check()           # the family matches the fields set; parameters in range
        except InvalidParameterError as e:
            _fail(f"techniques[{i}] ({t.label}): {e}")
    for n in names:
        d = getattr(cfg.domains, n)
        k = f"domains.{n}"
        _int(f"{k}.positions", d.positions, 1)
        _int(f"{k}.depth", d.depth, 1)
        _int(f"{k}.budget", d.budget, 1)
        _int(f"{k}.budget_max_depth", d.budget_max_depth, 1)
        _pos(f"{k}.value_scale", d.value_scale)
        f = d.probcut_fit
        _int(f"{k}.probcut_fit.positions", f.positions, 3)
        _int(f"{k}.probcut_fit.ply", f.ply, 0)
        _int(f"{k}.probcut_fit.shallow", f.shallow, 1)
        if not isinstance(f.deep, int) or f.deep <= f.shallow:
            _fail(f"{k}.probcut_fit.deep must be an integer > shallow ({f.shallow}); got {f.deep!r}")
        m = d.match
        if m.enabled:
            if n == "incremental":
                _fail(f"{k}.match.enabled: matches are played in connect4, othello and chess only")
            check_int(f"{k}.match.openings", m.openings, 1, MAX_MATCH_OPENINGS, error=ConfigError)
            _int(f"{k}.match.opening_ply", m.opening_ply, 0)
            longest = min(m.max_plies, MAX_OPENING_PLY.get(n, m.max_plies))
            if m.opening_ply >= longest:
                _fail(f"{k}.match.opening_ply={m.opening_ply}: an opening must end before the "
                      f"game does; at most {longest - 1} random plies in {n} (its games are over "
                      f"by {longest} plies, or match.max_plies={m.max_plies})")
            _int(f"{k}.match.budget", m.budget, 1)
            _int(f"{k}.match.pairs_per_task", m.pairs_per_task, 0)
            _int(f"{k}.match.max_plies", m.max_plies, 1)
            check_int(f"{k}.match.balance_depth", m.balance_depth, 1, MAX_BALANCE_DEPTH,
                      error=ConfigError)
            if m.quiescence is not None:
                _int(f"{k}.match.quiescence", m.quiescence, 1)
            if m.balance_margin is not None:
                _pos(f"{k}.match.balance_margin", m.balance_margin)
            if m.play not in PLAY_MODES:
                _fail(f"{k}.match.play must be one of {', '.join(PLAY_MODES)}; got {m.play!r}")
            if not isinstance(m.persist_across_moves, bool):
                _fail(f"{k}.match.persist_across_moves must be true or false; got "
                      f"{m.persist_across_moves!r}")
            if m.budget_mode not in BUDGET_MODES:
                _fail(f"{k}.match.budget_mode must be one of {', '.join(BUDGET_MODES)}; got "
                      f"{m.budget_mode!r}")
            if m.budget_mode == "cpu":
                if m.play != "engine":
                    _fail(f"{k}.match.budget_mode: 'cpu' needs match.play: engine; got "
                          f"{m.play!r}")
                if m.cpu_seconds is None:
                    _fail(f"{k}.match.cpu_seconds must be a number > 0 with budget_mode 'cpu'; "
                          f"got null")
                _pos(f"{k}.match.cpu_seconds", m.cpu_seconds)
            elif m.cpu_seconds is not None:
                _fail(f"{k}.match.cpu_seconds is for budget_mode 'cpu' (time-control matches); "
                      f"got {m.cpu_seconds!r} with budget_mode 'nodes'")
            for lab in m.techniques:
                if lab not in labels:
                    _fail(f"{k}.match.techniques: {lab!r} is not a technique label "
                          f"(labels: {', '.join(labels)})")
        if n == "incremental":
            _int(f"{k}.b", d.b, 2)
            if not 0 < d.decay <= 1:
                _fail(f"{k}.decay must be in (0, 1]; got {d.decay}")
            if not d.correlations:
                _fail(f"{k}.correlations: the list is empty")
            for c in d.correlations:
                if not 0 <= c <= 1:
                    _fail(f"{k}.correlations must lie in [0, 1]; got {c}")
        if d.null_move_guard not in NULL_MOVE_GUARDS[n] or not isinstance(
                d.null_move_guard, (bool, type(None))):
            allowed = ", ".join("null (the game's own)" if v is None else str(v).lower()
                                for v in NULL_MOVE_GUARDS[n])
            _fail(f"{k}.null_move_guard must be one of {allowed} in {n}; got "
                  f"{d.null_move_guard!r} (docs/tradeoff.md, 'Null move per domain')")
        _check_orderings(k, n, d)
        if n == "connect4":
            if not d.benchmark or not data_path(d.benchmark).is_file():
                _fail(f"{k}.benchmark: no such file {d.benchmark!r}")
            _check_file(f"{k}.benchmark", n, data_path(d.benchmark))
        if n == "othello":
            _int(f"{k}.ply", d.ply, 0)
            if d.ply > 50:
                _fail(f"{k}.ply must be <= 50 (positions with moves left); got {d.ply}")
        if n == "chess":
            if not d.epd or not data_path(d.epd).is_file():
                _fail(f"{k}.epd: no such file {d.epd!r}")
            _check_file(f"{k}.epd", n, data_path(d.epd))
    return cfg


def _check_tuning(cfg: TradeoffConfig, names: list[str]) -> None:
    """The ``tuning`` section of a ``tasks: tuning`` study: known stage and grid settings
    (no repeats), positive opening counts and budgets, the confirmation budget not below the
    tuning one, ``tuned_run`` given with stage confirm (its contents are checked when the
    confirmation is planned: tuning_study.chosen_from_run), and some domain with matches."""
    t = cfg.tuning
    if t.stage not in TUNING_STAGES:
        _fail(f"tuning.stage must be one of {', '.join(TUNING_STAGES)}; got {t.stage!r}")
    if not t.settings:
        _fail(f"tuning.settings: the list is empty (grid settings: {', '.join(GRID)})")
    for x in t.settings:
        if x not in GRID:
            _fail(f"tuning.settings: {x!r} is not a grid setting (play/tuning.py GRID: "
                  f"{', '.join(GRID)})")
    dup = sorted({x for x in t.settings if t.settings.count(x) > 1})
    if dup:
        _fail(f"tuning.settings: listed twice: {dup}")
    _int("tuning.tune_openings", t.tune_openings, 1)
    _int("tuning.confirm_openings", t.confirm_openings, 1)
    _int("tuning.tune_budget", t.tune_budget, 1)
    _int("tuning.confirm_budget", t.confirm_budget, 1)
    if t.confirm_budget < t.tune_budget:
        _fail(f"tuning.confirm_budget must be >= tune_budget ({t.tune_budget}): a tune is "
              f"confirmed at a longer budget; got {t.confirm_budget}")
    if t.stage == "confirm" and not t.tuned_run:
        _fail("tuning.tuned_run: stage 'confirm' needs the tune stage's run directory "
              "(tradeoff.tuning.tuned_run=RUN_DIR)")
    if not any(getattr(cfg.domains, n).match.enabled for n in names):
        _fail("tuning: no selected domain has match.enabled (the tuning plays matches)")


def null_move_guarded(domain: str, d: DomainConf) -> bool:
    """Whether null move in ``domain`` goes through a zugzwang guard under config ``d``:
    Connect Four unless ``null_move_guard`` is false, chess always (the game's own guard),
    Othello and the incremental tree never (no guard exists)."""
    if domain == "connect4":
        return d.null_move_guard is not False
    return domain == "chess"


def _check_orderings(key: str, domain: str, d: DomainConf) -> None:
    """The domain's search and match orderings must be orderings of its game (a tree for
    incremental): otherwise every task would fail after the run started."""
    game = None if domain == "incremental" else sample_game(domain)
    for where, o in ((f"{key}.ordering", d.ordering), (f"{key}.match.ordering", d.match.ordering)):
        if where.endswith("match.ordering") and not d.match.enabled:
            continue
        try:
            ordering_of(o, game)
        except ValueError as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            _fail(f"{where}: {first}")


def _check_file(key: str, domain: str, path: Path) -> None:
    """Read the domain's position file through its loader before any work: a binary, empty or
    malformed file (or a Connect Four line that is not a legal game) is a ConfigError naming
    the file and line."""
    try:
        if domain == "chess":
            load_epd(path)
            return
        for lineno, (moves, _) in enumerate(load_benchmark(path), 1):
            try:
                ConnectFour(moves)
            except ValueError as e:
                raise ValueError(f"{path}: position {lineno} ({moves[:40]!r}): {e}") from None
    except (OSError, ValueError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        _fail(f"{key}: {first}")
