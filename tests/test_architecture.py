"""docs/architecture.md stays true: no import cycle, no import against the layers' direction,
imports at the top of files (except optional dependencies)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "searchlab"
#: the only imports allowed inside functions: optional dependencies
OPTIONAL = {"dask", "distributed", "pyspiel"}
#: ... and, in the modules on the command's start-up path, what --version, --help and shell
#: completion do not need (Hydra's runtime, the engine, the lab): docs/architecture.md;
#: tests/test_cli_startup.py checks which modules `searchlab --version` imports
START_UP = {"searchlab.cli", "searchlab.cli_guard", "searchlab.experiment.composition",
            # --cfg job and --plan: validation loads the trees' code (numba) only for an
            # explicit tree; the dry run loads a study family only for a plan of that kind
            "searchlab.experiment.validation", "searchlab.cli_plan",
            # ... and numpy only when a seed is derived or a file sample drawn
            "searchlab.experiment.seeds", "searchlab.experiment.games"}


def modules() -> dict[str, Path]:
    out = {}
    for p in PACKAGE.rglob("*.py"):
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def layers() -> list[tuple[int, str]]:
    """(layer, module prefix) rows of the table in docs/architecture.md."""
    rows = []
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        m = re.match(r"^\|\s*(\d+)\s*\|(.*?)\|", line)
        if m:
            rows += [(int(m[1]), name) for name in re.findall(r"`([\w.]+)`", m[2])]
    return rows


def placement(module: str, table: list[tuple[int, str]]) -> tuple[int, str]:
    """(layer, entry) of the most specific table entry naming the module."""
    best = max((p for p in table if module == p[1] or module.startswith(p[1] + ".")),
               key=lambda p: len(p[1]), default=None)
    assert best is not None, f"{module} is in no layer of docs/architecture.md"
    return best


def imports(mods: dict[str, Path]) -> dict[str, list[tuple[str, int, bool]]]:
    """module -> [(imported searchlab module, line, at top level)]."""
    out: dict[str, list] = {}
    for name, path in mods.items():
        tree = ast.parse(path.read_text())
        is_pkg = path.name == "__init__.py"
        found = []

        def visit(node, top):
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.Import, ast.ImportFrom)):
                    targets = []
                    if isinstance(child, ast.Import):
                        targets = [a.name for a in child.names]
                    else:
                        base = child.module or ""
                        if child.level:
                            parts = name.split(".")[:len(name.split(".")) - child.level + is_pkg]
                            base = ".".join(parts + ([base] if base else []))
                        targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in mods else base
                                   for a in child.names]
                    for t in targets:
                        found.append((t, child.lineno, top))
                deeper = isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                visit(child, top and not deeper)
        visit(tree, True)
        out[name] = found
    return out


def layer_violations(found_by_module: dict, mods, table) -> list[str]:
    """Imports pointing up the layers, or sideways into another package of the same layer."""
    wrong = []
    for name, found in found_by_module.items():
        layer, entry = placement(name, table)
        for target, line, _ in found:
            if target not in mods:
                continue
            t_layer, t_entry = placement(target, table)
            if t_layer > layer or (t_layer == layer and t_entry != entry):
                wrong.append(f"{name}:{line} imports {target} (layer {t_layer} {t_entry}) "
                             f"from layer {layer} {entry}")
    return wrong


def find_cycles(graph: dict[str, set]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    cycles = []

    def strong(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in graph:
        if v not in index:
            strong(v)
    return cycles


def test_every_module_has_a_layer_and_imports_point_down():
    mods, table = modules(), layers()
    assert table, "no layer table in docs/architecture.md"
    wrong = layer_violations(imports(mods), mods, table)
    assert not wrong, "\n".join(wrong)


def test_no_import_cycle():
    mods = modules()
    graph = {n: {t for t, _, _ in found if t in mods and t != n}
             for n, found in imports(mods).items()}
    assert not find_cycles(graph), f"import cycles: {find_cycles(graph)}"


def test_imports_are_at_the_top_except_optional_dependencies():
    inner = [f"{name}:{line} {target}" for name, found in imports(modules()).items()
             for target, line, top in found
             if not top and target.split(".")[0] not in OPTIONAL and name not in START_UP]
    assert not inner, "imports inside functions:\n" + "\n".join(inner)


def test_the_checks_report_an_upward_import_and_a_cycle():
    """The checks are not vacuous: a made-up upward import and a made-up cycle are found."""
    mods, table = modules(), layers()
    upward = {"searchlab.trees.iid": [("searchlab.algorithms.search_api", 1, True)],
              "searchlab.analysis.estimators": [("searchlab.studies.sweep.policies", 2, True)]}
    assert len(layer_violations(upward, mods, table)) == 2
    assert layer_violations({"searchlab.algorithms.search_api": [("searchlab.trees", 1, True)]},
                            mods, table) == []
    assert find_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_report_sections_read_tables_and_never_run_or_dispatch():
    """No family's report section (``searchlab.studies.<family>.*_report``) imports the kind
    registry, the session skeleton, the runner or the sweep's planner: the entry layer
    (experiment.api through experiment/kind_registry.py) hands each kind its report writer, and a writer only reads a run's
    tables."""
    forbidden = ("searchlab.experiment.api", "searchlab.experiment.session",
                 "searchlab.experiment.runner", "searchlab.experiment.grid",
                 "searchlab.studies.sweep.sweep_session")
    found = imports(modules())
    sections = [n for n in found if n.startswith("searchlab.studies.") and n.endswith("_report")]
    assert len(sections) >= 5, sections
    wrong = [f"{name}:{line} imports {target}" for name in sections
             for target, line, _ in found[name] if target.startswith(forbidden)]
    assert not wrong, "\n".join(wrong)


def test_the_engine_imports_no_study_family():
    """``searchlab/experiment/`` (the entry point experiment.api too) imports nothing from
    ``searchlab.studies``: the study kinds are found by name (experiment/kind_registry.py), so
    a plug-in kind goes through the same path as a built-in one."""
    found = imports(modules())
    wrong = [f"{name}:{line} imports {target}" for name, rows in found.items()
             if name.startswith("searchlab.experiment")
             for target, line, _ in rows if target.startswith("searchlab.studies")]
    assert not wrong, "\n".join(wrong)
    # the dry run neither: a kind's own planner and engines are in its record (StudyKind.plan,
    # engines)
    assert not [t for t, _, _ in found["searchlab.cli_plan"] if t.startswith("searchlab.studies")]
    # and the check is not vacuous
    assert any(t.startswith("searchlab.studies")
               for t, _, _ in found["searchlab.studies.tradeoff.tradeoff_kind"])


def test_algorithms_import_no_game_and_the_contracts_sit_below_them():
    """The algorithms use the games through the contracts (searchlab.contracts: the protocol,
    the position view, the result), never a game's module; and the table places the contracts
    in a layer below the games and the algorithms, with no module of games/ or algorithms/
    named in a layer of its own for them."""
    found = imports(modules())
    wrong = [f"{name}:{line} imports {target}" for name, rows in found.items()
             if name.startswith("searchlab.algorithms")
             for target, line, _ in rows if target.startswith("searchlab.games")]
    assert not wrong, "\n".join(wrong)
    table = dict((name, layer) for layer, name in layers())
    assert table["searchlab.contracts"] < min(table["searchlab.games"], table["searchlab.algorithms"])
    assert not {"searchlab.games.protocol", "searchlab.games.position",
                "searchlab.algorithms.result"} & set(table)
