"""One home per stage: imports point down, the tree shows the stages, functions stay small, families are checked whole, every
template element checks its attributes, imposition plans every page, unsafe inputs are refused."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REPO, edit, line_of, run_cli

from mazmorra import kinds
from mazmorra.layout import Templates
from mazmorra.model.content import Kind
from mazmorra.render.impose import ImposeOptions, impose
from mazmorra.support.paths import templates_dir

PACKAGE = REPO / "cli" / "mazmorra"


def _modules() -> dict[str, Path]:
    mods = {}
    for f in PACKAGE.rglob("*.py"):
        parts = list(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def _imports(name: str, path: Path, mods: dict[str, Path]) -> set[str]:
    """Package modules `name` imports, type-only imports included; a package importing its own
    submodules is not counted."""
    base = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mod = ".".join(base[: len(base) - node.level + 1] + [node.module or ""]) if node.level else node.module
            targets = [mod or ""] + [f"{mod}.{a.name}" for a in node.names]
        for t in targets:
            while t and t not in mods:
                t = t.rpartition(".")[0]
            if t and t != name and not t.startswith(name + "."):
                found.add(t)
    return found


def _cycles(graph: dict[str, set[str]]) -> Iterator[list[str]]:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(v: str) -> Iterator[list[str]]:
        state[v] = 1
        stack.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                yield stack[stack.index(w) :] + [w]
            elif w not in state:
                yield from visit(w)
        stack.pop()
        state[v] = 2

    for v in sorted(graph):
        if v not in state:
            yield from visit(v)


def test_imports_point_down() -> None:
    mods = _modules()
    graph = {name: _imports(name, path, mods) for name, path in mods.items()}
    assert list(_cycles(graph)) == []
    assert graph["mazmorra.errors"] == set(), "problems and errors import nothing of the package"
    assert graph["mazmorra.contracts"] <= {"mazmorra.errors"}, "the contracts import nothing but the problems"


@pytest.mark.slow
def test_pipeline_reaches_every_stage_in_one_hop() -> None:
    mods = _modules()
    imported = _imports("mazmorra.build.pipeline", PACKAGE / "build/pipeline.py", mods)
    for stage in (
        "mazmorra.load",
        "mazmorra.validate",
        "mazmorra.i18n.localise",
        "mazmorra.layout",
        "mazmorra.render",
        "mazmorra.support.atomic",
    ):
        assert stage in imported, stage
    users = {n for n, p in mods.items() if "mazmorra.build.pipeline" in _imports(n, p, mods)}
    front_ends = {n for n in mods if n.startswith(("mazmorra.commands", "mazmorra.serve", "mazmorra.build"))}
    assert users <= front_ends, "the orchestrator exports nothing to its workers"


@pytest.mark.slow
def test_stages_one_to_three_hand_problems_back_as_values() -> None:
    """Load, validate and localise return (result, problems): no function of theirs takes a list of
    problems to append to."""
    stages = ("source", "model", "load", "validate", "i18n", "kinds")
    takers = []
    for name, path in _modules().items():
        if name.partition(".")[2].partition(".")[0] not in stages:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for arg in node.args.args + node.args.kwonlyargs:
                    note = ast.unparse(arg.annotation) if arg.annotation else ""
                    if "list[Problem]" in note:
                        takers.append(f"{name}.{node.name}({arg.arg})")
    assert takers == []


@pytest.mark.slow
def test_the_card_text_parser_sits_below_the_fitting_engine() -> None:
    """Validation and localisation read card text (model/cardtext.py) without the layout stage's fitting
    engine (layout/text/fit.py, layout/text/linebreak.py), which only the layout stage uses."""
    mods = _modules()
    assert _imports("mazmorra.model.cardtext", mods["mazmorra.model.cardtext"], mods) == set()
    engine = {"mazmorra.layout.text.fit", "mazmorra.layout.text.linebreak"}
    users = {n for n, p in mods.items() if engine & _imports(n, p, mods)}
    assert users and all(n.startswith("mazmorra.layout.") for n in users), users


@pytest.mark.slow
def test_every_package_sits_on_one_floor() -> None:
    """No package reaches back to itself through another package: each subpackage (declared/,
    checks/, kinds/, layout/, ...) stands on one floor of the import graph."""
    mods = _modules()

    def package(name: str) -> str:
        return ".".join(name.split(".")[:2])

    graph: dict[str, set[str]] = {}
    for name, path in mods.items():
        for dep in _imports(name, path, mods):
            if package(dep) != package(name):
                graph.setdefault(package(name), set()).add(package(dep))
    for node in graph.copy().values():
        for dep in node:
            graph.setdefault(dep, set())
    assert list(_cycles(graph)) == []


# ---------------------------------------------------------------- the shape of the house

STAGES = {  # package -> its one entry
    "mazmorra.load": "load_pack",
    "mazmorra.validate": "validate",
    "mazmorra.i18n": "localise",
    "mazmorra.layout": "lay_out",
    "mazmorra.render": "render",
    "mazmorra.build": "build",
}
MAX_ROOT_MODULES = 12
MAX_FOLDER_MODULES = 15
MAX_PARAMS = 10
MAX_FUNCTION_LINES = 120


def _family_module(path: Path) -> bool:
    """A module of a game family's package (kinds/<family>/...): the families share one layout by design."""
    rel = path.relative_to(PACKAGE).parts
    return len(rel) > 2 and rel[0] == "kinds"


def test_the_root_holds_a_handful_of_modules_and_no_folder_a_bag() -> None:
    root = [p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(root) <= MAX_ROOT_MODULES, root
    crowded = {}
    for folder in [PACKAGE, *[p for p in PACKAGE.rglob("*") if p.is_dir() and p.name != "__pycache__"]]:
        mods = [p for p in folder.glob("*.py") if p.name != "__init__.py"]
        if len(mods) > MAX_FOLDER_MODULES:
            crowded[str(folder.relative_to(PACKAGE))] = len(mods)
    assert crowded == {}


@pytest.mark.parametrize("package, entry", sorted(STAGES.items()))
def test_every_stage_is_a_package_with_its_entry(package: str, entry: str) -> None:
    import importlib

    path = PACKAGE.joinpath(*package.split(".")[1:], "__init__.py")
    assert path.is_file(), f"{package} is a package"
    module = importlib.import_module(package)
    assert callable(getattr(module, entry)), f"{package}.{entry}"


def test_no_module_name_and_no_class_name_is_used_twice() -> None:
    modules: dict[str, list[str]] = {}
    classes: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = str(path.relative_to(PACKAGE))
        if path.name not in ("__init__.py", "__main__.py") and not _family_module(path):
            modules.setdefault(path.name, []).append(rel)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, []).append(rel)
    assert {n: where for n, where in modules.items() if len(where) > 1} == {}
    assert {n: where for n, where in classes.items() if len(where) > 1} == {}


def _is_command(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A Typer command declaration (`@app.command(...)`, `@group.command(...)`): its parameters are its options."""
    for dec in node.decorator_list:
        target = dec.func if isinstance(dec, ast.Call) else dec
        if isinstance(target, ast.Attribute) and target.attr in ("command", "callback"):
            return True
    return False


def test_no_function_takes_more_than_ten_parameters_or_runs_over_120_lines() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or _is_command(node):
                continue
            a = node.args
            params = [*a.posonlyargs, *a.args, *a.kwonlyargs, *([a.vararg] if a.vararg else [])]
            params += [a.kwarg] if a.kwarg else []
            if params and params[0].arg in ("self", "cls"):
                params = params[1:]
            lines = (node.end_lineno or node.lineno) - node.lineno + 1
            if len(params) > MAX_PARAMS or lines > MAX_FUNCTION_LINES:
                found.append(
                    f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}: {len(params)} params, {lines} lines"
                )
    assert found == []


# ---------------------------------------------------------------- template elements


@pytest.mark.parametrize(
    "element, attr, suggestion",
    [
        ('<rect x="1" y="1" w="5" h="5" fil="#f00"/>', "fil", "fill"),
        ('<text x="1" y="1" w="20" h="5" sise="9">Hola</text>', "sise", "size"),
        ('<circle cx="5" cy="5" r="2" stroke-widht="1"/>', "stroke-widht", "stroke-width"),
    ],
)
def test_a_misspelt_attribute_is_located_with_a_suggestion(pack_copy, element: str, attr: str, suggestion: str) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {element}\n</card>"), encoding="utf-8")
    line = line_of(pack / "templates" / "card.xml.j2", element)
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert f"content/muestras/templates/card.xml.j2:{line}:3" in text, text
    assert f"unknown attribute '{attr}'; did you mean '{suggestion}'?" in text
    assert text.count("(template.element)") == 1, "reported once, not once per card and language"


def test_a_grid_mistake_is_reported_once_at_its_template_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    card = (templates_dir() / "card.xml.j2").read_text(encoding="utf-8")
    grid = '<grid x="2" y="2" rows="2" cols="2" cell="4">\n    <cell r="0" c="0" type="lava"/>\n  </grid>'
    (pack / "templates" / "card.xml.j2").write_text(card.replace("</card>", f"  {grid}\n</card>"), encoding="utf-8")
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    line = line_of(pack / "templates" / "card.xml.j2", 'type="lava"')
    assert f"card.xml.j2:{line}:5" in text and "unknown type 'lava'" in text, text
    assert text.count("unknown type 'lava'") == 1


def test_recursion_through_includes_names_the_include_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "templates").mkdir()
    (pack / "templates" / "card.xml.j2").write_text(
        '<card>\n  {% include "part.xml.j2" %}\n</card>\n', encoding="utf-8"
    )
    (pack / "templates" / "part.xml.j2").write_text('<g>\n\n  {% include "card.xml.j2" %}\n</g>\n', encoding="utf-8")
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1 and "endless recursion" in text, text
    assert "content/muestras/templates/card.xml.j2:2:" in text, text


def test_a_label_in_a_jinja_comment_is_not_a_label(tmp_path: Path) -> None:
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "t.xml.j2").write_text(
        '{# _("Old label") #}\n<card>\n  <text x="0" y="0" w="9" h="9">{{ _("Action") }}</text>\n'
        '  <text x="0" y="0" w="9" h="9">{{ ngettext("%(n)d card", "%(n)d cards", 2) }}</text>\n</card>\n',
        encoding="utf-8",
    )
    labels = Templates(tmp_path, templates_dir()).labels(["t.xml.j2"])
    assert [(lb.msgid, lb.plural, lb.loc.line if lb.loc else 0) for lb in labels] == [
        ("Action", None, 3),
        ("%(n)d card", "%(n)d cards", 4),
    ]


# ---------------------------------------------------------------- families


def test_a_new_kind_of_a_family_is_checked_by_the_family(pack_copy) -> None:
    """A kind registered in the Expedition family, in a pack with no `game:` section: reported."""
    from mazmorra.kinds.expedition import FAMILY
    from mazmorra.kinds.generic.card import Card

    kinds.register(
        Kind(
            name="expedition_card",
            model=Card,
            template="card.xml.j2",
            back_template="card-back.xml.j2",
            family=FAMILY,
            size="card",
        )
    )
    try:
        pack = pack_copy("expedicion")
        text = (pack / "pack.yaml").read_text(encoding="utf-8")
        start, end = text.index("game:\n"), text.index("decks:\n")
        text = text[:start] + text[end:]
        decks = text.index("decks:\n") + len("decks:\n")
        (pack / "pack.yaml").write_text(
            text[:decks] + "  - {id: nuevas, kind: expedition_card, name: Nuevas, file: decks/nuevas.yaml}\n",
            encoding="utf-8",
        )
        (pack / "decks" / "nuevas.yaml").write_text("- {id: nueva, name: Nueva}\n", encoding="utf-8")
        res = run_cli("validate", "expedicion", cwd=pack.parents[1])
        text = res.stdout + res.stderr
        assert res.returncode == 1, text
        assert "the expedition kinds need a `game:` section" in text and "(game.settings)" in text, text
    finally:
        kinds.unregister("expedition_card")


@pytest.mark.slow
def test_family_rules_run_once_whichever_kinds_are_present(pack_copy) -> None:
    pack = pack_copy("expedicion")
    edit(pack / "decks" / "fichas.yaml", "letter: C, copies: 2", "letter: C, copies: 1")  # no pair
    res = run_cli("validate", "expedicion", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert text.count("(token.letter-pair)") >= 1
    assert len({line for line in text.splitlines() if "(token.letter-pair)" in line}) == text.count(
        "(token.letter-pair)"
    ), "each problem once, though two token kinds are in the pack"


def test_game_settings_are_parsed_once_at_load() -> None:
    from mazmorra.kinds.expedition import ExpeditionSettings
    from mazmorra.load import load_pack

    pack = load_pack(REPO / "content" / "expedicion")
    settings = pack.settings_of(ExpeditionSettings)
    assert settings is not None and settings.cubes["linaje"].supply == 6
    assert load_pack(REPO / "content" / "muestras").settings == {}


def test_kind_rules_need_no_type_ignores() -> None:
    for path in (PACKAGE / "kinds").rglob("*.py"):
        assert "type: ignore" not in path.read_text(encoding="utf-8"), path


# ---------------------------------------------------------------- imposition: every physical page


def test_duplex_imposition_returns_fronts_then_backs_pages() -> None:
    pages = impose(ImposeOptions(), [(63, 88)] * 8, [True] * 8, 3.0)  # 6 poker cards with bleed per A4 sheet
    assert [sorted({p.side for p in page.placements}) for page in pages] == [
        ["front"],
        ["back"],
    ] * 2
    assert [p.index for p in pages[0].placements] == list(range(6))
    assert [p.index for p in pages[1].placements] == list(range(6))
    assert [p.index for p in pages[3].placements] == [6, 7]
    assert pages[1].placements[0].x > pages[1].placements[1].x, "backs mirrored for the long-edge flip"


def test_only_components_with_a_back_get_one() -> None:
    pages = impose(ImposeOptions(), [(63, 88)] * 3, [True, False, True], 3.0)
    assert len(pages) == 2 and [p.index for p in pages[1].placements] == [0, 2]
    assert len(impose(ImposeOptions(), [(63, 88)] * 3, [False] * 3, 3.0)) == 1
    assert len(impose(ImposeOptions(duplex="none"), [(63, 88)] * 3, [True] * 3, 3.0)) == 1


def test_fold_imposition_puts_backs_on_the_same_page() -> None:
    pages = impose(ImposeOptions(layout="fold"), [(63, 88)] * 4, [True] * 4, 3.0)
    assert all({p.side for p in page.placements} == {"front", "back"} for page in pages)
    assert all(page.folds for page in pages)


# ---------------------------------------------------------------- unsafe inputs


def test_an_svg_icon_with_a_doctype_is_refused_at_its_line(pack_copy) -> None:
    pack = pack_copy("muestras")
    (pack / "icons").mkdir()
    (pack / "icons" / "bomba.svg").write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE svg [\n  <!ENTITY a "aaaaaaaaaa">\n]>\n'
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">&a;</svg>\n',
        encoding="utf-8",
    )
    res = run_cli("build", "muestras", cwd=pack.parents[1])
    text = res.stdout + res.stderr
    assert res.returncode == 1, text
    assert "content/muestras/icons/bomba.svg:2:1" in text and "(icon.unsafe)" in text, text


@pytest.mark.slow
def test_a_shipped_template_copied_into_a_pack_overrides_it(pack_copy) -> None:
    from conftest import pdf_text

    pack = pack_copy("muestras")
    project = pack.parents[1]
    listed = run_cli("templates")
    assert listed.returncode == 0 and "card.xml.j2" in listed.stdout and str(templates_dir()) in listed.stdout
    assert run_cli("templates", "card.xml.j2", "--into", str(pack), cwd=project).returncode == 0
    edit(pack / "templates" / "card.xml.j2", "</card>", '<text x="5" y="40" w="50" h="8">HECHO EN CASA</text>\n</card>')
    assert run_cli("build", "muestras", "--lang", "es", cwd=project).returncode == 0
    assert "HECHO EN CASA" in pdf_text(project / "output/muestras/es/cartas.pdf")
    again = run_cli("templates", "card.xml.j2", "--into", str(pack), cwd=project)
    assert again.returncode == 2 and "already overrides it" in again.stderr


def test_the_shipped_templates_folder_holds_only_templates() -> None:
    """No stray files (an editor's or a shell's leftovers named after a template and a line number)
    ship in the wheel beside the templates."""
    import re

    strays = [
        p.name
        for p in templates_dir().iterdir()
        if not (p.is_dir() and p.name == "locale") and not re.fullmatch(r"[a-z0-9_-]+(\.xml)?\.j2", p.name)
    ]
    assert strays == []


@pytest.mark.slow
def test_problems_are_values_no_function_appends_to_a_problems_argument() -> None:
    """A stage returns its result and its problems: no function of the package takes a list of
    problems to append to (append, extend, insert, +=, slicing it back)."""
    offenders = []
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = {
                a.arg
                for a in (*node.args.args, *node.args.kwonlyargs)
                if a.annotation is not None
                and "Problem" in ast.unparse(a.annotation)
                and "list" in ast.unparse(a.annotation)
            }
            for inner in ast.walk(node):
                target = None
                if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute):
                    if inner.func.attr in ("append", "extend", "insert"):
                        target = inner.func.value
                elif isinstance(inner, ast.AugAssign):
                    target = inner.target
                elif isinstance(inner, ast.Delete):
                    target = next((t.value for t in inner.targets if isinstance(t, ast.Subscript)), None)
                if isinstance(target, ast.Name) and target.id in params:
                    offenders.append(f"{name}.{node.name}({target.id})")
    assert sorted(set(offenders)) == []
