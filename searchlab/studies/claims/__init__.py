"""The reproduction's claims: the registry of every claim in docs/claims.md and the
functions computing their verdicts, one module per family of claims.

- ``verdict``: ``Verdict``, ``Claim``, ``Context`` (what verdicts are computed from);
- ``registry``: ``CLAIMS``, ``claim_ids()``, ``evaluate_all(ctx)``;
- ``exact_trees``: exact checks on small explicit trees (``exact_checks()``) and their claims;
- ``complexity``: perfect / random / worst order against the theory, from a run's fits;
- ``arithmetic``: the chess and Go arithmetic of the notes;
- ``ordering``: ordering techniques (``ordering_checks()``, ``ordering_section``);
- ``unsound``: unsound pruning and quiescence.

Import the submodules directly (``from searchlab.claims import registry``).
"""
