"""The claim-study kind: a claim family's steps (``claim_steps``) run as engine tasks, and its report."""
