"""The parallel alpha-beta study: its kind, task bodies, verdict and report (docs/parallel.md)."""
