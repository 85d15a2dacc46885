"""analysis/reproduce.py: its computed sections (the studies themselves run in the slow path)."""

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from searchlab.analysis import estimators as E

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def reproduce():
    spec = importlib.util.spec_from_file_location("reproduce", ROOT / "analysis" / "reproduce.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_arithmetic_section_is_computed(reproduce):
    md = reproduce.arithmetic_section()
    assert "2.252·10^12" in md and "5.829" in md and "11.66" in md


def test_traces_section_draws_every_tree(reproduce, tmp_path):
    md = reproduce.traces_section(tmp_path)
    assert md.count("```") == 8
    assert "7 of 9 leaves examined" in md and "5 of 9 leaves examined" in md
    assert len(list(tmp_path.glob("trace_*.png"))) == 4


def test_ordered_and_discrete_sections(reproduce):
    rng = np.random.default_rng(3)
    rows = []
    for b in (2, 4):
        for d in range(2, 8):
            for i in range(4):
                for p in (0.0, 1.0 / b, 1.0):
                    a = 1.0 - 0.5 * p
                    rows.append(dict(experiment="ordered_p", tree="ordered", b=b, d=d, levels=None, p=p,
                                     algorithm="alphabeta", ordering="natural", instance=i,
                                     leaves=max(1, int(b ** (a * d) * rng.lognormal(0, 0.1))), status="ok"))
                for k in (0, 2):
                    rows.append(dict(experiment="discrete_values", tree="iid", b=b, d=d, levels=k, p=np.nan,
                                     algorithm="alphabeta", ordering="random", instance=i,
                                     leaves=max(1, int(b ** ((0.75 if k == 0 else 0.5) * d))), status="ok"))
    s = E.summarize(pd.DataFrame(rows), n_resamples=49)
    om = reproduce.ordered_section(s)
    assert "| p | b = 2 | b = 4 |" in om
    dm = reproduce.discrete_section(s)
    assert "K = 2" in dm and "continuous" in dm
    # the K-level cells' exponent is the DP's, with the sampled fit as its check
    from searchlab.studies.rigor.discrete import exact_discrete_alpha
    from searchlab.analysis.format import number
    for b in (2, 4):
        a = exact_discrete_alpha(b, 2, range(2, 8))
        assert f"**{number(a)}**; sampled " in dm
    assert "exact discrete-value exponents lie below Pearl's" in dm
    assert "The sampled fits' 95 % CIs contain the exact exponent in " in dm


@pytest.mark.parametrize("args,message", [
    (["--runs", "FILE"], "--runs {FILE}/small: cannot write there"),
    (["--out", "FILE/sub"], "--out {FILE}/sub: cannot write there"),
    (["--resamples", "-5"], "--resamples must be in [1, 1000000]; got -5"),
    (["--jobs", "0"], "--jobs must be in [1, 4096]; got 0"),
    # these ran the whole reproduction and rewrote REPORT.md
    (["--only", ""], "--only needs study names, comma-separated, none empty; got ''"),
    (["--only", ","], "--only needs study names, comma-separated, none empty; got ','"),
    (["--only", "ordering_hex_deep,"], "none empty; got 'ordering_hex_deep,'"),
    (["--only", " "], "none empty; got ' '"),
])
def test_bad_arguments_fail_at_the_start(reproduce, tmp_path, monkeypatch, capsys, args, message):
    """A bad --runs used to fail with a ValueError after every study had run."""
    file = tmp_path / "file"
    file.write_text("not a directory")
    ran = []
    monkeypatch.setattr(reproduce, "run_studies", lambda *a, **k: ran.append(a))
    args = [a.replace("FILE", str(file)) for a in args]
    assert reproduce.main(["--small", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("reproduce.py: error: ") and err.count("\n") == 1
    assert message.replace("{FILE}", str(file)) in err and ran == []


def test_runs_outside_the_repository_are_named_absolutely(reproduce, tmp_path):
    assert str(reproduce._rel(tmp_path / "x")) == str(tmp_path / "x")
    assert str(reproduce._rel(ROOT / "results" / "x")) == "results/x"


def test_only_names_studies_of_the_list(reproduce, tmp_path, capsys):
    assert reproduce.main(["--small", "--runs", str(tmp_path), "--only", "ordering_hex_deep,go"]) == 2
    assert "--only: go is not a study of STUDIES" in capsys.readouterr().err


def test_only_takes_chess_deep_too(reproduce, tmp_path, monkeypatch):
    """chess_deep runs apart from STUDIES; --only must reach it (and nothing else)."""
    ran = []
    monkeypatch.setattr(reproduce, "run_studies",
                        lambda *a, only=(), studies=(), **k: (ran.append((only, [n for n, *_ in studies])), (None, []))[1])
    assert reproduce.main(["--small", "--runs", str(tmp_path), "--only", "chess_deep"]) == 0
    assert ran == [(("chess_deep",), [n for n, *_ in reproduce.STUDIES] + ["chess_deep"])]


def test_a_search_two_studies_ran_counts_once(reproduce):
    row = dict(game="othello", positions="random", position="ply20#0", algorithm="alphabeta",
               ordering="id", d=3, pruning="none", nodes=10)
    df = pd.DataFrame([{**row, "experiment": "ordering_games"}, {**row, "experiment": "ordering_othello_deep"},
                       {**row, "d": 4, "experiment": "ordering_othello_deep"},
                       {**row, "game": None, "experiment": "pearl"}, {**row, "game": None, "experiment": "pearl"}])
    out = reproduce._one_row_per_search(df)
    assert list(out["experiment"]) == ["ordering_othello_deep", "ordering_othello_deep", "pearl", "pearl"]


def test_matches_at_1e4_always_run_1e5_only_with_the_flag(reproduce, tmp_path, monkeypatch):
    """000-n rests on the 10^4-node match presets, so every reproduction runs them; the
    10^5-node one runs only with --matches, and an existing run of it is read otherwise."""
    import searchlab.experiment.api as api
    ran = []
    monkeypatch.setattr(api, "run_study", lambda preset, ov, output_dir, progress: (
        ran.append(preset), Path(output_dir).mkdir(parents=True, exist_ok=True)))
    monkeypatch.setattr(reproduce, "has_games", lambda out: Path(out).exists())
    dirs, info = reproduce.run_matches(False, 2, tmp_path, False, False, log=lambda *_: None)
    assert ran == ["unsound_matches", "chess_matches"]
    assert [d.name for d in dirs] == ["unsound_matches", "chess_matches"]
    assert [i[0] for i in info] == ["unsound_matches", "chess_matches"]
    assert all((tmp_path / n / "reproduce_seconds.txt").exists() for n in ("unsound_matches", "chess_matches"))
    extra = tmp_path / "unsound_matches_1e5"
    extra.mkdir()                                        # an earlier --matches run, interrupted: not read
    (extra / "manifest.json").write_text('{"complete": false}')
    said = []
    dirs, _ = reproduce.run_matches(False, 2, tmp_path, True, False, log=said.append)
    assert [d.name for d in dirs] == ["unsound_matches", "chess_matches"]
    assert any("unsound_matches_1e5: not read" in s for s in said)
    (extra / "manifest.json").write_text('{"complete": true}')        # finished: read
    dirs, _ = reproduce.run_matches(False, 2, tmp_path, True, False, log=lambda *_: None)
    assert [d.name for d in dirs][-1] == "unsound_matches_1e5" and "unsound_matches_1e5" not in ran
    ran.clear()
    _, info = reproduce.run_matches(False, 2, tmp_path, True, True, log=lambda *_: None)
    assert ran == ["unsound_matches", "chess_matches", "unsound_matches_1e5"]
    # 10^6: only with its own flag (hours of CPU), not with --matches; its finished run is read
    long = tmp_path / "unsound_matches_1e6"
    long.mkdir()
    (long / "manifest.json").write_text('{"complete": false}')
    said.clear()
    dirs, _ = reproduce.run_matches(False, 2, tmp_path, True, True, log=said.append)
    assert "unsound_matches_1e6" not in [d.name for d in dirs]
    assert any("unsound_matches_1e6: not read" in s and "--matches-1e6" in s for s in said)
    ran.clear()
    dirs, _ = reproduce.run_matches(False, 2, tmp_path, True, False, log=lambda *_: None, long=True)
    assert ran == ["unsound_matches", "chess_matches", "unsound_matches_1e6"]
    assert [d.name for d in dirs][-1] == "unsound_matches_1e6"


def test_the_pruning_part_gets_past_the_tradeoff_study(reproduce, tmp_path, monkeypatch):
    """main() walks a part's stages in order; a name bound inside main() must not shadow a stage
    helper (a loop variable called ``where`` once made every full run fail at its second
    stage with UnboundLocalError). The studies are stubbed: the run must reach the matches."""
    class Reached(Exception):
        pass

    monkeypatch.setattr(reproduce, "run_preset", lambda *a, **k: (tmp_path, 0.0))

    def matches(*a, **k):
        raise Reached

    monkeypatch.setattr(reproduce, "run_matches", matches)
    with pytest.raises(Reached):
        reproduce.main(["--small", "--part", "pruning", "--runs", str(tmp_path / "runs"),
                        "--out", str(tmp_path / "out")])


@pytest.mark.parametrize("complete", [True, False])
def test_the_pruning_part_judges_a_finished_tuning_confirmation_with_the_matches(reproduce, tmp_path, monkeypatch,
                                                                                  complete):
    runs = tmp_path / "runs"
    confirm = runs / "small" / "unsound_tuning_small_confirm"
    confirm.mkdir(parents=True)
    (confirm / "manifest.json").write_text(f'{{"complete": {str(complete).lower()}}}')
    (confirm / "reproduce_seconds.txt").write_text("42.0")
    monkeypatch.setattr(reproduce, "run_preset", lambda *a, **k: (tmp_path, 0.0))
    monkeypatch.setattr(reproduce, "run_matches", lambda *a, **k: ([tmp_path / "m"], []))
    monkeypatch.setattr(reproduce, "run_tuning", lambda *a, **k: "tuning text")
    monkeypatch.setattr(reproduce, "has_games", lambda out: Path(out).exists())
    seen = []
    monkeypatch.setattr(reproduce, "claim_counts", lambda run_dir, dirs: seen.append(dirs) or {})
    args = reproduce.argparse.Namespace(small=True, jobs=1, resume=True, matches=False, matches_1e6=False)
    run = reproduce.run_pruning(args, runs / "small")
    assert seen == [(tmp_path / "m", confirm) if complete else (tmp_path / "m",)]
    # its seconds count in the part's "Studies run" table only when it is read
    rows = [r for r in run.info if r[0] == "unsound_tuning_small_confirm"]
    assert [r[4] for r in rows] == ([42.0] if complete else [])


@pytest.mark.parametrize("complete", [True, False])
def test_the_pruning_part_counts_finished_time_control_runs_in_the_verdict(reproduce, tmp_path, monkeypatch,
                                                                           complete):
    """Both time-control runs (Connect Four and Othello, chess) are handed to the 000-n verdict
    with the node-budget match runs when finished; an unfinished one is not."""
    runs = tmp_path / "runs" / "small"
    timed = [runs / "unsound_matches_time_small", runs / "chess_matches_time_small"]
    assert reproduce.time_dirs(True, runs) == timed
    for d in timed:
        d.mkdir(parents=True)
        (d / "manifest.json").write_text(f'{{"complete": {str(complete).lower()}}}')
        (d / "reproduce_seconds.txt").write_text("7.0")
    monkeypatch.setattr(reproduce, "run_preset", lambda *a, **k: (tmp_path, 0.0))
    monkeypatch.setattr(reproduce, "run_matches", lambda *a, **k: ([tmp_path / "m"], []))
    monkeypatch.setattr(reproduce, "run_tuning", lambda *a, **k: "tuning text")
    monkeypatch.setattr(reproduce, "has_games", lambda out: Path(out).exists())
    seen = []
    monkeypatch.setattr(reproduce, "claim_counts", lambda run_dir, dirs: seen.append(dirs) or {})
    args = reproduce.argparse.Namespace(small=True, jobs=1, resume=True, matches=False, matches_1e6=False)
    run = reproduce.run_pruning(args, runs)
    assert seen == [(tmp_path / "m", *timed) if complete else (tmp_path / "m",)]
    rows = [r[0] for r in run.info if r[0].endswith("time_small")]
    assert rows == ([d.name for d in timed] if complete else [])


def _stub_runners(reproduce, monkeypatch, tag: str) -> list:
    """Every part's runner replaced by one that runs nothing and returns a section named after
    the part and ``tag``; the parts run are recorded."""
    ran = []

    def runner(part):
        def run(args, runs_dir):
            ran.append(part)
            return reproduce.PartRun(pd.DataFrame(), {}, [(f"study_{part}", "(preset as is)", 1, 1, 2.0, "x")],
                                     lambda fig_dir: [(f"Section of {part}", f"{tag} body of {part}")])
        return run

    monkeypatch.setattr(reproduce, "RUNNERS", {p: runner(p) for p in reproduce.PARTS})
    return ran


def test_every_part_writes_its_report_and_report_md_assembles_them(reproduce, tmp_path, monkeypatch):
    ran = _stub_runners(reproduce, monkeypatch, "first")
    out = tmp_path / "out"
    assert reproduce.main(["--small", "--runs", str(tmp_path / "runs"), "--out", str(out)]) == 0
    assert ran == list(reproduce.PARTS)
    report = (out / "REPORT.md").read_text()
    for part in reproduce.PARTS:
        text = (out / "parts" / f"{part}.md").read_text()
        assert f"## Section of {part}\n\nfirst body of {part}" in text and "## Claims judged in this part" in text
        assert f"## Section of {part}\n\nfirst body of {part}" in report
        assert f"study_{part}" in report                       # its row of the studies table
    # one claims table: every claim once, its verdict from the part that owns it
    from searchlab.studies.claims.registry import CLAIMS
    claims = report.split("## Claims\n", 1)[1]
    assert all(f"| {c.label} |" in claims for c in CLAIMS)
    assert "not judged" not in claims
    assert report.index("## Section of trees") < report.index("## Section of real_games") \
        < report.index("## Section of pruning") < report.index("## Claims")


def test_one_part_regenerated_replaces_only_its_own_sections(reproduce, tmp_path, monkeypatch):
    out, runs = tmp_path / "out", str(tmp_path / "runs")
    _stub_runners(reproduce, monkeypatch, "first")
    assert reproduce.main(["--small", "--runs", runs, "--out", str(out)]) == 0
    ran = _stub_runners(reproduce, monkeypatch, "second")
    assert reproduce.main(["--small", "--part", "pruning", "--runs", runs, "--out", str(out)]) == 0
    assert ran == ["pruning"]
    report = (out / "REPORT.md").read_text()
    assert "second body of pruning" in report and "first body of pruning" not in report
    assert "first body of trees" in report and "first body of real_games" in report
    assert "--part pruning" in report                          # the part's own command in the header


def test_a_part_missing_at_this_size_is_named_and_its_claims_not_judged(reproduce, tmp_path, monkeypatch):
    out = tmp_path / "out"
    _stub_runners(reproduce, monkeypatch, "first")
    assert reproduce.main(["--small", "--part", "pruning", "--runs", str(tmp_path / "runs"), "--out", str(out)]) == 0
    report = (out / "REPORT.md").read_text()
    assert "Not generated at this size: trees, real_games, mcts." in report
    assert "not judged: part trees not generated at size small" in report
    row = next(ln for ln in report.splitlines() if ln.startswith("| 000-n, 001-l |"))
    assert "not judged" not in row                            # pruning's own claim is judged


def test_a_part_that_writes_another_parts_figure_is_stopped_and_the_figure_kept(reproduce, tmp_path, monkeypatch):
    out, runs = tmp_path / "out", str(tmp_path / "runs")

    def runner(part, data):
        def sections(fig_dir):
            (fig_dir / "shared.png").write_bytes(data)
            return [(f"Section of {part}", "body")]
        return lambda args, runs_dir: reproduce.PartRun(pd.DataFrame(), {}, [], sections)

    monkeypatch.setattr(reproduce, "RUNNERS", {"trees": runner("trees", b"trees")})
    assert reproduce.main(["--small", "--part", "trees", "--runs", runs, "--out", str(out)]) == 0
    monkeypatch.setattr(reproduce, "RUNNERS", {"pruning": runner("pruning", b"pruning")})
    with pytest.raises(ValueError, match=r"part pruning wrote figures that another part owns: shared.png \(part trees\)"):
        reproduce.main(["--small", "--part", "pruning", "--runs", runs, "--out", str(out)])
    assert (out / "figures" / "shared.png").read_bytes() == b"trees"
    assert not (out / "parts" / "pruning.json").exists()


def test_the_committed_parts_own_disjoint_figures_that_exist(reproduce):
    owner = {}
    for part in reproduce.PARTS:
        meta = reproduce._read_json(ROOT / "analysis" / "parts" / f"{part}.json")
        assert meta["figures"], part
        for name in meta["figures"]:
            assert name not in owner, f"{name}: parts {owner.get(name)} and {part}"
            assert (ROOT / "analysis" / "figures" / name).is_file(), name
            owner[name] = part


def test_bad_part_is_refused(reproduce, tmp_path, capsys):
    with pytest.raises(SystemExit):
        reproduce.main(["--part", "chess", "--runs", str(tmp_path)])
    assert "invalid choice: 'chess'" in capsys.readouterr().err


def test_resume_runs_a_study_of_another_config_afresh(reproduce, tmp_path, monkeypatch):
    """--resume keeps a study's stored tasks only when its config is the preset's: a finished
    run of an older config (the preset changed) is removed and run again, never reused as is."""
    import searchlab.experiment.api as api
    calls = []

    def run_study(name, ov, output_dir, progress=False):
        calls.append(name)
        if len(calls) == 1:
            raise api.RunError(f"{output_dir} holds a run of another config")
        Path(output_dir).mkdir(parents=True)
        return Path(output_dir)

    old = tmp_path / "parallel"
    old.mkdir()
    (old / "report.md").write_text("an old run")
    (old / "reproduce_seconds.txt").write_text("12.0")
    monkeypatch.setattr(api, "run_study", run_study)
    out, _ = reproduce.run_preset("parallel", False, 2, tmp_path, True, log=lambda *_: None)
    assert calls == ["parallel", "parallel"] and not (out / "report.md").exists()


@pytest.mark.parametrize("small", [False, True])
def test_every_study_of_the_reproduction_validates(reproduce, small):
    """Each study's overrides, at full size and at --small, compose and validate (a full run
    must not stop at its fourth study on a config error)."""
    from searchlab.experiment.api import compose
    from searchlab.experiment.validation import validate
    for name, full, extra in reproduce.STUDIES + [reproduce.CHESS_DEEP]:
        validate(compose(name, list(full) + (list(extra) if small else [])))


def test_tuning_and_time_control_run_only_with_the_flag(reproduce, tmp_path, monkeypatch):
    """The tuning study (tune, then confirm over the tune run) and the time-control matches run
    only with --matches; without it nothing runs and the section says so."""
    import searchlab.experiment.api as api
    ran = []
    monkeypatch.setattr(api, "run_study", lambda preset, ov, output_dir, progress: (
        ran.append((preset, [o for o in ov if o.startswith("tradeoff.")])),
        Path(output_dir).mkdir(parents=True, exist_ok=True)))
    monkeypatch.setattr(reproduce, "has_games", lambda out: False)
    text = reproduce.run_tuning(True, 2, tmp_path, False, False, log=lambda *_: None)
    assert ran == [] and text.count("Not run (it runs with --matches).") == 3
    reproduce.run_tuning(True, 2, tmp_path, False, True, log=lambda *_: None)
    tune = tmp_path / "unsound_tuning_small"
    assert ran == [("unsound_tuning_small", []),
                   ("unsound_tuning_small", ["tradeoff.tuning.stage=confirm",
                                             f"tradeoff.tuning.tuned_run={tune}"]),
                   ("unsound_matches_time_small", []), ("chess_matches_time_small", [])]
    assert (tmp_path / "unsound_tuning_small_confirm" / "reproduce_seconds.txt").exists()


def test_an_interrupted_tuning_or_time_control_run_is_not_reported(reproduce, tmp_path, monkeypatch):
    """Read without --matches, a run that did not finish is named, not reported as if whole."""
    monkeypatch.setattr(reproduce, "has_games", lambda out: True)
    for name in ("unsound_tuning_small", "unsound_tuning_small_confirm", "unsound_matches_time_small",
                 "chess_matches_time_small"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text('{"complete": false}')
    (tmp_path / "unsound_tuning_small" / "reproduce_seconds.txt").write_text("12.0")
    text = reproduce.run_tuning(True, 2, tmp_path, True, False, log=lambda *_: None)
    # the tune run, and both time-control runs (the confirm run is not read without its tune run)
    assert text.count("Not read: its run under") == 3 and "incomplete" in text
    assert "chess_matches_time_small is incomplete" in text
    assert "unsound_tuning_small 12 s" in text              # the time an earlier run recorded


def test_every_option_of_reproduce_is_documented_in_analysis_readme():
    import re
    flags = re.findall(r'add_argument\("(--[a-z0-9-]+)"', (ROOT / "analysis" / "reproduce.py").read_text())
    readme = (ROOT / "analysis" / "README.md").read_text()
    assert len(flags) >= 10 and "--matches-1e6" in flags
    assert [f for f in flags if f"`{f}" not in readme] == []


def test_a_shared_study_is_read_not_run_and_its_seconds_counted_once(reproduce, tmp_path, monkeypatch):
    """rigor runs in the trees part; the real_games part reads a complete run of it without
    running it again, and its row carries no seconds (counted in the trees part only)."""
    import searchlab.studies.claim_study.claim_study_report as CSR
    ran = []
    monkeypatch.setattr(reproduce, "_run_or_afresh", lambda name, ov, out, log: ran.append(name))
    monkeypatch.setattr(reproduce, "_complete", lambda d: d.name == "rigor")
    monkeypatch.setattr(reproduce, "_recorded_seconds", lambda out, secs, resume: 7.0)
    monkeypatch.setattr(CSR, "results", lambda out: {out.name: {"from": out.name}})
    exact, info = reproduce.run_claim_studies(True, 1, tmp_path, False, log=lambda *a: None,
                                              names=("chance", "rigor"), shared=("rigor",))
    assert ran == ["chance"] and exact["rigor"] == {"from": "rigor"}
    rows = {r[0]: r for r in info}
    assert rows["chance"][4] == 7.0 and rows["rigor"][4] == 0.0
    assert "its seconds are counted there" in rows["rigor"][1]


def test_the_chess_deep_minimal_trees_run_has_its_own_size_and_counts_once(reproduce, tmp_path, monkeypatch):
    """minimal_trees_chess runs at claim_study.size=chess_deep (--small: chess_deep_small), its
    results under its own key from the family's entry, one row of seconds; the real_games part
    judges 000-j on it only when its run is complete."""
    import searchlab.studies.claim_study.claim_study_report as CSR
    from searchlab.experiment.api import compose
    from searchlab.experiment.validation import validate
    ran = []
    monkeypatch.setattr(reproduce, "_run_or_afresh", lambda name, ov, out, log: ran.append((name, ov[0])))
    monkeypatch.setattr(reproduce, "_recorded_seconds", lambda out, secs, resume: 7.0)
    monkeypatch.setattr(CSR, "results", lambda out: {"minimal_trees": {"from": out.name}})
    for small, size in ((False, "chess_deep"), (True, "chess_deep_small")):
        ran.clear()
        exact, info = reproduce.run_claim_studies(small, 1, tmp_path, False, log=lambda *a: None,
                                                  names=("minimal_trees", "minimal_trees_chess"))
        assert ran == [("minimal_trees", f"claim_study.size={'small' if small else 'full'}"),
                       ("minimal_trees_chess", f"claim_study.size={size}")]
        assert exact["minimal_trees_chess"] == {"from": "minimal_trees_chess"}
        assert [r[0] for r in info] == ["minimal_trees", "minimal_trees_chess"] and info[1][4] == 7.0
        validate(compose("minimal_trees_chess", [f"claim_study.size={size}"]))
    deep = tmp_path / "minimal_trees_chess"
    deep.mkdir(exist_ok=True)
    (deep / "manifest.json").write_text('{"complete": false}')
    kept = reproduce.complete_deep_chess(exact, tmp_path, log=lambda *a: None)
    assert set(kept) == {"minimal_trees"}
    (deep / "manifest.json").write_text('{"complete": true}')
    assert reproduce.complete_deep_chess(exact, tmp_path, log=lambda *a: None) == exact


def test_the_mcts_part_runs_the_study_and_judges_the_second_half_of_000p(reproduce, tmp_path, monkeypatch):
    """--part mcts at --small runs experiment=mcts_vs_alphabeta at its MCTS_SIZE (here tiny, to
    keep the test short), writes parts/mcts.md with the study's section, its cost from the
    run's provenance.json, the figure, and the verdict on 000-p (second half), keyed by the
    entry's key; REPORT.md takes that verdict from the part while the arithmetic half of 000-p
    stays the trees part's."""
    monkeypatch.setitem(reproduce.MCTS_SIZE, "small", "tiny")
    out, runs = tmp_path / "out", tmp_path / "runs"
    assert reproduce.main(["--small", "--part", "mcts", "--jobs", "1", "--runs", str(runs), "--out", str(out)]) == 0
    meta = reproduce._read_json(out / "parts" / "mcts.json")
    assert meta["part"] == "mcts" and meta["figures"] == ["elo_by_b.png"]
    assert list(meta["claims"]) == ["000-p-second-half"]
    row = meta["claims"]["000-p-second-half"]["row"]
    assert row[0] == "000-p (second half)" and "learned networks" in row[5] and "hex4 (b " in row[3]
    text = (out / "parts" / "mcts.md").read_text()
    wall, cpu = reproduce.session_seconds(runs / "small" / "mcts_vs_alphabeta")
    assert wall > 0 and cpu is not None and cpu > 0
    assert "size `tiny`" in text and f"{wall:.0f} s of wall time and {cpu:.0f} s of CPU time" in text
    assert "## Alpha-beta against Monte Carlo tree search as b grows" in text
    assert "![Elo(alpha-beta − MCTS) against b](figures/elo_by_b.png)" in text
    report = (out / "REPORT.md").read_text()
    claims = report.split("## Claims\n", 1)[1]
    assert "| 000-p (second half) |" in claims and "not judged: part mcts" not in claims
    assert "| 000-p | Go, b ≈ 250" in claims and "not judged: part trees not generated at size small" in claims
