"""Issue 27: a catalogue parsed by an earlier build is taken from its cache, the same to the last
attribute of every entry; a damaged entry is parsed again; a broken catalogue is reported every time."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CONTENT

from mazmorra.errors import ContentError
from mazmorra.i18n import po
from mazmorra.layout.cache.facecache import FaceCache
from mazmorra.support.memo import Memo
from mazmorra.support.paths import templates_dir

CATALOGUES = sorted([*CONTENT.glob("*/locale/**/*.po*"), *(templates_dir() / "locale").glob("*.po*")])


def _read(path: Path, memo: Memo | None):
    return po._load_po(path.resolve(), memo)  # past the process's own cache


@pytest.mark.slow
def test_every_catalogue_comes_back_the_same(tmp_path: Path) -> None:
    assert len(CATALOGUES) > 10
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    for path in CATALOGUES:
        parsed = _read(path, None)
        first, again = Memo(store, b"tool"), Memo(store, b"tool")
        _read(path, first)
        kept = _read(path, again)
        assert (first.written, again.read, again.written) == (1, 1, 0), path
        assert vars(kept) == vars(parsed) and str(kept) == str(parsed), path
        assert [vars(e) for e in kept] == [vars(e) for e in parsed], path
        assert [po.msgstr_line(e) for e in kept] == [po.msgstr_line(e) for e in parsed]


def test_a_damaged_entry_is_parsed_again_and_a_fault_always_reported(tmp_path: Path) -> None:
    catalogue = tmp_path / "en.po"
    catalogue.write_bytes(CATALOGUES[0].read_bytes())
    store = FaceCache(tmp_path / "checks", tmp_path / "scratch")
    _read(catalogue, Memo(store, b"tool"))
    for entry in (tmp_path / "checks").rglob("*"):
        if entry.is_file():
            entry.write_bytes(entry.read_bytes()[:-7])
    memo = Memo(store, b"tool")
    assert str(_read(catalogue, memo)) == str(_read(catalogue, None))
    assert (memo.read, memo.written) == (0, 1)
    catalogue.write_text(catalogue.read_text(encoding="utf-8") + '\nmsgid "unclosed\n', encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError) as exc:
            _read(catalogue, Memo(store, b"tool"))
        assert exc.value.problems[0].rule == "i18n.po-syntax"
