"""The Bottle Imp's library keeps to its folder: it imports only the generic root modules
(shuffle, errors, jsonform, pools, values, batch, intervals), never a Scoundrel module and never the command line."""
import ast
from pathlib import Path

import scoundrel_solver.bottleimp as package

ALLOWED_ROOT = {"shuffle", "errors", "jsonform", "pools", "values", "batch", "intervals"}


def test_imports_stay_inside_the_game_folder():
    folder = Path(package.__file__).parent
    files = sorted(folder.glob("*.py"))
    assert {f.stem for f in files} >= {"cards", "rules", "state", "deal", "notation", "position", "reference",
                                       "bots", "answers"}
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                if node.level == 2:
                    names = [node.module] if node.module else [a.name for a in node.names]
                    assert set(names) <= ALLOWED_ROOT, (path.name, names)
                assert node.level in (0, 1, 2), (path.name, node.level)
                if node.level == 0:
                    assert not (node.module or "").startswith("scoundrel_solver"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("scoundrel_solver") for a in node.names), path.name
