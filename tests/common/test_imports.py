"""The layout of the package (docs/architecture.md): no import cycles, shared modules name no game,
each game's commands in a folder of their own (cli/<game>/) that names no other game, and every
folder installed.

Every import of every module of ``solver/`` and ``cli/`` counts, those inside functions too
(a cycle hidden in a function is still a cycle: each module needs the other to work), and the
``cimport``/``import`` lines of the Cython parts.
"""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "scoundrel_solver"
GAMES = ("scoundrel", "bottleimp")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT)
    parts = list(rel.with_suffix("").parts)
    if parts[0] == "solver":
        parts[0] = PACKAGE
    elif parts[0] == "cli":
        parts = [PACKAGE, *parts]
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _resolve(module: str, is_package: bool, level: int, name) -> str:
    base = module.split(".") if is_package else module.split(".")[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _imports(path: Path) -> set:
    """The modules of the package that ``path`` imports (anywhere in it)."""
    module, is_package = _module_name(path), path.name == "__init__.py"
    found = set()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(module, is_package, node.level, node.module) if node.level else node.module
                found.add(target)
                found.update(f"{target}.{alias.name}" for alias in node.names)   # from . import budget
    else:   # .pyx / .pxd
        for m in re.finditer(r"^\s*(?:from\s+(\.+)([\w.]*)\s+c?import|c?import\s+([\w.]+))", path.read_text(), re.M):
            if m.group(1):
                found.add(_resolve(module, False, len(m.group(1)), m.group(2) or None))
            else:
                found.add(m.group(3))
    return {name for name in found if name and name.startswith(PACKAGE)}


def _graph() -> dict:
    files = [p for d in ("solver", "cli") for p in (ROOT / d).rglob("*")
             if p.suffix in (".py", ".pyx", ".pxd") and "__pycache__" not in p.parts]
    modules = {}
    for p in files:   # a Cython part is its .pyx and its .pxd
        modules.setdefault(_module_name(p), []).append(p)
    graph = {}
    for name, paths in modules.items():
        edges = set()
        for target in set().union(*map(_imports, paths)):
            # ``from x import y`` names x.y: a module if there is one, else a name in x
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                edges.add(target)
        graph[name] = edges
    return graph


def _cycles(graph: dict) -> list:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
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
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_graph_sees_imports_in_functions_and_cython():
    graph = _graph()
    assert f"{PACKAGE}.scoundrel._core" in graph[f"{PACKAGE}.scoundrel.engine"]      # inside load_core()
    assert f"{PACKAGE}.scoundrel._table" in graph[f"{PACKAGE}.scoundrel._search"]     # a cimport
    assert f"{PACKAGE}.errors" in graph[f"{PACKAGE}.scoundrel.cards"]


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles():
    assert _cycles(_graph()) == []


def test_the_library_never_imports_the_command_line():
    cli = f"{PACKAGE}.cli"
    offenders = {m: sorted(t for t in targets if t == cli or t.startswith(cli + "."))
                 for m, targets in _graph().items()
                 if not (m == cli or m.startswith(cli + ".")) and m != f"{PACKAGE}.__main__"}
    assert {m: t for m, t in offenders.items() if t} == {}


def test_shared_modules_name_no_game():
    """A module at ``solver/`` root (or the service's shared parts) is machinery any game uses."""
    games = tuple(f"{PACKAGE}.{g}" for g in GAMES)
    shared = [m for m in _graph() if m.count(".") == 1 and not m.startswith(games)
              and m not in (f"{PACKAGE}.cli", f"{PACKAGE}.web", f"{PACKAGE}.__main__")]
    assert f"{PACKAGE}.batch" in shared and f"{PACKAGE}.shuffle" in shared
    graph = _graph()
    offenders = {m: sorted(t for t in graph[m] if t.startswith(games)) for m in shared}
    assert {m: t for m, t in offenders.items() if t} == {}


def test_the_old_module_paths_are_the_moved_modules():
    """``scoundrel_solver.hints`` and the other names of before the layout still import, as the
    very module of ``scoundrel_solver.scoundrel`` (a monkeypatch on one is seen by the other)."""
    import importlib

    import scoundrel_solver
    for name in scoundrel_solver._MOVED:
        old = importlib.import_module(f"{PACKAGE}.{name}")
        assert old is importlib.import_module(f"{PACKAGE}.scoundrel.{name}")
    from scoundrel_solver.daily import daily_challenge
    from scoundrel_solver.scoundrel.daily import daily_challenge as same
    assert daily_challenge is same
    # importing a module path never hides a name of the face (``deal`` is both)
    import scoundrel_solver.deal  # noqa: F401
    from scoundrel_solver import deal
    assert callable(deal) and scoundrel_solver.deal is deal
    import pytest
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module(f"{PACKAGE}.no_such_module")


# ------------------------------------------------------------------ the command line
CLI = f"{PACKAGE}.cli"
# The root group registers every game's commands (and, without a command, solves a Scoundrel
# dungeon): the one module at cli/ root that may name a game.
ROOT_GROUP = f"{CLI}.main"


def _game_of(module: str):
    """The game whose folder ``module`` is in (the library's or the command line's), else None."""
    for game in GAMES:
        for folder in (f"{PACKAGE}.{game}", f"{CLI}.{game}"):
            if module == folder or module.startswith(folder + "."):
                return game
    return None


def _cli_crossings(graph: dict) -> dict:
    """Module -> the game modules it may not import: a module of ``cli/<game>/`` imports no other
    game (neither its library nor its commands); a module at ``cli/`` root but the root group
    imports no game at all."""
    out = {}
    for m, targets in graph.items():
        if not (m == CLI or m.startswith(CLI + ".")) or m == ROOT_GROUP:
            continue
        own = _game_of(m)
        bad = sorted(t for t in targets if _game_of(t) not in (None, own))
        if bad:
            out[m] = bad
    return out


def test_the_crossing_finder_finds_crossings():
    graph = {f"{CLI}.scoundrel.play": {f"{CLI}.bottleimp.render", f"{CLI}.terminal", f"{PACKAGE}.scoundrel.state"},
             f"{CLI}.bottleimp.stats": {f"{PACKAGE}.scoundrel.stats", f"{CLI}.batch"},
             f"{CLI}.terminal": {f"{PACKAGE}.bottleimp.cards"},
             ROOT_GROUP: {f"{CLI}.scoundrel.solve", f"{CLI}.bottleimp.group"},
             f"{PACKAGE}.web.app": {f"{CLI}.scoundrel.play"}}
    assert _cli_crossings(graph) == {f"{CLI}.scoundrel.play": [f"{CLI}.bottleimp.render"],
                                     f"{CLI}.bottleimp.stats": [f"{PACKAGE}.scoundrel.stats"],
                                     f"{CLI}.terminal": [f"{PACKAGE}.bottleimp.cards"]}


def test_each_games_commands_keep_to_their_folder():
    graph = _graph()
    for game in GAMES:   # the folders are there, and seen
        assert any(m.startswith(f"{CLI}.{game}.") for m in graph), game
    assert f"{CLI}.bottleimp.solve" in graph[f"{CLI}.bottleimp.group"]
    assert _cli_crossings(graph) == {}


def test_no_module_at_cli_root_is_a_games():
    """A game's command is in its folder: no ``imp_`` (or other game-prefixed) module at cli/ root,
    none in the game's folder either (the folder says the game), and no Scoundrel names taken from
    the package's face (``from scoundrel_solver import Rules`` is Scoundrel's) by a root module."""
    import importlib

    import scoundrel_solver
    root = ROOT / "cli"
    names = [p.stem for p in root.rglob("*.py")]
    assert not [n for n in names if n.startswith(("imp_", "scoundrel_", "bottleimp_"))]
    for path in sorted(root.glob("*.py")):
        module = _module_name(path)
        if module == ROOT_GROUP:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module == PACKAGE:
                for alias in node.names:
                    value = getattr(scoundrel_solver, alias.name)
                    home = value.__name__ if isinstance(value, type(scoundrel_solver)) else value.__module__
                    assert _game_of(home) is None, (path.name, alias.name, home)
    importlib.import_module(ROOT_GROUP)


def _installed_packages() -> tuple:
    """The packages pyproject.toml installs, and the folders they come from (package-dir)."""
    text = (ROOT / "pyproject.toml").read_text()
    listed = re.search(r"^packages\s*=\s*\[(.*?)\]", text, re.M | re.S)
    packages = set(re.findall(r'"([\w.]+)"', listed.group(1)))
    section = re.search(r"^\[tool\.setuptools\.package-dir\]\n(.*?)(?:^\[|\Z)", text, re.M | re.S)
    dirs = dict(re.findall(r'^"?([\w.]+)"?\s*=\s*"([^"]+)"', section.group(1), re.M))
    return packages, dirs


def test_every_folder_is_installed():
    """A folder of solver/ or cli/ with an __init__.py is listed in pyproject.toml's packages:
    an editable install finds an unlisted one, a wheel (pip install .) leaves it out."""
    packages, dirs = _installed_packages()
    assert dirs == {PACKAGE: "solver", CLI: "cli"}
    folders = {_module_name(p) for d in ("solver", "cli") for p in (ROOT / d).rglob("__init__.py")
               if "__pycache__" not in p.parts}
    assert f"{CLI}.bottleimp" in folders and f"{PACKAGE}.web" in folders
    assert folders == packages
