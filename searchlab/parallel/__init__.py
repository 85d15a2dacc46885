"""Parallel alpha-beta: a deterministic simulator (simulate.py) and a real threaded Lazy SMP
(real.py) on the synthetic trees, and the sweeps behind claim 002-b (study.py)."""

from searchlab.parallel.simulate import ALGORITHMS, Costs, SimResult, sequential_nodes, simulate

__all__ = ["ALGORITHMS", "Costs", "SimResult", "sequential_nodes", "simulate"]
