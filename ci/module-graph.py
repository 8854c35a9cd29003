#!/usr/bin/env python3
"""covgate's module graph, derived from the `crate::` paths in src/ (not from test code), checked
against the declared layer order below: fails (exit 1) on an import from a module to one in a
higher layer, or on a cycle between modules. A node is a top-level module (`src/x.rs` and
`src/x/**` are `x`). `--dot` prints the graph in Graphviz form instead.

Test code is left out: `*_tests.rs` files and everything from a file's `#[cfg(test)]` module on
(clippy's `items_after_test_module` keeps test modules last)."""

import pathlib
import re
import sys

# Lowest first; a module may use modules of its own layer or below. Within a layer, the graph
# must still be acyclic.
LAYERS = [
    ["model", "demangle", "hint", "text", "memory"],
    ["error"],
    ["report"],
    ["paths", "platform", "policy", "walk", "workspace", "nocode", "source"],
    ["identity", "markers", "measure"],
    ["scope", "judge", "uncovered", "roster", "debt", "focus", "ungated"],
    ["outcome"],
    ["render"],
    ["output", "commands", "comment"],
    ["cli", "app"],
]
# Binaries sit above everything and use the library by its name, not by `crate::`.

SRC = pathlib.Path(__file__).resolve().parent.parent / "src"


def module_of(path: pathlib.Path) -> str:
    rel = path.relative_to(SRC)
    return rel.parts[0].removesuffix(".rs")


def product_code(text: str) -> str:
    """The text without comments, string literals and its trailing test module."""
    cut = re.search(r"^#\[cfg\(test\)\]\s*(#\[[^\]]*\]\s*)*(pub(\([^)]*\))? )?mod ", text, re.M)
    if cut:
        text = text[: cut.start()]
    # One pass, leftmost first, so that `//` inside a string and `"` inside a comment or a
    # character literal are taken for what they are.
    token = re.compile(
        r'//[^\n]*|/\*.*?\*/|r(#*)".*?"\1|"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])\'', re.S
    )
    return token.sub(" ", text)


def uses(text: str) -> set[str]:
    found = set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", text))
    for group in re.findall(r"\bcrate::\{([^}]*)", text):
        found |= set(re.findall(r"(?:^|,)\s*([a-z_][a-z0-9_]*)", group))
    return found


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for path in sorted(SRC.rglob("*.rs")):
        if path.name.endswith("_tests.rs") or SRC / "bin" in path.parents:
            continue
        name = module_of(path)
        if name in ("lib", "main"):
            continue
        deps = uses(product_code(path.read_text(encoding="utf-8")))
        edges.setdefault(name, set()).update(d for d in deps if d != name)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def main() -> int:
    edges = graph()
    if "--dot" in sys.argv:
        print("digraph covgate {")
        for v in sorted(edges):
            for w in sorted(edges[v]):
                print(f"  {v} -> {w};")
        print("}")
        return 0
    layer = {m: i for i, names in enumerate(LAYERS) for m in names}
    problems = []
    for v in sorted(edges):
        if v not in layer:
            problems.append(f"module `{v}` is in no layer (declare it in ci/module-graph.py)")
            continue
        for w in sorted(edges[v]):
            if w not in layer:
                problems.append(f"`{v}` uses `{w}`, which is in no layer")
            elif layer[w] > layer[v]:
                problems.append(f"upward import: `{v}` (layer {layer[v]}) uses `{w}` (layer {layer[w]})")
    for comp in cycles(edges):
        problems.append("cycle between modules: " + ", ".join(comp))
    for p in problems:
        print(f"module-graph: {p}", file=sys.stderr)
    count = sum(len(e) for e in edges.values())
    print(f"module-graph: {len(edges)} modules, {count} imports, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
