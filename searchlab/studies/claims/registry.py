"""The registry of the claims searchlab checks (docs/claims.md, written by ``claims_document``):
each claim with the function computing its verdict, read from the study families' modules
(searchlab.studies.<family>: chance, multiplayer, ordering, parallel, rigor) and this folder's
(exact_trees, complexity, arithmetic).

A verdict is computed from what is available: the run's table (ok rows, summarised by
``estimators.summarize``), exact computations on small explicit and i.i.d. trees
(``exact_trees.exact_checks``), measurements (``ordering_checks.ordering_checks``, the trade-off
study, ``parallel_verdicts.parallel_checks``) and the arithmetic of ``theory``. Claims that need
later work are "pending", naming what they need.
"""

from __future__ import annotations

from searchlab.studies.claims import arithmetic as A
from searchlab.studies.chance import chance_verdicts as CH
from searchlab.studies.ordering import chess_deep as CD
from searchlab.studies.ordering import chess_ordering_study as COS
from searchlab.studies.ordering import minimal_trees_study as MT
from searchlab.studies.claims import complexity as X
from searchlab.studies.claims import exact_trees as E
from searchlab.studies.mcts import mcts_verdict as MV
from searchlab.studies.multiplayer import multiplayer_verdicts as MP
from searchlab.studies.ordering import ordering_checks as O
from searchlab.studies.parallel import parallel_verdicts as P
from searchlab.studies.ordering import unsound as U
from searchlab.studies.claims.verdict import LITERATURE, SOURCES, Claim, Context, Verdict, literature


CLAIMS: list[Claim] = [
    # correctness and exactness
    Claim(("000-a", "001-a"), "alpha-beta returns the same value and the same move as minimax; it is not an approximation",
          "000, 001", "correctness", E.same_value_as_minimax),
    Claim(("000-b",), "the textbook tree (A: 3, 12, 8 · B: 2, 4, 6 · C: 14, 5, 2), left to right: value 3, move A, "
          "7 of 9 leaves examined, B's 4 and 6 pruned", "000", "correctness", E.textbook_tree),
    Claim(("000-c",), "searching C first with its leaves ordered 2, 5, 14 gives a different number of nodes for the "
          "same tree and the same answer", "000", "correctness", E.c_first_same_answer),
    Claim(("003-a",), "values returned from a cut node are bounds, not exact values (C returns 2, meaning ≤ 2); only "
          "the root's value is guaranteed exact", "003", "correctness", E.cut_values_are_bounds),
    Claim(("003-b",), "[[3, 2, 1], [4, 8, 9], [5, 6, 7]]: which leaves are pruned left to right, and which order of "
          "the children prunes the most", "003", "correctness", E.homework_tree),
    Claim(("003-c",), "relabelling leaves by an order-preserving map leaves minimax's move unchanged; under "
          "expectiminimax the move can change", "003", "correctness", CH.relabelling_under_chance),
    Claim(("000-d", "001-b"), "alpha-beta is still depth-first: memory O(b·d)", "000, 001", "correctness", E.depth_first_memory),
    # complexity and ordering
    Claim(("000-e", "001-c", "003-d"), "perfect ordering examines O(b^(d/2)) nodes (≈ √ of minimax, b_eff √b, twice "
          "the depth); 001: O(2·b^(d/2)) leaves", "000, 001, 003", "complexity", X.perfect_order_minimal_tree),
    Claim(("000-f", "001-d", "003-e"), "random ordering examines about O(b^(3d/4)) nodes", "000, 001, 003",
          "complexity", X.random_order_three_quarters),
    Claim(("001-e",), "random move ordering typically prunes ~50 % of leaf nodes", "001", "complexity", X.random_order_prunes_half),
    Claim(("000-g", "001-f"), "worst ordering (worst to best) prunes nothing: O(b^d), the same as minimax; the worst "
          "case is no worse than minimax", "000, 001", "complexity", X.worst_order_prunes_nothing),
    Claim(("000-h",), "chess arithmetic, b = 35: 35^8 vs 35^4 (factor ≈ 1.5 million), 35^12 vs 35^6, random 35^6 at "
          "depth 8; a thousandfold for mediocre ordering and another for good", "000", "arithmetic", A.chess_depth_8),
    Claim(("001-g",), "chess to depth 10 by minimax requires over 2.7 trillion state evaluations", "001",
          "arithmetic", A.chess_depth_10),
    Claim(("003-f",), "chess b ≈ 35 becomes ≈ 6 with perfect ordering", "003", "arithmetic", A.chess_perfect_branching),
    Claim(("003-g",), "at 10^9 positions per move, b = 35: the depth reachable by minimax, perfect and random "
          "ordering", "003", "arithmetic", A.depth_within_budget),
    Claim(("000-i",), "searching C first changes how much is pruned: the order of successors determines how much is "
          "pruned", "000", "complexity", E.order_changes_pruning),
    Claim(("000-j",), "with reasonable ordering, chess programs come fairly close to the b^(d/2) ideal", "000",
          "complexity", lambda ctx: MT.close_to_own_minimal_tree(ctx, fallback=CD.close_to_minimal_tree)),
    # ordering techniques
    Claim(("000-k", "001-h", "003-h"), "iterative deepening's best move first is the most effective ordering in "
          "practice; its repeated shallow work more than pays for itself", "000, 001, 003", "ordering", O.iterative_deepening_pays),
    Claim(("000-l", "001-i"), "killer moves and the history heuristic improve ordering", "000, 001", "ordering",
          CD.killer_and_history),
    Claim(("000-m", "001-j"), "transposition tables save much; an entry must store depth and bound type, not just a "
          "value", "000, 001", "ordering", O.transposition_tables),
    Claim(("001-k",), "captures first (MVV-LVA); aspiration windows increase cutoffs", "001", "ordering",
          lambda ctx: COS.captures_aspiration_verdict(ctx, fallback=CD.captures_first)),
    Claim(("002-a",), "centre column first in Connect Four, corners first in Othello, cells near stones in Hex: the "
          "earlier the good move, the more gets cut", "002", "ordering", O.game_specific_order),
    # unsound pruning
    Claim(("000-n", "001-l"), "forward pruning, null move and LMR are unsound but used because the depth bought is "
          "worth more than the occasional error", "000, 001", "unsound", U.unsound_pruning_worth_it),
    Claim(("001-m",), "quiescence search cures the horizon effect", "001", "unsound", U.quiescence_horizon),
    # limits
    Claim(("000-o",), "even at b^(d/2), chess to 80 ply is 35^40 ≈ 10^61 nodes", "000", "arithmetic", A.chess_80_ply),
    Claim(("000-p",), "Go, b ≈ 250: √250 ≈ 16, still unmanageable at useful depth", "000", "arithmetic", A.go_branching),
    # the same claim's second half, judged by the MCTS study (analysis/reproduce.py --part mcts)
    Claim(("000-p",), "with no good evaluation function as well, Go resisted alpha-beta and needed Monte Carlo tree "
          "search: as b grows and the evaluation stays weak, alpha-beta at equal effort loses to sampling-based "
          "search", "000", "limits", MV.go_second_half, name="second half"),
    Claim(("000-q",), "with three or more players the pruning argument breaks down", "000", "limits",
          MP.pruning_with_many_players),
    Claim(("002-b",), "alpha-beta has to see the whole window, so it is awkward to run in parallel", "002", "limits",
          P.parallel_verdict),
    # chance nodes
    Claim(("003-i",), "expectiminimax: EVAL must be proportional to expected payoff; time O(b^m·n^m); alpha-beta "
          "prunes only weakly at chance nodes", "003", "chance", CH.expectiminimax_cost_and_weak_pruning),
    Claim(("003-j",), "the Ludo example: safe (2 or 6, ½ each) versus race (6 w.p. 0.8, −5 w.p. 0.2): values and "
          "best move", "003", "chance", CH.ludo_example),
]


def claim_ids() -> list[str]:
    """Every claim id the registry judges, once each (a claim judged in two halves has two
    entries with the same ids)."""
    return list(dict.fromkeys(i for c in CLAIMS for i in c.ids))


def claim_keys() -> list[str]:
    """Every entry's key (``Claim.key``), in registry order: what reports key verdicts by."""
    return [c.key for c in CLAIMS]


def evaluate_all(ctx: Context) -> list[tuple[Claim, Verdict]]:
    out = []
    for c in CLAIMS:
        try:
            v = c.evaluate(ctx)
        except Exception as e:  # noqa: BLE001 - a broken evaluator must not sink the report
            v = Verdict("no data", f"the verdict could not be computed ({type(e).__name__}: {e})",
                        "not computed", "see the claim")
        out.append((c, v))
    return out


def claims_document() -> str:
    """docs/claims.md: every claim of CLAIMS in the registry's words, grouped by topic, each with
    its ids and the course notes it comes from named by title (tests/claims keep the file equal
    to this text: ``python -m searchlab.studies.claims.registry > docs/claims.md`` rewrites it)."""
    lines = ["# The claims searchlab checks", "",
             "Every claim below comes from one of four course notes on alpha-beta search; a claim's id is "
             "the note's number and a letter. `analysis/reproduce.py` gives each claim a verdict in "
             "`analysis/REPORT.md` (holds, holds only under conditions, does not hold, not shown at this "
             "power), computed from the measurement or exact computation named there.", "",
             "The notes:", ""]
    lines += [f"- **{k}**: {v.split(', ', 1)[1]}" for k, v in SOURCES.items()]
    lines += ["", "The notes restate published results; where a claim is one, it names the paper "
              "(the notes are not the source of those results):", ""]
    lines += [f"- **{k}**: {v}" for k, v in LITERATURE.items()]
    for topic in dict.fromkeys(c.topic for c in CLAIMS):
        lines += ["", f"## {topic[:1].upper()}{topic[1:]}", ""]
        for c in CLAIMS:
            if c.topic == topic:
                notes = ", ".join(dict.fromkeys(i.split("-")[0] for i in c.ids))
                refs = literature(c.ids)
                lines.append(f"- **{c.label}** ({'note' if ',' not in notes else 'notes'} {notes}"
                             f"{'; ' + ', '.join(refs) if refs else ''}): {c.text}.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(claims_document(), end="")
