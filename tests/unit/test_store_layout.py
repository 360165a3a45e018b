"""The store's shape: the package imports without cycles, and what is pure stays pure."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import scanner

ROOT = Path(scanner.__file__).resolve().parent


def module_imports() -> dict[str, set[str]]:
    """scanner module -> scanner modules it imports at module level (``import`` inside a
    function runs later and cannot make an import cycle fail)."""
    names = {}
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        names[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if target in names or node.module in names:
                        found.add(target if target in names else node.module)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name in names)
        graph[name] = found
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_module_level_imports_of_scanner_have_no_cycle():
    graph = module_imports()
    assert "scanner.store.server" in graph and "scanner.store.embedded" in graph["scanner.store.server"]
    assert cycle(graph) is None


def test_cycle_finder_finds_a_cycle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None


def test_codec_and_protocols_load_without_the_weaviate_client():
    code = ("import sys, scanner.store.codec, scanner.store.protocols, scanner.batch; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('weaviate', 'grpc')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=300).stdout.strip()
    assert out == "[]"


CORE_MAY_IMPORT = ("scanner.core", "scanner.models", "scanner.short_forms")
"""What the pure core may import of ``scanner``: itself and the data models (and
``extractors``, which never imports ``scanner``)."""


def scanner_imports_anywhere(path: Path) -> set[str]:
    """Every ``scanner`` module ``path`` imports, at module level or inside a function."""
    found = set()
    package = list(path.relative_to(ROOT.parent).with_suffix("").parts[:-1])
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:  # from ..store import x
            base = package[:len(package) - node.level + 1]
            module = ".".join([*base, *([node.module] if node.module else [])])
            if module.split(".")[0] == "scanner":
                found.add(module)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "scanner":
                found.update(f"scanner.{a.name}" for a in node.names)
            elif node.module.startswith("scanner."):
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "scanner")
    return found


def above_the_core(module: str) -> bool:
    return not any(module == allowed or module.startswith(allowed + ".")
                   for allowed in CORE_MAY_IMPORT)


def test_the_core_imports_nothing_above_it():
    core = sorted((ROOT / "core").glob("*.py"))
    assert {p.stem for p in core} >= {"keys", "detect", "policy", "settlement", "questions",
                                      "report", "ledger", "key_decision", "convergence"}
    reached = {p.stem: scanner_imports_anywhere(p) for p in core}
    assert "scanner.models" in reached["policy"] and "scanner.core.detect" in reached["policy"]
    above = {name: sorted(m for m in found if above_the_core(m))
             for name, found in reached.items()}
    assert {name: found for name, found in above.items() if found} == {}


def test_the_core_check_sees_imports_above_it():
    for module in ("scanner.store.ledger", "scanner.service", "scanner.cli", "scanner.api",
                   "scanner.review.decisions", "scanner.corex"):
        assert above_the_core(module)
    for module in ("scanner.core.policy", "scanner.models", "scanner.core"):
        assert not above_the_core(module)


def test_extractors_never_import_scanner():
    extractors = ROOT.parent / "extractors"
    found = {p.name: scanner_imports_anywhere(p) for p in extractors.rglob("*.py")}
    assert found and {name: f for name, f in found.items() if f} == {}
