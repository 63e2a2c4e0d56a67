"""Stage 5's sinks, as their modules declare them (`SINK`, discovered by render/sinks/table.py): each
one its options in `mazmorra build`, a docs section and a test, as Squib checks that every option is
documented; a new sink module, written to disk where discovery looks and nothing else, is an option,
an output and a guard; whatever the sinks and -j, each face is laid out once."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, run_cli

import mazmorra.render.sinks as sinks_package
from mazmorra import printers
from mazmorra.commands.build import build_cmd
from mazmorra.load import load_pack
from mazmorra.render import Sink, sink_class
from mazmorra.render.sinks import table
from mazmorra.render.sinks.table import SinkDecl

TESTS = REPO / "tests"


def _slug(heading: str) -> str:
    """A Markdown heading's anchor, as GitHub and most renderers make it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), re.M)}


def _said(words: list[str]) -> re.Pattern[str]:
    """Any of these words, whole: `--png` is not `--png-bleed`, `sheets` is not `sheet`."""
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in words) + r")(?![\w-])")


def undocumented(decls: list[SinkDecl], this: Path, root: Path = REPO, tests: Path = TESTS) -> list[str]:
    """What each declared sink lacks: its options in `mazmorra build --help`, its docs section (under
    `root`), a test (a test file under `tests` other than `this`) that names one of its options or,
    for a sink only a printer profile asks for, one of its profile layouts (`layout: NAME`)."""
    shown = run_cli("build", "--help").stdout
    texts = [p.read_text(encoding="utf-8") for p in tests.rglob("test_*.py") if p.resolve() != this.resolve()]
    missing = []
    for decl in decls:
        flags = [flag for o in decl.options for flag in o.flags.split("/")]
        missing += [
            f"{decl.name}: {f} is not an option of `mazmorra build`" for f in flags if not _said([f]).search(shown)
        ]
        doc, _, anchor = decl.docs.partition("#")
        if not (root / doc).is_file() or anchor not in _anchors(root / doc):
            missing.append(f"{decl.name}: no section #{anchor} in {doc}")
        asking = flags or [f"layout: {layout}" for layout in decl.layouts]
        if not any(_said(asking).search(text) for text in texts):
            missing.append(f"{decl.name}: no test runs a build with {' or '.join(asking)}")
    return missing


def test_every_sink_has_its_options_its_docs_and_a_test() -> None:
    missing = undocumented(list(table.sinks()), Path(__file__))
    assert missing == [], "\n".join(missing)


def test_each_sink_module_declares_its_sink_and_the_table_is_theirs() -> None:
    """Every module of the package that defines a sink declares it (its `SINK` names that class), the
    others none; the table is exactly what they declare, each sink and option once."""
    declared = []
    for info in pkgutil.iter_modules(sinks_package.__path__, f"{sinks_package.__name__}."):
        module = importlib.import_module(info.name)
        classes = {c for c in vars(module).values() if isinstance(c, type) and issubclass(c, Sink)}
        own = {c for c in classes if c.__module__ == module.__name__ and c is not Sink}
        decl = getattr(module, "SINK", None)
        if own:
            assert isinstance(decl, SinkDecl) and {decl.cls} == own, info.name
            declared.append(decl)
        else:
            assert decl is None, info.name
    assert {d.name for d in table.sinks()} == {d.name for d in declared} and "pdf" in {d.name for d in declared}
    own_params = set(inspect.signature(build_cmd).parameters) - set(table.given_defaults())
    names = [o.name for d in table.sinks() for o in d.options]
    assert len(set(names)) == len(names) and not own_params & set(names)  # one parameter each, none of the command's
    assert len({d.name for d in table.sinks()}) == len(table.sinks())
    for decl in table.sinks():
        cls = sink_class(decl)
        assert table.declaration_of(cls) is decl
        if decl.changed_only:  # make follows what it lists: a dependency file each
            assert cls.listed is not Sink.listed, decl.name


def test_every_printer_layout_has_its_sink() -> None:
    makers = [layout for d in table.sinks() for layout in d.layouts]
    assert sorted(makers) == sorted(printers.LAYOUTS)  # each profile layout made by exactly one sink
    from mazmorra.render.raster import PNG_PROFILES
    from mazmorra.render.sinks.png import PngProfile

    assert [p.value for p in PngProfile] == list(PNG_PROFILES)


# A sink a designer might add: one module, one line per component in a text file, and its declaration.
LISTING = '''"""A sink for a test: <out>/<pack>/<lang>/<deck>-components.txt, one line per component."""

from mazmorra.render.sinks.sink import Part, Sink
from mazmorra.render.sinks.table import SinkDecl, SinkOption


class ListingSink(Sink):
    def start(self, doc):
        self.lines = []

    def add(self, doc, item):
        self.lines.append(item.front.component)

    def end(self, doc) -> Part:
        target = self.out_dir / self.pack.id / doc.lang / f"{doc.deck_id}-components.txt"
        self.write(target, "".join(f"{line}\\n" for line in self.lines).encode())
        part = super().end(doc)
        part.made.append(f"{target} ({len(self.lines)} components)")
        return part


SINK = SinkDecl(
    "listing",
    ListingSink,
    "docs/exports.md#component-lists",
    (SinkOption("component_list", "--component-list", bool, False, "A text file listing each deck.", asks=True),),
    changed_only=CHANGED_ONLY,
)
'''
LISTING_MODULE = f"{sinks_package.__name__}.listing"


@pytest.fixture
def add_sink(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[bool], SinkDecl]]:
    """Writes the listing sink's module (its declaration keeping make's dependency files or not) to a
    folder of its own on the sinks package's `__path__`, where discovery looks as it does for the
    shipped ones: the table's sink it declares."""
    shipped = list(sinks_package.__path__)

    def add(changed_only: bool) -> SinkDecl:
        folder = tmp_path / f"sinks-{changed_only}"
        folder.mkdir()
        (folder / "listing.py").write_text(LISTING.replace("CHANGED_ONLY", str(changed_only)), encoding="utf-8")
        monkeypatch.setattr(sinks_package, "__path__", [*shipped, str(folder)])
        sys.modules.pop(LISTING_MODULE, None)  # the other declaration, if imported
        found = [d for d in table.sinks() if d.name == "listing"]
        assert len(found) == 1 and found[0].cls.__module__ == LISTING_MODULE
        return found[0]

    yield add
    sys.modules.pop(LISTING_MODULE, None)


def test_a_new_sink_is_its_module_alone_an_option_an_output_and_a_guard(
    add_sink: Callable[[bool], SinkDecl], tmp_path: Path
) -> None:
    add_sink(False)
    shown = run_cli("build", "--help").stdout
    outputs = shown[shown.index("Outputs:") :]
    assert re.search(r"--component-list\s+A text file listing each deck\.", outputs)
    out = tmp_path / "out"
    res = run_cli("build", "muestras", "--lang", "es", "--no-pdf", "--component-list", "--out", str(out))
    assert res.returncode == 0, res.stderr
    written = out / "muestras" / "es" / "cartas-components.txt"
    deck = load_pack(CONTENT / "muestras").decks[0]
    assert written.read_text(encoding="utf-8").splitlines() == [c.id for c in deck.components]
    assert f"{written} ({len(deck.components)} components)" in res.stdout
    assert not (out / "muestras" / "es" / "cartas.pdf").exists()  # --no-pdf: the listing alone
    # It keeps no dependency files (its declaration says nothing else): --changed-only refuses it.
    res = run_cli("build", "muestras", "--changed-only", "--component-list", "--out", str(out))
    assert res.returncode == 2 and "build --component-list without it" in res.stderr, res.stderr
    # Its module declaring that it keeps them, --changed-only takes it: a build of what is stale, here nothing.
    add_sink(True)
    assert run_cli("build", "muestras", "--lang", "es", "--out", str(out)).returncode == 0  # the PDFs for make
    written.unlink()
    res = run_cli("build", "muestras", "--lang", "es", "--changed-only", "--component-list", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert not written.exists()  # every deck up to date: skipped, not even laid out


def test_the_meta_test_names_what_a_new_sink_lacks(add_sink: Callable[[bool], SinkDecl], tmp_path: Path) -> None:
    listing = add_sink(False)
    lacking = [
        "listing: no section #component-lists in docs/exports.md",
        "listing: no test runs a build with --component-list",
    ]
    with pytest.raises(AssertionError) as failed:
        test_every_sink_has_its_options_its_docs_and_a_test()
    assert all(line in str(failed.value) for line in lacking), failed.value
    assert undocumented(list(table.sinks()), Path(__file__)) == lacking  # the shipped ones lack nothing
    # Its docs section and a test written, it lacks nothing.
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "exports.md").write_text("# Exports\n\n## Component lists\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_listing.py").write_text('ARGS = ("build", "--component-list")\n', encoding="utf-8")
    assert undocumented([listing], Path(__file__), tmp_path, tmp_path / "tests") == []
    bare = SinkDecl("bare", listing.cls, "docs/exports.md#gallery", layouts=("stickers",))
    assert undocumented([bare], Path(__file__)) == ["bare: no test runs a build with layout: stickers"]


@pytest.fixture(scope="module")
def counted(tmp_path_factory) -> dict[str, int]:
    """How many faces each build lays out, counted by every process it forks: a copy of the small
    sample (one deck, two languages: two documents, so -j2 forks) built four ways."""
    project = tmp_path_factory.mktemp("once")
    pack = project / "content" / "muestras"
    shutil.copytree(CONTENT / "muestras", pack)
    log = project / "faces.log"
    from mazmorra.layout import face as one_face  # where a face's template output is parsed

    real = one_face.parse_face

    def parse_face(*args, **kwargs):  # one line per face laid out, appended whole from any process
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{args[1].component} {args[2]}\n")
        return real(*args, **kwargs)

    runs = {
        "validate": ("validate", pack.name),
        "pdf -j1": ("build", pack.name, "-j", "1"),
        "pdf png tts -j2": ("build", pack.name, "-j", "2", "--png", "--tts"),
        "png tts gallery -j2": ("build", pack.name, "-j", "2", "--no-pdf", "--png", "--tts", "--gallery"),
    }
    seen = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(one_face, "parse_face", parse_face)
        for what, args in runs.items():
            log.write_text("", encoding="utf-8")
            # Without the face cache, which would hand each build the faces the one before laid out
            # (tests/layout/cache/test_facecache.py): what is counted is one build's own work.
            res = run_cli(*args, cwd=project, env={"MAZMORRA_FACE_CACHE": "0"})
            assert res.returncode == 0, res.stdout + res.stderr
            seen[what] = len(log.read_text(encoding="utf-8").splitlines())
    return seen


@pytest.mark.slow
def test_each_face_is_laid_out_once_whatever_the_sinks_and_jobs(counted: dict[str, int]) -> None:
    assert counted["validate"] >= 6  # 3 components × 2 languages, and the deck's back
    assert set(counted.values()) == {counted["validate"]}, counted
