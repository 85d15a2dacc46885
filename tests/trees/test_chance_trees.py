"""The chance and n-player tree models against docs/chance-tree-spec.md's reference tables."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from searchlab.algorithms.chance_search import search_chance
from searchlab.algorithms.multiplayer import search_multiplayer
from searchlab.errors import InvalidParameterError
from searchlab.hashing import GOLDEN, MASK64, mix64
from searchlab.trees.chance_tree import ChanceTree, ExplicitChanceTree, ludo_example
from searchlab.trees.nplayer_tree import NPlayerTree

SPEC = Path(__file__).resolve().parents[2] / "docs" / "chance-tree-spec.md"


def _table(heading: str) -> list[list[str]]:
    text = SPEC.read_text()
    part = text[text.index(heading):]
    rows = [ln for ln in part.splitlines() if ln.startswith("| ") and not ln.startswith("| b |")
            and not ln.startswith("| n |")]
    out = []
    for ln in rows:
        out.append([c.strip() for c in ln.strip("|").split("|")])
        if len(out) > 1 and len(out[-1]) != len(out[0]):
            out.pop()
            break
    return out


def test_chance_reference_numbers():
    rows = _table("### Reference numbers (`search_chance")
    assert len(rows) == 9
    for b, n, d, seed, levels, probs, value, alg, move, leaves, chance, nodes in rows:
        t = ChanceTree(int(b), int(n), int(d), seed=int(seed), levels=int(levels),
                       probs=None if probs == "uniform" else ast.literal_eval(probs))
        r = search_chance(t, alg)
        assert (repr(r.value), r.best_move, r.leaves, r.chance_nodes, r.nodes) == \
            (value, int(move), int(leaves), int(chance), int(nodes))


def test_nplayer_reference_numbers():
    rows = _table("### Reference numbers (`search_multiplayer")
    assert len(rows) == 11
    for n, b, d, seed, values, alg, vector, move, leaves, nodes in rows:
        t = NPlayerTree(int(n), int(b), int(d), seed=int(seed), values=values)
        r = search_multiplayer(t, alg)
        assert (r.values, r.best_move, r.leaves, r.nodes) == \
            (ast.literal_eval(vector), int(move), int(leaves), int(nodes))


def test_keys_and_values_follow_the_definition():
    t = ChanceTree(2, 3, 2, seed=9, low=-1.0, high=3.0)
    root = mix64((9 + GOLDEN) & MASK64)
    assert t.initial_state() == (root, 0)
    k = root
    for i in (1, 2, 0, 1):                   # move, outcome, move, outcome
        k = mix64((k + (i + 1) * GOLDEN) & MASK64)
    s = t.initial_state()
    for i in (1, 2, 0, 1):
        s = t.play(s, i)
    assert s == (k, 4) and t.is_terminal(s)
    assert t.utility(s) == -1.0 + 4.0 * ((k >> 11) * 2.0**-53)
    assert ChanceTree(2, 2, 1, levels=5, low=0, high=1).utility((7, 2)) == 0.5
    kinds = [(t.max_to_move(x), t.is_chance(x)) for x in ((1, 0), (1, 1), (1, 2), (1, 3))]
    assert kinds == [(True, False), (False, True), (False, False), (False, True)]


def test_ludo_example_is_the_background_tree():
    g = ludo_example()
    root = g.initial_state()
    safe, race = (g.chance_outcomes(g.play(root, m)) for m in (0, 1))
    assert [p for _, p in safe] == [0.5, 0.5] and [p for _, p in race] == [0.8, 0.2]
    assert search_chance(g, "expectiminimax").value == 4.0


@pytest.mark.parametrize("kwargs,match", [
    (dict(b=0, n=2, d=1), "b must be"),
    (dict(b=2, n=2, d=1, probs=(0.5, 0.6)), "probs must be 2 positive"),
    (dict(b=2, n=2, d=1, levels=1), "levels must be 0"),
    (dict(b=2, n=2, d=1, low=1.0, high=1.0), "low must be < high"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(InvalidParameterError, match=match):
        ChanceTree(**kwargs)


def test_bad_explicit_tree():
    with pytest.raises(InvalidParameterError, match="kind"):
        ExplicitChanceTree(("avg", [1, 2]))
    with pytest.raises(InvalidParameterError, match="probs"):
        ExplicitChanceTree(("chance", [(0.5, 1), (0.6, 2)]))
    with pytest.raises(InvalidParameterError, match="values must be"):
        NPlayerTree(3, 2, 2, values="zerosum")
