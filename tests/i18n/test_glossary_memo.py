"""Issue 27: the glossary and the house style judge a text once, in this process or an earlier build
(`<output>/.cache/checks`): a later build finds the same problems at the same lines without judging
again; a damaged entry is judged again, never trusted."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
import pytest
from conftest import line_of, run_cli

from mazmorra.errors import Loc
from mazmorra.i18n.checks import glossary, house
from mazmorra.i18n.checks.glossary import Pair, Term, check_glossary
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.support.memo import Memo

AT = Loc("glossary.yaml", 1, 1)
TERMS = (
    Term({"es": ("cofre",), "en": ("chest",)}, "", AT),
    Term({"es": ("mazo",), "en": ("deck",)}, "", AT),
)
PAIRS = [
    Pair("Abre el cofre", "Open the box", Loc("en.po", 10, 1), "a", "text"),  # glossary.term
    Pair("Baraja el mazo", "Shuffle the deck", Loc("en.po", 20, 1), "b", "text"),  # fine
    Pair("El cofre", "The cofre", Loc("en.po", 30, 1), "c", "text"),  # both
]


class Counted:
    """_judge, counted."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        real = glossary._judge

        def judge(*args: Any) -> list[tuple[str, str]]:
            self.calls += 1
            return real(*args)

        monkeypatch.setattr(glossary, "_judge", judge)


def _fresh_process() -> None:
    glossary._MEMO.clear()  # what a new process starts with


def test_a_later_build_judges_nothing_again_and_finds_the_same(tmp_path: Path, monkeypatch) -> None:
    judged = Counted(monkeypatch)
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    _fresh_process()
    cold = check_glossary(TERMS, "es", "en", PAIRS, Memo(store, b"tool"))
    assert judged.calls == 3
    assert [(p.rule, p.loc.line, p.component) for p in cold] == [
        ("glossary.term", 10, "a"),
        ("glossary.term", 30, "c"),
        ("glossary.untranslated", 30, "c"),
    ]
    _fresh_process()
    memo = Memo(store, b"tool")
    assert check_glossary(TERMS, "es", "en", PAIRS, memo) == cold
    assert judged.calls == 3 and memo.read == 1 and memo.written == 0
    # One translation edited: only it is judged; the entry then holds what this build used.
    _fresh_process()
    edited = [*PAIRS[:2], Pair("El cofre", "The chest", Loc("en.po", 30, 1), "c", "text")]
    assert [p.component for p in check_glossary(TERMS, "es", "en", edited, Memo(store, b"tool"))] == ["a"]
    assert judged.calls == 4


def test_another_glossary_or_tool_reads_nothing_stored(tmp_path: Path, monkeypatch) -> None:
    judged = Counted(monkeypatch)
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    _fresh_process()
    check_glossary(TERMS, "es", "en", PAIRS, Memo(store, b"tool"))
    _fresh_process()
    check_glossary(TERMS, "es", "en", PAIRS, Memo(store, b"another version"))
    moved = tuple(Term(t.forms, t.note, Loc("glossary.yaml", 9, 1)) for t in TERMS)  # messages name the line
    _fresh_process()
    found = check_glossary(moved, "es", "en", PAIRS, Memo(store, b"tool"))
    assert judged.calls == 9
    assert "(glossary, glossary.yaml:9:1)" in found[0].message


def test_a_damaged_entry_is_judged_again(tmp_path: Path, monkeypatch) -> None:
    judged = Counted(monkeypatch)
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    _fresh_process()
    cold = check_glossary(TERMS, "es", "en", PAIRS, Memo(store, b"tool"))
    (entry,) = [p for p in (tmp_path / "checks").rglob("*") if p.is_file()]
    data = bytearray(entry.read_bytes())
    data[-3] ^= 0xFF
    entry.write_bytes(bytes(data))
    _fresh_process()
    memo = Memo(store, b"tool")
    assert check_glossary(TERMS, "es", "en", PAIRS, memo) == cold
    assert judged.calls == 6 and memo.read == 0 and memo.written == 1


def test_validate_from_the_memo_says_what_a_cold_one_says(pack_copy, monkeypatch) -> None:
    """The CLI: a planted term error and a house-style warning are reported at their .po lines by a
    cold build, by a build reading the memo (judging no text), and by one whose memo files were
    truncated."""
    pack = pack_copy("muestras")
    project = pack.parents[1]
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    po.find("cofre-olvidado.name", by="msgctxt").msgstr = "Forgotten Box"
    po.find("cofre-olvidado.text", by="msgctxt").msgstr = "Open the chest: gain 2 {coin}. Then, {draw:1}."
    po.save()
    term, style = line_of(po_path, "Forgotten Box"), line_of(po_path, "Then, {draw:1}.")
    judged = Counted(monkeypatch)
    styled = []
    real_style = house.style_of
    monkeypatch.setattr(house, "style_of", lambda *a, **k: styled.append(1) or real_style(*a, **k))
    runs, counts = [], []
    for damage in (False, False, True):
        _fresh_process()
        if damage:
            for entry in (project / "output" / ".cache" / "checks").rglob("*"):
                if entry.is_file():
                    entry.write_bytes(entry.read_bytes()[:20])
        before = (judged.calls, len(styled))
        res = run_cli("validate", "muestras", cwd=project)
        assert res.returncode == 1
        runs.append(res.stderr)
        counts.append((judged.calls - before[0], len(styled) - before[1]))
    assert f"content/muestras/locale/en.po:{term}:1: error [cofre-olvidado.name] (en)" in runs[0], runs[0]
    assert "(glossary.term)" in runs[0]
    assert f"content/muestras/locale/en.po:{style}:1: warning [cofre-olvidado.text] (en)" in runs[0], runs[0]
    assert "(style.icon-verb)" in runs[0]
    assert runs[1] == runs[0] and runs[2] == runs[0]
    assert counts[0][0] > 0 and counts[0][1] > 0
    assert counts[1] == (0, 0), "the second build judged nothing again"
    assert counts[2] == counts[0], "damaged entries: everything judged again"
