"""Study records: a validated experiment as plain values (no OmegaConf), and its tree specs.

``validation.validate`` builds them; the grid, the budget guard and the runner consume them.
``Study.config_hash`` hashes ``Study.science()``, everything that determines the table's
content: resume refuses a run directory whose hash differs.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Optional

from searchlab.experiment.schema import OPTIONAL_TREE_PARAMS, TREE_PARAMS, RunnerConfig
from searchlab.experiment.seeds import config_digest


@dataclass(frozen=True)
class TreeSpec:
    """One tree model with all its parameters filled in (plain values)."""

    model: str
    levels: Optional[int] = None
    win_prob: Optional[float] = None
    p: Optional[float] = None
    decay: Optional[float] = None
    correlation: Optional[float] = None
    values: Optional[Any] = None

    def params(self) -> dict[str, Any]:
        """The make_tree keyword parameters specific to the model."""
        if self.model == "explicit":
            return {"nested": self.values}
        return self._set_params()

    def _set_params(self) -> dict[str, Any]:
        """The model's parameters, an optional one (OPTIONAL_TREE_PARAMS) only when set."""
        return {k: getattr(self, k) for k in TREE_PARAMS[self.model]
                if not (k in OPTIONAL_TREE_PARAMS and getattr(self, k) is None)}

    def identity(self) -> dict[str, Any]:
        return {"model": self.model, **self._set_params()}


@dataclass(frozen=True)
class Study:
    """A validated experiment: plain values, no OmegaConf."""

    name: str
    description: str
    seed: int
    results_dir: str
    trees: tuple[TreeSpec, ...]
    b: tuple[int, ...]
    d: tuple[int, ...]
    d_by_b: dict
    d_budget: Optional[int]
    algorithms: tuple[str, ...]
    orderings: tuple[str, ...]
    instances: int
    engine: str
    depth: Optional[int]
    task_max_nodes: int
    runner: RunnerConfig
    config: dict  # the resolved config as plain containers (written beside the table)
    games: tuple = ()                        # games.GameSpec of a game study (trees = ())
    positions: dict = field(default_factory=dict)   # GameSpec -> its games.Position tuple
    game_orderings: dict = field(default_factory=dict)  # GameSpec -> orderings it can run
    d_by_ordering: dict = field(default_factory=dict)
    max_nodes_by_ordering: dict = field(default_factory=dict)   # ordering -> per-search cap
    aspiration: Optional[float] = None
    tt_size: int = 65536
    #: (name, searchlab.algorithms.pruning.Pruning or None) per technique swept
    prunings: tuple = (("none", None),)
    #: search.plugins: modules the workers import before their first task (plug-in components)
    plugins: tuple = ()

    @property
    def game(self) -> Optional[Any]:
        """The (first) game of a game study; None for a tree study."""
        return self.games[0] if self.games else None

    def depths_for(self, b: int) -> tuple[int, ...]:
        return tuple(self.d_by_b.get(b, self.d))

    def keeps(self, ordering: str, d: int) -> bool:
        """False when sweep.d_by_ordering restricts this ordering's depths and d is not one."""
        allowed = self.d_by_ordering.get(ordering)
        return allowed is None or d in allowed

    def max_nodes_for(self, ordering: str) -> int:
        """The per-search node budget of this ordering's tasks: its entry of
        sweep.max_nodes_by_ordering, else search.max_nodes (runner.max_nodes when null). The
        runner stops a search over it (status "aborted"); the analysis reads it back from a
        run's config through experiment.api.node_caps."""
        return self.max_nodes_by_ordering.get(ordering, self.task_max_nodes)

    def science(self) -> dict:
        """Everything that determines the table's content (the runner excluded). Keys added
        for games and dynamic policies appear only when used, so the hash of a tree study
        written before them is unchanged."""
        out = {
            "name": self.name, "seed": self.seed,
            "trees": [t.identity() for t in self.trees],
            "b": list(self.b), "d": list(self.d),
            "d_by_b": {str(k): list(v) for k, v in sorted(self.d_by_b.items())},
            "d_budget": self.d_budget, "algorithms": list(self.algorithms),
            "orderings": list(self.orderings), "instances": self.instances,
            "engine": self.engine, "depth": self.depth, "task_max_nodes": self.task_max_nodes,
        }
        if self.games:
            out["games"] = [{**g.identity(), "sample": g.sample,
                             **({"d": list(g.depths)} if g.depths is not None else {}),
                             "positions": [p.id for p in self.positions[g]],
                             "orderings": list(self.game_orderings[g])} for g in self.games]
        if self.d_by_ordering:
            out["d_by_ordering"] = {k: list(v) for k, v in sorted(self.d_by_ordering.items())}
        if self.max_nodes_by_ordering:
            out["max_nodes_by_ordering"] = dict(sorted(self.max_nodes_by_ordering.items()))
        if self.aspiration is not None:
            out["aspiration"] = self.aspiration
        if self.tt_size != 65536:
            out["tt_size"] = self.tt_size
        if self.prunings != (("none", None),):
            out["pruning"] = [[name, None if p is None else _pruning_science(p)]
                              for name, p in self.prunings]
        return out

    @property
    def config_hash(self) -> str:
        return config_digest(self.science())


def _pruning_science(p: Any) -> dict:
    """A Pruning record as config_hash sees it: its fields, less quiescence's ``delta`` when
    off, so that studies from before delta pruning existed keep their hash (and their runs),
    and less ``plugin`` when unset (likewise for studies from before plug-in families; set,
    it is the family's name and its parameters)."""
    plugin = getattr(p, "plugin", None)
    d = dataclasses.asdict(dataclasses.replace(p, plugin=None))
    del d["plugin"]
    if plugin is not None:
        d["plugin"] = {"family": plugin.family.name, "params": plugin.params_dict()}
    if d.get("quiescence") is not None and d["quiescence"].get("delta") is None:
        del d["quiescence"]["delta"]
    return d


def freeze(v: Any) -> Any:
    """Nested lists -> nested tuples (an explicit tree's values, hashable inside a TreeSpec)."""
    if isinstance(v, (list, tuple)):
        return tuple(freeze(x) for x in v)
    return v


def thaw(v: Any) -> Any:
    """Nested tuples -> nested lists (what make_tree("explicit") takes)."""
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    return v
