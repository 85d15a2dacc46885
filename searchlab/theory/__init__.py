"""Exact theory computed by dynamic programming (pure numpy and fractions; no search runs):
searchlab.theory.exact, the expected counts of alpha-beta on i.i.d. uniform trees."""
