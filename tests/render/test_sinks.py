"""Stage 5's sinks, as the sink table declares them (mazmorra/render/sinks/table.py): each one its
options in `mazmorra build`, a docs section and a test, as Squib checks that every option is
documented; a sink registered in the table alone is an option, an output and a guard; whatever the
sinks and -j, each face is laid out once."""

from __future__ import annotations

import dataclasses
import inspect
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, run_cli

from mazmorra import printers
from mazmorra.commands.build import build_cmd
from mazmorra.load import load_pack
from mazmorra.render import Sink, sink_class
from mazmorra.render.sinks import table
from mazmorra.render.sinks.table import SinkDecl, SinkOption

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


def undocumented(decls: list[SinkDecl], this: Path) -> list[str]:
    """What each declared sink lacks: its options in `mazmorra build --help`, its docs section, a test
    (a test file other than `this`) that names one of its options or, for a sink only a printer profile
    asks for, one of its profile layouts (`layout: NAME`)."""
    shown = run_cli("build", "--help").stdout
    tests = [p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py") if p.resolve() != this.resolve()]
    missing = []
    for decl in decls:
        flags = [flag for o in decl.options for flag in o.flags.split("/")]
        missing += [
            f"{decl.name}: {f} is not an option of `mazmorra build`" for f in flags if not _said([f]).search(shown)
        ]
        doc, _, anchor = decl.docs.partition("#")
        if not (REPO / doc).is_file() or anchor not in _anchors(REPO / doc):
            missing.append(f"{decl.name}: no section #{anchor} in {doc}")
        asking = flags or [f"layout: {layout}" for layout in decl.layouts]
        if not any(_said(asking).search(text) for text in tests):
            missing.append(f"{decl.name}: no test runs a build with {' or '.join(asking)}")
    return missing


def test_every_sink_has_its_options_its_docs_and_a_test() -> None:
    assert [d.name for d in table.SINKS] == ["pdf", "png", "cards", "sheet-images", "tts", "gallery", "cut"]
    assert undocumented(list(table.SINKS), Path(__file__)) == []


def test_the_table_declares_every_sink_once_and_every_printer_layout_has_its_sink() -> None:
    own = set(inspect.signature(build_cmd).parameters) - set(table.given_defaults())
    names = [o.name for d in table.SINKS for o in d.options]
    assert len(set(names)) == len(names) and not own & set(names)  # one parameter each, none of the command's own
    assert len({d.name for d in table.SINKS}) == len(table.SINKS)
    for decl in table.SINKS:
        cls = sink_class(decl)
        assert table.declaration_of(cls) is decl
        if decl.changed_only:  # make follows what it lists: a dependency file each
            assert cls.listed is not Sink.listed, decl.name
    makers = [layout for d in table.SINKS for layout in d.layouts]
    assert sorted(makers) == sorted(printers.LAYOUTS)  # each profile layout made by exactly one sink
    from mazmorra.render.raster import PNG_PROFILES

    assert [p.value for p in table.PngProfile] == list(PNG_PROFILES)


# A sink a designer might add, in a module of its own: one line per component, in a text file.
LISTING = '''"""A sink for a test: <out>/<pack>/<lang>/<deck>-components.txt, one line per component."""

from mazmorra.render.sinks.sink import Part, Sink


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
'''


@pytest.fixture
def listing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[SinkDecl]:
    """The listing sink, its module written outside the package and registered in the table alone."""
    (tmp_path / "listing_sink.py").write_text(LISTING, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    decl = SinkDecl(
        "listing",
        "listing_sink:ListingSink",
        "docs/exports.md#component-lists",
        (SinkOption("component_list", "--component-list", bool, False, "A text file listing each deck.", asks=True),),
    )
    monkeypatch.setattr(table, "SINKS", (*table.SINKS, decl))
    yield decl
    sys.modules.pop("listing_sink", None)


def test_a_sink_registered_in_the_table_alone_is_an_option_an_output_and_a_guard(
    listing: SinkDecl, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
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
    # Declared as keeping them, --changed-only takes it: a build of what is stale, here nothing.
    monkeypatch.setattr(table, "SINKS", (*table.SINKS[:-1], dataclasses.replace(listing, changed_only=True)))
    assert run_cli("build", "muestras", "--lang", "es", "--out", str(out)).returncode == 0  # the PDFs for make
    written.unlink()
    res = run_cli("build", "muestras", "--lang", "es", "--changed-only", "--component-list", "--out", str(out))
    assert res.returncode == 0, res.stderr
    assert not written.exists()  # every deck up to date: skipped, not even laid out


def test_the_meta_test_names_what_a_new_sink_lacks(listing: SinkDecl) -> None:
    assert undocumented([listing], Path(__file__)) == [
        "listing: no section #component-lists in docs/exports.md",
        "listing: no test runs a build with --component-list",
    ]
    bare = SinkDecl("bare", "listing_sink:ListingSink", "docs/exports.md#gallery", layouts=("stickers",))
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
            # (tests/layout/test_facecache.py): what is counted is one build's own work.
            res = run_cli(*args, cwd=project, env={"MAZMORRA_FACE_CACHE": "0"})
            assert res.returncode == 0, res.stdout + res.stderr
            seen[what] = len(log.read_text(encoding="utf-8").splitlines())
    return seen


def test_each_face_is_laid_out_once_whatever_the_sinks_and_jobs(counted: dict[str, int]) -> None:
    assert counted["validate"] >= 6  # 3 components × 2 languages, and the deck's back
    assert set(counted.values()) == {counted["validate"]}, counted
