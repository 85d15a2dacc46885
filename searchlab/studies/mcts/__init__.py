"""The MCTS study family: alpha-beta against MCTS as b grows (vs_alphabeta), search traps (traps)."""
