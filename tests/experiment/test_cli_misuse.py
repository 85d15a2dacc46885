"""The searchlab command under misuse: every failure of the pre-run check, in a single
run and in every job of a multirun, is one line on stderr, exit status 2, nothing created; its
--help lists only what it accepts and --version is searchlab's. Called in-process (main), one
subprocess for the closed-pipe case."""

from __future__ import annotations

import os
import subprocess

import pytest

import searchlab
from searchlab.cli_guard import groups
from searchlab.experiment import api, lock
from searchlab.experiment.provenance import version
from searchlab.experiment.validation import validate

from .conftest import run_main as _main
from .experiment_helpers import ROOT, SEARCHLAB


BAD = [
    (["sweep.d=[2000]"], "sweep.d must be an integer in [0, 200]; got 2000"),
    (["sweep.d=[99999999999999999999]", "sweep.d_budget=null"],
     "sweep.d must be an integer in [0, 200]; got 99999999999999999999"),
    (["sweep.b=1..99999999999"], "sweep.b must be an integer in [1, 65536]; got 99999999999"),
    (["sweep.d=[150]", "sweep.d_budget=null", "sweep.ordering=[random]"],
     "60 tasks are estimated above runner.max_nodes=100000000: iid b=2 d=150 alphabeta/random: ~>4.6e18"),
    (["sweep.d=[150]", "sweep.d_budget=null"], "needs an exact-value oracle of b^d leaves"),
    (["name=" + "x" * 300], "name must be a word of 1 to 100 characters"),
    (["seed=18446744073709551616"], "seed must be an integer in [0, 18446744073709551615]"),
    (["search.tt_size=1099511627776"], "search.tt_size must be a power of two in [1, 67108864]"),
    (["-m", "--cfg", "job"], "--cfg cannot be combined with -m"),
    (["-m", "sweep.instances=1,0", "sweep.d=[1]"],
     "multirun job #1 (sweep.instances=0 sweep.d=[1]): sweep.instances must be an integer in [1, "),
    (["-m", "sweep.b=[2],[70000]"], "multirun job #1 (sweep.b=[70000]): sweep.b must be"),
    (["game.name=go"], "game.name: unknown value 'go'; allowed: tictactoe, connect4, othello, chess"),
    (["game=chess", "sweep.d=10"], "the grid is empty: all 5 grid points exceed sweep.d_budget="),
    (["game=connect4", "game.sample=5000"],
     "game.sample=5000: connect4 Test_L2_R1 has only 1000 positions"),
    (["tree=explicit", "tree.values=" + "[" * 300 + "1" + ",2]" * 300],
     "a value nests too deeply for the config parser; build a deep explicit tree with the Python API"),
    (["runner.resume=RUN", "hydra.run.dir=OTHER"],
     "runner.resume=RUN and hydra.run.dir=OTHER name two directories"),
]

#: misuse, round two: each was a traceback, a hang or a silent wrong answer before.
#: docs/config.md "What is refused" lists these inputs (tests/test_docs.py checks the list).
BIG = "1" + "0" * 400
EPD_DIR = "/tmp/searchlab-misuse-inputs"
MISUSE_23 = [
    (["~sweep"], "~sweep: a config key cannot be removed, only a config group's choice"),
    (["+sweep.foo=1"], "unknown config key 'sweep.foo'; allowed keys in sweep: b, d,"),
    (["+tree.foo=1"], "unknown config key 'tree.foo'; allowed keys in tree: model,"),
    (["+search.foo=1"], "unknown config key 'search.foo'; allowed keys in search: algorithm,"),
    (["+runner.n_jobss=1"], "unknown config key 'runner.n_jobss'; allowed keys in runner: backend,"),
    (["tree=explicit", "tree.values=5"], "tree.values must be a nested list of leaf values"),
    (["tree=explicit", f"tree.values=[{BIG},2]"],
     "a leaf must be a finite real number of magnitude at most 9.0072e+15"),
    (["tree=explicit", "tree.values=[1e400,2]"], "node 0 is inf; a leaf must be a finite real"),
    (["tree=incremental", "ordering=static", "sweep.b=[2]", "sweep.d=[3]", "pruning=null_r2",
      f"pruning.null_move.reduction={BIG}"], "null_move.reduction must be an integer in [1, 200]"),
    (["tree=incremental", "ordering=static", "sweep.b=[2]", "sweep.d=[3]", "pruning=futility_03",
      "pruning.futility.margin=1e30"], "futility.margin must be a finite number in [0, 9.0072e+15]"),
    (["tree=incremental", "ordering=static", "sweep.b=[2]", "sweep.d=[3]", "pruning=beam_3",
      f"pruning.beam.width={BIG}"], "beam.width must be an integer in [1, 65536]"),
    (["tree=incremental", "ordering=static", "sweep.b=[2]", "sweep.d=[3]", "pruning=lmr_log",
      "+pruning.lmr.min_depth=1000000000000000000000000000000"], "lmr.min_depth must be an integer in [1, 200]"),
    (["tree=incremental", "ordering=static", "sweep.b=[2]", "sweep.d=[3]", "pruning=quiescence_8_delta",
      "pruning.quiescence.delta=nan"], "quiescence.delta must be a finite number >= 0 and <= 9.0072e+15 (or None: off); got nan"),
    (["tree=incremental", "pruning=null_r2", "pruning.name=none", "ordering=static"],
     "pruning.name=none names no technique, but the pruning parameters set run null_move"),
    (["pruning=none", "pruning.name=null_r2"],
     "pruning.name=null_r2 names null_move, but the pruning parameters set run no technique"),
    (["runner=dask", "runner.address=notaurl"], "runner.address must be a Dask scheduler address"),
    (["sweep.instances=1000000"], "the grid has up to 240000000 tasks, over the limit of 50000000"),
    (["sweep.b=1..65536"], "the grid has up to 5242880 points"),
    (["experiment=multiplayer", "claim_study.openings=100000000"],
     "claim_study.openings must be null or an integer in [1, 100000]; got 100000000"),
    (["experiment=unsound_tradeoff_tiny", f"tradeoff.domains.chess.epd={EPD_DIR}/empty.epd"],
     "tradeoff.domains.chess.epd: /tmp/searchlab-misuse-inputs/empty.epd: no position (the EPD file is empty)"),
    (["experiment=unsound_tradeoff_tiny", f"tradeoff.domains.chess.epd={EPD_DIR}/binary.epd"],
     "binary.epd: not an EPD text file"),
    (["experiment=unsound_tradeoff_tiny", f"tradeoff.domains.chess.epd={EPD_DIR}/bad.epd"],
     "bad.epd:1: not an EPD line"),
    (["experiment=unsound_tradeoff_tiny", f"tradeoff.domains.connect4.benchmark={EPD_DIR}/empty.txt"],
     "empty.txt: no position (the benchmark file is empty)"),
    (["experiment=unsound_tradeoff_tiny", f"tradeoff.domains.connect4.benchmark={EPD_DIR}/bad.txt"],
     "bad.txt:1: expected '<moves> <score>'"),
    (["experiment=unsound_tradeoff_tiny", "tradeoff.domains.connect4.ordering=corners"],
     "tradeoff.domains.connect4.ordering: ordering component 'corners' unknown"),
    (["--shell-completion"], "--shell-completion needs one of install=SHELL, uninstall=SHELL or query=SHELL"),
    (["--config-dir", "/nonexistent-searchlab-dir", "experiment=mine"],
     "--config-dir: no such directory /nonexistent-searchlab-dir"),
    # round three: a removed key or study section ran another study (or a traceback)
    (["experiment=chance", "~claim_study"], "~claim_study: a config key cannot be removed"),
    (["experiment=parallel_tiny", "~parallel"], "~parallel: a config key cannot be removed"),
    (["experiment=chance", "claim_study=null"], "claim_study=null: a study's section cannot be emptied"),
    (["experiment=unsound_tradeoff_tiny", "~tradeoff"], "~tradeoff: a config key cannot be removed"),
    (["~name"], "~name: a config key cannot be removed, only a config group's choice"),
    (["~seed"], "set its value instead (seed=VALUE)"),
    (["~results_dir"], "set its value instead (results_dir=VALUE)"),
    (["~ordering"], "set its value instead (ordering=VALUE)"),
    (["~sweep.ordering"], "~sweep.ordering: a config key cannot be removed"),
    (["name=.."], "name=.. is not a name: the run directory <results_dir>/<name>/<timestamp> must "
                  "stay inside results_dir"),
    (["name=."], "name=. is not a name"),
    (["game=othello", "game.ply=62"], "game.ply must be an integer in 0..61"),
    (["pruning.lmr.after=3"], "pruning.lmr.after=3: pruning.lmr is null in this config, so it "
                              "has no key 'after'; choose an option that sets pruning.lmr first"),
    (["pruning.lmr={after:2}"], "pruning.lmr={after:2}: pruning.lmr is null in this config, so it "
                                "cannot be given whole; choose an option that sets pruning.lmr first"),
    (["experiment=unsound_tradeoff", "parallel={}"], "tradeoff and parallel are both set, and a "
                                                     "config selects one study kind by its section"),
    (["-m", "hydra/launcher=foo"], "hydra/launcher: unknown launcher 'foo'; allowed: basic"),
    # round three's variants: Hydra's other groups gave its raw error (exit 1, a run directory)
    (["-m", "hydra/sweeper=foo"], "hydra/sweeper: unknown option 'foo'; allowed: basic"),
    (["hydra/job_logging=foo"], "hydra/job_logging: unknown option 'foo'; allowed: default, disabled,"),
    (["hydra/nope=x"], "hydra/nope: unknown Hydra config group; allowed: hydra/env, hydra/help,"),
    (["experiment=unsound_tradeoff_tiny", "tradeoff.domains.othello.match.openings=1000000000"],
     "tradeoff.domains.othello.match.openings must be an integer in [1, 100000]"),
    (["experiment=unsound_tradeoff_tiny", "+tradeoff.domains.othello.match.balance_depth=200"],
     "tradeoff.domains.othello.match.balance_depth must be an integer in [1, 8]"),
    (["experiment=unsound_tradeoff_tiny", "tradeoff.domains.othello.match.opening_ply=70"],
     "tradeoff.domains.othello.match.opening_ply=70: an opening must end before the game does"),
]


@pytest.fixture(scope="module")
def misuse_inputs():
    """The bad input files MISUSE_23 names (absolute paths: a test's cwd is its tmp_path)."""
    d = os.path.dirname(EPD_DIR + "/x")
    os.makedirs(d, exist_ok=True)
    files = {"empty.epd": b"", "binary.epd": bytes(range(256)) * 4,
             "bad.epd": b"not an epd line\n", "empty.txt": b"", "bad.txt": b"4455 12 extra\n"}
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return d


@pytest.mark.parametrize("argv,message", MISUSE_23, ids=[" ".join(a)[:50] for a, _ in MISUSE_23])
def test_misuse_round_two_is_one_line_exit_2_and_creates_nothing(argv, message, misuse_inputs,
                                                                 tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, *argv)
    assert code == 2, err
    assert err.startswith("searchlab: error: ") and err.count("\n") == 1, err
    assert message in err, err
    assert "Traceback" not in err and "HYDRA" not in err + out
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv,message", BAD, ids=[" ".join(a)[:40] for a, _ in BAD])
def test_bad_input_is_one_line_exit_2_and_creates_nothing(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, out, err = _main(monkeypatch, capsys, *argv)
    assert code == 2, err
    assert err.startswith("searchlab: error: ") and err.count("\n") == 1, err
    assert message in err, err
    assert len(err) < 600 and "Traceback" not in err and "HYDRA" not in err + out
    assert list(tmp_path.iterdir()) == []


def test_a_run_directory_in_use_is_refused_before_hydra(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    held = lock.acquire(tmp_path / "D")
    try:
        code, _, err = _main(monkeypatch, capsys, "sweep.b=[2]", "sweep.d=[1]",
                             f"hydra.run.dir={tmp_path / 'D'}")
    finally:
        held.release()
    assert code == 2 and err.count("\n") == 1
    assert f"{tmp_path / 'D'} is in use by process {os.getpid()}" in err
    assert sorted(p.name for p in (tmp_path / "D").iterdir()) == [".lock"]


def test_version_and_help_list_only_what_is_accepted(monkeypatch, capsys):
    code, out, _ = _main(monkeypatch, capsys, "--version")
    assert code == 0 and out == f"searchlab {version()}\n" and version() == searchlab.__version__
    code, out, _ = _main(monkeypatch, capsys, "--help")
    assert code == 0 and "tradeoff_size" not in out and "Hydra 1." not in out
    listed = {}
    for line in out.splitlines():
        g, _, opts = line.strip().partition(": ")
        if g in groups():
            listed[g] = opts.split(", ")
    assert {"experiment", "tree", "game", "search", "runner"} <= set(listed)
    for g, opts in listed.items():
        for o in opts:                   # every listed option composes and validates
            extra = ["~tree"] if g == "game" else []
            validate(api.compose(None, [f"{g}={o}", *extra]))


def test_a_closed_pipe_is_quiet(tmp_path):
    """`searchlab --help | head -0`: the reader has gone before searchlab writes."""
    r, w = os.pipe()
    os.close(r)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([*SEARCHLAB, "--help"], stdout=w, stderr=subprocess.PIPE, text=True,
                       env=env, cwd=tmp_path, timeout=120)
    os.close(w)
    assert p.returncode == 0 and p.stderr == "", p.stderr
