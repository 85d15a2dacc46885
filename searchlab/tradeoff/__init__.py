"""Issue 7's study: sound versus unsound pruning, measured against exact ground truth.

``searchlab-tradeoff`` (searchlab/tradeoff/cli.py) runs it from ``conf/tradeoff.yaml``;
``run_study`` (study.py) from a validated ``TradeoffConfig`` (config.py); ``write_report`` and
``tradeoff_section`` (report.py) turn a run directory into report.md. Docs: docs/tradeoff.md.
"""

from searchlab.tradeoff.config import TradeoffConfig, TradeoffConfigError, load

__all__ = ["TradeoffConfig", "TradeoffConfigError", "load"]
