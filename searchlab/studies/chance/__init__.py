"""The chance-node family: its steps, summary and verdicts (docs/chance-and-multiplayer.md)."""
