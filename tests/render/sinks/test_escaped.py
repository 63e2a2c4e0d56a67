"""Exports are safe to open in the program they target: hostile designer text lands inert in the
PNG export's cards.csv (formula injection), the gallery (HTML) and the Tabletop Simulator JSON."""

from __future__ import annotations

import csv
import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import edit, run_cli

from mazmorra.support.filenames import safe_name
from mazmorra.support.safetext import csv_cell, tts_text

HYPERLINK = '=HYPERLINK("e.io")'
SCRIPT = "<script>go()</script>&<b>"
TTS_TAGS = "[ff0000]R[-][b]B[/b][url=e.io]"


class _Texts(HTMLParser):
    """The text of every element of a page, and every element name, as a browser parses it."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_every_formula_start_is_prefixed(start: str) -> None:
    assert csv_cell(start + "1+1") == "'" + start + "1+1"


def test_plain_cells_are_left_alone() -> None:
    assert csv_cell("Cofre olvidado") == "Cofre olvidado"
    assert csv_cell("a=b") == "a=b"  # only a leading sign makes a formula


def test_tts_text_and_file_stems() -> None:
    assert tts_text("[ff0000]Red[-]") == "[\u2060ff0000]Red[\u2060-]"
    assert tts_text("[sic] [note]") == "[sic] [note]"  # brackets that are no TTS tag stay as they are
    assert tts_text("a\x00b\u202ec\nd", keep_newlines=False) == "abcd"
    assert tts_text("a\nb") == "a\nb"
    assert safe_name("ojo-del-vigia") == "ojo-del-vigia"  # an id as the pack format allows stays itself
    assert safe_name("../../etc/passwd") == "etc-passwd"
    assert safe_name("..") == "file" and safe_name("con") == "_con" and safe_name("Nul.txt") == "_Nul.txt"


@pytest.mark.slow
def test_hostile_text_is_inert_in_csv_gallery_and_tts(pack_copy, tmp_path: Path) -> None:
    pack = pack_copy("muestras")
    deck = pack / "decks" / "cartas.yaml"
    edit(deck, "name: Cofre olvidado", f"name: '{HYPERLINK.replace(chr(39), chr(39) * 2)}'")
    edit(deck, "name: Fogata del claustro", f'name: "{SCRIPT}"')
    edit(deck, "name: Ojo del vigía", f'name: "{TTS_TAGS}"')
    res = run_cli("build", "muestras", "--lang", "es", "--no-pdf", "--png", "--tts", "--gallery", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = tmp_path / "output" / "muestras"

    rows = list(csv.DictReader((out / "es" / "png" / "cartas" / "cards.csv").open(encoding="utf-8-sig", newline="")))
    names = {r["component"]: r["name"] for r in rows}
    assert names["cofre-olvidado"] == "'" + HYPERLINK  # prefixed: a spreadsheet shows it as text
    assert names["fogata-del-claustro"] == SCRIPT  # no formula start: kept as written
    assert not any(cell.startswith(("=", "+", "-", "@")) for r in rows for cell in r.values())

    page = (out / "gallery" / "index.html").read_text(encoding="utf-8")
    assert "<script>go()" not in page and "&<b>" not in page
    parsed = _Texts()
    parsed.feed(page)
    assert SCRIPT in parsed.texts  # the hostile name is the h3's text, as written
    assert parsed.tags.count("script") == page.count("<script")  # no element but the page's own scripts

    saved = json.loads((out / "es" / "tts" / "cartas.json").read_text(encoding="utf-8"))
    nicknames = [c["Nickname"] for c in saved["ObjectStates"][0]["ContainedObjects"]]
    assert HYPERLINK in nicknames and SCRIPT in nicknames  # JSON holds any text safely
    assert TTS_TAGS not in nicknames
    assert "[\u2060ff0000]R[\u2060-][\u2060b]B[\u2060/b][\u2060url=e.io]" in nicknames
