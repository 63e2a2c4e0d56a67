"""Stage 5's sinks (mazmorra.render.SINKS): each one a build option, a docs section and a test, as
Squib checks that every option is documented; whatever the sinks and -j, each face is laid out once."""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import CONTENT, REPO, run_cli

from mazmorra import render
from mazmorra.render import SINKS, Sink, sink_classes

TESTS = REPO / "tests"


def _slug(heading: str) -> str:
    """A Markdown heading's anchor, as GitHub and most renderers make it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(doc: Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", doc.read_text(encoding="utf-8"), re.M)}


def undocumented(sinks: list[type[Sink]], this: Path) -> list[str]:
    """What each sink lacks: its option in `mazmorra build --help`, its docs section, a test that
    asks for it (a test file other than `this` naming its option)."""
    shown = run_cli("build", "--help", env={"COLUMNS": "250"}).stdout
    tests = [p.read_text(encoding="utf-8") for p in TESTS.rglob("test_*.py") if p.resolve() != this.resolve()]
    missing = []
    for sink in sinks:
        flag = re.compile("--(?:no-)?" + re.escape(sink.option.removeprefix("--")) + r"\b")
        if not flag.search(shown):
            missing.append(f"{sink.name}: {sink.option} is not an option of `mazmorra build`")
        doc, _, anchor = sink.docs.partition("#")
        if not (REPO / doc).is_file() or anchor not in _anchors(REPO / doc):
            missing.append(f"{sink.name}: no section #{anchor} in {doc}")
        if not any(flag.search(text) for text in tests):
            missing.append(f"{sink.name}: no test runs a build with {sink.option}")
    return missing


def test_every_sink_has_its_option_its_docs_and_a_test() -> None:
    classes = sink_classes()
    assert [c.name for c in classes] == list(SINKS) == ["pdf", "png", "cards", "sheet-images", "tts", "gallery", "cut"]
    assert undocumented(classes, Path(__file__)) == []


def test_a_new_sink_without_option_docs_or_test_fails_the_check(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "shop_sink.py").write_text(
        "from mazmorra.render.sinks.sink import Sink\n\n\n"
        "class ShopSink(Sink):\n"
        "    name = 'shop'\n"
        "    option = '--shop-files'\n"
        "    docs = 'docs/exports.md#print-shop-files'\n\n"
        "    @classmethod\n"
        "    def wanted(cls, outputs):\n"
        "        return True\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(render.SINKS, "shop", "shop_sink:ShopSink")
    shop = sink_classes()[-1]
    assert shop.name == "shop"
    assert undocumented([shop], Path(__file__)) == [
        "shop: --shop-files is not an option of `mazmorra build`",
        "shop: no section #print-shop-files in docs/exports.md",
        "shop: no test runs a build with --shop-files",
    ]
    sys.modules.pop("shop_sink", None)


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
