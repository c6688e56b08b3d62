"""The layout rules of docs/architecture.md, checked on the source (AST, nothing imported):

* no import cycles between rankwise's modules (function-level imports count: a cycle
  that only works because one side imports late is still a cycle of the design);
* no module imports a name defined in the package root (``from rankwise import
  __version__``); importing submodules (``from .. import stats``) is fine;
* across units (a unit is a top-level subpackage or module of rankwise: ``stats``,
  ``learners``, ``_kernels``, ``phi``, ...), only public names: nothing whose name, or
  the name of a module on its path below the unit, starts with ``_``. The internal
  layers ``_kernels`` and ``_validation`` are units whose public names may be used.
* no criterion-name switches outside ``rankwise/criteria/``: no ``name == "auc"``-like
  comparison of a variable against a registered criterion name.
* no label-family switches in the modules that read labels through
  :mod:`rankwise._labels` (:data:`LABEL_KIND_MODULES`): no ``isinstance(unit,
  PairCriterion)``, no comparison of a ``.family``, and none of the legacy label readers
  of ``rankwise._validation`` (``check_binary_inputs``, ``check_binary_labels``,
  ``choose_pos_label``); which labels a criterion reads is its label kind
  (:func:`rankwise._labels.kind_of`).
"""

from __future__ import annotations

import ast
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent / "rankwise"


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()


def _is_package(mod: str) -> bool:
    return MODULES[mod].name == "__init__.py"


def _resolve(mod: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    base = mod.split(".")
    if not _is_package(mod):
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(mod: str):
    """``(target module, imported name or None, lineno)`` for every import in ``mod``."""
    tree = ast.parse(MODULES[mod].read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "rankwise" or a.name.startswith("rankwise."):
                    yield a.name, None, node.lineno
        elif isinstance(node, ast.ImportFrom):
            target = _resolve(mod, node)
            if target == "rankwise" or target.startswith("rankwise."):
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if sub in MODULES:
                        yield sub, None, node.lineno
                    else:
                        yield target, a.name, node.lineno


def _unit(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def _edges():
    for mod in MODULES:
        for target, name, line in _imports(mod):
            yield mod, target, name, line


def find_cycles() -> list[list[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for mod, target, _, _ in _edges():
        if target in MODULES and target != mod:
            # Importing a submodule imports its packages first; a package importing its
            # own submodules is how packages are built, not a cycle.
            if not mod.startswith(target + ".") and not target.startswith(mod + "."):
                graph[mod].add(target)
    cycles, seen = [], set()
    index, low, stack, on = {}, {}, [], set()
    counter = [0]

    def strong(v):  # Tarjan
        index[v] = low[v] = counter[0]
        counter[0] += 1
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
    del seen
    return cycles


def root_imports() -> list[str]:
    out = []
    for mod, target, name, line in _edges():
        if target == "rankwise" and name is not None and mod not in ("rankwise", "rankwise.__main__"):
            out.append(f"{mod}:{line} imports {name!r} from the package root")
    return out


def private_imports() -> list[str]:
    out = []
    for mod, target, name, line in _edges():
        if target == "rankwise" or _unit(target) == _unit(mod) or mod in ("rankwise", "rankwise.__main__"):
            continue
        below = target.split(".")[2:]  # module path below the unit
        bad = [p for p in below if p.startswith("_")]
        if name is not None and name.startswith("_") and not (name.startswith("__") and name.endswith("__")):
            bad.append(name)
        if bad:
            out.append(f"{mod}:{line} uses private {'.'.join(bad)} of {target}")
    return out


def criterion_switches() -> list[str]:
    from rankwise import criteria

    names = set(criteria.names())
    out = []
    for mod, path in MODULES.items():
        if _unit(mod) == "criteria":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Compare) and len(node.ops) == 1:
                consts = []
                for other in (node.left, node.comparators[0]):
                    if isinstance(other, ast.Constant):
                        consts.append(other.value)
                    elif isinstance(other, (ast.Tuple, ast.List, ast.Set)):
                        consts += [e.value for e in other.elts if isinstance(e, ast.Constant)]
                if isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) and names & set(
                        c for c in consts if isinstance(c, str)):
                    out.append(f"{mod}:{node.lineno} compares against criterion name(s) "
                               f"{sorted(names & set(consts))}")
    return out


#: Modules (paths below rankwise/; a folder stands for every module in it) that read
#: labels through rankwise._labels only. rankwise/stats and rankwise/report join the list
#: when they do.
LABEL_KIND_MODULES = (
    "metrics/",
    "display/",
    "losses/",
    "learners/_engines.py",
    "distributed/_partition.py",
    "cli/_common.py",
    "stats/",
    "report/",
)
_FAMILY_CLASSES = {"PairCriterion", "RankCriterion"}
_LEGACY_LABEL_READERS = {"check_binary_inputs", "check_binary_labels", "choose_pos_label"}


def _named(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def family_switches_in(source: str, where: str = "<source>") -> list[str]:
    """The label-family switches of one module's source (see the module docstring)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _named(node.func) in ("isinstance", "issubclass") and len(node.args) == 2:
            second = node.args[1]
            classes = second.elts if isinstance(second, ast.Tuple) else [second]
            hit = sorted({_named(c) for c in classes} & _FAMILY_CLASSES)
            if hit:
                out.append(f"{where}:{node.lineno} switches on {', '.join(hit)}")
        elif isinstance(node, ast.Compare):
            if any(isinstance(x, ast.Attribute) and x.attr == "family" for x in [node.left, *node.comparators]):
                out.append(f"{where}:{node.lineno} compares a criterion's family")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").endswith("_validation"):
            hit = sorted({a.name for a in node.names} & _LEGACY_LABEL_READERS)
            if hit:
                out.append(f"{where}:{node.lineno} imports the legacy label reader(s) {', '.join(hit)}")
        elif isinstance(node, ast.Attribute) and node.attr in _LEGACY_LABEL_READERS:
            out.append(f"{where}:{node.lineno} uses the legacy label reader {node.attr}")
    return out


def label_family_switches() -> list[str]:
    out = []
    for mod, path in sorted(MODULES.items()):
        rel = path.relative_to(ROOT).as_posix()
        if any(rel == m or (m.endswith("/") and rel.startswith(m)) for m in LABEL_KIND_MODULES):
            out += family_switches_in(path.read_text(encoding="utf-8"), mod)
    return out


def test_no_import_cycles():
    assert find_cycles() == []


def test_no_module_imports_the_package_root():
    assert root_imports() == []


def test_no_private_name_across_units():
    assert private_imports() == []


def test_no_criterion_name_switch_outside_the_registry():
    assert criterion_switches() == []


def test_label_kind_modules_exist():
    # a renamed or moved module must not drop out of the rule silently
    for m in LABEL_KIND_MODULES:
        assert (ROOT / m).exists(), m


def test_the_family_switch_rule_sees_each_form():
    found = family_switches_in(
        "from .._validation import check_binary_inputs, check_param\n"
        "import rankwise._validation as v\n"
        "if isinstance(unit, _criteria.PairCriterion): pass\n"
        "if isinstance(unit, (RankCriterion, int)): pass\n"
        "if unit.family == 'pairs': pass\n"
        "x = v.choose_pos_label\n"
        "if kind.name == 'real' and isinstance(unit, int): pass\n")
    assert [f.split(":")[1].split(" ")[0] for f in found] == ["1", "3", "4", "5", "6"], found


def test_no_label_family_switch_in_modules_that_read_label_kinds():
    assert label_family_switches() == []


if __name__ == "__main__":  # a report for people: python tests/test_architecture.py
    for title, items in (("cycles", find_cycles()), ("root imports", root_imports()),
                         ("private names across units", private_imports()),
                         ("label-family switches", label_family_switches())):
        print(f"{title}: {len(items)}")
        for it in items:
            print("  ", it)
    if os.environ.get("RANKWISE_SWITCHES"):
        for it in criterion_switches():
            print("  ", it)
