"""model/cardtext.py's parsed value: one CardText per text, its readings the same as the regex passes
each stage made before, and a build that reads each text's paragraphs once."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from mazmorra.build.pipeline import BuildOptions, build
from mazmorra.model import cardtext
from mazmorra.model.cardtext import EMPHASIS, SPAN, TOKEN, IconPart, parse, split_blocks

TEXTS = [
    "",
    "Roba {draw:2} y gana {coin=3}.",
    "{center}**Cancela** un *ataque* de {icon:stealth:1}.\n\nLuego {key}, [color=red]rojo[/color] 7 * 7",
    "[u]abierto [size=80%]y[/u] cerrado dos veces[/size][/size] {right} {a:b:c} {x:N}",
    "%(n)s cartas, {coin= tres} {Malo} {heal:+2}**",
    "{center}\n\n{left}texto",
]


def test_parse_is_memoised_by_the_string() -> None:
    text = "Gana {coin:1}."
    assert parse(text) is parse("Gana {coin:" + "1}.")
    assert parse(text).tokens is parse(text).tokens  # each reading worked out once, then kept


@pytest.mark.parametrize("text", TEXTS)
def test_readings_match_the_regex_passes_they_replace(text: str) -> None:
    card = parse(text)
    assert card.signature == tuple(
        sorted(
            [m.group(0) for m in TOKEN.finditer(text)]
            + EMPHASIS.findall(SPAN.sub("", TOKEN.sub("", text)))
            + [m.group(0) for m in SPAN.finditer(text)]
        )
    )
    assert [t.written for t in card.tokens] == [m.group(0) for m in TOKEN.finditer(text)]
    assert [(t.start, t.end) for t in card.tags] == [m.span() for m in SPAN.finditer(text)]
    assert len(card.untokened) == len(card.words) == len(text)
    assert card.untokened.split() == TOKEN.sub(" ", text).split()
    assert card.blocks() == split_blocks(text)


def test_icons_leave_out_alignment_words_and_read_every_token_form() -> None:
    card = parse("{center}Gana {coin=3}, {icon:draw:2}, {key} y {a:b:c}")
    assert list(card.icons) == [
        IconPart("coin", "3", inside=True),
        IconPart("draw", "2"),
        IconPart("key", None),
        IconPart("a", "b:c"),
    ]
    assert [t.numbered for t in card.tokens] == [False, True, True, False, True]
    assert card.tokens[2].groups == ("icon", None, "draw", "2")


def test_words_blank_tokens_token_shapes_and_placeholders() -> None:
    card = parse("%(n)s dos {coin= tres} {draw:2} cuatro")
    assert card.words.split() == ["dos", "cuatro"]
    assert card.untokened.split() == ["%(n)s", "dos", "{coin=", "tres}", "cuatro"]  # only real tokens blanked


def test_drawn_is_the_words_and_icon_numbers_without_markup() -> None:
    assert parse("**Roba** {draw:2} [u]ya[/u] {key}").drawn == "Roba2ya"


def test_plain_is_words_icons_as_words_and_paragraphs_without_markup() -> None:
    text = "**Roba** {draw:2} y [u]gana[/u] {coin=3}.\n*Luego* 7 * 7\n\n{center}Fin: {icon:key} {move_fast:+1}"
    assert parse(text).plain == "Roba draw 2 y gana coin 3.\nLuego 7 * 7\n\nFin: key move fast +1"


def test_span_problems_are_in_words() -> None:
    assert list(parse("[u]a [size]b[/u]").span_problems) == [
        "'[size]': write [size=…]",
        "'[/u]' closes a [u] that is not the last one open ([/size] first)",
        "'[u…]' is never closed: end it with [/u]",
        "'[size…]' is never closed: end it with [/size]",
    ]


class _Scans:
    """TOKEN, counting each scan of a string that holds a space: a whole text (the paragraph splitter
    scans single words)."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.seen = pattern, Counter[str]()

    def __getattr__(self, attr: str) -> Any:
        real = getattr(self.pattern, attr)

        def scan(*args: Any) -> Any:
            text = args[1 if attr in ("sub", "subn") else 0]  # sub(repl, string)
            if " " in text:
                self.seen[text] += 1
            return real(*args)

        return scan if attr in ("finditer", "sub", "subn", "findall", "search", "match", "fullmatch", "split") else real


def test_a_build_scans_each_texts_tokens_once(
    kanji_copy: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Validation (icons), localisation (signatures), the glossary, house-style and coverage checks and
    the layout read one parse: no whole text is scanned for icon tokens twice in a build."""
    parse.cache_clear()
    scans = _Scans(TOKEN)
    monkeypatch.setattr(cardtext, "TOKEN", scans)
    build(kanji_copy, BuildOptions(out_dir=tmp_path / "out", cache=False), render=False)
    assert scans.seen, "the build read no card text"
    twice = [text for text, n in scans.seen.items() if n > 1]
    assert twice == [], twice[:3]
    assert len(scans.seen) > 10
