"""The words a round's changelog for players is written in (`diff --format markdown`), all in the
compared language: a field by its label, never its id (the kind file's `label:`, else the field's
name as English words translated like a template's labels); an icon token by the icon's word (its
name as English words, translated the same way: `{wound}` -> "herida"); an enum value by the word the
kind gives it; a list as its items, a yes-or-no as a word. A name the designer gave (a kind file's
field with no `label:`, an icon of the pack's own) is written in the pack's source language: as is
there, translated through the label catalogues elsewhere. Card text markup (span tags, alignment,
emphasis) is left out: players read the words."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from mazmorra.errors import SHIPPED, shown
from mazmorra.model.cardtext import ALIGNMENTS, SPAN, TOKEN, parse_token
from mazmorra.model.declared.spec import FieldDecl, field_words

if TYPE_CHECKING:
    from mazmorra.model.content import Kind

_EMPHASIS = re.compile(r"\*\*|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)")
DECK = "deck"  # the pseudo-field of a component that moved to another deck


class Words(Protocol):
    """Labels in one language (`i18n.labels.Labels`): `_(msgid)` and `ngettext`; the translations it
    has (`table`) and the words it found none for (`missing`)."""

    lang: str
    table: dict[str, str]
    missing: dict[str, None]

    def __call__(self, msgid: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...


def icon_words(name: str) -> str:
    """An icon's name as English words, the label its word is translated from (`bad_luck` -> "bad
    luck", `single-use` -> "single use")."""
    return name.replace("_", " ").replace("-", " ").strip()


class Players:
    """A pack's fields, values and icon tokens in the words its players read, in one language."""

    def __init__(
        self,
        kinds: Mapping[str, Kind],
        words: Words,
        decks: Mapping[str, str],
        source: str | None = None,
        own_icons: frozenset[str] = frozenset(),
    ):
        self.kinds = kinds
        self.words = words
        self.lang = words.lang
        self.decks = decks  # deck id -> its name in the language
        self.source = source or self.lang  # the language the designer names things in
        self.own_icons = own_icons  # the pack's own icons: named by the designer, in the source language

    def _designers(self, words: str) -> str:
        """A word the designer wrote in the pack's source language (a kind file's field with no
        `label:`, an icon of their own): as written in that language; in another, its translation
        in the label catalogues, else as written and noted missing (English too)."""
        if self.lang == self.source:
            return words
        if words in self.words.table:
            return self.words.table[words]
        self.words.missing.setdefault(words, None)
        return words

    def _decl(self, kind: str, name: str) -> FieldDecl | None:
        found = self.kinds.get(kind)
        return found.fields.get(name) if found is not None else None

    def field(self, kind: str, name: str) -> str:
        """What players call a field of a kind."""
        if name == DECK:
            return self.words("Deck")
        decl = self._decl(kind, name)
        if decl is None:  # a built-in kind's field: named in English, translated like a label
            return self.words(field_words(name))
        own = decl.label_word(self.lang)
        if own is not None:
            return own
        if decl.label is not None or self._shipped(kind, name):  # an English word: translated like a label
            return self.words(decl.label_msgid(name))
        return self._designers(field_words(name))

    def _shipped(self, kind: str, name: str) -> bool:
        """Whether a field is declared by a kind file the tool ships (a game family's, named in English)."""
        found = self.kinds.get(kind)
        where = found.declared_at.get(name) if found is not None else None
        return where is not None and shown(where.file).startswith(SHIPPED)

    def value(self, kind: str, name: str, value: str | None) -> str:
        """A field's value as players read it ("" for none)."""
        if value is None:
            return ""
        if name == DECK:
            return self.decks.get(value, value)
        decl = self._decl(kind, name)
        try:
            data = json.loads(value) if value[:1] in "[{" or value in ("true", "false") else value
        except ValueError:
            data = value
        if isinstance(data, bool):
            return self.words("yes") if data else self.words("no")
        if isinstance(data, list):
            item = decl.item() if decl is not None and decl.type == "list" else None
            return ", ".join(self._one(item, x) for x in data if not isinstance(x, (list, dict)))
        if isinstance(data, dict):
            return self.words("changed")
        return self._one(decl, data)

    def _one(self, decl: FieldDecl | None, value: object) -> str:
        text = str(value)
        choice = decl.choices.get(text) if decl is not None else None
        if choice is not None:
            own = choice.word(self.lang)
            return own if own is not None else self.words(choice.msgid)
        return self.text(text)

    def text(self, text: str) -> str:
        """Card text as players read it: icon tokens as their words (a number beside or inside an
        icon before it: "2 × wound"), no span tags, alignment marks or emphasis."""

        def spoken(m: re.Match[str]) -> str:
            icon = parse_token(m)
            if icon.name in ALIGNMENTS and icon.number is None:
                return ""
            named = icon_words(icon.name)
            word = self._designers(named) if icon.name in self.own_icons else self.words(named)
            return f"{icon.number} × {word}" if icon.number else word

        return _EMPHASIS.sub("", SPAN.sub("", TOKEN.sub(spoken, text))).strip()
