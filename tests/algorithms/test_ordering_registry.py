"""The ordering registry and the Ordering value; the pruning technique record.

Each component is declared once (ordering_registry.COMPONENTS) and the engines' own tables
must agree with it; a spec parses once into a frozen value whose text is the spec as given
(task ids and seeds use it); a pruning technique is one record (pruning.Technique) read the
same way by the ``pruning`` group, the trade-off study and the tuning grid."""

from __future__ import annotations

import dataclasses

import pytest

from searchlab.algorithms import kernels
from searchlab.algorithms.compiled import _engine as K
from searchlab.algorithms.ordering_registry import (COMPONENTS, DYNAMIC_COMPONENTS, Ordering,
                                                    describe, ordering_of)
from searchlab.algorithms.pruning import (FAMILIES, RECORDS, Beam, Futility, NullMove, ProbCut,
                                          Pruning, Quiescence, Technique)
from searchlab.errors import InvalidParameterError, UnsupportedError
from searchlab.experiment.schema import TechniqueNode
from searchlab.games.chess_game import Chess
from searchlab.games.connect4 import ConnectFour
from searchlab.play.tuning import GRID


def test_kernel_codes_are_the_kernels_own():
    declared = {n: c.kernel for n, c in COMPONENTS.items() if c.kernel is not None}
    assert set(declared) == set(kernels.ORDERINGS)
    for name, code in declared.items():
        assert getattr(kernels._ab, code) == kernels.ORDERINGS[name]


def test_compiled_codes_name_engine_constants():
    for name, c in COMPONENTS.items():
        if c.compiled is not None:
            assert isinstance(getattr(K, c.compiled), int), name
    # every dynamic component has a compiled twin; exact-value orders do not
    assert all(COMPONENTS[d].compiled for d in DYNAMIC_COMPONENTS)
    assert COMPONENTS["perfect"].compiled is None and COMPONENTS["perfect"].oracle


def test_value_parsed_once_keeps_its_text():
    game = Chess()
    v = ordering_of("id+staged+captures", game)
    assert isinstance(v, Ordering) and ordering_of("id+staged+captures", game) is v
    assert v.text == str(v) == "id+staged+captures"
    assert v.written == ("id", "staged", "captures")
    assert v.canonical == "id+tt+tactical+killer+history+captures"
    assert (v.base, v.dynamic, v.own) == ("captures", ("id", "tt", "tactical", "killer",
                                                        "history"), ("captures",))
    assert v.compiled_codes == ("B_OWN", ("D_TABLE", "D_TABLE", "D_TACTICAL", "D_KILLER",
                                          "D_HISTORY"))
    assert v.needs == {"static_values", "noisy_moves"}
    assert ordering_of(v, game) is v                     # search() accepts the value too
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.text = "natural"


def test_supports_is_asked_one_way():
    assert ordering_of("random").supports("kernel") and ordering_of("random").supports("compiled")
    assert not ordering_of("tt+random").supports("kernel")
    assert ordering_of("perfect").supports("kernel")
    assert not ordering_of("perfect").supports("compiled")
    own = ordering_of("tt+centre", ConnectFour())
    assert own.supports("compiled", {"centre": 1}) and not own.supports("compiled", {})
    assert all(ordering_of(o).supports("reference") for o in ("worst", "id+tt+static"))
    with pytest.raises(InvalidParameterError, match="engine must be one of"):
        own.supports("gpu")


def test_errors_name_what_is_allowed():
    with pytest.raises(InvalidParameterError, match="allowed natural, random"):
        ordering_of("tt+bogus")
    with pytest.raises(InvalidParameterError, match="twice"):
        ordering_of("staged+tt", Chess())
    with pytest.raises(UnsupportedError, match="tactical"):
        ordering_of("staged")


def test_describe_reads_table_text_without_a_game():
    v = describe("pvs:id+staged+corners")
    assert v.text == "id+staged+corners" and v.has("tt") and v.has("id")
    assert v.own == ("corners",) and v.base == "corners"
    assert describe("perfect").oracle and not describe("static").oracle
    assert describe("natural+id").written == ("natural", "id")


# --- pruning techniques ---------------------------------------------------------------------
def test_technique_record_defaults_and_family():
    t = Technique("null_r2", null_move=NullMove(2))
    assert (t.name, t.label, t.family, t.sound) == ("null_r2", "null_r2", "null_move", False)
    assert t.pruning == Pruning(null_move=NullMove(2))
    assert Technique().pruning is None and Technique().sound and Technique().name == "none"
    razor = Technique(label="razor 0.5", futility=Futility(0.3, 0.5))
    assert (razor.name, razor.family) == ("razor 0.5", "razoring")
    assert set(FAMILIES) >= {"sound", "null_move", "razoring", "quiescence"}


def test_technique_from_config_and_check():
    t = Technique.from_config({"label": "beam 4-3-2 per ply", "family": "beam",
                               "beam": {"widths": [4, 3, 2]}}, "tradeoff.techniques[0]")
    assert t.beam == Beam(3, (4, 3, 2)) and t.params_text() == "width=3, widths=[4, 3, 2]"
    t.check()
    with pytest.raises(InvalidParameterError, match=r"techniques\[0\].null_move: unknown parameter"):
        Technique.from_config({"null_move": {"depth": 3}}, "techniques[0]")
    with pytest.raises(InvalidParameterError, match="unknown key 'colour'"):
        Technique.from_config({"colour": "red"})
    with pytest.raises(InvalidParameterError, match="family 'beam' needs exactly"):
        Technique(label="x", family="beam", null_move=NullMove()).check()
    with pytest.raises(InvalidParameterError, match="null_move.reduction must be"):
        Technique(null_move=NullMove(0)).check()


def test_scaled_and_science_are_the_trade_off_study_s():
    t = Technique(label="futility 0.3", family="futility", futility=Futility(margin=0.3))
    assert t.scaled(10.0).futility == Futility(margin=3.0)
    assert Technique(label="alpha-beta (sound)", family="sound").scaled(0.3) == Pruning()
    pc = Technique(label="ProbCut t=1.0", probcut=ProbCut(threshold=1.0))
    assert pc.scaled(1.0) is None                     # no fitted model: not played
    fitted = ProbCut(1, 3, 0.6, 0.02, 0.03, 9.9)
    assert pc.scaled(1.0, fitted).probcut == dataclasses.replace(fitted, threshold=1.0)
    assert pc.science()["probcut"] == {"threshold": 1.0} and pc.params_text() == "threshold=1.0"
    q = Technique(label="quiescence 4", quiescence=Quiescence(4))
    assert q.science()["quiescence"] == {"max_depth": 4} and q.params_text() == "max_depth=4"


def test_one_record_for_group_grid_and_study():
    assert all(isinstance(t, Technique) and t.name == t.label == n for n, t in GRID.items())
    assert {t.family for t in GRID.values()} == {"null_move", "lmr", "futility", "probcut"}
    # the pruning group's node is generated from the record: its fields but the label, no more
    assert [f.name for f in dataclasses.fields(TechniqueNode)] == \
        [f.name for f in dataclasses.fields(Technique) if f.name != "label"]
    assert [f.name for f in dataclasses.fields(TechniqueNode)] == ["name", "family", *RECORDS, "params"]
