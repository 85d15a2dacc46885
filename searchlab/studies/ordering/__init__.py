"""Ordering techniques, their costs, the deep ordering studies, chess and unsound pruning, measured for the claims."""
