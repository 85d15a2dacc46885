"""The reproduction's claims: the registry of every claim in docs/claims.md and the
claims checked by exact computation and arithmetic; the other verdicts are the study families' (searchlab.studies.<family>), which the registry reads.

- ``verdict``: ``Verdict``, ``Claim``, ``Context`` (what verdicts are computed from);
- ``registry``: ``CLAIMS``, ``claim_ids()``, ``claim_keys()`` (an entry's key: what reports key verdicts by; a claim
  judged in two halves, 000-p, has two entries), ``evaluate_all(ctx)``;
- ``exact_trees``: exact checks on small explicit trees (``exact_checks()``) and their claims;
- ``complexity``: perfect / random / worst order against the theory, from a run's fits;
- ``arithmetic``: the chess and Go arithmetic of the notes;
- ``memory``: depth-first memory measured on searches;


Import the submodules directly (``from searchlab.studies.claims import registry``).
"""
