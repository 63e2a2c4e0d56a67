"""The house style of rules text (i18n/checks/house.py): keywords bold, icons with a number as nouns after
their verb, numbers in digits; warnings declared in the glossary, located where the text is written."""

from __future__ import annotations

import polib
import pytest
from conftest import edit, line_of, run_cli

from mazmorra.errors import Loc
from mazmorra.i18n.checks.glossary import Pair, Term, check_glossary
from mazmorra.i18n.checks.house import style_of

AT = Loc("glossary.yaml", 1, 1)
TERMS = (
    Term({"es": ("anula", "anúlala"), "en": ("cancel",)}, "", AT, bold=True),
    Term({"es": ("roba", "robas"), "en": ("draw", "draws")}, "", AT, icon="draw"),
    Term({"es": ("recibe",), "en": ("take", "takes")}, "", AT, icon="stun"),
)


def rules(text: str, lang: str, prose: bool = False) -> list[str]:
    return [rule for rule, _ in style_of(text, lang, TERMS, prose)]


def test_the_house_style_accepts_what_it_asks_for() -> None:
    assert rules("**Anula** una carta. Después, roba {draw:1} y recibe {stun:2}.", "es") == []
    assert rules("**Cancel** it. Then, both of you draw {draw:1}; a rival takes {stun:1}.", "en") == []
    assert rules("Look at the top 3 cards, then draw {draw:2} / take {stun:1}.", "en") == []
    assert rules("Gain 2 {coin} and a {draw} icon alone.", "en") == []  # an icon without a number is a symbol
    assert rules("Three Wells", "en", prose=True) == []  # names and flavour may spell numbers


def test_an_icon_used_as_a_verb_is_flagged() -> None:
    assert rules("Después, {draw:1}.", "es") == ["style.icon-verb"]
    assert rules("Un rival {draw:2}. Roba 1 cubo: {stun:1}.", "es") == ["style.icon-verb", "style.icon-verb"]
    # the verb must stand in the same clause, among the three words before the icon
    assert rules("Draw a card, then {draw:1}.", "en") == ["style.icon-verb"]
    [(_, message)] = style_of("Then, {stun:1}.", "en", TERMS)
    assert "{stun:1} is a noun" in message and "'take'" in message


def test_a_keyword_not_bold_and_a_number_in_words_are_flagged() -> None:
    assert rules("Cancel a card that targets you.", "en") == ["style.bold"]
    assert rules("**Anula** la carta y después anúlala otra vez.", "es") == ["style.bold"]
    assert rules("Look at the top three cards.", "en") == ["style.number-words"]
    assert rules("Mira las tres cartas de arriba.", "es") == ["style.number-words"]
    assert rules("Once per turn, one card.", "en") == []  # "one" is an article as often as a number


@pytest.mark.slow
def test_the_warnings_are_located_where_the_translator_or_designer_writes(pack_copy) -> None:
    pack = pack_copy("expedicion")
    project = pack.parents[1]
    deck = pack / "decks" / "maldiciones.yaml"
    edit(deck, "Al final de tu turno, descarta {discard:1}.", "Al final de tu turno, {discard:1}.")
    edit(
        pack / "locale" / "en.po",
        'msgid "Al final de tu turno, descarta {discard:1}."',
        'msgid "Al final de tu turno, {discard:1}."',
    )
    po_path = pack / "locale" / "en.po"
    po = polib.pofile(str(po_path), wrapwidth=0)
    entry = po.find("mapa-falsificado.effect", by="msgctxt")
    entry.msgstr = "A rival’s stealth test adds {alert:2}. If it fails, {draw:1}, then three more."
    cancel = "**Cancel** a card that targets you, or cancel its effect."
    po.find(
        "cortina-de-polvo.effect", by="msgctxt"
    ).msgstr = f"{cancel} Then, sacrifice {{sacrifice:1}} / discard {{discard:1}}."
    po.save()
    verb_line = line_of(deck, "Al final de tu turno, {discard:1}.")
    bold_line = line_of(po_path, "or cancel its effect")
    po_line = line_of(po_path, "If it fails, {draw:1}")
    res = run_cli("validate", "expedicion", cwd=project)
    assert res.returncode == 0, res.stderr  # warnings
    err = res.stderr
    source = [ln for ln in err.splitlines() if ln.startswith(f"content/expedicion/decks/maldiciones.yaml:{verb_line}:")]
    assert source and "(es)" in source[0] and "{discard:1} is a noun" in source[0], err  # the designer's line
    assert f"content/expedicion/locale/en.po:{bold_line}:" in err and "'cancel' is a keyword" in err
    located = [ln for ln in err.splitlines() if ln.startswith(f"content/expedicion/locale/en.po:{po_line}:")]
    assert any("(style.icon-verb)" in ln and "[mapa-falsificado.effect] (en)" in ln for ln in located), err
    assert any("'three'" in ln and "(style.number-words)" in ln for ln in located), err
    assert run_cli("validate", "expedicion", "--strict", cwd=project).returncode == 1


def test_an_icon_term_is_no_glossary_term() -> None:
    """'roba' also means 'steal': an icon's verb is a style rule, never demanded in a translation."""
    pair = Pair("Roba 1 cubo a un rival.", "Steal 1 cube from a rival.", AT, "x", "effect")
    assert check_glossary(TERMS, "es", "en", [pair]) == []
