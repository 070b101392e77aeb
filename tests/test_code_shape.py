"""The shape the code keeps (issue 27): layers, family boundaries, module sizes, complexity.

Each check reads the sources as text or through ``ast`` (and radon for complexity), so a
change that breaks a boundary fails here with the place named."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from radon.complexity import cc_rank, cc_visit

from replay.core.family import families

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = sorted((ROOT / "replay").rglob("*.py"))
SOURCES = LIBRARY + sorted((ROOT / "web").rglob("*.py"))
MAX_LINES = 500


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")
            if node.level:
                base = base[:len(base) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            out.append((node.lineno, name))
            out += [(node.lineno, f"{name}.{a.name}") for a in node.names]
    return out


def _where(path: Path, line: int) -> str:
    return f"{path.relative_to(ROOT)}:{line}"


def test_the_library_never_imports_the_web_app() -> None:
    found = [_where(p, n) for p in LIBRARY for n, m in _imports(p)
             if m == "web" or m.startswith("web.")]
    assert not found, found


def test_the_core_imports_no_importer_and_no_family() -> None:
    core = sorted((ROOT / "replay" / "core").glob("*.py"))
    found = [f"{_where(p, n)} {m}" for p in core for n, m in _imports(p)
             if m.startswith("replay.games.") or ".importers" in m]
    assert not found, found


def _names_of_games() -> set[str]:
    names: set[str] = set()
    for fam in families():
        names |= {fam.name, fam.label}
        for x in fam.expansions.values():
            names |= {x.name, x.label, x.name.replace("-", "_")}
    return names


def test_no_module_outside_the_games_names_a_game_or_an_expansion() -> None:
    games = ROOT / "replay" / "games"
    words = _names_of_games()
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in
                                  sorted(words, key=len, reverse=True)))
    found = []
    for path in SOURCES:
        if path.is_relative_to(games):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for hit in pattern.findall(line):
                if hit == "base" and not re.search(r"[\"']base[\"']", line):
                    continue  # the word, not the game's name
                found.append(f"{_where(path, n)}: {hit}")
    assert not found, "\n".join(found)


def _hunters_gatherers_features() -> set[str]:
    """The words of Hunters & Gatherers' own features, read from what the family tells the
    tile layer: its segment types and the figures' names on them, its symbols, flags, sources
    and figure shapes, and the figure kinds Carcassonne has not."""
    from replay.core.family import family
    from replay.games.hunters_gatherers import features

    words = {*features.ROLES, *(r for r in features.ROLES.values() if r), *features.SYMBOLS,
             *features.FLAGS, *features.SOURCES, *features.FIGURES}
    return words | (family("hunters-gatherers").figure_kinds - family("base").figure_kinds)


# Issue 36 item 1: the tile-layer modules that still name Hunters & Gatherers' features, to
# move into the family one by one (each one listed must still name one: the list only shrinks).
TILES_NOT_YET_MOVED: set[str] = set()  # every one moved


def test_the_tile_layer_names_no_feature_of_hunters_and_gatherers() -> None:
    """Issue 36 item 1: the shared tile layer (``replay/tiles``) asks a family for its own
    features (``replay.tiles.kinds``, the fuzz checker's hooks) and names none of them, nor
    its rules' ids."""
    words = _hunters_gatherers_features()
    assert {"forest", "gatherer", "gold", "volcano", "hut", "spring"} <= words  # it reads
    pattern = re.compile("|".join([rf"(?<![\w-]){re.escape(w)}(?:e?s)?(?![\w-])" for w in
                                   sorted(words, key=len, reverse=True)] + [r"\bHG\d+\b"]),
                         re.IGNORECASE)  # and its rules' ids
    found, still = [], set()
    for path in sorted((ROOT / "replay" / "tiles").glob("*.py")):
        hits = [f"{_where(path, n)}: {hit}"
                for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                for hit in pattern.findall(line)]
        if path.name in TILES_NOT_YET_MOVED:
            still |= {path.name} if hits else set()
        else:
            found += hits
    assert not found, "\n".join(found)
    assert still == TILES_NOT_YET_MOVED, f"moved already, drop from the list: " \
                                         f"{sorted(TILES_NOT_YET_MOVED - still)}"


# the modules that draw a family's pictures (its view and what it calls), which alone may use
# the private names of a drawing module: a game's own package, and the tile families' view
VIEW_MODULES = {ROOT / "replay" / "tiles" / name for name in ("drawing.py", "view.py",
                                                                "overlays.py")}
MARKUP = re.compile(r"<[a-zA-Z/]|=\"|viewBox")  # a string that is SVG or HTML text


def test_no_module_outside_a_view_uses_private_drawing_names() -> None:
    """Issue 36 item 1: a picture is drawn by its family's view in one pass; nobody else
    reaches into a drawing module's privates (``_Board``, ``_emphasis``...)."""
    games = ROOT / "replay" / "games"
    found = []
    for path in SOURCES:
        if path.is_relative_to(games) or path in VIEW_MODULES:
            continue
        found += [f"{_where(path, n)} {m}" for n, m in _imports(path)
                  if re.search(r"(^|\.)drawing\._", m)]
        found += [f"{_where(path, n)} {hit}" for n, line in
                  enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                  for hit in re.findall(r"\bdrawing\._\w+", line)]
    assert not found, found


def test_no_module_edits_svg_or_html_text() -> None:
    """Issue 36 item 1: overlays are arguments of ``View.board``, not patches: no module
    replaces or substitutes markup in text (``.replace``/``.sub`` with markup as pattern or
    replacement, or a regex of markup), and the web app substitutes no regex at all."""
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            name = node.func.attr
            texts = [a.value for a in node.args
                     if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if name in ("replace", "sub", "subn", "compile", "search", "finditer") and any(
                    MARKUP.search(t) for t in texts):
                found.append(f"{_where(path, node.lineno)} .{name}({texts[0]!r}...)")
            if path.is_relative_to(ROOT / "web") and name in ("sub", "subn"):
                found.append(f"{_where(path, node.lineno)} .{name}")
    assert not found, found


def _names(node: ast.expr | None) -> list[str]:
    """The names an ``except`` clause or a call's arguments give (``IndexError``,
    ``(KeyError, IndexError)``, ``builtins.IndexError``)."""
    if node is None:
        return []
    return [n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, ast.Name | ast.Attribute)]


def test_the_web_app_catches_no_index_error() -> None:
    """Issue 36 item 5: a position out of range is an explicit 404, asked before it is read;
    an ``IndexError`` (or ``LookupError``) is a bug of the app, never caught for control flow
    (neither by ``except`` nor by ``contextlib.suppress``)."""
    caught = {"IndexError", "LookupError"}
    found = []
    for path in sorted((ROOT / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ExceptHandler):
                names = _names(node.type)
            elif isinstance(node, ast.Call) and "suppress" in _names(node.func):
                names = [n for a in node.args for n in _names(a)]
            else:
                continue
            if caught & set(names):
                found.append(_where(path, node.lineno))
    assert not found, found


# Modules kept whole over ``MAX_LINES``, each with why (issue 36: a cohesive module is not
# split only to fit) and the lines it may reach.
LONG_MODULES = {
    # one picture drawn in one pass: every layer (tiles, figures, scored features, the failed
    # move, the analysis board's ghosts) adds to the same picture's defs (``_Board``)
    "replay/tiles/drawing.py": 600,
}


def test_no_module_is_over_500_lines() -> None:
    long = {str(p.relative_to(ROOT)): n for p in SOURCES
            if (n := len(p.read_text(encoding="utf-8").splitlines()))
            > LONG_MODULES.get(str(p.relative_to(ROOT)), MAX_LINES)}
    assert not long, long


def test_no_function_is_worse_than_complexity_grade_d() -> None:
    worse = []
    for path in SOURCES:
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if cc_rank(block.complexity) > "D":
                worse.append(f"{_where(path, block.lineno)} {block.name}: "
                             f"{cc_rank(block.complexity)} ({block.complexity})")
    assert not worse, worse


def test_every_package_is_installed() -> None:
    """pyproject lists every package of replay/ and web/: a wheel (or a non-editable install)
    would otherwise ship without one, and only a clean install would show it."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts)
             for top in ("replay", "web") for p in (ROOT / top).rglob("__init__.py")
             if ".venv" not in p.parts}
    assert found <= listed, sorted(found - listed)
